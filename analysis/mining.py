"""Tree error mining (Narayan & Gardent 2011, as used by Shimorina, Parmentier & Gardent 2021, section 3.4).

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
    printed (the paper's PDF)  S(f) = 1/2 (c(f|F)/c(f) ln c(f) + c(not f|P)/c(f)     ln c(not f))
    failure-term               S(f) = 1/2  c(f|F)/c(f) ln c(f)   (the first term alone; see "Scale")

A term whose count under the logarithm is 0 is 0.

The paper's settings (Shimorina, Parmentier & Gardent 2021, section 5, Tables 5-7 and footnote 10), the defaults of
:class:`MiningSettings`, which ``evalhouse analyze`` records in every row's configuration:

* root excluded (``exclude_root``): forms headed by the root word are not mined (none of the 60
  forms of Tables 5-7 is one; with the root, 29 of the top 50 dep forms on EWT were);
* one representative per occurrence set (``representatives="largest"``): forms that occur in
  exactly the same sentences have the same counts and score; only the largest (most nodes; then the
  first in string order) is kept, and the others are listed as represented by it. Computed once per
  corpus (:func:`corpus_forms`);
* suspicious = score not null (footnote 10: "A form is suspicious if its suspicion score is not
  null"; ``suspicious="non-null"``). Footnote 10 read as the project decided: the miner
  enumerates and scores the forms of the failed trees, so a form has a score exactly when it occurs
  in at least one failed sentence, c(f|F) > 0; a form never seen in a failure has no score and is
  not suspicious. ``suspicious="top-k"`` (the ``top_k`` best-ranked of every form that occurs) keeps
  evalhouse's earlier reading;
* coverage of a form = submissions in which it is suspicious / submissions mined; MSS = mean of its
  scores over the submissions in which it is suspicious (:func:`coverage_and_mss`; in the warehouse,
  the view ``suspicious_subtrees_coverage``).

    >>> settings = MiningSettings()
    >>> settings.signature()
    'root:excluded|representatives:largest|suspicious:non-null|score:narayan-gardent|max_size:3'

Used by ``evalhouse analyze`` (:mod:`evalhouse.statistics.analyze`); a sample of the table it writes
(EWT v2.3 test, the ADAPT run ewt_only, dep view; 1,084 of the 1,825 forms mined are suspicious)::

    $ evalhouse analyze --view dep
    $ evalhouse sql "select rank, form, size, c_f, c_f_fail, round(score, 3) as score from suspicious_subtrees
                     where view = 'dep' and run = 'ewt_only_test_set_13-Oct_11-27' order by rank limit 3"
    rank  form               size  c_f  c_f_fail  score
    1     (list (compound))  2     37   31        4.41
    2     (list (nummod))    2     19   18        4.279
    3     (list (appos))     2     17   15        4.13

Scale. With the Narayan & Gardent score, the second term alone is 1/2 c(not f|P)/c(not f) ln c(not f),
about 1/2 x 0.75 x ln N for a form that is rare next to the N sentences (a 25% failure share): 2.86 on
the 2,077 sentences of EWT, more than the paper's largest MSS (1.21); the first term alone
(``failure-term``) has the paper's scale. docs/statistics.md works both out on the real runs.
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
    ``suspicious``: "non-null" (footnote 10: the form has a score, i.e. it occurs in at least one
    failed sentence, c(f|F) > 0; only those forms are scored) or "top-k" (every form that occurs is
    scored; the ``top_k`` best-ranked are suspicious, what evalhouse did before).
    ``score``: one of SCORES."""

    exclude_root: bool = True
    representatives: str = "largest"
    suspicious: str = "non-null"
    top_k: int = 10
    score: str = "narayan-gardent"
    max_size: int = 3

    def validate(self) -> None:
        for name, value, valid in (
            ("representatives", self.representatives, REPRESENTATIVES),
            ("suspicious", self.suspicious, SUSPICIOUS),
            ("score", self.score, SCORES),
        ):
            if value not in valid:
                raise ValueError(f"unknown {name} '{value}' (valid: {', '.join(valid)})")
        if self.max_size < 2:
            raise ValueError("max_size must be at least 2")
        if self.suspicious == "top-k" and self.top_k < 1:
            raise ValueError("top_k must be at least 1")

    def signature(self) -> str:
        self.validate()
        suspicious = self.suspicious if self.suspicious == "non-null" else f"top-{self.top_k}"
        return "|".join(
            [
                f"root:{'excluded' if self.exclude_root else 'included'}",
                f"representatives:{self.representatives}",
                f"suspicious:{suspicious}",
                f"score:{self.score}",
                f"max_size:{self.max_size}",
            ]
        )


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
                    partial = [
                        (s + ks, shape + (kshape,))
                        for s, shape in partial
                        for ks, kshape in rooted(kid, budget - 1)
                        if s + ks <= budget
                    ]
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


