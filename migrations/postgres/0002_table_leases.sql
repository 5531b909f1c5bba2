-- Ownership of tables in play. Each server process (an instance) keeps a lease alive in
-- `instances` by renewing `lease_until` (Unix ms); a table in play is driven by the instance
-- named in its `owner` while that lease lasts. Taking a table bumps its `epoch`, and every
-- append to the log checks the epoch it was taken with, so a process that lost a table can no
-- longer write to its log (fencing).
CREATE TABLE instances (
    id          TEXT PRIMARY KEY,
    lease_until BIGINT NOT NULL
);
ALTER TABLE game_tables ADD COLUMN owner TEXT;
ALTER TABLE game_tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
