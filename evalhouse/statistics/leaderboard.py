"""Intervals and paired tests of every score the outputs' leaderboard ranks, for ``evalhouse analyze``
(kind ``submission`` of ``score_intervals`` and ``score_significance``; the machinery is
:mod:`evalhouse.statistics.uncertainty`).

    $ evalhouse analyze --corpus en_ewt-test
    $ evalhouse sql "select team, run, metric, value, low, high from score_intervals
                     where kind = 'submission' and corpus = 'en_ewt-test' order by metric, value desc"

The metrics are the leaderboard's, named after the columns of the views they equal on the whole corpus:

* ``submission_scores``: ``dea`` (pooled: matched edges / edges), ``mean_dea`` (mean of sentence DEA over
  sentences with edges), ``mean_bleu`` (mean sentence BLEU), ``corpus_bleu`` (BLEU-4 of the summed lemma
  statistics, NLTK's smoothing method 2), and the means of Bangalore et al.'s (2000) accuracies
  (``mean_ssa`` ... ``mean_quality_accuracy``), each from ``sentence_scores`` / ``sentence_statistics``;
* ``sr_submission_scores``: ``sr_bleu``, ``sr_nist``, ``sr_dist``, ``sr_dist_words`` (the SR shared tasks'
  script; NIST's information weights are those of the whole reference corpus, held fixed under resampling);
* ``sacrebleu_scores``: ``sacrebleu_bleu``, ``sacrebleu_chrf``, resampled by sacrebleu's own procedure on
  sacrebleu's per-sentence statistics of the stored output and reference texts (with the options of the
  stored signature), so that p, the mean and the interval equal ``sacrebleu --paired-bs`` (and p
  ``--paired-ar``) with the same seed and resamples.

The unit resampled is the reference sentence (a missing output counts as the empty sentence it was scored as).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from evalhouse.analysis import sacrebleu_scores
from evalhouse.analysis.bleu import bleu_from_statistics
from evalhouse.analysis.sr_metrics import nist_from_sum_arrays
from evalhouse.statistics.uncertainty import Score, rows, significance_frame, signature

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

KIND = "submission"
# the means of sentence scores the leaderboard shows: metric -> sentence_scores column
MEANS = {
    "mean_bleu": "bleu",
    "mean_ssa": "ssa",
    "mean_gsa": "gsa",
    "mean_sta": "sta",
    "mean_gta": "gta",
    "mean_understandability_accuracy": "understandability_accuracy",
    "mean_quality_accuracy": "quality_accuracy",
}
SACREBLEU_TESTS = {"paired-bootstrap": "bs", "approximate-randomisation": "ar"}


def _corpus_bleu(t: np.ndarray) -> np.ndarray:
    """NLTK corpus BLEU (method 2) from summed [hyp len, ref len, matches 1-4, totals 1-4]."""
    return bleu_from_statistics(t[..., 0], t[..., 1], t[..., 2:6], t[..., 6:10])


def _nist(t: np.ndarray) -> np.ndarray:
    """NIST (n = 4) from summed [hyp len, ref len, hypothesis n-grams 1-4, weighted matches 1-4]."""
    return nist_from_sum_arrays(t[..., 6:10], t[..., 2:6], t[..., 0], t[..., 1])


def _dist(t: np.ndarray) -> np.ndarray:
    """DIST from summed [edits, longer lengths]: 1 - edits / lengths."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(t[..., 1] > 0, 1 - t[..., 0] / t[..., 1], np.nan)


