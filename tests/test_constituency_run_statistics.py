"""Intervals and paired tests of constituency parser runs (evalhouse analyze, kind 'constituency run'): on
the 13 parsers' sample, each value against the totals row of EVALB in C (built with gcc, tests/conftest.py
``evalb_c``) and the stored parse_scores; every interval and p against a resampling loop written here over
the per-sentence bracket counts that the C program prints (a resample's F from the counts summed over the
sentences drawn, as EVALB's totals row sums them); Holm recomputed here; a run against a copy of itself
never significant. On a two-sentence case counted by hand: the pooled F of a resample, not a mean of
sentence Fs."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

from evalhouse.analysis.stats import significance_groups
from evalhouse.errors import WarehouseError
from evalhouse.ingest.parses import ingest_parses, resolve_params
from evalhouse.reports.html import build_report
from evalhouse.statistics.analyze import AnalysisConfig, analyze
from tests.conftest import shared, significant, tool, write
from tests.test_parse_run_statistics import loop_tests
from tests.test_report import _cells

PARSERS = ["berkeley", "bikel", "charniak_basic", "stanford"]
RESAMPLES = 300
SEED = 4


def evalb_rows(program, prm, gold, test) -> tuple[dict, list[int]]:
    """Per sentence (ID -> status, matched, gold, test brackets) and the totals row of EVALB in C."""
    out = subprocess.run([str(program), "-p", str(prm), str(gold), str(test)], capture_output=True, check=True)
    blocks = out.stdout.decode("utf-8").split("=" * 76 + "\n")
    sentences = {}
    for line in blocks[1].splitlines():
        f = line.split()
        sentences[int(f[0])] = (int(f[2]), int(f[5]), int(f[6]), int(f[7]))
    totals = [int(v) for v in blocks[2].split("\n")[0].split()[2:5]]
    return sentences, totals


def loop_intervals(nums, dens, resamples, seed, level=0.95):
    """Per run (low, high, mean) of the percentile bootstrap, one resample at a time, each ratio summed
    sentence by sentence from the multinomial counts of PCG64(seed), drawn in chunks of 250."""
    s, n = nums.shape
    rng = np.random.Generator(np.random.PCG64(seed))
    draws, done = [], 0
    while done < resamples:
        chunk = min(250, resamples - done)
        draws.extend(rng.multinomial(n, np.full(n, 1.0 / n), size=chunk))
        done += chunk
    out = []
    for a in range(s):
        values = [sum(w[i] * nums[a, i] for i in range(n)) / sum(w[i] * dens[a, i] for i in range(n)) for w in draws]
        tail = (1 - level) / 2
        out.append((np.quantile(values, tail), np.quantile(values, 1 - tail), sum(values) / len(values)))
    return out


def holm(p):
    """Holm's step-down adjustment written out: the i-th smallest of m p-values times (m - i), made
    monotone, at most 1."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    adjusted, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        adjusted[i] = running
    return adjusted


