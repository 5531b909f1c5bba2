-- Who was rated against whom (docs/ratings.md, "Farming"): one row per player and opponent
-- paired at a rated table, so that two players' pairings in a day can be counted, and the
-- number of distinct opponents each rating was measured against, kept with the rating (the
-- leaderboard lists only ratings measured against a few). Tables rated before are backfilled
-- from their rating changes: every two players rated at a table, less Uckers partners.
CREATE TABLE rating_pairs (
    table_id TEXT NOT NULL REFERENCES game_tables (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    opponent_id TEXT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, player_id, opponent_id)
);
CREATE INDEX rating_pairs_recent ON rating_pairs (player_id, opponent_id, game, at);
INSERT INTO rating_pairs (table_id, player_id, opponent_id, game, at)
    SELECT a.table_id, a.player_id, b.player_id, a.game, a.at
    FROM rating_changes a JOIN rating_changes b ON b.table_id = a.table_id AND b.player_id <> a.player_id
    WHERE a.game <> 'uckers' OR a.place <> b.place;
ALTER TABLE ratings ADD COLUMN opponents BIGINT NOT NULL DEFAULT 0;
UPDATE ratings SET opponents = (
    SELECT COUNT(DISTINCT p.opponent_id) FROM rating_pairs p WHERE p.player_id = ratings.player_id AND p.game = ratings.game
);