def scores(wh: Warehouse, corpus: str, keys: list[tuple[str, str]]) -> list[Score]:
    """The leaderboard's scores of the submissions ``keys`` (sorted) on a corpus, but sacreBLEU's."""
    positions = [
        p
        for (p,) in wh.sql(
            "SELECT position FROM sentences WHERE corpus = $c ORDER BY position", {"c": corpus}
        ).fetchall()
    ]
    where = {p: i for i, p in enumerate(positions)}
    which = {k: i for i, k in enumerate(keys)}
    s, n = len(keys), len(positions)
    sentence = wh.sql(
        f"""SELECT team, run, position, edges, matched_edges, dea, {", ".join(MEANS.values())}
                          FROM sentence_scores WHERE corpus = $c""",
        {"c": corpus},
    ).df()
    statistics = wh.sql(
        """SELECT team, run, position, bleu_hypothesis_length, bleu_reference_length, bleu_matches,
                                  bleu_totals, sr_hypothesis_length, sr_reference_length, sr_matches, sr_totals,
                                  sr_nist_matches, sr_word_edits, sr_word_length, sr_char_edits, sr_char_length
                           FROM sentence_statistics WHERE corpus = $c""",
        {"c": corpus},
    ).df()

    def grid(frame: pd.DataFrame):
        chosen = frame[[k in which for k in zip(frame["team"], frame["run"])]]
        return (
            np.array([which[k] for k in zip(chosen["team"], chosen["run"])], dtype=np.int64),
            chosen["position"].map(where).to_numpy(),
            chosen,
        )

    r, c, sentence = grid(sentence)

    def column(frame, name, rr, cc) -> np.ndarray:
        out = np.full((s, n), np.nan)
        out[rr, cc] = frame[name].astype(float).to_numpy()
        return out

    edges, matched, dea = (column(sentence, x, r, c) for x in ("edges", "matched_edges", "dea"))
    has_edges = np.nan_to_num(edges) > 0
    out = [
        Score("dea", np.stack([np.nan_to_num(matched), np.nan_to_num(edges)], -1), "pooled:matched/edges"),
        Score(
            "mean_dea",
            np.stack([np.where(has_edges, np.nan_to_num(dea), 0.0), has_edges.astype(float)], -1),
            "mean-over-sentences-with-edges",
        ),
    ]
    for metric, name in MEANS.items():
        values = column(sentence, name, r, c)
        present = ~np.isnan(values)
        out.append(
            Score(metric, np.stack([np.where(present, values, 0.0), present.astype(float)], -1), "mean-over-sentences")
        )
    r, c, statistics = grid(statistics)

    def vectors(name: str, k: int, floor: bool = False) -> np.ndarray:
        out_ = np.zeros((s, n, k))
        values = np.array([np.zeros(k) if v is None else np.asarray(v, dtype=float) for v in statistics[name]])
        out_[r, c] = np.maximum(values, 1.0) if floor else values
        return out_

    lengths = np.stack(
        [column(statistics, "bleu_hypothesis_length", r, c), column(statistics, "bleu_reference_length", r, c)], -1
    )
    # NLTK's corpus_bleu: every sentence adds at least 1 to each n-gram total
    out.append(
        Score(
            "corpus_bleu",
            np.concatenate([lengths, vectors("bleu_matches", 4), vectors("bleu_totals", 4, True)], -1),
            "nltk-corpus-bleu,method2,lemmas",
            _corpus_bleu,
        )
    )
    scored = statistics["sr_hypothesis_length"].notna()
    if len(statistics) and scored.all() and len(statistics) == s * n:
        sr_lengths = np.stack(
            [column(statistics, "sr_hypothesis_length", r, c), column(statistics, "sr_reference_length", r, c)], -1
        )
        out += [
            Score(
                "sr_bleu",
                np.concatenate([sr_lengths, vectors("sr_matches", 4), vectors("sr_totals", 4, True)], -1),
                "sr-script,nltk-corpus-bleu,method2",
                _corpus_bleu,
            ),
            Score(
                "sr_nist",
                np.concatenate([sr_lengths, vectors("sr_totals", 4), vectors("sr_nist_matches", 4)], -1),
                "sr-script,nltk-corpus-nist,weights-of-the-whole-reference",
                _nist,
            ),
            Score(
                "sr_dist",
                np.stack([column(statistics, "sr_char_edits", r, c), column(statistics, "sr_char_length", r, c)], -1),
                "sr19-script,characters",
                _dist,
            ),
            Score(
                "sr_dist_words",
                np.stack([column(statistics, "sr_word_edits", r, c), column(statistics, "sr_word_length", r, c)], -1),
                "sr18-script,words",
                _dist,
            ),
        ]
    return out


