-- A long clock (WCAG 2.2.1): every limit of the table, its turn clock and the away rule, ten
-- times the server's; private tables only. 0 or 1, like `party`; tables before it had none.
ALTER TABLE game_tables ADD COLUMN long_clock BIGINT NOT NULL DEFAULT 0;
