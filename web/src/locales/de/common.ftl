# Was jede Ansicht teilt: der Kopf, seine Navigation, die Kontozeile.

nav-pages = Seiten
nav-lobby = Lobby
nav-new-table = Neuer Tisch
nav-friends = Freunde
nav-leaderboard = Rangliste
nav-shame = Ruhmeshalle der Schande
nav-fairness = Fairness
nav-api = API
skip-to-content = Zum Inhalt springen
language-switch = Sprache

game-luddo = Luddo
game-ludo = Ludo
game-uckers = Uckers
game-snakes = Leiterspiel
game-backgammon = Backgammon

# Die Kontozeile. { $name } ist der Name mit seinem Kürzel, ein Link zum Profil.
account-signed-in = Angemeldet als { $name }
account-profile = Dein Profil
account-sign-out = Abmelden
account-not-signed-in = Nicht angemeldet

signup-title = Melde dich an, um zu spielen
signup-name = Dein Name
signup-submit = Anmelden
signup-hint = Kein Passwort: Dein Token bleibt in diesem Browser (localStorage). Öffentlichen Tischen darf jeder ohne Anmeldung zuschauen.

loading = Wird geladen …
none-yet = Noch keine.
bot = Bot
seconds = { $seconds } s
field-game = Spiel
column-game = Spiel
column-rating = Wertung
column-deviation = ± Abweichung

failure-network = Der Server ist nicht erreichbar. Prüfe deine Verbindung und versuche es noch einmal.
failure-http = Der Server hat mit einem Fehler geantwortet (HTTP { $status }).
feed-private = dieser Tisch ist privat

fairness-checking = Wird geprüft …
fairness-verdict-ok = bestätigt
fairness-verdict-not = NICHT bestätigt
fairness-verified = { $verdict }: Der aufgedeckte Seed passt zur Festlegung, und { $dice ->
    [one] der eine Würfelwurf
   *[other] alle { $dice } Würfelwürfe
  } in { $entries ->
    [one] dem einen Protokolleintrag stimmen
   *[other] { $entries } Protokolleinträgen stimmen
  } mit HMAC-SHA256(Seed, Client-Seed) überein, in diesem Browser nachgerechnet.
fairness-refuted = { $verdict }: { $reason }
fairness-no-seed = das Spiel ist nicht vorbei: noch kein Seed aufgedeckt
fairness-commitment = SHA-256 des aufgedeckten Seeds ist { $computed }, nicht die Festlegung { $commitment }
fairness-no-start = das Protokoll hat keinen Start
fairness-seeds-combine = die Seeds der Plätze ergeben { $combined }, nicht { $expected }
fairness-seats-seeds = die Seeds beim Start sind nicht die der Plätze
fairness-client-seed = der Client-Seed beim Start ist nicht der des Tisches
fairness-die = Eintrag { $seq }, Ereignis { $index } ({ $event }): Würfel Nr. { $k } zeigt { $die }, das Verfahren ergibt { $expected }
fairness-chain = Eintrag { $seq }: Die Enthüllung von Platz { $seat } ist nicht das nächste Glied seiner Würfelkette (falsche Reihenfolge, ein Glied übersprungen oder keine Kette hinterlegt)
fairness-chain-shown = Platz { $seat } zeigt eine andere Würfelkette, als beim Start hinterlegt wurde
fairness-reveal-missing = Eintrag { $seq }: Der Spieler auf Platz { $seat } hat ohne Enthüllung gewürfelt: die Würfel des Servers, wo die des Spielers fällig waren
