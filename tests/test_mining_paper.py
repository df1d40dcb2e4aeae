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
    forms = mining.sentence_forms(HEADS, RELS, UPOS, list("abcde"), views=("dep", "pos"), exclude_root=True, sizes=True)
    assert forms["dep"] == {"(conj (advmod))": 2, "(conj (advmod advmod))": 3}
    assert forms["pos"] == {"(VERB (ADV))": 2, "(VERB (ADV ADV))": 3}
    every = mining.sentence_forms(HEADS, RELS, UPOS, list("abcde"), views=("dep",))["dep"]
    assert len(every) == 6 and all(f.startswith("(root ") for f in every - set(forms["dep"]))


def test_issue_example_nested_list_forms():
    """Issue 16: (list (nummod)) and (root ((list (nummod)))) filled the top 10 together. A root with a
    list dependent that has a nummod: without the root only (list (nummod)) remains."""
    forms = mining.sentence_forms(
        [0, 1, 2], ["root", "list", "nummod"], ["X"] * 3, ["x"] * 3, views=("dep",), exclude_root=True
    )["dep"]
    assert forms == {"(list (nummod))"}


def test_representatives_keep_the_largest_form_of_an_occurrence_set():
    # columns: 0 "(a (b))" size 2 in sentences {0, 2}; 1 "(a (b c))" size 3 in {0, 2}: same set, 1 wins;
    # 2 "(x (y))" and 3 "(w (z))", both size 2, both in {1}: the first in string order, "(w (z))", wins;
    # 4 "(a (c))" in {0, 1}: alone
    names = ["(a (b))", "(a (b c))", "(x (y))", "(w (z))", "(a (c))"]
    sizes = [2, 3, 2, 2, 2]
    dense = np.array([[1, 1, 0, 0, 1], [0, 0, 1, 1, 1], [1, 1, 0, 0, 0]])
    rep = mining.representatives(sparse.csr_matrix(dense), sizes, names)
    assert rep.tolist() == [1, 1, 3, 3, 4]


@pytest.mark.slow
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


def test_suspicious_means_occurs_in_a_failed_sentence():
    """Footnote 10, "A form is suspicious if its suspicion score is not null", as the lead decided for
    issue 16: the miner scores the forms of the failed trees, so a form has a score -- and is suspicious
    -- exactly when c(f|F) > 0, whatever the score's value (the failure term of a form seen once is 0)."""
    assert mining.is_suspicious([0, 1, 7]).tolist() == [False, True, True]
    with pytest.raises(ValueError, match="failure counts"):
        mining.is_suspicious()
    top = mining.MiningSettings(suspicious="top-k", top_k=2)
    assert mining.is_suspicious([0, 1, 7], ranks=[3, 2, 1], settings=top).tolist() == [False, True, True]
    with pytest.raises(ValueError, match="needs the ranks"):
        mining.is_suspicious([1], settings=top)


# Three trees (heads 1-based, 0 = root), labelled by relation (dep view):
#   s0: root <- obj <- det, obj <- amod        forms (root excluded): (obj (amod)) (obj (det)) (obj (amod det))
#   s1: root <- obj <- det                      forms: (obj (det))
#   s2: root <- nsubj <- det                    forms: (nsubj (det))
TREES = [
    ([0, 1, 2, 2], ["root", "obj", "det", "amod"], ["VERB", "NOUN", "DET", "ADJ"], ["see", "cat", "the", "big"]),
    ([0, 1, 2], ["root", "obj", "det"], ["VERB", "NOUN", "DET"], ["see", "dog", "a"]),
    ([0, 1, 2], ["root", "nsubj", "det"], ["VERB", "NOUN", "DET"], ["go", "man", "the"]),
]


