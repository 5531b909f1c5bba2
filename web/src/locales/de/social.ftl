# Spieler miteinander (docs/social.md): die Freundesseite, die Knöpfe eines Profils,
# Herausforderungen, der Meldedialog, die Angebote in der Lobby und der Chat am Tisch.

## Dialoge

dialog-cancel = Abbrechen

## Freunde (#/friends)

friends-title = Freunde
friends-add-title = Freund hinzufügen
friends-add-id = Spieler-ID
friends-add-submit = Anfrage senden
friends-add-hint = Die ID steht am Ende der Adresse eines Profils (#/p/…); „Als Freund hinzufügen“ im Profil tut dasselbe.
friends-list-title = Deine Freunde
friends-column-player = Spieler
friends-column-online = Online
friends-column-table = Tisch
friends-column-actions = Aktionen
friends-online = online
friends-offline = offline
friends-watch = Zuschauen ({ $game })
friends-challenge = Herausfordern
friends-remove = Entfernen
friends-none = Noch keine Freunde: frag jemanden in seinem Profil oder über seine ID.
friends-incoming-title = Anfragen an dich
friends-outgoing-title = Deine Anfragen
friends-accept = Annehmen
friends-decline = Ablehnen
friends-withdraw = Zurückziehen
friends-requested = Anfrage an { $name } gesendet.
friends-now = Du und { $name } seid jetzt Freunde.
blocked-title = Blockierte Spieler
blocked-unblock = Blockierung aufheben

## Herausforderungen

challenges-title = Herausforderungen
challenges-incoming = An dich
challenges-outgoing = Von dir
challenge-title = Herausforderung
challenge-to = Ein privater Tisch mit { $players }.
challenge-also = Weitere Freunde einladen
challenge-no-room = Dieses Spiel hat keinen Tisch für so viele Spieler: Wähle ein anderes Spiel oder weniger Spieler.
challenge-expiry = Wartet auf Antwort
challenge-expiry-minutes = { $minutes ->
    [one] { $minutes } Minute
   *[other] { $minutes } Minuten
}
challenge-hint = Der Tisch öffnet bei der ersten Zusage und beginnt, wenn alle Plätze besetzt sind.
challenge-send = Herausforderung senden
challenge-sent = Herausforderung an { $players } gesendet.
challenge-incoming = { $player } fordert dich heraus: { $game }, { $seats } Plätze, bis { $until }.
challenge-outgoing = { $game }, { $seats } Plätze, an { $players }, bis { $until }.
challenge-answer-pending = wartet
challenge-answer-accepted = angenommen
challenge-answer-declined = abgelehnt
challenge-accept = Annehmen
challenge-decline = Ablehnen
challenge-withdraw = Zurückziehen
challenge-accepted-by = { $players } hat deine Herausforderung angenommen.
challenge-accepted-said = Deine Herausforderung wurde angenommen: Ihr Tisch ist offen.
challenge-open-table = Tisch öffnen
challenge-received = { $name } fordert dich heraus.

## Die Angebote in der Lobby

lobby-offers = Herausforderungen und Revanchen
rematch-offer = { $player } will eine Revanche.
rematch-offer-said = { $name } will eine Revanche.
rematch-open = Tisch öffnen

## Die Knöpfe eines Profils für einen anderen Spieler

profile-actions = Mit diesem Spieler
profile-add-friend = Als Freund hinzufügen
profile-block = Blockieren
profile-report = Melden
profile-blocked = { $name } ist blockiert.

## Meldungen

report-title = Melden
report-player = { $player } den Moderatoren melden.
report-message = Diese Nachricht von { $player } den Moderatoren melden.
report-reason = Warum?
report-send = Meldung senden
report-sent = Danke: Die Moderatoren sehen es sich an.

## Der Chat am Tisch

chat-title = Chat
chat-none = Noch keine Nachrichten.
chat-said = { $name }: { $text }
chat-report-message = Die Nachricht von { $name } melden
chat-report-player = { $name } melden
chat-report = Melden
chat-spectator = Hier chatten die Spieler; Zuschauer lesen mit, wenn der Gastgeber es erlaubt.
chat-host-settings = Der Chat deines Tisches
chat-text-on = Freier Text
chat-spectators = Zuschauer dürfen mitlesen
chat-emotes = Schnelle Grüße
chat-input = Nachricht
chat-placeholder = Sag etwas …
chat-send = Senden
chat-text-off = Der Gastgeber hat freien Text ausgeschaltet: nur schnelle Grüße.
chat-players = Spieler
chat-mute = Stummschalten
chat-unmute = Stummschaltung aufheben
chat-muted = Stummgeschaltet: Du siehst seine Nachrichten nicht mehr.
chat-unmuted = Stummschaltung aufgehoben.
emote-hello = Hallo!
emote-good_luck = Viel Glück!
emote-well_played = Gut gespielt!
emote-good_game = Gutes Spiel!
emote-thanks = Danke!
emote-oops = Hoppla!
emote-wow = Wow!
emote-sorry = Entschuldigung!
emote-hurry_up = Mach schneller!
emote-nice_roll = Schöner Wurf!
