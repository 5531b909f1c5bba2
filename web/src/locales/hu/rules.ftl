# A szabályoldalak (#/rules, #/rules/<game>): címeik és hivatkozásaik. Maguk a szabályok
# nyelvenként HTML-fájlok: web/src/rules/<language>/<game>.html.

nav-rules = Szabályok
rules-title = A játékok szabályai
rules-intro = Így játsszuk az egyes játékokat ezeknél az asztaloknál: előkészületek, egy kör, lépés és ütés, a játék vége, és amit az online asztal hozzátesz (az óra, a helyedre ülő gép, a tisztességes kockák).
rules-about-luddo = a ház Ludója: a csillagos mezők védettek, és a hatos, az ütés vagy a célba ért bábu újabb dobást ad
rules-about-ludo = klasszikus Ludo egy kockával, blokkokkal, védett mezők nélkül
rules-about-uckers = a Királyi Haditengerészet Ludója: két kocka, párok, blobok és kihívások
rules-about-snakes = az 1943-as klasszikus tábla: dobj, mássz fel a létrákon, csússz le a kígyókon
rules-about-backgammon = tizenöt korong mindkét játékosnak, duplázókockával és mérkőzésekkel
rules-game-title = { $game }: a szabályok
rules-written-in = A szabályok nyelve:
rules-loading = A szabályok betöltése…
rules-not-loaded = A szabályokat nem sikerült betölteni ({ $status }).
rules-other-games = További játékok
rules-all-games = A játékok
rules-no-such-game-title = Nincs ilyen játék
rules-no-such-game = Itt nincs „{ $game }” nevű játék. Ezeknek a játékoknak olvashatod a szabályait:
