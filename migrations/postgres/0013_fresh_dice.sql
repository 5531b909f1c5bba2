-- Fresh dice (issue #35, docs/fairness.md): a table's `fresh_dice` option (0 or 1, like
-- `party`; tables before it had none), and the head of the dice chain each seat's player
-- committed to (64 hex characters, NULL for none). The link each entry consumed is kept in the
-- entry's `events` JSON (`reveal`), which older entries simply lack.
ALTER TABLE game_tables ADD COLUMN fresh_dice BIGINT NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN dice_chain TEXT;
-- A rematch vote carries the chain head its player commits to for the new table's seat.
ALTER TABLE rematch_votes ADD COLUMN dice_chain TEXT;
