# Die Regelseiten (#/rules, #/rules/<game>): ihre Titel und Links. Die Regeln selbst sind
# HTML-Dateien je Sprache, web/src/rules/<language>/<game>.html.

nav-rules = Regeln
rules-title = Spielregeln
rules-intro = So wird jedes Spiel an diesen Tischen gespielt: Aufbau, ein Zug, Ziehen und Schlagen, das Spielende und was der Online-Tisch hinzufügt (die Uhr, ein Computer, der übernimmt, die fairen Würfel).
rules-about-luddo = das Ludo des Hauses: Sternfelder sind sicher, und eine Sechs, ein Schlag oder eine Figur im Ziel bringen einen weiteren Wurf
rules-about-ludo = klassisches Ludo mit einem Würfel, Blockaden und ohne sichere Felder
rules-about-uckers = das Ludo der Royal Navy: zwei Würfel, Partner, Blobs und Herausforderungen
rules-about-snakes = das klassische Brett von 1943: würfeln, die Leitern hinauf, die Schlangen hinunter
rules-about-backgammon = fünfzehn Steine für jeden, mit Dopplerwürfel und Matches
rules-game-title = Spielregeln: { $game }
rules-written-in = Sprache dieser Regeln:
rules-loading = Die Regeln werden geladen …
rules-not-loaded = Die Regeln konnten nicht geladen werden ({ $status }).
rules-other-games = Andere Spiele
rules-all-games = Die Spiele
rules-no-such-game-title = Dieses Spiel gibt es nicht
rules-no-such-game = Ein Spiel namens „{ $game }“ gibt es hier nicht. Die Regeln dieser Spiele kannst du lesen:
