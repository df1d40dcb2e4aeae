"""The C kernels of the leaf-ancestor metric (issue 18) against their Python definitions.

* ``_trees.dependency_lineages`` against ``dependency_eval._lineages_and_parts_python``: the same lineages, the
  same words above the markers and the same tails, on every real file and on random forests; errors where the
  Python would loop or fail; no reference left behind.
* ``_trees.lineage_distance`` against ``leaf_ancestor._lineage_distance_python``: the same float for every cost
  (dyadic or not), short and long lineages; ``None`` for a symbol the cost has not met yet."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalhouse.analysis import dependency_eval, leaf_ancestor
from evalhouse.analysis.dependency_eval import LEFT, RIGHT, _lineages_and_parts_python, _universal_all
from evalhouse.analysis.leaf_ancestor import (
    DEFAULT,
    STRICT,
    LabelCost,
    _lineage_distance_python,
    cost_table,
    lineage_distance,
)
from evalhouse.loaders.conllu_words import read_words
from tests.conftest import shared
from tests.test_trees import trees

if dependency_eval._trees is None or leaf_ancestor._trees is None:
    pytest.fail(
        "the C kernel analysis/_trees.c (with dependency_lineages and lineage_distance) is not built "
        "(pip install -e . builds it where a C compiler is)",
        pytrace=False,
    )
kernel = dependency_eval._trees.dependency_lineages
distance_kernel = leaf_ancestor._trees.lineage_distance


def file_heads(sentences: list[list[int]]) -> list[int]:
    """1-based heads of consecutive sentences (0: root) as file indices (-1: root)."""
    out, base = [], 0
    for heads in sentences:
        out += [base + h - 1 if h else -1 for h in heads]
        base += len(heads)
    return out


def assert_same(head: list[int], rel: list[str]) -> None:
    got = kernel(head, rel, LEFT, RIGHT)
    expected = _lineages_and_parts_python(head, rel)
    assert type(got) is tuple and len(got) == 3
    lineages, above, tails = got
    assert (lineages, above, tails) == expected
    assert all(type(x) is tuple for x in lineages) and all(type(x) is tuple for x in tails)
    assert all(type(x) is int for x in above)


REAL = [
    ("parsing", "conll2018", part, f"{tb}.conllu")
    for part in ("gold", "UDPipe-Future", "Stanford-18", "HIT-SCIR-18")
    for tb in ("en_ewt", "fr_gsd", "zh_gsd")
]


@pytest.mark.realdata
@pytest.mark.parametrize("parts", REAL + [("ud-v2.3", "en_ewt-ud-test.conllu")], ids="/".join)
def test_real_files(parts):
    w = read_words(shared(*parts))
    assert_same(w.head, _universal_all(w.deprel))


@pytest.mark.realdata
def test_real_ud_test_files():
    files = sorted(shared("ud").rglob("*.conllu"))
    assert len(files) >= 10
    for path in files:
        w = read_words(path)
        assert_same(w.head, _universal_all(w.deprel))


RELATIONS = st.sampled_from(["nsubj", "obj", "obl", "nmod", "det", "root"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(trees(max_size=30), min_size=0, max_size=4), st.data())
def test_random_forests(sentences, data):
    head = file_heads(sentences)
    rel = data.draw(st.lists(RELATIONS, min_size=len(head), max_size=len(head)))
    assert_same(head, rel)


@pytest.mark.parametrize("n", [1, 2, 1000])
def test_chains_stars_and_reversed_chains(n):
    chain = [0] + list(range(1, n))  # word k+1 under word k: one long path
    reversed_chain = list(range(2, n + 1)) + [0]
    star = [0] + [1] * (n - 1)
    for heads in (chain, reversed_chain, star):
        assert_same(file_heads([heads]), ["dep"] * n)


def test_the_tuples_hold_the_callers_objects_and_leave_no_reference():
    rel = ["".join(["x", r]) for r in ("nsubj", "root", "obj", "punct")]  # strings of this test only
    head = file_heads([[2, 0, 2, 2]])
    before = [sys.getrefcount(r) for r in rel] + [sys.getrefcount(LEFT), sys.getrefcount(RIGHT)]
    for _ in range(3):
        lineages, above, tails = kernel(head, rel, LEFT, RIGHT)
        assert lineages[0][0 if lineages[0][0] is not LEFT else 1] is rel[0]
        del lineages, above, tails
    assert [sys.getrefcount(r) for r in rel] + [sys.getrefcount(LEFT), sys.getrefcount(RIGHT)] == before


@pytest.mark.parametrize(
    "head, message",
    [
        ([0, 1, -1], "the heads form a cycle"),  # 0 -> 0
        ([1, 2, 0], "the heads form a cycle"),  # 0 -> 1 -> 2 -> 0
        ([-1, 3, 0], "head 3 of word 1 out of range"),
        ([-1, -2, 0], "head -2 of word 1 out of range"),
    ],
)
def test_bad_heads_raise(head, message):
    with pytest.raises(ValueError, match=message):
        kernel(head, ["dep"] * len(head), LEFT, RIGHT)


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="different lengths"):
        kernel([-1, 0], ["root"], LEFT, RIGHT)
    with pytest.raises(TypeError):
        kernel([-1, "0"], ["root", "dep"], LEFT, RIGHT)
    with pytest.raises(TypeError):
        kernel(5, [], LEFT, RIGHT)


def test_the_fallback_gives_the_same_scores(monkeypatch):
    """Without the kernel, ``score`` takes the Python definition and stores the same numbers."""
    g = read_words(shared("parsing", "conll2018", "gold", "fr_gsd.conllu"))
    s = read_words(shared("parsing", "conll2018", "HIT-SCIR-18", "fr_gsd.conllu"))
    with_kernel = dependency_eval.score(g, s)
    monkeypatch.setattr(dependency_eval, "_trees", None)
    assert dependency_eval._lineages_and_parts(g) == _lineages_and_parts_python(g.head, _universal_all(g.deprel))
    assert dependency_eval.score(g, s) == with_kernel


# --- lineage_distance ---------------------------------------------------------------------------

SYMBOLS = ["NP", "N1", "VP", "S", LEFT, RIGHT, "nsubj", "obj", "obl"]


def costs():
    """The two named costs (module-wide objects) and two new tables, dyadic and not."""
    return [
        STRICT,
        DEFAULT,
        cost_table([("NP", "N1", 0.25), ("VP", "S", 1.5), ("nsubj", "obj", 0.75)]),
        cost_table([("NP", "N1", 0.1), ("VP", "S", 1.3), ("obj", "obl", 1 / 3), ("S", "NP", 0.7)]),
    ]


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(SYMBOLS), max_size=90),
    st.lists(st.sampled_from(SYMBOLS), max_size=90),
    st.lists(st.sampled_from(SYMBOLS), max_size=8),
    st.lists(st.sampled_from(SYMBOLS), max_size=8),
)
def test_distance_equals_the_python_dp(a, b, prefix, suffix):
    gold, cand = tuple(prefix + a + suffix), tuple(prefix + b + suffix)
    for cost in costs():
        for x, y in ((gold, cand), (cand, gold), (list(gold), list(cand))):
            got = lineage_distance(x, y, cost)
            expected = _lineage_distance_python(x, y, cost)
            assert type(got) is float and got == expected


@pytest.mark.parametrize("n", [0, 1, 64, 65, 400])
def test_long_lineages(n):
    """Up to 64 symbols the kernel works on the stack, beyond on the heap."""
    gold = tuple(["NP", "VP"] * n)[:n]
    for cand in (gold, tuple(["S"] * n), tuple(reversed(gold)) + ("obj",), ()):
        for cost in costs():
            assert lineage_distance(gold, cand, cost) == _lineage_distance_python(gold, cand, cost)


def test_an_unmet_symbol_is_asked_back():
    cost = cost_table([("NP", "N1", 0.1)])
    assert distance_kernel(("NP",), ("N1",), cost._ids, cost.matrix, False) is None
    assert lineage_distance(("NP",), ("N1",), cost) == 0.1  # the wrapper grows the matrix and asks again
    assert distance_kernel(("NP",), ("N1",), cost._ids, cost.matrix, False) == 0.1


def test_a_bad_matrix_raises():
    distance = distance_kernel
    with pytest.raises(ValueError, match="outside the matrix"):
        distance(("a",), ("b",), {"a": 0, "b": 1}, [[0.0]], True)
    with pytest.raises(TypeError, match="square list of lists of floats"):
        distance(("a",), ("b",), {"a": 0, "b": 1}, [[0.0, 1], [1.0, 0.0]], True)
    with pytest.raises(TypeError, match="square list of lists of floats"):
        distance(("a",), ("b",), {"a": 0, "b": 1}, [[0.0], [1.0, 0.0]], True)
    with pytest.raises(TypeError):
        distance(("a",), ("b",), [], [[0.0]], True)


def test_the_distance_fallback(monkeypatch):
    gold, cand = ("NP", "[", "VP", "S"), ("N1", "VP", "]", "S", "S")
    expected = [lineage_distance(gold, cand, cost) for cost in costs()]
    monkeypatch.setattr(leaf_ancestor, "_trees", None)
    assert [lineage_distance(gold, cand, cost) for cost in costs()] == expected


def test_table_costs_that_are_not_floats():
    """A LabelCost made directly with an int or a numpy float gives the definition's value (its matrix holds
    floats)."""
    import numpy as np

    for value in (1, np.float64(0.1), np.float32(0.3)):
        cost = LabelCost("table:direct", (("NP", "VP", value),))
        got = lineage_distance(("S", "NP", "x"), ("S", "VP", "x"), cost)
        assert type(got) is float and got == float(value) == _lineage_distance_python(("NP",), ("VP",), cost)


def test_python_code_run_inside_a_call_cannot_change_what_is_read():
    """An ``__index__`` that grows the relations or empties the heads, and symbols whose ``__eq__`` empties the
    matrix, run during a call (found by a review under AddressSanitizer): the kernels read private tuples and
    the matrix only after the last lookup, so they answer or raise, without reading freed memory."""
    rel = ["a", "b", "c"]
    head = [None, 0, 0]

    class GrowsRelations:
        def __index__(self):
            rel.extend(["z"] * 100_000)
            head.clear()
            return -1

    head[0] = GrowsRelations()
    assert kernel(head, rel, LEFT, RIGHT) == _lineages_and_parts_python([-1, 0, 0], ["a", "b", "c"])

    matrix = [[0.0, 2.0], [2.0, 0.0]]

    class EmptiesMatrix(str):
        __hash__ = str.__hash__

        def __eq__(self, other):
            matrix.clear()
            return str.__eq__(self, other)

    with pytest.raises(ValueError, match="outside the matrix"):
        distance_kernel(["b", "a"], ["a", "b"], {EmptiesMatrix("a"): 0, EmptiesMatrix("b"): 1}, matrix, False)
