"""Leaf-ancestor distances and dependency LA as computed before issue 17, kept as a test oracle.

The plain Levenshtein DP over every full lineage pair (O(len x len) per word, cubic on a chain) and
``dependency_eval.score`` as it was; ``analysis`` now trims common ends and shares DP tables along
tree paths, and tests require identical numbers.  Do not use it outside tests and benchmarks.
"""

from __future__ import annotations

from evalhouse.analysis.dependency_eval import WordScores, align, universal
from evalhouse.analysis.leaf_ancestor import LEFT, RIGHT, STRICT, LabelCost


def dependency_lineages(w) -> list[tuple[str, ...]]:
    """Lineage of every word of a file (see the module docstring); relations reduced to universal parts."""
    n = len(w.form)
    left = list(range(n))
    right = list(range(n))
    # leftmost/rightmost word of every subtree: propagate each word up its path
    for k in range(n):
        j = w.head[k]
        while j != -1:
            if k < left[j]:
                left[j] = k
            if k > right[j]:
                right[j] = k
            j = w.head[j]
    out = []
    for k in range(n):
        path = [k]
        while w.head[path[-1]] != -1:
            path.append(w.head[path[-1]])
        top_l = top_r = -1
        for j in path:
            if left[j] == k:
                top_l = j
            if right[j] == k:
                top_r = j
        symbols: list[str] = []
        for j in path:
            if j == top_l:
                symbols.append(LEFT)
            symbols.append(universal(w.deprel[j]))
            if j == top_r:
                symbols.append(RIGHT)
        out.append(tuple(symbols))
    return out


def lineage_distance(gold, cand, cost: LabelCost) -> float:
    n, m = len(gold), len(cand)
    prev = [float(j) for j in range(m + 1)]
    for i in range(1, n + 1):
        g = gold[i - 1]
        cur = [float(i)] + [0.0] * m
        for j in range(1, m + 1):
            cur[j] = min(prev[j] + 1.0, cur[j - 1] + 1.0, prev[j - 1] + cost(g, cand[j - 1]))
        prev = cur
    return prev[m]


def score(g, s, cost: LabelCost = STRICT) -> WordScores:
    a = align(g, s)
    gl, sl = dependency_lineages(g), dependency_lineages(s)
    slin, dist, la = [], [], []
    for gi, si in enumerate(a):
        if si < 0:
            slin.append(None)
            dist.append(None)
            la.append(0.0)
            continue
        if gl[gi] == sl[si]:
            d, v = 0.0, 1.0
        else:
            d = lineage_distance(gl[gi], sl[si], cost)
            v = 1.0 - d / (len(gl[gi]) + len(sl[si]))
        slin.append(" ".join(sl[si]))
        dist.append(d)
        la.append(v)
    return WordScores(a, [" ".join(x) for x in gl], slin, dist, la, len(s.form))
