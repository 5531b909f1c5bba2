# A privát asztalok hosszú időkorlátja (WCAG 2.2.1, „Állítható időzítés”): az asztal minden
# időkorlátja a szerverének tízszerese.

new-table-long-clock = Hosszú időkorlát (10× annyi idő, képernyőolvasóhoz és más kisegítő technológiákhoz)
new-table-long-clock-hint = Csak privát asztalnál: az asztal minden időkorlátja tízszer olyan hosszú.
