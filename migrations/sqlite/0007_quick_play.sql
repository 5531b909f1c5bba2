-- Quick play (`POST /v1/quick-play`): tables it opens start by themselves when full, and, when
-- the first player asked for it, are filled with bots from `bots_at` (Unix millis) on.
ALTER TABLE game_tables ADD COLUMN quick INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN bots_at BIGINT;
CREATE INDEX game_tables_quick_open ON game_tables (game, seat_count, created_at) WHERE status = 'open' AND quick = 1;
