-- How well the bots that fill a table's empty seats play (`easy`, `normal`, `strong`); a bot
-- that takes over an absent player's seat always plays `strong`.
ALTER TABLE game_tables ADD COLUMN bot_level TEXT NOT NULL DEFAULT 'strong';
