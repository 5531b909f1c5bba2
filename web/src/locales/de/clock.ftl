# Die lange Bedenkzeit privater Tische (WCAG 2.2.1, „Zeiteinteilung anpassbar“): jedes
# Zeitlimit des Tisches zehnmal so lang wie das des Servers.

new-table-long-clock = Lange Bedenkzeit (10× so viel Zeit, für Screenreader und andere assistive Technologien)
new-table-long-clock-hint = Nur an privaten Tischen: Jedes Zeitlimit des Tisches ist zehnmal so lang.