def sentence_forms(
    heads, relations, upos, lemmas, views=VIEWS, max_size: int = 3, exclude_root: bool = False, sizes: bool = False
) -> dict[str, set[str]] | dict[str, dict[str, int]]:
    """view -> the set of forms of one sentence (with ``sizes``: form -> number of nodes).

    ``exclude_root`` defaults to False here (every rooted subtree of the tree); the miners
    (:func:`corpus_forms`, ``evalhouse augment``) pass the setting they record, by default
    ``MiningSettings().exclude_root`` (True)."""
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


def form_occurrences(
    heads, relations, upos, lemmas, view: str, forms, max_size: int = 3, exclude_root: bool = False
) -> dict[str, list[list[int]]]:
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
        rows = csc.indices[csc.indptr[j] : csc.indptr[j + 1]][csc.data[csc.indptr[j] : csc.indptr[j + 1]] != 0]
        groups.setdefault(np.asarray(rows, dtype=np.int64).tobytes(), []).append(j)
    out = np.arange(csc.shape[1])
    for members in groups.values():
        if len(members) > 1:
            best = min(members, key=lambda j: (-sizes[j], names[j]))
            out[members] = best
    return out


@dataclass(frozen=True)
class CorpusForms:
    """The forms of one view over a corpus, as mined: column j of ``matrix`` (sentences x forms, CSR,
    1 where the sentence contains the form) is the form ``names[j]`` with ``sizes[j]`` nodes;
    ``represents[j]`` lists, in string order, the other forms that occur in exactly the same sentences
    and that it stands for (always empty with ``representatives="all"``). ``enumerated`` counts the
    distinct forms before one representative per occurrence set was kept."""

    names: np.ndarray
    sizes: np.ndarray
    matrix: object
    represents: tuple[tuple[str, ...], ...]
    enumerated: int


def corpus_forms(
    trees: Iterable[tuple[Sequence[int], Sequence[str], Sequence[str], Sequence[str]]],
    views: Sequence[str] = VIEWS,
    settings: MiningSettings | None = None,
) -> dict[str, CorpusForms]:
    """view -> :class:`CorpusForms` of a corpus; row i of each matrix is the i-th tree of ``trees``
    (``(heads, relations, upos, lemmas)`` of one punctuation-stripped sentence, heads 1-based, 0 for
    the root). Forms follow ``settings`` (root excluded or not, ``max_size``); with
    ``representatives="largest"`` only one form per occurrence set is kept (:func:`representatives`),
    once for the corpus: forms with the same sentences have the same counts in every submission."""
    from scipy import sparse

    settings = settings or MiningSettings()
    settings.validate()
    vocab: dict[str, dict[str, int]] = {v: {} for v in views}
    sizes: dict[str, list[int]] = {v: [] for v in views}
    cells: dict[str, tuple[list[int], list[int]]] = {v: ([], []) for v in views}
    rows = 0
    for row, (heads, relations, upos, lemmas) in enumerate(trees):
        rows = row + 1
        forms = sentence_forms(
            list(heads),
            list(relations),
            list(upos),
            list(lemmas),
            views=views,
            max_size=settings.max_size,
            exclude_root=settings.exclude_root,
            sizes=True,
        )
        for v in views:
            names, rs, cs = vocab[v], cells[v][0], cells[v][1]
            for form, size in forms[v].items():
                j = names.setdefault(form, len(names))
                if j == len(sizes[v]):
                    sizes[v].append(size)
                rs.append(row)
                cs.append(j)
    out = {}
    for v in views:
        names = np.array(list(vocab[v]), dtype=object)
        size = np.array(sizes[v], dtype=np.int64)
        matrix = sparse.csr_matrix((np.ones(len(cells[v][0]), dtype=np.int32), cells[v]), shape=(rows, len(names)))
        if settings.representatives == "largest" and len(names):
            rep = representatives(matrix, size, list(names))
            keep = np.flatnonzero(rep == np.arange(len(names)))
            others: dict[int, list[str]] = {}
            for j, r in enumerate(rep):
                if r != j:
                    others.setdefault(int(r), []).append(names[j])
            represents = tuple(tuple(sorted(others.get(int(j), ()))) for j in keep)
            out[v] = CorpusForms(names[keep], size[keep], matrix[:, keep].tocsr(), represents, len(names))
        else:
            out[v] = CorpusForms(names, size, matrix, tuple(() for _ in names), len(names))
    return out


