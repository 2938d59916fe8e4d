-- Spectators counted across the server processes sharing a PostgreSQL database: each process
-- publishes how many spectators' sockets it holds per game and renews its row in
-- spectator_processes every heartbeat; the counts of a process whose row has expired (it died
-- without a word) are left out of the lists, then deleted with its row. (With SQLite there is
-- one process, which counts in memory only.)
CREATE TABLE spectator_processes (
    process TEXT PRIMARY KEY,
    expires_ms BIGINT NOT NULL
);
CREATE TABLE spectator_counts (
    process TEXT NOT NULL REFERENCES spectator_processes (process) ON DELETE CASCADE,
    game_id TEXT NOT NULL,
    spectators BIGINT NOT NULL,
    PRIMARY KEY (process, game_id)
);
CREATE INDEX spectator_counts_by_game ON spectator_counts (game_id);
-- Expired sessions are deleted by their age.
CREATE INDEX sessions_by_created ON sessions (created_ms);
