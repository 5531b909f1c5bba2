-- Players, tables, seats, the append-only action log and the hall of shame.
-- Ids are UUIDs in text form and times are Unix milliseconds, so that both stores share one SQL.

CREATE TABLE players (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  BIGINT NOT NULL
);

CREATE TABLE game_tables (
    id              TEXT PRIMARY KEY,
    game            TEXT NOT NULL,
    options         TEXT NOT NULL,
    seat_count      BIGINT NOT NULL,
    visibility      TEXT NOT NULL CHECK (visibility IN ('public', 'private')),
    party           BIGINT NOT NULL, -- 0 or 1 (the Any driver has no portable boolean)
    invite_code     TEXT UNIQUE,
    status          TEXT NOT NULL CHECK (status IN ('open', 'playing', 'finished', 'closed')),
    host_id         TEXT NOT NULL REFERENCES players (id),
    seed            TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    client_seed     TEXT NOT NULL,
    dice_script     TEXT,
    outcome         TEXT,
    turn_deadline   BIGINT,
    created_at      BIGINT NOT NULL,
    started_at      BIGINT,
    finished_at     BIGINT
);
CREATE INDEX game_tables_lobby ON game_tables (status, visibility, created_at DESC, id DESC);

CREATE TABLE seats (
    table_id    TEXT NOT NULL REFERENCES game_tables (id),
    seat        BIGINT NOT NULL,
    player_id   TEXT REFERENCES players (id),
    controller  TEXT NOT NULL CHECK (controller IN ('human', 'bot')),
    joined_at   BIGINT,
    PRIMARY KEY (table_id, seat)
);
CREATE UNIQUE INDEX seats_one_per_player ON seats (table_id, player_id) WHERE player_id IS NOT NULL;
CREATE INDEX seats_by_player ON seats (player_id) WHERE player_id IS NOT NULL;

CREATE TABLE actions (
    table_id    TEXT NOT NULL REFERENCES game_tables (id),
    seq         BIGINT NOT NULL,
    seat        BIGINT,
    actor       TEXT NOT NULL,
    action      TEXT NOT NULL,
    events      TEXT NOT NULL,
    at          BIGINT NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE shame (
    id          TEXT PRIMARY KEY,
    table_id    TEXT NOT NULL REFERENCES game_tables (id),
    game        TEXT NOT NULL,
    player_id   TEXT REFERENCES players (id),
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('dicking', 'up_board')),
    pieces_home BIGINT NOT NULL,
    at          BIGINT NOT NULL
);
CREATE INDEX shame_newest ON shame (at DESC, id DESC);