def score_forms(forms: CorpusForms, failures, usable=None, settings: MiningSettings | None = None) -> dict:
    """Counts, scores, ranks and the suspicious mask of the forms of one submission in one view.

    ``failures`` marks the failed sentences (rows of ``forms.matrix``); ``usable`` the sentences that
    take part (default: all; a sentence without a value of the failure metric does not). Which forms
    are scored depends on ``settings.suspicious``: "non-null" scores the forms of the failed trees
    (c(f|F) > 0), every one of them suspicious; "top-k" scores every form that occurs and marks the
    ``top_k`` best. Rank 1 is the most suspicious: score descending, then more sentences, then form
    text. Returns a dict of equal-length arrays in rank order: ``column`` (into ``forms``), ``c_f``,
    ``c_f_fail``, ``c_notf``, ``c_notf_pass``, ``score``, ``rank``, ``suspicious``."""
    settings = settings or MiningSettings()
    settings.validate()
    failures = np.asarray(failures, dtype=bool)
    usable = np.ones(len(failures), dtype=bool) if usable is None else np.asarray(usable, dtype=bool)
    m = forms.matrix[usable]
    fail = failures[usable]
    total, n_fail = int(usable.sum()), int(fail.sum())
    c_f = np.asarray(m.sum(axis=0)).ravel().astype(np.int64)
    c_f_fail = np.asarray(m[fail].sum(axis=0)).ravel().astype(np.int64) if n_fail else np.zeros_like(c_f)
    scored = c_f_fail > 0 if settings.suspicious == "non-null" else c_f > 0
    column = np.flatnonzero(scored)
    c_f, c_f_fail = c_f[column], c_f_fail[column]
    c_notf = total - c_f
    c_notf_pass = (total - n_fail) - (c_f - c_f_fail)
    score = suspicion(c_f, c_f_fail, c_notf, c_notf_pass, settings.score)
    order = np.lexsort((forms.names[column].astype(str), -c_f, -score))
    rank = np.arange(1, len(order) + 1)
    out = {
        "column": column[order],
        "c_f": c_f[order],
        "c_f_fail": c_f_fail[order],
        "c_notf": c_notf[order],
        "c_notf_pass": c_notf_pass[order],
        "score": score[order],
        "rank": rank,
    }
    out["suspicious"] = is_suspicious(out["c_f_fail"], rank, settings)
    return out


def is_suspicious(c_f_fail=None, ranks=None, settings: MiningSettings | None = None) -> np.ndarray:
    """Boolean mask of the suspicious forms. "non-null" (the default): the form occurs in at least one
    failed sentence, c(f|F) > 0 -- the forms the miner scores (footnote 10, as the project decided);
    "top-k": rank <= top_k."""
    settings = settings or MiningSettings()
    settings.validate()
    if settings.suspicious == "non-null":
        if c_f_fail is None:
            raise ValueError("suspicious='non-null' needs the failure counts c(f|F)")
        return np.asarray(c_f_fail) > 0
    if ranks is None:
        raise ValueError("suspicious='top-k' needs the ranks")
    return np.asarray(ranks) <= settings.top_k


def coverage_and_mss(
    per_submission: Iterable[dict[str, float]], submissions: int | None = None
) -> dict[str, tuple[int, float, float]]:
    """Tables 5-7 of Shimorina, Parmentier & Gardent (2021): form -> (submissions in which it is suspicious, coverage, MSS).

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
    return {form: (len(v), len(v) / total if total else float("nan"), sum(v) / len(v)) for form, v in seen.items()}


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
