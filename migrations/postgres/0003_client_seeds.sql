-- Every seated player gives a client seed until the start (docs/fairness.md). `seats.client_seed`
-- is the seed the seat's player gave ('' for none); `game_tables.client_seed` becomes the table's
-- combined client seed, fixed at the start ('' while open). Tables that started before this kept
-- the host's seed there, which is what their dice were drawn with, so they replay unchanged.
ALTER TABLE seats ADD COLUMN client_seed TEXT NOT NULL DEFAULT '';

-- An open table's seed was its host's: it becomes the host seat's seed.
UPDATE seats SET client_seed = (
    SELECT t.client_seed FROM game_tables t WHERE t.id = seats.table_id
)
WHERE EXISTS (
    SELECT 1 FROM game_tables t
    WHERE t.id = seats.table_id AND t.status = 'open' AND t.host_id = seats.player_id
);
UPDATE game_tables SET client_seed = '' WHERE status = 'open';
