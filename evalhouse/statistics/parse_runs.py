"""Intervals and paired significance tests of dependency parser runs, for ``evalhouse analyze``.

    $ evalhouse analyze --corpus en_ewt
    $ evalhouse sql "select team, run, metric, value, low, high from score_intervals
                     where kind = 'dependency run' and metric = 'las' order by value desc"

The unit resampled is the gold sentence (``dependency_sentence_scores``: a system word counts in the gold
sentence of its aligned gold word, else in the one its token starts in). Each score is a ratio of sums over
sentences (:mod:`evalhouse.statistics.uncertainty` does the resampling):

* ``uas``, ``las``, ``clas``, ``mlas``, ``blex``: the CoNLL 2018 F1, 2 correct / (gold + system) words (content
  words for the last three), pooled over the sentences drawn; on the whole corpus it equals
  ``dependency_scores``. Parsers differ in system words, so each run has its own denominators, and
  approximate randomisation swaps a sentence's numerator and denominator together;
* ``la``: the dependency leaf-ancestor mean over gold words, sum of LA / gold words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING


from evalhouse.statistics.uncertainty import Score, ratio_scores, rows

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

KIND = "dependency run"
# metric -> (numerator, denominator) per sentence, columns of dependency_sentence_scores
METRICS = {
    "uas": ("2 * uas_correct", "gold_words + system_words"),
    "las": ("2 * las_correct", "gold_words + system_words"),
    "clas": ("2 * clas_correct", "gold_content_words + system_content_words"),
    "mlas": ("2 * mlas_correct", "gold_content_words + system_content_words"),
    "blex": ("2 * blex_correct", "gold_content_words + system_content_words"),
    "la": ("la_sum", "gold_words"),
}
DEFINITIONS = {
    "uas": "f1,2*correct/(gold+system),pooled",
    "las": "f1,2*correct/(gold+system),pooled",
    "clas": "f1,content-words,pooled",
    "mlas": "f1,content-words,pooled",
    "blex": "f1,content-words,pooled",
    "la": "mean-over-gold-words",
}


def scores(wh: Warehouse, corpus: str, keys: list[tuple[str, str]]) -> list[Score]:
    """The ranked scores of the runs ``keys`` (sorted) of a corpus, from ``dependency_sentence_scores``."""
    columns = ", ".join(
        f"CAST({n} AS DOUBLE) AS {m}_num, CAST({d} AS DOUBLE) AS {m}_den" for m, (n, d) in METRICS.items()
    )
    rows_ = wh.sql(
        f"SELECT team, run, sentence, {columns} FROM dependency_sentence_scores WHERE corpus = $c "
        "ORDER BY team, run, sentence",
        {"c": corpus},
    ).df()
    return ratio_scores(rows_, keys, "sentence", DEFINITIONS)


def analyse(wh: Warehouse, corpus: str, keys: list[tuple[str, str]], config):
    """The ``score_intervals`` and ``score_significance`` rows of a corpus's dependency runs."""
    keys = sorted(keys)
    return rows(KIND, corpus, keys, scores(wh, corpus, keys), config, "gold-sentence")
