# What each game's own code says (games/<game>.js, boards/*.js): its boards' names and text,
# its pieces, its actions, its moves in words, where a seat's pieces are and the score.

# Pieces of the Ludo family, by their colour.
piece = { $colour ->
    [yellow] yellow piece { $number }
    [red] red piece { $number }
    [green] green piece { $number }
    [blue] blue piece { $number }
    [purple] purple piece { $number }
    [orange] orange piece { $number }
   *[other] piece { $number }
}
piece-in-stack = { $piece }, one of { $count } on this square
pick-piece = Move { $piece }
piece-where = { $piece } ({ $owner }): { $where }
piece-where-short = { $piece }: { $where }
piece-at = piece { $number }: { $where }
where-base = in base
where-track = on square { $square } ({ $progress } along)
where-column = in the home column, square { $square } of 5
where-home = home
spot-base = base
spot-track = square { $square }
spot-column = home column square { $square }
spot-home = home
board-ludo = { $game ->
    [ludo] Ludo
   *[luddo] Luddo
} board, { $shape ->
    [hex] hexagonal
   *[square] square
}, { $players } players
seat-note-hex = {" "}(hexagonal board)
action-move-piece = Move piece { $number }
said-moved = { $who } moved piece { $number } from { $from } to { $to }.
said-captured = { $who } captured { $owner }’s piece { $number }.
said-piece-home = { $who } brought piece { $number } home.
said-piece-home-named = { $who } brought { $piece } home.
said-three-sixes = { $who } threw three sixes: the turn is over.
said-numbers-forfeited = { $who } cannot play { $numbers }.
score-pieces-home = { $who }: { $count ->
    [one] one piece home
   *[other] { $count } pieces home
}

# Uckers.
board-uckers = Uckers board
board-uckers-legend = Uckers board: yellow and green (dark green rims) against red and blue (navy rims); two or more of a partnership on a square form a blob (ringed)
action-uckers-move = Move { $steps }
action-uckers-step = { $piece } by { $die }
action-uckers-then = , then{" "}
action-uckers-total = Move { $piece } by the total
action-uckers-challenge = Challenge the blob on square { $square } with { $piece }
action-uckers-suck-back = Suck back { $target } with { $piece }
action-uckers-blow-back = Blow back from { $piece }
action-uckers-snake-eyes = Call snake eyes
action-uckers-stand-up = Stand-up finish
action-uckers-up-board = Up-board (resign)
said-uckers-entered = { $who } brought { $piece } onto square { $square }.
said-uckers-moved = { $who } moved { $piece } from { $from } to { $to }.
said-uckers-captured = { $who } captured { $piece } with { $by }.
said-uckers-blob-captured = { $piece } captured a blob of { $count }.
said-uckers-up-board = { $who } up-boarded (resigned).
said-uckers-challenge = { $piece } challenges the blob on square { $square }.
score-colour-home = { $colour }: { $count ->
    [one] one piece home
   *[other] { $count } pieces home
}

# Snakes and Ladders.
board-snakes = Snakes and Ladders board, 10 by 10
board-snakes-text = Snakes and Ladders, 10 by 10: square 1 bottom left, 100 top left
snakes-ladder = ladder from { $from } to { $to }
snakes-snake = snake from { $from } to { $to }
snakes-waiting = Not yet on the board:
snakes-ladders-list = Ladders: { $list }
snakes-snakes-list = Snakes: { $list }
snakes-counter = { $who } ({ $colour }): { $where }
snakes-not-on-board = not yet on the board
snakes-square = square { $square }
snakes-place = , finished in place { $place }
said-snakes-entered = { $who } moved onto square { $to }.
said-snakes-moved = { $who } moved from { $from } to { $to }.
said-snakes-ladder = { $who } climbed a ladder from { $from } to { $to }.
said-snakes-snake = { $who } slid down a snake from { $from } to { $to }.
said-snakes-need-six = { $who } needs a six to start.
said-snakes-overshoot = { $who } threw too much and stays on { $at }.
score-square = { $who }: { $where }

# Backgammon.
board-backgammon = Backgammon board
pick-from-point = Move from point { $point }
pick-to-point = Move to point { $point }
pick-selected-point = Put back the checker of point { $point }
pick-from-bar = Move from the bar
pick-bear-off = Bear off
bg-bar = bar
bg-off = off
bg-on-point = { $who }: { $count } on point { $point }
bg-on-bar = { $who }: { $count } on the bar
bg-borne-off = { $who }: { $count } borne off
bg-count-on-point = { $count } on point { $point }
bg-count-on-bar = { $count } on the bar
bg-count-off = { $count } borne off
bg-cube-centred = cube at { $value }, centred
bg-cube-owned = cube at { $value }, owned by { $who }
bg-match-to = Match to { $points }
bg-money-game = Money game
bg-score = { $match } · score { $first } { $a } – { $b } { $second } · game { $game }
bg-pips = Pips: { $first } { $a } · { $second } { $b }
bg-crawford = Crawford game
bg-direction = { $who } ({ $colour }) plays from 24 down to 1 and bears off to the right
bg-text-head = { $score }{ $crawford ->
    [yes] ; Crawford game
   *[no] {""}
}; { $who }’s points numbered from its side
bg-ids = Position ID { $position }, Match ID { $match }
action-bg-double = Double
action-bg-take = Take
action-bg-drop = Drop (lose the game)
action-bg-beaver = Beaver
action-bg-play = Play { $moves }
action-bg-play-nothing = Play (nothing)
hint-bg-click = Click a highlighted checker or point, then where it goes, or choose:
download-mat = Download for GNU Backgammon (.mat)
said-bg-played = { $who } played { $moves }.
said-bg-move = { $from } to { $to }
said-bg-no-play = { $who } cannot move.
said-bg-hit = { $who } hit a checker on point { $point }.
said-bg-doubled = { $who } doubled to { $value }.
said-bg-taken = { $who } took; the cube is at { $value }.
said-bg-beavered = { $who } beavered; the cube is at { $value }.
said-bg-dropped = { $who } dropped.
said-bg-game-won = { $who } won the game{ $kind ->
    [gammon] {" "}with a gammon
    [backgammon] {" "}with a backgammon
   *[single] {""}
}: { $points } points.
said-bg-new-game = Game { $game } begins.
