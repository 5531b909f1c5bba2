# Die Regeln der Spiele im Formular für einen neuen Tisch (siehe en/options.ftl).

option-private-only = { $option } (nur an privaten Tischen)
options-private-hint = Manche Hausregeln gibt es nur an privaten Tischen.

option-luddo-home_bonus = eine Figur im Ziel gibt einen Extrawurf
    .description = Wer eine Figur ins Ziel bringt, darf noch einmal würfeln (eine Hausregel; nach dem Schlagen darf man immer noch einmal).

option-ludo-enter_on = Herauskommen mit
    .description = Die Augenzahlen, mit denen eine Figur das Haus verlässt: eine 6, oder für Kinder eine 1 oder eine 6.
option-ludo-enter_on-6 = einer 6
option-ludo-enter_on-1-6 = einer 1 oder einer 6
option-ludo-play_for_places = um die Plätze weiterspielen
    .description = Ab 3 Spielern spielen die anderen nach dem Sieger um die Plätze weiter; sonst endet das Spiel mit dem Ersten, und alle anderen teilen sich den letzten Platz.

option-uckers-blow_back = Zurückblasen
    .description = WAFU: Eine Figur in der Röhre darf versuchen, einen Gegner am Röhreneingang wegzublasen.
option-uckers-mixed_blob_stacking = gemischte Blobs stapeln
    .description = Ein gemischter Blob ist ein Stapel: Nur die zuletzt angekommene Figur darf ziehen.
option-uckers-snake_eyes = Schlangenaugen
    .description = Was Schlangenaugen (ein Einserpasch) beim ersten Wurf eines Spielers bewirken.
option-uckers-snake_eyes-off = aus
option-uckers-snake_eyes-navy = Navy
option-uckers-snake_eyes-wafu = WAFU
option-uckers-stand_up_finish = Finish im Stehen
    .description = Wer nur noch einen Wurf zum Sieg braucht, darf ein Finish im Stehen ansagen.
option-uckers-suck_back = Zurücksaugen
    .description = WAFU: Eine Figur am Eingang einer gegnerischen Röhre darf versuchen, eine Figur herauszusaugen.
option-uckers-superblobs = Superblobs
    .description = Drei oder mehr Figuren einer Farbe auf einem Feld der Bahn können nicht ziehen.

option-snakes-board = Spielplan
    .description = Der klassische Spielplan von 1943.

option-backgammon-beavers = Biber
    .description = Nur im Geldspiel: Wer gedoppelt wurde, darf „bibern“ (sofort zurückdoppeln und den Würfel behalten).
option-backgammon-crawford = Crawford-Regel
    .description = Nur im Match: kein Doppeln in dem Spiel, nachdem ein Spieler zum ersten Mal Matchpunkt erreicht hat.
option-backgammon-cube = Dopplerwürfel
    .description = Ob mit dem Dopplerwürfel gespielt wird.
option-backgammon-hints = Hinweise (private Tische)
    .description = Nur an privaten Tischen: Ein Spieler am Tisch darf in seinem Zug einen Hinweis anfordern. Nie an gewerteten Tischen.
option-backgammon-jacoby = Jacoby-Regel
    .description = Nur im Geldspiel: Gammons und Backgammons zählen einfach, solange nicht gedoppelt wurde.
option-backgammon-match_to = Match bis (0: ein Geldspiel)
    .description = Punkte zum Matchgewinn; 0 spielt ein einzelnes Geldspiel.
