# A table's page (pages/table.js, table/*.js) and the replay (pages/replay.js): the turn, the
# seats, the waiting room, the moves, the end and its rematch, the dice, the live region's words,
# the single-key queries and the turn alerts.

table-loading = Loading the table…
table-title = { $game }{ $private ->
    [yes] {" · "}private
   *[no] {""}
}{ $party ->
    [yes] {" · "}party
   *[no] {""}
} · { $seconds } s clock
side-label = The table
announcer-label = What happens
seats-label = Seats
controls-label = Your moves
board-as-text = The board as text
board-later = The board appears when the game starts.
log-title = Log

# The seats.
seat-number = seat { $seat }
bot-name = Bot { $seat }
empty-seat = empty seat { $seat }
seat-who = { $name } ({ $colour })
seat-colour = { $colour }, { $shape }
colour-name = { $colour ->
    [yellow] yellow
    [red] red
    [green] green
    [blue] blue
    [purple] purple
    [orange] orange
    [white] white
    [black] black
   *[other] { $colour }
}
shape-name = { $shape ->
    [circle] circle
    [square] square
    [triangle] triangle
    [diamond] diamond
    [hexagon] hexagon
   *[down] upside-down triangle
}
tag-host = host
tag-you = you
tag-bot = bot
tag-online = online
tag-offline = offline
tag-bot-playing-for = bot playing for { $name }
tag-timed-out = timed out ×{ $count }
tag-timed-out-entry = timed out
tag-place = place { $place }
tag-wants-rematch = wants a rematch

# The connection's tag.
connection-live = live
connection-reconnecting = reconnecting…
connection-closed = closed
connection-finished = finished
connection-everyone-left = closed: everyone left
connection-private = this table is private

# Whose turn and the clock.
turn-waiting-room = Waiting room
turn-game-over = The game is over
turn-yours = Your turn
turn-theirs = { $name }’s turn
clock-seconds = { $seconds } s

# The waiting room.
room-waiting-public = Waiting for players. Share the link:
room-waiting-private = Waiting for players. Private table: share the invite link.
room-link = Link to this table
room-copy = Copy
room-sign-up = Sign up
room-sign-up-after = to take a seat.
room-join = Take a seat
room-leave = Leave the table
room-start = Start (bots fill the empty seats)
room-host-starts = The host starts the game.

# The viewer's moves.
controls-watching = You are watching.
controls-bot-playing = A bot is playing your seat.
controls-reclaim = Take my seat back
controls-choose = Choose a move
controls-cancel = Cancel
controls-actions = Actions
controls-click-piece = Click a highlighted piece, or choose:
controls-start-again = Start the move again
controls-all-moves = All legal moves ({ $count })
controls-not-your-turn = Not your turn.
controls-only-move = Your only move is made for you.
action-roll = Roll
action-pass = Pass

# The dice and who threw them.
dice-you-threw = You threw
dice-threw = { $who } threw
dice-label = { $count ->
    [one] die: { $dice }
   *[other] dice: { $dice }
}
dice-your-turn-to-throw = Your turn to throw.

# The end and the rematch.
end-title = Game over
end-place = {" — "}place { $place }
end-points = , { $points } points
end-check-dice = Check the dice
end-replay = Replay
rematch-ask = Rematch
rematch-asked = You asked for a rematch.
rematch-waiting = You asked for a rematch; waiting for { $names }.
rematch-wanted = { $count ->
    [one] { $names } wants a rematch.
   *[other] { $names } want a rematch.
}
rematch-opened = The rematch has started: to the new table.

# The log.
log-table = Table
log-seat-taken = { $name } sat down
log-seat-left = left the table
log-bot-seated = a bot sat down
log-settings-changed = settings changed
log-start = the game started
log-finish = the game is over
log-takeover = a bot took the seat ({ $reason ->
    [timeouts] timeouts
    [stalling] stalling
   *[away] away
})
log-reclaim = took the seat back
log-closed = the table closed
log-threw = {" — "}threw { $dice }

