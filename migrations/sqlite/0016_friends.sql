-- Players together (issue #37, docs/social.md): friendships and requests, blocks, challenges
-- with each invitee's answer, and when a player's socket was last seen open (presence).

-- One row a pair of players, the lower id first: a request (`requested`, from `requester_id`)
-- or a friendship (`friends`, since `since`). One row a pair makes two players asking each
-- other at once meet on its primary key and end as friends.
CREATE TABLE friendships (
    low_id TEXT NOT NULL REFERENCES players (id),
    high_id TEXT NOT NULL REFERENCES players (id),
    requester_id TEXT NOT NULL REFERENCES players (id),
    status TEXT NOT NULL,
    at BIGINT NOT NULL,
    since BIGINT,
    PRIMARY KEY (low_id, high_id)
);
CREATE INDEX friendships_high ON friendships (high_id);

-- `player_id` blocks `blocked_id`; a block works both ways.
CREATE TABLE blocks (
    player_id TEXT NOT NULL REFERENCES players (id),
    blocked_id TEXT NOT NULL REFERENCES players (id),
    at BIGINT NOT NULL,
    PRIMARY KEY (player_id, blocked_id)
);
CREATE INDEX blocks_blocked ON blocks (blocked_id);

-- A challenge: the table's settings as sent (JSON), the table its first acceptance opened
-- (no foreign key: the acceptance claims the table's id before the lobby creates the table).
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    from_id TEXT NOT NULL REFERENCES players (id),
    settings TEXT NOT NULL,
    table_id TEXT,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX challenges_from ON challenges (from_id, status);
CREATE INDEX challenges_pending ON challenges (expires_at) WHERE status = 'pending';

-- Each invitee's answer: `pending`, `accepting` (being seated at the table), `accepted` or
-- `declined`.
CREATE TABLE challenge_invitees (
    challenge_id TEXT NOT NULL REFERENCES challenges (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    answer TEXT NOT NULL,
    PRIMARY KEY (challenge_id, player_id)
);
CREATE INDEX challenge_invitees_player ON challenge_invitees (player_id);

-- When a socket of the player was last seen open (Unix ms): written as one opens and every
-- 30 s by the process holding it.
ALTER TABLE players ADD COLUMN seen_at BIGINT;
