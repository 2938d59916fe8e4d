-- Accounts: a name (unique whatever its case) and the argon2id hash of its password (PHC string).
CREATE TABLE accounts (
    name TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE UNIQUE INDEX accounts_by_lower_name ON accounts (lower(name));
-- Logged-in sessions: the SHA-256 of the token a client presents (cookie or Bearer; the token
-- itself is not kept, so that a copy of the database opens no session), and whose it is.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    name TEXT NOT NULL REFERENCES accounts (name),
    created_ms BIGINT NOT NULL
);
-- Each account's Glicko-2 rating per variant, from its rated games.
CREATE TABLE ratings (
    name TEXT NOT NULL REFERENCES accounts (name),
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (name, variant)
);
CREATE INDEX ratings_by_variant ON ratings (variant, rating);
-- The accounts holding a game's seats (by the seats' creation colours, as the tokens).
ALTER TABLE games ADD COLUMN black_account TEXT;
ALTER TABLE games ADD COLUMN white_account TEXT;
CREATE INDEX games_by_black_account ON games (black_account, updated_ms);
CREATE INDEX games_by_white_account ON games (white_account, updated_ms);
