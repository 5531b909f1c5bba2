# Die Seiten außerhalb des Tisches: Lobby, neuer Tisch, Profil, Rangliste, Ruhmeshalle der
# Schande, Einladungslink.

## Lobby

lobby-heading = Lobby
play-now-title = Sofort spielen
play-now-players = Spieler
play-now-bots = Bots nach { $seconds } s
play-now-submit = Sofort spielen
play-now-hint = Ein Platz am ältesten Tisch, der auf dasselbe Spiel wartet, oder an einem neuen; es geht los, sobald er voll ist.
lobby-open-tables = Offene Tische
lobby-live = live
lobby-filters = Filter
filter-any = alle
filter-party = Party
filter-party-only = nur Party
filter-no-party = keine Party
filter-free = mit freien Plätzen
column-host = Gastgeber
column-seats = Plätze
column-clock = Bedenkzeit
column-table = Tisch
tag-party = Party
lobby-open = Öffnen
lobby-watch = Zuschauen
lobby-none = Kein offener Tisch passt. Eröffne einen!
lobby-create = Tisch eröffnen
lobby-finished = Beendete Spiele

## Neuer Tisch

new-title = Tisch eröffnen
new-seats = Plätze
new-options = Regeln
new-bot-level = Bots
bot-level-easy = leicht
bot-level-normal = mittel
bot-level-strong = stark
new-private = privat (Beitritt über den Einladungslink)
new-party = Party-Tisch ({ $seconds } s Bedenkzeit)
new-seed = Dein Würfel-Seed (optional)
new-submit = Eröffnen

## Profil

profile-none = Diesen Spieler gibt es nicht.
profile-summary = { $played ->
    [one] { $played } Spiel gespielt
   *[other] { $played } Spiele gespielt
  }, { $won } gewonnen.
profile-summary-shame = { $played ->
    [one] { $played } Spiel gespielt
   *[other] { $played } Spiele gespielt
  }, { $won } gewonnen, { $shame }-mal in der Ruhmeshalle der Schande.
profile-ratings = Wertungen
column-rated-games = Gewertete Spiele
column-rated-wins = Gewertete Siege
profile-provisional = vorläufig: nicht in der Rangliste
profile-not-rated = Noch nicht gewertet.
profile-rated-hint = Gewertet werden nur öffentliche Spiele zwischen Menschen. Einen Platz, den meist ein Bot für seinen Spieler gespielt hat, zählt die Wertung als Niederlage, egal auf welchem Rang er endet: Ein gewonnenes Spiel kann also eine gewertete Niederlage sein.
profile-finished = Beendete Spiele
profile-won = gewonnen
profile-place = Platz { $place }
profile-played = gespielt

## Rangliste

leaderboard-title = Rangliste
leaderboard-hint = Glicko-2-Wertungen aus öffentlichen Spielen zwischen Menschen (Bots werden nicht gewertet); eine vorläufige Wertung steht nur im Profil ihres Spielers.
column-rank = #
column-player = Spieler
column-games = Spiele
column-wins = Siege
leaderboard-none = Noch keine gefestigten Wertungen.

## Ruhmeshalle der Schande

shame-title = Ruhmeshalle der Schande
shame-hint = Ganz hinten: jede Uckers-Niederlage ohne eine einzige Figur im Ziel (alle 8 Figuren) und jede Aufgabe, die neuesten zuerst.
column-when = Wann
column-who = Wer
column-what = Was
column-pieces-home = Figuren im Ziel
column-replay = Wiederholung
shame-up-board = aufgegeben
shame-dicking = vernichtend geschlagen (8 Figuren)
shame-replay = ansehen
shame-none = Noch niemand.

## Einladungslink

invite-title = Einladung
invite-text = Du bist an einen privaten Tisch eingeladen: { $game }.

## Glück und Fairness (das Glück im Profil, #/fairness; docs/luck.md)

luck-title = Glück
fairness-title = Fairness der Würfel
fairness-hint = Jeder Würfel jedes beendeten Tisches, je Spiel, verglichen mit einem fairen Würfel. Gezählt einen Moment nach dem Ende jedes Tisches.
luck-none = Noch keine beendeten Spiele gezählt.
luck-dice = Würfel: { $dice } · Tische: { $tables }
luck-faces-caption = Geworfene Augenzahlen, gegen je { $expected } bei einem fairen Würfel
luck-face-count = { $face }: { $count }
luck-faces-test = Augenzahlen gegen einen fairen Würfel:
luck-sixes = Sechsen: { $rate } (ein fairer Würfel: { $fair }).
luck-doubles = Pasche: { $rate } (faire Würfel: { $fair }).
luck-p-fair = Im Rahmen dessen, was faire Würfel ergeben (p = { $p }).
luck-p-unusual = Ungewöhnlich, aber faire Würfel tun das einmal in zwanzig Fällen oder öfter (p = { $p }).
luck-p-rare = Selten bei fairen Würfeln (p = { $p }); unter vielen Spielern sieht das immer jemand.
luck-p-hint = p sagt, wie oft faire Würfel so weit oder weiter abweichen würden: kleine Werte allein beweisen nichts, denn bei vielen Spielern sieht immer jemand einen.
luck-backgammon = Backgammon-Glück: { $total } Punkte in { $rolls } Würfen ({ $per_table } je Tisch).
luck-backgammon-hint = Das Glück eines Wurfs ist der Equity-Gewinn gegenüber dem Mittel aller 36 Würfe, bewertet vom Netz des Bots (wie GNU Backgammon es misst).
