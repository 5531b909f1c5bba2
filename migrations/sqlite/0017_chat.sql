-- Table chat and moderation (docs/social.md, issue #37).

-- The host's chat settings: free text on (1) or emotes only (0); spectators may read (1) or not.
ALTER TABLE game_tables ADD COLUMN chat_text BIGINT NOT NULL DEFAULT 1;
ALTER TABLE game_tables ADD COLUMN chat_spectators BIGINT NOT NULL DEFAULT 0;

-- A table's messages, numbered from 1 (`n`); exactly one of `text` and `emote` is set.
-- `hidden_at` is set when a moderator hid it: it is kept (for the reports) and shown to no one.
CREATE TABLE chat_messages (
    table_id TEXT NOT NULL REFERENCES game_tables (id),
    n BIGINT NOT NULL,
    player_id TEXT NOT NULL REFERENCES players (id),
    seat BIGINT,
    text TEXT,
    emote TEXT,
    created_at BIGINT NOT NULL,
    hidden_at BIGINT,
    PRIMARY KEY (table_id, n)
);

-- Players a player does not want to read.
CREATE TABLE mutes (
    player_id TEXT NOT NULL REFERENCES players (id),
    muted_id TEXT NOT NULL REFERENCES players (id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, muted_id)
);
CREATE INDEX mutes_muted ON mutes (muted_id);

-- The admin role (granted by `luddo admin grant`), and a moderator's mute and ban (Unix ms).
ALTER TABLE players ADD COLUMN admin BIGINT NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN chat_muted_until BIGINT;
ALTER TABLE players ADD COLUMN banned_until BIGINT;

-- Reports of a player or of one of their messages (`table_id`, `message_n`).
CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    reporter_id TEXT NOT NULL REFERENCES players (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    table_id TEXT REFERENCES game_tables (id),
    message_n BIGINT,
    reason TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
    created_at BIGINT NOT NULL,
    closed_at BIGINT,
    closed_by TEXT REFERENCES players (id),
    note TEXT
);
CREATE INDEX reports_status ON reports (status, created_at);
CREATE INDEX reports_reporter ON reports (reporter_id, created_at);

-- Every moderation action: `actor_id` the admin (NULL: the command line), `action` what was
-- done, to whom (`player_id`) or what (`table_id`, `message_n`, `report_id`), until when, why.
CREATE TABLE moderation_log (
    id TEXT PRIMARY KEY,
    at BIGINT NOT NULL,
    actor_id TEXT REFERENCES players (id),
    action TEXT NOT NULL,
    player_id TEXT REFERENCES players (id),
    table_id TEXT REFERENCES game_tables (id),
    message_n BIGINT,
    report_id TEXT REFERENCES reports (id),
    until_at BIGINT,
    reason TEXT
);
CREATE INDEX moderation_log_at ON moderation_log (at);
