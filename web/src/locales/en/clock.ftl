# The long clock of private tables (WCAG 2.2.1, "Timing adjustable"): every time limit of the
# table ten times the server's.

new-table-long-clock = Long clock (10× the time, for screen readers and other assistive technology)
new-table-long-clock-hint = Private tables only: every time limit of the table is ten times as long.
