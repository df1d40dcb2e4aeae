"""Reference-guided tokenisation of system outputs and their alignment to the reference tree.

    $ evalhouse ingest outputs run1.txt --team adapt --run 1 --reference en_ewt-test
    $ evalhouse sql "select method, count(*) from alignments where pair = 'output-reference' group by 1"

A surface realiser's output is text; DEA and lemma BLEU need output tokens with lemmas. Seed 000
(section 4) tokenised and lemmatised outputs with a parser; evalhouse instead uses the reference
sentence the output realises, which is both deterministic and language-independent:

Tokenisation (:func:`tokenise`). The text is split at white space into chunks. A chunk that is a
reference form (or the surface form of a multiword token), compared case-insensitively, stays whole.
Any other chunk is segmented into reference forms where it can be, by dynamic programming that
covers as many characters as possible with reference forms and then uses as few pieces as possible.
A split between two word characters (letters, marks, digits) is allowed only where the reference
itself writes words without a space between them: after a reference word marked ``SpaceAfter=No``
somewhere in the sentence (``do|n't``), or anywhere in scripts written without spaces (Han, kana,
Thai, Lao, Khmer, Myanmar, Tibetan), which makes Chinese and Japanese outputs work; a split next to
any other character is always allowed (``GoogleOS|?``, ``full|-|fledged``, ``.|:)``). Characters
that no reference form covers are split Unicode-wise: runs of word characters stay together (with
apostrophes inside or before them: ``n't``, ``'s``), every other character is a token of its own.
Known limit: a contraction the reference writes in full ("haven't" for "have not") stays one
unaligned token.

Alignment (:func:`align`). One-to-one, and order-preserving among equal keys: output tokens are
taken left to right, each linked to the first reference unit (in reference order) that is still free
and has the same key, so the k-th "the" of the output goes to the k-th free "the" of the reference,
whatever its case. Passes:

1. surface units -- multiword tokens and the words outside them -- compared after Unicode case
   folding. Within one case-folded form the assignment with the most same-case matches wins (a
   permuted "The ... the" keeps each word's own link); between equally good ones, the
   order-preserving one ("the cat saw the dog" against "The cat saw the dog" does not cross). The
   link's method says which:
    multiword  the unit is a multiword token: the output token is split into the unit's syntactic
               words (as UD does), each linked to its word
    exact      same form
    casefold   same form after case folding
2. words still free, case-folded (words inside multiword tokens, for tokenised outputs): exact or
   casefold as above;
3. lemma      the token equals a free reference word's lemma (case-folded): lemmatised outputs;
4. fuzzy      the longest common prefix with the reference form or lemma (case-folded) has at least
               3 characters and covers at least 3/4 of the shorter string ("enjoys" -> "enjoyed");
               among candidates the longest prefix wins, then reference order
5. unaligned  nothing left matches

Every output token gets a lemma: the linked reference word's lemma, the lemma a CoNLL-U output
supplies, or else the token itself. A token is punctuation when it is linked to a reference word with
relation ``punct``, or, unlinked, when all its characters are Unicode punctuation (category P*).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Sequence

ALIGNMENT_VERSION = "evalhouse-align:1"
METHODS = ("multiword", "exact", "casefold", "lemma", "fuzzy", "unaligned")
_APOSTROPHES = "'\u2019"
_SPACELESS = ("CJK", "HIRAGANA", "KATAKANA", "HALFWIDTH KATAKANA", "IDEOGRAPHIC", "THAI", "LAO",
              "KHMER", "MYANMAR", "TIBETAN")


@dataclass
class ReferenceSentence:
    """The reference words of one sentence (syntactic words, in order) and its multiword tokens."""

    ids: list[int]
    forms: list[str]
    lemmas: list[str]
    deprels: list[str]
    space_after: list[bool]
    multiword: list[tuple[int, int, str, bool]] = field(default_factory=list)  # first, last, form, space_after

    def __post_init__(self) -> None:
        self._index = {i: k for k, i in enumerate(self.ids)}

    def position(self, node_id: int) -> int:
        return self._index[node_id]

    # derived once per reference sentence, however many outputs are aligned to it
    @cached_property
    def folded_forms(self) -> list[str]:
        return [f.casefold() for f in self.forms]

    @cached_property
    def folded_lemmas(self) -> list[str]:
        return [lm.casefold() for lm in self.lemmas]

    @cached_property
    def dictionary(self) -> dict[str, bool]:
        return _dictionary(self)

    @cached_property
    def form_counts(self) -> dict[str, int]:
        """How often each case-folded form (or multiword surface) occurs."""
        counts: dict[str, int] = {}
        for form in [f for _, _, f, _ in self.multiword] + self.forms:
            counts[form.casefold()] = counts.get(form.casefold(), 0) + 1
        return counts

    @cached_property
    def units(self) -> list[tuple[str, list[int]]]:
        return _units(self)


@dataclass
class OutputToken:
    form: str
    reference_id: int | None
    method: str
    lemma: str
    punct: bool
    lemma_source: str  # 'reference', 'given' or 'form'


@lru_cache(maxsize=65536)
def _spaceless(ch: str) -> bool:
    name = unicodedata.name(ch, "")
    return name.startswith(_SPACELESS)


@lru_cache(maxsize=65536)
def _word_char(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LMN" or ch == "_"


def _all_punct(token: str) -> bool:
    return bool(token) and all(unicodedata.category(c).startswith("P") for c in token)


def _unicode_split(run: str) -> list[str]:
    pieces: list[str] = []
    word = ""
    for k, ch in enumerate(run):
        inner_apostrophe = ch in _APOSTROPHES and (word or (k + 1 < len(run) and _word_char(run[k + 1])))
        if _word_char(ch) or _spaceless(ch) or inner_apostrophe:
            word += ch
        else:
            if word:
                pieces.append(word)
                word = ""
            pieces.append(ch)
    if word:
        pieces.append(word)
    return pieces


def _dictionary(ref: ReferenceSentence) -> dict[str, bool]:
    """Case-folded reference forms (and multiword surfaces) -> written without a following space?"""
    d: dict[str, bool] = {}
    covered = set()
    for first, last, form, space_after in ref.multiword:
        key = form.casefold()
        d[key] = d.get(key, False) or not space_after
        covered.update(range(first, last + 1))
    for node_id, form, space_after in zip(ref.ids, ref.forms, ref.space_after):
        key = form.casefold()
        # words inside a multiword token are written glued to each other
        glued = (not space_after) or node_id in covered
        d[key] = d.get(key, False) or glued
    return d


def tokenise(text: str, ref: ReferenceSentence) -> list[str]:
    """Split an output text into tokens, guided by the reference sentence (see module docstring)."""
    d = ref.dictionary
    # how often each form (or multiword surface) may still be kept whole
    remaining = dict(ref.form_counts)
    tokens: list[str] = []
    for chunk in _chunks(text, ref):
        key = chunk.casefold()
        if remaining.get(key, 0) > 0 or (key in d and not any(c in _SPLITTABLE for c in chunk)):
            pieces = [chunk]
        else:
            # forms the output has already used up are not offered again ("ch." once whole, once "ch" + ".")
            available = {f: glued for f, glued in d.items() if remaining.get(f, 0) > 0}
            pieces = _segment(chunk, available, sorted({len(f) for f in available}, reverse=True)) if " " not in chunk else [chunk]
        for piece in pieces:
            k = piece.casefold()
            if remaining.get(k, 0) > 0:
                remaining[k] -= 1
        tokens.extend(pieces)
    return tokens


_SPLITTABLE = ".,;:!?()[]{}\"'«»“”„‘’-–—/…"


def _chunks(text: str, ref: ReferenceSentence) -> list[str]:
    """White-space chunks of ``text``, keeping whole any reference form that contains a space
    ("6 20 30", "1 000")."""
    spaced = sorted({f for f in ref.forms + [m[2] for m in ref.multiword] if any(c.isspace() for c in f)},
                    key=len, reverse=True)
    if not spaced:
        return text.split()
    out: list[str] = []
    rest = text
    while rest:
        hits = [(rest.find(f), -len(f), f) for f in spaced if f in rest]
        if not hits:
            out.extend(rest.split())
            break
        at, _, form = min(hits)
        out.extend(rest[:at].split())
        out.append(form)
        rest = rest[at + len(form):]
    return out


def _segment(chunk: str, d: dict[str, bool], lengths: list[int]) -> list[str]:
    n = len(chunk)
    folded = chunk.casefold()
    if len(folded) != n:  # case folding changed the length (e.g. German sharp s): compare per piece
        folded = None
    # state: (position, kind) kind 0 start, 1 glued word, 2 plain word, 3 uncovered run
    inf = (n + 1, n + 1)
    best: list[dict[int, tuple[int, int]]] = [dict() for _ in range(n + 1)]
    back: dict[tuple[int, int], tuple[int, int, bool]] = {}
    best[0][0] = (0, 0)

    def boundary_ok(i: int, kind: int) -> bool:
        if i == 0 or kind == 1:
            return True
        a, b = chunk[i - 1], chunk[i]
        return not (_word_char(a) and _word_char(b)) or _spaceless(a) or _spaceless(b)

    for i in range(n):
        for kind, (unc, pieces) in list(best[i].items()):
            can_break = boundary_ok(i, kind)
            if can_break:
                for length in lengths:
                    j = i + length
                    if j > n:
                        continue
                    piece = folded[i:j] if folded is not None else chunk[i:j].casefold()
                    glued = d.get(piece)
                    if glued is None:
                        continue
                    new_kind = 1 if glued else 2
                    cand = (unc, pieces + 1)
                    if cand < best[j].get(new_kind, inf):
                        best[j][new_kind] = cand
                        back[(j, new_kind)] = (i, kind, True)
            if kind == 3 or can_break:
                cand = (unc + 1, pieces + (0 if kind == 3 else 1))
                if cand < best[i + 1].get(3, inf):
                    best[i + 1][3] = cand
                    back[(i + 1, 3)] = (i, kind, False)
    end_kind = min(best[n], key=lambda k: best[n][k])
    spans: list[tuple[int, int, bool]] = []
    j, kind = n, end_kind
    while j > 0:
        i, prev_kind, is_word = back[(j, kind)]
        spans.append((i, j, is_word))
        j, kind = i, prev_kind
    spans.reverse()
    out: list[str] = []
    run_start = None
    for i, j, is_word in spans:
        if is_word:
            if run_start is not None:
                out.extend(_unicode_split(chunk[run_start:i]))
                run_start = None
            out.append(chunk[i:j])
        elif run_start is None:
            run_start = i
    if run_start is not None:
        out.extend(_unicode_split(chunk[run_start:]))
    return out


def _prefix(a: str, b: str) -> int:
    k = 0
    for x, y in zip(a, b):
        if x != y:
            break
        k += 1
    return k


def _units(ref: ReferenceSentence) -> list[tuple[str, list[int]]]:
    """The reference's surface units in order: multiword tokens (with their word positions) and the
    words outside them."""
    starts = {first: (last, form) for first, last, form, _ in ref.multiword}
    units: list[tuple[str, list[int]]] = []
    skip_to = 0
    for p, node_id in enumerate(ref.ids):
        if node_id <= skip_to:
            continue
        if node_id in starts:
            last, form = starts[node_id]
            units.append((form, [ref.position(i) for i in range(node_id, last + 1) if i in ref._index]))
            skip_to = last
        else:
            units.append((ref.forms[p], [p]))
    return units


def _match_units(tokens: Sequence[str], units: list[tuple[str, list[int]]], by_key: dict[str, list[int]]) -> dict[int, int]:
    """Output token index -> reference unit, within each case-folded form: the assignment with the most
    exact (same-case) matches; between equally exact ones, the order-preserving one (k-th to k-th)."""
    outs_by_key: dict[str, list[int]] = {}
    for k, t in enumerate(tokens):
        key = t.casefold()
        if key in by_key:
            outs_by_key.setdefault(key, []).append(k)
    chosen: dict[int, int] = {}
    for key, outs in outs_by_key.items():
        refs = by_key[key]
        in_order = dict(zip(outs, refs))
        exact_first: dict[int, int] = {}
        used = set()
        for k in outs:  # exact forms first, each to the first free unit of the same form
            u = next((u for u in refs if u not in used and units[u][0] == tokens[k]), None)
            if u is not None:
                exact_first[k] = u
                used.add(u)
        rest = [u for u in refs if u not in used]
        exact_first.update(zip([k for k in outs if k not in exact_first], rest))

        def exact(assignment: dict[int, int]) -> int:
            return sum(units[u][0] == tokens[k] for k, u in assignment.items())

        chosen.update(exact_first if exact(exact_first) > exact(in_order) else in_order)
    return chosen


def align(tokens: Sequence[str], ref: ReferenceSentence, lemmas: Sequence[str | None] | None = None) -> list[OutputToken]:
    """Link output tokens one-to-one to reference words (see the module docstring)."""
    free = [True] * len(ref.ids)
    # pass 1, surface units compared case-insensitively, in order: the k-th output token of a case-folded
    # form takes the k-th reference unit of that form, so links of repeated words never cross; a unit
    # that is a multiword token expands the output token into the unit's words
    units = ref.units if lemmas is None else [(f, [p]) for p, f in enumerate(ref.forms)]
    by_key: dict[str, list[int]] = {}
    for u, (form, _) in enumerate(units):
        by_key.setdefault(form.casefold(), []).append(u)
    unit_of = _match_units(tokens, units, by_key)
    expanded: list[tuple[str, int | None, str | None, str | None]] = []  # form, ref position, method, given lemma
    for k, t in enumerate(tokens):
        given = lemmas[k] if lemmas is not None else None
        u = unit_of.get(k)
        if u is None:
            expanded.append((t, None, None, given))
            continue
        form, positions = units[u]
        if len(positions) > 1:
            for p in positions:
                free[p] = False
                expanded.append((ref.forms[p], p, "multiword", None))
        else:
            free[positions[0]] = False
            expanded.append((t, positions[0], "exact" if t == form else "casefold", given))
    linked = [e[1] for e in expanded]
    method = [e[2] for e in expanded]
    # pass 2, single words still free (words inside multiword tokens for tokenised outputs), then lemmas
    keys = {
        "casefold": ref.folded_forms,
        "lemma": ref.folded_lemmas,
    }
    for name, ref_keys in keys.items():
        index: dict[str, list[int]] = {}
        for p, rk in enumerate(ref_keys):
            if free[p]:
                index.setdefault(rk, []).append(p)
        for k, (form, _, _, _) in enumerate(expanded):
            if linked[k] is not None:
                continue
            queue = index.get(form.casefold())
            while queue and not free[queue[0]]:
                queue.pop(0)
            if queue:
                p = queue.pop(0)
                free[p] = False
                linked[k] = p
                method[k] = ("exact" if form == ref.forms[p] else "casefold") if name == "casefold" else "lemma"
    if None in linked and any(free):
        folded_forms, folded_lemmas = ref.folded_forms, ref.folded_lemmas
        for k, (form, _, _, _) in enumerate(expanded):
            if linked[k] is not None:
                continue
            f = form.casefold()
            best, best_len = None, 0
            for p in range(len(free)):
                if not free[p]:
                    continue
                for target in (folded_forms[p], folded_lemmas[p]):
                    pre = _prefix(f, target)
                    if pre >= 3 and pre * 4 >= 3 * min(len(f), len(target)) and pre > best_len:
                        best, best_len = p, pre
            if best is not None:
                free[best] = False
                linked[k] = best
                method[k] = "fuzzy"
    out = []
    for k, (form, _, _, given) in enumerate(expanded):
        p = linked[k]
        if p is None:
            lemma, source = (given, "given") if given is not None else (form, "form")
            out.append(OutputToken(form, None, "unaligned", lemma, _all_punct(form), source))
        else:
            lemma, source = (given, "given") if given is not None else (ref.lemmas[p], "reference")
            out.append(OutputToken(form, ref.ids[p], method[k], lemma, ref.deprels[p].split(":")[0] == "punct", source))
    return out