@pytest.mark.realdata
@pytest.mark.slow
def test_thirteen_parsers_sample_against_evalb_c_and_a_loop(wh, evalb_c):
    d = shared("constituency", "parser-outputs-wsj-sample")
    prm = tool("evalb-c", "COLLINS.prm")
    ingest_parses(wh, d / "wsj01.mrg", "wsj01", gold=True)
    runs = [(p, "1") for p in PARSERS] + [("stanford", "copy")]
    for team, run in runs:
        ingest_parses(wh, d / f"{team}.mrg", "wsj01", team=team, run=run, params=resolve_params(str(prm)))
    stored_rows = "SELECT * FROM parse_scores ORDER BY team, run, subset"
    before = [[significant(v) for v in r] for r in wh.sql(stored_rows).fetchall()]
    summary = analyze(wh, AnalysisConfig(resamples=RESAMPLES, seed=SEED))
    assert summary.constituency_runs == 5 and summary.dependency_runs == 0
    assert [[significant(v) for v in r] for r in wh.sql(stored_rows).fetchall()] == before  # nothing stored changes

    intervals = {
        (t, r, m): (v, lo, hi, mean, n, c)
        for t, r, m, v, lo, hi, mean, n, c in wh.sql(
            "SELECT team, run, metric, value, low, high, mean, sentences, configuration FROM score_intervals "
            "WHERE kind = 'constituency run'"
        ).fetchall()
    }
    keys = sorted(runs)
    counts = {}  # metric -> (nums, dens): runs x sentences, from the C program's rows
    per_sentence = []
    for team, run in keys:
        sentences, (matched, gold, test) = evalb_rows(evalb_c, prm, d / "wsj01.mrg", d / f"{team}.mrg")
        per_sentence.append([sentences[i] if sentences[i][0] == 0 else (0, 0, 0, 0) for i in sorted(sentences)])
        # the point estimates are EVALB's totals row
        assert intervals[(team, run, "labelled_f")][0] == 2 * matched / (gold + test)
        assert intervals[(team, run, "labelled_recall")][0] == matched / gold
        assert intervals[(team, run, "labelled_precision")][0] == matched / test
        value, *_, n, configuration = intervals[(team, run, "labelled_f")]
        assert n == 10 and "unit:gold-sentence" in configuration and "prm:" + str(prm) in configuration
    rows = np.array(per_sentence, dtype=float)  # runs x sentences x (status, matched, gold, test)
    m, g, t = rows[..., 1], rows[..., 2], rows[..., 3]
    counts["labelled_f"] = (2 * m, g + t)
    counts["labelled_recall"] = (m, g)
    counts["labelled_precision"] = (m, t)
    # leaf-ancestor per sentence from the stored word scores, summed here
    la_sum = np.zeros((len(keys), 10))
    la_words = np.zeros((len(keys), 10))
    for team, run, position, score in wh.sql(
        "SELECT team, run, position, score FROM la_word_scores ORDER BY ALL"
    ).fetchall():
        k = keys.index((team, run))
        la_sum[k, position - 1] += score
        la_words[k, position - 1] += 1
    with np.errstate(invalid="ignore"):
        sentence_la = np.where(la_words > 0, la_sum / np.where(la_words > 0, la_words, 1), 0.0)
    counts["la_sentence_mean"] = (sentence_la, (la_words > 0).astype(float))
    counts["la_word_mean"] = (la_sum, la_words)
    stored = {
        (t, r): (s, w)
        for t, r, s, w in wh.sql(
            "SELECT team, run, la_sentence_mean, la_word_mean FROM parse_scores WHERE subset = 'all'"
        ).fetchall()
    }
    for k, key in enumerate(keys):
        assert intervals[(*key, "la_sentence_mean")][0] == pytest.approx(stored[key][0], abs=1e-12)
        assert intervals[(*key, "la_word_mean")][0] == pytest.approx(stored[key][1], abs=1e-12)

    tests = wh.sql(
        "SELECT metric, test, team_a, run_a, team_b, run_b, delta, p, p_holm, significant "
        "FROM score_significance WHERE kind = 'constituency run' ORDER BY ALL"
    ).fetchall()
    assert len(tests) == 5 * 2 * 10  # metrics x tests x pairs of 5 runs
    found = {(mt, te, (ta, ra), (tb, rb)): (dl, p, ph, s) for mt, te, ta, ra, tb, rb, dl, p, ph, s in tests}
    for metric, (nums, dens) in counts.items():
        for k, (low, high, mean) in enumerate(loop_intervals(nums, dens, RESAMPLES, SEED)):
            got = intervals[(*keys[k], metric)]
            assert got[1:4] == pytest.approx((low, high, mean), abs=1e-12), (metric, keys[k])
            assert got[1] <= got[0] <= got[2]
        for test in ("paired-bootstrap", "approximate-randomisation"):
            ps = []
            for a, b, va, vb, delta, p in loop_tests(nums, dens, RESAMPLES, SEED, test):
                dl, sp, _, _ = found[(metric, test, keys[a], keys[b])]
                assert dl == pytest.approx(delta, abs=1e-12) and sp == p, (metric, test, keys[a], keys[b])
                ps.append(p)
            adjusted = [found[(metric, test, keys[a], keys[b])][2] for a, b in zip(*np.triu_indices(len(keys), 1))]
            assert adjusted == pytest.approx(holm(ps), abs=1e-15)
            # a run against a copy of itself
            assert found[(metric, test, ("stanford", "1"), ("stanford", "copy"))] == (0.0, 1.0, 1.0, False)


