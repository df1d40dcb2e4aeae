"""The tree metrics of ``analysis/trees.py`` as they were before issue 17, kept as a test oracle.

This is the level-synchronous implementation that materialises one row per (edge, inter-word
position it crosses) -- O(sum of dependency lengths) time and memory, n^2 on flat trees -- and walks
depth by repeated parent steps (O(n x depth)).  It is correct (tested against brute force in
``tests/test_trees.py``) but does not scale; ``analysis.trees`` replaced it.  Tests compare the new
functions with it on every real treebank and on random trees, and ``benchmarks/trees.py`` uses it as
the "before" column.  Do not use it outside tests and benchmarks.
"""

from __future__ import annotations

import numpy as np

from evalhouse.analysis.trees import NotATreeError, TreeBatch, TreeMetrics


def structure(batch: TreeBatch):
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
    return structure(batch)[-1]


def tree_metrics(batch: TreeBatch) -> TreeMetrics:
    """Flux weights, flux sizes and projectivity of every tree of ``batch``."""
    heads, lengths, offsets, tree_of, position, parent, depth = structure(batch)
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
    row_gap, row_child, row_parent, row_depth = (row_gap[order], row_child[order], row_parent[order], row_depth[order])
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

    flux_weight_sum = (
        np.add.reduceat(np.append(flux_weights, 0), gap_offsets[:-1]) if n_trees else np.zeros(0, np.int64)
    )
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


# --- the SQL of the treebank ingest before issue 18, kept as the "before" of benchmarks/trees.py and
# as an independent computation for tests (tests/test_tree_node_depth.py) ---------------------------

# The stripped tree by a recursive CTE climbing from each kept word over punctuation heads (quadratic on
# punctuation chains: 0.49/2.09/4.26 s for 2k/4k/8k chains, 23.6 GB on a 50k chain).
RECURSIVE_EDGES_SQL = r"""
INSERT INTO edges (corpus, position, dependent, head, deprel, relation, dependent_lemma, head_lemma,
                   dependent_upos, head_upos, distance, dependent_id, head_id, depth)
WITH words AS (
    SELECT position, id, head, deprel, lemma, upos, split_part(deprel, ':', 1) = 'punct' AS is_punct
    FROM nodes WHERE corpus = $corpus AND position > $offset
), climb AS (
    WITH RECURSIVE up(position, id, candidate, steps) AS (
        SELECT w.position, w.id, h.head, 1
        FROM words w JOIN words h ON h.position = w.position AND h.id = w.head AND h.is_punct
        WHERE NOT w.is_punct
        UNION ALL
        SELECT up.position, up.id, p.head, up.steps + 1
        FROM up JOIN words p ON p.position = up.position AND p.id = up.candidate AND p.is_punct
    )
    SELECT position, id, arg_max(candidate, steps) AS head_id FROM up GROUP BY position, id
), kept AS (
    SELECT w.position, w.id, coalesce(c.head_id, w.head) AS head_id, w.deprel, w.lemma, w.upos,
           row_number() OVER (PARTITION BY w.position ORDER BY w.id) AS new_position
    FROM words w LEFT JOIN climb c USING (position, id)
    WHERE NOT w.is_punct
)
SELECT $corpus, d.position, d.new_position, coalesce(h.new_position, 0),
       d.deprel, split_part(d.deprel, ':', 1), d.lemma, h.lemma, d.upos, h.upos,
       d.new_position - h.new_position, d.id, d.head_id, 0
FROM kept d LEFT JOIN kept h ON h.position = d.position AND h.id = d.head_id
"""

# The view tree_node_depth as it was: a recursive CTE walking down from the roots of edges (94.7 s for
# sentence_complexity on a 100k-word chain).
RECURSIVE_DEPTH_SQL = r"""
WITH RECURSIVE descend (corpus, position, dependent, depth) AS (
    SELECT corpus, position, dependent, 0
    FROM edges
    WHERE head = 0
    UNION ALL
    SELECT child.corpus, child.position, child.dependent, parent.depth + 1
    FROM edges AS child
    JOIN descend AS parent
      ON child.corpus = parent.corpus
     AND child.position = parent.position
     AND child.head = parent.dependent
)
SELECT corpus, position, dependent, depth FROM descend
"""
