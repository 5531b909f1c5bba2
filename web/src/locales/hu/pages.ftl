# Az asztalon kívüli oldalak: előcsarnok, új asztal, profil, ranglista, a szégyen csarnoka,
# meghívó.

## Előcsarnok

lobby-heading = Előcsarnok
play-now-title = Játék most
play-now-players = Játékosok
play-now-bots = gépek { $seconds } mp után
play-now-submit = Játék most
play-now-hint = Hely a legrégebben ugyanerre a játékra váró asztalnál, vagy egy újnál; amint megtelik, indul.
lobby-open-tables = Nyitott asztalok
lobby-live = élő
lobby-filters = Szűrők
filter-any = bármelyik
filter-party = Parti
filter-party-only = csak parti
filter-no-party = parti nélkül
filter-free = szabad hellyel
column-host = Házigazda
column-seats = Helyek
column-clock = Idő
column-table = Asztal
tag-party = parti
lobby-open = Megnyitás
lobby-watch = Nézés
lobby-none = Nincs ilyen nyitott asztal. Nyiss egyet!
lobby-create = Asztal nyitása
lobby-finished = Befejezett játszmák

## Új asztal

new-title = Asztal nyitása
new-seats = Helyek
new-options = Szabályok
new-bot-level = Gépek
bot-level-easy = könnyű
bot-level-normal = közepes
bot-level-strong = erős
new-private = zártkörű (a meghívó linkkel lehet beülni)
new-party = parti asztal ({ $seconds } mp lépésidő)
new-seed = A kockamagod (nem kötelező)
new-submit = Megnyitás

## Profil

profile-none = Nincs ilyen játékos.
profile-summary = { $played } lejátszott játszma, ebből { $won } megnyert.
profile-summary-shame = { $played } lejátszott játszma, ebből { $won } megnyert; a szégyen csarnokában: { $shame } bejegyzés.
profile-ratings = Pontszámok
column-rated-games = Értékelt játszmák
column-rated-wins = Értékelt győzelmek
profile-provisional = ideiglenes: nincs a ranglistán
profile-not-rated = Még nincs értékelve.
profile-rated-hint = Csak emberek közti nyilvános játszmák számítanak. Ha egy helyen többnyire gép játszott a játékos helyett, az értékelésben vereségnek számít, bárhányadik lett: egy megnyert játszma így értékelt vereség is lehet.
profile-finished = Befejezett játszmák
profile-won = megnyerte
profile-place = { $place }. hely
profile-played = lejátszotta

## Ranglista

leaderboard-title = Ranglista
leaderboard-hint = Glicko-2 pontszámok emberek közti nyilvános játszmákból (a gépeket nem értékeljük); az ideiglenes pontszám csak a játékos profilján látszik.
column-rank = #
column-player = Játékos
column-games = Játszmák
column-wins = Győzelmek
leaderboard-none = Még nincs megszilárdult pontszám.

## A szégyen csarnoka

shame-title = A szégyen csarnoka
shame-hint = A tábla vége: minden Uckers-vereség egyetlen beért bábu nélkül (mind a 8 bábuval) és minden feladás, a legújabbak elöl.
column-when = Mikor
column-who = Ki
column-what = Mi
column-pieces-home = Beért bábuk
column-replay = Visszajátszás
shame-up-board = feladta
shame-dicking = csúfosan kikapott (8 bábu)
shame-replay = visszajátszás
shame-none = Még senki.

## Meghívó

invite-title = Meghívó
invite-text = Meghívtak egy zártkörű asztalhoz: { $game }.

## Szerencse és méltányosság (a profil Szerencse része, #/fairness; docs/luck.md)

luck-title = Szerencse
fairness-title = A kockák méltányossága
fairness-hint = Minden befejezett asztal minden kockája, játékonként, egy szabályos kockához mérve. Minden asztal vége után egy pillanattal számolva.
luck-none = Még nincs megszámolt befejezett játék.
luck-dice = Kockák: { $dice } · asztalok: { $tables }
luck-faces-caption = A dobott számok, szabályos kockánál számonként { $expected } helyett
luck-face-count = { $face }: { $count }
luck-faces-test = A dobott számok egy szabályos kockához mérve:
luck-sixes = Hatosok: { $rate } (szabályos kockánál: { $fair }).
luck-doubles = Duplák: { $rate } (szabályos kockáknál: { $fair }).
luck-p-fair = Belefér abba, amit szabályos kockák adnak (p = { $p }).
luck-p-unusual = Szokatlan, de szabályos kockák húszból legalább egyszer ilyet adnak (p = { $p }).
luck-p-rare = Szabályos kockáknál ritka (p = { $p }); sok játékos közül valaki mindig lát ilyet.
luck-p-hint = A p azt mondja meg, milyen gyakran térnének el szabályos kockák ennyire vagy jobban: egy kis érték önmagában semmit sem bizonyít, hiszen sok játékos közül valaki mindig lát egyet.
luck-backgammon = Backgammon-szerencse: { $total } pont { $rolls } dobásban (asztalonként { $per_table }).
luck-backgammon-hint = Egy dobás szerencséje az a nyereség, amelyet mind a 36 dobás átlagához képest hozott, a bot hálózata szerint (ahogy a GNU Backgammon méri).
