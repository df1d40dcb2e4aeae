"""analysis/trees.py against hand-made trees and independent brute-force references (hypothesis).

A tree is a list of heads: ``heads[i]`` is the head of word ``i + 1``, 0 for a root.
The references below are deliberately naive (all pairs of edges, all subsets of a flux) so that
they share nothing with the numpy implementation.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalhouse.analysis.trees import (
    NotATreeError,
    TreeBatch,
    flux_sizes,
    flux_weights,
    is_projective,
    mean_flux_weight,
    tree_depths,
    tree_metrics,
)

FIGURE1 = [2, 0, 4, 2, 8, 8, 8, 4]


# --- strategies ------------------------------------------------------------------------------


@st.composite
def trees(draw, min_size: int = 1, max_size: int = 25, max_roots: int = 1) -> list[int]:
    """A random dependency tree (or, with max_roots > 1, a forest under the virtual root 0).

    Words are attached in a random order, each to a random word attached before it, so every
    rooted tree on n labelled words can come out.
    """
    n = draw(st.integers(min_size, max_size))
    order = draw(st.permutations(range(1, n + 1)))
    roots = draw(st.integers(1, min(max_roots, n)))
    heads = [0] * n
    for k, word in enumerate(order):
        if k >= roots:
            heads[word - 1] = order[draw(st.integers(0, k - 1))]
    return heads


# --- independent references ------------------------------------------------------------------


def arcs(heads: list[int]) -> list[tuple[int, int]]:
    """Edges as (left end, right end) in surface positions; root arcs excluded."""
    return [(min(d, h), max(d, h)) for d, h in enumerate(heads, 1) if h]


def brute_depths(heads: list[int]) -> list[int]:
    out = []
    for d in range(1, len(heads) + 1):
        k, h = 0, heads[d - 1]
        while h:
            k, h = k + 1, heads[h - 1]
        out.append(k)
    return out


def brute_projective(heads: list[int]) -> bool:
    """Non-projective iff two edges cross, or an edge strictly covers a root (the virtual root's arc)."""
    edges = arcs(heads)
    for (a, b), (c, d) in itertools.combinations(edges, 2):
        if a < c < b < d or c < a < d < b:
            return False
    roots = [d for d, h in enumerate(heads, 1) if h == 0]
    return not any(a < r < b for a, b in edges for r in roots)


def flux(heads: list[int], i: int) -> list[tuple[int, int]]:
    """Edges crossing the inter-word position (i, i + 1)."""
    return [(a, b) for a, b in arcs(heads) if a <= i < b]


def brute_flux_weights(heads: list[int]) -> list[int]:
    """Largest pairwise vertex-disjoint subset of each flux, by trying every subset (largest first)."""
    out = []
    for i in range(1, len(heads)):
        edges = flux(heads, i)
        best = 0
        for k in range(len(edges), 0, -1):
            if any(len({v for e in subset for v in e}) == 2 * k for subset in itertools.combinations(edges, k)):
                best = k
                break
        out.append(best)
    return out


def greedy_surface_flux_weights(heads: list[int]) -> list[int]:
    """The naive pick: walk the flux in surface order, keep an edge when it touches no kept edge."""
    out = []
    for i in range(1, len(heads)):
        used: set[int] = set()
        kept = 0
        for a, b in sorted(flux(heads, i)):
            if a not in used and b not in used:
                used |= {a, b}
                kept += 1
        out.append(kept)
    return out


# --- hand-made trees -------------------------------------------------------------------------


def test_figure1():
    assert flux_sizes(FIGURE1) == [1, 1, 2, 1, 2, 3, 4]
    assert flux_weights(FIGURE1) == [1] * 7
    assert mean_flux_weight(FIGURE1) == 1.0
    assert is_projective(FIGURE1) is True
    assert tree_depths(TreeBatch.from_lists([FIGURE1])).tolist() == [1, 0, 2, 1, 3, 3, 3, 2]


def test_one_word_tree():
    assert flux_sizes([0]) == []
    assert flux_weights([0]) == []
    assert mean_flux_weight([0]) == 0.0
    assert is_projective([0]) is True
    m = tree_metrics(TreeBatch.from_lists([[0]]))
    assert m.flux_weight_sum.tolist() == [0]
    assert m.projective.tolist() == [True]
    assert m.gap_offsets.tolist() == [0, 0]


def test_null_and_empty_inputs():
    for fn in (flux_sizes, flux_weights, mean_flux_weight, is_projective):
        assert fn(None) is None
    assert is_projective([]) is None
    m = tree_metrics(TreeBatch.from_lists([]))
    assert len(m.flux_weight_sum) == len(m.projective) == len(m.flux_weights) == 0


def test_non_projective_examples():
    # sample-003 stripped: "A man came in who was wearing a hat": acl:relcl 2 -> 7 covers the root 3
    assert is_projective([2, 3, 0, 3, 7, 7, 2, 9, 7]) is False
    # two crossing edges, the root not covered: 1 -> 3 and 2 -> 4 cross
    assert is_projective([0, 1, 1, 2]) is False
    # nested edges only
    assert is_projective([0, 3, 1, 3]) is True
    # a forest (punctuation root stripped): roots 1 and 3, the edge 2 -> 4 covers root 3
    assert is_projective([0, 4, 0, 3]) is False
    assert is_projective([0, 1, 0, 3]) is True


def test_maximum_matching_beats_surface_greedy():
    """ "Eat the cake today": Eat(1) -obj-> cake(3), Eat(1) -obl:tmod-> today(4), cake(3) -det-> the(2).

    The flux of the position the|cake is {(1, 3), (1, 4), (2, 3)}.  Walking it in surface order
    keeps (1, 3) first, which touches both other edges: weight 1.  But (1, 4) and (2, 3) share no
    word, so the flux weight (largest disjoint subset) is 2.
    """
    heads = [0, 3, 1, 1]
    assert sorted(flux(heads, 2)) == [(1, 3), (1, 4), (2, 3)]
    assert greedy_surface_flux_weights(heads) == [1, 1, 1]
    assert brute_flux_weights(heads) == [1, 2, 1]
    assert flux_weights(heads) == [1, 2, 1]
    assert flux_sizes(heads) == [2, 3, 1]
    assert mean_flux_weight(heads) == pytest.approx(4 / 3)


def test_chain_and_rainbow_flux_weights():
    # a chain 1 -> 2 -> 3 -> 4 -> 5: every flux is one edge
    assert flux_weights([0, 1, 2, 3, 4]) == [1, 1, 1, 1]
    # a star: every flux is edges sharing the root, weight 1 whatever its size
    assert flux_sizes([0, 1, 1, 1, 1]) == [4, 3, 2, 1]
    assert flux_weights([0, 1, 1, 1, 1]) == [1, 1, 1, 1]
    # a rainbow 1-6, 2-5, 3-4 (linked by 6-5 and 5-4): three disjoint edges cross position 3
    heads = [0, 5, 4, 5, 6, 1]
    assert sorted(flux(heads, 3)) == [(1, 6), (2, 5), (3, 4)]
    assert flux_weights(heads) == brute_flux_weights(heads) == [1, 2, 3, 2, 1]


@pytest.mark.parametrize("heads", [[2, 1], [0, 3, 2], [2, 3, 1], [0, 1, 5, 3, 4]])
def test_cycle_raises(heads):
    with pytest.raises(NotATreeError) as err:
        tree_metrics(TreeBatch.from_lists([heads]))
    on_cycle = err.value.index
    # the reported word is on (or leads into) the cycle: walking up from it never reaches 0
    seen, h = set(), on_cycle + 1
    while h and h not in seen:
        seen.add(h)
        h = heads[h - 1]
    assert h != 0
    with pytest.raises(NotATreeError):
        tree_depths(TreeBatch.from_lists([heads]))
    with pytest.raises(NotATreeError):
        flux_weights(heads)
    with pytest.raises(NotATreeError):
        is_projective(heads)


def test_cycle_index_is_flat_in_a_batch():
    batch = TreeBatch.from_lists([[0, 1], FIGURE1, [0, 3, 2]])
    with pytest.raises(NotATreeError) as err:
        tree_metrics(batch)
    assert err.value.index in (2 + 8 + 1, 2 + 8 + 2)


@pytest.mark.parametrize("heads", [[0, 3], [0, -1], [5, 0, 1]])
def test_head_out_of_range_raises(heads):
    with pytest.raises(NotATreeError):
        tree_metrics(TreeBatch.from_lists([heads]))


def test_heads_and_lengths_must_agree():
    with pytest.raises(ValueError):
        tree_metrics(TreeBatch(np.array([0, 1, 0]), np.array([2, 2])))


# --- properties --------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(trees())
def test_mean_flux_size_equals_mean_dependency_distance(heads):
    n = len(heads)
    sizes = flux_sizes(heads)
    distances = [b - a for a, b in arcs(heads)]
    assert len(sizes) == n - 1 == len(distances)
    assert sum(sizes) == sum(distances)
    if n > 1:
        assert sum(sizes) / (n - 1) == sum(distances) / len(distances)
    # and each size is the flux's cardinality
    assert sizes == [len(flux(heads, i)) for i in range(1, n)]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(trees())
def test_depth_is_less_than_length(heads):
    depths = tree_depths(TreeBatch.from_lists([heads])).tolist()
    assert depths == brute_depths(heads)
    assert max(depths) < len(heads)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(trees())
def test_projectivity_matches_brute_force(heads):
    assert is_projective(heads) is brute_projective(heads)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(trees(max_roots=4))
def test_projectivity_of_forests_matches_brute_force(heads):
    """After a punctuation root is stripped the tree is a forest under the virtual root 0."""
    assert is_projective(heads) is brute_projective(heads)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(trees(max_size=12))
def test_flux_weight_is_a_maximum_matching(heads):
    expected = brute_flux_weights(heads)
    assert flux_weights(heads) == expected
    m = tree_metrics(TreeBatch.from_lists([heads]))
    assert int(m.flux_weight_sum[0]) == sum(expected)
    # a weight never exceeds the size, and is at least 1 where the flux is not empty
    for w, s in zip(expected, flux_sizes(heads)):
        assert 1 <= w <= s


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(trees(max_size=12, max_roots=3))
def test_flux_weight_of_forests_is_a_maximum_matching(heads):
    assert flux_weights(heads) == brute_flux_weights(heads)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(trees(max_size=15, max_roots=2), min_size=0, max_size=12))
def test_batch_equals_one_tree_at_a_time(forest):
    batch = tree_metrics(TreeBatch.from_lists(forest))
    depths = tree_depths(TreeBatch.from_lists(forest))
    assert batch.gap_offsets.tolist() == list(itertools.accumulate((max(len(t) - 1, 0) for t in forest), initial=0))
    word = 0
    for t, heads in enumerate(forest):
        one = tree_metrics(TreeBatch.from_lists([heads]))
        lo, hi = batch.gap_offsets[t], batch.gap_offsets[t + 1]
        assert batch.flux_weights[lo:hi].tolist() == one.flux_weights.tolist() == flux_weights(heads)
        assert batch.flux_sizes[lo:hi].tolist() == one.flux_sizes.tolist() == flux_sizes(heads)
        assert int(batch.flux_weight_sum[t]) == int(one.flux_weight_sum[0])
        assert bool(batch.projective[t]) == bool(one.projective[0]) == is_projective(heads)
        assert depths[word : word + len(heads)].tolist() == tree_depths(TreeBatch.from_lists([heads])).tolist()
        word += len(heads)
    assert word == len(depths)
