# Ami minden nézetben közös: a fejléc, a navigáció, a fiók sávja.

nav-pages = Oldalak
nav-lobby = Előcsarnok
nav-new-table = Új asztal
nav-leaderboard = Ranglista
nav-shame = A szégyen csarnoka
nav-api = API
skip-to-content = Ugrás a tartalomra
language-switch = Nyelv

game-luddo = Luddo
game-ludo = Ludo
game-uckers = Uckers
game-snakes = Kígyók és létrák
game-backgammon = Ostábla
