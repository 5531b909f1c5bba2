-- Backgammon reviews (docs/analysis.md): each finished backgammon table's decisions rated once,
-- after its finish, by the review worker. `reviewed` marks a finished table whose review is
-- written (1) or that was set aside because its log does not replay (2); 0 until then. The
-- partial index finds the backgammon tables still to review without reading the others.
ALTER TABLE game_tables ADD COLUMN reviewed BIGINT NOT NULL DEFAULT 0;
CREATE INDEX game_tables_unreviewed ON game_tables (finished_at)
    WHERE status = 'finished' AND game = 'backgammon' AND reviewed = 0;

-- One row per reviewed table: each seat's totals (error rate, band, errors, blunders, luck) as
-- JSON, and when the worker wrote them.
CREATE TABLE reviews (
    table_id TEXT PRIMARY KEY REFERENCES game_tables (id),
    seats TEXT NOT NULL,
    reviewed_at BIGINT NOT NULL
);

-- Its decisions, numbered 1, 2, 3, … in the order played (the page's cursor), each as JSON.
CREATE TABLE review_decisions (
    table_id TEXT NOT NULL REFERENCES game_tables (id),
    number BIGINT NOT NULL,
    decision TEXT NOT NULL,
    PRIMARY KEY (table_id, number)
);