def test_corpus_forms_one_representative_per_occurrence_set():
    """(obj (amod)) and (obj (amod det)) occur in exactly {s0}: the larger stands for the smaller;
    (obj (det)) occurs in {s0, s1} and (nsubj (det)) in {s2}: each alone. 4 forms enumerated, 3 kept."""
    got = mining.corpus_forms(TREES, views=("dep",))["dep"]
    assert got.enumerated == 4
    found = {
        name: (size, rep, got.matrix[:, j].toarray().ravel().tolist())
        for j, (name, size, rep) in enumerate(zip(got.names, got.sizes, got.represents))
    }
    assert found == {
        "(obj (amod det))": (3, ("(obj (amod))",), [1, 0, 0]),
        "(obj (det))": (2, (), [1, 1, 0]),
        "(nsubj (det))": (2, (), [0, 0, 1]),
    }
    every = mining.corpus_forms(TREES, views=("dep",), settings=mining.MiningSettings(representatives="all"))["dep"]
    assert sorted(every.names) == ["(nsubj (det))", "(obj (amod det))", "(obj (amod))", "(obj (det))"]
    assert all(r == () for r in every.represents)
    with_root = mining.corpus_forms(TREES, views=("dep",), settings=mining.MiningSettings(exclude_root=False))["dep"]
    assert "(root ((obj (det))))" in set(with_root.names) | {f for r in with_root.represents for f in r}


def test_score_forms_scores_the_forms_of_failed_trees():
    """s1 fails (1 of 3 sentences). Only (obj (det)) occurs in it: c(f) = 2, c(f|F) = 1, c(not f) = 1,
    c(not f|P) = 1, so S = 1/2 (1/2 ln 2 + 1/1 ln 1) = ln(2)/4; the other two forms have no score.
    With top-k every form that occurs is scored: (obj (amod det)) c(f) = 1, c(f|F) = 0, c(not f) = 2,
    c(not f|P) = 1: S = 1/2 (0 + 1/2 ln 2) = ln(2)/4 as well, ranked after (obj (det)) (more sentences);
    (nsubj (det)) likewise ln(2)/4, then form text decides."""
    forms = mining.corpus_forms(TREES, views=("dep",))["dep"]
    got = mining.score_forms(forms, [False, True, False])
    assert [forms.names[j] for j in got["column"]] == ["(obj (det))"]
    assert (got["c_f"].tolist(), got["c_f_fail"].tolist(), got["c_notf"].tolist(), got["c_notf_pass"].tolist()) == (
        [2],
        [1],
        [1],
        [1],
    )
    assert got["score"][0] == pytest.approx(math.log(2) / 4) and got["suspicious"].tolist() == [True]
    top = mining.score_forms(forms, [False, True, False], settings=mining.MiningSettings(suspicious="top-k", top_k=2))
    assert [forms.names[j] for j in top["column"]] == ["(obj (det))", "(nsubj (det))", "(obj (amod det))"]
    assert top["score"] == pytest.approx([math.log(2) / 4] * 3)
    assert top["rank"].tolist() == [1, 2, 3] and top["suspicious"].tolist() == [True, True, False]
    # a sentence without a value of the failure metric takes no part: s2 unusable -> N = 2
    part = mining.score_forms(forms, [False, True, False], usable=[True, True, False])
    assert (part["c_f"].tolist(), part["c_notf"].tolist(), part["c_notf_pass"].tolist()) == ([2], [0], [0])


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
    assert (s.exclude_root, s.representatives, s.suspicious, s.score) == (
        True,
        "largest",
        "non-null",
        "narayan-gardent",
    )
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


