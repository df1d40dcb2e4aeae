"""The linear / n log n tree algorithms of ``analysis/trees.py`` (issue 17 point 2) against independent
references: brute force (``tests/test_trees.py``), the previous O(sum of dependency lengths)
implementation (``tests/reference_trees.py``), a naive walk for punctuation stripping, and the
``edges`` table that the treebank loader's SQL builds today -- on random trees (hypothesis), on
adversarial shapes and on every real treebank in ``../shared/data``.

Both flux-weight algorithms are exercised on every input by forcing the choice between them
(``SWEEP_FACTOR``) and the chunking (``ROW_BUDGET``).
"""

from __future__ import annotations

import contextlib
import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import evalhouse
import evalhouse.analysis.trees as trees_mod
from evalhouse.analysis.trees import (
    NotATreeError,
    TreeBatch,
    arc_projective,
    strip_punctuation,
    tree_depths,
    tree_metrics,
)
from evalhouse.loaders.errors import InputError
from tests import reference_trees
from tests.conftest import REPO, SHARED_DATA, shared
from tests.test_trees import brute_depths, brute_flux_weights, brute_projective, trees


@contextlib.contextmanager
def algorithm(sweep_factor: int, row_budget: int = trees_mod.ROW_BUDGET):
    """Force the flux-weight algorithm: sweep_factor 0 sends every tree with an arc to the sweep,
    a huge one sends every tree to the row-based path; a small row_budget makes many chunks."""
    saved = trees_mod.SWEEP_FACTOR, trees_mod.ROW_BUDGET
    trees_mod.SWEEP_FACTOR, trees_mod.ROW_BUDGET = sweep_factor, row_budget
    try:
        yield
    finally:
        trees_mod.SWEEP_FACTOR, trees_mod.ROW_BUDGET = saved


ALGORITHMS = [(0, 1 << 20), (10**9, 1 << 20), (10**9, 3), (2, 17)]


# the C kernel (analysis/_trees.c) and the numpy definitions it replaces when built: both always checked
KERNELS = (True, False) if trees_mod._trees is not None else (False,)


def test_the_kernel_is_built():
    # pip builds it wherever a C compiler is (as for _bleu and _evalb); without one, only numpy is checked
    if importlib.util.find_spec("evalhouse.analysis._bleu") is not None:
        assert trees_mod._trees is not None


def assert_same_metrics(batch: TreeBatch) -> None:
    expected = reference_trees.tree_metrics(batch)
    for sweep_factor, budget in ALGORITHMS:
        for kernel in KERNELS:
            with algorithm(sweep_factor, budget):
                got = tree_metrics(batch, kernel=kernel)
            for field in ("flux_weights", "flux_sizes", "projective", "flux_weight_sum", "gap_offsets"):
                assert getattr(got, field).tolist() == getattr(expected, field).tolist(), (
                    field,
                    sweep_factor,
                    budget,
                    kernel,
                )
    assert tree_depths(batch).tolist() == reference_trees.tree_depths(batch).tolist()


# --- random trees --------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(trees(max_size=12, max_roots=3))
def test_sweep_flux_weights_are_maximum_matchings(heads):
    with algorithm(0):
        assert tree_metrics(TreeBatch.from_lists([heads])).flux_weights.tolist() == brute_flux_weights(heads)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(trees(max_size=12, max_roots=3))
def test_row_based_flux_weights_are_maximum_matchings(heads):
    for kernel in KERNELS:
        with algorithm(10**9):
            got = tree_metrics(TreeBatch.from_lists([heads]), kernel=kernel).flux_weights.tolist()
        assert got == brute_flux_weights(heads), kernel


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(trees(max_size=40, max_roots=3), min_size=0, max_size=10))
def test_both_algorithms_equal_the_previous_implementation(forest):
    assert_same_metrics(TreeBatch.from_lists(forest))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(trees(max_size=30, max_roots=4))
def test_projectivity_and_depth_against_brute_force(heads):
    batch = TreeBatch.from_lists([heads])
    for kernel in KERNELS:
        assert bool(tree_metrics(batch, kernel=kernel).projective[0]) is brute_projective(heads), kernel
    assert tree_depths(batch).tolist() == brute_depths(heads)


def brute_arc_projective(heads: list[int]) -> list[bool]:
    """Per word: its head dominates every word strictly between the two (the virtual root 0 dominates all)."""

    def dominated(k: int, h: int) -> bool:
        while k != 0:
            if k == h:
                return True
            k = heads[k - 1]
        return False

    return [h == 0 or all(dominated(k, h) for k in range(min(h, d) + 1, max(h, d))) for d, h in enumerate(heads, 1)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(trees(max_size=30, max_roots=3), min_size=1, max_size=6))
