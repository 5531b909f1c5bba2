# Die Seite eines Tisches (pages/table.js, table/*.js) und die Wiederholung (pages/replay.js).

table-loading = Der Tisch wird geladen …
table-title = { $game }{ $private ->
    [yes] {" · "}privat
   *[no] {""}
}{ $party ->
    [yes] {" · "}Party
   *[no] {""}
} · { $seconds } s Bedenkzeit
side-label = Der Tisch
announcer-label = Was geschieht
seats-label = Plätze
controls-label = Deine Züge
board-as-text = Das Brett als Text
board-later = Das Brett erscheint, sobald das Spiel beginnt.
log-title = Verlauf

seat-number = Platz { $seat }
bot-name = Bot { $seat }
empty-seat = freier Platz { $seat }
seat-who = { $name } ({ $colour })
seat-colour = { $colour }, { $shape }
colour-name = { $colour ->
    [yellow] Gelb
    [red] Rot
    [green] Grün
    [blue] Blau
    [purple] Lila
    [orange] Orange
    [white] Weiß
    [black] Schwarz
   *[other] { $colour }
}
shape-name = { $shape ->
    [circle] Kreis
    [square] Quadrat
    [triangle] Dreieck
    [diamond] Raute
    [hexagon] Sechseck
   *[down] umgedrehtes Dreieck
}
tag-host = Gastgeber
tag-you = du
tag-bot = Bot
tag-online = online
tag-offline = offline
tag-bot-playing-for = Bot spielt für { $name }
tag-timed-out = Zeit abgelaufen ×{ $count }
tag-timed-out-entry = Zeit abgelaufen
tag-place = Platz { $place }
tag-wants-rematch = will eine Revanche

connection-live = live
connection-reconnecting = verbindet neu …
connection-closed = geschlossen
connection-finished = beendet
connection-everyone-left = geschlossen: alle sind gegangen
connection-private = dieser Tisch ist privat

turn-waiting-room = Warteraum
turn-game-over = Das Spiel ist vorbei
turn-yours = Du bist am Zug
turn-theirs = { $name } ist am Zug
clock-seconds = { $seconds } s

room-waiting-public = Warte auf Mitspieler. Teile den Link:
room-waiting-private = Warte auf Mitspieler. Privater Tisch: Teile den Einladungslink.
room-link = Link zu diesem Tisch
room-copy = Kopieren
room-sign-up = Melde dich an,
room-sign-up-after = um Platz zu nehmen.
room-join = Platz nehmen
room-leave = Tisch verlassen
room-start = Starten (Bots besetzen die freien Plätze)
room-host-starts = Der Gastgeber startet das Spiel.

controls-watching = Du schaust zu.
controls-bot-playing = Ein Bot spielt auf deinem Platz.
controls-reclaim = Meinen Platz zurücknehmen
controls-choose = Wähle einen Zug
controls-cancel = Abbrechen
controls-actions = Aktionen
controls-click-piece = Klicke auf eine hervorgehobene Figur oder wähle:
controls-start-again = Zug neu beginnen
controls-all-moves = Alle erlaubten Züge ({ $count })
controls-not-your-turn = Du bist nicht am Zug.
controls-only-move = Dein einziger Zug wird für dich gemacht.
action-roll = Würfeln
action-pass = Passen

dice-you-threw = Du hast gewürfelt
dice-threw = { $who } hat gewürfelt
dice-label = { $count ->
    [one] Würfel: { $dice }
   *[other] Würfel: { $dice }
}
dice-your-turn-to-throw = Du bist mit Würfeln dran.

end-title = Spiel vorbei
end-place = {" — "}Platz { $place }
end-points = , { $points } Punkte
end-check-dice = Würfel prüfen
end-replay = Wiederholung
rematch-ask = Revanche
rematch-asked = Du hast um eine Revanche gebeten.
rematch-waiting = Du hast um eine Revanche gebeten; es fehlt noch: { $names }.
rematch-wanted = { $count ->
    [one] { $names } will eine Revanche.
   *[other] { $names } wollen eine Revanche.
}
rematch-opened = Die Revanche hat begonnen: zum neuen Tisch.

log-table = Tisch
log-seat-taken = { $name } hat Platz genommen
log-seat-left = hat den Tisch verlassen
log-bot-seated = ein Bot hat Platz genommen
log-settings-changed = Einstellungen geändert
log-start = das Spiel hat begonnen
log-finish = das Spiel ist vorbei
log-takeover = ein Bot hat den Platz übernommen ({ $reason ->
    [timeouts] Zeit abgelaufen
    [stalling] Verzögerung
   *[away] abwesend
})
log-reclaim = hat den Platz zurückgenommen
log-closed = der Tisch wurde geschlossen
log-threw = {" — "}würfelte { $dice }

