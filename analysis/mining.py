"""Tree error mining (Narayan & Gardent 2011, as used by Shimorina et al. seed 000/001 section 3.4).

Forms are the rooted connected subtrees of the punctuation-stripped reference tree with 2 to
``max_size`` nodes (default 3: a node with one dependent, a node with two dependents, a chain of
three). A node is labelled according to the view:

    dep      the node's base relation            conj
    pos      its UPOS                            VERB
    pos-dep  UPOS~relation                       VERB~conj
    lemma    its lemma                           and

Dependents are unordered. A form is written canonically: a leaf is its label; a node with dependents
is ``(label (d1 d2 ...))`` with the dependents' strings sorted (Python string order). So
``(conj (advmod advmod))`` is a conj node with two advmod dependents, ``(VERB~conj (ADV~advmod))`` a
VERB conj with one ADV advmod, and ``(conj ((nsubj (det))))`` the chain conj -> nsubj -> det.

Suspicion scores from sentence-level counts (a sentence counts once however often the form occurs):
c(f) sentences containing f, c(not f) = N - c(f), c(f|F) failures containing f, c(not f|P) successes
without f.

    narayan-gardent (default)  S(f) = 1/2 (c(f|F)/c(f) ln c(f) + c(not f|P)/c(not f) ln c(not f))
    printed (seed 001)         S(f) = 1/2 (c(f|F)/c(f) ln c(f) + c(not f|P)/c(f)     ln c(not f))

A term whose count under the logarithm is 0 is 0.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

VIEWS = ("dep", "pos", "pos-dep", "lemma")
SCORES = ("narayan-gardent", "printed")


def label(view: str, relation: str, upos: str, lemma: str) -> str:
    if view == "dep":
        return relation
    if view == "pos":
        return upos
    if view == "pos-dep":
        return f"{upos}~{relation}"
    if view == "lemma":
        return lemma
    raise ValueError(f"unknown view '{view}' (valid: {', '.join(VIEWS)})")


def canonical(node_label: str, children: list[str]) -> str:
    if not children:
        return node_label
    return f"({node_label} ({' '.join(sorted(children))}))"


def subtree_shapes(heads: list[int], max_size: int = 3) -> list[tuple]:
    """Every rooted connected subtree of 2..max_size nodes, as a nested tuple (node, (child shapes...)).

    ``heads[i]`` is the 1-based head of word i + 1 (0 for the root); nodes in the shapes are 0-based."""
    n = len(heads)
    children: list[list[int]] = [[] for _ in range(n)]
    for i, h in enumerate(heads):
        if h > 0:
            children[h - 1].append(i)
    memo: dict[tuple[int, int], list[tuple[int, tuple]]] = {}

    def rooted(node: int, budget: int) -> list[tuple[int, tuple]]:
        """(size, shape) of the subtrees rooted at node with at most budget nodes (size 1 included)."""
        key = (node, budget)
        if key in memo:
            return memo[key]
        out = [(1, (node, ()))]
        kids = children[node]
        for r in range(1, min(len(kids), budget - 1) + 1):
            for chosen in combinations(kids, r):
                partial = [(1, ())]
                for kid in chosen:
                    partial = [(s + ks, shape + (kshape,)) for s, shape in partial
                               for ks, kshape in rooted(kid, budget - 1) if s + ks <= budget]
                out += [(s, (node, shape)) for s, shape in partial]
        memo[key] = out
        return out

    shapes = []
    for node in range(n):
        shapes += [shape for size, shape in rooted(node, max_size) if size >= 2]
    return shapes


def render(shape: tuple, labels: list[str]) -> str:
    node, kids = shape
    return canonical(labels[node], [render(k, labels) for k in kids])


def sentence_forms(heads, relations, upos, lemmas, views=VIEWS, max_size: int = 3) -> dict[str, set[str]]:
    """view -> the set of forms of one sentence."""
    shapes = subtree_shapes(list(heads), max_size)
    out = {}
    for view in views:
        labels = [label(view, r, u, l) for r, u, l in zip(relations, upos, lemmas)]
        out[view] = {render(s, labels) for s in shapes}
    return out


def suspicion(c_f, c_f_fail, c_notf, c_notf_pass, form: str = "narayan-gardent") -> np.ndarray:
    """Suspicion scores (arrays of counts); see the module docstring."""
    c_f, c_f_fail, c_notf, c_notf_pass = (np.asarray(v, dtype=float) for v in (c_f, c_f_fail, c_notf, c_notf_pass))
    with np.errstate(divide="ignore", invalid="ignore"):
        log_f = np.where(c_f > 0, np.log(np.where(c_f > 0, c_f, 1)), 0.0)
        log_notf = np.where(c_notf > 0, np.log(np.where(c_notf > 0, c_notf, 1)), 0.0)
        first = np.where(c_f > 0, c_f_fail / np.where(c_f > 0, c_f, 1), 0.0) * log_f
        if form == "narayan-gardent":
            second = np.where(c_notf > 0, c_notf_pass / np.where(c_notf > 0, c_notf, 1), 0.0) * log_notf
        elif form == "printed":
            second = np.where(c_f > 0, c_notf_pass / np.where(c_f > 0, c_f, 1), 0.0) * log_notf
        else:
            raise ValueError(f"unknown suspicion score '{form}' (valid: {', '.join(SCORES)})")
    return 0.5 * (first + second)