@given(
    c_f=st.integers(1, 3000), fail_share=st.floats(0, 1), n_extra=st.integers(2, 3000), pass_share=st.floats(0.01, 1)
)
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
        edges = wh.sql(
            "select position, head, relation, dependent_upos, dependent_lemma from edges "
            "where corpus = 'ewt' order by position, dependent"
        ).fetchall()
        bleu = {}
        for run, position, value in wh.sql(
            "select run, position, bleu from sentence_scores order by run, position"
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
        forms = mining.sentence_forms(
            heads,
            rels,
            upos,
            lemmas,
            views=("dep",),
            max_size=settings.max_size,
            exclude_root=settings.exclude_root,
            sizes=True,
        )["dep"]
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
    """docs/statistics.md, "Scale": N = 2,077, 520 failures. Suspicious = occurs in a failed sentence
    (footnote 10 as decided for issue 16), so coverage is the same under every score. The second term of
    the Narayan & Gardent score lies near 1/2 x 1557/2077 x ln 2077 = 2.863 for every form, above the
    paper's largest MSS (1.21), so every MSS is above 2.3; the first term alone has the paper's scale."""
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
        assert first.max() < 1.6
        suspicious = mining.is_suspicious(c_f_fail)
        # a form that never occurs in a failure has no score and is not suspicious: most of them
        assert 0.3 * len(names) < suspicious.sum() < 0.7 * len(names)
        per_run_ng.append({f: v for f, v, ok in zip(names, ng, suspicious) if ok})
        per_run_first.append({f: v for f, v, ok in zip(names, first, suspicious) if ok})
    ng = mining.coverage_and_mss(per_run_ng)
    first = mining.coverage_and_mss(per_run_first)
    assert {f: v[:2] for f, v in ng.items()} == {f: v[:2] for f, v in first.items()}  # same coverage
    assert 0 < sum(v[1] == 1.0 for v in ng.values()) < len(ng)  # coverage separates forms
    assert min(v[2] for v in ng.values()) > 2.3 and max(v[2] for v in ng.values()) < 4.5
    assert min(v[2] for v in first.values()) == 0.0 and max(v[2] for v in first.values()) < 1.6


# --- real data: what the paper's settings change in a real analysis (issue 16, point 5) ----------------


def parse_form(text: str):
    """A canonical form -> (label, [child forms]), read independently of evalhouse.analysis.mining:
    a leaf is its label; '(label (c1 c2 ...))' a node with children."""
    pos = 0

    def label():
        nonlocal pos
        end = pos
        while end < len(text) and text[end] not in " ()":
            end += 1
        out, pos = text[pos:end], end
        return out

    def node():
        nonlocal pos
        if text[pos] != "(":
            return (label(), [])
        pos += 1
        head = label()
        assert text[pos : pos + 2] == " ("
        pos += 2
        kids = [node()]
        while text[pos] == " ":
            pos += 1
            kids.append(node())
        assert text[pos : pos + 2] == "))"
        pos += 2
        return (head, kids)

    out = node()
    assert pos == len(text), text
    return out


def occurs(form, heads, labels, include_root: bool = False) -> bool:
    """Whether a tree (heads 1-based, 0 = root) has a non-root node (any node with ``include_root``)
    at which ``form`` matches: its label, and distinct children matching the form's children (in any
    order)."""
    children = [[] for _ in heads]
    for i, h in enumerate(heads):
        if h:
            children[h - 1].append(i)

    def match(i, f):
        return labels[i] == f[0] and assign(f[1], children[i])

    def assign(kids, available):
        if not kids:
            return True
        return any(match(c, kids[0]) and assign(kids[1:], [a for a in available if a != c]) for c in available)

    return any((include_root or h != 0) and match(i, form) for i, h in enumerate(heads))


@pytest.fixture(scope="module")
def adapt_analysed():
    """EWT v2.3 test with the ADAPT runs ingested with the default settings (the lemma lexicon and the
    English rules; sacreBLEU, which mining does not read, off), analysed with evalhouse's settings before
    issue 16 (root included, every form, top 10 suspicious; their top 50 kept), with ``--score
    failure-term``, and then with the defaults; the figures docs/statistics.md quotes from each; and
    each sentence's dep tree, for the independent matcher above."""
    import evalhouse
    from evalhouse.statistics.analyze import AnalysisConfig, analyze
    from tests.conftest import shared

    reference = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    runs = sorted(p for p in shared("sr-outputs", "adapt-ewt-test").iterdir() if (p / "en_out.txt").exists())
    wh = evalhouse.connect(":memory:")
    wh.ingest_treebank([reference], corpus="ewt")
    for run in runs:
        wh.ingest_outputs(run / "en_out.txt", reference="ewt", team="adapt", run=run.name, sacrebleu=False)
    figures = {}
    analyze(wh, AnalysisConfig(resamples=5, exclude_root=False, representatives="all", suspicious="top-k", keep=50))
    before = {}
    for run, form in wh.sql(
        "select run, form from suspicious_subtrees where view = 'dep' and rank <= 50 order by run, rank"
    ).fetchall():
        before.setdefault(run, []).append(form)
    figures["before"] = _mss(wh)
    analyze(wh, AnalysisConfig(resamples=5, score_form="failure-term"))
    figures["failure-term"] = _mss(wh)
    analyze(wh, AnalysisConfig(resamples=5))
    figures["default"] = _mss(wh)
    trees: dict[int, tuple[list, list]] = {}
    for position, head, relation in wh.sql(
        "select position, head, relation from edges where corpus = 'ewt' order by position, dependent"
    ).fetchall():
        trees.setdefault(position, ([], []))
        trees[position][0].append(head)
        trees[position][1].append(relation)
    yield wh, before, trees, figures
    wh.close()


def _mss(wh) -> dict:
    """Per view: MSS range and number of the suspicious forms, those suspicious in every run, the MSS range
    of the 20 forms of highest coverage (ties by MSS), the suspicious forms per run, the smallest second
    term and the largest first term of the Narayan & Gardent score."""
    out = {}
    for view, low, high, forms, everywhere in wh.sql(
        "select view, min(mss), max(mss), count(*), count(*) filter (where coverage = 1) "
        "from suspicious_subtrees_coverage group by view"
    ).fetchall():
        out[view] = {"mss": (low, high), "forms": forms, "everywhere": everywhere}
    for view, low, high in wh.sql("""select view, min(mss), max(mss) from (select *, row_number() over
                                     (partition by view order by coverage desc, mss desc) as r
                                     from suspicious_subtrees_coverage) where r <= 20 group by view""").fetchall():
        out[view]["top20"] = (low, high)
    for view, low, high in wh.sql("""select view, min(n), max(n) from (select view, run, count(*) as n from
                                     suspicious_subtrees where selected group by all) group by view""").fetchall():
        out[view]["per_run"] = (low, high)
    for view, b_low, b_high, a_high in wh.sql(
        "select view, min(0.5 * c_notf_pass / c_notf * ln(c_notf)), max(0.5 * c_notf_pass / c_notf * ln(c_notf)), "
        "max(0.5 * c_f_fail / c_f * ln(c_f)) from suspicious_subtrees where selected group by view"
    ).fetchall():
        out[view]["terms"] = (b_low, b_high, a_high)
    return out


def form_size(parsed) -> int:
    return 1 + sum(form_size(k) for k in parsed[1])


def occurrence_set(form: str, trees, include_root: bool = False) -> frozenset:
    parsed = parse_form(form)
    return frozenset(p for p, (heads, labels) in trees.items() if occurs(parsed, heads, labels, include_root))


def test_independent_matcher_on_a_small_tree():
    heads, labels = [0, 1, 2, 2], ["root", "obj", "det", "amod"]
    assert occurs(parse_form("(obj (amod det))"), heads, labels)
    assert occurs(parse_form("(obj (det))"), heads, labels)
    assert not occurs(parse_form("(obj (det det))"), heads, labels)
    assert not occurs(parse_form("(root (obj))"), heads, labels)  # headed by the root: not mined
    assert occurs(parse_form("(root (obj))"), heads, labels, include_root=True)
    assert occurs(parse_form("(a ((b (c))))"), [0, 1, 2, 3], ["root", "a", "b", "c"])


@pytest.mark.realdata
def test_root_headed_forms_no_longer_fill_the_top_50(adapt_analysed):
    """Issue 16: with the root, forms headed by it were 26-34 of the top 50 dep forms of each ADAPT run
    (scored with the defaults; 28-34 without the lexicon); none of the 60 forms of Tables 5-7 is one. With
    the paper's settings none is mined."""
    wh, before, _, _ = adapt_analysed
    assert len(before) == 5
    for run, forms in before.items():
        assert len(forms) == 50
        assert 26 <= sum(f.startswith("(root ") for f in forms) <= 34, run
    assert (
        wh.sql(
            "select count(*) from suspicious_subtrees where form like '(root %' or list_contains(represents, form)"
        ).fetchone()[0]
        == 0
    )
    assert wh.sql("select count(*) from suspicious_subtrees where view = 'dep' and rank <= 50").fetchone()[0] == 5 * 50
    configuration = wh.sql("select distinct configuration from suspicious_subtrees").fetchall()
    assert (
        len(configuration) == 1 and "root:excluded|representatives:largest|suspicious:non-null" in configuration[0][0]
    )


@pytest.mark.realdata
def test_nested_forms_with_identical_occurrence_sets_collapse(adapt_analysed):
    """Before: nested forms that occur in exactly the same sentences sat together near the top
    ((list (nummod)) and (root ((list (nummod))))). Now the top 50 of every run have pairwise different
    occurrence sets, and each form a stored form represents has exactly its sentences and is not larger
    -- all checked with the independent matcher above, on the reference trees."""
    wh, before, trees, _ = adapt_analysed
    old_top = before["ewt_only_test_set_13-Oct_11-27"]
    assert "(list (nummod))" in old_top[:10] and "(root ((list (nummod))))" in old_top[:10]
    assert (
        occurrence_set("(list (nummod))", trees)
        == occurrence_set("(root ((list (nummod))))", trees, True)
        != frozenset()
    )
    for run in before:
        rows = wh.sql(
            "select form, size, represents, c_f from suspicious_subtrees where view = 'dep' and run = $r "
            "and rank <= 50 order by rank",
            {"r": run},
        ).fetchall()
        sets = {}
        for form, size, represents, c_f in rows:
            sets[form] = occurrence_set(form, trees)
            assert len(sets[form]) == c_f, form
            assert size == form_size(parse_form(form))
            for other in represents:
                assert occurrence_set(other, trees) == sets[form], (form, other)
                # the largest stands for the others; among equally large ones the first in string order
                assert (form_size(parse_form(other)), form) < (size, other)
        assert len(set(sets.values())) == len(sets), run
    # the example of docs/statistics.md: (nmod (compound)) stands in (nmod (case compound))'s 151 sentences
    represented = wh.sql(
        "select distinct c_f, represents from suspicious_subtrees "
        "where view = 'dep' and form = '(nmod (case compound))'"
    ).fetchall()
    assert represented and all(c == 151 and "(nmod (compound))" in r for c, r in represented)


def _range(pair, digits=2, sep="–") -> str:
    low, high = pair
    return f"{low:.{digits}f}{sep}{high:.{digits}f}"


@pytest.mark.realdata
def test_the_mining_figures_of_the_docs(adapt_analysed):
    """docs/statistics.md quotes these figures of the five ADAPT runs, scored with the default settings
    (issue 36: they reproduced only with --no-lexicon before); each is found in the text as computed."""
    from tests.conftest import REPO

    wh, before, _, figures = adapt_analysed
    text = (REPO / "docs" / "statistics.md").read_text(encoding="utf-8")
    d, f, b = figures["default"], figures["failure-term"], figures["before"]
    roots = [sum(x.startswith("(root ") for x in forms) for forms in before.values()]
    quoted = [
        f"with the root, {min(roots)}–{max(roots)} of the top 50 `dep` forms of each ADAPT run",
        f"{d['dep']['per_run'][0]:,}–{d['dep']['per_run'][1]:,} `dep` forms per\nADAPT run, "
        f"{d['lemma']['per_run'][0]:,}–{d['lemma']['per_run'][1]:,} `lemma` forms",
        f"½·B lies between {d['dep']['terms'][0]:.2f} and {d['dep']['terms'][1]:.2f}, while\n½·A is at most "
        f"{d['dep']['terms'][2]:.2f}",
        f"the suspicious forms runs from {d['dep']['mss'][0]:.2f} to {d['dep']['mss'][1]:.2f} (`dep`, "
        f"{d['dep']['forms']:,} forms), {_range(d['pos']['mss'])} (`pos`), {_range(d['pos-dep']['mss'])}\n"
        f"   (`pos-dep`), {_range(d['lemma']['mss'])} (`lemma`); for the 20 forms of highest coverage (ties by MSS) "
        f"{_range(d['dep']['top20'])},\n   {_range(d['pos']['top20'])} and {_range(d['pos-dep']['top20'])}. Before issue 16 "
        f"(root, every form, top 10) it was {_range(b['dep']['top20'])}, {_range(b['pos']['top20'])}\n   and "
        f"{_range(b['pos-dep']['top20'])}",
        f"their MSS runs from 0 to {f['dep']['mss'][1]:.2f} (`dep`), 0–{f['pos']['mss'][1]:.2f} (`pos`),\n   "
        f"0–{f['pos-dep']['mss'][1]:.2f} (`pos-dep`); for the 20 forms of highest coverage {_range(f['dep']['top20'])}, "
        f"{_range(f['pos']['top20'])} and {_range(f['pos-dep']['top20'])}",
        f"{d['dep']['everywhere']:,} of the {d['dep']['forms']:,} suspicious `dep` forms are suspicious in all\n   five runs",
    ]
    missing = [q for q in quoted if q not in text]
    assert missing == [], missing
    assert f["dep"]["mss"][0] == 0.0 and f["dep"]["forms"] == d["dep"]["forms"]  # same forms, same coverage


@pytest.mark.realdata
def test_the_reference_form_counts_of_the_docs(adapt_analysed):
    """docs/statistics.md also quotes what one representative per occurrence set does to EWT's forms
    (they depend on the reference trees only, not on a run): recomputed here with the default mining
    settings, each count found in the text as computed; and the section heading's MSS scale is the range
    of the default MSS over the views, to one decimal."""
    from evalhouse.statistics.analyze import AnalysisConfig, CorpusData, corpus_forms
    from tests.conftest import REPO

    wh, _, _, figures = adapt_analysed
    text = (REPO / "docs" / "statistics.md").read_text(encoding="utf-8")
    keys = wh.sql("select team, run from submissions where corpus = 'ewt'").fetchall()
    data = CorpusData.load(wh, "ewt", keys)
    forms = corpus_forms(data.tree, data.positions, ["dep", "lemma"], AnalysisConfig().mining_settings())
    dep, lemma = forms["dep"], forms["lemma"]
    sentences = np.asarray(dep.matrix.sum(axis=0)).ravel()  # a represented form has its representative's
    represented = np.array([len(r) for r in dep.represents])
    single, five = int(represented[sentences == 1].sum()), int(represented[sentences >= 5].sum())
    assert dep.enumerated - len(dep.names) == represented.sum()
    quoted = [
        f"has {dep.enumerated:,} forms and {len(dep.names):,} representatives: "
        f"{dep.enumerated - len(dep.names):,} forms are represented by another, {single:,} of them occur in\n"
        f"  a single sentence, {five:,} in five or more",
        f"{lemma.enumerated:,} forms become {len(lemma.names):,}",
    ]
    missing = [q for q in quoted if q not in text]
    assert missing == [], missing
    d = figures["default"]
    low, high = min(v["mss"][0] for v in d.values()), max(v["mss"][1] for v in d.values())
    assert f"### Scale: why evalhouse's MSS is {low:.1f}–{high:.1f} where" in text, (low, high)
