"""Tree error mining with the paper's settings (seed 000/001 Tables 5-7, footnote 10; issue 16).

Expected values are worked out by hand in the comments (small trees, small occurrence matrices) or
follow from the formulas of seed 001 section 3.4; none comes from ``evalhouse.analysis.mining``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import sparse

from evalhouse.analysis import mining

# 1 VERB root, 2 ADV advmod (of 1), 3 VERB conj (of 1), 4 ADV advmod (of 3), 5 ADV advmod (of 3)
HEADS = [0, 1, 1, 3, 3]
RELS = ["root", "advmod", "conj", "advmod", "advmod"]
UPOS = ["VERB", "ADV", "VERB", "ADV", "ADV"]


def test_root_excluded():
    """With the root, the sentence has 6 dep forms (test_analysis.py lists them); without it, the two
    headed by conj: (conj (advmod)) with 2 nodes and (conj (advmod advmod)) with 3."""
    forms = mining.sentence_forms(HEADS, RELS, UPOS, list("abcde"), views=("dep", "pos"), exclude_root=True,
                                  sizes=True)
    assert forms["dep"] == {"(conj (advmod))": 2, "(conj (advmod advmod))": 3}
    assert forms["pos"] == {"(VERB (ADV))": 2, "(VERB (ADV ADV))": 3}
    every = mining.sentence_forms(HEADS, RELS, UPOS, list("abcde"), views=("dep",))["dep"]
    assert len(every) == 6 and all(f.startswith("(root ") for f in every - set(forms["dep"]))


def test_issue_example_nested_list_forms():
    """Issue 16: (list (nummod)) and (root ((list (nummod)))) filled the top 10 together. A root with a
    list dependent that has a nummod: without the root only (list (nummod)) remains."""
    forms = mining.sentence_forms([0, 1, 2], ["root", "list", "nummod"], ["X"] * 3, ["x"] * 3, views=("dep",),
                                  exclude_root=True)["dep"]
    assert forms == {"(list (nummod))"}


def test_representatives_keep_the_largest_form_of_an_occurrence_set():
    # columns: 0 "(a (b))" size 2 in sentences {0, 2}; 1 "(a (b c))" size 3 in {0, 2}: same set, 1 wins;
    # 2 "(x (y))" and 3 "(w (z))", both size 2, both in {1}: the first in string order, "(w (z))", wins;
    # 4 "(a (c))" in {0, 1}: alone
    names = ["(a (b))", "(a (b c))", "(x (y))", "(w (z))", "(a (c))"]
    sizes = [2, 3, 2, 2, 2]
    dense = np.array([[1, 1, 0, 0, 1],
                      [0, 0, 1, 1, 1],
                      [1, 1, 0, 0, 0]])
    rep = mining.representatives(sparse.csr_matrix(dense), sizes, names)
    assert rep.tolist() == [1, 1, 3, 3, 4]


@given(st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=1, max_size=6))
def test_representatives_share_counts(rows):
    """A form and its representative occur in exactly the same sentences, so every count (and score)
    is the same; a representative represents itself."""
    dense = np.array(rows, dtype=int)
    names = ["f0", "f1", "f2", "f3"]
    sizes = [2, 3, 2, 3]
    rep = mining.representatives(sparse.csr_matrix(dense), sizes, names)
    for j, r in enumerate(rep):
        assert (dense[:, j] == dense[:, r]).all()
        assert rep[r] == r
        assert sizes[r] >= sizes[j]


def test_suspicious_is_score_not_null():
    """Footnote 10: "A form is suspicious if its suspicion score is not null"."""
    assert mining.is_suspicious([0.0, 1e-9, 2.5]).tolist() == [False, True, True]
    top = mining.MiningSettings(suspicious="top-k", top_k=2)
    assert mining.is_suspicious([0.0, 1e-9, 2.5], ranks=[3, 2, 1], settings=top).tolist() == [False, True, True]
    with pytest.raises(ValueError, match="needs the ranks"):
        mining.is_suspicious([1.0], settings=top)


def test_coverage_and_mss_by_hand():
    """Three submissions mined: a is suspicious in two (scores 1 and 3), b in one (0.5), the third
    has no suspicious form. coverage(a) = 2/3, MSS(a) = 2; coverage(b) = 1/3, MSS(b) = 0.5."""
    got = mining.coverage_and_mss([{"a": 1.0, "b": 0.5}, {"a": 3.0}, {}])
    assert got == {"a": (2, pytest.approx(2 / 3), 2.0), "b": (1, pytest.approx(1 / 3), 0.5)}
    # the denominator can be given (submissions mined with no form at all still count)
    assert mining.coverage_and_mss([{"a": 1.0}], submissions=4)["a"][1] == 0.25
    with pytest.raises(ValueError):
        mining.coverage_and_mss([{"a": 1.0}, {}], submissions=1)


def test_settings_record_the_paper_defaults():
    s = mining.MiningSettings()
    assert (s.exclude_root, s.representatives, s.suspicious, s.score) == (True, "largest", "non-null", "narayan-gardent")
    assert s.signature() == "root:excluded|representatives:largest|suspicious:non-null|score:narayan-gardent|max_size:3"
    old = mining.MiningSettings(exclude_root=False, representatives="all", suspicious="top-k", top_k=10)
    assert old.signature() == "root:included|representatives:all|suspicious:top-10|score:narayan-gardent|max_size:3"
    with pytest.raises(ValueError, match="valid: non-null, top-k"):
        mining.MiningSettings(suspicious="top").validate()


def test_failure_term_score():
    """The first term of S(f) alone: 1/2 c(f|F)/c(f) ln c(f). A form in 20 sentences, 15 of them
    failures: 1/2 x 0.75 x ln 20 = 1.12340; one never in a failure, or seen once, is null."""
    got = mining.suspicion([20, 30, 1], [15, 0, 1], [80, 70, 99], [65, 70, 75], form="failure-term")
    assert got[0] == pytest.approx(0.5 * 0.75 * math.log(20)) and got[0] == pytest.approx(1.12340, abs=1e-5)
    assert got[1] == 0.0 and got[2] == 0.0


@given(c_f=st.integers(1, 3000), fail_share=st.floats(0, 1), n_extra=st.integers(2, 3000),
       pass_share=st.floats(0.01, 1))
def test_narayan_gardent_score_is_never_null_for_a_form_that_occurs(c_f, fail_share, n_extra, pass_share):
    """Why footnote 10 cannot separate forms under the Narayan & Gardent score: its second term
    1/2 c(not f|P)/c(not f) ln c(not f) is positive as soon as two sentences lack the form and one of
    them passes -- so every form that occurs (and is not in nearly every sentence) is "not null"."""
    c_f_fail = round(fail_share * c_f)
    c_notf_pass = max(1, round(pass_share * n_extra))
    assert mining.suspicion([c_f], [c_f_fail], [n_extra], [c_notf_pass])[0] > 0


# --- real data: the scale of the scores on the ADAPT runs (docs/statistics.md) ----------------------

@pytest.fixture(scope="module")
def adapt_mining():
    """Forms of EWT v2.3 test with the paper's settings, and each ADAPT run's BLEU failures."""
    import evalhouse
    from evalhouse.analysis import stats
    from tests.conftest import shared

    reference = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    runs = sorted(p for p in shared("sr-outputs", "adapt-ewt-test").iterdir() if (p / "en_out.txt").exists())
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([reference], corpus="ewt")
        for run in runs:
            wh.ingest_outputs(run / "en_out.txt", reference="ewt", team="adapt", run=run.name)
        edges = wh.sql("select position, head, relation, dependent_upos, dependent_lemma from edges "
                       "where corpus = 'ewt' order by position, dependent").fetchall()
        bleu = {}
        for run, position, value in wh.sql("select run, position, bleu from sentence_scores order by run, position"
                                           ).fetchall():
            bleu.setdefault(run, []).append(value)
    by_sentence: dict[int, list] = {}
    for position, *row in edges:
        by_sentence.setdefault(position, []).append(row)
    positions = sorted(by_sentence)
    assert len(positions) == 2077 and all(len(v) == 2077 for v in bleu.values())
    settings = mining.MiningSettings()
    vocab, sizes, rows, cols = {}, [], [], []
    for r, position in enumerate(positions):
        heads, rels, upos, lemmas = zip(*by_sentence[position])
        forms = mining.sentence_forms(heads, rels, upos, lemmas, views=("dep",), max_size=settings.max_size,
                                      exclude_root=settings.exclude_root, sizes=True)["dep"]
        for form, size in forms.items():
            j = vocab.setdefault(form, len(vocab))
            if j == len(sizes):
                sizes.append(size)
            rows.append(r)
            cols.append(j)
    names = list(vocab)
    matrix = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(positions), len(names)))
    keep = mining.representatives(matrix, sizes, names) == np.arange(len(names))
    failures = {run: stats.failure_mask(np.array(v, dtype=float), 0.25) for run, v in bleu.items()}
    return names, matrix[:, keep], np.array(names, dtype=object)[keep], failures


@pytest.mark.realdata
def test_scale_of_the_suspicion_scores_on_real_runs(adapt_mining):
    """docs/statistics.md, "Scale": N = 2,077, 520 failures. The second term of the Narayan & Gardent
    score lies near 1/2 x 1557/2077 x ln 2077 = 2.863 for every form, above the paper's largest MSS
    (1.21); every form that occurs is "not null"; the first term alone has the paper's scale."""
    _, matrix, names, failures = adapt_mining
    n = matrix.shape[0]
    c_f = np.asarray(matrix.sum(axis=0)).ravel()
    assert 0.5 * 1557 / 2077 * math.log(2077) == pytest.approx(2.8631, abs=1e-4)
    per_run_ng, per_run_first = [], []
    for fail in failures.values():
        assert fail.sum() == 520
        c_f_fail = np.asarray(matrix[fail].sum(axis=0)).ravel()
        c_notf, c_notf_pass = n - c_f, (n - 520) - (c_f - c_f_fail)
        ng = mining.suspicion(c_f, c_f_fail, c_notf, c_notf_pass)
        first = mining.suspicion(c_f, c_f_fail, c_notf, c_notf_pass, form="failure-term")
        second = ng - first
        assert 2.3 < second.min() and second.max() < 2.9
        assert mining.is_suspicious(ng).all()  # footnote 10 marks every form that occurs
        per_run_ng.append({f: s for f, s in zip(names, ng)})
        per_run_first.append({f: s for f, s, ok in zip(names, first, mining.is_suspicious(first)) if ok})
    ng_mss = [v[2] for v in mining.coverage_and_mss(per_run_ng).values()]
    first_mss = [v[2] for v in mining.coverage_and_mss(per_run_first).values()]
    assert min(ng_mss) > 2.3
    assert 0.0 < min(first_mss) and max(first_mss) < 1.5
    # forms suspicious under the failure term alone are a minority of the forms that occur
    assert len(first_mss) < 0.8 * len(ng_mss)
