# Ami minden nézetben közös: a fejléc, a navigáció, a fiók sávja.

nav-pages = Oldalak
nav-lobby = Előcsarnok
nav-new-table = Új asztal
nav-friends = Barátok
nav-leaderboard = Ranglista
nav-shame = A szégyen csarnoka
nav-fairness = Méltányosság
nav-api = API
skip-to-content = Ugrás a tartalomra
language-switch = Nyelv

game-luddo = Luddo
game-ludo = Ludo
game-uckers = Uckers
game-snakes = Kígyók és létrák
game-backgammon = Ostábla

# A fiók sávja. { $name } a játékos neve a jelével, link a profiljára.
account-signed-in = Bejelentkezve: { $name }
account-profile = A profilod
account-sign-out = Kijelentkezés
account-not-signed-in = Nem vagy bejelentkezve

signup-title = Regisztrálj, és játssz
signup-name = A neved
signup-submit = Regisztrálok
signup-hint = Nincs jelszó: a tokened ebben a böngészőben marad (localStorage). A nyilvános asztalokat regisztráció nélkül is bárki nézheti.

loading = Betöltés…
none-yet = Még egy sincs.
bot = gép
seconds = { $seconds } mp
field-game = Játék
column-game = Játék
column-rating = Pontszám
column-deviation = ± szórás

failure-network = A szerver nem érhető el. Ellenőrizd a kapcsolatot, és próbáld újra.
failure-http = A szerver hibával válaszolt (HTTP { $status }).
feed-private = ez az asztal zártkörű

fairness-checking = Ellenőrzés…
fairness-verdict-ok = igazolva
fairness-verdict-not = NINCS igazolva
fairness-verified = { $verdict }: a felfedett mag egyezik a lekötéssel, és { $dice ->
    [one] az egy dobás
   *[other] mind a(z) { $dice } dobás
  } { $entries ->
    [one] az egy naplóbejegyzésben
   *[other] { $entries } naplóbejegyzésben
  } egyezik a HMAC-SHA256(mag, kliensmag) értékkel, amelyet ez a böngésző számolt újra.
fairness-refuted = { $verdict }: { $reason }
fairness-no-seed = a játszma nem ért véget: még nincs felfedett mag
fairness-commitment = a felfedett mag SHA-256 értéke { $computed }, nem a lekötött { $commitment }
fairness-no-start = a naplóban nincs kezdés
fairness-seeds-combine = a helyek magjaiból { $combined } jön ki, nem { $expected }
fairness-seats-seeds = a kezdés magjai nem a helyek magjai
fairness-client-seed = a kezdés kliensmagja nem az asztalé
fairness-die = { $seq }. bejegyzés, { $index }. esemény ({ $event }): a(z) { $k }. kocka { $die }, az eljárás szerint { $expected }
fairness-chain = { $seq }. bejegyzés: a(z) { $seat }. hely felfedése nem a kockaláncának következő szeme (rossz sorrend, kihagyott szem, vagy nincs rögzített lánc)
fairness-chain-shown = a(z) { $seat }. hely más kockaláncot mutat, mint amit a kezdés rögzített
fairness-reveal-missing = { $seq }. bejegyzés: a(z) { $seat }. hely játékosa felfedés nélkül dobott: a szerver saját kockái ott, ahol a játékosé járt volna
