"""Intervals and paired significance tests of dependency parser runs, for ``evalhouse analyze``.

    $ evalhouse analyze --corpus en_ewt
    $ evalhouse sql "select team, run, metric, value, low, high from score_intervals
                     where kind = 'dependency run' and metric = 'las' order by value desc"

The unit resampled is the gold sentence (``dependency_sentence_scores``: a system word counts in the gold
sentence of its aligned gold word, else in the one its token starts in). Each score is a ratio of sums over
sentences, so a resample is a weighted sum, never a rescoring (:mod:`evalhouse.analysis.stats`):

* ``uas``, ``las``, ``clas``, ``mlas``, ``blex``: the CoNLL 2018 F1, 2 correct / (gold + system) words (content
  words for the last three), pooled over the sentences drawn; on the whole corpus it equals
  ``dependency_scores``;
* ``la``: the dependency leaf-ancestor mean over gold words, sum of LA / gold words.

Intervals are percentile bootstrap intervals (``score_intervals``). The paired tests (``score_significance``)
compare every pair of runs on the same corpus with the same resampled sentences for both (paired bootstrap,
shifted to the null) or with each sentence's two outputs swapped with probability 1/2 (approximate
randomisation); their F1 has a denominator per run, so a swap moves a sentence's numerator and denominator
together. p is Holm-adjusted over the pairs of a corpus, metric and test. The same seed gives the same
resamples to every metric, run and pair, and to the intervals, as the outputs' paired tests have.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from evalhouse.analysis import stats

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
INTERVAL_COLUMNS = ["kind", "corpus", "team", "run", "metric", "value", "low", "high", "sentences", "configuration"]
SIGNIFICANCE_COLUMNS = ["kind", "corpus", "metric", "test", "team_a", "run_a", "team_b", "run_b", "n", "value_a",
                        "value_b", "delta", "p", "p_holm", "significant", "configuration"]


@dataclass
class RunSentences:
    """The runs of one corpus and, per metric, their numerators and denominators: (runs x sentences)."""

    corpus: str
    keys: list[tuple[str, str]]  # (team, run), sorted
    sentences: int
    num: dict[str, np.ndarray]
    den: dict[str, np.ndarray]

    @classmethod
    def load(cls, wh, corpus: str, keys: list[tuple[str, str]]) -> "RunSentences":
        keys = sorted(keys)
        columns = ", ".join(f"CAST({n} AS DOUBLE) AS {m}_num, CAST({d} AS DOUBLE) AS {m}_den"
                            for m, (n, d) in METRICS.items())
        rows = wh.sql(f"SELECT team, run, sentence, {columns} FROM dependency_sentence_scores WHERE corpus = $c "
                      "ORDER BY team, run, sentence", {"c": corpus}).df()
        rows = rows[[k in set(keys) for k in zip(rows["team"], rows["run"])]]
        sentences = sorted(rows["sentence"].unique())
        where = {s: i for i, s in enumerate(sentences)}
        which = {k: i for i, k in enumerate(keys)}
        r = np.array([which[k] for k in zip(rows["team"], rows["run"])], dtype=np.int64)
        c = rows["sentence"].map(where).to_numpy()
        num, den = {}, {}
        for m in METRICS:
            num[m], den[m] = np.zeros((len(keys), len(sentences))), np.zeros((len(keys), len(sentences)))
            num[m][r, c] = rows[f"{m}_num"].to_numpy()
            den[m][r, c] = rows[f"{m}_den"].to_numpy()
        return cls(corpus, keys, len(sentences), num, den)


def signature(config, *parts: str) -> str:
    return config.signature(f"resamples:{config.resamples}", f"seed:{config.seed}", *parts, "unit:gold-sentence",
                            "f1:2*correct/(gold+system),pooled", "la:mean-over-gold-words")


def intervals(data: RunSentences, config) -> pd.DataFrame:
    """One row per run and metric: the score and its percentile bootstrap interval."""
    configuration = signature(config, f"level:{config.level}", "bootstrap:percentile")
    rows = []
    for m in METRICS:
        num, den = data.num[m], data.den[m]
        low, high = stats.bootstrap_ratio_intervals(num.T, den.T, config.resamples, config.seed, config.level)
        for i, (team, run) in enumerate(data.keys):
            total = den[i].sum()
            if total == 0:
                continue  # no content word on either side: no CLAS to speak of
            rows.append((KIND, data.corpus, team, run, m, float(num[i].sum() / total),
                         None if np.isnan(low[i]) else float(low[i]), None if np.isnan(high[i]) else float(high[i]),
                         data.sentences, configuration))
    return pd.DataFrame(rows, columns=INTERVAL_COLUMNS)


def significance(data: RunSentences, config) -> pd.DataFrame | None:
    """Every pair of runs, every metric and test; Holm over the pairs of a metric and test."""
    if len(data.keys) < 2:
        return None
    configuration = signature(config, f"alpha:{config.alpha}", "adjust:holm,over-pairs-of-corpus-metric-test")
    rows = []
    for m in METRICS:
        if (data.den[m].sum(axis=1) == 0).any():
            continue
        for test in config.tests:
            for a, b, va, vb, delta, p in stats.paired_tests_all(data.num[m], data.den[m], config.resamples,
                                                                 config.seed, test):
                rows.append([KIND, data.corpus, m, test, *data.keys[a], *data.keys[b], data.sentences, va, vb, delta, p])
    frame = pd.DataFrame(rows, columns=SIGNIFICANCE_COLUMNS[:13])
    if frame.empty:
        return None
    frame["p_holm"] = frame.groupby(["metric", "test"])["p"].transform(lambda p: stats.holm(p.to_numpy()))
    frame["significant"] = frame["p_holm"] < config.alpha
    frame["configuration"] = configuration
    return frame
