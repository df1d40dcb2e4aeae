"""Intervals and paired significance tests of constituency parser runs, for ``evalhouse analyze``.

    $ evalhouse ingest parses wsj01.mrg --corpus wsj01 --gold
    $ evalhouse ingest parses berkeley.mrg --corpus wsj01 --team berkeley --run 1
    $ evalhouse analyze --corpus wsj01
    $ evalhouse sql "select team, run, metric, value, low, high from score_intervals
                     where kind = 'constituency run' and metric = 'labelled_f' order by value desc"

The unit resampled is the gold sentence (its position: a candidate run has one parse per gold sentence).
Every score is a ratio of sums over sentences, from what ``geig_sentences`` and ``la_sentences`` store per
sentence (:mod:`evalhouse.statistics.uncertainty` does the resampling), each equal on the whole corpus to
the column of ``parse_scores`` (subset ``all``) of the same name:

* ``labelled_f``: EVALB's bracketing F, 2 matched / (gold + test brackets), the counts of the sentences
  drawn *summed first* as EVALB's totals row sums them (a resample's F is never a mean of sentence Fs);
  ``labelled_recall`` (matched / gold) and ``labelled_precision`` (matched / test) likewise. A sentence
  whose status is not ok (a word mismatch, an empty parse) counts no bracket, as in EVALB;
* ``la_sentence_mean``: the leaf-ancestor score as the mean of the sentence scores (Sampson & Babarczy
  2003), sum of sentence LA / sentences with an LA score; ``la_word_mean``: sum of word scores / words.

Runs differ in test brackets and in which sentences are ok, so each run has its own denominators and
approximate randomisation swaps a sentence's numerator and denominator together. Runs are compared only
with runs of the same corpus scored under the same configuration (``parse_runs.config``: EVALB parameters,
bracket rules, label-cost function), whose parts the stored configuration repeats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from evalhouse.statistics.uncertainty import Score, ratio_scores, rows

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

KIND = "constituency run"
# metric (a parse_scores column) -> (numerator, denominator) per sentence, over geig_sentences g and la_sentences l
METRICS = {
    "labelled_f": ("2 * g.matched_labelled", "g.gold_brackets + g.test_brackets"),
    "labelled_recall": ("g.matched_labelled", "g.gold_brackets"),
    "labelled_precision": ("g.matched_labelled", "g.test_brackets"),
    "la_sentence_mean": ("coalesce(l.la, 0)", "CASE WHEN l.la IS NULL THEN 0 ELSE 1 END"),
    "la_word_mean": ("coalesce(l.score_sum, 0)", "coalesce(l.words, 0)"),
}
DEFINITIONS = {
    "labelled_f": "evalb,2*matched/(gold+test),pooled-brackets",
    "labelled_recall": "evalb,matched/gold,pooled-brackets",
    "labelled_precision": "evalb,matched/test,pooled-brackets",
    "la_sentence_mean": "leaf-ancestor,mean-over-sentences",
    "la_word_mean": "leaf-ancestor,mean-over-words",
}


def scores(wh: Warehouse, corpus: str, keys: list[tuple[str, str]]) -> list[Score]:
    """The ranked scores of the runs ``keys`` (in this order) of a corpus."""
    columns = ", ".join(
        f"CAST(CASE WHEN g.status_code = 0 THEN {n} ELSE 0 END AS DOUBLE) AS {m}_num, "
        f"CAST(CASE WHEN g.status_code = 0 THEN {d} ELSE 0 END AS DOUBLE) AS {m}_den"
        for m, (n, d) in METRICS.items()
    )
    frame = wh.sql(
        f"""SELECT g.team, g.run, g.position, {columns}
            FROM geig_sentences AS g
            LEFT JOIN la_sentences AS l USING (corpus, team, run, position)
            WHERE g.corpus = $c ORDER BY g.team, g.run, g.position""",
        {"c": corpus},
    ).df()
    return ratio_scores(frame, keys, "position", DEFINITIONS)


def analyse(wh: Warehouse, corpus: str, keys: list[tuple[str, str]], config) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``score_intervals`` and ``score_significance`` rows of a corpus's constituency runs: one
    analysis per scoring configuration of its runs (runs scored under different EVALB parameters are not
    compared; Holm adjusts over the pairs of one configuration)."""
    found = wh.sql(
        "SELECT team, run, config FROM parse_runs WHERE corpus = $c AND role = 'candidate' ORDER BY team, run",
        {"c": corpus},
    ).fetchall()
    by_config: dict[str, list[tuple[str, str]]] = {}
    wanted = set(keys)
    for team, run, scoring in found:
        if (team, run) in wanted:
            by_config.setdefault(scoring, []).append((team, run))
    intervals, tests = [], []
    for scoring, group in sorted(by_config.items()):
        group = sorted(group)
        # the scoring options without the version that scored them (the configuration opens with its own)
        unit = "gold-sentence|subset:all|scoring:" + ";".join(scoring.split("|")[1:])
        i, t = rows(KIND, corpus, group, scores(wh, corpus, group), config, unit)
        intervals.append(i)
        tests.append(t)
    return pd.concat(intervals, ignore_index=True), pd.concat(tests, ignore_index=True)
