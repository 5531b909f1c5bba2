# The pages outside the table: the lobby, the new table's form, a profile, the leaderboard, the
# hall of shame, an invite link.

## The lobby (#/)

lobby-heading = Lobby
play-now-title = Play now
play-now-players = Players
play-now-bots = bots after { $seconds } s
play-now-submit = Play now
play-now-hint = A seat at the oldest table waiting for the same game, or a new one; it starts when full.
lobby-open-tables = Open tables
lobby-live = live
lobby-filters = Filters
filter-any = any
filter-party = Party
filter-party-only = party only
filter-no-party = no party
filter-free = with free seats
column-host = Host
column-seats = Seats
column-clock = Clock
# The last column's header, read by screen readers only: its cells are the links to the tables.
column-table = Table
tag-party = party
lobby-open = Open
lobby-watch = Watch
lobby-none = No open table matches. Create one!
lobby-create = Create a table
lobby-finished = Finished games

## A new table (#/new)

new-title = Create a table
new-seats = Seats
new-options = Options
new-bot-level = Bots
bot-level-easy = easy
bot-level-normal = normal
bot-level-strong = strong
new-private = private (joined with the invite link)
new-party = party table ({ $seconds } s clock)
new-seed = Your dice seed (optional)
new-submit = Create

## A profile (#/p/<id>)

profile-none = No such player.
# The summary counts every finished table of the player's seat (against bots too).
profile-summary = { $played ->
    [one] { $played } game played
   *[other] { $played } games played
  }, { $won } won.
profile-summary-shame = { $played ->
    [one] { $played } game played
   *[other] { $played } games played
  }, { $won } won, { $shame } in the hall of shame.
profile-ratings = Ratings
column-rated-games = Rated games
column-rated-wins = Rated wins
profile-provisional = provisional: off the leaderboard
profile-not-rated = Not rated yet.
profile-rated-hint = Only public games between players are rated. A seat a bot played most of for its player counts as a loss there, whatever its place, so a game won can be a rated loss.
profile-finished = Finished games
profile-won = won
profile-place = place { $place }
profile-played = played

## The leaderboard (#/leaderboard)

leaderboard-title = Leaderboard
leaderboard-hint = Glicko-2 ratings from public games between players (bots are not rated); a provisional rating shows on its player's profile only.
column-rank = #
column-player = Player
column-games = Games
column-wins = Wins
leaderboard-none = No established ratings yet.

## The hall of shame (#/shame)

shame-title = Hall of shame
shame-hint = Back of the board: every 8-piece dicking and up-boarding in Uckers, newest first.
column-when = When
column-who = Who
column-what = What
column-pieces-home = Pieces home
column-replay = Replay
shame-up-board = up-boarded
shame-dicking = dicked (8 pieces)
shame-replay = replay
shame-none = Nobody yet.

## An invite link (#/invite/<code>)

invite-title = Invitation
invite-text = You are invited to a private { $game } table.

## Luck and fairness (the profile's Luck, #/fairness; docs/luck.md)

luck-title = Luck
fairness-title = Dice fairness
fairness-hint = Every die of every finished table, per game, compared with a fair die. Counted a moment after each table finishes.
luck-none = No finished games counted yet.
luck-dice = Dice: { $dice } · tables: { $tables }
# The histogram's name for screen readers; { $expected } is what a fair die gives each face.
luck-faces-caption = Faces thrown, against { $expected } each for a fair die
luck-face-count = { $face }: { $count }
luck-faces-test = Faces against a fair die:
luck-sixes = Sixes: { $rate } (a fair die: { $fair }).
luck-doubles = Doubles: { $rate } (fair dice: { $fair }).
luck-p-fair = Within what fair dice give (p = { $p }).
luck-p-unusual = Unusual, but fair dice do this one time in twenty or more (p = { $p }).
luck-p-rare = Rare for fair dice (p = { $p }); among many players, some see this.
luck-p-hint = p is how often fair dice would stray this far or further: small values alone prove nothing, since with many players someone always sees one.
luck-backgammon = Backgammon luck: { $total } points over { $rolls } rolls ({ $per_table } a table).
luck-backgammon-hint = A roll's luck is the equity it gained against the average of all 36 rolls, judged by the bot's network (as GNU Backgammon measures it).
