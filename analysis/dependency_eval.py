"""The CoNLL 2018 word alignment, and the leaf-ancestor metric for dependency trees.

Used by ``evalhouse ingest dependency-run`` (results in ``dependency_gold_words``; views
``dependency_scores``, ``dependency_metrics`` and the others of ``sql/parses/``)::

    $ evalhouse sql "select team, las_f1, uas_f1, la_gold_mean from dependency_scores"

**Word alignment (CoNLL 2018).** Both files' forms (spaces removed) must spell the same characters.
Words outside multiword tokens align when their tokens have the same character span. Inside a region
where either side has a multiword token, words align along a longest common subsequence of their
lower-cased forms. Which aligned words each CoNLL 2018 metric counts as correct is
:mod:`evalhouse.analysis.conll18`.

**Dependency lineage** (Sampson & Babarczy 2003, section 1 says LA applies to dependency trees; the definition here
is ours): the relations on the path from the word to the root, word end first (the word's own
relation, its head's, ... up to ``root``), universal parts only. Each word heads a subtree. ``[`` goes
before the relation of the highest word on the path whose subtree's leftmost word is this word. ``]``
goes after the relation of the highest word whose subtree's rightmost word is this word. These are
rules (i) and (ii), with subtrees in the place of constituents.  Dependency LA of a gold word =
1 - d / (len + len) between its gold lineage and the lineage of its aligned system word (0 for an
unaligned gold word).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .trees import TreeBatch, arc_projective, tree_depths

# _trees: the LA kernels in C, or None (then _lineages_and_parts_python); leaf_ancestor says which build counts
from .leaf_ancestor import LEFT, RIGHT, STRICT, LabelCost, Scorer, _trees, exact_sums, trim_common_ends

# A pair of differing lineages goes to the shared path tables when the plain DP on their differing
# middles would fill more than this many cells per symbol of the two lineages.
SHARED_DP_FACTOR = 8


class AlignmentError(ValueError):
    pass


def universal(deprel: str) -> str:
    return deprel.split(":", 1)[0]


def _universal_all(deprels: list[str]) -> list[str]:
    """:func:`universal` of every relation (a file has few distinct ones)."""
    memo: dict[str, str] = {}
    return [memo[d] if d in memo else memo.setdefault(d, universal(d)) for d in deprels]


def align(g, s) -> list[int]:
    """For each gold word, the index of its aligned system word, or -1 (the CoNLL 2018 procedure)."""
    if g.characters != s.characters:
        i = 0
        while i < min(len(g.characters), len(s.characters)) and g.characters[i] == s.characters[i]:
            i += 1
        raise AlignmentError(
            "the gold and system files spell different texts: first difference at character "
            f"{i}: gold '{''.join(g.characters[i : i + 20])}', system '{''.join(s.characters[i : i + 20])}'"
        )
    out = [-1] * len(g.form)
    ng, ns = len(g.form), len(s.form)
    gi = si = 0

    def past(w, i, end):
        if i >= len(w.form):
            return True
        return w.start[i] >= end if w.multiword[i] else w.end[i] > end

    while gi < ng and si < ns:
        if g.multiword[gi] or s.multiword[si]:
            # the smallest region around the multiword token(s) that both sides cover
            if g.multiword[gi]:
                end = g.end[gi]
                if not s.multiword[si] and s.start[si] < g.start[gi]:
                    si += 1
            else:
                end = s.end[si]
                if not g.multiword[gi] and g.start[gi] < s.start[si]:
                    gi += 1
            gs, ss = gi, si
            while not past(g, gi, end) or not past(s, si, end):
                if gi < ng and (si >= ns or g.start[gi] <= s.start[si]):
                    if g.multiword[gi]:
                        end = max(end, g.end[gi])
                    gi += 1
                else:
                    if s.multiword[si]:
                        end = max(end, s.end[si])
                    si += 1
            a = [g.form[k].lower() for k in range(gs, gi)]
            b = [s.form[k].lower() for k in range(ss, si)]
            if a and b:
                # lcs[x][y] = LCS length of a[x:] and b[y:]
                lcs = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
                for x in range(len(a) - 1, -1, -1):
                    for y in range(len(b) - 1, -1, -1):
                        lcs[x][y] = lcs[x + 1][y + 1] + 1 if a[x] == b[y] else max(lcs[x + 1][y], lcs[x][y + 1])
                x = y = 0
                while x < len(a) and y < len(b):
                    if a[x] == b[y]:
                        out[gs + x] = ss + y
                        x += 1
                        y += 1
                    elif lcs[x][y] == lcs[x + 1][y]:
                        x += 1
                    else:
                        y += 1
        else:
            if g.start[gi] == s.start[si] and g.end[gi] == s.end[si]:
                out[gi] = si
                gi += 1
                si += 1
            elif g.start[gi] <= s.start[si]:
                gi += 1
            else:
                si += 1
    return out


def tree_facts(w) -> tuple[np.ndarray, np.ndarray]:
    """Per word of a file (:class:`evalhouse.loaders.conllu_words.Words`): its depth (arcs up to its
    sentence's root word, the root 0) and whether its arc is projective (:func:`trees.arc_projective`), what
    MaltEval's "distance to root" and "arc projectivity" breakdowns group by."""
    _, lengths = np.unique(np.asarray(w.sentence, dtype=np.int64), return_counts=True)
    batch = TreeBatch(w.head_ids(), lengths)
    return tree_depths(batch), arc_projective(batch)


def _depths(head: list[int]) -> list[int]:
    """Depth of every word (root 0), each path walked once (O(n))."""
    depth = [-1] * len(head)
    for k in range(len(head)):
        stack = []
        j = k
        while j != -1 and depth[j] < 0:
            stack.append(j)
            j = head[j]
        d = depth[j] if j != -1 else -1
        for u in reversed(stack):
            d += 1
            depth[u] = d
    return depth


def _lineages_and_parts(
    w, rel: list[str] | None = None
) -> tuple[list[tuple[str, ...]], list[int], list[tuple[str, ...]]]:
    """Lineages (see the module docstring) and, per word k, (x, tail), as :func:`_lineages_and_parts_python`
    defines them; computed by the C kernel ``_trees.dependency_lineages`` where it is built (the same tuples
    of the same strings: tests/test_lineage_kernel.py)."""
    if rel is None:
        rel = [universal(d) for d in w.deprel]
    if _trees is not None:
        return _trees.dependency_lineages(w.head, rel, LEFT, RIGHT)
    return _lineages_and_parts_python(w.head, rel)


def _lineages_and_parts_python(
    head: list[int], rel: list[str]
) -> tuple[list[tuple[str, ...]], list[int], list[tuple[str, ...]]]:
    """Lineages (see the module docstring) and, per word k, (x, tail): read from the root end, the
    lineage of k is the relations on the path from the root down to x followed by ``tail``
    (x = -1: the whole lineage is the tail).  x is the first word above the markers of k, so
    ``tail`` holds k's markers and the relations below them; the tails of a file have O(n)
    symbols in all, because the words of a run of equal leftmost (rightmost) descendants belong to
    one word's marker segment only.

    The relations above the markers are the path of x, so each word's path is built once, as its
    head's path with one relation more (tuples shared from the root down), and a lineage
    is its marker segment followed by that path: O(n) Python steps plus the copying of the tuples.

    ``head[k]``: the index of k's head (-1 for a root); ``rel[k]``: its relation (universal part)."""
    n = len(head)
    depth = _depths(head)
    left = list(range(n))
    right = list(range(n))
    order = sorted(range(n), key=depth.__getitem__)  # heads before their children
    for k in reversed(order):  # children before their heads
        j = head[k]
        if j != -1:
            if left[k] < left[j]:
                left[j] = left[k]
            if right[k] > right[j]:
                right[j] = right[k]
    path: list[tuple[str, ...]] = [()] * n  # relations from each word up to the root
    for k in order:
        j = head[k]
        path[k] = (rel[k],) + path[j] if j != -1 else (rel[k],)
    lineages, above, tails = [], [], []
    for k in range(n):
        # the marker segment: the words on k's path whose leftmost or rightmost word is k form a
        # bottom segment of the path; walk it, nothing more
        segment = []
        top_l = top_r = -1
        j = k
        while j != -1:
            is_left, is_right = left[j] == k, right[j] == k
            if not (is_left or is_right):
                break
            if is_left:
                top_l = j
            if is_right:
                top_r = j
            segment.append(j)
            j = head[j]
        symbols: list[str] = []
        for u in segment:
            if u == top_l:
                symbols.append(LEFT)
            symbols.append(rel[u])
            if u == top_r:
                symbols.append(RIGHT)
        if j == -1:
            lineages.append(tuple(symbols))
        else:
            lineages.append(tuple(symbols) + path[j] if symbols else path[j])
        above.append(j)
        tails.append(tuple(reversed(symbols)))
    return lineages, above, tails


def dependency_lineages(w) -> list[tuple[str, ...]]:
    """Lineage of every word of a file (see the module docstring); relations reduced to universal parts."""
    return _lineages_and_parts(w)[0]


class _PathTables:
    """Levenshtein distances between lineages that share paths (one chain of 1,000 words
    took 175 s, every word's DP redoing its head's).

    For a gold word x and a system word y, T(x, y) is the DP table between the relations on the
    path root..x and those on root..y (root end first: distances do not change when both strings are
    reversed).  T(x, y) is T(head(x), head(y)) plus one row and one column, so only its last row and
    last column are kept, memoised per (x, y); a word's distance extends T(x, y) by the columns of
    the system tail and the rows of the gold tail.  Used only with exact sums (every order of the
    additions gives the same float), so the distances are those of the plain DP.
    """

    def __init__(self, g, s, g_rel, s_rel, cost: LabelCost):
        symbols = sorted(set(g_rel) | set(s_rel) | {LEFT, RIGHT})
        self.ids = {x: i for i, x in enumerate(symbols)}
        self.matrix = [[cost(a, b) for b in symbols] for a in symbols]
        self.g_head, self.s_head = g.head, s.head
        self.g_sym = [self.ids[x] for x in g_rel]
        self.s_sym = [self.ids[x] for x in s_rel]
        self.g_paths: dict[int, list[int]] = {-1: []}
        self.s_paths: dict[int, list[int]] = {-1: []}
        self.memo: dict[tuple[int, int], tuple[list[float], list[float]]] = {}

    def _path(self, paths, head, sym, x) -> list[int]:
        chain = []
        while x not in paths:
            chain.append(x)
            x = head[x]
        for u in reversed(chain):
            paths[u] = paths[head[u]] + [sym[u]]
        return paths[chain[0]] if chain else paths[x]

    def tables(self, x: int, y: int) -> tuple[list[float], list[float]]:
        """(last row, last column) of T(x, y)."""
        memo = self.memo
        chain = []
        while (x, y) not in memo and x != -1 and y != -1:
            chain.append((x, y))
            x, y = self.g_head[x], self.s_head[y]
        if (x, y) not in memo:
            len_x = len(self._path(self.g_paths, self.g_head, self.g_sym, x))
            len_y = len(self._path(self.s_paths, self.s_head, self.s_sym, y))
            memo[(x, y)] = (
                [float(len_x + j) for j in range(len_y + 1)] if x == -1 else [float(len_x)],
                [float(len_y + i) for i in range(len_x + 1)] if y == -1 else [float(len_y)],
            )
        m = self.matrix
        for x, y in reversed(chain):
            prow, pcol = memo[(self.g_head[x], self.s_head[y])]
            gp = self._path(self.g_paths, self.g_head, self.g_sym, x)
            sp = self._path(self.s_paths, self.s_head, self.s_sym, y)
            len_x, len_y = len(gp), len(sp)
            costs = m[gp[-1]]
            row = [float(len_x)]
            for j in range(1, len_y):
                row.append(min(prow[j] + 1.0, row[j - 1] + 1.0, prow[j - 1] + costs[sp[j - 1]]))
            b = sp[-1]
            col = [float(len_y)]
            for i in range(1, len_x + 1):
                left = pcol[i] if i < len_x else row[len_y - 1]
                col.append(min(col[i - 1] + 1.0, left + 1.0, pcol[i - 1] + m[gp[i - 1]][b]))
            row.append(col[len_x])
            memo[(x, y)] = (row, col)
        return memo[(x, y)]

    def distance(self, x: int, g_tail: tuple[str, ...], y: int, s_tail: tuple[str, ...]) -> float:
        row, col = self.tables(x, y)
        gp = self._path(self.g_paths, self.g_head, self.g_sym, x)
        sp = self._path(self.s_paths, self.s_head, self.s_sym, y)
        m = self.matrix
        row = list(row)
        for t in (self.ids[v] for v in s_tail):
            new = [col[0] + 1.0]
            for i in range(1, len(gp) + 1):
                new.append(min(new[i - 1] + 1.0, col[i] + 1.0, col[i - 1] + m[gp[i - 1]][t]))
            row.append(new[-1])
            col = new
        columns = sp + [self.ids[v] for v in s_tail]
        prev = row
        for u in (self.ids[v] for v in g_tail):
            costs = m[u]
            new = [prev[0] + 1.0]
            for j in range(1, len(columns) + 1):
                new.append(min(prev[j] + 1.0, new[j - 1] + 1.0, prev[j - 1] + costs[columns[j - 1]]))
            prev = new
        return float(prev[-1])


@dataclass
class WordScores:
    """Per gold word: aligned system word (-1), lineages and LA. Which words are correct under each CoNLL
    2018 metric is decided in SQL, from the words' columns and this alignment (``dependency_word_pairs``)."""

    aligned: list[int]
    gold_lineage: list[str]
    system_lineage: list[str | None]
    distance: list[float | None]
    la: list[float]
    system_words: int


def score(g, s, cost: LabelCost = STRICT) -> WordScores:
    a = align(g, s)
    g_rel, s_rel = _universal_all(g.deprel), _universal_all(s.deprel)
    gl, g_above, g_tails = _lineages_and_parts(g, g_rel)
    sl, s_above, s_tails = _lineages_and_parts(s, s_rel)
    scorer = Scorer(cost)
    shared = _PathTables(g, s, g_rel, s_rel, cost) if exact_sums(cost) else None
    n = len(a)
    slin: list[str | None] = [None] * n
    dist: list[float | None] = [None] * n
    la = [0.0] * n
    known: dict[tuple, tuple[float, float]] = {}  # (gold, system lineage) -> (distance, score)
    s_text: dict[int, str] = {}
    for gi, si in enumerate(a):
        if si < 0:
            continue  # unaligned: no system lineage, LA 0
        gold, system = gl[gi], sl[si]
        if gold == system:
            d, v = 0.0, 1.0
        else:
            hit = known.get((gold, system))
            if hit is None:
                d = None
                if shared is not None:
                    start, g_end, s_end = trim_common_ends(gold, system)
                    if (g_end - start) * (s_end - start) > SHARED_DP_FACTOR * (len(gold) + len(system)):
                        d = shared.distance(g_above[gi], g_tails[gi], s_above[si], s_tails[si])
                        v = 1.0 - d / (len(gold) + len(system))
                if d is None:
                    d, v = scorer(gold, system)
                # every path gives the same float for a pair (exact sums, or the plain DP only)
                hit = known[(gold, system)] = (d, v)
            d, v = hit
        text = s_text.get(si)
        slin[gi] = text if text is not None else s_text.setdefault(si, " ".join(system))
        dist[gi] = d
        la[gi] = v
    return WordScores(a, [" ".join(x) for x in gl], slin, dist, la, len(s.form))