def test_arc_projectivity_against_brute_force(forest):
    batch = TreeBatch.from_lists(forest)
    assert arc_projective(batch).tolist() == [x for heads in forest for x in brute_arc_projective(heads)]
    # a tree with one root is projective exactly when each of its arcs is
    for heads in forest:
        if sum(h == 0 for h in heads) == 1:
            assert all(brute_arc_projective(heads)) is brute_projective(heads)


@pytest.mark.parametrize("name", ["chain", "star", "flat", "comb", "spiral", "rainbow", "random"])
def test_arc_projectivity_of_adversarial_shapes(name):
    heads, _ = _benchmark().shape(name, 400)
    assert arc_projective(TreeBatch.from_lists([heads])).tolist() == brute_arc_projective(heads)


def random_tree(rng, n: int, roots: int = 1) -> list[int]:
    order = rng.permutation(n) + 1
    heads = [0] * n
    for k, word in enumerate(order):
        if k >= roots:
            heads[word - 1] = int(order[rng.integers(0, k)])
    return heads


@pytest.mark.slow
def test_larger_random_trees_equal_the_previous_implementation():
    rng = np.random.default_rng(17)
    forest = [random_tree(rng, int(rng.integers(1, 400)), int(rng.integers(1, 3))) for _ in range(40)]
    assert_same_metrics(TreeBatch.from_lists(forest))


# --- adversarial shapes ----------------------------------------------------------------------------


def _benchmark():
    spec = importlib.util.spec_from_file_location("benchmark_trees", REPO / "benchmarks" / "trees.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SHAPES = ("chain", "star", "flat", "comb", "spiral", "rainbow", "random", "punct_chain")


@pytest.mark.slow
@pytest.mark.parametrize("name", SHAPES)
def test_adversarial_shapes_equal_the_previous_implementation(name):
    shape = _benchmark().shape
    heads, punct = shape(name, 1500)
    assert sum(h == 0 for h in heads) == 1
    assert_same_metrics(TreeBatch.from_lists([heads, shape(name, 7)[0], [0]]))
    stripped = strip_punctuation(TreeBatch.from_lists([heads]), np.asarray(punct))
    assert stripped_rows(stripped) == naive_strip(heads, punct)


def test_rainbow_and_spiral_weights():
    """Independent values: the middle position of a rainbow is crossed by n/2 disjoint arcs; a
    spiral's middle flux is a path of n - 1 edges, whose maximum matching has n/2 edges."""
    for name in ("rainbow", "spiral"):
        heads, _ = _benchmark().shape(name, 200)
        with algorithm(0):
            w = tree_metrics(TreeBatch.from_lists([heads])).flux_weights
        assert int(w[99]) == 100, name


def test_cycle_index_is_the_same_as_before():
    for heads in ([2, 1], [0, 3, 2], [2, 3, 1], [0, 1, 5, 3, 4], [0] + [3, 4, 2] + [1] * 5):
        batch = TreeBatch.from_lists([[0, 1], heads])
        with pytest.raises(NotATreeError) as new:
            tree_metrics(batch)
        with pytest.raises(NotATreeError) as old:
            reference_trees.tree_metrics(batch)
        assert new.value.index == old.value.index
        assert str(new.value) == str(old.value)


# --- punctuation stripping -------------------------------------------------------------------------


def naive_strip(heads: list[int], punct: list[bool]) -> list[tuple[int, int, int, int]]:
    """(dependent, head, dependent_id, head_id) per kept word, by walking up from each word."""
    kept = [i + 1 for i in range(len(heads)) if not punct[i]]
    new = {word: k for k, word in enumerate(kept, 1)}
    out = []
    for word in kept:
        h = heads[word - 1]
        while h and punct[h - 1]:
            h = heads[h - 1]
        out.append((new[word], new[h] if h else 0, word, h))
    return out


def stripped_rows(result) -> list[tuple[int, int, int, int]]:
    return list(
        zip(result.dependent.tolist(), result.head.tolist(), result.dependent_id.tolist(), result.head_id.tolist())
    )


@st.composite
def punctuated(draw, max_size: int = 25):
    heads = draw(trees(max_size=max_size, max_roots=1))
    punct = draw(st.lists(st.booleans(), min_size=len(heads), max_size=len(heads)))
    return heads, punct


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.lists(punctuated(), min_size=1, max_size=6))
def test_strip_punctuation_equals_a_naive_walk(sentences):
    batch = TreeBatch.from_lists([h for h, _ in sentences])
    result = strip_punctuation(batch, np.concatenate([np.asarray(p, bool) for _, p in sentences]))
    expected = [row for h, p in sentences for row in naive_strip(h, p)]
    assert stripped_rows(result) == expected
    assert result.lengths.tolist() == [sum(not x for x in p) for _, p in sentences]
    assert result.keep.tolist() == [not x for _, p in sentences for x in p]
    tree_depths(result.batch())  # still a forest


