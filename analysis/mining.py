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
    failure-term               S(f) = 1/2  c(f|F)/c(f) ln c(f)   (the first term alone; see "Scale")

A term whose count under the logarithm is 0 is 0.

The paper's settings (seed 000/001 section 5, Tables 5-7 and footnote 10), the defaults of
:class:`MiningSettings`, which the service layer records as its configuration string:

* root excluded (``exclude_root``): forms headed by the root word are not mined (none of the 60
  forms of Tables 5-7 is one; with the root, 29 of the top 50 dep forms on EWT were);
* one representative per occurrence set (``representatives="largest"``): forms that occur in
  exactly the same sentences have the same counts and score; only the largest (most nodes; then the
  first in string order) is kept, and the others are listed as represented by it;
* suspicious = score not null (footnote 10: "A form is suspicious if its suspicion score is not
  null"; ``suspicious="non-null"``, i.e. S(f) > 0) rather than "in the top k";
* coverage of a form = submissions in which it is suspicious / submissions mined; MSS = mean of its
  scores over the submissions in which it is suspicious (:func:`coverage_and_mss`).

    >>> settings = MiningSettings()
    >>> settings.signature()
    'root:excluded|representatives:largest|suspicious:non-null|score:narayan-gardent|max_size:3'

Scale. With the Narayan & Gardent score, the second term alone is 1/2 c(not f|P)/c(not f) ln c(not f),
about 1/2 x 0.75 x ln N for a form that is rare next to the N sentences (a 25% failure share): 2.86 on
the 2,077 sentences of EWT, more than the paper's largest MSS (1.21). It is positive whenever two
sentences lack the form and one of them passes, so with this score footnote 10's "not null" holds for
every form that occurs. The first term alone (``failure-term``) is null for a form never seen in a
failure and has the paper's scale. docs/statistics.md works both out on the real runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

import numpy as np

VIEWS = ("dep", "pos", "pos-dep", "lemma")
SCORES = ("narayan-gardent", "printed", "failure-term")
REPRESENTATIVES = ("largest", "all")
SUSPICIOUS = ("non-null", "top-k")


@dataclass(frozen=True)
class MiningSettings:
    """How forms are mined and when a form counts as suspicious; the defaults are the paper's.

    ``exclude_root``: no form headed by the root word. ``representatives``: "largest" keeps one form
    per set of sentences it occurs in (see :func:`representatives`), "all" keeps every form.
    ``suspicious``: "non-null" (footnote 10: score > 0) or "top-k" (the ``top_k`` best-ranked forms
    of a submission, what evalhouse did before issue 16). ``score``: one of SCORES."""

    exclude_root: bool = True
    representatives: str = "largest"
    suspicious: str = "non-null"
    top_k: int = 10
    score: str = "narayan-gardent"
    max_size: int = 3

    def validate(self) -> None:
        for name, value, valid in (("representatives", self.representatives, REPRESENTATIVES),
                                   ("suspicious", self.suspicious, SUSPICIOUS), ("score", self.score, SCORES)):
            if value not in valid:
                raise ValueError(f"unknown {name} '{value}' (valid: {', '.join(valid)})")
        if self.max_size < 2:
            raise ValueError("max_size must be at least 2")
        if self.suspicious == "top-k" and self.top_k < 1:
            raise ValueError("top_k must be at least 1")

    def signature(self) -> str:
        self.validate()
        suspicious = self.suspicious if self.suspicious == "non-null" else f"top-{self.top_k}"
        return "|".join([f"root:{'excluded' if self.exclude_root else 'included'}",
                         f"representatives:{self.representatives}", f"suspicious:{suspicious}",
                         f"score:{self.score}", f"max_size:{self.max_size}"])


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


def subtree_shapes(heads: list[int], max_size: int = 3, exclude_root: bool = False) -> list[tuple]:
    """Every rooted connected subtree of 2..max_size nodes, as a nested tuple (node, (child shapes...)).

    ``heads[i]`` is the 1-based head of word i + 1 (0 for the root); nodes in the shapes are 0-based.
    ``exclude_root`` leaves out the subtrees headed by a root word (head 0): the root can only be the
    top of a subtree, so these are exactly the subtrees that contain it."""
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
        if exclude_root and heads[node] == 0:
            continue
        shapes += [shape for size, shape in rooted(node, max_size) if size >= 2]
    return shapes


def shape_size(shape: tuple) -> int:
    """Number of nodes of a shape."""
    return 1 + sum(shape_size(k) for k in shape[1])


def render(shape: tuple, labels: list[str]) -> str:
    node, kids = shape
    return canonical(labels[node], [render(k, labels) for k in kids])


def sentence_forms(heads, relations, upos, lemmas, views=VIEWS, max_size: int = 3, exclude_root: bool = False,
                   sizes: bool = False) -> dict[str, set[str]] | dict[str, dict[str, int]]:
    """view -> the set of forms of one sentence (with ``sizes``: form -> number of nodes).

    ``exclude_root`` defaults to False here so that a caller that does not record the setting keeps
    today's forms; callers that mine as the paper does pass ``MiningSettings().exclude_root`` (True)
    and record ``MiningSettings.signature()``."""
    shapes = subtree_shapes(list(heads), max_size, exclude_root)
    out = {}
    for view in views:
        labels = [label(view, r, u, l) for r, u, l in zip(relations, upos, lemmas)]
        if sizes:
            out[view] = {render(s, labels): shape_size(s) for s in shapes}
        else:
            out[view] = {render(s, labels) for s in shapes}
    return out


def shape_nodes(shape: tuple) -> list[int]:
    """The (0-based) nodes of a shape, sorted."""
    node, kids = shape
    return sorted([node] + [n for k in kids for n in shape_nodes(k)])


def form_occurrences(heads, relations, upos, lemmas, view: str, forms, max_size: int = 3,
                     exclude_root: bool = False) -> dict[str, list[list[int]]]:
    """form -> the node sets (0-based, sorted) where each of ``forms`` occurs in one sentence of ``view``:
    the same subtrees and labels as :func:`sentence_forms`, so a form occurs here exactly when
    :func:`sentence_forms` lists it. The report uses it to highlight a suspicious subtree in an example."""
    wanted = set(forms)
    labels = [label(view, r, u, l) for r, u, l in zip(relations, upos, lemmas)]
    out: dict[str, list[list[int]]] = {}
    for shape in subtree_shapes(list(heads), max_size, exclude_root):
        text = render(shape, labels)
        if text in wanted:
            nodes = shape_nodes(shape)
            if nodes not in out.setdefault(text, []):
                out[text].append(nodes)
    return out


def representatives(matrix, sizes: Sequence[int], names: Sequence[str]) -> np.ndarray:
    """For each form (column of ``matrix``, sentences x forms, non-zero where the sentence contains
    the form), the index of the form that represents it: among the forms that occur in exactly the
    same sentences, the one with most nodes, then the first in string order. Such forms have the same
    counts, hence the same score, in every submission; nested forms that never occur apart are the
    common case ((list (nummod)) and (root ((list (nummod)))) on EWT). A form represents itself when
    no other form shares its sentences."""
    from scipy import sparse

    csc = sparse.csc_matrix(matrix)
    csc.sum_duplicates()
    csc.sort_indices()
    groups: dict[bytes, list[int]] = {}
    for j in range(csc.shape[1]):
        rows = csc.indices[csc.indptr[j]:csc.indptr[j + 1]][csc.data[csc.indptr[j]:csc.indptr[j + 1]] != 0]
        groups.setdefault(np.asarray(rows, dtype=np.int64).tobytes(), []).append(j)
    out = np.arange(csc.shape[1])
    for members in groups.values():
        if len(members) > 1:
            best = min(members, key=lambda j: (-sizes[j], names[j]))
            out[members] = best
    return out


def is_suspicious(scores, ranks=None, settings: MiningSettings | None = None) -> np.ndarray:
    """Boolean mask of the suspicious forms: score > 0 (footnote 10, "non-null"), or rank <= top_k."""
    settings = settings or MiningSettings()
    settings.validate()
    if settings.suspicious == "non-null":
        return np.asarray(scores, dtype=float) > 0
    if ranks is None:
        raise ValueError("suspicious='top-k' needs the ranks")
    return np.asarray(ranks) <= settings.top_k


def coverage_and_mss(per_submission: Iterable[dict[str, float]], submissions: int | None = None
                     ) -> dict[str, tuple[int, float, float]]:
    """Seed Tables 5-7: form -> (submissions in which it is suspicious, coverage, MSS).

    ``per_submission`` holds, for each submission mined, its suspicious forms and their scores.
    Coverage = submissions in which the form is suspicious / ``submissions`` (default: the number of
    submissions given; the paper's "percentage of submissions where a subtree was mined as
    suspicious"); MSS = the mean of its scores over those submissions ("mean suspicion score")."""
    seen: dict[str, list[float]] = {}
    count = 0
    for forms in per_submission:
        count += 1
        for form, score in forms.items():
            seen.setdefault(form, []).append(float(score))
    total = count if submissions is None else submissions
    if total < count:
        raise ValueError(f"{count} submissions given but submissions={total}")
    return {form: (len(v), len(v) / total if total else float("nan"), sum(v) / len(v))
            for form, v in seen.items()}


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
        elif form == "failure-term":
            second = 0.0
        else:
            raise ValueError(f"unknown suspicion score '{form}' (valid: {', '.join(SCORES)})")
    return 0.5 * (first + second)
