-- Profiles and game histories: each seat's finishing place, written with the finish (NULL for
-- tables finished before it was), and the indexes that find a player's seats and shame.
ALTER TABLE seats ADD COLUMN place BIGINT;
CREATE INDEX seats_player ON seats (player_id) WHERE player_id IS NOT NULL;
CREATE INDEX shame_player ON shame (player_id) WHERE player_id IS NOT NULL;
