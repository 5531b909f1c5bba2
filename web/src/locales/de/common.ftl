# Was jede Ansicht teilt: der Kopf, seine Navigation, die Kontozeile.

nav-pages = Seiten
nav-lobby = Lobby
nav-new-table = Neuer Tisch
nav-leaderboard = Rangliste
nav-shame = Ruhmeshalle der Schande
nav-api = API
skip-to-content = Zum Inhalt springen
language-switch = Sprache

game-luddo = Luddo
game-ludo = Ludo
game-uckers = Uckers
game-snakes = Leiterspiel
game-backgammon = Backgammon
