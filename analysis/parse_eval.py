"""GEIG/PARSEVAL bracket scoring as EVALB does it (Sekine & Collins 1997), and the tree preparation
that both GEIG and the leaf-ancestor metric score.

Used by ``evalhouse ingest parses`` and ``evalhouse evalb``::

    $ evalhouse evalb ../shared/data/constituency/evalb/sample.gld ../shared/data/constituency/evalb/sample.tst \\
          --prm ../shared/data/constituency/evalb/sample.prm
      Sent.                        Matched  Bracket   Cross        Correct Tag
     ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy
    ...

Preparation of a tree under a parameter set (EVALB's .prm semantics):

* function tags and indices are cut from every label (``NP-SBJ-1`` -> ``NP``, ``NP=2`` -> ``NP``);
  labels of the form ``-XXX-`` (``-NONE-``, ``-LRB-``) are kept whole;
* ``DELETE_LABEL``: a preterminal with that label is deleted with its word; a nonterminal with that
  label loses its brackets (its children stay); a constituent left with no word disappears;
* ``EQ_LABEL``: equivalent labels are mapped to one representative (the smallest in sort order);
* ``EQ_WORD``: equivalent words compare equal;
* ``DELETE_LABEL_FOR_LENGTH``: words not counted in the sentence length used for ``CUTOFF_LEN``.

Per sentence (sufficient statistics; every ratio is computed from them in SQL):
status 0 ok, 1 error (length or word mismatch between gold and test), 2 skip (empty test parse);
gold/test/matched bracket counts, labelled and unlabelled (a multiset intersection of
(label, start, end) or (start, end)); crossing brackets (test brackets that overlap a gold bracket
without nesting); words and correctly tagged words.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

try:
    from evalhouse.analysis import _evalb
except ImportError:  # installed without a C compiler: the Python reader and scorer do all the work
    _evalb = None

_KEEP_WHOLE = re.compile(r"^-[^-]+-$")
_CUT = re.compile(r"[-=]")

STATUS_OK, STATUS_ERROR, STATUS_SKIP = 0, 1, 2
STATUS_NAMES = {STATUS_OK: "ok", STATUS_ERROR: "error", STATUS_SKIP: "skip"}


def base_label(label: str) -> str:
    """EVALB's label: function tags and indices removed (``-NONE-`` and ``-LRB-`` kept whole)."""
    if _KEEP_WHOLE.match(label):
        return label
    m = _CUT.search(label, 1)
    return label[:m.start()] if m else label


@dataclass(frozen=True)
class EvalbParams:
    """The options of an EVALB parameter file; ``describe()`` is recorded with every score."""

    delete_labels: frozenset[str] = frozenset()
    delete_labels_for_length: frozenset[str] = frozenset()
    eq_labels: tuple[tuple[str, str], ...] = ()
    eq_words: tuple[tuple[str, str], ...] = ()
    cutoff_len: int = 40
    labeled: bool = True
    max_error: int | None = None
    source: str = "none"  # "none", "collins" (built-in default) or the .prm path
    quote_labels: tuple[str, ...] = ()
    _label_map: dict = field(default=None, compare=False, hash=False, repr=False)
    _word_map: dict = field(default=None, compare=False, hash=False, repr=False)
    _classified: dict = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_label_map", _classes(self.eq_labels))
        object.__setattr__(self, "_word_map", _classes(self.eq_words))
        object.__setattr__(self, "_classified", {})

    def label(self, raw: str) -> str:
        b = base_label(raw)
        return self._label_map.get(b, b)

    def classify(self, raw: str) -> tuple[str, bool, bool]:
        """(EVALB label, deleted, not counted for length) of a raw label, the one rule for POS tags and
        nonterminals alike: DELETE_LABEL applies to the mapped or the base label, DELETE_LABEL_FOR_LENGTH
        to the base label.  Cached: a treebank has few distinct labels."""
        hit = self._classified.get(raw)
        if hit is None:
            b = base_label(raw)
            mapped = self._label_map.get(b, b)
            hit = self._classified[raw] = (mapped, mapped in self.delete_labels or b in self.delete_labels,
                                           b in self.delete_labels_for_length)
        return hit

    def word(self, raw: str) -> str:
        return self._word_map.get(raw, raw)

    def describe(self) -> dict:
        return {"source": self.source,
                "delete_labels": sorted(self.delete_labels),
                "delete_labels_for_length": sorted(self.delete_labels_for_length),
                "eq_labels": [list(p) for p in self.eq_labels],
                "eq_words": [list(p) for p in self.eq_words],
                "cutoff_len": self.cutoff_len,
                "labeled": self.labeled,
                "max_error": self.max_error,
                "quote_labels": list(self.quote_labels),
                "function_tags": "stripped"}


