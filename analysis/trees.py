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
  min(h, d) <= i < max(h, d).  Its size is its cardinality (the sum of flux sizes equals the sum of
  dependency lengths, so mean flux size equals the mean dependency distance).
* Its weight is the size of the largest set of pairwise vertex-disjoint edges in the flux:
  a *maximum matching* of the flux graph, not a greedy pick.  The flux graph is a sub-forest of
  the tree, so the classic bottom-up greedy is exact: a vertex is matched to one of its flux
  children iff some flux child is not matched below, ``f(v) = OR over flux children c of not f(c)``,
  and the weight is the number of vertices with ``f(v) = 1``.
* A tree is projective when every edge's head dominates every word between head and
  dependent; equivalently no two arcs cross when each root r also gets the arc (0, r) of the
  virtual root (so a forest left by stripping a punctuation root is handled too).

Cost (every function here is linear or n log n in sentence length, none builds an n x n
structure; ``benchmarks/trees.py`` measures time and peak memory on adversarial shapes):

* depths: pointer jumping (each word's ancestor 1, 2, 4, ... levels up), O(n log depth) in a few
  numpy passes; a word still not at a root after log2(n) + 1 rounds is on or under a cycle;
* flux sizes: a difference array over positions, O(n);
* projectivity: the arcs as parentheses in surface order (at one position closings first, inner
  closings and outer openings first); they nest iff the standard bracket matching -- consecutive
  events per nesting level -- pairs every opening with its own closing; O(n log n) (one sort);
* flux weights, two exact algorithms chosen per tree by the sum D of its dependency lengths:
  - D <= ``SWEEP_FACTOR`` x n (every real sentence): one row per (edge, position it crosses), at
    most ``SWEEP_FACTOR`` x n rows, processed in chunks of at most ``ROW_BUDGET`` rows; ``f`` is
    evaluated leaves first (Kahn's order on the flux forests), so the number of numpy rounds is the
    height of the tallest flux forest, not the depth of the tree;
  - otherwise (flat and other long-arc trees) a sweep over positions: moving from position i - 1
    to i removes the edges that end at word i and adds those that start there (2 n updates in
    all), and the number of matched vertices is maintained under each update with a heavy-path
    decomposition of the tree, one segment tree per heavy path composing the per-vertex maps
    ``x -> f(v)`` (constant 0, constant 1 or "not x" of the heavy child), O(log^2 n) per update.
* punctuation stripping (:func:`strip_punctuation`): pointer jumping over punctuation words only,
  O(n log c) for punctuation chains of length c.

When the C module ``_trees`` is built (pip builds it where a C compiler is), projectivity and the
row-based flux weights are computed tree by tree there (``analysis/_trees.c``): the same definitions
with counting sorts and a stack, O(n + D) per tree, about ten times faster than the numpy code at a
million words. The numpy code stays the definition, the fallback, and what the tests compare the
kernel with (``tree_metrics(batch, kernel=False)``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

try:  # the same values tree by tree in C (analysis/_trees.c says why); None when not built
    from evalhouse.analysis import _trees
except ImportError:
    _trees = None

# Trees whose dependency lengths sum to more than SWEEP_FACTOR x length go to the sweep.
SWEEP_FACTOR = 32
# Rows (edge x crossed position) per chunk of the row-based flux weights: about 100 bytes each.
ROW_BUDGET = 1 << 20


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


@dataclass(frozen=True)
class _Structure:
    heads: np.ndarray
    lengths: np.ndarray
    offsets: np.ndarray  # tree t's words are [offsets[t], offsets[t + 1])
    tree_of: np.ndarray
    position: np.ndarray  # 1-based word position in its tree
    parent: np.ndarray  # flat index of the head, -1 for a root


def _validate(batch: TreeBatch) -> _Structure:
    heads = np.asarray(batch.heads, dtype=np.int64)
    lengths = np.asarray(batch.lengths, dtype=np.int64)
    n_total = int(lengths.sum())
    if heads.shape != (n_total,):
        raise ValueError(f"{heads.shape[0]} heads for trees of total length {n_total}")
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    tree_of = np.repeat(np.arange(len(lengths)), lengths)
    position = np.arange(n_total) - offsets[tree_of] + 1
    if n_total and (heads.min() < 0 or np.any(heads > lengths[tree_of])):
        bad = int(np.flatnonzero((heads < 0) | (heads > lengths[tree_of]))[0])
        raise NotATreeError(f"tree {int(tree_of[bad])}: head {int(heads[bad])} out of range", bad)
    parent = np.where(heads > 0, offsets[tree_of] + heads - 1, -1)
    return _Structure(heads, lengths, offsets, tree_of, position, parent)


def _depths(s: _Structure) -> np.ndarray:
    """Depth of every word by pointer jumping; NotATreeError names the first word not under a root."""
    depth = (s.parent >= 0).astype(np.int64)  # distance to anc (the root's depth once anc is -1)
    anc = s.parent.copy()
    limit = int(s.lengths.max()) if len(s.lengths) else 0
    rounds = 0
    alive = np.flatnonzero(anc >= 0)
    while len(alive):
        if (1 << rounds) > limit:  # every chain of <= limit words has resolved by now
            bad = int(alive.min())
            raise NotATreeError(f"tree {int(s.tree_of[bad])}: cycle through word {int(s.position[bad])}", bad)
        a = anc[alive]
        depth[alive] += depth[a]
        anc[alive] = anc[a]
        alive = alive[anc[alive] >= 0]
        rounds += 1
    return depth


def tree_depths(batch: TreeBatch) -> np.ndarray:
    """Depth of every word (root = 0), flat; raises :class:`NotATreeError` on a cycle."""
    return _depths(_validate(batch))


def arc_projective(batch: TreeBatch) -> np.ndarray:
    """Whether each word's arc is projective: its head dominates every word strictly between the two
    (Nivre's definition; MaltEval's grouping "ArcProjectivity"). A root's arc, from the virtual root 0,
    is projective (the virtual root dominates every word). A tree is projective iff all its arcs are.

    O(n log n) in numpy, no n x n structure: preorder numbers ``tin`` and subtree sizes (children in
    surface order), so that k descends from h iff tin[h] <= tin[k] < tin[h] + size[h]; the minimum and
    maximum ``tin`` over the words between head and dependent come from sparse tables (range min/max
    queries). The loops over depth levels make a chain of n words cost n small numpy steps."""
    s = _validate(batch)
    depth = _depths(s)
    n = len(s.heads)
    out = np.ones(n, dtype=bool)
    if n == 0:
        return out
    order = np.argsort(depth, kind="stable")
    levels = np.split(order, np.flatnonzero(np.diff(depth[order])) + 1)
    size = np.ones(n, dtype=np.int64)
    for level in reversed(levels[1:]):  # children before their heads
        np.add.at(size, s.parent[level], size[level])
    # siblings (the roots of a tree count as the virtual root's children) in surface order
    key = np.where(s.parent >= 0, s.parent, -1 - s.tree_of)
    siblings = np.argsort(key, kind="stable")
    sizes = size[siblings]
    before = np.cumsum(sizes) - sizes
    first = np.r_[True, key[siblings][1:] != key[siblings][:-1]]
    offset = np.empty(n, dtype=np.int64)
    offset[siblings] = before - np.maximum.accumulate(np.where(first, before, 0))
    tin = np.empty(n, dtype=np.int64)
    tin[levels[0]] = s.offsets[s.tree_of[levels[0]]] + offset[levels[0]]
    for level in levels[1:]:
        tin[level] = tin[s.parent[level]] + 1 + offset[level]
    child, lo, hi = _arcs(s)
    between = hi - lo - 1
    inner = between > 0
    child, between = child[inner], between[inner]
    if not len(child):
        return out
    a = s.offsets[s.tree_of[child]] + lo[inner]  # flat index of the first word between
    k = np.floor(np.log2(between)).astype(np.int64)
    low, high = np.empty(len(child), dtype=np.int64), np.empty(len(child), dtype=np.int64)
    mins, maxs = tin, tin
    for j in range(int(k.max()) + 1):
        if j:
            half = 1 << (j - 1)
            mins = np.minimum(mins[:-half], mins[half:])
            maxs = np.maximum(maxs[:-half], maxs[half:])
        at = np.flatnonzero(k == j)
        if len(at):
            x, y = a[at], a[at] + between[at] - (1 << j)
            low[at] = np.minimum(mins[x], mins[y])
            high[at] = np.maximum(maxs[x], maxs[y])
    h = s.parent[child]
    out[child] = (low >= tin[h]) & (high < tin[h] + size[h])
    return out


def _arcs(s: _Structure):
    child = np.flatnonzero(s.parent >= 0)
    lo = np.minimum(s.position[child], s.position[s.parent[child]])
    hi = np.maximum(s.position[child], s.position[s.parent[child]])
    return child, lo, hi


def _flux_sizes(s: _Structure, lo, hi, child, gap_offsets, n_gaps) -> np.ndarray:
    """Difference array: an arc (lo, hi) crosses positions lo .. hi - 1 of its tree."""
    base = gap_offsets[s.tree_of[child]] - 1
    delta = np.zeros(n_gaps + 1, dtype=np.int64)
    np.add.at(delta, base + lo, 1)
    np.add.at(delta, base + hi, -1)
    return np.cumsum(delta[:-1])


def _projective(s: _Structure, lo, hi, child) -> np.ndarray:
    """No two arcs cross, the root arcs (0, r) included: bracket matching after one sort."""
    n_trees = len(s.lengths)
    roots = np.flatnonzero(s.parent < 0)
    a = np.concatenate([lo, np.zeros(len(roots), np.int64)])
    b = np.concatenate([hi, s.position[roots]])
    owner = np.concatenate([s.tree_of[child], s.tree_of[roots]])
    m = len(a)
    if m == 0:
        return np.ones(n_trees, dtype=bool)
    base = s.offsets[owner] + owner  # tree t's positions 0..n_t map to base + 0..n_t, disjoint
    # events: (coordinate, kind 0 = close / 1 = open, tie-break) -- at one position closings come
    # first; among closings the later start (inner arc) first, among openings the later end (outer)
    coord = np.concatenate([base + b, base + a])
    kind = np.concatenate([np.zeros(m, np.int64), np.ones(m, np.int64)])
    tie = np.concatenate([-a, -b])
    arc = np.concatenate([np.arange(m), np.arange(m)])
    order = np.lexsort((tie, kind, coord))
    step = np.where(kind[order] == 1, 1, -1)
    depth_after = np.cumsum(step)
    level = np.where(step == 1, depth_after, depth_after + 1)
    by_level = order[np.lexsort((np.arange(2 * m), level))]
    first, second = by_level[0::2], by_level[1::2]
    bad_arcs = arc[first][(arc[first] != arc[second]) | (kind[first] != 1)]
    projective = np.ones(n_trees, dtype=bool)
    projective[owner[bad_arcs]] = False
    return projective


def _flux_weights_rows(s: _Structure, child, lo, hi, gap_offsets, weights, trees) -> None:
    """Row-based flux weights of ``trees`` (sorted tree indices), written into ``weights``."""
    if not len(trees):
        return
    in_set = np.zeros(len(s.lengths), dtype=bool)
    in_set[trees] = True
    sel = in_set[s.tree_of[child]]
    child, lo, hi = child[sel], lo[sel], hi[sel]
    span = hi - lo
    cost = np.bincount(s.tree_of[child], weights=span, minlength=len(s.lengths)).astype(np.int64)
    # chunks of consecutive trees with at most ROW_BUDGET rows (a bigger tree is a chunk by itself)
    edge_cum = np.cumsum(cost[trees])
    start = 0
    while start < len(trees):
        done = edge_cum[start - 1] if start else 0
        stop = int(np.searchsorted(edge_cum, done + ROW_BUDGET, side="right"))
        stop = max(stop, start + 1)
        t0, t1 = int(trees[start]), int(trees[stop - 1]) + 1
        chunk = (s.tree_of[child] >= t0) & (s.tree_of[child] < t1)
        _rows_chunk(s, child[chunk], lo[chunk], hi[chunk], gap_offsets, weights)
        start = stop


def _rows_chunk(s: _Structure, child, lo, hi, gap_offsets, weights) -> None:
    if not len(child):
        return
    par = s.parent[child]
    span = hi - lo
    n_rows = int(span.sum())
    row_edge = np.repeat(np.arange(len(child)), span)
    row_start = np.repeat(np.cumsum(span) - span, span)
    row_gap = gap_offsets[s.tree_of[child]][row_edge] + lo[row_edge] - 1 + (np.arange(n_rows) - row_start)
    del row_start
    n_total = len(s.parent)
    # one id per (gap, vertex) of the flux forests; a vertex has at most one row as a child
    keys = np.concatenate([row_gap * n_total + child[row_edge], row_gap * n_total + par[row_edge]])
    del row_edge
    uniq, inverse = np.unique(keys, return_inverse=True)
    del keys
    cid, pid = inverse[:n_rows], inverse[n_rows:]
    m = len(uniq)
    gap_of_node = uniq // n_total
    del uniq, inverse
    remaining = np.bincount(pid, minlength=m)
    row_of = np.full(m, -1, dtype=np.int64)
    row_of[cid] = np.arange(n_rows)
    f = np.zeros(m, dtype=bool)
    free_child = np.zeros(m, dtype=bool)
    frontier = np.flatnonzero(remaining == 0)  # flux leaves: f = 0
    while len(frontier):
        rows = row_of[frontier]
        rows = rows[rows >= 0]
        if not len(rows):
            break
        parents = pid[rows]
        free_child[parents[~f[cid[rows]]]] = True
        touched, count = np.unique(parents, return_counts=True)
        remaining[touched] -= count
        frontier = touched[remaining[touched] == 0]
        f[frontier] = free_child[frontier]
    np.add.at(weights, gap_of_node[f], 1)


def _flux_weights_sweep(parent: np.ndarray, depth: np.ndarray) -> np.ndarray:
    """Flux weights of one tree (``parent``: 0-based, -1 for a root) by a sweep over positions with a
    heavy-path decomposition (module docstring).  O(n log^2 n) time, O(n) memory."""
    n = len(parent)
    if n < 2:
        return np.zeros(0, dtype=np.int64)
    par = parent.tolist()
    order = np.argsort(-depth, kind="stable").tolist()  # deepest first
    size = [1] * n
    heavy = [-1] * n
    for v in order:
        p = par[v]
        if p >= 0:
            size[p] += size[v]
    for v in order:
        p = par[v]
        if p >= 0 and (heavy[p] < 0 or size[v] > size[heavy[p]]):
            heavy[p] = v
    # heavy paths, top to bottom; leaf index of a vertex counts from the bottom of its path
    path_of = [0] * n
    leaf_of = [0] * n
    path_head, path_base, path_size = [], [], []
    total_slots = 0
    for v in reversed(order):  # shallowest first, so path heads come before their paths
        p = par[v]
        if p >= 0 and heavy[p] == v:
            continue
        chain = []
        u = v
        while u >= 0:
            chain.append(u)
            u = heavy[u]
        k = len(path_head)
        length = len(chain)
        width = 1 << (length - 1).bit_length()
        for i, u in enumerate(chain):
            path_of[u] = k
            leaf_of[u] = length - 1 - i
        path_head.append(v)
        path_base.append(total_slots)
        path_size.append(width)
        total_slots += 2 * width
    # segment tree nodes: for input x in {0, 1} of the bottom vertex's heavy child, the output f at
    # the top of the segment and the number of f = 1 vertices inside it; padding = identity
    out0 = [0] * total_slots
    out1 = [1] * total_slots
    cnt0 = [0] * total_slots
    cnt1 = [0] * total_slots
    for v in range(n):  # no edge is in the flux yet: every vertex is the constant 0
        j = path_base[path_of[v]] + path_size[path_of[v]] + leaf_of[v]
        out1[j] = 0
    for k in range(len(path_head)):
        base = path_base[k]
        for i in range(path_size[k] - 1, 0, -1):
            j, lo_, hi_ = base + i, base + 2 * i, base + 2 * i + 1
            m0, m1 = out0[lo_], out1[lo_]
            out0[j] = out1[hi_] if m0 else out0[hi_]
            cnt0[j] = cnt0[lo_] + (cnt1[hi_] if m0 else cnt0[hi_])
            out1[j] = out1[hi_] if m1 else out0[hi_]
            cnt1[j] = cnt1[lo_] + (cnt1[hi_] if m1 else cnt0[hi_])
    zero_light = [0] * n  # active light children with f = 0
    heavy_on = [False] * n
    active = [False] * n  # the edge from v to its head is in the current flux
    path_top = [0] * len(path_head)  # f of the path's head vertex
    path_cnt = [0] * len(path_head)
    total = 0

    def update(v):
        nonlocal total
        while True:
            k = path_of[v]
            base, width = path_base[k], path_size[k]
            i = width + leaf_of[v]
            j = base + i
            if zero_light[v]:
                out0[j] = out1[j] = cnt0[j] = cnt1[j] = 1
            elif heavy_on[v]:
                out0[j], out1[j], cnt0[j], cnt1[j] = 1, 0, 1, 0
            else:
                out0[j] = out1[j] = cnt0[j] = cnt1[j] = 0
            i >>= 1
            while i:
                j = base + i
                lo_, hi_ = base + 2 * i, base + 2 * i + 1  # lower part of the path first
                m0, m1 = out0[lo_], out1[lo_]
                out0[j] = out1[hi_] if m0 else out0[hi_]
                cnt0[j] = cnt0[lo_] + (cnt1[hi_] if m0 else cnt0[hi_])
                out1[j] = out1[hi_] if m1 else out0[hi_]
                cnt1[j] = cnt1[lo_] + (cnt1[hi_] if m1 else cnt0[hi_])
                i >>= 1
            top, count = out0[base + 1], cnt0[base + 1]
            total += count - path_cnt[k]
            path_cnt[k] = count
            if top == path_top[k]:
                return
            path_top[k] = top
            h = path_head[k]
            p = par[h]
            if p < 0 or not active[h]:
                return
            zero_light[p] += -1 if top else 1
            v = p

    def toggle(c, on):
        active[c] = on
        p = par[c]
        if heavy[p] == c:
            heavy_on[p] = on
            update(p)
        elif not path_top[path_of[c]]:  # a light child is the head of its path
            zero_light[p] += 1 if on else -1
            update(p)

    position = np.arange(1, n + 1)
    child = np.flatnonzero(parent >= 0)
    lo = np.minimum(position[child], parent[child] + 1)
    hi = np.maximum(position[child], parent[child] + 1)
    starts = [[] for _ in range(n + 1)]
    ends = [[] for _ in range(n + 1)]
    for c, a, b in zip(child.tolist(), lo.tolist(), hi.tolist()):
        starts[a].append(c)
        ends[b].append(c)
    weights = np.zeros(n - 1, dtype=np.int64)
    for i in range(1, n):
        for c in ends[i]:
            toggle(c, False)
        for c in starts[i]:
            toggle(c, True)
        weights[i - 1] = total
    return weights


def tree_metrics(batch: TreeBatch, kernel: bool = True) -> TreeMetrics:
    """Flux weights, flux sizes and projectivity of every tree of ``batch``. ``kernel=False``: without
    the C module (projectivity and the row-based flux weights in numpy, as when it is not built)."""
    s = _validate(batch)
    depth = _depths(s)
    n_trees = len(s.lengths)
    gaps_per_tree = np.maximum(s.lengths - 1, 0)
    gap_offsets = np.zeros(n_trees + 1, dtype=np.int64)
    np.cumsum(gaps_per_tree, out=gap_offsets[1:])
    n_gaps = int(gap_offsets[-1])
    child, lo, hi = _arcs(s)
    flux_sizes = _flux_sizes(s, lo, hi, child, gap_offsets, n_gaps)

    flux_weights = np.zeros(n_gaps, dtype=np.int64)
    total_length = np.bincount(s.tree_of[child], weights=hi - lo, minlength=n_trees)
    swept = total_length > SWEEP_FACTOR * s.lengths
    if _trees is not None and kernel:
        projective = np.zeros(n_trees, dtype=np.uint8)
        _trees.tree_metrics(
            np.ascontiguousarray(s.heads),
            depth,
            s.offsets,
            gap_offsets,
            (~swept).view(np.uint8),
            flux_weights,
            projective,
        )
        projective = projective.view(bool)
    else:
        projective = _projective(s, lo, hi, child)
        _flux_weights_rows(s, child, lo, hi, gap_offsets, flux_weights, np.flatnonzero(~swept))
    for t in np.flatnonzero(swept).tolist():
        a, b = int(s.offsets[t]), int(s.offsets[t + 1])
        parent = np.where(s.parent[a:b] >= 0, s.parent[a:b] - a, -1)
        flux_weights[gap_offsets[t] : gap_offsets[t + 1]] = _flux_weights_sweep(parent, depth[a:b])

    flux_weight_sum = (
        np.add.reduceat(np.append(flux_weights, 0), gap_offsets[:-1]) if n_trees else np.zeros(0, np.int64)
    )
    flux_weight_sum = np.where(gaps_per_tree > 0, flux_weight_sum, 0)
    return TreeMetrics(flux_weight_sum.astype(np.int64), projective, flux_weights, flux_sizes, gap_offsets)


# --- punctuation stripping (Shimorina et al. 2021, section 4) --------------------------------------


@dataclass(frozen=True)
class StrippedTrees:
    """The stripped trees of :func:`strip_punctuation`, one entry per kept word in input order --
    exactly the ``dependent``, ``head``, ``dependent_id`` and ``head_id`` columns of ``edges``."""

    keep: np.ndarray  # bool per input word: not punctuation
    dependent: np.ndarray  # position among the kept words of its sentence, 1-based
    head: np.ndarray  # position of the new head among the kept words, 0 for a root
    dependent_id: np.ndarray  # the word's input ID (1-based position in the unstripped sentence)
    head_id: np.ndarray  # input ID of the nearest non-punctuation ancestor, 0 if there is none
    lengths: np.ndarray  # kept words per sentence

    def batch(self) -> TreeBatch:
        return TreeBatch(self.head, self.lengths)


def strip_punctuation(batch: TreeBatch, punct: np.ndarray) -> StrippedTrees:
    """Remove the words flagged in ``punct`` and attach each kept word to its nearest non-punctuation
    ancestor (0, a root, if there is none); kept words renumbered 1..m in surface order.

    One pointer-jumping pass over the punctuation words: ``up[p]`` starts at p's head and jumps to
    ``up[up[p]]`` while it points at punctuation, so a chain of c punctuation words resolves in
    log2(c) + 1 rounds.  Raises :class:`NotATreeError` for a head out of range or a cycle of
    punctuation words (cycles among kept words are left to :func:`tree_depths`).
    """
    s = _validate(batch)
    punct = np.asarray(punct, dtype=bool)
    if punct.shape != s.parent.shape:
        raise ValueError(f"{punct.shape[0]} punctuation flags for {s.parent.shape[0]} words")
    n_total = len(s.parent)
    up = np.where(punct, s.parent, np.arange(n_total))  # kept words point at themselves
    pending = np.flatnonzero(punct)
    pending = pending[up[pending] >= 0]
    pending = pending[punct[up[pending]]]
    limit = int(s.lengths.max()) if len(s.lengths) else 0
    rounds = 0
    while len(pending):
        if (1 << rounds) > limit:
            bad = int(pending.min())
            raise NotATreeError(
                f"tree {int(s.tree_of[bad])}: cycle of punctuation through word {int(s.position[bad])}", bad
            )
        up[pending] = up[up[pending]]
        pending = pending[up[pending] >= 0]
        pending = pending[punct[up[pending]]]
        rounds += 1
    keep = ~punct
    kept = np.flatnonzero(keep)
    p = s.parent[kept]
    anchor = np.where(p >= 0, up[np.maximum(p, 0)], -1)
    rank = np.cumsum(keep) - 1  # flat index among kept words
    lengths = np.bincount(s.tree_of[kept], minlength=len(s.lengths)).astype(np.int64)
    kept_offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=kept_offsets[1:])
    tree = s.tree_of[kept]
    dependent = rank[kept] - kept_offsets[tree] + 1
    has_head = anchor >= 0
    safe = np.maximum(anchor, 0)
    head = np.where(has_head, rank[safe] - kept_offsets[tree] + 1, 0)
    head_id = np.where(has_head, s.position[safe], 0)
    return StrippedTrees(
        keep,
        dependent.astype(np.int64),
        head.astype(np.int64),
        s.position[kept].astype(np.int64),
        head_id.astype(np.int64),
        lengths,
    )


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
