"""Tree metrics that SQL cannot express well: flux weight (a maximum matching) and projectivity.

Used by ``evalhouse ingest treebank`` (materialised into ``sentence_tree_metrics``) and
registered as SQL functions on every evalhouse connection::

    $ evalhouse sql "select flux_weights([2, 0, 4, 2, 8, 8, 8, 4]) as w,
                            mean_flux_weight([2, 0, 4, 2, 8, 8, 8, 4]) as mfw,
                            is_projective([2, 0, 4, 2, 8, 8, 8, 4]) as proj"
    w                      mfw  proj
    [1, 1, 1, 1, 1, 1, 1]  1.0  True

A tree is given as its list of heads: ``heads[i]`` is the head of word ``i + 1`` (0 for a root),
words numbered in surface order -- for the stripped reference tree that is
``list(head order by dependent)`` over ``edges``.

Definitions (Shimorina, Parmentier & Gardent 2021, Table 1 and section 3.1; Kahane et al. 2017):

* The flux of the inter-word position (i, i+1) is the set of edges (h, d) with
  min(h, d) <= i < max(h, d).  Its size is its cardinality (SQL computes that:
  the sum of flux sizes equals the sum of dependency lengths, so mean flux size equals the
  mean dependency distance).
* Its weight is the size of the largest set of pairwise vertex-disjoint edges in the flux:
  a *maximum matching* of the flux graph, not a greedy pick.  The flux graph is a sub-forest of
  the tree, so the classic bottom-up greedy is exact: visiting vertices deepest first, match a
  vertex with its parent when both are still free.  We run that greedy for every position of
  every sentence at once, one tree level at a time (all siblings of one level are independent;
  at most one of them can take their common parent), so the cost is a few numpy passes over
  the sum of dependency lengths instead of a Python loop per position.
* A tree is projective when every edge's head dominates every word between head and
  dependent; equivalently every subtree covers a contiguous span of words (we test that:
  ``max - min + 1 == size`` for every node's yield).  With several roots (possible only after
  stripping a punctuation root) the virtual root 0 dominates everything, so the same test holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class NotATreeError(ValueError):
    """The heads do not form a forest rooted at 0 (a cycle or a head out of range).

    ``index`` is the flat index (into the batch's heads) of a word on the faulty path.
    """

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


@dataclass(frozen=True)
class TreeBatch:
    """Many trees in flat arrays: ``heads`` concatenated, ``lengths`` words per tree."""

    heads: np.ndarray
    lengths: np.ndarray

    @classmethod
    def from_lists(cls, trees: list[list[int]]) -> "TreeBatch":
        lengths = np.fromiter((len(t) for t in trees), dtype=np.int64, count=len(trees))
        flat = [h for t in trees for h in t]
        return cls(np.asarray(flat, dtype=np.int64), lengths)


@dataclass(frozen=True)
class TreeMetrics:
    """Per-tree results of :func:`tree_metrics` (arrays aligned with the batch's trees)."""

    flux_weight_sum: np.ndarray  # sum of flux weights over the tree's n - 1 positions
    projective: np.ndarray  # bool
    flux_weights: np.ndarray  # flat, n_i - 1 values per tree, in surface order
    flux_sizes: np.ndarray  # flat, aligned with flux_weights
    gap_offsets: np.ndarray  # tree t's positions are flux_*[gap_offsets[t]:gap_offsets[t+1]]


def _structure(batch: TreeBatch):
    heads = np.asarray(batch.heads, dtype=np.int64)
    lengths = np.asarray(batch.lengths, dtype=np.int64)
    n_total = int(lengths.sum())
    if heads.shape != (n_total,):
        raise ValueError(f"{heads.shape[0]} heads for trees of total length {n_total}")
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    tree_of = np.repeat(np.arange(len(lengths)), lengths)
    position = np.arange(n_total) - offsets[tree_of] + 1  # 1-based word position
    if n_total and (heads.min() < 0 or np.any(heads > lengths[tree_of])):
        bad = int(np.flatnonzero((heads < 0) | (heads > lengths[tree_of]))[0])
        raise NotATreeError(f"tree {int(tree_of[bad])}: head {int(heads[bad])} out of range", bad)
    parent = np.where(heads > 0, offsets[tree_of] + heads - 1, -1)
    depth = np.zeros(n_total, dtype=np.int64)
    cursor = parent.copy()
    limit = int(lengths.max()) if len(lengths) else 0
    steps = 0
    while True:
        alive = cursor >= 0
        if not alive.any():
            break
        steps += 1
        if steps > limit:
            bad = int(np.flatnonzero(alive)[0])
            raise NotATreeError(f"tree {int(tree_of[bad])}: cycle through word {int(position[bad])}", bad)
        depth[alive] += 1
        cursor[alive] = parent[cursor[alive]]
    return heads, lengths, offsets, tree_of, position, parent, depth


def tree_depths(batch: TreeBatch) -> np.ndarray:
    """Depth of every word (root = 0), flat; raises :class:`NotATreeError` on a cycle."""
    return _structure(batch)[-1]


def tree_metrics(batch: TreeBatch) -> TreeMetrics:
    """Flux weights, flux sizes and projectivity of every tree of ``batch``."""
    heads, lengths, offsets, tree_of, position, parent, depth = _structure(batch)
    n_total = len(heads)
    n_trees = len(lengths)
    gaps_per_tree = np.maximum(lengths - 1, 0)
    gap_offsets = np.zeros(n_trees + 1, dtype=np.int64)
    np.cumsum(gaps_per_tree, out=gap_offsets[1:])
    n_gaps = int(gap_offsets[-1])

    # --- flux membership: one row per (edge, inter-word position it crosses) -------------
    child = np.flatnonzero(parent >= 0)
    par = parent[child]
    lo = np.minimum(position[child], position[par])
    hi = np.maximum(position[child], position[par])
    span = hi - lo
    row_edge = np.repeat(np.arange(len(child)), span)
    row_start = np.repeat(np.cumsum(span) - span, span)
    row_gap = gap_offsets[tree_of[child]][row_edge] + lo[row_edge] - 1 + (np.arange(len(row_edge)) - row_start)
    row_child = child[row_edge]
    row_parent = par[row_edge]
    flux_sizes = np.bincount(row_gap, minlength=n_gaps).astype(np.int64)

    # --- flux weight: level-synchronous bottom-up greedy matching ------------------------
    flux_weights = np.zeros(n_gaps, dtype=np.int64)
    row_depth = depth[row_child]
    order = np.argsort(-row_depth, kind="stable")
    row_gap, row_child, row_parent, row_depth = (
        row_gap[order], row_child[order], row_parent[order], row_depth[order])
    level_bounds = np.flatnonzero(np.diff(row_depth)) + 1
    taken_parents = np.empty(0, dtype=np.int64)  # keys gap * n_total + node matched one level below
    for rows in np.split(np.arange(len(row_depth)), level_bounds):
        if not len(rows):
            continue
        child_keys = row_gap[rows] * n_total + row_child[rows]
        free = ~np.isin(child_keys, taken_parents, assume_unique=False)
        parent_keys = np.unique(row_gap[rows][free] * n_total + row_parent[rows][free])
        if len(parent_keys):
            np.add.at(flux_weights, parent_keys // n_total, 1)
        taken_parents = parent_keys

    flux_weight_sum = np.add.reduceat(np.append(flux_weights, 0), gap_offsets[:-1]) if n_trees else np.zeros(0, np.int64)
    flux_weight_sum = np.where(gaps_per_tree > 0, flux_weight_sum, 0)

    # --- projectivity: every node's yield is a contiguous span ---------------------------
    span_lo = position.copy()
    span_hi = position.copy()
    size = np.ones(n_total, dtype=np.int64)
    by_depth = np.argsort(-depth, kind="stable")
    node_bounds = np.flatnonzero(np.diff(depth[by_depth])) + 1
    for nodes in np.split(by_depth, node_bounds):
        nodes = nodes[parent[nodes] >= 0]
        if not len(nodes):
            continue
        np.minimum.at(span_lo, parent[nodes], span_lo[nodes])
        np.maximum.at(span_hi, parent[nodes], span_hi[nodes])
        np.add.at(size, parent[nodes], size[nodes])
    gappy = (span_hi - span_lo + 1) != size
    projective = np.bincount(tree_of[gappy], minlength=n_trees) == 0
    return TreeMetrics(flux_weight_sum.astype(np.int64), projective, flux_weights, flux_sizes, gap_offsets)


# --- scalar helpers, registered as SQL functions (see analysis/udfs.py) -------------------

def _one(heads: list[int] | None) -> TreeMetrics | None:
    if heads is None:
        return None
    return tree_metrics(TreeBatch.from_lists([list(heads)]))


def flux_weights(heads: list[int] | None) -> list[int] | None:
    """Flux weight of each inter-word position of one tree, in surface order."""
    m = _one(heads)
    return None if m is None else m.flux_weights.tolist()


def flux_sizes(heads: list[int] | None) -> list[int] | None:
    """Flux size of each inter-word position of one tree, in surface order."""
    m = _one(heads)
    return None if m is None else m.flux_sizes.tolist()


def mean_flux_weight(heads: list[int] | None) -> float | None:
    """Mean flux weight of one tree; 0 for a one-word tree (no inter-word position)."""
    m = _one(heads)
    if m is None:
        return None
    gaps = len(heads) - 1
    return float(m.flux_weight_sum[0]) / gaps if gaps > 0 else 0.0


def is_projective(heads: list[int] | None) -> bool | None:
    """True when every edge's head dominates every word between head and dependent."""
    m = _one(heads)
    return None if m is None or not len(heads) else bool(m.projective[0])
