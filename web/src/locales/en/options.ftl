# The games' options on the new table's form: `option-<game>-<option>` is the option's label
# and its `.description` the tooltip; `option-<game>-<option>-<value>` names one of its values
# (the value's letters and digits: `[1, 6]` as `1-6`). An option no message names shows the
# server's English title (games.js).

option-private-only = { $option } (private tables only)
options-private-hint = Some house rules are for private tables only.

option-luddo-home_bonus = a piece home earns an extra roll
    .description = Bringing a piece home earns an extra roll (a house rule; the capture bonus always holds).

option-ludo-enter_on = Enter on
    .description = The numbers that bring a piece out of base: a 6, or a 1 or a 6 for the children's variant.
option-ludo-enter_on-6 = a 6
option-ludo-enter_on-1-6 = a 1 or a 6
option-ludo-play_for_places = play on for places
    .description = With 3 or more players the others play on for places after the winner; otherwise the game ends with the first to finish and everyone else shares the last place.

option-uckers-blow_back = blow back
    .description = WAFU: a piece in the pipe may try to blow away an opponent at the pipe's mouth.
option-uckers-mixed_blob_stacking = mixed blob stacking
    .description = A mixed blob is a stack: only the piece that arrived last may move.
option-uckers-snake_eyes = Snake eyes
    .description = What snake eyes (double 1) on a player's first throw does.
option-uckers-snake_eyes-off = off
option-uckers-snake_eyes-navy = navy
option-uckers-snake_eyes-wafu = WAFU
option-uckers-stand_up_finish = stand-up finish
    .description = A player needing one throw to win may declare a stand-up finish.
option-uckers-suck_back = suck back
    .description = WAFU: a piece at the mouth of an opponent's pipe may try to suck a piece out of it.
option-uckers-superblobs = superblobs
    .description = Three or more pieces of one colour on a track square cannot move.

option-snakes-board = board
    .description = The classic 1943 board.

option-backgammon-beavers = beavers
    .description = Money games only: a doubled player may beaver (redouble at once, keeping the cube).
option-backgammon-crawford = Crawford rule
    .description = Matches only: no doubling in the game after a player first reaches match point.
option-backgammon-cube = doubling cube
    .description = Whether the doubling cube is used.
option-backgammon-hints = hints (private tables)
    .description = Private tables only: a seated player may ask for a hint on its own turn. Never at a rated table.
option-backgammon-jacoby = Jacoby rule
    .description = Money games only: gammons and backgammons count single unless the cube was turned.
option-backgammon-match_to = Match to (0: one money game)
    .description = Points to win the match; 0 plays a single money game.
