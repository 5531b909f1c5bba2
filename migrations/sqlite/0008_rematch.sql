-- Rematches: the seated players of a finished table who asked for one, and the table the
-- rematch opened once every one of them had.
CREATE TABLE rematch_votes (
    table_id TEXT NOT NULL REFERENCES game_tables (id),
    player_id TEXT NOT NULL REFERENCES players (id),
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, player_id)
);
ALTER TABLE game_tables ADD COLUMN rematch_id TEXT;
