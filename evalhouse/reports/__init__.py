"""Reports: what users read, rendered from the warehouse's tables and views: the HTML report of
``evalhouse analyze``'s results (:mod:`evalhouse.reports.html`), EVALB's report
(:mod:`evalhouse.reports.evalb`), APT's report (:mod:`evalhouse.reports.apt`) and plain-text tables
for the terminal (:mod:`evalhouse.reports.text`).
"""
