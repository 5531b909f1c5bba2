-- The tamper-evident history (docs/history.md): one link per finished table, appended in the
-- finish's transaction, each hashing the one before it; the head (one row, locked by every
-- append, so appends from any number of processes are serialized); the signed checkpoints.
-- The chain starts at this upgrade: tables finished before it have no link.
CREATE TABLE history_links (
    position     BIGINT PRIMARY KEY,
    table_id     TEXT NOT NULL UNIQUE REFERENCES game_tables (id),
    prev_hash    TEXT NOT NULL,
    record_hash  TEXT NOT NULL,
    commitment   TEXT NOT NULL,
    hash         TEXT NOT NULL,
    at           BIGINT NOT NULL
);

CREATE TABLE history_head (
    id        BIGINT PRIMARY KEY CHECK (id = 1),
    position  BIGINT NOT NULL,
    hash      TEXT NOT NULL
);
INSERT INTO history_head (id, position, hash)
VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

CREATE TABLE history_checkpoints (
    position    BIGINT PRIMARY KEY,
    hash        TEXT NOT NULL,
    at          BIGINT NOT NULL,
    key_id      TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    signature   TEXT NOT NULL
);
