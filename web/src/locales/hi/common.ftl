# हर दृश्य में साझा हिस्से: शीर्ष पट्टी, उसका नेविगेशन, खाते की पट्टी।

nav-pages = पृष्ठ
nav-lobby = लॉबी
nav-new-table = नई मेज़
nav-leaderboard = लीडरबोर्ड
nav-shame = शर्म का दरबार
nav-api = API
skip-to-content = सामग्री पर जाएँ
language-switch = भाषा

game-luddo = लूडो (Luddo)
game-ludo = लूडो
game-uckers = अकर्स
game-snakes = साँप और सीढ़ी
game-backgammon = बैकगैमन
