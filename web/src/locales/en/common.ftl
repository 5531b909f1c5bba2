# The parts of the page every view shares: the header, its navigation, the account bar.
# Message ids are kebab-case, prefixed by what they belong to.

nav-pages = Pages
nav-lobby = Lobby
nav-new-table = New table
nav-friends = Friends
nav-leaderboard = Leaderboard
nav-shame = Hall of shame
nav-fairness = Fairness
nav-api = API
skip-to-content = Skip to the content
language-switch = Language

# The games, by their names in the API (`game`): every part of the client names them so.
game-luddo = Luddo
game-ludo = Ludo
game-uckers = Uckers
game-snakes = Snakes and Ladders
game-backgammon = Backgammon

# The account bar. { $name } is the player's name with its tag, a link to the profile.
account-signed-in = Signed in as { $name }
account-profile = Your profile
account-sign-out = Sign out
account-not-signed-in = Not signed in

# The sign-up form (the lobby, the new table's page, an invite link).
signup-title = Sign up to play
signup-name = Your name
signup-submit = Sign up
signup-hint = No password: your token stays in this browser (localStorage). Anyone may watch public tables without signing up.

# Words many pages use.
loading = Loading…
none-yet = None yet.
# A seat a bot holds, where a player's name would be.
bot = bot
# A turn clock: seconds per decision.
seconds = { $seconds } s
field-game = Game
column-game = Game
column-rating = Rating
column-deviation = ± deviation

# What went wrong when the server gave no problem to show by its code.
failure-network = The server cannot be reached. Check your connection and try again.
failure-http = The server answered with an error (HTTP { $status }).
# A table's socket the server refused: a private table, for someone not seated or invited.
feed-private = this table is private

# The fairness check (after a game, and in its replay). { $verdict } is the word "verified" or
# "NOT verified", set apart.
fairness-checking = Checking…
fairness-verdict-ok = verified
fairness-verdict-not = NOT verified
fairness-verified = { $verdict }: the revealed seed matches the commitment, and { $dice ->
    [one] the one die
   *[other] all { $dice } dice
  } in { $entries ->
    [one] the one log entry matches
   *[other] { $entries } log entries match
  } HMAC-SHA256(seed, client seed) recomputed in this browser.
fairness-refuted = { $verdict }: { $reason }
fairness-no-seed = the game is not over: no seed revealed yet
fairness-commitment = SHA-256 of the revealed seed is { $computed }, not the commitment { $commitment }
fairness-no-start = the log has no start
fairness-seeds-combine = the seats' seeds combine to { $combined }, not { $expected }
fairness-seats-seeds = the start's seeds are not the seats' seeds
fairness-client-seed = the start's client seed is not the table's
fairness-die = entry { $seq }, event { $index } ({ $event }): die #{ $k } is { $die }, the recipe gives { $expected }
fairness-chain = entry { $seq }: seat { $seat }'s reveal is not the next link of its dice chain (out of order, a link skipped, or no chain committed)
fairness-chain-shown = seat { $seat } shows another dice chain than the start committed
fairness-reveal-missing = entry { $seq }: seat { $seat }'s player rolled without a reveal: the server's own dice where the player's were due
