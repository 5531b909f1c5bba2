# Was der Code jedes Spiels sagt (games/<game>.js, boards/*.js).

piece = { $colour ->
    [yellow] gelbe Figur { $number }
    [red] rote Figur { $number }
    [green] grüne Figur { $number }
    [blue] blaue Figur { $number }
    [purple] lila Figur { $number }
    [orange] orange Figur { $number }
   *[other] Figur { $number }
}
piece-in-stack = { $piece }, eine von { $count } auf diesem Feld
pick-piece = { $piece } ziehen
piece-where = { $piece } ({ $owner }): { $where }
piece-where-short = { $piece }: { $where }
piece-at = Figur { $number }: { $where }
where-base = im Haus
where-track = auf Feld { $square } ({ $progress } weit)
where-column = in der Zielgeraden, Feld { $square } von 5
where-home = im Ziel
spot-base = Haus
spot-track = Feld { $square }
spot-column = Zielfeld { $square }
spot-home = Ziel
board-ludo = { $game ->
    [ludo] Ludo
   *[luddo] Luddo
}-Brett, { $shape ->
    [hex] sechseckig
   *[square] quadratisch
}, { $players } Spieler
seat-note-hex = {" "}(sechseckiges Brett)
action-move-piece = Figur { $number } ziehen
said-moved = { $who } zieht Figur { $number } von { $from } nach { $to }.
said-captured = { $who } schlägt Figur { $number } von { $owner }.
said-piece-home = { $who } bringt Figur { $number } ins Ziel.
said-piece-home-named = { $who } bringt { $piece } ins Ziel.
said-three-sixes = { $who } hat drei Sechsen gewürfelt: Der Zug ist vorbei.
said-numbers-forfeited = { $who } kann { $numbers } nicht setzen.
score-pieces-home = { $who }: { $count ->
    [one] eine Figur im Ziel
   *[other] { $count } Figuren im Ziel
}

board-uckers = Uckers-Brett
board-uckers-legend = Uckers-Brett: Gelb und Grün (dunkelgrüne Ränder) gegen Rot und Blau (marineblaue Ränder); zwei oder mehr Figuren eines Teams auf einem Feld bilden einen Blob (umringt)
action-uckers-move = { $steps } ziehen
action-uckers-step = { $piece } um { $die }
action-uckers-then = , dann{" "}
action-uckers-total = { $piece } um die Summe ziehen
action-uckers-challenge = Den Blob auf Feld { $square } mit { $piece } herausfordern
action-uckers-suck-back = { $target } mit { $piece } zurücksaugen
action-uckers-blow-back = Von { $piece } zurückblasen
action-uckers-snake-eyes = Schlangenaugen ansagen
action-uckers-stand-up = Stand-up-Finish
action-uckers-up-board = Aufgeben (Up-Board)
said-uckers-entered = { $who } bringt { $piece } auf Feld { $square }.
said-uckers-moved = { $who } zieht { $piece } von { $from } nach { $to }.
said-uckers-captured = { $who } schlägt { $piece } mit { $by }.
said-uckers-blob-captured = { $piece } schlägt einen Blob aus { $count } Figuren.
said-uckers-up-board = { $who } hat aufgegeben.
said-uckers-challenge = { $piece } fordert den Blob auf Feld { $square } heraus.
score-colour-home = { $colour }: { $count ->
    [one] eine Figur im Ziel
   *[other] { $count } Figuren im Ziel
}

board-snakes = Schlangen-und-Leitern-Brett, 10 mal 10
board-snakes-text = Schlangen und Leitern, 10 mal 10: Feld 1 unten links, 100 oben links
snakes-ladder = Leiter von { $from } nach { $to }
snakes-snake = Schlange von { $from } nach { $to }
snakes-waiting = Noch nicht auf dem Brett:
snakes-ladders-list = Leitern: { $list }
snakes-snakes-list = Schlangen: { $list }
snakes-counter = { $who } ({ $colour }): { $where }
snakes-not-on-board = noch nicht auf dem Brett
snakes-square = Feld { $square }
snakes-place = , fertig auf Platz { $place }
said-snakes-entered = { $who } zieht auf Feld { $to }.
said-snakes-moved = { $who } zieht von { $from } nach { $to }.
said-snakes-ladder = { $who } klettert eine Leiter hinauf, von { $from } nach { $to }.
said-snakes-snake = { $who } rutscht eine Schlange hinunter, von { $from } nach { $to }.
said-snakes-need-six = { $who } braucht eine Sechs zum Starten.
said-snakes-overshoot = { $who } hat zu viel gewürfelt und bleibt auf { $at }.
score-square = { $who }: { $where }

board-backgammon = Backgammon-Brett
pick-from-point = Von Punkt { $point } ziehen
pick-to-point = Auf Punkt { $point } ziehen
pick-selected-point = Den Stein von Punkt { $point } zurücklegen
pick-from-bar = Von der Bar ziehen
pick-bear-off = Auswürfeln
bg-bar = Bar
bg-off = raus
bg-on-point = { $who }: { $count } auf Punkt { $point }
bg-on-bar = { $who }: { $count } auf der Bar
bg-borne-off = { $who }: { $count } ausgewürfelt
bg-count-on-point = { $count } auf Punkt { $point }
bg-count-on-bar = { $count } auf der Bar
bg-count-off = { $count } ausgewürfelt
bg-cube-centred = Dopplerwürfel auf { $value }, in der Mitte
bg-cube-owned = Dopplerwürfel auf { $value }, bei { $who }
bg-match-to = Match auf { $points }
bg-money-game = Geldspiel
bg-score = { $match } · Stand { $first } { $a } – { $b } { $second } · Spiel { $game }
bg-pips = Pips: { $first } { $a } · { $second } { $b }
bg-crawford = Crawford-Spiel
bg-direction = { $who } ({ $colour }) zieht von 24 hinunter nach 1 und würfelt rechts aus
bg-text-head = { $score }{ $crawford ->
    [yes] ; Crawford-Spiel
   *[no] {""}
}; die Punkte von { $who } aus gezählt
bg-ids = Position-ID { $position }, Match-ID { $match }
action-bg-double = Doppeln
action-bg-take = Annehmen
action-bg-drop = Aufgeben (Spiel verloren)
action-bg-beaver = Beaver
action-bg-play = Ziehen: { $moves }
action-bg-play-nothing = Ziehen (nichts)
hint-bg-click = Klicke auf einen hervorgehobenen Stein oder Punkt, dann auf das Ziel, oder wähle:
download-mat = Für GNU Backgammon herunterladen (.mat)
said-bg-played = { $who } zieht { $moves }.
said-bg-move = { $from } nach { $to }
said-bg-no-play = { $who } kann nicht ziehen.
said-bg-hit = { $who } schlägt einen Stein auf Punkt { $point }.
said-bg-doubled = { $who } doppelt auf { $value }.
said-bg-taken = { $who } nimmt an; der Dopplerwürfel steht auf { $value }.
said-bg-beavered = { $who } beavert; der Dopplerwürfel steht auf { $value }.
said-bg-dropped = { $who } gibt auf.
said-bg-game-won = { $who } gewinnt das Spiel{ $kind ->
    [gammon] {" "}mit einem Gammon
    [backgammon] {" "}mit einem Backgammon
   *[single] {""}
}: { $points } Punkte.
said-bg-new-game = Spiel { $game } beginnt.