TWO_GOLD = "(S (NP (D a)) (VP (V b) (NP (N c))))\n(S (NP (D a) (N b)) (VP (V c) (PP (P d) (NP (N e)))))\n"
# sentence 1: gold S, NP, VP, NP (4); test S, NP, VP, NP: 4 matched.
# sentence 2: gold S, NP, VP, PP, NP (5); test S, VP(a b), NP(c d), NP(e): 2 matched (S 0-5, NP 4-5)
TWO_TEST = "(S (NP (D a)) (VP (V b) (NP (N c))))\n(S (VP (D a) (N b)) (NP (V c) (P d)) (NP (N e)))\n"


def test_a_resample_pools_the_counts_of_the_sentences_drawn(tmp_path, wh):
    gold, test = write(tmp_path, "g.mrg", TWO_GOLD), write(tmp_path, "t.mrg", TWO_TEST)
    ingest_parses(wh, gold, "two", gold=True, params=resolve_params("none"))
    for run in ("1", "copy"):
        ingest_parses(wh, test, "two", team="p", run=run, params=resolve_params("none"))
    analyze(wh, AnalysisConfig(resamples=1000, seed=1))
    value, low, high = wh.sql(
        "SELECT value, low, high FROM score_intervals WHERE run = '1' AND metric = 'labelled_f'"
    ).fetchone()
    # whole corpus: 2 (4 + 2) / ((4 + 5) + (4 + 4)) = 12 / 17 (a mean of sentence Fs would be (1 + 4/9) / 2)
    assert value == 12 / 17
    # a resample of two sentences is {1, 1} (F 1), {1, 2} (12/17) or {2, 2} (2*2*2 / (2*9) = 4/9), each of
    # {1, 1} and {2, 2} with probability 1/4: the 2.5 and 97.5 percentiles are the two extremes
    assert (low, high) == (4 / 9, 1.0)
    assert wh.sql(
        "SELECT DISTINCT delta, p, p_holm, significant FROM score_significance WHERE kind = 'constituency run'"
    ).fetchall() == [(0.0, 1.0, 1.0, False)]


@pytest.mark.slow
def test_a_report_of_constituency_runs_only_ranks_them_with_intervals(tmp_path, wh):
    gold, test = write(tmp_path, "g.mrg", TWO_GOLD), write(tmp_path, "t.mrg", TWO_TEST)
    ingest_parses(wh, gold, "two", gold=True, params=resolve_params("none"))
    ingest_parses(wh, gold, "two", team="gold", run="self", params=resolve_params("none"))
    for run in ("1", "copy"):
        ingest_parses(wh, test, "two", team="p", run=run, params=resolve_params("none"))
    with pytest.raises(WarehouseError, match="have not been analysed"):
        build_report(wh, tmp_path / "early")
    analyze(wh, AnalysisConfig(resamples=200, seed=2))
    summary = build_report(wh, tmp_path / "report")
    assert summary.parse_runs == 3 and summary.figures == []
    page = summary.path.read_text(encoding="utf-8")
    rows = _cells(page, "constituency-ranks")
    assert len(rows) == 5 * 3
    stored = {
        (m, t, r): (v, lo, hi)
        for m, t, r, v, lo, hi in wh.sql(
            "SELECT metric, team, run, value, low, high FROM score_intervals WHERE kind = 'constituency run'"
        ).fetchall()
    }
    tests = wh.sql(
        "SELECT metric, team_a, run_a, team_b, run_b, delta, significant FROM score_significance "
        "WHERE test = 'approximate-randomisation'"
    ).fetchall()
    titles = {"LF": "labelled_f", "LR": "labelled_recall", "LP": "labelled_precision"}
    titles |= {"LA (sentences)": "la_sentence_mean", "LA (words)": "la_word_mean"}
    for corpus, title, team, run, value, low, high, group, ranks in rows:
        metric = titles[title]
        v, lo, hi = stored[(metric, team, run)]
        assert (corpus, value, low, high) == ("two", f"{100 * v:.2f}", f"{100 * lo:.2f}", f"{100 * hi:.2f}")
        values = {(t, r): x for (m, t, r), (x, _, _) in stored.items() if m == metric}
        better = {
            ((a, ra), (b, rb)) if d > 0 else ((b, rb), (a, ra)) for m, a, ra, b, rb, d, s in tests if m == metric and s
        }
        g, first, last = significance_groups(values, better)[(team, run)]
        assert (group, ranks) == (str(g), f"{first}" if first == last else f"{first}-{last}")
    # the gold against itself is perfect on every metric
    assert {stored[(m, "gold", "self")][0] for m in titles.values()} == {1.0}
