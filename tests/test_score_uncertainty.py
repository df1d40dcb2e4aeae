"""Every ranked score of the outputs' leaderboard with an interval and paired tests (evalhouse analyze,
score_intervals / score_significance, kind 'submission'): the statistics resampled give back the views'
scores on the whole corpus; the general resampler gives a ratio's p of the ratio resampler; sacreBLEU's BLEU
and chrF equal sacrebleu's own paired bootstrap and approximate randomisation (its PairedTest, run here as
the peer) on real outputs."""

from __future__ import annotations

import os

import numpy as np
import pytest

from evalhouse.analysis import sacrebleu_scores, stats
from evalhouse.statistics.leaderboard import MEANS
from tests.test_analysis import analysed  # noqa: F401 - the module's warehouse: three baselines, analysed


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomisation"])
def test_the_general_resampler_gives_a_ratio_the_ratio_resamplers_p(test):
    rng = np.random.default_rng(4)
    den = rng.integers(1, 9, size=30).astype(float)
    nums = np.minimum(rng.integers(0, 9, size=(3, 30)), den).astype(float)
    ratio = paired = stats.paired_tests_all(nums, den, 400, 6, test)
    general = stats.paired_statistic_tests(
        np.stack([nums, np.tile(den, (3, 1))], -1), lambda t: t[..., 0] / t[..., 1], 400, 6, test
    )
    assert [r[5] for r in general] == [r[5] for r in ratio] and [r[:2] for r in general] == [r[:2] for r in paired]
    low, high = stats.bootstrap_ratio_intervals(nums.T, np.tile(den, (3, 1)).T, 400, 6)
    glow, ghigh, _ = stats.bootstrap_statistic_intervals(
        np.stack([nums, np.tile(den, (3, 1))], -1), lambda t: t[..., 0] / t[..., 1], 400, 6
    )
    assert glow == pytest.approx(low, abs=1e-12) and ghigh == pytest.approx(high, abs=1e-12)


@pytest.mark.slow
def test_every_ranked_score_has_its_interval_and_tests(analysed):  # noqa: F811
    wh = analysed
    views = {
        "submission_scores": ["dea", "mean_dea", "corpus_bleu", *MEANS],
        "sr_submission_scores": ["bleu", "nist", "dist", "dist_words"],
        "sacrebleu_scores": ["bleu", "chrf"],
    }
    intervals = {
        (t, r, m): (v, lo, hi)
        for t, r, m, v, lo, hi in wh.sql(
            "SELECT team, run, metric, value, low, high FROM score_intervals WHERE kind = 'submission'"
        ).fetchall()
    }
    checked = 0
    for view, columns in views.items():
        prefix = {"submission_scores": "", "sr_submission_scores": "sr_", "sacrebleu_scores": "sacrebleu_"}[view]
        for team, run, *values in wh.sql(f"SELECT team, run, {', '.join(columns)} FROM {view}").fetchall():
            for column, want in zip(columns, values):
                if want is None:
                    continue
                value, low, high = intervals[(team, run, prefix + column)]
                assert value == pytest.approx(want, rel=1e-12, abs=1e-12), (view, column)
                assert low <= high
                checked += 1
    assert checked >= 3 * 16
    # every metric tested between every pair, both tests; Holm within kind, corpus, metric and test
    tests = wh.sql("""SELECT metric, count(*), count(DISTINCT test) FROM score_significance WHERE kind = 'submission'
                      GROUP BY metric""").fetchall()
    assert {m for m, _, _ in tests} == {m for _, _, m in intervals} and all(n == 3 * 2 and t == 2 for _, n, t in tests)
    config = wh.sql("SELECT DISTINCT configuration FROM score_intervals WHERE metric = 'sacrebleu_bleu'").fetchone()[0]
    assert "sacrebleu-paired-bs" in config and "seed:5" in config and "resamples:200" in config


def _text_lines(path):
    return [
        line.split("= ", 1)[1] if "= " in line else ""
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("# text")
    ]


@pytest.mark.realdata
@pytest.mark.parametrize("test, code", [("paired-bootstrap", "bs"), ("approximate-randomisation", "ar")])
def test_sacrebleu_resampling_equals_sacrebleus_paired_test(test, code, monkeypatch):
    from sacrebleu.metrics import BLEU, CHRF
    from sacrebleu.significance import PairedTest

    from tests.conftest import shared

    references = _text_lines(shared("ud-v2.3", "en_ewt-ud-test.conllu"))
    runs = shared("sr-outputs", "adapt-ewt-test")
    # two close runs (sacreBLEU BLEU 75.58 and 75.38) and a distant one (81.57): all three pairs differ
    # significantly (p = 1/301) under both tests, as sacrebleu says too
    names = [
        "ewt_only_test_set_13-Oct_11-27",
        "augmented_and_ewt_test_set_13-Oct_12-07_tokenized",
        "augmented_and_ewt_test_set_13-Oct_12-07",
    ]
    hypotheses = [_text_lines(runs / name / "en_out.txt") for name in names]
    # and one that differs from the first in ten sentences only (taken from the second): a large p
    names.append("ten-changed")
    hypotheses.append([h1 if k % 200 == 7 else h0 for k, (h0, h1) in enumerate(zip(hypotheses[0], hypotheses[1]))])
    assert all(len(h) == len(references) for h in hypotheses)
    prepared = sacrebleu_scores.sacrebleu_reference(references)
    results = [sacrebleu_scores.sacrebleu_scores(h, prepared) for h in hypotheses]
    monkeypatch.setitem(os.environ, "SACREBLEU_SEED", "11")
    for metric, cls in (("bleu", BLEU), ("chrf", CHRF)):
        ours = sacrebleu_scores.paired_tests(
            [getattr(r, f"{metric}_statistics") for r in results], metric, test, 300, 11
        )
        for a, b in ((0, 1), (0, 2), (1, 2), (0, 3)):
            _, theirs = PairedTest(
                [(names[a], hypotheses[a]), (names[b], hypotheses[b])],
                {metric: cls(references=[references])},
                None,
                test_type=code,
                n_samples=300,
            )()
            base, other = theirs[next(k for k in theirs if k != "System")]
            assert (ours.scores[a], ours.scores[b]) == (base.score, other.score)
            assert ours.p[(a, b)] == other.p_value, (metric, a, b)
            if code == "bs":
                assert (ours.means[b], ours.cis[b]) == pytest.approx((other.mean, other.ci), rel=1e-6)
                assert (ours.means[a], ours.cis[a]) == pytest.approx((base.mean, base.ci), rel=1e-6)
        assert ours.p[(0, 3)] > 0.05  # the near copy: not told apart
