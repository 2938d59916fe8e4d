-- A game: its settings, seats and where it stands; its history is in events.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    black_token TEXT,
    white_token TEXT,
    invite TEXT NOT NULL,
    public BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL
);
CREATE INDEX games_by_status ON games (status, updated_ms);
-- Everything that happened in a game, numbered from 1: moves, joins, resignations, marks.
CREATE TABLE events (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