# The live region: every entry in words.
said-and = {" and "}
said-your-turn = Your turn.
said-timed-out = { $who }’s time ran out.
said-seat-taken = { $name } sat down.
said-seat-left = { $name } left the table.
said-bot-seated = A bot sat down at seat { $seat }.
said-start = The game has started.
said-takeover = A bot plays for { $who } now.
said-reclaim = { $who } took the seat back.
said-closed = The table closed: everyone left.
said-opening-rolled = { $who } threw { $dice } for the opening.
said-opening-tie = { $who } tied and throw again.
said-first-to-play = { $who } plays first.
said-rolled = { $who } rolled { $dice }.
said-extra-roll = { $who } throws again.
said-turn-passed = { $who }’s turn to throw.
said-seat-finished = { $who } finished in place { $place }.
said-game-over = { $count ->
    [one] Game over: { $who } won.
   *[other] Game over: { $who } won.
}
said-game-over-nobody = Game over.

# The single-key queries (T, D, C, P, S, M, ?) and their answers.
settings-title = Alerts and keys
settings-sound = A sound when it is my turn
settings-notify = A notification when it is my turn and this page is hidden
settings-keys = Single-key queries
settings-keys-list = With the table focused: T whose turn, D the dice, C my clock, P where my pieces are, S the score, M my moves, ? this list.
query-help = Keys: T whose turn, D the dice, C my clock, P where my pieces are, S the score, M my moves, question mark this list.
query-game-over = The game is over.
query-not-started = The game has not started.
query-seconds-left = { $seconds ->
    [one] One second left.
   *[other] { $seconds } seconds left.
}
query-no-dice = No dice thrown yet.
query-dice = Dice: { $dice }.
query-not-seated = You have no seat at this table.
query-not-your-turn = It is { $name }’s turn, not yours.
query-my-clock = { $seconds ->
    [one] One second left on your clock.
   *[other] { $seconds } seconds left on your clock.
}
query-no-moves = You have no move to make now.
query-moves = { $count ->
    [one] Your move: { $moves }.
   *[other] Your { $count } moves: { $moves }.
}

# The turn alerts: the tab's title and the notification.
alert-your-turn = Your turn
alert-time-low = { $seconds } s left
alert-title = ● { $what } — { $title }

# The replay.
replay-loading = Loading the game…
replay-not-over = This game is not over yet:
replay-watch = watch it.
replay-title = Replay: { $game } — { $players }
replay-side = The replay
replay-steps = Step through the game
replay-first = First
replay-previous = Previous
replay-next = Next
replay-last = Last
replay-position = Position in the game
replay-step = { $step } / { $steps } (seq { $seq })
replay-table = The table
download-json = Download the record
table-fresh-dice-on = Fresh dice: each player's rolls mix in a secret their own browser committed to before the start, so nobody, the server included, can know a die before the roll is asked for.
table-fresh-dice-off = This table's dice come from the server's committed seed alone (fresh dice is off): you can check them after the game, but the players add no fresh entropy.
table-fresh-dice-timeout-roll = You asked to roll, but the clock rolled for you with the server's own dice: your request may have been held back.
review-title = Analysis
review-pending = The analysis is being computed…
review-unavailable = This game has no analysis.
review-search = Each decision rated by the server's network ({ $search }); equity per unit of cube.
review-seat = { $player }: { $rate } mp per decision ({ $band }), { $decisions } decisions, { $errors } errors, { $blunders } blunders, luck { $luck }
review-step-none = No decision at this step.
review-play = { $player } played { $dice }: { $played }
review-cube = { $player }: { $played }
review-best = best: { $best }
review-lost = lost { $loss }
review-luck = luck { $luck }
review-mark-error = error
review-mark-blunder = blunder
review-marks = Errors and blunders
review-go = Go to step { $step }
review-action-double = double
review-action-no_double = no double
review-action-too_good = too good to double
review-action-take = take
review-action-pass = pass
review-action-beaver = beaver
review-band-supernatural = Supernatural
review-band-world_class = World class
review-band-expert = Expert
review-band-advanced = Advanced
review-band-intermediate = Intermediate
review-band-casual_player = Casual player
review-band-beginner = Beginner
review-band-awful = Awful!
hint-ask = Hint
hint-cube = { $double }; the answer: { $response } (no double: { $equity })
hint-play = { $play } ({ $equity })
