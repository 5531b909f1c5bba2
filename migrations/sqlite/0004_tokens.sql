-- Tokens for life no more (issue #16 item 5): a player may hold several bearer tokens, each
-- revocable and optionally expiring. `hash` is the SHA-256 of the token, hex, as
-- `players.token_hash` was; `expires_at` NULL never expires; `last_used_at` is refreshed at most
-- once an hour (a write per request would be a write per request).
CREATE TABLE tokens (
    id           TEXT PRIMARY KEY,
    player_id    TEXT NOT NULL REFERENCES players(id),
    hash         TEXT NOT NULL UNIQUE,
    label        TEXT,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT,
    expires_at   BIGINT
);
CREATE INDEX tokens_player ON tokens (player_id);

-- Every player's one token moves here, working as before. Each player had exactly one, so the
-- player's id is a fresh, unique id for it (neither backend makes UUIDs the same way in SQL).
INSERT INTO tokens (id, player_id, hash, label, created_at)
SELECT id, id, token_hash, 'sign-up', created_at FROM players;

-- `players.token_hash` is no longer read: `tokens` is the one place a token lives, so revoking
-- the migrated token revokes it. The column stays (SQLite cannot drop a UNIQUE column without
-- rebuilding the table) and holds a unique placeholder that no SHA-256 hex can equal.
UPDATE players SET token_hash = 'moved:' || id;
