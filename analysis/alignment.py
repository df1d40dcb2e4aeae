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

Alignment (:func:`align`). One-to-one and order-preserving: the methods are tried in this order,
and within a method output tokens are taken left to right, each linked to the first reference word
(in reference order) that is still free and has the same key, so the k-th "the" of the output goes
to the k-th free "the" of the reference:

    multiword  the token is a multiword token's surface form: it is split into that token's syntactic
               words (as UD does), each linked to its word
    exact      same form
    casefold   same form after Unicode case folding
    lemma      the token equals a reference lemma (case-folded): outputs that are already lemmatised
    fuzzy      the longest common prefix with the reference form or lemma (case-folded) has at least
               3 characters and covers at least 3/4 of the shorter string ("enjoys" -> "enjoyed");
               among candidates the longest prefix wins, then reference order
    unaligned  nothing left matches

Every output token gets a lemma: the linked reference word's lemma, the lemma a CoNLL-U output
supplies, or else the token itself. A token is punctuation when it is linked to a reference word with
relation ``punct``, or, unlinked, when all its characters are Unicode punctuation (category P*).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
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
    d = _dictionary(ref)
    lengths = sorted({len(k) for k in d}, reverse=True)
    tokens: list[str] = []
    for chunk in text.split():
        if chunk.casefold() in d:
            tokens.append(chunk)
        else:
            tokens.extend(_segment(chunk, d, lengths))
    return tokens


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


def align(tokens: Sequence[str], ref: ReferenceSentence, lemmas: Sequence[str | None] | None = None) -> list[OutputToken]:
    """Link output tokens one-to-one to reference words (see the module docstring)."""
    free = [True] * len(ref.ids)
    # multiword tokens first: expand a token that is a multiword surface form into its words
    expanded: list[tuple[str, int | None, str | None, str | None]] = []  # form, ref position, method, given lemma
    mwt_queue: dict[str, list[tuple[int, int]]] = {}
    for first, last, form, _ in ref.multiword:
        mwt_queue.setdefault(form.casefold(), []).append((first, last))
    for k, t in enumerate(tokens):
        given = lemmas[k] if lemmas is not None else None
        queue = mwt_queue.get(t.casefold()) if lemmas is None else None
        if queue:
            first, last = queue.pop(0)
            for node_id in range(first, last + 1):
                p = ref.position(node_id)
                free[p] = False
                expanded.append((ref.forms[p], p, "multiword", None))
        else:
            expanded.append((t, None, None, given))
    linked = [e[1] for e in expanded]
    method = [e[2] for e in expanded]
    keys = {
        "exact": (ref.forms, lambda s: s),
        "casefold": ([f.casefold() for f in ref.forms], str.casefold),
        "lemma": ([lm.casefold() for lm in ref.lemmas], str.casefold),
    }
    for name, (ref_keys, key) in keys.items():
        index: dict[str, list[int]] = {}
        for p, rk in enumerate(ref_keys):
            if free[p]:
                index.setdefault(rk, []).append(p)
        for k, (form, _, _, _) in enumerate(expanded):
            if linked[k] is not None:
                continue
            queue = index.get(key(form))
            while queue and not free[queue[0]]:
                queue.pop(0)
            if queue:
                p = queue.pop(0)
                free[p] = False
                linked[k] = p
                method[k] = name
    if None in linked and any(free):
        folded_forms = [f.casefold() for f in ref.forms]
        folded_lemmas = [lm.casefold() for lm in ref.lemmas]
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
