"""String and tree accuracy of Bangalore, Rambow & Whittaker (2000).

    $ evalhouse --db warehouse.duckdb.example sql "select team, run, round(avg(ssa), 4) as ssa,
          round(avg(gsa), 4) as gsa, round(avg(sta), 4) as sta, round(avg(gta), 4) as gta
          from sentence_scores group by all order by all"
    team      run     ssa     gsa     sta     gta
    --------  ------  ------  ------  ------  ------
    baseline  lr      0.934   0.967   0.9764  0.9871
    baseline  random  0.2731  0.4025  0.2893  0.5435

(Bangalore, Rambow & Whittaker's (2000) accuracies; the lemma-key variant, ``lemma_ssa`` ... ``lemma_gta``, gives 0.953, 0.9765, 1
and 1 for lr: it ignores the punctuation the LR baseline misplaces.)

Counts come from a minimum-cost alignment of the output tokens to the reference tokens with
unit-cost insertion (I), deletion (D) and substitution (S): a substitution (1) is cheaper than a
deletion plus an insertion (2), as the paper requires. With R reference tokens:

    simple string accuracy      SSA = 1 - (I + D + S) / R
    generation string accuracy  GSA = 1 - (M + I' + D' + S) / R

where a deletion and an insertion of the same token make one move M (M = sum over token types of
min(deletions, insertions)), I' = I - M and D' = D - M.

Which alignment (Bangalore, Rambow & Whittaker 2000, section 3.1 and footnote 5). Several minimum-cost alignments can exist;
I + D + S is the same for all of them (so SSA is the Levenshtein distance over R), M and S are not.
The paper counts "the insertion and deletion of [a token]" as one move, and its footnote 5 shows the
alignment stays a minimum-cost one (turning the cost/phase substitution into a deletion and an
insertion would give 6 operations instead of 5, so the paper keeps the substitution). We therefore
take, among all minimum-cost alignments, one that

    1. has the most moves M (a move is a deletion and an insertion of the same token, counted once,
       preferred to substitutions wherever the cost ties), then
    2. has the fewest substitutions S (equivalently: the most matched tokens).

The choice is exact (a search over every minimum-cost alignment, not a greedy backtrace), so the
counts do not depend on the direction of a backtrace. Consequences, all tested:

* reference "the big red dog barked", output "the red big dog barked": one move, I = D = M = 1,
  S = 0, SSA = 0.6, GSA = 0.8 (two substitutions cost the same 2 but credit no move);
* the paper's example (2) (reference "There was no cost estimate for the second phase", output
  "There was estimate for phase the second no cost"): "no" is one move; cost and phase give one
  deletion, one substitution and one insertion; I + D + S = 5 and M + I' + D' + S = 4 errors, as
  the paper says (footnote 5), so SSA = 1 - 5/9 and GSA = 1 - 4/9 over its R = 9 words.

Tree accuracy (section 3.2). "For each treelet (i.e., non-leaf node with all of its daughters) of
the reference dependency tree, we construct strings of the head and its dependents in the order they
appear in the reference string, and in the order they appear in the result string", count I, D, S
and M for each treelet as above, and "sum these scores, and then use the values obtained in the
formulas given above": STA and GTA are SSA and GSA of the summed counts (:func:`tree_counts`).
Choices where the paper is silent (docs/system-outputs.md, "String and tree accuracy"):

* An output word that realises no reference word belongs to no treelet, so it counts in no treelet
  string: the tree accuracies do not see it (``output_length=None``, the paper's procedure). The
  variant that counts each such word as one insertion (``output_length`` = the number of output
  words) is evalhouse's own, kept under its own name (``lemma_sta``, ``lemma_gta``).
* Denominator R: the number of reference words (``denominator="reference"``, the default). The paper
  defines R once, as "the number of tokens in the target string", and says the tree metrics use the
  summed values "in the formulas given above". On the paper's own tree (XTAG analysis, headed by
  "estimate"; treelets {There was no cost estimate for}, {for phase}, {the second phase}) and its
  LR output, the counts are I = D = M = 3, S = 0: STA = 1 - 6/9 = 0.333 and GTA = 1 - 3/9 = 0.667
  with R = 9; the summed treelet lengths (``denominator="treelets"``, 11 here) give 0.455 and 0.727.
  Table 1, which printed these numbers, is lost in the OCR of the text we have.
* A tree of a single word has no non-leaf node; it is taken as one treelet of that word, so a
  missing word counts as a deletion.

What a token is, and which reference word an output word realises, is decided by the caller
(:mod:`evalhouse.ingest.outputs`): by default the paper's tokens, the words of the two strings
(case-folded, punctuation kept), the whole reference tree, and an output word realises the reference
word it is aligned to when it is the same word; the lemma-key variant compares the keys of the
alignment without punctuation on the punctuation-stripped tree (:data:`LEMMA_SIGNATURE`).

Understandability and quality accuracy (section 4.2; coefficients from ``../shared/seeds/README.md``)
use STA and S, the substitutions of the string alignment (the paper regresses human scores on
"simple tree accuracy and the number of substitutions", and describes a substitution as a case "in
the string metrics"). They are written 1 - (a (1 - STA) + b S) / d, the same function as the
published (a STA - b S - c) / d because a - c = d, so that a perfect sentence scores exactly 1.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Hashable, Sequence

DENOMINATORS = ("reference", "treelets")
# Bangalore, Rambow & Whittaker (2000): unlinked output words in no treelet (evalhouse-accuracy:2 counted them, as the variant still does)
SIGNATURE = "edit:unit-costs|ties:most-moves>fewest-substitutions|tree:treelets,R:reference|evalhouse-accuracy:3"
LEMMA_SIGNATURE = (
    "edit:unit-costs|ties:most-moves>fewest-substitutions|tree:treelets+unlinked-insertions,"
    "R:reference|evalhouse-accuracy:3"
)
UNDERSTANDABILITY = (1.3147, 0.1039, 0.4458, 0.8689)
QUALITY = (1.0192, 0.0869, 0.3553, 0.6639)


def signature(denominator: str = "reference", insertions: bool = False) -> str:
    """The configuration string of the accuracies computed with ``denominator`` (see the docstring);
    ``insertions``: the tree counts unlinked output words as insertions (the variant)."""
    if denominator not in DENOMINATORS:
        raise ValueError(f"unknown tree denominator '{denominator}' (valid: {', '.join(DENOMINATORS)})")
    return (LEMMA_SIGNATURE if insertions else SIGNATURE).replace("R:reference", f"R:{denominator}")


@dataclass(frozen=True)
class EditCounts:
    insertions: int
    deletions: int
    substitutions: int
    moves: int
    reference_length: int

    def __add__(self, other: "EditCounts") -> "EditCounts":
        return EditCounts(
            self.insertions + other.insertions,
            self.deletions + other.deletions,
            self.substitutions + other.substitutions,
            self.moves + other.moves,
            self.reference_length + other.reference_length,
        )

    @property
    def simple_accuracy(self) -> float | None:
        if self.reference_length == 0:
            return None
        return 1 - (self.insertions + self.deletions + self.substitutions) / self.reference_length

    @property
    def generation_accuracy(self) -> float | None:
        if self.reference_length == 0:
            return None
        m = self.moves
        return 1 - (m + (self.insertions - m) + (self.deletions - m) + self.substitutions) / self.reference_length


@dataclass(frozen=True)
class EditOperations:
    """The non-matching operations of one minimum-cost alignment (tokens, in string order)."""

    substituted: tuple[tuple[Hashable, Hashable], ...]  # (reference token, output token)
    deleted: tuple[Hashable, ...]
    inserted: tuple[Hashable, ...]
    reference_length: int

    @property
    def moved(self) -> tuple[Hashable, ...]:
        """Tokens both deleted and inserted, each pair counted once (the moves M)."""
        left = Counter(self.inserted)
        out = []
        for t in self.deleted:
            if left[t]:
                left[t] -= 1
                out.append(t)
        return tuple(out)

    def counts(self) -> EditCounts:
        return EditCounts(
            len(self.inserted), len(self.deleted), len(self.substituted), len(self.moved), self.reference_length
        )


def edit_counts(reference: Sequence[Hashable], output: Sequence[Hashable]) -> EditCounts:
    """I, D, S and M of the alignment of ``output`` to ``reference`` chosen in the module docstring."""
    if len(reference) == len(output) and list(reference) == list(output):
        return EditCounts(0, 0, 0, 0, len(reference))
    return edit_operations(reference, output).counts()


def _distances(ref: Sequence[Hashable], out: Sequence[Hashable], backwards: bool = False) -> list[list[int]]:
    """Unit-cost edit distances of every prefix pair (or, with ``backwards``, every suffix pair)."""
    n, m = len(ref), len(out)
    if backwards:
        ref, out = ref[::-1], out[::-1]
    dist = [list(range(m + 1))]
    for i in range(1, n + 1):
        prev = dist[-1]
        row = [i] + [0] * m
        r = ref[i - 1]
        for j in range(1, m + 1):
            best = prev[j - 1] + (0 if r == out[j - 1] else 1)
            d = prev[j] + 1
            if d < best:
                best = d
            ins = row[j - 1] + 1
            if ins < best:
                best = ins
            row[j] = best
        dist.append(row)
    if backwards:  # suffix[i][j] = distance of ref[i:] and out[j:]
        return [row[::-1] for row in dist[::-1]]
    return dist


STATE_BUDGET = 20_000  # states beyond one per cell of the exact forward search before the integer programme takes over
# Branch-and-bound nodes HiGHS may solve for one alignment's integer programme (scipy's milp option node_limit).
# Measured with the programme forced on the pairs the project scores (strings and treelets of the five ADAPT runs,
# reversed and shuffled EWT test outputs, the hostile outputs at the size limits, the largest of tie-heavy ones)
# and on outputs built to reach it at the limits (201 reference words, 201 to 700 tokens): none needs more than 1
# (HiGHS solves the root; 0 when presolve alone solves it), so 50 is a margin of 50 times. A node re-solves the
# linear relaxation of a graph the size limits bound (at most 1,000 x 201 cells; the root, from scratch and so the
# costliest, took at most 1.6 s of CPU on the outputs that reach the programme), so 50 nodes bound a refused
# output at about 80 s, within the 2 minutes a participant's hostile input may take. A count, not a time limit:
# the same file gets the same answer on a quiet machine and on a loaded one. docs/system-outputs.md, "Size limits".
NODE_LIMIT = 50


class AlignmentTooHard(ValueError):
    """The integer programme reached :data:`NODE_LIMIT` branch-and-bound nodes without proving its optimum.

    A participant controls the output, so the time of its alignment must be bounded. An alignment that is
    not proven to have the most moves is never returned in place of the one the module docstring defines:
    the caller refuses the sentence (ingest names the file and line, and stores nothing)."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(
            f"choosing among its minimum-cost edit alignments the one with the most moves needs more than "
            f"the limit of {limit:,} branch-and-bound nodes of the integer programme"
        )

    def __reduce__(self):  # picklable, so that it crosses from a scoring worker intact
        return (AlignmentTooHard, (self.limit,))


