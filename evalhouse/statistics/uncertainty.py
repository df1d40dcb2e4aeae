"""Intervals and paired significance tests of every score a leaderboard ranks, for ``evalhouse analyze``:
``score_intervals`` and ``score_significance``, for system outputs (kind ``submission``) and dependency
parser runs (kind ``dependency run``, :mod:`evalhouse.statistics.parse_runs`).

    $ evalhouse analyze --corpus en_ewt-test
    $ evalhouse sql "select team, run, metric, value, low, high from score_intervals where metric = 'corpus_bleu'"

Each score is computed from per-sentence sufficient statistics, summed (:class:`Score`): a ratio of two sums
(pooled DEA, a mean of sentence scores, an F1), or a function of several (corpus BLEU, NIST, DIST). A
resample is a weighted sum of the sentences' statistics, never a rescoring, with the draws of
:mod:`evalhouse.analysis.stats` (``PCG64(seed)``): the same multinomial weights for every metric, run and
pair and for the intervals (percentile bootstrap), the same swaps for approximate randomisation; p is
Holm-adjusted over the pairs of a kind, corpus, metric and test. sacreBLEU's BLEU and chrF are resampled by
sacrebleu's own procedure instead (:func:`evalhouse.analysis.sacrebleu_scores.paired_tests`, equal to
``sacrebleu --paired-bs`` and ``--paired-ar`` with the same seed and resamples), its interval being its
own: the bootstrap mean +- half the 2.5-97.5 percentile range.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

from evalhouse.analysis import stats

INTERVAL_COLUMNS = [
    "kind",
    "corpus",
    "team",
    "run",
    "metric",
    "value",
    "low",
    "high",
    "mean",
    "sentences",
    "configuration",
]
SIGNIFICANCE_COLUMNS = [
    "kind",
    "corpus",
    "metric",
    "test",
    "team_a",
    "run_a",
    "team_b",
    "run_b",
    "n",
    "value_a",
    "value_b",
    "delta",
    "p",
    "p_holm",
    "significant",
    "configuration",
]


@dataclass
class Score:
    """One ranked score of the runs of a corpus: per run and sentence its sufficient statistics
    (``stats``: runs x sentences x k). ``combine`` maps summed statistics (..., k) to the score; None: the
    score is the ratio of the two columns (numerator, denominator). ``definition`` goes into the
    configuration."""

    name: str
    stats: np.ndarray
    definition: str
    combine: Callable[[np.ndarray], np.ndarray] | None = None


def ratio_scores(
    frame: pd.DataFrame, keys: list[tuple[str, str]], unit: str, definitions: dict[str, str]
) -> list[Score]:
    """One ratio :class:`Score` per metric of ``definitions`` from per-sentence rows (columns team, run,
    ``unit`` and ``{metric}_num``, ``{metric}_den`` for each metric): run i of ``keys`` is row i of every
    score's statistics, the sentences (``unit`` values of the kept rows, sorted) its columns; a run without
    a row for a sentence has 0 / 0 there. Rows of runs not in ``keys`` are left out."""
    wanted = set(keys)
    frame = frame[[k in wanted for k in zip(frame["team"], frame["run"])]]
    sentences = sorted(frame[unit].unique())
    where = {p: i for i, p in enumerate(sentences)}
    which = {k: i for i, k in enumerate(keys)}
    r = np.array([which[k] for k in zip(frame["team"], frame["run"])], dtype=np.int64)
    c = frame[unit].map(where).to_numpy()
    out = []
    for metric, definition in definitions.items():
        stats = np.zeros((len(keys), len(sentences), 2))
        stats[r, c, 0] = frame[f"{metric}_num"].to_numpy()
        stats[r, c, 1] = frame[f"{metric}_den"].to_numpy()
        out.append(Score(metric, stats, definition))
    return out


def signature(config, *parts: str) -> str:
    return config.signature(f"resamples:{config.resamples}", f"seed:{config.seed}", *parts)


def rows(
    kind: str, corpus: str, keys: list[tuple[str, str]], scores: list[Score], config, unit: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``score_intervals`` and ``score_significance`` rows of the runs ``keys`` (in the order of the
    statistics' first axis) of one corpus, for every score. ``unit`` names the sentences resampled."""
    intervals, tests = [], []
    for score in scores:
        configuration = signature(config, f"unit:{unit}", f"{score.name}:{score.definition}")
        ci = f"level:{config.level}|bootstrap:percentile"
        value, low, high, mean = _intervals(score, config)
        n = score.stats.shape[1]
        for i, (team, run) in enumerate(keys):
            if np.isnan(value[i]):
                continue  # nothing to score (no content word, no reference text)
            intervals.append(
                (
                    kind,
                    corpus,
                    team,
                    run,
                    score.name,
                    float(value[i]),
                    _float(low[i]),
                    _float(high[i]),
                    _float(mean[i]),
                    n,
                    f"{configuration}|{ci}",
                )
            )
        if len(keys) < 2 or np.isnan(value).any():
            continue
        for test in config.tests:
            for a, b, va, vb, delta, p in _tests(score, config, test):
                tests.append(
                    [
                        kind,
                        corpus,
                        score.name,
                        test,
                        *keys[a],
                        *keys[b],
                        n,
                        va,
                        vb,
                        delta,
                        p,
                        f"{configuration}|alpha:{config.alpha}|adjust:holm,over-pairs-of-corpus-metric-test",
                    ]
                )
    return pd.DataFrame(intervals, columns=INTERVAL_COLUMNS), significance_frame(tests, config)