said-and = {" und "}
said-your-turn = Du bist am Zug.
said-timed-out = Die Zeit von { $who } ist abgelaufen.
said-seat-taken = { $name } hat Platz genommen.
said-seat-left = { $name } hat den Tisch verlassen.
said-bot-seated = Ein Bot hat sich auf Platz { $seat } gesetzt.
said-start = Das Spiel hat begonnen.
said-takeover = Ein Bot spielt jetzt für { $who }.
said-reclaim = { $who } hat den Platz zurückgenommen.
said-closed = Der Tisch wurde geschlossen: alle sind gegangen.
said-opening-rolled = { $who } würfelt zum Auslosen eine { $dice }.
said-opening-tie = Gleichstand: { $who } würfeln noch einmal.
said-first-to-play = { $who } beginnt.
said-rolled = { $who } würfelt { $dice }.
said-extra-roll = { $who } darf noch einmal würfeln.
said-turn-passed = { $who } ist mit Würfeln dran.
said-seat-finished = { $who } ist fertig auf Platz { $place }.
said-game-over = { $count ->
    [one] Spiel vorbei: { $who } hat gewonnen.
   *[other] Spiel vorbei: { $who } haben gewonnen.
}
said-game-over-nobody = Spiel vorbei.

settings-title = Hinweise und Tasten
settings-sound = Ein Ton, wenn ich am Zug bin
settings-notify = Eine Benachrichtigung, wenn ich am Zug bin und diese Seite verborgen ist
settings-keys = Abfragen mit einer Taste
settings-keys-list = Wenn der Tisch den Fokus hat: T wer am Zug ist, D die Würfel, C meine Zeit, P wo meine Figuren stehen, S der Spielstand, M meine Züge, ? diese Liste.
query-help = Tasten: T wer am Zug ist, D die Würfel, C meine Zeit, P wo meine Figuren stehen, S der Spielstand, M meine Züge, Fragezeichen diese Liste.
query-game-over = Das Spiel ist vorbei.
query-not-started = Das Spiel hat noch nicht begonnen.
query-seconds-left = { $seconds ->
    [one] Noch eine Sekunde.
   *[other] Noch { $seconds } Sekunden.
}
query-no-dice = Noch wurde nicht gewürfelt.
query-dice = Würfel: { $dice }.
query-not-seated = Du hast keinen Platz an diesem Tisch.
query-not-your-turn = { $name } ist am Zug, nicht du.
query-my-clock = { $seconds ->
    [one] Du hast noch eine Sekunde.
   *[other] Du hast noch { $seconds } Sekunden.
}
query-no-moves = Du hast gerade keinen Zug.
query-moves = { $count ->
    [one] Dein Zug: { $moves }.
   *[other] Deine { $count } Züge: { $moves }.
}

alert-your-turn = Du bist am Zug
alert-time-low = Noch { $seconds } s
alert-title = ● { $what } — { $title }

replay-loading = Das Spiel wird geladen …
replay-not-over = Dieses Spiel ist noch nicht vorbei:
replay-watch = zuschauen.
replay-title = Wiederholung: { $game } — { $players }
replay-side = Die Wiederholung
replay-steps = Schritt für Schritt durch das Spiel
replay-first = Zum Anfang
replay-previous = Zurück
replay-next = Weiter
replay-last = Zum Ende
replay-position = Stelle im Spiel
replay-step = { $step } / { $steps } (seq { $seq })
replay-table = Der Tisch
download-json = Aufzeichnung herunterladen
table-fresh-dice-on = Frische Würfel: In jeden Wurf eines Spielers fließt ein Geheimnis ein, auf das sich sein eigener Browser vor dem Start festgelegt hat. So kann niemand, auch der Server nicht, einen Würfel kennen, bevor der Wurf angefordert wird.
table-fresh-dice-off = Die Würfel dieses Tisches kommen allein aus dem hinterlegten Seed des Servers (frische Würfel sind aus): Nach dem Spiel lassen sie sich prüfen, aber die Spieler steuern keinen frischen Zufall bei.
table-fresh-dice-timeout-roll = Du wolltest würfeln, aber die Uhr hat mit den eigenen Würfeln des Servers für dich gewürfelt: Deine Anfrage wurde womöglich zurückgehalten.
review-title = Analyse
review-pending = Die Analyse wird berechnet …
review-unavailable = Für dieses Spiel gibt es keine Analyse.
review-search = Jede Entscheidung vom Netz des Servers bewertet ({ $search }); Equity je Würfelstufe.
review-seat = { $player }: { $rate } mp je Entscheidung ({ $band }), { $decisions } Entscheidungen, { $errors } Fehler, { $blunders } grobe Fehler, Glück { $luck }
review-step-none = Bei diesem Schritt gab es keine Entscheidung.
review-play = { $player } spielte { $dice }: { $played }
review-cube = { $player }: { $played }
review-best = am besten: { $best }
review-lost = verloren { $loss }
review-luck = Glück { $luck }
review-mark-error = Fehler
review-mark-blunder = grober Fehler
review-marks = Fehler und grobe Fehler
review-go = Zu Schritt { $step }
review-action-double = doppeln
review-action-no_double = nicht doppeln
review-action-too_good = zu gut zum Doppeln
review-action-take = annehmen
review-action-pass = aufgeben
review-action-beaver = Biber
review-band-supernatural = Übernatürlich
review-band-world_class = Weltklasse
review-band-expert = Experte
review-band-advanced = Fortgeschritten
review-band-intermediate = Mittelstufe
review-band-casual_player = Gelegenheitsspieler
review-band-beginner = Anfänger
review-band-awful = Furchtbar!
hint-ask = Hinweis
hint-cube = { $double }; die Antwort: { $response } (nicht doppeln: { $equity })
hint-play = { $play } ({ $equity })
