"""Leaf-ancestor distances without the cubic cost (issue 17 point 2): the common-end trimming of
``lineage_distance`` and the path-shared DP tables of ``dependency_eval.score`` give exactly the numbers
of the plain DP (``tests/reference_la.py``, the code as it was) -- on random strings and trees
(hypothesis), on adversarial chains and stars, and on every real CoNLL 2018 parser output."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalhouse.analysis.dependency_eval as dependency_eval
from evalhouse.analysis.dependency_eval import dependency_lineages, score
from evalhouse.analysis.leaf_ancestor import DEFAULT, STRICT, cost_table, exact_sums, lineage_distance
from evalhouse.loaders.conllu_words import read_words
from tests import reference_la
from tests.conftest import shared
from tests.test_trees import trees

SYMBOLS = ["NP", "N1", "VP", "S", "[", "]", "nsubj", "obj"]
DYADIC = cost_table([("NP", "N1", 0.25), ("VP", "S", 1.5), ("nsubj", "obj", 0.75)])
NOT_DYADIC = cost_table([("NP", "N1", 0.1), ("VP", "S", 1.3)])
COSTS = [STRICT, DEFAULT, DYADIC, NOT_DYADIC]


def test_exact_sums():
    assert exact_sums(STRICT) and exact_sums(DEFAULT) and exact_sums(DYADIC)
    assert not exact_sums(NOT_DYADIC)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(SYMBOLS), max_size=14),
    st.lists(st.sampled_from(SYMBOLS), max_size=14),
    st.lists(st.sampled_from(SYMBOLS), max_size=5),
    st.lists(st.sampled_from(SYMBOLS), max_size=5),
)
def test_trimmed_distance_equals_the_plain_dp(a, b, prefix, suffix):
    gold, cand = prefix + a + suffix, prefix + b + suffix
    for cost in COSTS:
        assert lineage_distance(gold, cand, cost) == reference_la.lineage_distance(gold, cand, cost)
        assert lineage_distance(cand, gold, cost) == reference_la.lineage_distance(cand, gold, cost)


@contextlib.contextmanager
def shared_dp(factor: float):
    saved = dependency_eval.SHARED_DP_FACTOR
    dependency_eval.SHARED_DP_FACTOR = factor
    try:
        yield
    finally:
        dependency_eval.SHARED_DP_FACTOR = saved


def conllu(sentences) -> str:
    out = []
    for heads, rels in sentences:
        for i, (h, r) in enumerate(zip(heads, rels), 1):
            out.append(f"{i}\tw{i}\t_\t_\t_\t_\t{h}\t{'root' if h == 0 else r}\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


def assert_same_scores(g, s) -> None:
    for cost in COSTS:
        expected = reference_la.score(g, s, cost)
        for factor in (0, 8, float("inf")):  # always, sometimes, never the shared tables
            with shared_dp(factor):
                got = score(g, s, cost)
            assert got == expected, (cost.name, factor)
    assert dependency_lineages(g) == reference_la.dependency_lineages(g)


RELATIONS = st.sampled_from(["nsubj", "obj", "obl", "nmod", "det"])


@st.composite
def tree_pairs(draw, max_size: int = 14):
    gold = draw(trees(max_size=max_size))
    n = len(gold)
    system = draw(trees(min_size=n, max_size=n))
    g_rels = draw(st.lists(RELATIONS, min_size=n, max_size=n))
    s_rels = draw(st.lists(RELATIONS, min_size=n, max_size=n))
    return (gold, g_rels), (system, s_rels)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    directory = tmp_path_factory.mktemp("la")
    counter = itertools.count()

    def read(sentences):
        path = directory / f"f{next(counter)}.conllu"
        path.write_text(conllu(sentences), encoding="utf-8")
        return read_words(path)

    return read


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(tree_pairs(), min_size=1, max_size=3))
def test_scores_equal_the_plain_dp_on_random_trees(files, pairs):
    g = files([gold for gold, _ in pairs])
    s = files([system for _, system in pairs])
    assert_same_scores(g, s)


def chain(n: int) -> list[int]:
    return [0] + list(range(1, n))


@pytest.mark.slow
@pytest.mark.parametrize("system", ["same", "relabelled", "reversed", "star", "relabelled_reversed"])
def test_adversarial_chains_equal_the_plain_dp(files, system):
    n = 150
    gold = (chain(n), ["dep"] * n)
    systems = {
        "same": gold,
        "relabelled": (chain(n), ["obj"] * n),
        "reversed": (list(range(2, n + 1)) + [0], ["dep"] * n),
        "star": ([0] + [1] * (n - 1), ["dep"] * n),
        "relabelled_reversed": (list(range(2, n + 1)) + [0], ["obj"] * n),
    }
    assert_same_scores(files([gold]), files([systems[system]]))


@pytest.mark.realdata
@pytest.mark.parametrize("system", ["UDPipe-Future", "Stanford-18", "HIT-SCIR-18"])
@pytest.mark.parametrize("treebank", ["en_ewt", "fr_gsd", "zh_gsd"])
def test_real_parser_outputs_equal_the_plain_dp(system, treebank):
    g = read_words(shared("parsing", "conll2018", "gold", f"{treebank}.conllu"))
    s = read_words(shared("parsing", "conll2018", system, f"{treebank}.conllu"))
    expected = reference_la.score(g, s, STRICT)
    with shared_dp(0):
        assert score(g, s, STRICT) == expected
    assert score(g, s, STRICT) == expected