class _Graph:
    """The steps that lie on some minimum-cost alignment of ``ref`` and ``out`` (unit costs).

    A cell (i, j) is on such an alignment when the forward and backward distances add up to the
    total; a step is ('m', i, j) (match or substitution of ref[i] by out[j]), ('d', i, j) (deletion
    of ref[i]) or ('i', i, j) (insertion of out[j]) from cell (i, j)."""

    def __init__(self, ref: list, out: list):
        self.ref, self.out = ref, out
        n, m = self.n, self.m = len(ref), len(out)
        fwd = _distances(ref, out)
        bwd = _distances(ref, out, backwards=True)
        total = fwd[n][m]
        self.steps: dict[tuple[int, int], list[tuple[str, int, int]]] = {}
        self.del_rows: set[int] = set()  # reference positions some minimum-cost alignment deletes
        self.ins_cols: set[int] = set()  # output positions some minimum-cost alignment inserts
        for i in range(n + 1):
            for j in range(m + 1):
                if fwd[i][j] + bwd[i][j] != total:
                    continue
                here, row = fwd[i][j], []
                if (
                    i < n
                    and j < m
                    and fwd[i + 1][j + 1] + bwd[i + 1][j + 1] == total
                    and fwd[i + 1][j + 1] == here + (ref[i] != out[j])
                ):
                    row.append(("m", i, j))
                if i < n and fwd[i + 1][j] + bwd[i + 1][j] == total and fwd[i + 1][j] == here + 1:
                    row.append(("d", i, j))
                    self.del_rows.add(i)
                if j < m and fwd[i][j + 1] + bwd[i][j + 1] == total and fwd[i][j + 1] == here + 1:
                    row.append(("i", i, j))
                    self.ins_cols.add(j)
                self.steps[(i, j)] = row
        # tokens that some alignment deletes and some alignment inserts: the only ones that can move
        self.shared = sorted({ref[i] for i in self.del_rows} & {out[j] for j in self.ins_cols}, key=repr)

    @staticmethod
    def target(step: tuple[str, int, int]) -> tuple[int, int]:
        kind, i, j = step
        return (i + 1, j + 1) if kind == "m" else (i + 1, j) if kind == "d" else (i, j + 1)

    def moved_token(self, step: tuple[str, int, int]):
        kind, i, j = step
        return self.ref[i] if kind == "d" else self.out[j] if kind == "i" else None


