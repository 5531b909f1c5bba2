# Amit az egyes játékok kódja mond (games/<game>.js, boards/*.js).

piece = { $colour ->
    [yellow] sárga { $number }. bábu
    [red] piros { $number }. bábu
    [green] zöld { $number }. bábu
    [blue] kék { $number }. bábu
    [purple] lila { $number }. bábu
    [orange] narancs { $number }. bábu
   *[other] { $number }. bábu
}
piece-in-stack = { $piece }, egy a mezőn álló { $count } közül
pick-piece = Lépés: { $piece }
piece-where = { $piece } ({ $owner }): { $where }
piece-where-short = { $piece }: { $where }
piece-at = { $number }. bábu: { $where }
where-base = a házban
where-track = a(z) { $square }. mezőn ({ $progress } mezőt haladt)
where-column = a célegyenesben, 5-ből a(z) { $square }. mezőn
where-home = célban
spot-base = ház
spot-track = { $square }. mező
spot-column = célegyenes { $square }. mezője
spot-home = cél
board-ludo = { $game ->
    [ludo] Ludo
   *[luddo] Luddo
} tábla, { $shape ->
    [hex] hatszögletű
   *[square] négyzetes
}, { $players } játékos
seat-note-hex = {" "}(hatszögletű tábla)
action-move-piece = Lépés a(z) { $number }. bábuval
said-moved = { $who } lépett a(z) { $number }. bábuval: { $from } – { $to }.
said-captured = { $who } ütött: { $owner } { $number }. bábuja visszament a házba.
said-piece-home = { $who } célba vitte a(z) { $number }. bábut.
said-piece-home-named = { $who } célba vitte: { $piece }.
said-three-sixes = { $who } három hatost dobott: vége a körnek.
said-numbers-forfeited = { $who } nem tudja lépni: { $numbers }.
score-pieces-home = { $who }: { $count } bábu célban

board-uckers = Uckers tábla
board-uckers-legend = Uckers tábla: a sárga és a zöld (sötétzöld szegély) a piros és a kék ellen (sötétkék szegély); egy pár két vagy több bábuja egy mezőn blobot alkot (bekarikázva)
action-uckers-move = Lépés: { $steps }
action-uckers-step = { $piece } { $die } mezőt
action-uckers-then = , aztán{" "}
action-uckers-total = { $piece } az összeggel
action-uckers-challenge = A(z) { $square }. mezőn álló blob kihívása ezzel: { $piece }
action-uckers-suck-back = { $target } visszaszívása ezzel: { $piece }
action-uckers-blow-back = Visszafújás innen: { $piece }
action-uckers-snake-eyes = Kígyószem bejelentése
action-uckers-stand-up = Felállós befejezés
action-uckers-up-board = Feladás (up-board)
said-uckers-entered = { $who } beállt a(z) { $square }. mezőre: { $piece }.
said-uckers-moved = { $who } lépett: { $piece }, { $from } – { $to }.
said-uckers-captured = { $who } ütött: { $piece } kiütve, ezzel: { $by }.
said-uckers-blob-captured = { $piece } kiütött egy { $count } bábus blobot.
said-uckers-up-board = { $who } feladta a játékot.
said-uckers-challenge = { $piece } kihívja a(z) { $square }. mezőn álló blobot.
score-colour-home = { $colour }: { $count } bábu célban

board-snakes = Kígyók és létrák tábla, 10×10
board-snakes-text = Kígyók és létrák, 10×10: az 1. mező bal lent, a 100. bal fent
snakes-ladder = létra: { $from } – { $to }
snakes-snake = kígyó: { $from } – { $to }
snakes-waiting = Még nincs a táblán:
snakes-ladders-list = Létrák: { $list }
snakes-snakes-list = Kígyók: { $list }
snakes-counter = { $who } ({ $colour }): { $where }
snakes-not-on-board = még nincs a táblán
snakes-square = { $square }. mező
snakes-place = , célba ért: { $place }. hely
said-snakes-entered = { $who } a(z) { $to }. mezőre lépett.
said-snakes-moved = { $who } lépett: { $from } – { $to }.
said-snakes-ladder = { $who } létrán mászott fel: { $from } – { $to }.
said-snakes-snake = { $who } lecsúszott egy kígyón: { $from } – { $to }.
said-snakes-need-six = { $who } csak hatossal indulhat.
said-snakes-overshoot = { $who } túl nagyot dobott, marad: { $at }.
score-square = { $who }: { $where }

board-backgammon = Backgammon tábla
pick-from-point = Lépés a(z) { $point }. pontról
pick-to-point = Lépés a(z) { $point }. pontra
pick-selected-point = A(z) { $point }. pont korongjának visszatétele
pick-from-bar = Lépés a bárról
pick-bear-off = Kivétel
bg-bar = bár
bg-off = ki
bg-on-point = { $who }: { $count } a(z) { $point }. ponton
bg-on-bar = { $who }: { $count } a báron
bg-borne-off = { $who }: { $count } kivéve
bg-count-on-point = { $count } a(z) { $point }. ponton
bg-count-on-bar = { $count } a báron
bg-count-off = { $count } kivéve
bg-cube-centred = duplázókocka: { $value }, középen
bg-cube-owned = duplázókocka: { $value }, birtokosa: { $who }
bg-match-to = Mérkőzés { $points } pontig
bg-money-game = Pénzes játszma
bg-score = { $match } · állás: { $first } { $a } – { $b } { $second } · { $game }. játszma
bg-pips = Pipek: { $first } { $a } · { $second } { $b }
bg-crawford = Crawford-játszma
bg-direction = { $who } ({ $colour }) 24-től 1 felé halad, és jobbra veszi ki a korongjait
bg-text-head = { $score }{ $crawford ->
    [yes] ; Crawford-játszma
   *[no] {""}
}; a pontok számozása { $who } felől
bg-ids = Pozíció-azonosító { $position }, mérkőzés-azonosító { $match }
action-bg-double = Duplázás
action-bg-take = Elfogadom
action-bg-drop = Feladom (elvesztem a játszmát)
action-bg-beaver = Beaver
action-bg-play = Lépés: { $moves }
action-bg-play-nothing = Lépés (semmi)
hint-bg-click = Kattints egy kiemelt korongra vagy pontra, aztán oda, ahová lép, vagy válassz:
download-mat = Letöltés GNU Backgammonhoz (.mat)
said-bg-played = { $who } lépése: { $moves }.
said-bg-move = { $from } – { $to }
said-bg-no-play = { $who } nem tud lépni.
said-bg-hit = { $who } ütött a(z) { $point }. ponton.
said-bg-doubled = { $who } duplázott: { $value }.
said-bg-taken = { $who } elfogadta; a duplázókocka: { $value }.
said-bg-beavered = { $who } beaverelt; a duplázókocka: { $value }.
said-bg-dropped = { $who } feladta.
said-bg-game-won = { $who } megnyerte a játszmát{ $kind ->
    [gammon] {" "}gammonnal
    [backgammon] {" "}backgammonnal
   *[single] {""}
}: { $points } pont.
said-bg-new-game = Kezdődik a(z) { $game }. játszma.
