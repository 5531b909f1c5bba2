-- Glicko-2 ratings, per player per game, updated in the transaction that records a finish
-- (docs/ratings.md). `rank_key` orders the leaderboard: minus the rating in thousandths.
CREATE TABLE ratings (
    player_id TEXT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    rank_key BIGINT NOT NULL,
    games BIGINT NOT NULL,
    wins BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_leaderboard ON ratings (game, rank_key, player_id);
-- What each rated game did to each rated player's rating.
CREATE TABLE rating_changes (
    table_id TEXT NOT NULL REFERENCES game_tables (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    game TEXT NOT NULL,
    place BIGINT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, player_id)
);
CREATE INDEX rating_changes_player ON rating_changes (player_id, at);