def _classes(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Union of non-directional equivalences -> {member: representative (smallest)}."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {x: find(x) for x in list(parent)}


NO_PARAMS = EvalbParams(source="none")
# EVALB's COLLINS.prm, the usual setting for Penn Treebank parsing results.
COLLINS = EvalbParams(delete_labels=frozenset({"TOP", "-NONE-", ",", ":", "``", "''", "."}),
                      delete_labels_for_length=frozenset({"-NONE-"}),
                      eq_labels=(("ADVP", "PRT"),), cutoff_len=40, labeled=True, max_error=10,
                      source="collins")


@dataclass
class Prepared:
    """A tree ready for scoring: kept words, their POS, nonterminals (label, parent, start, end)."""

    words: list[str]
    pos: list[str | None]
    nodes: list[tuple[str, int, int, int]]
    length: int  # EVALB's "Len.": words not deleted for length (counted before DELETE_LABEL)
    empty: bool  # no words at all (an empty line)


def prepare(words: Sequence[str], pos: Sequence[str | None], nodes: Sequence[tuple[str, int, int, int]],
            params: EvalbParams) -> Prepared:
    """Apply DELETE_LABEL, function-tag stripping and EQ_LABEL to a parsed tree."""
    classify = params.classify
    length = 0
    new_words, new_pos = [], []
    before = [0]  # kept leaves before each leaf -> new spans
    kept = 0
    for w, p in zip(words, pos):
        if p is None:  # seed 002's notation: no POS, nothing deleted
            length += 1
            label, deleted = None, False
        else:
            label, deleted, not_counted = classify(p)
            if not not_counted:
                length += 1
        if not deleted:
            kept += 1
            new_words.append(w)
            new_pos.append(label)
        before.append(kept)
    new_nodes: list[tuple[str, int, int, int]] = []
    remap: list[int] = []
    for label, parent, start, end in nodes:
        lab, deleted, _ = classify(label)
        s, e = before[start], before[end]
        up = remap[parent] if parent >= 0 else -1
        if e == s or deleted:
            remap.append(up)  # children attach to the nearest kept ancestor
            continue
        remap.append(len(new_nodes))
        new_nodes.append((lab, up, s, e))
    return Prepared(new_words, new_pos, new_nodes, length, empty=len(words) == 0)


@dataclass(frozen=True)
class BracketCounts:
    status: int
    message: str | None
    length: int
    words: int
    gold_brackets: int
    test_brackets: int
    matched_labelled: int
    matched_unlabelled: int
    crossing: int
    correct_tags: int


def compare(gold: Prepared, test: Prepared, params: EvalbParams) -> BracketCounts:
    """EVALB's per-sentence comparison (status, bracket counts, crossing, tags)."""
    if test.empty or gold.empty:
        return BracketCounts(STATUS_SKIP, "empty test parse" if test.empty else "empty gold parse",
                             gold.length, len(gold.words), 0, 0, 0, 0, 0, 0)
    if len(gold.words) != len(test.words):
        return BracketCounts(STATUS_ERROR, f"length mismatch ({len(gold.words)}|{len(test.words)})",
                             gold.length, len(gold.words), 0, 0, 0, 0, 0, 0)
    for i, (g, t) in enumerate(zip(gold.words, test.words)):
        if g != t and params.word(g) != params.word(t):
            return BracketCounts(STATUS_ERROR, f"word mismatch at word {i + 1} ({g}|{t})",
                                 gold.length, len(gold.words), 0, 0, 0, 0, 0, 0)
    gl = Counter((lab, s, e) for lab, _, s, e in gold.nodes)
    tl = Counter((lab, s, e) for lab, _, s, e in test.nodes)
    gu = Counter((s, e) for _, _, s, e in gold.nodes)
    tu = Counter((s, e) for _, _, s, e in test.nodes)
    matched_l = sum((gl & tl).values())
    matched_u = sum((gu & tu).values())
    gold_spans = list(gu)
    crossing = 0
    for _, _, s, e in test.nodes:
        for gs, ge in gold_spans:
            if (gs < s < ge < e) or (s < gs < e < ge):
                crossing += 1
                break
    tags = sum(1 for a, b in zip(gold.pos, test.pos) if a == b)
    return BracketCounts(STATUS_OK, None, gold.length, len(gold.words), len(gold.nodes), len(test.nodes),
                         matched_l, matched_u, crossing, tags)


GEIG_COLUMNS = ("status_code", "length", "words", "gold_brackets", "test_brackets", "matched_labelled",
                "matched_unlabelled", "crossing", "correct_tags")


def geig_counts_of_lines(gold_text: str, test_text: str, params: EvalbParams) -> list[tuple[int, ...]] | None:
    """Per sentence, :data:`GEIG_COLUMNS` of two texts with one Penn Treebank tree per line (EVALB's
    layout), computed in C (``_evalb.c``) with this module's rules; ``None`` when the Python reader must
    read the texts: different line counts, seed 002's notation, or any malformed line (whose error the
    loader then reports).  Equal, sentence by sentence, to :func:`prepare` and :func:`compare` over
    :func:`evalhouse.loaders.brackets.read_trees` (``tests/test_parses_fast.py``)."""
    if _evalb is None:
        return None
    ids: dict[str, int] = {}

    def classify(raw: str) -> tuple[int, bool, bool]:
        label, deleted, not_counted = params.classify(raw)
        return ids.setdefault(label, len(ids)), deleted, not_counted

    def word_equal(gold: str, test: str) -> bool:
        return params.word(gold) == params.word(test)

    data = _evalb.geig_lines(gold_text, test_text, classify, word_equal if params.eq_words else None)
    if data is None:
        return None
    values = array("i")
    values.frombytes(data)
    return list(zip(*[iter(values)] * len(GEIG_COLUMNS)))


def f_score(matched: int, gold: int, test: int) -> float:
    """Harmonic mean of precision and recall (0 when nothing matched; 1 when both are empty)."""
    if gold == 0 and test == 0:
        return 1.0
    if matched == 0:
        return 0.0
    p, r = matched / test, matched / gold
    return 2 * p * r / (p + r)
