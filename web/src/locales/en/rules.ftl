# The rules pages (#/rules, #/rules/<game>): their titles and links. The rules themselves are
# HTML files per language, web/src/rules/<language>/<game>.html.

nav-rules = Rules
rules-title = Rules of the games
rules-intro = How each game is played at these tables: setup, a turn, moving and capturing, the end, and what the online table adds (the clock, a bot taking over, the fair dice).
rules-about-luddo = the house's Ludo: star squares are safe, and a 6, a capture or a token brought home earns another roll
rules-about-ludo = classic Ludo with one die, blocks and no safe squares
rules-about-uckers = the Royal Navy's Ludo: two dice, partners, blobs and challenges
rules-about-snakes = the classic board of 1943: roll, climb the ladders, slide down the snakes
rules-about-backgammon = fifteen checkers each, with the doubling cube and matches
rules-game-title = Rules of { $game }
rules-written-in = Language of these rules:
rules-loading = Loading the rules…
rules-not-loaded = The rules could not be loaded ({ $status }).
rules-other-games = Other games
rules-all-games = The games
rules-no-such-game-title = No such game
rules-no-such-game = There is no game called “{ $game }” here. These are the games whose rules you can read:
