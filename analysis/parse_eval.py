"""GEIG/PARSEVAL bracket scoring as C EVALB does it, and the tree preparation that both GEIG and the
leaf-ancestor metric score.

Used by ``evalhouse ingest parses`` and ``evalhouse evalb``::

    $ evalhouse evalb ../shared/data/constituency/evalb/sample.gld ../shared/data/constituency/evalb/sample.tst \\
          --prm ../shared/data/constituency/evalb/sample.prm
      Sent.                        Matched  Bracket   Cross        Correct Tag
     ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy
    ============================================================================
       1    4    0  100.00 100.00     4      4    4      0      4     4   100.00
    ...

The rules (:data:`RULES`) are those of ``evalb.c`` in EVALB's current release (Sekine & Collins 1997,
bug-fix release of January 2006, ``../shared/tools/evalb-c``), read from its source; the tests run that
program as a peer.  Per side of a sentence pair (``read_line``):

* a terminal ``(POS word)`` with POS in ``DELETE_LABEL`` (compared as written, no EQ_LABEL) is dropped
  with its word; every other terminal is a word.  The sentence length ("Len.", which decides the
  ``len<=CUTOFF_LEN`` subset) counts the terminals whose POS is not in ``DELETE_LABEL_FOR_LENGTH``,
  dropped ones included, on the gold side;
* every nonterminal is a bracket over the words kept below it, the unlabelled ``( (S ...) )`` wrapper
  of a ``.mrg`` file included (label ``''``); its label is cut at the first ``-`` or ``=``, at any
  position (``NP-SBJ-1`` -> ``NP``, ``-NONE-`` -> ``''``: ``modify_label``);
* a terminal whose POS is a ``QUOTE_LABEL`` and whose word is ``'``, ``"`` or ``/`` is remembered with
  its place (a quote term).

Per pair (``calc_result``): status 2 (skip) when the test side kept no word; when the word counts
differ, a quote term deleted on one side and kept, with another label, at the same place on the other
is put back where it was (``fix_quote``); then status 1 (error) when the counts still differ or a word
differs (``EQ_WORD`` pairs compare equal); else status 0 and the counts: a bracket over no word or whose
cut label equals a ``DELETE_LABEL`` (``EQ_LABEL`` pairs count as equal here) is not counted; each gold
bracket, in order, takes the first unmatched test bracket with its span and an equal label (equal, or
an ``EQ_LABEL`` pair: the pairs are not made transitive); crossing brackets are test brackets that
overlap a gold bracket without nesting; a tag is correct when the POS are equal or an ``EQ_LABEL`` pair.

The leaf-ancestor metric scores the same words and brackets, minus the unlabelled ones (the wrapper has
no label to be a lineage symbol), with the labels of :meth:`EvalbParams.la_label` (function tags cut
after the first character, ``-NONE-``-like labels kept whole, EQ_LABEL classes mapped to one label):
the symbols its lineages have always had (docs/parse-evaluation.md).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
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
# the bracket rules of this module, recorded with every score (EvalbParams.describe, the signature)
RULES = "evalb-2006"
# is_quote_term(): a QUOTE_LABEL terminal counts only with one of these words
QUOTE_WORDS = frozenset({"'", '"', "/"})
# evalb.c's DEFAULT_MAX_ERROR: the run stops at the error after MAX_ERROR + 1 errors
DEFAULT_MAX_ERROR = 10


def evalb_label(label: str) -> str:
    """C EVALB's bracket label (``modify_label``): cut at the first ``-`` or ``=``, wherever it is
    (``NP-SBJ-1`` -> ``NP``, ``NP=2`` -> ``NP``, ``-NONE-`` -> ``''``)."""
    m = _CUT.search(label)
    return label[: m.start()] if m else label


def base_label(label: str) -> str:
    """The leaf-ancestor symbol of a label: function tags and indices removed after the first character
    (``-NONE-`` and ``-LRB-`` kept whole)."""
    if _KEEP_WHOLE.match(label):
        return label
    m = _CUT.search(label, 1)
    return label[: m.start()] if m else label


@dataclass(frozen=True)
class EvalbParams:
    """The options of an EVALB parameter file; ``describe()`` is recorded with every score."""

    delete_labels: frozenset[str] = frozenset()
    delete_labels_for_length: frozenset[str] = frozenset()
    eq_labels: tuple[tuple[str, str], ...] = ()
    eq_words: tuple[tuple[str, str], ...] = ()
    cutoff_len: int = 40
    labeled: bool = True
    max_error: int = DEFAULT_MAX_ERROR
    source: str = "none"  # "none", "collins" (built-in default) or the .prm path
    quote_labels: tuple[str, ...] = ()
    _label_map: dict = field(default=None, compare=False, hash=False, repr=False)
    _eq_label_pairs: frozenset = field(default=None, compare=False, hash=False, repr=False)
    _eq_word_pairs: frozenset = field(default=None, compare=False, hash=False, repr=False)
    _classified: dict = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "_label_map", _classes(self.eq_labels))
        object.__setattr__(self, "_eq_label_pairs", _pairs(self.eq_labels))
        object.__setattr__(self, "_eq_word_pairs", _pairs(self.eq_words))
        object.__setattr__(self, "_classified", {})

    def label_equal(self, a: str | None, b: str | None) -> bool:
        """``label_comp``: equal, or an EQ_LABEL pair (either order; not transitive)."""
        return a == b or (a, b) in self._eq_label_pairs

    def word_equal(self, a: str, b: str) -> bool:
        """``word_comp``: equal, or an EQ_WORD pair (either order; not transitive)."""
        return a == b or (a, b) in self._eq_word_pairs

    def la_label(self, raw: str) -> str:
        """The leaf-ancestor symbol of a nonterminal: :func:`base_label`, then EQ_LABEL's classes (the
        union of the pairs) mapped to their smallest member."""
        b = base_label(raw)
        return self._label_map.get(b, b)

    def classify(self, raw: str) -> tuple[bool, bool, bool, str, bool, str]:
        """Everything EVALB decides from one label, cached (a treebank has few distinct labels):

        as a POS: (deleted with its word: in DELETE_LABEL as written; not counted in the length: in
        DELETE_LABEL_FOR_LENGTH; a QUOTE_LABEL), as a nonterminal: (the cut label :func:`evalb_label`,
        not counted: the cut label equals a DELETE_LABEL or is paired with one by EQ_LABEL, the
        leaf-ancestor symbol :meth:`la_label`)."""
        hit = self._classified.get(raw)
        if hit is None:
            cut = evalb_label(raw)
            hit = self._classified[raw] = (
                raw in self.delete_labels,
                raw in self.delete_labels_for_length,
                raw in self.quote_labels,
                cut,
                any(self.label_equal(cut, d) for d in self.delete_labels),
                self.la_label(raw),
            )
        return hit

    def describe(self) -> dict:
        return {
            "rules": RULES,
            "source": self.source,
            "delete_labels": sorted(self.delete_labels),
            "delete_labels_for_length": sorted(self.delete_labels_for_length),
            "eq_labels": [list(p) for p in self.eq_labels],
            "eq_words": [list(p) for p in self.eq_words],
            "cutoff_len": self.cutoff_len,
            "labeled": self.labeled,
            "max_error": self.max_error,
            "quote_labels": list(self.quote_labels),
            "function_tags": "cut at the first - or =",
            "unlabelled_brackets": "counted, label ''",
        }


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


def _pairs(pairs: Sequence[tuple[str, str]]) -> frozenset[tuple[str, str]]:
    return frozenset(pairs) | frozenset((b, a) for a, b in pairs)


NO_PARAMS = EvalbParams(source="none")
# EVALB's COLLINS.prm, the usual setting for Penn Treebank parsing results.
COLLINS = EvalbParams(
    delete_labels=frozenset({"TOP", "-NONE-", ",", ":", "``", "''", "."}),
    delete_labels_for_length=frozenset({"-NONE-"}),
    eq_labels=(("ADVP", "PRT"),),
    cutoff_len=40,
    labeled=True,
    max_error=10,
    source="collins",
)

# a quote term: (its place among the kept words, brackets opened before it, the brackets open around it,
# word, POS)
Quote = tuple[int, int, tuple[int, ...], str, str]


class Prepared:
    """One side of a sentence as EVALB holds it: the kept words and their POS as written (``terminal[]``),
    the quote terms (``quotterm[]``) and the length (``Len.``; counted before DELETE_LABEL); every
    nonterminal as read (``source``: raw label, parent, start, end, in the order they open), whose
    brackets (``bracket[]``) span the kept words: ``before[i]`` kept words come before word ``i``, or,
    once :func:`fix_quote` has put a word back, ``starts`` and ``ends`` say where each bracket is; and
    ``nodes``, the tree the leaf-ancestor metric scores: the counted brackets with a label, as
    (leaf-ancestor symbol, parent, start, end) in preorder, a dropped bracket's children attached to its
    nearest kept ancestor.

    No list or tuple a bracket is kept: `ingest parses` holds every tree of a file, and each container
    made here adds to what the garbage collector walks (0.1 s on the PTB sample when it was kept).  A
    plain class, not a dataclass: `evalhouse evalb` imports this module, and a dataclass's generated
    methods are compiled at import."""

    __slots__ = ("words", "pos", "nodes", "length", "raw_words", "source", "before", "quotes", "starts", "ends")

    def __init__(
        self,
        words: list[str],
        pos: list[str | None],
        nodes: list[tuple[str, int, int, int]],
        length: int,
        raw_words: int,
        source: Sequence[tuple[str, int, int, int]],
        before: list[int],
        quotes: Sequence[Quote] = (),
        starts: list[int] | None = None,
        ends: list[int] | None = None,
    ):
        self.words, self.pos, self.nodes, self.length, self.raw_words = words, pos, nodes, length, raw_words
        self.source, self.before, self.quotes, self.starts, self.ends = source, before, quotes, starts, ends

    def spans(self) -> tuple[list[int], list[int]]:
        """(starts, ends) of every bracket, over the kept words."""
        if self.starts is not None:
            return self.starts, self.ends
        before = self.before
        return [before[s] for _, _, s, _ in self.source], [before[e] for _, _, _, e in self.source]

    def brackets(self, params: EvalbParams) -> list[tuple[str, int, int, bool]]:
        """(EVALB label, start, end, deleted by its label) of every nonterminal, in order (``bracket[]``)."""
        starts, ends = self.spans()
        return [
            (params.classify(label)[3], s, e, params.classify(label)[4])
            for (label, _, _, _), s, e in zip(self.source, starts, ends)
        ]


def prepare(
    words: Sequence[str], pos: Sequence[str | None], nodes: Sequence[tuple[str, int, int, int]], params: EvalbParams
) -> Prepared:
    """One side of a sentence as ``read_line`` reads it (DELETE_LABEL on terminals, spans over the kept
    words, quote terms); ``pos`` None (Sampson & Babarczy's (2003) notation) is a word that nothing deletes."""
    classify, cached = params.classify, params._classified  # the cache read inline: this runs once a word
    length = kept = 0
    new_words: list[str] = []
    new_pos: list[str | None] = []
    quotes: list[Quote] | tuple = ()
    before = [0]  # kept words before each word -> spans
    for i, (w, p) in enumerate(zip(words, pos)):
        if p is None:
            length += 1
        else:
            c = cached.get(p) or classify(p)
            if not c[1]:
                length += 1
            if c[2] and w in QUOTE_WORDS:
                quotes = [*quotes, _quote_term(nodes, i, kept, w, p)]
            if c[0]:
                before.append(kept)
                continue
        kept += 1
        new_words.append(w)
        new_pos.append(p)
        before.append(kept)
    remap: list[int] = []
    tree: list[tuple[str, int, int, int]] = []
    for label, parent, start, end in nodes:  # la_nodes(), written out over `before`
        up = remap[parent] if parent >= 0 else -1
        c = cached.get(label) or classify(label)
        s, e = before[start], before[end]
        if c[4] or s == e or not label:
            remap.append(up)
            continue
        remap.append(len(tree))
        tree.append((c[5], up, s, e))
    return Prepared(new_words, new_pos, tree, length, len(words), nodes, before, quotes)


def la_nodes(
    source: Sequence[tuple[str, int, int, int]], starts: Sequence[int], ends: Sequence[int], params: EvalbParams
) -> list[tuple[str, int, int, int]]:
    """The leaf-ancestor tree of a side (see :class:`Prepared`): no bracket over no word, none deleted,
    none unlabelled (the wrapper)."""
    remap: list[int] = []
    out: list[tuple[str, int, int, int]] = []
    for (label, parent, _, _), s, e in zip(source, starts, ends):
        up = remap[parent] if parent >= 0 else -1
        _, _, _, _, deleted, la = params.classify(label)
        if deleted or s == e or not label:
            remap.append(up)
            continue
        remap.append(len(out))
        out.append((la, up, s, e))
    return out


def _quote_term(nodes, i: int, kept: int, word: str, pos: str) -> Quote:
    """The quote term of word ``i``: the brackets opened before it (nodes are in the order they open,
    starts never decrease) and those still open around it."""
    opened = bisect_right([s for _, _, s, _ in nodes], i)
    return kept, opened, tuple(k for k in range(opened) if nodes[k][3] > i), word, pos


def fix_quote(gold: Prepared, test: Prepared, params: EvalbParams) -> tuple[Prepared, Prepared]:
    """``fix_quote``: for each test quote term (in order) and each gold quote term at the same place with
    another POS, the one whose POS is deleted (and the other's not) is put back into its side, at its
    place, and the later quote terms of that side move one place on.  New objects; the inputs are
    unchanged.  The loop is evalb.c's, including its use of the place read before the inner loop."""
    if not gold.quotes or not test.quotes:
        return gold, test
    deleted = params.delete_labels
    sides = [_Editable(gold), _Editable(test)]
    g_at = [q[0] for q in gold.quotes]
    t_at = [q[0] for q in test.quotes]
    for i, tq in enumerate(test.quotes):
        place = t_at[i]
        for j, gq in enumerate(gold.quotes):
            if g_at[j] != place or gq[4] == tq[4]:
                continue
            if gq[4] in deleted and tq[4] not in deleted:
                sides[0].reinsert(gq, g_at[j])
                for k in range(j, len(g_at)):
                    g_at[k] += 1
            elif tq[4] in deleted and gq[4] not in deleted:
                sides[1].reinsert(tq, t_at[i])
                for k in range(i, len(t_at)):
                    t_at[k] += 1
    return sides[0].result(params), sides[1].result(params)


class _Editable:
    """A side being repaired by :func:`fix_quote` (``reinsert_term``)."""

    def __init__(self, p: Prepared):
        self.p = p
        self.changed = False
        self.words, self.pos = list(p.words), list(p.pos)
        self.starts, self.ends = (list(x) for x in p.spans())

    def reinsert(self, quote: Quote, place: int) -> None:
        _, opened, around, word, pos = quote
        self.changed = True
        self.words.insert(place, word)
        self.pos.insert(place, pos)
        for k in range(opened, len(self.starts)):  # brackets opened after the term move on
            self.starts[k] += 1
            self.ends[k] += 1
        for k in around:  # those open around it now end one word later
            self.ends[k] += 1

    def result(self, params: EvalbParams) -> Prepared:
        p = self.p
        if not self.changed:
            return p
        return Prepared(
            self.words,
            self.pos,
            la_nodes(p.source, self.starts, self.ends, params),
            p.length,
            p.raw_words,
            p.source,
            p.before,
            p.quotes,
            self.starts,
            self.ends,
        )


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


def align(gold: Prepared, test: Prepared, params: EvalbParams) -> tuple[int, str | None, Prepared, Prepared]:
    """The status of a sentence pair and the two sides as they are then scored (after :func:`fix_quote`):
    skip when the test side kept no word, error when the word counts or the words differ."""
    if not test.words:
        return (
            STATUS_SKIP,
            "empty test parse" if not test.raw_words else "no word of the test parse is left after DELETE_LABEL",
            gold,
            test,
        )
    if len(gold.words) != len(test.words):
        gold, test = fix_quote(gold, test, params)
        if len(gold.words) != len(test.words):
            return STATUS_ERROR, f"length mismatch ({len(gold.words)}|{len(test.words)})", gold, test
    word_equal = params.word_equal
    for i, (g, t) in enumerate(zip(gold.words, test.words)):
        if g != t and not word_equal(g, t):
            return STATUS_ERROR, f"word mismatch at word {i + 1} ({g}|{t})", gold, test
    return STATUS_OK, None, gold, test


def compare(gold: Prepared, test: Prepared, params: EvalbParams) -> BracketCounts:
    """EVALB's per-sentence comparison (status, bracket counts, crossing, tags); ``words`` is the gold
    side's kept words (after :func:`fix_quote`) whatever the status."""
    status, message, gold, test = align(gold, test, params)
    if status != STATUS_OK:
        return BracketCounts(status, message, gold.length, len(gold.words), 0, 0, 0, 0, 0, 0)
    return count(gold, test, params)


def count(gold: Prepared, test: Prepared, params: EvalbParams) -> BracketCounts:
    """The counts of an aligned pair (``massage_data``, then the matching, crossing and tagging loops of
    ``calc_result``): labelled and unlabelled matches are both counted, LABELED says which EVALB prints."""
    label_equal, classify, cached = params.label_equal, params.classify, params._classified
    gold_b = []
    starts, ends = gold.spans()
    for (label, _, _, _), s, e in zip(gold.source, starts, ends):
        c = cached.get(label) or classify(label)
        if not c[4] and s != e:
            gold_b.append((c[3], s, e))
    by_span: dict[tuple[int, int], list[list]] = {}
    test_spans = []
    starts, ends = test.spans()
    for (label, _, _, _), s, e in zip(test.source, starts, ends):
        c = cached.get(label) or classify(label)
        if not c[4] and s != e:
            by_span.setdefault((s, e), []).append([c[3], False, False])  # label, matched labelled, unlabelled
            test_spans.append((s, e))
    n_test = len(test_spans)
    ml = mu = 0
    for lab, s, e in gold_b:
        candidates = by_span.get((s, e))
        if not candidates:
            continue
        found_l = found_u = False
        for c in candidates:  # in the test side's order: the first free one matches
            if not found_u and not c[2]:
                c[2] = found_u = True
                mu += 1
            if not found_l and not c[1] and label_equal(lab, c[0]):
                c[1] = found_l = True
                ml += 1
            if found_l and found_u:
                break
    gold_spans = list({(s, e) for _, s, e in gold_b})
    crossing = 0
    for s, e in test_spans:
        for gs, ge in gold_spans:
            if (gs < s < ge < e) or (s < gs < e < ge):
                crossing += 1
                break
    tags = sum(1 for a, b in zip(gold.pos, test.pos) if label_equal(a, b))
    return BracketCounts(STATUS_OK, None, gold.length, len(gold.words), len(gold_b), n_test, ml, mu, crossing, tags)


GEIG_COLUMNS = (
    "status_code",
    "length",
    "words",
    "gold_brackets",
    "test_brackets",
    "matched_labelled",
    "matched_unlabelled",
    "crossing",
    "correct_tags",
)


def geig_counts_of_lines(gold_text: str, test_text: str, params: EvalbParams) -> list[tuple[int, ...]] | None:
    """Per sentence, :data:`GEIG_COLUMNS` of two texts with one Penn Treebank tree per line (EVALB's
    layout), computed in C (``_evalb.c``) with this module's rules; ``None`` when the Python reader must
    read the texts: different line counts, Sampson & Babarczy's (2003) notation, more than 64 EQ_LABEL pairs, or any
    malformed line (whose error the loader then reports).  Equal, sentence by sentence, to
    :func:`prepare` and :func:`compare` over :func:`evalhouse.loaders.brackets.read_trees`
    (``tests/test_parses_fast.py``)."""
    if _evalb is None or len(params.eq_labels) > 64:
        return None
    ids: dict[str, int] = {}
    left: dict[str, int] = {}
    right: dict[str, int] = {}
    for k, (a, b) in enumerate(params.eq_labels):  # label_comp(x, y): x == y, or x left and y right of a pair
        left[a] = left.get(a, 0) | 1 << k
        right[b] = right.get(b, 0) | 1 << k

    def label(x: str) -> tuple[int, int, int]:
        return ids.setdefault(x, len(ids)), left.get(x, 0), right.get(x, 0)

    def classify(raw: str) -> tuple:
        deleted, uncounted, quote, cut, cut_deleted, _ = params.classify(raw)
        return (*label(raw), deleted, uncounted, quote, *label(cut), cut_deleted)

    data = _evalb.geig_lines(gold_text, test_text, classify, params.word_equal if params.eq_words else None)
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
