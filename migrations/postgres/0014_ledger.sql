-- The luck and fairness ledger (docs/luck.md): each finished table's dice per seat, and the sums
-- per player and game and per game site-wide, written together by the ledger worker.
-- `ledgered` marks a finished table the ledger has counted (0 until then); the partial index
-- finds the ones still to count without reading the others.
ALTER TABLE game_tables ADD COLUMN ledgered BIGINT NOT NULL DEFAULT 0;
CREATE INDEX game_tables_unledgered ON game_tables (finished_at) WHERE status = 'finished' AND ledgered = 0;

-- One row per seat of a counted table: the faces 1–6, throws, two-dice throws and doubles among
-- them, and for backgammon the summed luck of its rolls (NULL for other games).
CREATE TABLE ledger_seats (
    table_id TEXT NOT NULL REFERENCES game_tables (id),
    seat BIGINT NOT NULL,
    player_id TEXT REFERENCES players (id),
    game TEXT NOT NULL,
    public BIGINT NOT NULL,
    f1 BIGINT NOT NULL, f2 BIGINT NOT NULL, f3 BIGINT NOT NULL,
    f4 BIGINT NOT NULL, f5 BIGINT NOT NULL, f6 BIGINT NOT NULL,
    throws BIGINT NOT NULL,
    pairs BIGINT NOT NULL,
    doubles BIGINT NOT NULL,
    luck DOUBLE PRECISION,
    luck_rolls BIGINT NOT NULL,
    finished_at BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX ledger_seats_player ON ledger_seats (player_id, finished_at) WHERE player_id IS NOT NULL;

-- Sums per player and game: `scope` 'all' counts every table, 'public' the public ones only
-- (what others see). `tables` is how many tables were summed.
CREATE TABLE ledger_players (
    player_id TEXT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    scope TEXT NOT NULL CHECK (scope IN ('all', 'public')),
    tables BIGINT NOT NULL,
    f1 BIGINT NOT NULL, f2 BIGINT NOT NULL, f3 BIGINT NOT NULL,
    f4 BIGINT NOT NULL, f5 BIGINT NOT NULL, f6 BIGINT NOT NULL,
    throws BIGINT NOT NULL,
    pairs BIGINT NOT NULL,
    doubles BIGINT NOT NULL,
    luck DOUBLE PRECISION NOT NULL,
    luck_rolls BIGINT NOT NULL,
    PRIMARY KEY (player_id, game, scope)
);

-- Sums per game over every counted table (private ones too: no player is named).
CREATE TABLE ledger_games (
    game TEXT PRIMARY KEY,
    tables BIGINT NOT NULL,
    f1 BIGINT NOT NULL, f2 BIGINT NOT NULL, f3 BIGINT NOT NULL,
    f4 BIGINT NOT NULL, f5 BIGINT NOT NULL, f6 BIGINT NOT NULL,
    throws BIGINT NOT NULL,
    pairs BIGINT NOT NULL,
    doubles BIGINT NOT NULL,
    luck DOUBLE PRECISION NOT NULL,
    luck_rolls BIGINT NOT NULL
);
