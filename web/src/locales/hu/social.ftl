# Játékosok együtt (docs/social.md): a barátok oldala, egy profil gombjai, kihívások, a
# jelentés ablaka, az előcsarnok ajánlatai és az asztal csevegése.

## Ablakok

dialog-cancel = Mégse

## Barátok (#/friends)

friends-title = Barátok
friends-add-title = Barát hozzáadása
friends-add-id = Játékosazonosító
friends-add-submit = Kérés küldése
friends-add-hint = A játékos azonosítója a profilja címének vége (#/p/…); a profilon a „Barátnak jelölöm” gomb ugyanezt teszi.
friends-list-title = Barátaid
friends-column-player = Játékos
friends-column-online = Elérhető
friends-column-table = Asztal
friends-column-actions = Műveletek
friends-online = elérhető
friends-offline = nem elérhető
friends-watch = Nézem ({ $game })
friends-challenge = Kihívás
friends-remove = Törlés
friends-none = Még nincs barátod: jelölj valakit a profilján vagy az azonosítójával.
friends-incoming-title = Neked szóló kérések
friends-outgoing-title = Kéréseid
friends-accept = Elfogadom
friends-decline = Elutasítom
friends-withdraw = Visszavonom
friends-requested = Kérés elküldve neki: { $name }.
friends-now = Te és { $name } mostantól barátok vagytok.
blocked-title = Letiltott játékosok
blocked-unblock = Tiltás feloldása

## Kihívások

challenges-title = Kihívások
challenges-incoming = Neked
challenges-outgoing = Tőled
challenge-title = Kihívás
challenge-to = Privát asztal velük: { $players }.
challenge-also = További barátok meghívása
challenge-no-room = Ennek a játéknak nincs asztala ennyi játékosnak: válassz másik játékot vagy kevesebb játékost.
challenge-expiry = Ennyi ideig vár a válaszra
challenge-expiry-minutes = { $minutes ->
    [one] { $minutes } perc
   *[other] { $minutes } perc
}
challenge-hint = Az asztal az első elfogadáskor nyílik meg, és akkor indul, amikor minden hely foglalt.
challenge-send = Kihívás küldése
challenge-sent = Kihívás elküldve: { $players }.
challenge-incoming = { $player } kihív téged: { $game }, { $seats } hely, eddig: { $until }.
challenge-outgoing = { $game }, { $seats } hely, nekik: { $players }, eddig: { $until }.
challenge-answer-pending = várakozik
challenge-answer-accepted = elfogadta
challenge-answer-declined = elutasította
challenge-accept = Elfogadom
challenge-decline = Elutasítom
challenge-withdraw = Visszavonom
challenge-accepted-by = { $players } elfogadta a kihívásodat.
challenge-accepted-said = Elfogadták a kihívásodat: az asztala nyitva van.
challenge-open-table = Az asztal megnyitása
challenge-received = { $name } kihívott téged.

## Az előcsarnok ajánlatai

lobby-offers = Kihívások és visszavágók
rematch-offer = { $player } visszavágót szeretne.
rematch-offer-said = { $name } visszavágót szeretne.
rematch-open = Az asztal megnyitása

## Egy profil gombjai egy másik játékosnak

profile-actions = Ezzel a játékossal
profile-add-friend = Barátnak jelölöm
profile-block = Letiltás
profile-report = Jelentés
profile-blocked = { $name } letiltva.

## Jelentések

report-title = Jelentés
report-player = { $player } jelentése a moderátoroknak.
report-message = { $player } ezen üzenetének jelentése a moderátoroknak.
report-reason = Miért?
report-send = Jelentés küldése
report-sent = Köszönjük: a moderátorok megnézik.

## Az asztal csevegése

chat-title = Csevegés
chat-none = Még nincs üzenet.
chat-said = { $name }: { $text }
chat-report-message = { $name } üzenetének jelentése
chat-report-player = { $name } jelentése
chat-report = Jelentés
chat-spectator = Itt a játékosok csevegnek; a nézők akkor olvashatják, ha a házigazda engedi.
chat-host-settings = Az asztalod csevegése
chat-text-on = Szabad szöveg
chat-spectators = A nézők olvashatják
chat-emotes = Gyors üzenetek
chat-input = Üzenet
chat-placeholder = Írj valamit…
chat-send = Küldés
chat-text-off = A házigazda kikapcsolta a szabad szöveget: csak gyors üzenetek mehetnek.
chat-players = Játékosok
chat-mute = Némítás
chat-unmute = Némítás feloldása
chat-muted = Némítva: az üzeneteit már nem látod.
chat-unmuted = Némítás feloldva.
emote-hello = Szia!
emote-good_luck = Sok szerencsét!
emote-well_played = Szép játék volt!
emote-good_game = Jó játék!
emote-thanks = Köszönöm!
emote-oops = Hoppá!
emote-wow = Hűha!
emote-sorry = Bocsánat!
emote-hurry_up = Siess!
emote-nice_roll = Szép dobás!
