"""The leaf-ancestor (LA) metric of Sampson & Babarczy (2003, sections 2 and 4).

Used by ``evalhouse ingest parses ... --team T --run R`` (scores materialised into
``la_word_scores``; views ``la_words``, ``la_sentences``, ``parse_scores``)::

    $ evalhouse sql "select word, gold_lineage, candidate_lineage, score from la_words where position = 1"
    word      gold_lineage   candidate_lineage  score
    two       N1 [ S         NP [ S             0.916667
    tax       [ N1 N1 S      NP S               0.583333

**Lineage** of a word: the labels of the nonterminals on its path to the root, leaf end first, with
boundary markers (Sampson & Babarczy 2003, section 2):

(i)  ``[`` immediately before (leaf side of) the label of the *highest* nonterminal that begins
     with the word, if there is one;
(ii) ``]`` immediately after (root side of) the label of the highest nonterminal that ends with it.

**Word score** = 1 - d(c, g) / (len(c) + len(g)), where d is Levenshtein distance with insertion
and deletion cost 1 and substitution cost given by a label-cost function into [0, 2] (section 4).
A word whose gold and candidate lineages are both empty (a word directly under no nonterminal)
scores 1.  **Sentence LA** = mean of its word scores.

Cost functions: ``default`` is the paper's experiment (0 for identical symbols, 0.5 when two labels
share their first character, 2 otherwise); ``strict`` (any different label costs 2); or a table of
(gold label, candidate label, cost) rows, directional (unlisted pairs: 0 if equal, else 2).
Boundary markers only ever match themselves (``[`` for ``]`` costs 2, as does a marker for a label).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Sequence

try:  # the LA kernels in C (analysis/_trees.c): lineage_distance here, dependency_lineages in dependency_eval
    from evalhouse.analysis import _trees
except ImportError:
    _trees = None
if not (hasattr(_trees, "lineage_distance") and hasattr(_trees, "dependency_lineages")):
    _trees = None  # not built, or built before the kernels were added: the Python definitions then

LEFT, RIGHT = "[", "]"
MARKERS = (LEFT, RIGHT)


@dataclass(frozen=True)
class LabelCost:
    """Substitution cost between a gold symbol and a candidate symbol of two lineages."""

    name: str  # "default", "strict" or "table:<sha256 prefix>"
    table: tuple[tuple[str, str, float], ...] = field(default=())

    def __post_init__(self):
        object.__setattr__(self, "_lookup", {(g, c): v for g, c, v in self.table})
        object.__setattr__(self, "_exact", all(float(v * 2**20).is_integer() for _, _, v in self.table))
        # symbols met so far -> index, and matrix[i][j] = self(symbol i, symbol j): the DP reads costs
        # from lists instead of calling this object a million times; same values
        object.__setattr__(self, "_ids", {})
        object.__setattr__(self, "_symbols", [])
        object.__setattr__(self, "matrix", [])

    def indices(self, symbols: Sequence[str]) -> list[int]:
        """Row and column indices of ``symbols`` in :attr:`matrix` (grown for new symbols)."""
        ids = self._ids
        out = []
        for x in symbols:
            i = ids.get(x)
            if i is None:
                i = ids[x] = len(self._symbols)
                self._symbols.append(x)
                # floats whatever the table holds (an int, a numpy float): the same values in the DP, where
                # the C kernel reads floats only
                for row, y in zip(self.matrix, self._symbols):
                    row.append(float(self(y, x)))
                self.matrix.append([float(self(x, y)) for y in self._symbols])
            out.append(i)
        return out

    def __call__(self, gold: str, cand: str) -> float:
        if gold == cand:
            return 0.0
        if gold in MARKERS or cand in MARKERS:
            return 2.0
        if self.name == "default":
            return 0.5 if gold[:1] == cand[:1] else 2.0
        if self.name == "strict":
            return 2.0
        return self._lookup.get((gold, cand), 2.0)

    @property
    def symmetric(self) -> bool:
        lookup = self._lookup
        return all(lookup.get((c, g), 2.0) == v for (g, c), v in lookup.items())

    def describe(self) -> dict:
        """The configuration recorded with every score."""
        out: dict = {"name": self.name}
        if self.table:
            out["table"] = [list(r) for r in self.table]
        return out


DEFAULT = LabelCost("default")
STRICT = LabelCost("strict")


def cost_table(rows: Sequence[tuple[str, str, float]]) -> LabelCost:
    """A user cost table (rows already validated by the loader: costs in [0, 2])."""
    rows = tuple((str(g), str(c), float(v)) for g, c, v in rows)
    digest = hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:12]
    return LabelCost(f"table:{digest}", rows)


def cost_function(name: str) -> LabelCost:
    """``default`` or ``strict``; unknown names fail loudly and list the valid ones."""
    if name == "default":
        return DEFAULT
    if name == "strict":
        return STRICT
    raise ValueError(f"unknown label-cost function '{name}' (valid: default, strict, or a cost-table file)")


def lineages(nodes: Sequence[tuple[str, int, int, int]], n_words: int) -> list[tuple[str, ...]]:
    """Lineage of every word (leaf end first), with boundary markers by rules (i) and (ii).

    ``nodes`` are (label, parent, start, end) in preorder with half-open word spans.  The nodes that
    begin (end) with a word form a bottom segment of its chain to the root (they contain the word and
    lie inside one another), so only that segment is walked; the labels above it are the path of the
    first node above, built once per node as its parent's path with one label more.
    """
    lowest = [-1] * n_words
    for k, (_, _, start, end) in enumerate(nodes):  # preorder: later containing nodes are lower
        lowest[start:end] = [k] * (end - start)
    path: list[tuple[str, ...]] = []  # labels from each node up to the root
    for label, parent, _, _ in nodes:
        path.append((label,) + path[parent] if parent >= 0 else (label,))
    out = []
    for i in range(n_words):
        k = lowest[i]
        segment = []
        top_start = top_end = -1
        while k != -1:
            _, parent, start, end = nodes[k]
            begins, ends = start == i, end == i + 1
            if not (begins or ends):
                break
            if begins:
                top_start = k
            if ends:
                top_end = k
            segment.append(k)
            k = parent
        if not segment:
            out.append(path[k] if k != -1 else ())
            continue
        symbols: list[str] = []
        for u in segment:
            if u == top_start:
                symbols.append(LEFT)
            symbols.append(nodes[u][0])
            if u == top_end:
                symbols.append(RIGHT)
        out.append(tuple(symbols) + path[k] if k != -1 else tuple(symbols))
    return out


def exact_sums(cost: LabelCost) -> bool:
    """Whether every sum of costs along an alignment is exact in floating point: all substitution
    costs are multiples of 2**-20 (default: 0, 0.5, 2; strict: 0, 2).  Then the order in which the DP
    adds them cannot change a result, and the shortcuts below give bit-identical distances."""
    return cost._exact


def trim_common_ends(gold: Sequence[str], cand: Sequence[str]) -> tuple[int, int, int]:
    """(start, gold end, candidate end) after dropping the common prefix and the common suffix."""
    n, m = len(gold), len(cand)
    start = 0
    while start < n and start < m and gold[start] == cand[start]:
        start += 1
    g_end, c_end = n, m
    while g_end > start and c_end > start and gold[g_end - 1] == cand[c_end - 1]:
        g_end -= 1
        c_end -= 1
    return start, g_end, c_end


def lineage_distance(gold: Sequence[str], cand: Sequence[str], cost: LabelCost = DEFAULT) -> float:
    """Levenshtein distance, insertion/deletion 1, substitution ``cost(gold symbol, candidate symbol)``:
    :func:`_lineage_distance_python` defines it; the C kernel ``_trees.lineage_distance`` computes it where it
    is built (the same additions in the same order on doubles, so the same floats:
    tests/test_lineage_kernel.py)."""
    if _trees is not None:
        d = _trees.lineage_distance(gold, cand, cost._ids, cost.matrix, cost._exact)
        if d is None:  # a symbol the cost has not met yet: give it a row and a column, then again
            cost.indices(gold)
            cost.indices(cand)
            d = _trees.lineage_distance(gold, cand, cost._ids, cost.matrix, cost._exact)
        if d is not None:
            return d
        # still None only for symbols whose hash or equality changes between calls: the definition decides
    return _lineage_distance_python(gold, cand, cost)


def _lineage_distance_python(gold: Sequence[str], cand: Sequence[str], cost: LabelCost = DEFAULT) -> float:
    """Levenshtein distance, insertion/deletion 1, substitution ``cost(gold symbol, candidate symbol)``.

    A common prefix or suffix does not change the distance (d(xa, ya) = d(x, y): any alignment of
    xa with y costs at least d(x, y) - 1, because costs are >= 0, a symbol costs 0 against itself and
    an insertion or deletion 1), so with exact sums (:func:`exact_sums`) the DP runs on the differing
    middles only: lineages of neighbouring words differ near the leaf, share the path to the root.
    """
    if cost._exact:
        start, g_end, c_end = trim_common_ends(gold, cand)
        gold, cand = gold[start:g_end], cand[start:c_end]
    n, m = len(gold), len(cand)
    matrix = cost.matrix
    rows = cost.indices(gold)
    cols = cost.indices(cand)
    prev = [float(j) for j in range(m + 1)]
    for i in range(1, n + 1):
        costs = matrix[rows[i - 1]]
        left = float(i)
        cur = [left]
        for j in range(1, m + 1):
            # min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost(gold[i - 1], cand[j - 1])), written out
            best = prev[j] + 1.0
            other = left + 1.0
            if other < best:
                best = other
            other = prev[j - 1] + costs[cols[j - 1]]
            if other < best:
                best = other
            cur.append(best)
            left = best
        prev = cur
    return prev[m]


def word_score(gold: Sequence[str], cand: Sequence[str], cost: LabelCost = DEFAULT) -> float:
    """1 - d(c, g) / (len(c) + len(g)); 1 when both lineages are empty."""
    total = len(gold) + len(cand)
    if total == 0:
        return 1.0
    if tuple(gold) == tuple(cand):
        return 1.0
    return 1.0 - lineage_distance(gold, cand, cost) / total


class Scorer:
    """(distance, score) of lineage pairs, cached (lineages repeat a lot within a treebank)."""

    def __init__(self, cost: LabelCost = DEFAULT):
        self.cost = cost
        self._cache: dict[tuple, tuple[float, float]] = {}

    def __call__(self, gold: tuple[str, ...], cand: tuple[str, ...]) -> tuple[float, float]:
        if gold == cand:
            return 0.0, 1.0
        key = (gold, cand)
        hit = self._cache.get(key)
        if hit is None:
            d = lineage_distance(gold, cand, self.cost)
            hit = self._cache[key] = (d, 1.0 - d / (len(gold) + len(cand)))
        return hit

    def score(self, gold: tuple[str, ...], cand: tuple[str, ...]) -> float:
        return self(gold, cand)[1]


def format_lineage(lineage: Sequence[str]) -> str:
    """Space-separated, leaf end first, as the paper prints it (``N1 [ S``)."""
    return " ".join(lineage)


def sentence_la(gold_nodes, cand_nodes, n_words: int, cost: LabelCost = DEFAULT) -> tuple[float, list[float]]:
    """(sentence LA, word scores) for two trees over the same ``n_words`` words."""
    scorer = Scorer(cost)
    g, c = lineages(gold_nodes, n_words), lineages(cand_nodes, n_words)
    scores = [scorer.score(a, b) for a, b in zip(g, c)]
    return (sum(scores) / len(scores) if scores else 1.0), scores