def significance_frame(tests: list[list], config) -> pd.DataFrame:
    """Rows of ``score_significance`` from (kind, corpus, metric, test, pair, n, values, delta, p,
    configuration) lists: Holm over the pairs of each kind, corpus, metric and test."""
    frame = pd.DataFrame([t[:13] for t in tests], columns=SIGNIFICANCE_COLUMNS[:13])
    frame["configuration"] = [t[13] for t in tests]
    if frame.empty:
        return frame.assign(p_holm=[], significant=[])[SIGNIFICANCE_COLUMNS]
    frame["p_holm"] = frame.groupby(["kind", "corpus", "metric", "test"])["p"].transform(
        lambda p: stats.holm(p.to_numpy())
    )
    # Equal scores never differ significantly: sacreBLEU's tests give p = 1/(R+1) when the two runs' sentence
    # statistics are identical (every resampled difference is 0, and its p counts |d*| > |d| strictly); p
    # and p_holm keep sacrebleu's value, but a pair with delta == 0 is not significant, in either direction.
    frame["significant"] = (frame["p_holm"] < config.alpha) & (frame["delta"] != 0)
    return frame[SIGNIFICANCE_COLUMNS]


def _float(v) -> float | None:
    return None if v is None or np.isnan(v) else float(v)


def _ratio_parts(score: Score) -> tuple[np.ndarray, np.ndarray]:
    """Numerators (runs x sentences) and denominators: one shared row when every run has the same (DEA's
    reference edges, a mean's sentences), as the outputs' first tests had them, else a row per run."""
    num, den = score.stats[..., 0], score.stats[..., 1]
    return num, den[0] if (den == den[0]).all() else den


def _intervals(score: Score, config):
    if score.combine is None:
        num, den = score.stats[..., 0], score.stats[..., 1]
        with np.errstate(invalid="ignore", divide="ignore"):
            value = num.sum(axis=1) / den.sum(axis=1)
        low, high, mean = stats.bootstrap_ratio_intervals(
            num.T, den.T, config.resamples, config.seed, config.level, with_mean=True
        )
        return value, low, high, mean
    with np.errstate(invalid="ignore", divide="ignore"):
        value = np.asarray(score.combine(score.stats.sum(axis=1)), dtype=float)
    low, high, mean = stats.bootstrap_statistic_intervals(
        score.stats, score.combine, config.resamples, config.seed, config.level
    )
    return value, low, high, mean


def _tests(score: Score, config, test: str):
    if score.combine is None:
        num, den = _ratio_parts(score)
        return stats.paired_tests_all(num, den, config.resamples, config.seed, test)
    return stats.paired_statistic_tests(score.stats, score.combine, config.resamples, config.seed, test)
