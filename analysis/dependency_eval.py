"""LAS/UAS as the CoNLL 2018 shared task defines them, and the leaf-ancestor metric for dependency trees.

Used by ``evalhouse ingest dependency-run`` (results in ``dependency_word_scores``; views
``dependency_scores`` and ``dependency_scores_by_relation``)::

    $ evalhouse sql "select team, las_f1, uas_f1, la_gold_mean from dependency_scores"

**Word alignment (CoNLL 2018).** Both files' forms (spaces removed) must spell the same characters.
Words outside multiword tokens align when their tokens have the same character span. Inside a region
where either side has a multiword token, words align along a longest common subsequence of their
lower-cased forms.  **UAS**: an aligned word whose system head is aligned to its gold head (or both
are roots).  **LAS**: the same, and the universal part of the relation (before ``:``) equal.
Precision = correct / system words, recall = correct / gold words, F1 = 2 correct / (gold + system).

**Dependency lineage** (seed 002, section 1 says LA applies to dependency trees; the definition here
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

from .leaf_ancestor import LEFT, RIGHT, STRICT, LabelCost, Scorer


class AlignmentError(ValueError):
    pass


def universal(deprel: str) -> str:
    return deprel.split(":", 1)[0]


def align(g, s) -> list[int]:
    """For each gold word, the index of its aligned system word, or -1 (the CoNLL 2018 procedure)."""
    if g.characters != s.characters:
        i = 0
        while i < min(len(g.characters), len(s.characters)) and g.characters[i] == s.characters[i]:
            i += 1
        raise AlignmentError("the gold and system files spell different texts: first difference at character "
                             f"{i}: gold '{''.join(g.characters[i:i + 20])}', system '{''.join(s.characters[i:i + 20])}'")
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


@dataclass
class WordScores:
    """Per gold word: aligned system word (-1), head/label correctness, lineages and LA."""

    aligned: list[int]
    uas: list[bool]
    las: list[bool]
    gold_lineage: list[str]
    system_lineage: list[str | None]
    distance: list[float | None]
    la: list[float]
    system_words: int


def score(g, s, cost: LabelCost = STRICT) -> WordScores:
    a = align(g, s)
    back = {si: gi for gi, si in enumerate(a) if si >= 0}  # system word -> gold word
    gl, sl = dependency_lineages(g), dependency_lineages(s)
    scorer = Scorer(cost)
    uas, las, slin, dist, la = [], [], [], [], []
    for gi, si in enumerate(a):
        if si < 0:
            uas.append(False)
            las.append(False)
            slin.append(None)
            dist.append(None)
            la.append(0.0)
            continue
        gh, sh = g.head[gi], s.head[si]
        head_ok = (gh == -1 and sh == -1) or (gh != -1 and sh != -1 and back.get(sh) == gh)
        uas.append(head_ok)
        las.append(head_ok and universal(g.deprel[gi]) == universal(s.deprel[si]))
        d, v = scorer(gl[gi], sl[si])
        slin.append(" ".join(sl[si]))
        dist.append(d)
        la.append(v)
    return WordScores(a, uas, las, [" ".join(x) for x in gl], slin, dist, la, len(s.form))