def test_deep_punctuation_chain():
    n = 100_000  # word 1 root; words 2..n-1 a chain of punctuation; every punct word has a kept child
    heads = [0] + list(range(1, n - 1)) + [n - 1]
    punct = [False] + [True] * (n - 2) + [False]
    result = strip_punctuation(TreeBatch.from_lists([heads]), np.asarray(punct))
    assert stripped_rows(result) == [(1, 0, 1, 0), (2, 1, n, 1)]


def test_punctuation_cycle_raises():
    with pytest.raises(NotATreeError):
        strip_punctuation(TreeBatch.from_lists([[0, 3, 2]]), np.array([False, True, True]))


# --- the loader's edges table ------------------------------------------------------------------------


def conllu(sentences) -> str:
    out = []
    for k, (heads, punct) in enumerate(sentences, 1):
        out.append(f"# sent_id = s{k}")
        for i, (h, p) in enumerate(zip(heads, punct), 1):
            rel = ("punct" if p else "dep") if h else ("punct" if p else "root")
            out.append(f"{i}\tw{i}\tw{i}\tX\t_\t_\t{h}\t{rel}\t_\t_")
        out.append("")
    return "\n".join(out) + "\n"


def edges_of(wh, corpus: str):
    return wh.sql(
        "SELECT position, dependent, head, dependent_id, head_id FROM edges WHERE corpus = $c "
        "ORDER BY position, dependent",
        {"c": corpus},
    ).fetchall()


def nodes_of(wh, corpus: str):
    rows = wh.sql(
        "SELECT position, head, deprel FROM nodes WHERE corpus = $c ORDER BY position, id", {"c": corpus}
    ).fetchnumpy()
    positions = np.asarray(rows["position"], dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, positions[1:] != positions[:-1]]) if len(positions) else np.zeros(0, int)
    lengths = np.diff(np.r_[starts, len(positions)])
    punct = np.array([d.split(":", 1)[0] == "punct" for d in rows["deprel"]], dtype=bool)
    return positions, TreeBatch(np.asarray(rows["head"], dtype=np.int64), lengths), punct


def assert_strip_equals_edges(wh, corpus: str) -> int:
    positions, batch, punct = nodes_of(wh, corpus)
    result = strip_punctuation(batch, punct)
    sentence_of_kept = positions[result.keep]
    got = list(
        zip(
            sentence_of_kept.tolist(),
            *(x.tolist() for x in (result.dependent, result.head, result.dependent_id, result.head_id)),
        )
    )
    assert got == [tuple(r) for r in edges_of(wh, corpus)]
    return len(got)


@pytest.fixture(scope="module")
def loader_wh():
    with evalhouse.connect(":memory:") as wh:
        wh.counter = 0
        yield wh


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(punctuated(max_size=30), min_size=1, max_size=8))
def test_strip_punctuation_equals_the_loaders_edges(loader_wh, tmp_path_factory, sentences):
    loader_wh.counter += 1
    corpus = f"random-{loader_wh.counter}"
    path = tmp_path_factory.mktemp("strip") / f"{corpus}.conllu"
    path.write_text(conllu(sentences), encoding="utf-8")
    loader_wh.ingest_treebank([path], corpus=corpus)
    assert assert_strip_equals_edges(loader_wh, corpus) == sum(sum(not x for x in p) for _, p in sentences)


# --- every real treebank -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_treebanks():
    files = sorted(shared().rglob("*.conllu"))
    if not files:
        pytest.skip(f"REAL DATA MISSING: no *.conllu under {SHARED_DATA}")
    with evalhouse.connect(":memory:") as wh:
        corpora = []
        for f in files:
            name = str(Path(f).relative_to(SHARED_DATA))
            try:
                wh.ingest_treebank([f], corpus=name)
            except InputError:  # some parser outputs are not valid CoNLL-U (empty FEATS): not treebanks
                assert "conll2018" in name and "gold" not in name, name
                continue
            corpora.append(name)
        yield wh, corpora