def _best_path_by_states(g: _Graph, budget: int) -> list | None:
    """Most moves, then fewest substitutions, by a forward pass over (cell, balance) states.

    The balance of a path is the vector d_t - i_t over the shared tokens t; 2M = sum_t (d_t + i_t -
    |d_t - i_t|). A balance the rest of the alignment can no longer pair is charged at once and
    clamped (|b + x| = (b - c) + |c + x| whenever b >= c >= -x, with c the deletions or insertions of
    t still possible), which keeps the states few on real sentences. None when more than ``budget``
    states beyond the first of each cell would be needed (one state per cell is the plain dynamic
    programme over the graph, linear in its size: all there is when no token can move)."""
    ref, out, n, m = g.ref, g.out, g.n, g.m
    slot = {t: k for k, t in enumerate(g.shared)}
    k_len = len(slot)
    can_del = [[0] * k_len for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        can_del[i] = can_del[i + 1][:]
        if i in g.del_rows and ref[i] in slot:
            can_del[i][slot[ref[i]]] += 1
    can_ins = [[0] * k_len for _ in range(m + 1)]
    for j in range(m - 1, -1, -1):
        can_ins[j] = can_ins[j + 1][:]
        if j in g.ins_cols and out[j] in slot:
            can_ins[j][slot[out[j]]] += 1
    zero = (0,) * k_len
    # cells[(i, j)]: balance -> (sum of d_t + i_t - charged balance, -S, back pointer (cell, balance, step));
    # row-major order visits every predecessor of a cell before the cell
    cells: dict[tuple[int, int], dict[tuple[int, ...], tuple]] = {(0, 0): {zero: (0, 0, None)}}
    created = 0  # states beyond the first of each cell
    for i in range(n + 1):
        for j in range(m + 1):
            here = cells.get((i, j))
            if not here or (i, j) == (n, m):
                continue
            for balance, (di, neg_s, _) in here.items():
                for step in g.steps[(i, j)]:
                    b, ndi, nneg = balance, di, neg_s
                    ni, nj = g.target(step)
                    if step[0] == "m":
                        nneg -= ref[i] != out[j]
                    else:
                        k = slot.get(g.moved_token(step))
                        if k is not None:
                            ndi += 1
                            b = balance[:k] + (balance[k] + (1 if step[0] == "d" else -1),) + balance[k + 1 :]
                    # only the tokens whose bound this step lowers can leave their range
                    for k in ({slot.get(ref[i])} if ni > i else set()) | ({slot.get(out[j])} if nj > j else set()):
                        if k is None:
                            continue
                        x, hi, lo = b[k], can_ins[nj][k], can_del[ni][k]
                        if x > hi or x < -lo:
                            c = hi if x > hi else -lo
                            ndi -= abs(x - c)
                            b = b[:k] + (c,) + b[k + 1 :]
                    target = cells.setdefault((ni, nj), {})
                    old = target.get(b)
                    if old is None and target:  # a cell's first state is free: without shared tokens this is a plain DP
                        created += 1
                        if created > budget:
                            return None
                    if old is None or (ndi, nneg) > old[:2]:
                        target[b] = (ndi, nneg, ((i, j), balance, step))
    final = cells[(n, m)]
    best_balance = max(final, key=lambda b: (final[b][0] - sum(abs(x) for x in b), final[b][1]))
    path, back = [], final[best_balance][2]
    while back is not None:
        cell, balance, step = back
        path.append(step)
        back = cells[cell][balance][2]
    return path[::-1]


def import_solver() -> None:
    """Import what :func:`_best_path_by_integer_programme` needs (scipy's HiGHS: about 0.15 s and 40 MB), ahead of
    its first use. A process that forks scoring workers calls it first, so that the workers share those pages
    instead of each importing them (40 MB less in each worker of a campaign)."""
    import scipy.optimize  # noqa: F401
    import scipy.sparse  # noqa: F401


def _best_path_by_integer_programme(g: _Graph) -> list:
    """Most moves, then fewest substitutions, as an integer programme solved exactly by HiGHS.

    One binary variable per step (a unit flow from cell (0, 0) to (n, m) through the graph of
    minimum-cost steps: every such path is a minimum-cost alignment) and one integer variable y_t
    per shared token with y_t <= its deletions and y_t <= its insertions; maximise
    W sum_t y_t - S with W larger than any S, so moves come first. HiGHS stops after :data:`NODE_LIMIT`
    branch-and-bound nodes (:class:`AlignmentTooHard`), and stops otherwise only at a proven optimum (a relative
    gap of 0): its default gap of 1e-4 would accept, where W times the moves reaches 10^5 (W is up to about
    1,200 at the size limits), a solution some substitutions more than the fewest."""
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

    steps = [step for row in g.steps.values() for step in row]
    cells = {cell: k for k, cell in enumerate(g.steps)}
    slot = {t: k for k, t in enumerate(g.shared)}
    n_x, n_y = len(steps), len(slot)
    weight = g.n + g.m + 1
    cost = [1.0 if s[0] == "m" and g.ref[s[1]] != g.out[s[2]] else 0.0 for s in steps] + [-float(weight)] * n_y
    rows, cols, vals = [], [], []
    for k, step in enumerate(steps):  # flow conservation: out - in = +1 at the start, -1 at the end
        rows += [cells[(step[1], step[2])], cells[g.target(step)]]
        cols += [k, k]
        vals += [1.0, -1.0]
    flow_rhs = [0.0] * len(cells)
    flow_rhs[cells[(0, 0)]] = 1.0
    flow_rhs[cells[(g.n, g.m)]] = -1.0
    base = len(cells)
    for t, k in slot.items():  # y_t - deletions of t <= 0 and y_t - insertions of t <= 0
        rows += [base + 2 * k, base + 2 * k + 1]
        cols += [n_x + k, n_x + k]
        vals += [1.0, 1.0]
    for k, step in enumerate(steps):
        t = g.moved_token(step)
        if t in slot:
            rows.append(base + 2 * slot[t] + (0 if step[0] == "d" else 1))
            cols.append(k)
            vals.append(-1.0)
    matrix = coo_matrix((vals, (rows, cols)), shape=(base + 2 * n_y, n_x + n_y)).tocsr()
    lower = flow_rhs + [-float("inf")] * (2 * n_y)
    upper = flow_rhs + [0.0] * (2 * n_y)
    result = milp(
        cost,
        constraints=LinearConstraint(matrix, lower, upper),
        integrality=[1] * (n_x + n_y),
        bounds=Bounds(0, [1.0] * n_x + [float(g.n)] * n_y),
        options={"node_limit": NODE_LIMIT, "mip_rel_gap": 0.0},
    )
    if _stopped_at_node_limit(result):
        raise AlignmentTooHard(NODE_LIMIT)
    if not result.success:
        raise RuntimeError(f"the alignment integer programme failed: {result.message}")
    chosen = {step[1:]: step for step, x in zip(steps, result.x[:n_x]) if x > 0.5}
    by_cell: dict[tuple[int, int], tuple] = {}
    for step in chosen.values():
        by_cell[(step[1], step[2])] = step
    path, cell = [], (0, 0)
    while cell != (g.n, g.m):
        step = by_cell[cell]
        path.append(step)
        cell = g.target(step)
    return path


def _stopped_at_node_limit(result) -> bool:
    """HiGHS stopped at :data:`NODE_LIMIT` before proving an optimum. scipy 1.17 reports that stop as status 4
    (HiGHS's "solution limit", a status it does not name), an older or newer one may say 1 (a limit reached):
    the node count tells it from a failure (it is None when the limit stopped HiGHS before its first node)."""
    return not result.success and (result.status == 1 or (result.mip_node_count or 0) >= NODE_LIMIT)


def edit_operations(reference: Sequence[Hashable], output: Sequence[Hashable], method: str = "auto") -> EditOperations:
    """The alignment of ``output`` to ``reference`` chosen in the module docstring: minimum unit cost,
    then most moves, then fewest substitutions.

    Both searches are exact and run over the steps that lie on some minimum-cost alignment:
    ``method="states"`` a forward pass over (cell, balance) states (fast on real sentences),
    ``"integer-programme"`` an integer programme (HiGHS, through scipy); ``"auto"`` (default) uses the
    first and falls back to the second when more than ``STATE_BUDGET`` states beyond the first of each
    cell would be needed (scrambled sentences with long moved blocks). Ties left after the two criteria (same M and S)
    are broken arbitrarily: they change which tokens are listed, never the counts. The integer programme is
    bounded by :data:`NODE_LIMIT`: past it, :class:`AlignmentTooHard` (a ``ValueError``), never an alignment
    that is not proven to be the one chosen.
    """
    if method not in ("auto", "states", "integer-programme"):
        raise ValueError(f"unknown method '{method}' (valid: auto, states, integer-programme)")
    r_len = len(reference)
    # a common prefix and suffix align as matches in some alignment that is optimal on all three
    # criteria: exchanging which of two equal tokens is matched changes neither the cost nor the
    # types deleted and inserted
    lo = 0
    hi_r, hi_o = r_len, len(output)
    while lo < hi_r and lo < hi_o and reference[lo] == output[lo]:
        lo += 1
    while hi_r > lo and hi_o > lo and reference[hi_r - 1] == output[hi_o - 1]:
        hi_r -= 1
        hi_o -= 1
    ref = list(reference[lo:hi_r])
    out = list(output[lo:hi_o])
    if not ref or not out:
        return EditOperations((), tuple(ref), tuple(out), r_len)
    g = _Graph(ref, out)
    path = None
    if method != "integer-programme":
        path = _best_path_by_states(g, STATE_BUDGET if method == "auto" else float("inf"))
    if path is None:
        path = _best_path_by_integer_programme(g)
    substituted, deleted, inserted = [], [], []
    for kind, i, j in path:
        if kind == "m":
            if ref[i] != out[j]:
                substituted.append((ref[i], out[j]))
        elif kind == "d":
            deleted.append(ref[i])
        else:
            inserted.append(out[j])
    return EditOperations(tuple(substituted), tuple(deleted), tuple(inserted), r_len)


def treelets(heads: Sequence[int]) -> list[list[int]]:
    """The treelets of a tree, each its words (1-based) in reference order: every non-leaf node with
    all of its dependents; a tree of one word is one treelet of that word."""
    dependents: dict[int, list[int]] = {}
    for k, h in enumerate(heads, start=1):
        if h:
            dependents.setdefault(h, []).append(k)
    if not dependents and len(heads) == 1:
        return [[1]]
    return [sorted([head, *deps]) for head, deps in sorted(dependents.items())]


def tree_counts(
    heads: Sequence[int],
    output_order: Sequence[int | None],
    output_length: int | None = None,
    denominator: str = "reference",
) -> EditCounts:
    """Summed edit counts over the treelets of a reference tree (Bangalore, Rambow & Whittaker 2000, section 3.2).

    ``heads[k]`` is the head (1-based, 0 = root) of reference word k+1 in reference order;
    ``output_order[k]`` is where that word appears in the output (any sortable key), or None when
    the output does not realise it (it then counts as a deletion from each treelet it belongs to).
    Symbols are the reference words themselves (their positions), so repeated word forms cannot be
    confused. An output word that realises no reference word belongs to no treelet and is not
    counted: the paper's procedure, with ``output_length`` None (the default). The variant: with
    ``output_length``, the number of output words, the ones that realise no reference word count one
    insertion each. ``denominator``: "reference" (R = the number of reference words, the default) or
    "treelets" (R = the summed treelet lengths); see the module docstring.
    """
    if denominator not in DENOMINATORS:
        raise ValueError(f"unknown tree denominator '{denominator}' (valid: {', '.join(DENOMINATORS)})")
    if len(output_order) != len(heads):
        raise ValueError(f"output_order has {len(output_order)} entries for {len(heads)} reference words")
    realised_words = sum(1 for p in output_order if p is not None)
    unlinked = 0 if output_length is None else output_length - realised_words
    if unlinked < 0:
        raise ValueError(f"output_length {output_length} is less than the {realised_words} realised reference words")
    ins, dels, subs, moves, length = unlinked, 0, 0, 0, 0
    for treelet in treelets(heads):
        length += len(treelet)
        realised = sorted((w for w in treelet if output_order[w - 1] is not None), key=lambda w: output_order[w - 1])
        if realised == treelet:
            continue
        c = edit_counts(treelet, realised)
        ins += c.insertions
        dels += c.deletions
        subs += c.substitutions
        moves += c.moves
    return EditCounts(ins, dels, subs, moves, len(heads) if denominator == "reference" else length)


def understandability_accuracy(simple_tree_accuracy: float | None, substitutions: int) -> float | None:
    """(1.3147 STA - 0.1039 S - 0.4458) / 0.8689, computed as 1 - (1.3147 (1 - STA) + 0.1039 S) / 0.8689."""
    if simple_tree_accuracy is None:
        return None
    a, b, _, d = UNDERSTANDABILITY
    return 1 - (a * (1 - simple_tree_accuracy) + b * substitutions) / d


def quality_accuracy(simple_tree_accuracy: float | None, substitutions: int) -> float | None:
    """(1.0192 STA - 0.0869 S - 0.3553) / 0.6639, computed as 1 - (1.0192 (1 - STA) + 0.0869 S) / 0.6639."""
    if simple_tree_accuracy is None:
        return None
    a, b, _, d = QUALITY
    return 1 - (a * (1 - simple_tree_accuracy) + b * substitutions) / d
