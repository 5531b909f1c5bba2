# A játékok szabályai az új asztal űrlapján (lásd en/options.ftl).

option-private-only = { $option } (csak zártkörű asztalnál)
options-private-hint = Néhány házi szabály csak zártkörű asztalnál választható.

option-luddo-home_bonus = a beért bábu újabb dobást ér
    .description = Aki bábut juttat a célba, újra dobhat (házi szabály; ütés után mindig újra lehet dobni).

option-ludo-enter_on = Kijövés ezzel
    .description = A dobások, amelyekkel egy bábu kijön a házból: 6-os, vagy a gyerekváltozatban 1-es vagy 6-os.
option-ludo-enter_on-6 = 6-os
option-ludo-enter_on-1-6 = 1-es vagy 6-os
option-ludo-play_for_places = a helyezésekért tovább
    .description = Legalább 3 játékosnál a győztes után a többiek tovább játszanak a helyezésekért; különben a játszma az első beérővel véget ér, és a többiek osztoznak az utolsó helyen.

option-uckers-blow_back = visszafújás
    .description = WAFU: a csőben álló bábu megpróbálhatja elfújni a cső szájánál álló ellenfelet.
option-uckers-mixed_blob_stacking = vegyes blob mint oszlop
    .description = A vegyes blob oszlop: csak az utoljára érkezett bábu léphet.
option-uckers-snake_eyes = Kígyószem
    .description = Mit tesz a kígyószem (dupla 1-es) a játékos első dobásánál.
option-uckers-snake_eyes-off = nincs
option-uckers-snake_eyes-navy = navy
option-uckers-snake_eyes-wafu = WAFU
option-uckers-stand_up_finish = állva befejezés
    .description = Akinek egy dobás hiányzik a győzelemhez, bejelentheti az állva befejezést.
option-uckers-suck_back = visszaszívás
    .description = WAFU: az ellenfél csövének szájánál álló bábu megpróbálhat kiszívni onnan egy bábut.
option-uckers-superblobs = szuperblobok
    .description = Egy mezőn álló, egyszínű három vagy több bábu nem léphet.

option-snakes-board = tábla
    .description = Az 1943-as klasszikus tábla.

option-backgammon-beavers = hód
    .description = Csak pénzes játszmában: akit dupláztak, hódolhat (azonnal visszaduplázhat, a kocka nála marad).
option-backgammon-crawford = Crawford-szabály
    .description = Csak meccsben: nincs duplázás abban a játszmában, amely azután következik, hogy valaki először meccslabdához ért.
option-backgammon-cube = duplázókocka
    .description = Használjuk-e a duplázókockát.
option-backgammon-hints = tippek (privát asztalok)
    .description = Csak privát asztalnál: a játékos a saját lépésénél tippet kérhet. Értékelt asztalnál soha.
option-backgammon-jacoby = Jacoby-szabály
    .description = Csak pénzes játszmában: a gammon és a backgammon egyszeresen számít, ha a kockát nem forgatták.
option-backgammon-match_to = Meccs eddig (0: egy pénzes játszma)
    .description = A meccs megnyeréséhez szükséges pont; 0 esetén egyetlen pénzes játszma.
