"""String and tree accuracy of Bangalore, Rambow & Whittaker (2000), seed 003.

    $ evalhouse sql "select team, run, avg(ssa), avg(gsa), avg(sta), avg(gta) from sentence_scores group by all"

Counts come from a minimum-cost alignment of the output tokens to the reference tokens with
unit-cost insertion (I), deletion (D) and substitution (S): a substitution (1) is cheaper than a
deletion plus an insertion (2), as the paper requires. With R reference tokens:

    simple string accuracy      SSA = 1 - (I + D + S) / R
    generation string accuracy  GSA = 1 - (M + I' + D' + S) / R

where a deletion and an insertion of the same token make one move M (M = sum over token types of
min(deletions, insertions)), I' = I - M and D' = D - M. Simple and generation tree accuracy (STA,
GTA) sum the same counts over the treelets of the reference tree (a head with its dependents: the
reference order against the order of the same nodes in the output) before dividing by the summed
treelet lengths. Understandability and quality accuracy (the published coefficients, see
``../shared/seeds/README.md``) use STA and S, the substitutions of the string alignment (the paper
regresses human scores on "simple tree accuracy and the number of substitutions", and describes a
substitution as a case "in the string metrics").

Several minimum-cost alignments can exist; I + D + S is the same for all of them, M is not. The
backtrace runs from the end of both strings and prefers, in this order, a match or substitution,
then a deletion, then an insertion. On the paper's example (reference "There was no cost estimate
for the second phase", output "There was estimate for phase the second no cost") this gives the
analysis the paper describes: "no" is one move; "cost" and "phase" are one deletion, one
substitution and one insertion; I + D + S = 5 and M + I' + D' + S = 4. A common prefix and suffix
are matched before the search (every minimum-cost alignment can match them).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Hashable, Sequence

SIGNATURE = "edit:unit-costs|backtrace:diagonal>deletion>insertion|evalhouse-accuracy:1"
UNDERSTANDABILITY = (1.3147, 0.1039, 0.4458, 0.8689)
QUALITY = (1.0192, 0.0869, 0.3553, 0.6639)


@dataclass(frozen=True)
class EditCounts:
    insertions: int
    deletions: int
    substitutions: int
    moves: int
    reference_length: int

    def __add__(self, other: "EditCounts") -> "EditCounts":
        return EditCounts(self.insertions + other.insertions, self.deletions + other.deletions,
                          self.substitutions + other.substitutions, self.moves + other.moves,
                          self.reference_length + other.reference_length)

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
        return EditCounts(len(self.inserted), len(self.deleted), len(self.substituted), len(self.moved),
                          self.reference_length)


def edit_counts(reference: Sequence[Hashable], output: Sequence[Hashable]) -> EditCounts:
    """I, D, S and M of a minimum-cost alignment of ``output`` to ``reference``."""
    if len(reference) == len(output) and list(reference) == list(output):
        return EditCounts(0, 0, 0, 0, len(reference))
    ops = edit_operations(reference, output)
    if not ops.deleted or not ops.inserted:
        return EditCounts(len(ops.inserted), len(ops.deleted), len(ops.substituted), 0, ops.reference_length)
    return ops.counts()


def edit_operations(reference: Sequence[Hashable], output: Sequence[Hashable]) -> EditOperations:
    """A minimum-cost alignment of ``output`` to ``reference`` (see the module docstring)."""
    r_len = len(reference)
    # a common prefix and suffix align as matches in every minimum-cost alignment we pick
    lo = 0
    hi_r, hi_o = r_len, len(output)
    while lo < hi_r and lo < hi_o and reference[lo] == output[lo]:
        lo += 1
    while hi_r > lo and hi_o > lo and reference[hi_r - 1] == output[hi_o - 1]:
        hi_r -= 1
        hi_o -= 1
    ref = reference[lo:hi_r]
    out = output[lo:hi_o]
    n, m = len(ref), len(out)
    if n == 0 or m == 0:
        return EditOperations((), tuple(ref), tuple(out), r_len)
    # dist[i][j]: cost of aligning ref[:i] with out[:j]
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
    i, j = n, m
    substituted, deleted, inserted = [], [], []
    while i > 0 or j > 0:
        here = dist[i][j]
        if i > 0 and j > 0:
            same = ref[i - 1] == out[j - 1]
            if dist[i - 1][j - 1] + (0 if same else 1) == here:
                if not same:
                    substituted.append((ref[i - 1], out[j - 1]))
                i -= 1
                j -= 1
                continue
        if i > 0 and dist[i - 1][j] + 1 == here:
            deleted.append(ref[i - 1])
            i -= 1
            continue
        inserted.append(out[j - 1])
        j -= 1
    return EditOperations(tuple(reversed(substituted)), tuple(reversed(deleted)), tuple(reversed(inserted)), r_len)


def tree_counts(heads: Sequence[int], output_order: Sequence[int | None]) -> EditCounts:
    """Summed edit counts over the treelets of a reference tree.

    ``heads[k]`` is the head (1-based, 0 = root) of reference word k+1 in reference order;
    ``output_order[k]`` is where that word appears in the output (any sortable key), or None when
    the output does not realise it (it then counts as a deletion from its treelet). Symbols are the
    reference words themselves (their positions), so repeated word forms cannot be confused.
    """
    dependents: dict[int, list[int]] = {}
    for k, h in enumerate(heads, start=1):
        if h:
            dependents.setdefault(h, []).append(k)
    ins = dels = subs = moves = length = 0
    for head, deps in dependents.items():
        treelet = sorted([head, *deps])
        length += len(treelet)
        realised = sorted((w for w in treelet if output_order[w - 1] is not None), key=lambda w: output_order[w - 1])
        if realised == treelet:
            continue
        c = edit_counts(treelet, realised)
        ins += c.insertions
        dels += c.deletions
        subs += c.substitutions
        moves += c.moves
    return EditCounts(ins, dels, subs, moves, length)


def understandability_accuracy(simple_tree_accuracy: float | None, substitutions: int) -> float | None:
    if simple_tree_accuracy is None:
        return None
    a, b, c, d = UNDERSTANDABILITY
    return (a * simple_tree_accuracy - b * substitutions - c) / d


def quality_accuracy(simple_tree_accuracy: float | None, substitutions: int) -> float | None:
    if simple_tree_accuracy is None:
        return None
    a, b, c, d = QUALITY
    return (a * simple_tree_accuracy - b * substitutions - c) / d
