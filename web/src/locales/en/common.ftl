# The parts of the page every view shares: the header, its navigation, the account bar.
# Message ids are kebab-case, prefixed by what they belong to.

nav-pages = Pages
nav-lobby = Lobby
nav-new-table = New table
nav-leaderboard = Leaderboard
nav-shame = Hall of shame
nav-api = API
skip-to-content = Skip to the content
language-switch = Language

# The games, by their names in the API (`game`): every part of the client names them so.
game-luddo = Luddo
game-ludo = Ludo
game-uckers = Uckers
game-snakes = Snakes and Ladders
game-backgammon = Backgammon
