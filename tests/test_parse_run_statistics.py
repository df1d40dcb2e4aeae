"""Intervals and paired tests of dependency parser runs (evalhouse analyze): the per-run denominators of
an F1 in the resampling (against a sentence-by-sentence loop written here), the values against
dependency_scores, and the tests on real CoNLL 2018 outputs (a run against a copy of itself is never
significant; different parsers are)."""

from __future__ import annotations

import numpy as np
import pytest

from evalhouse.analysis.stats import paired_tests_all
from evalhouse.ingest.dependency_runs import ingest_dependency_run
from evalhouse.statistics.analyze import AnalysisConfig, analyze
from tests.conftest import shared, write
from tests.test_conll18_metrics import GOLD, SYSTEM


def loop_tests(nums, dens, resamples, seed, test):
    """Each pair on its own, one resample at a time, each system's ratio summed sentence by sentence (the
    draws are the same stream: multinomial counts for the bootstrap, one uniform per sentence for the swaps)."""
    s, n = nums.shape
    out = []
    for a in range(s):
        for b in range(a + 1, s):
            rng = np.random.Generator(np.random.PCG64(seed))
            va, vb = nums[a].sum() / dens[a].sum(), nums[b].sum() / dens[b].sum()
            delta, exceed = va - vb, 0
            done = 0
            while done < resamples:
                chunk = min(250, resamples - done)
                if test == "paired-bootstrap":
                    draws = rng.multinomial(n, np.full(n, 1.0 / n), size=chunk)
                else:
                    draws = rng.random((chunk, n)) < 0.5
                for row in draws:
                    if test == "paired-bootstrap":
                        ra = sum(row[i] * nums[a, i] for i in range(n)) / sum(row[i] * dens[a, i] for i in range(n))
                        rb = sum(row[i] * nums[b, i] for i in range(n)) / sum(row[i] * dens[b, i] for i in range(n))
                        exceed += abs((ra - rb) - delta) >= abs(delta) - 1e-15
                    else:
                        x, y = (b, a), (a, b)
                        pa = [x if row[i] else y for i in range(n)]
                        ra = sum(nums[p[0], i] for i, p in enumerate(pa)) / sum(dens[p[0], i] for i, p in enumerate(pa))
                        rb = sum(nums[p[1], i] for i, p in enumerate(pa)) / sum(dens[p[1], i] for i, p in enumerate(pa))
                        exceed += abs(ra - rb) >= abs(delta) - 1e-15
                done += chunk
            out.append((a, b, va, vb, delta, (1 + exceed) / (resamples + 1)))
    return out


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomisation"])
def test_per_run_denominators_equal_a_sentence_by_sentence_loop(test):
    rng = np.random.default_rng(5)
    dens = rng.integers(4, 12, size=(3, 25)).astype(float)
    nums = np.minimum(rng.integers(0, 12, size=(3, 25)), dens).astype(float)
    got = paired_tests_all(nums, dens, 300, 7, test)
    want = loop_tests(nums, dens, 300, 7, test)
    for g, w in zip(got, want):
        assert g[:2] == w[:2] and g[2:5] == pytest.approx(w[2:5], abs=1e-12) and g[5] == w[5]


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomisation"])
def test_a_shared_denominator_given_per_run_gives_the_same_p(test):
    rng = np.random.default_rng(9)
    den = rng.integers(4, 12, size=40).astype(float)
    nums = np.minimum(rng.integers(0, 12, size=(4, 40)), den).astype(float)
    shared_den = paired_tests_all(nums, den, 500, 3, test)
    per_run = paired_tests_all(nums, np.tile(den, (4, 1)), 500, 3, test)
    assert [r[5] for r in shared_den] == [r[5] for r in per_run]


@pytest.mark.slow
def test_the_worked_case_against_itself_and_another(tmp_path, wh):
    gold, system = write(tmp_path, "g.conllu", GOLD), write(tmp_path, "s.conllu", SYSTEM)
    ingest_dependency_run(wh, system, gold, "c", "parser", "1")
    ingest_dependency_run(wh, system, gold, "c", "parser", "copy")
    ingest_dependency_run(wh, gold, gold, "c", "gold", "1")
    summary = analyze(wh, AnalysisConfig(resamples=200))
    assert summary.dependency_runs == 3 and summary.submissions == 0
    values = {
        (t, r, m): v
        for t, r, m, v in wh.sql(
            "SELECT team, run, metric, value FROM score_intervals WHERE kind = 'dependency run'"
        ).fetchall()
    }
    scores = wh.sql(
        "SELECT team, run, uas_f1, las_f1, clas_f1, mlas_f1, blex_f1, la_gold_mean FROM dependency_scores"
    ).fetchall()
    for team, run, *figures in scores:
        assert [values[(team, run, m)] for m in ("uas", "las", "clas", "mlas", "blex", "la")] == pytest.approx(
            figures, abs=1e-15
        )
    assert values[("parser", "1", "las")] == 5 / 8
    copies = wh.sql(
        "SELECT DISTINCT delta, p, p_holm, significant FROM score_significance "
        "WHERE team_a = 'parser' AND team_b = 'parser'"
    ).fetchall()
    assert copies == [(0.0, 1.0, 1.0, False)]
    pairs = wh.sql("SELECT count(*), count(DISTINCT metric), count(DISTINCT test) FROM score_significance").fetchone()
    assert pairs == (3 * 6 * 2, 6, 2)
    # every interval holds its value
    assert wh.sql("SELECT count(*) FROM score_intervals WHERE NOT (low <= value AND value <= high)").fetchone()[0] == 0


def test_nothing_to_analyse_says_what_to_ingest(wh):
    from evalhouse.errors import WarehouseError

    with pytest.raises(WarehouseError, match=r"nothing to analyse in .*ingest outputs.*ingest dependency-run"):
        analyze(wh, AnalysisConfig(resamples=10))


@pytest.mark.realdata
def test_real_parsers_differ_and_a_copy_does_not(wh):
    d = shared("parsing", "conll2018")
    for team in ("HIT-SCIR-18", "UDPipe-Future"):
        ingest_dependency_run(wh, d / team / "fr_gsd.conllu", d / "gold" / "fr_gsd.conllu", "fr_gsd", team, "1")
    ingest_dependency_run(
        wh, d / "UDPipe-Future" / "fr_gsd.conllu", d / "gold" / "fr_gsd.conllu", "fr_gsd", "UDPipe-Future", "copy"
    )
    analyze(wh, AnalysisConfig(resamples=300))
    rows = {
        (a, ra, b, rb, t): (p, s)
        for a, ra, b, rb, t, p, s in wh.sql(
            "SELECT team_a, run_a, team_b, run_b, test, p_holm, significant FROM score_significance "
            "WHERE metric = 'las'"
        ).fetchall()
    }
    for test in ("paired-bootstrap", "approximate-randomisation"):
        assert rows[("HIT-SCIR-18", "1", "UDPipe-Future", "1", test)][1]  # 86.89 against 85.74 LAS
        assert rows[("UDPipe-Future", "1", "UDPipe-Future", "copy", test)] == (1.0, False)
    low, value, high = wh.sql(
        "SELECT low, value, high FROM score_intervals WHERE team = 'HIT-SCIR-18' AND metric = 'las'"
    ).fetchone()
    assert low < value < high and high - low < 0.03