def sacrebleu_rows(
    wh: Warehouse, corpus: str, keys: list[tuple[str, str]], config
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """sacreBLEU BLEU and chrF of the submissions that have them, resampled as sacrebleu resamples."""
    stored = {
        (t, r): sig
        for t, r, sig in wh.sql(
            "SELECT team, run, signature FROM submission_sacrebleu WHERE corpus = $c AND metric = 'bleu'", {"c": corpus}
        ).fetchall()
    }
    keys = [k for k in keys if k in stored]
    intervals, tests = [], []
    if not keys:
        return pd.DataFrame(intervals), significance_frame(tests, config)
    options = _options(stored[keys[0]])
    references = [
        t for (t,) in wh.sql("SELECT text FROM sentences WHERE corpus = $c ORDER BY position", {"c": corpus}).fetchall()
    ]
    prepared = sacrebleu_scores.sacrebleu_reference(references, **options)
    results = []
    for team, run in keys:
        texts = [
            t
            for (t,) in wh.sql(
                "SELECT text FROM output_sentences WHERE corpus = $c AND team = $t AND run = $r ORDER BY position",
                {"c": corpus, "t": team, "r": run},
            ).fetchall()
        ]
        results.append(sacrebleu_scores.sacrebleu_scores(texts, prepared))
    n = len(references)
    for metric in ("bleu", "chrf"):
        statistics = [getattr(x, f"{metric}_statistics") for x in results]
        configuration = signature(
            config,
            "unit:reference-sentence",
            f"sacrebleu_{metric}:sacrebleu-{sacrebleu_scores.version()},"
            f"tokenize:{options['tokenize']},lowercase:{str(options['lowercase']).lower()}",
        )
        paired = {}
        for test in config.tests:
            paired[test] = sacrebleu_scores.paired_tests(
                statistics, metric, test, config.resamples, config.seed, **options
            )
        boot = paired.get("paired-bootstrap") or sacrebleu_scores.paired_tests(
            statistics, metric, "paired-bootstrap", config.resamples, config.seed, **options
        )
        for i, (team, run) in enumerate(keys):
            intervals.append(
                (
                    "submission",
                    corpus,
                    team,
                    run,
                    f"sacrebleu_{metric}",
                    boot.scores[i],
                    boot.means[i] - boot.cis[i],
                    boot.means[i] + boot.cis[i],
                    boot.means[i],
                    n,
                    f"{configuration}|ci:sacrebleu-paired-bs,mean+-half-of-2.5-97.5-percentiles",
                )
            )
        for test, result in paired.items():
            for (a, b), p in sorted(result.p.items()):
                tests.append(
                    [
                        "submission",
                        corpus,
                        f"sacrebleu_{metric}",
                        test,
                        *keys[a],
                        *keys[b],
                        n,
                        result.scores[a],
                        result.scores[b],
                        result.scores[a] - result.scores[b],
                        p,
                        f"{configuration}|sacrebleu-paired-{SACREBLEU_TESTS[test]}|alpha:{config.alpha}"
                        "|adjust:holm,over-pairs-of-corpus-metric-test",
                    ]
                )
    return pd.DataFrame(intervals), significance_frame(tests, config)


def _options(bleu_signature: str) -> dict:
    """sacrebleu's options from a stored BLEU signature (``case:mixed|lc``, ``tok:13a``)."""
    fields = dict(part.split(":", 1) for part in bleu_signature.split("|") if ":" in part)
    return {"lowercase": fields.get("case") == "lc", "tokenize": fields.get("tok", "13a")}


def analyse(wh: Warehouse, corpus: str, keys: list[tuple[str, str]], config) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ``score_intervals`` and ``score_significance`` rows of a corpus's submissions."""
    keys = sorted(keys)
    intervals, tests = rows(KIND, corpus, keys, scores(wh, corpus, keys), config, "reference-sentence")
    sacre_intervals, sacre_tests = sacrebleu_rows(wh, corpus, keys, config)
    if len(sacre_intervals):
        sacre_intervals.columns = intervals.columns
        intervals = pd.concat([intervals, sacre_intervals], ignore_index=True)
    if len(sacre_tests):
        tests = pd.concat([tests, sacre_tests], ignore_index=True)
    return intervals, tests
