"""Statistics over stored scores, the library side of ``evalhouse analyze`` and ``evalhouse augment``:
correlations, significance tests, tree error mining and the ensemble, materialised into the tables of
``schema/analyze/`` (:mod:`evalhouse.statistics.analyze`); treebank sentences chosen for a submission's
weaknesses (:mod:`evalhouse.statistics.augment`); and which submissions a command looks at
(:mod:`evalhouse.statistics.selection`). The algorithms are pure functions in
:mod:`evalhouse.analysis.stats` and :mod:`evalhouse.analysis.mining`; docs/statistics.md explains the
choices.
"""
