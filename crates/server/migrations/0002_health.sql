-- One row that readiness checks write to after a failed write, to learn whether the database
-- takes writes again.
CREATE TABLE health (
    id BIGINT PRIMARY KEY,
    checked_ms BIGINT NOT NULL
);
INSERT INTO health (id, checked_ms) VALUES (1, 0);