@pytest.mark.realdata
def test_strip_punctuation_equals_edges_on_every_real_treebank(real_treebanks):
    wh, corpora = real_treebanks
    assert sum(not c.startswith("parsing/") or "/gold/" in c for c in corpora) == 17  # ud, v2.3, gold, sr19
    total = sum(assert_strip_equals_edges(wh, c) for c in corpora)
    assert total == wh.sql("SELECT count(*) FROM edges").fetchone()[0]


@pytest.mark.realdata
def test_tree_metrics_equal_the_previous_implementation_on_every_real_treebank(real_treebanks):
    wh, corpora = real_treebanks
    for corpus in corpora:
        cols = wh.sql(
            "SELECT position, head FROM edges WHERE corpus = $c ORDER BY position, dependent", {"c": corpus}
        ).fetchnumpy()
        positions = np.asarray(cols["position"], dtype=np.int64)
        starts = np.flatnonzero(np.r_[True, positions[1:] != positions[:-1]])
        batch = TreeBatch(np.asarray(cols["head"], dtype=np.int64), np.diff(np.r_[starts, len(positions)]))
        assert_same_metrics(batch)
        stored = wh.sql(
            "SELECT flux_weight_sum, projective FROM sentence_tree_metrics WHERE corpus = $c ORDER BY position",
            {"c": corpus},
        ).fetchall()
        got = tree_metrics(batch)
        assert stored == list(zip(got.flux_weight_sum.tolist(), got.projective.tolist())), corpus


@pytest.mark.skipif(trees_mod._trees is None, reason="the C kernel is not built")
def test_the_kernel_refuses_arrays_that_do_not_describe_the_trees():
    k = trees_mod._trees
    heads, depth = np.array([2, 0, 2], np.int64), np.array([1, 0, 1], np.int64)
    offsets, gaps = np.array([0, 3], np.int64), np.array([0, 2], np.int64)
    weigh, weights, proj = np.ones(1, np.uint8), np.zeros(2, np.int64), np.zeros(1, np.uint8)
    k.tree_metrics(heads, depth, offsets, gaps, weigh, weights, proj)
    assert weights.tolist() == [1, 1] and proj.tolist() == [1]  # 2 heads 1 and 3: each gap crossed once
    bad = [
        (np.array([2, 0, 4], np.int64), depth, offsets, gaps),  # a head out of range
        (heads, np.array([1, 0, 3], np.int64), offsets, gaps),  # a depth out of range
        (heads, depth, np.array([0, 2], np.int64), gaps),  # offsets that lose a word
        (heads, depth, offsets, np.array([0, 1], np.int64)),
    ]  # too few gaps
    for h, d, o, g in bad:
        with pytest.raises(ValueError):
            k.tree_metrics(h, d, o, g, weigh, weights, proj)
    with pytest.raises(TypeError):  # int32 heads
        k.tree_metrics(heads.astype(np.int32), depth, offsets, gaps, weigh, weights, proj)
    with pytest.raises(TypeError):  # float weights, 8 bytes each like int64
        k.tree_metrics(heads, depth, offsets, gaps, weigh, np.zeros(2), proj)


@pytest.mark.skipif(trees_mod._trees is None, reason="the C kernel is not built")
def test_the_kernel_reads_a_copy_of_its_inputs():
    # an output that shares memory with an input (here projective is the first byte of offsets[1]) must
    # not change what the kernel checked: before, tree 1 then grew past its work space (a heap overflow)
    k = trees_mod._trees
    rng = np.random.default_rng(5)
    forest = [random_tree(rng, 300), random_tree(rng, 300)]
    batch = TreeBatch.from_lists(forest)
    depth = tree_depths(batch)
    offsets = np.array([0, 300, 600], np.int64)
    gaps = np.array([0, 299, 598], np.int64)
    weights = np.zeros(598, np.int64)
    aliased = offsets.view(np.uint8)[8:10]  # overwritten with the projectivity of the two trees
    k.tree_metrics(batch.heads, depth, offsets, gaps, np.ones(2, np.uint8), weights, aliased)
    expected = tree_metrics(batch, kernel=False)
    assert weights.tolist() == expected.flux_weights.tolist()
    assert aliased.tolist() == expected.projective.astype(np.uint8).tolist()
