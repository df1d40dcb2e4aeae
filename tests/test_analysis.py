"""`evalhouse analyze`: every materialised number against an independent computation (scipy on data
read straight from the views, a hand-written Holm, hand arithmetic, the worked example of
docs/statistics.md), plus the planted-fault test of the tree error mining on the real EWT test set."""

from __future__ import annotations

import math
from pathlib import Path
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

import evalhouse

from evalhouse.analysis import mining
from evalhouse.analysis.stats import approximate_randomisation, failure_mask, holm, paired_bootstrap
from evalhouse.statistics.analyze import METRICS, AnalysisConfig, analyze
from tests.conftest import SAMPLE, empty, shared, write


def holm_reference(p):
    """Holm by the textbook step-down: reject H_(i) while p_(i) <= alpha / (m - i + 1); adjusted
    p_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)) -- written as plain loops."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order, start=1):
        running = max(running, min(1.0, (m - rank + 1) * p[i]))
        out[i] = running
    return out


def test_holm_by_hand():
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> running max 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_failure_mask_ties_broken_by_position():
    # 8 sentences, share 0.25 -> 2 failures; three tie at the lowest score 0.1: positions 2 and 4 fail
    scores = [0.5, 0.1, 0.9, 0.1, 0.1, 0.3, 0.7, 0.2]
    assert failure_mask(scores, 0.25).tolist() == [False, True, False, True, False, False, False, False]
    # ceil: 0.25 of 9 is 2.25 -> 3 failures
    assert failure_mask(list(range(9)), 0.25).sum() == 3


def test_forms_are_canonical_and_unordered():
    # 1 VERB root, 2 ADV advmod (of 1), 3 VERB conj (of 1), 4 ADV advmod (of 3), 5 ADV advmod (of 3)
    forms = mining.sentence_forms(
        [0, 1, 1, 3, 3],
        ["root", "advmod", "conj", "advmod", "advmod"],
        ["VERB", "ADV", "VERB", "ADV", "ADV"],
        ["go", "so", "run", "fast", "far"],
    )
    assert forms["dep"] == {
        "(root (advmod))",
        "(root (conj))",
        "(root (advmod conj))",
        "(conj (advmod))",
        "(conj (advmod advmod))",
        "(root ((conj (advmod))))",
    }
    assert "(VERB~conj (ADV~advmod))" in forms["pos-dep"]
    assert "(VERB~conj (ADV~advmod ADV~advmod))" in forms["pos-dep"]
    assert "(VERB (ADV VERB))" in forms["pos"]
    assert "(run (far fast))" in forms["lemma"]
    # the same tree with the dependents in the other order gives the same forms
    swapped = mining.sentence_forms(
        [0, 3, 1, 1, 3],
        ["root", "advmod", "conj", "advmod", "advmod"],
        ["VERB", "ADV", "VERB", "ADV", "ADV"],
        ["go", "fast", "run", "so", "far"],
    )
    assert swapped["dep"] == forms["dep"]
    # max size 2: only head + one dependent
    assert mining.sentence_forms([0, 1, 1], ["root", "a", "b"], ["X"] * 3, ["x"] * 3, views=("dep",), max_size=2)[
        "dep"
    ] == {"(root (a))", "(root (b))"}


def test_suspicion_worked_example():
    # docs/statistics.md: 100 sentences, 25 failures. A singleton form f1 in one failure; a conj form
    # f2 in 20 sentences, 15 of them failures.
    # f1: NG = 1/2 (1/1 ln 1 + 75/99 ln 99) = 1.740545...; printed = 1/2 (0 + 75/1 ln 99) = 172.317...
    # f2: NG = 1/2 (15/20 ln 20 + 65/80 ln 80) = 2.903595...; printed = 1/2 (15/20 ln 20 + 65/20 ln 80)
    ng = mining.suspicion([1, 20], [1, 15], [99, 80], [75, 65])
    printed = mining.suspicion([1, 20], [1, 15], [99, 80], [75, 65], form="printed")
    assert ng == pytest.approx([0.5 * 75 / 99 * math.log(99), 0.5 * (0.75 * math.log(20) + 65 / 80 * math.log(80))])
    assert printed == pytest.approx([0.5 * 75 * math.log(99), 0.5 * (0.75 * math.log(20) + 65 / 20 * math.log(80))])
    assert ng[1] > ng[0] and printed[0] > printed[1]
    assert ng[0] == pytest.approx(1.7405, abs=1e-4) and ng[1] == pytest.approx(2.9036, abs=1e-4)
    assert printed[0] == pytest.approx(172.317, abs=1e-3) and printed[1] == pytest.approx(8.2441, abs=1e-4)


def test_approximate_randomisation_matches_exact_permutation_test():
    # 10 sentences: the exact test enumerates all 2^10 swaps; AR with many resamples approaches it
    a = np.array([0.9, 0.8, 0.7, 0.95, 0.6, 0.85, 0.5, 0.75, 0.9, 0.65])
    b = np.array([0.7, 0.85, 0.5, 0.9, 0.4, 0.8, 0.55, 0.6, 0.7, 0.6])
    d = a - b
    observed = abs(d.mean())
    extreme = sum(
        abs(sum(s * x for s, x in zip(signs, d)) / len(d)) >= observed - 1e-15
        for signs in __import__("itertools").product((1, -1), repeat=len(d))
    )
    exact = extreme / 2 ** len(d)
    _, _, delta, p = approximate_randomisation(a, b, np.ones(10), resamples=20000, seed=7)
    assert delta == pytest.approx(d.mean())
    assert p == pytest.approx(exact, abs=0.01)


def test_paired_bootstrap_identical_systems_and_clear_difference():
    rng = np.random.default_rng(0)
    a = rng.random(200)
    assert paired_bootstrap(a, a, np.ones(200), 200, 1)[3] == 1.0
    va, vb, delta, p = paired_bootstrap(a, a - 0.2, np.ones(200), 500, 1)
    assert delta == pytest.approx(0.2) and p == pytest.approx(1 / 501)
    # pooled ratio: sum(num) / sum(den)
    va, vb, delta, p = paired_bootstrap([1, 2, 3], [0, 2, 3], [2, 2, 4], 50, 1)
    assert (va, vb) == (pytest.approx(6 / 8), pytest.approx(5 / 8))


# --- the warehouse --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    import evalhouse
    from evalhouse.ingest.baselines import run_baseline

    tmp = tmp_path_factory.mktemp("analysed")
    wh = evalhouse.connect(":memory:")
    wh.ingest_treebank([SAMPLE], corpus="sample")
    run_baseline(wh, "lr", "sample")
    run_baseline(wh, "random", "sample", seed=1)
    run_baseline(wh, "random", "sample", run="random2", seed=2)
    # human judgements on 12 sentences of lr, 2 annotators per criterion (z-scores per annotator)
    lines = ["team,run,corpus,sent_id,annotator,criterion,score"]
    for k in range(1, 13):
        for annotator, criterion, score in (
            ("a1", "fluency", (k * 37) % 11),
            ("a2", "fluency", (k * 5) % 7),
            ("a3", "adequacy", (k * 13) % 9 + k % 2),
        ):
            lines.append(f"baseline,lr,sample,{k},{annotator},{criterion},{score}")
    wh.ingest_judgements(write(tmp, "j.csv", "\n".join(lines) + "\n"))
    analyze(wh, AnalysisConfig(resamples=200, seed=5))
    yield wh
    wh.close()


@pytest.mark.slow
def test_metric_correlations_against_scipy_and_independent_holm(analysed):
    wh = analysed
    table = wh.sql("select * from metric_correlations order by team, run, metric_a, metric_b").df()
    assert set(table.columns) >= {
        "team",
        "run",
        "corpus",
        "metric_a",
        "metric_b",
        "n",
        "rho",
        "p",
        "p_holm",
        "significant",
        "configuration",
    }
    data = wh.sql("""select s.team, s.run, s.bleu, s.dea, s.fluency_z, s.adequacy_z, c.depth, c.length,
                            c.mean_dependency_distance, c.mean_flux_size, c.mean_flux_weight, c.mean_arity
                     from sentence_scores s join sentence_complexity c using (corpus, position)""").df()
    for (team, run), sub in data.groupby(["team", "run"]):
        expected = []
        for a, b in combinations(METRICS, 2):
            pair = sub[[a, b]].astype(float).dropna()
            if len(pair) < 3 or pair[a].nunique() < 2 or pair[b].nunique() < 2:
                continue
            r = sps.spearmanr(pair[a], pair[b])
            expected.append((a, b, len(pair), r.statistic, r.pvalue))
        got = table[(table.team == team) & (table.run == run)]
        assert len(got) == len(expected) > 0
        ph = holm_reference([e[4] for e in expected])
        by_pair = {(r.metric_a, r.metric_b): r for r in got.itertuples()}
        for (a, b, n, rho, p), p_holm in zip(expected, ph):
            row = by_pair[(a, b)]
            assert row.n == n
            assert row.rho == pytest.approx(rho, abs=1e-12)
            assert row.p == pytest.approx(p, rel=1e-9, abs=1e-300)
            assert row.p_holm == pytest.approx(p_holm, rel=1e-9, abs=1e-300)
            assert row.significant == (p_holm < 0.05)
    # judgements only for lr: the human metrics appear there, with n = the 12 judged sentences
    human = table[(table.metric_a == "fluency_z") | (table.metric_b == "fluency_z")]
    assert set(human.run) == {"lr"} and human.n.max() == 12
    assert table.configuration.str.contains("alpha:0.05").all()
    assert table.configuration.str.contains("evalhouse:").all()


ACCURACIES = ("ssa", "gsa", "sta", "gta", "understandability_accuracy", "quality_accuracy")


def test_pearson_by_the_textbook_formula():
    """r = cov / (s_x s_y) and p = 2 P(T > |t|), t = r sqrt((n - 2) / (1 - r^2)), T ~ t(n - 2): written
    out here, without scipy.stats.pearsonr; missing values dropped pairwise."""
    from evalhouse.analysis.stats import pearson

    x = [1.0, 2.0, 3.0, 4.0, 5.0, float("nan")]
    y = [2.0, 1.0, 4.0, 3.0, 7.0, 1.0]
    xs, ys = x[:5], y[:5]
    mx, my = sum(xs) / 5, sum(ys) / 5
    cov = sum((a - mx) * (b - my) for a, b in zip(xs, ys))
    r = cov / math.sqrt(sum((a - mx) ** 2 for a in xs) * sum((b - my) ** 2 for b in ys))
    t = r * math.sqrt(3 / (1 - r * r))
    n, got_r, got_p = pearson(x, y)
    # by hand: deviations (-2, -1, 0, 1, 2) and (-1.4, -2.4, 0.6, -0.4, 3.6): cov 12, sxx 10, syy 21.2
    assert n == 5 and got_r == pytest.approx(r, abs=1e-12) and r == pytest.approx(12 / math.sqrt(212), abs=1e-12)
    assert got_p == pytest.approx(2 * sps.t.sf(abs(t), 3), rel=1e-9)
    assert pearson([1, 2, 3], [5, 5, 5]) is None and pearson([1, 2], [1, 2]) is None


@pytest.mark.slow
def test_judgement_correlations_against_scipy_and_independent_holm(analysed):
    """Seed 003 section 4: the six accuracies against fluency and adequacy, Pearson beside Spearman,
    recomputed with scipy from sentence_scores; Holm within the submission, per test."""
    wh = analysed
    table = wh.sql("select * from judgement_correlations order by team, run, metric, judgement").df()
    data = wh.sql(f"select team, run, {', '.join(ACCURACIES)}, fluency_z, adequacy_z from sentence_scores").df()
    assert set(table.run) == {"lr"}  # only lr is judged
    for (team, run), sub in data.groupby(["team", "run"]):
        expected = []
        for metric in ACCURACIES:
            for judgement in ("fluency_z", "adequacy_z"):
                pair = sub[[metric, judgement]].astype(float).dropna()
                if len(pair) < 3 or pair[metric].nunique() < 2 or pair[judgement].nunique() < 2:
                    continue
                r = sps.pearsonr(pair[metric], pair[judgement])
                rho = sps.spearmanr(pair[metric], pair[judgement])
                expected.append((metric, judgement, len(pair), r.statistic, r.pvalue, rho.statistic, rho.pvalue))
        got = table[(table.team == team) & (table.run == run)]
        assert len(got) == len(expected)
        if not expected:
            continue
        # the lr baseline keeps the order of every treelet's words on the sample but misplaces punctuation
        # ("He said : Go home . \" \""), which seed 003's tokens count: all six accuracies vary (with the
        # lemma-key variant, which drops punctuation, its tree accuracies were constant)
        assert {e[0] for e in expected} == set(ACCURACIES) and {e[2] for e in expected} == {12}
        holm_r = holm_reference([e[4] for e in expected])
        holm_rho = holm_reference([e[6] for e in expected])
        rows = {(row.metric, row.judgement): row for row in got.itertuples()}
        for (metric, judgement, n, r, p_r, rho, p_rho), hr, hs in zip(expected, holm_r, holm_rho):
            row = rows[(metric, judgement)]
            assert row.n == n
            assert (row.r, row.rho) == (pytest.approx(r, abs=1e-12), pytest.approx(rho, abs=1e-12))
            assert (row.p_r, row.p_rho) == (pytest.approx(p_r, rel=1e-9), pytest.approx(p_rho, rel=1e-9))
            assert (row.p_r_holm, row.p_rho_holm) == (pytest.approx(hr, rel=1e-9), pytest.approx(hs, rel=1e-9))
            assert (row.significant_r, row.significant_rho) == (hr < 0.05, hs < 0.05)
    assert table.configuration.str.contains("pearson").all() and table.configuration.str.contains("holm").all()
    summary = wh.sql(
        "select metric, judgement, submissions, mean_r, median_r, mean_rho from "
        "judgement_correlation_summary where scope = 'all'"
    ).fetchall()
    assert len(summary) == 2 * len(ACCURACIES)  # each accuracy against fluency and adequacy
    for metric, judgement, n, mean_r, median_r, mean_rho in summary:
        row = table[(table.metric == metric) & (table.judgement == judgement)]
        assert (
            n == 1 and mean_r == median_r == pytest.approx(row.r.iloc[0]) and mean_rho == pytest.approx(row.rho.iloc[0])
        )


def test_judgement_correlation_summary_given_expect(wh):
    # GIVEN three submissions of two teams on two corpora, gta against fluency_z
    rows = [
        ("t", "1", "c", 0.2, 0.1, True, False),
        ("t", "2", "c", 0.6, 0.5, True, True),
        ("u", "1", "d", 0.4, -0.3, False, False),
    ]
    for team, run, corpus, r, rho, sig_r, sig_rho in rows:
        wh.sql(
            "insert into judgement_correlations values ($1, $2, $3, 'gta', 'fluency_z', 24, $4, 0.01, 0.02, $6, "
            "$5, 0.03, 0.04, $7, 'cfg')",
            [team, run, corpus, r, rho, sig_r, sig_rho],
        )
    got = {
        (scope, value): rest
        for scope, value, *rest in wh.sql(
            "select scope, scope_value, submissions, mean_r, median_r, mean_rho, median_rho, significant_share_r, "
            "significant_share_rho from judgement_correlation_summary order by all"
        ).fetchall()
    }
    # EXPECT all: 3 submissions, mean r 0.4, median r 0.4, mean rho 0.1, median rho 0.1, 2/3 and 1/3
    # significant; corpus c: mean r 0.4 (median of two: 0.4), rho 0.3; team u: the one row
    assert got[("all", "all")] == [
        3,
        pytest.approx(0.4),
        pytest.approx(0.4),
        pytest.approx(0.1),
        pytest.approx(0.1),
        pytest.approx(2 / 3),
        pytest.approx(1 / 3),
    ]
    assert got[("corpus", "c")] == [
        2,
        pytest.approx(0.4),
        pytest.approx(0.4),
        pytest.approx(0.3),
        pytest.approx(0.3),
        1.0,
        0.5,
    ]
    assert got[("team", "u")] == [1, 0.4, 0.4, -0.3, -0.3, 0.0, 0.0]
    assert len(got) == 5  # all, corpus c, corpus d, team t, team u


@pytest.mark.realdata
def test_judgement_correlations_on_a_real_run_with_synthetic_judgements(tmp_path):
    """The ADAPT runs have no human judgements (nor does any public SR'18/19 data). So: one real run on
    EWT v2.3 test, and synthetic judgements of 300 of its sentences by two annotators per criterion,
    fluency = 5 x GTA + noise, adequacy = 5 x SSA + noise (integer scores 0-5, seeded), ingested
    as a CSV like any other. Every stored correlation equals scipy's on sentence_scores, and the
    accuracy each criterion was drawn from correlates clearly with it."""
    path = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    run = shared("sr-outputs", "adapt-ewt-test", "ewt_only_test_set_13-Oct_11-27", "en_out.txt")
    rng = np.random.default_rng(16)
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([path], corpus="ewt")
        wh.ingest_outputs(run, reference="ewt", team="adapt", run="ewt_only")
        scores = wh.sql("select sent_id, gta, ssa from sentence_scores order by position limit 300").fetchall()
        lines = ["team,run,corpus,sent_id,annotator,criterion,score"]
        # noise sd 0.5: with the lemma lexicon (issue 15) GTA spreads less on these 300 sentences (sd 0.073,
        # 0.109 without), and unit noise drowned it (r 0.375); the test is about the correlations, not GTA
        for sent_id, gta, ssa in scores:
            for annotator in ("a1", "a2"):
                fluency = int(np.clip(round(5 * gta + rng.normal(0, 0.5)), 0, 5))
                adequacy = int(np.clip(round(5 * ssa + rng.normal(0, 0.5)), 0, 5))
                lines += [
                    f"adapt,ewt_only,ewt,{sent_id},{annotator},fluency,{fluency}",
                    f"adapt,ewt_only,ewt,{sent_id},{annotator}b,adequacy,{adequacy}",
                ]
        wh.ingest_judgements(write(tmp_path, "synthetic.csv", "\n".join(lines) + "\n"))
        analyze(wh, AnalysisConfig(resamples=5, views=("dep",)))
        data = wh.sql(f"select {', '.join(ACCURACIES)}, fluency_z, adequacy_z from sentence_scores").df()
        got = {
            (m, j): (n, r, rho)
            for m, j, n, r, rho in wh.sql("select metric, judgement, n, r, rho from judgement_correlations").fetchall()
        }
    assert len(got) == 12
    for (metric, judgement), (n, r, rho) in got.items():
        pair = data[[metric, judgement]].astype(float).dropna()
        assert n == len(pair) == 300
        assert r == pytest.approx(sps.pearsonr(pair[metric], pair[judgement]).statistic, abs=1e-12)
        assert rho == pytest.approx(sps.spearmanr(pair[metric], pair[judgement]).statistic, abs=1e-12)
    assert got[("gta", "fluency_z")][1] > 0.5 and got[("ssa", "adequacy_z")][1] > 0.5


@pytest.mark.slow
def test_correlation_summary_medians(analysed):
    wh = analysed
    rows = wh.sql("""select metric_a, metric_b, list(rho order by run) from metric_correlations
                     where metric_a = 'bleu' and metric_b = 'depth' group by all""").fetchall()
    ((_, _, rhos),) = rows
    got = wh.sql("""select submissions, mean_rho, median_rho from correlation_summary
                    where scope = 'all' and metric_a = 'bleu' and metric_b = 'depth'""").fetchone()
    assert got[0] == 3
    assert got[1] == pytest.approx(sum(rhos) / 3) and got[2] == pytest.approx(sorted(rhos)[1])
    assert (
        wh.sql("select count(*) from correlation_summary where scope = 'team' and scope_value = 'baseline'").fetchone()[
            0
        ]
        == wh.sql("select count(distinct (metric_a, metric_b)) from metric_correlations").fetchone()[0]
    )


@pytest.mark.slow
def test_projectivity_tests_against_scipy_and_pair_counting(analysed):
    wh = analysed
    share = wh.sql("select avg(case when projective then 0 else 1 end) from sentence_complexity").fetchone()[0]
    assert share > 0.05  # the sample has 5 non-projective sentences of 42
    data = wh.sql("""select s.team, s.run, s.bleu, s.dea, s.fluency_z, s.adequacy_z, c.projective from sentence_scores s
                     join sentence_complexity c using (corpus, position)""").df()
    table = wh.sql("select * from projectivity_tests").df()
    # bleu and dea for three runs; z-scores only for lr, whose judged sentences 1-12 include non-projective ones
    assert sorted(table.metric) == ["adequacy_z", "bleu", "bleu", "bleu", "dea", "dea", "dea", "fluency_z"]
    for row in table.itertuples():
        sub = data[(data.team == row.team) & (data.run == row.run)]
        x = sub[sub.projective][row.metric].astype(float).dropna().to_numpy()
        y = sub[~sub.projective][row.metric].astype(float).dropna().to_numpy()
        # U of the projective sample by counting pairs: x > y counts 1, ties 1/2
        u = sum((xi > yi) + 0.5 * (xi == yi) for xi in x for yi in y)
        assert row.u == pytest.approx(u)
        assert row.p == pytest.approx(sps.mannwhitneyu(x, y, alternative="two-sided").pvalue, rel=1e-12)
        assert (row.n_projective, row.n_nonprojective) == (len(x), len(y))
        assert row.median_projective == pytest.approx(float(np.median(x)))
        assert row.median_nonprojective == pytest.approx(float(np.median(y)))


@pytest.mark.slow
def test_entropy_dea_correlation_against_scipy(analysed):
    wh = analysed
    for team, run, n, rho, p in wh.sql("select team, run, relations, rho, p from entropy_dea_correlation").fetchall():
        pairs = wh.sql(
            """select e.entropy, d.accuracy from dea_by_relation d join relation_entropy e
                          using (corpus, relation) where d.team = $t and d.run = $r""",
            {"t": team, "r": run},
        ).fetchall()
        r = sps.spearmanr([a for a, _ in pairs], [b for _, b in pairs])
        assert n == len(pairs) and rho == pytest.approx(r.statistic) and p == pytest.approx(r.pvalue)
    assert wh.sql("select count(*) from entropy_dea_correlation").fetchone()[0] == 3


@pytest.mark.slow
def test_suspicious_subtrees_counts_are_sentence_counts(analysed):
    wh = analysed
    rows = wh.sql("""select team, run, view, form, c_f, c_f_fail, c_notf, c_notf_pass, score, rank, selected
                     from suspicious_subtrees where run = 'random' and view = 'dep' order by rank""").fetchall()
    assert [r[9] for r in rows] == list(range(1, len(rows) + 1))
    # the paper's settings: the forms of the failed trees are scored, each of them suspicious (footnote 10)
    assert all(r[10] and r[5] > 0 for r in rows)
    scores = [r[8] for r in rows]
    assert scores == sorted(scores, reverse=True)
    # recount the top form from the edges table and sentence BLEU, independently
    bleu = wh.sql("select position, bleu from sentence_scores where run = 'random' order by bleu, position").fetchall()
    failures = {p for p, _ in bleu[: math.ceil(0.25 * len(bleu))]}
    top = rows[0]
    containing = set()
    for (position,) in wh.sql("select distinct position from edges where corpus = 'sample'").fetchall():
        e = wh.sql(
            "select head, relation, dependent_upos, dependent_lemma from edges where corpus = 'sample' "
            "and position = $p order by dependent",
            {"p": position},
        ).fetchall()
        if (
            top[3]
            in mining.sentence_forms(
                [r[0] for r in e],
                [r[1] for r in e],
                [r[2] for r in e],
                [r[3] for r in e],
                views=("dep",),
                exclude_root=True,
            )["dep"]
        ):
            containing.add(position)
    assert top[4] == len(containing) and top[5] == len(containing & failures)
    assert top[6] == 42 - len(containing) and top[7] == 42 - len(containing | failures)


@pytest.mark.slow
def test_paired_significance_values_reuse_the_views(analysed):
    wh = analysed
    table = wh.sql("select * from score_significance where kind = 'submission' and metric in ('dea', 'mean_bleu')").df()
    assert len(table) == 3 * 2 * 2  # 3 pairs x 2 metrics x 2 tests
    scores = {
        (t, r): (b, d) for t, r, b, d in wh.sql("select team, run, mean_bleu, dea from submission_scores").fetchall()
    }
    for row in table.itertuples():
        want = scores[(row.team_a, row.run_a)][0 if row.metric == "mean_bleu" else 1]
        assert row.value_a == pytest.approx(want)
        assert row.delta == pytest.approx(row.value_a - row.value_b)
    for _, group in table.groupby(["metric", "test"]):
        assert group.p_holm.to_numpy() == pytest.approx(holm_reference(group.p.tolist()))
    lr_vs_random = table[(table.run_a == "lr") & (table.run_b == "random")]
    assert lr_vs_random.significant.all()  # lr is far better than random
    assert table.configuration.str.contains("resamples:200").all() and table.configuration.str.contains("seed:5").all()


@pytest.mark.slow
def test_dea_relation_intervals(analysed):
    wh = analysed
    rows = wh.sql("""select i.accuracy, d.accuracy, i.low, i.high, i.edges, d.edges from dea_relation_intervals i
                     join dea_by_relation d using (team, run, corpus, relation)""").fetchall()
    assert len(rows) == wh.sql("select count(*) from dea_by_relation").fetchone()[0]
    for acc, want, low, high, e1, e2 in rows:
        assert acc == pytest.approx(want) and e1 == e2
        assert low <= acc + 1e-12 and acc - 1e-12 <= high


@pytest.mark.slow
def test_ensemble_choice_matches_an_independent_computation(analysed):
    wh = analysed
    acc = wh.sql("select team, run, relation, accuracy from dea_by_relation").df()
    pooled = dict(((t, r), d) for t, r, d in wh.sql("select team, run, dea from submission_scores").fetchall())
    edges = wh.sql("select position, relation from edges where corpus = 'sample' and head > 0").df()
    choice = dict((p, (t, r)) for p, t, r in wh.sql("select position, team, run from ensemble_choice").fetchall())
    assert len(choice) == 42
    runs = sorted(pooled, key=lambda k: (-pooled[k], k))
    for position in range(1, 43):
        rels = edges[edges.position == position].relation.tolist()
        if not rels:
            assert choice[position] == runs[0]
            continue
        means = {
            k: np.mean(
                [acc[(acc.team == k[0]) & (acc.run == k[1]) & (acc.relation == r)].accuracy.iloc[0] for r in rels]
            )
            for k in runs
        }
        best = max(means.values())
        assert choice[position] == next(k for k in runs if means[k] >= best - 1e-12)
    scores = dict((s, (b, d)) for s, b, d in wh.sql("select system, mean_bleu, dea from ensemble_scores").fetchall())
    best_single = wh.sql("select max(mean_bleu) from submission_scores").fetchone()[0]
    assert scores["oracle"][0] >= best_single - 1e-12
    assert scores["best-single"][1] == pytest.approx(max(pooled.values()))


@pytest.mark.slow
def test_analyze_cli_and_filters(tmp_path):
    from typer.testing import CliRunner

    import evalhouse
    from evalhouse.cli import app
    from evalhouse.ingest.baselines import run_baseline

    db = tmp_path / "w.duckdb"
    with evalhouse.connect(db) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        run_baseline(wh, "lr", "sample")
        run_baseline(wh, "random", "sample")
    runner = CliRunner()
    # evalhouse's reading before issue 16, kept as options: every form, the root's too, top 3 suspicious
    result = runner.invoke(
        app,
        [
            "--db",
            str(db),
            "analyze",
            "--resamples",
            "50",
            "--view",
            "dep",
            "--top-k",
            "3",
            "--score",
            "printed",
            "--suspicious",
            "top-k",
            "--include-root",
            "--representatives",
            "all",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "analysed 2 submission(s)" in result.output
    with evalhouse.connect(db, read_only=True) as wh:
        assert wh.sql("select distinct view from suspicious_subtrees").fetchall() == [("dep",)]
        assert wh.sql("select count(*) from suspicious_subtrees where selected").fetchone()[0] == 6
        assert wh.sql("select bool_and(selected = (rank <= 3)) from suspicious_subtrees").fetchone()[0]
        assert wh.sql("select count(*) from suspicious_subtrees where form like '(root %'").fetchone()[0] > 0
        configuration = wh.sql("select any_value(configuration) from suspicious_subtrees").fetchone()[0]
        assert "score:printed" in configuration and "suspicious:top-3" in configuration
        assert "root:included|representatives:all" in configuration
    # the defaults: the paper's settings; every suspicious form stored (coverage counts them all)
    result = runner.invoke(app, ["--db", str(db), "analyze", "--resamples", "50", "--view", "dep", "--keep", "1"])
    assert result.exit_code == 0, result.output
    with evalhouse.connect(db, read_only=True) as wh:
        configuration = wh.sql("select any_value(configuration) from suspicious_subtrees").fetchone()[0]
        assert (
            "root:excluded|representatives:largest|suspicious:non-null|score:narayan-gardent|max_size:3"
            in configuration
        )
        assert wh.sql("select count(*) from suspicious_subtrees where form like '(root %'").fetchone()[0] == 0
        stored = dict(
            ((t, r), n)
            for t, r, n in wh.sql(
                "select team, run, count(*) from suspicious_subtrees where selected and c_f_fail > 0 group by all"
            ).fetchall()
        )
        assert stored == dict(
            ((t, r), n)
            for t, r, n in wh.sql("select team, run, suspicious from suspicious_subtree_submissions").fetchall()
        )
        assert min(stored.values()) > 1  # --keep 1 does not drop a suspicious form
        assert wh.sql("select count(*) from suspicious_subtrees where not selected").fetchone()[0] == 0
    result = runner.invoke(app, ["--db", str(db), "analyze", "--failure-share", "1.5"])
    assert result.exit_code == 2 and "failure-share" in result.output
    result = runner.invoke(app, ["--db", str(db), "analyze", "--team", "nobody"])
    assert result.exit_code == 3


# --- planted fault on the real EWT test set -------------------------------------------------------


def _perturbed_outputs(wh, corpus: str, move_conj: bool) -> str:
    """SR-format output: the reference words in order, or with every conj dependent's subtree moved to
    just before its head's subtree (coordination mis-ordered, nothing else touched)."""
    nodes = wh.sql(
        "select position, id, form, head, deprel from nodes where corpus = $c order by position, id", {"c": corpus}
    ).df()
    out = []
    for position, g in nodes.groupby("position", sort=True):
        ids = g["id"].tolist()
        heads = dict(zip(g["id"], g["head"]))
        forms = dict(zip(g["id"], g["form"]))
        order = list(ids)
        if move_conj:
            children = {}
            for i, h in heads.items():
                children.setdefault(h, []).append(i)

            def subtree(i):
                stack, seen = [i], []
                while stack:
                    k = stack.pop()
                    seen.append(k)
                    stack += children.get(k, [])
                return set(seen)

            for i, rel in zip(g["id"], g["deprel"]):
                if rel.split(":")[0] == "conj":
                    block = subtree(i)
                    head = heads[i]
                    moved = [k for k in order if k in block]
                    rest = [k for k in order if k not in block]
                    at = rest.index(head)
                    order = rest[:at] + moved + rest[at:]
        out.append(f"# sent_id = {position}\n# text = {' '.join(forms[k] for k in order)}\n\n")
    return "".join(out)


@pytest.mark.realdata
def test_planted_coordination_fault_is_found(tmp_path):
    import evalhouse

    path = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([path])
        for run, move in (("conj-moved", True), ("clean", False)):
            out = write(tmp_path, f"{run}.txt", _perturbed_outputs(wh, "en_ewt-test", move))
            wh.ingest_outputs(out, reference="en_ewt-test", team="planted", run=run)
        analyze(wh, AnalysisConfig(resamples=20, views=("dep",)))
        top = dict(
            (
                run,
                [
                    f
                    for (f,) in wh.sql(
                        "select form from suspicious_subtrees where run = $r and view = 'dep' order by rank limit 5",
                        {"r": run},
                    ).fetchall()
                ],
            )
            for run in ("conj-moved", "clean")
        )
        assert all("conj" in form for form in top["conj-moved"][:3]), top
        assert not any("conj" in form for form in top["clean"][:3]), top
        # the printed score puts singletons on top instead
        analyze(wh, AnalysisConfig(resamples=20, views=("dep",), score_form="printed"), team="planted")
        printed = wh.sql(
            "select c_f from suspicious_subtrees where run = 'conj-moved' order by rank limit 3"
        ).fetchall()
        assert [c for (c,) in printed] == [1, 1, 1]


# --- augment and report ---------------------------------------------------------------------------


@pytest.mark.slow
def test_augment_writes_valid_conllu_with_reasons(analysed, tmp_path):
    import conllu

    from evalhouse.statistics.augment import augment

    out = tmp_path / "extra.conllu"
    summary = augment(analysed, "baseline/random", "sample", 5, out, allow_reference=True)
    sentences = conllu.parse(out.read_text(encoding="utf-8"))
    assert len(sentences) == summary.written == 5
    weak = summary.weak_relations
    # the weakest relations, recomputed: lowest DEA among relations with >= 5 edges
    rows = analysed.sql("""select relation, accuracy from dea_by_relation where run = 'random' and edges >= 5
                           order by accuracy, relation""").fetchall()
    assert weak == [r for r, _ in rows[:5]]
    # every chosen sentence is at least as rich as every sentence left out (weak-relation edges + forms)
    chosen = {s.metadata["sent_id"] for s in sentences}
    for s in sentences:
        assert s.metadata["evalhouse_augment"].startswith("richness ")
    richness = {}
    for s in conllu.parse(SAMPLE.read_text(encoding="utf-8")):
        stripped = [t for t in s if isinstance(t["id"], int) and t["deprel"] != "punct"]
        n = sum(1 for t in stripped if t["deprel"].split(":")[0] in weak and t["head"] != 0)
        richness[s.metadata["sent_id"]] = n
    # weak-relation edges alone are a lower bound of a chosen sentence's richness as written
    for s in sentences:
        stated = int(s.metadata["evalhouse_augment"].split(":")[0].split()[1])
        assert stated >= richness[s.metadata["sent_id"]]
    assert (
        min(int(s.metadata["evalhouse_augment"].split(":")[0].split()[1]) for s in sentences)
        >= sorted(richness.values(), reverse=True)[len(richness) - 1]
    )
    assert len(chosen) == 5


def independent_complexity(path) -> dict[str, tuple[int, int, float | None]]:
    """sent_id -> (depth, length, mean dependency distance) of the punctuation-stripped tree, from the
    CoNLL-U file (the conllu library): words without deprel punct, renumbered, each attached to its
    nearest ancestor that is kept; depth in edges from the root (root 0); distance |position - head
    position| over the non-root words."""
    import conllu

    out = {}
    for sentence in conllu.parse(Path(path).read_text(encoding="utf-8")):
        every = {t["id"]: t for t in sentence if isinstance(t["id"], int)}
        words = [t for t in every.values() if t["deprel"].split(":")[0] != "punct"]
        position = {t["id"]: k for k, t in enumerate(words, start=1)}

        def kept_ancestor(i):
            while i != 0 and i not in position:
                i = every[i]["head"]
            return i

        head = {t["id"]: kept_ancestor(t["head"]) for t in words}

        def depth(i):
            return 0 if head[i] == 0 else 1 + depth(head[i])

        distances = [abs(position[i] - position[h]) for i, h in head.items() if h != 0]
        out[sentence.metadata["sent_id"]] = (
            max(depth(t["id"]) for t in words) if words else None,
            len(words),
            sum(distances) / len(distances) if distances else None,
        )
    return out


@pytest.fixture
def augment_wh(tmp_path):
    """The sample as the reference of two baselines, and a 'training' treebank: the sample again under
    another name and from another file (one comment line more, so another SHA-256)."""
    from evalhouse.ingest.baselines import run_baseline

    train = write(tmp_path, "train.conllu", "# training copy\n" + SAMPLE.read_text(encoding="utf-8"))
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        wh.ingest_treebank([train], corpus="train")
        run_baseline(wh, "random", "sample", seed=1)
        analyze(wh, AnalysisConfig(resamples=5, views=("dep",)))
        yield wh


@pytest.mark.slow
def test_augment_selects_by_complexity(augment_wh, tmp_path):
    """Seed 000 section 6: "input trees with large depth, length or mean dependency distance". With
    complexity thresholds, exactly the sentences meeting all of them are candidates (checked against
    an independent computation from the CoNLL-U file), each with its values in the reason."""
    import conllu

    from evalhouse.statistics.augment import augment

    measured = independent_complexity(SAMPLE)
    eligible = {k for k, (d, n, m) in measured.items() if d is not None and d >= 3 and n >= 8 and m >= 2.2}
    assert len(eligible) == 6  # of 42 sentences
    out = tmp_path / "complex.conllu"
    summary = augment(
        augment_wh,
        "baseline/random",
        "train",
        1000,
        out,
        complexity={"depth": 3, "length": 8, "mean_dependency_distance": 2.2},
    )
    chosen = conllu.parse(out.read_text(encoding="utf-8"))
    assert summary.written == len(chosen) == len(eligible)
    assert {s.metadata["sent_id"] for s in chosen} == eligible
    for sentence in chosen:
        d, n, m = measured[sentence.metadata["sent_id"]]
        reason = sentence.metadata["evalhouse_augment"]
        assert f"complexity depth {d} >= 3, length {n} >= 8, mean_dependency_distance " in reason
        assert f"{m:.4f}".rstrip("0") + " >= 2.2 (for baseline/random on sample)" in reason
    # the top 2 are the richest of the eligible (richness as stated, ties to the earlier sentence)
    stated = {x.metadata["sent_id"]: int(x.metadata["evalhouse_augment"].split(":")[0].split()[1]) for x in chosen}
    augment(
        augment_wh,
        "baseline/random",
        "train",
        2,
        tmp_path / "two.conllu",
        complexity={"depth": 3, "length": 8, "mean_dependency_distance": 2.2},
    )
    two = [x.metadata["sent_id"] for x in conllu.parse((tmp_path / "two.conllu").read_text(encoding="utf-8"))]
    assert sorted(two) == sorted(sorted(stated, key=lambda k: (-stated[k], k))[:2])
    # with complexity criteria a sentence is chosen for its complexity even at richness 0 (no weak relation,
    # no suspicious form targeted); without them, richness 0 is never chosen
    none = augment(
        augment_wh,
        "baseline/random",
        "train",
        1000,
        tmp_path / "none.conllu",
        weak_relations=0,
        forms=0,
        complexity={"depth": 3, "length": 8, "mean_dependency_distance": 2.2},
    )
    assert none.written == len(eligible)
    assert (
        augment(
            augment_wh, "baseline/random", "train", 1000, tmp_path / "zero.conllu", weak_relations=0, forms=0
        ).written
        == 0
    )


@pytest.mark.slow
def test_augment_refuses_the_reference_corpus(augment_wh, tmp_path):
    """The submission's test set must not become training data: its own reference corpus, a corpus
    ingested from the same file, or one linked to it sentence by sentence are refused unless allowed."""
    from evalhouse.errors import OptionError
    from evalhouse.statistics.augment import augment, parse_complexity

    out = tmp_path / "x.conllu"
    with pytest.raises(OptionError, match=r"'sample' is the reference corpus of baseline/random.*`allow_reference`"):
        augment(augment_wh, "baseline/random", "sample", 5, out)
    assert not out.exists()
    assert augment(augment_wh, "baseline/random", "sample", 5, out, allow_reference=True).written == 5
    augment_wh.ingest_treebank([SAMPLE], corpus="again")
    with pytest.raises(OptionError, match="same file as 'sample'"):
        augment(augment_wh, "baseline/random", "again", 5, out)
    linked = write(tmp_path, "input.conllu", "# input\n" + SAMPLE.read_text(encoding="utf-8"))
    augment_wh.ingest_treebank([linked], corpus="input", input_of="sample")
    with pytest.raises(OptionError, match=r"holds the sentences of 'sample'.*corpus_inputs"):
        augment(augment_wh, "baseline/random", "input", 5, out)
    assert augment(augment_wh, "baseline/random", "train", 5, out).written == 5
    assert parse_complexity(["depth=8", "mean_dependency_distance=2.5"]) == {
        "depth": 8.0,
        "mean_dependency_distance": 2.5,
    }
    for bad in ("depth", "width=3", "depth=deep"):
        with pytest.raises(OptionError, match="complexity"):
            parse_complexity([bad])


def test_all_pairs_resampling_equals_pair_by_pair():
    from evalhouse.analysis.stats import paired_tests_all

    rng = np.random.default_rng(3)
    nums = rng.integers(0, 5, size=(4, 30)).astype(float)
    den = np.full(30, 5.0)
    for test, single in (
        ("paired-bootstrap", paired_bootstrap),
        ("approximate-randomisation", approximate_randomisation),
    ):
        for a, b, va, vb, delta, p in paired_tests_all(nums, den, 300, 11, test):
            assert (va, vb, delta, p) == pytest.approx(single(nums[a], nums[b], den, 300, 11))


def test_suspicious_subtrees_coverage_given_expect(wh):
    # GIVEN three submissions mined in the dep view (one of them also in pos); top_k decided upstream
    rows = [  # team, run, corpus, view, form, score, rank, selected
        ("t", "1", "c", "dep", "(conj (cc))", 3.0, 1, True),
        ("t", "1", "c", "dep", "(obj (det))", 2.0, 2, True),
        ("t", "2", "c", "dep", "(conj (cc))", 1.0, 1, True),
        ("t", "2", "c", "dep", "(obj (det))", 0.5, 7, False),
        ("u", "1", "c", "dep", "(nsubj (det))", 4.0, 3, True),
        ("u", "1", "c", "pos", "(NOUN (DET))", 2.5, 1, True),
    ]
    for team, run, corpus, view, form, score, rank, selected in rows:
        wh.sql(
            """insert into suspicious_subtrees (team, run, corpus, view, form, c_f, c_f_fail, c_notf, c_notf_pass,
                  score, rank, selected, configuration, size, represents)
                  values ($1, $2, $3, $4, $5, 1, 1, 1, 1, $6, $7, $8, 'cfg', 2, [])""",
            [team, run, corpus, view, form, score, rank, selected],
        )
    # every submission mined, by view: v/1 was mined in dep and none of its forms is suspicious (no row above)
    for team, run, view in (
        ("t", "1", "dep"),
        ("t", "2", "dep"),
        ("u", "1", "dep"),
        ("v", "1", "dep"),
        ("u", "1", "pos"),
    ):
        wh.sql(
            "insert into suspicious_subtree_submissions values ($1, $2, 'c', $3, 10, 3, 5, 5, 2, 2, 'cfg')",
            [team, run, view],
        )
    got = wh.sql("""select view, form, submissions, selected_in, coverage, mss, best_rank
                    from suspicious_subtrees_coverage order by view, form""").fetchall()
    # EXPECT dep: 4 submissions mined (v/1 counts although it has no suspicious form); (conj (cc))
    # selected in 2 -> 2/4, mss (3 + 1) / 2 = 2; (obj (det)) selected only in t/1 -> 1/4, mss 2 (the
    # unselected 0.5 is not averaged); pos: 1 submission
    assert got == [
        ("dep", "(conj (cc))", 4, 2, 0.5, 2.0, 1),
        ("dep", "(nsubj (det))", 4, 1, 0.25, 4.0, 3),
        ("dep", "(obj (det))", 4, 1, 0.25, 2.0, 2),
        ("pos", "(NOUN (DET))", 1, 1, 1.0, 2.5, 1),
    ]


TABLE_GRAINS = {
    "metric_correlations": "team, run, corpus, metric_a, metric_b",
    "projectivity_tests": "team, run, corpus, metric",
    "entropy_dea_correlation": "team, run, corpus",
    "suspicious_subtrees": "team, run, corpus, view, form",
    "suspicious_subtree_submissions": "team, run, corpus, view",
    "judgement_correlations": "team, run, corpus, metric, judgement",
    "score_significance": "kind, corpus, metric, test, team_a, run_a, team_b, run_b",
    "score_intervals": "kind, team, run, corpus, metric",
    "dea_relation_intervals": "team, run, corpus, relation",
    "ensemble_choice": "corpus, position",
    "ensemble_scores": "corpus, system",
}


@pytest.mark.slow
@pytest.mark.parametrize("table", sorted(TABLE_GRAINS))
def test_materialised_table_grain_and_configuration(analysed, table):
    keys = TABLE_GRAINS[table]
    assert analysed.sql(f"select count(*) from {table}").fetchone()[0] > 0
    assert analysed.sql(f"select {keys}, count(*) from {table} group by all having count(*) > 1").fetchall() == []
    assert analysed.sql(f"select count(*) from {table} where configuration not like '%evalhouse:%'").fetchone()[0] == 0


@pytest.mark.slow
def test_reanalysing_one_team_keeps_the_others(analysed):
    before = analysed.sql("select count(*) from metric_correlations").fetchone()[0]
    analyze(analysed, AnalysisConfig(resamples=200, seed=5), team="baseline", corpus="sample")
    assert analysed.sql("select count(*) from metric_correlations").fetchone()[0] == before


@pytest.mark.slow
def test_augment_cli(tmp_path):
    import conllu
    from typer.testing import CliRunner

    import evalhouse
    from evalhouse.cli import app
    from evalhouse.ingest.baselines import run_baseline

    db = tmp_path / "w.duckdb"
    with evalhouse.connect(db) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        run_baseline(wh, "random", "sample")
    runner = CliRunner()
    out = tmp_path / "a.conllu"
    # before analyze: weak relations only
    result = runner.invoke(
        app,
        [
            "--db",
            str(db),
            "augment",
            "--submission",
            "baseline/random",
            "--from",
            "sample",
            "--top",
            "4",
            "--out",
            str(out),
            "--weak-relations",
            "2",
            "--min-edges",
            "3",
        ],
    )
    assert result.exit_code == 2 and "leaks the test set into training" in result.output
    assert "--allow-reference" in result.output and not out.exists()
    result = runner.invoke(
        app,
        [
            "--db",
            str(db),
            "augment",
            "--submission",
            "baseline/random",
            "--from",
            "sample",
            "--top",
            "4",
            "--out",
            str(out),
            "--weak-relations",
            "2",
            "--min-edges",
            "3",
            "--allow-reference",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "wrote 4 sentence(s)" in result.output and "suspicious forms: 0" in result.output
    assert len(conllu.parse(out.read_text(encoding="utf-8"))) == 4
    result = runner.invoke(
        app, ["--db", str(db), "augment", "--submission", "baseline", "--from", "sample", "--out", str(out)]
    )
    assert result.exit_code == 2
    result = runner.invoke(
        app, ["--db", str(db), "augment", "--submission", "x/y", "--from", "sample", "--out", str(out)]
    )
    assert result.exit_code == 3


@pytest.fixture(scope="module")
def summary_wh():
    """One warehouse for all the examples of the property below, emptied for each."""
    with evalhouse.connect(":memory:") as wh:
        yield wh


# correlation_summary takes the median from ranks (portable to Trino and BigQuery, which lack an exact
# median aggregate). Against statistics.median for any number of submissions, odd or even, with ties.
@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from([-1.0, -0.5, 0.0, 0.25, 0.3, 0.7, 1.0]), min_size=1, max_size=8),
        min_size=1,
        max_size=3,
    )
)
def test_correlation_summary_median_from_ranks(summary_wh, groups):
    import statistics

    wh = empty(summary_wh)
    rows = [
        ("t", f"r{i}", "c", f"m{g}", "z", 10, rho, 0.5, 0.5, False, "cfg")
        for g, rhos in enumerate(groups)
        for i, rho in enumerate(rhos)
    ]
    wh.con.executemany("INSERT INTO metric_correlations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    got = dict(wh.sql("SELECT metric_a, median_rho FROM correlation_summary WHERE scope = 'all'").fetchall())
    n = dict(wh.sql("SELECT metric_a, submissions FROM correlation_summary WHERE scope = 'all'").fetchall())
    assert got == pytest.approx({f"m{g}": statistics.median(rhos) for g, rhos in enumerate(groups)}, abs=1e-15)
    assert n == {f"m{g}": len(rhos) for g, rhos in enumerate(groups)}
