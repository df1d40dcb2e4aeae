"""Reference-guided tokenisation of system outputs and their alignment to the reference tree.

    $ evalhouse ingest outputs run1.txt --team adapt --run 1 --reference en_ewt-test
    $ evalhouse sql "select method, count(*) from alignments where pair = 'output-reference' group by 1"

A surface realiser's output is text; DEA and lemma BLEU need output words with lemmas. Shimorina, Parmentier & Gardent (2021)
(section 4) tokenised and lemmatised outputs with a parser; evalhouse instead uses the reference
sentence the output realises, which is deterministic and language-independent. Words are compared
by :func:`~evalhouse.analysis.text.fold` (canonical caseless match) throughout.

Tokenisation (:func:`tokenise`). The text is split at white space into chunks, and each chunk into
pieces, each a reference form (or the surface of a multiword token), compared case-insensitively,
where it can be. A piece realises a *slot* of the reference: a word, or a multiword token as its
surface. Among the segmentations of a chunk, by dynamic programming, evalhouse takes the one that

1. covers the most characters with reference forms; then
2. has the fewest *breaks*: a piece breaks when it does not continue the reference where the
   previous piece (of this chunk or of the previous one) ends, i.e. its slot's first word is not the
   word after the previous piece's slot (the first piece of the text continues from before the
   first word); then
3. uses the fewest pieces.

Rule 2 is what makes the reference realised as itself come back as itself in every tokenisation (its
``# text``, its words joined by spaces, its multiword tokens contracted, with any spacing): its own
segmentation has no break, and a segmentation without break that starts where the previous piece
ended is the run of slots that follow, which spells the chunk one way only. "Fewest pieces" alone
read the Japanese 連続である as 連続|である when the reference wrote 連続|で|ある and also had
である elsewhere (likewise でした for でし|た, でも for で|も), and it kept an English "i'm" whole as
the multiword token "I'm" of a later clause when the reference wrote "i" + "'m" at that place. The
continuation is followed from one chunk to the next (the set of slots the previous piece may realise).
A chunk that is a form stays whole without the search when it continues the reference, or when no
slot that would continue it spells a prefix of it (then nothing can beat it); a form the output has
already used up as often as the reference has it is not offered again ("ch." once whole, once "ch" +
"."), but a chunk that is such a form without punctuation in it stays whole.
A split between two word characters (letters, marks, digits) is allowed only where the reference
itself writes words without a space between them: after a reference word marked ``SpaceAfter=No``
somewhere in the sentence (``do|n't``), or anywhere in scripts written without spaces (Han, kana,
Thai, Lao, Khmer, Myanmar, Tibetan), which makes Chinese and Japanese outputs work; a split next to
any other character is always allowed (``GoogleOS|?``, ``full|-|fledged``, ``.|:)``). Characters
that no reference form covers are split Unicode-wise: runs of word characters stay together (with
apostrophes inside or before them: ``n't``, ``'s``), every other character is a token of its own.
The states of the search are the slots whose form ends at a position of the chunk, so its work and
memory grow with the places where reference forms occur in the chunk (as the candidate links of the
alignment do), not with chunk length x sentence length.
Inside a run of word characters of a script written with spaces, an uncovered run can only go on, so
the search crosses it in one step: a 10 M-character token costs time and memory linear in its length
(``evalhouse ingest outputs`` refuses sentences past 100,000 characters or 1,000 words anyway,
:data:`evalhouse.loaders.outputs.MAX_SENTENCE_CHARACTERS`).
A contraction the reference writes in full ("haven't" for "have not") is cut where the language's
tokenisation cuts it when the rules of the reference's language are given (``rules``, English:
have|n't, :meth:`evalhouse.analysis.inflection.EnglishInflection.joints`); otherwise it stays one
token.

Alignment (:func:`align`): one alignment of the whole sentence, chosen by an objective, not by passes.

Output words. A token that is the surface of one of the reference's multiword tokens ("ao", "du",
"cannot") is read as that token's syntactic words, as UD does ("a" + "o"); when the token is also a
plain reference form ("des" is both the article and de + les in French), both readings are tried; a
surface the sentence analyses in two ways ("I'm" as I + 'm and as I + am) gives one reading per analysis.
Each output word links to at most one reference word and vice versa. A link's method is the
strongest that applies:

    multiword  an output word read from a multiword surface, linked to the word at the same place in
               a reference multiword token with the same surface ("ao" -> a + o of the reference's
               "ao"); it ranks as exact when spelled as the reference does, else as casefold
    exact      same form (the words of a multiword surface as the output spells them: "google's" ->
               "google" + "'s", casefold and exact)
    casefold   same form after case folding
    lemma      the output word equals the reference word's lemma (outputs that are already lemmatised)
    lexicon    a lemma lexicon (:mod:`evalhouse.analysis.lexicon`) lists the reference word's lemma for
               the output form ("was" -> "were": both be); only when a lexicon is given
    inflection the output word is a regular inflection of the reference word's lemma for its part of
               speech by a rule of the reference's language ("enjoys" -> "enjoyed": both enjoy,
               VERB; :mod:`evalhouse.analysis.inflection`, English only); only with ``rules``
    contraction the output word contracts the reference word with "not" ("wasn't" -> "was"; "can't"
               -> "ca", whose lemma is can), by a rule of the language; only with ``rules``
    unaligned  no link

A link needs evidence that the output word is a form of the reference word: a shared
prefix alone is none. Until evalhouse-align:3 a ``fuzzy`` method linked words whose common prefix
had at least 3 characters and covered 3/4 of the shorter one, so "the catalogue sat" scored 1.0
against "the cat sat" on every metric. Missing lemmas (``_``) never match. Words written separately ("a o" for the reference's "ao") link
to the words inside the multiword token by exact or casefold links.

Objective, compared lexicographically:

1. the most exact links; then the most that are exact or casefold; then exact, casefold or lemma;
   then up to lexicon; then the most links of any method (a multiword link counts as exact or
   casefold by its spelling). So a stronger link is never given up for any number of weaker ones.
   Ranking "most links" first instead let "don't" take "done" by a (since removed) fuzzy prefix so
   that "done" could take "do" through the lexicon (ADAPT run, EWT sentence 334): two wrong lemmas
   instead of one unlinked token. A reference realised as itself, or shuffled, links every word;
2. then the most multiword links: the words of a multiword surface the output wrote stay on a
   reference multiword token with that surface (Portuguese "à" = a + a keeps the preposition and the
   article apart from the many other "a");
3. then the most context: a link (i, j) scores one for each side where the output word's neighbour
   equals (folded) the reference word's neighbour. Among repeated words, this keeps a moved phrase
   together ("des voisins" moved to the front of "Il mange des pommes des voisins" is still de +
   les + voisins, not the article "des" of "pommes"), which crossings alone get wrong: the phrase
   moved as a whole crosses more links than swapping the two "des" does. A reference realised as
   itself has every link's context at its maximum;
4. then the fewest crossing links (i < i' but j > j');
5. then links closest to the diagonal (the sum of |i - j| smallest); then the first found.

Computation. Candidate links come from hash look-ups (folded form, lemma, lexicon lemmas, the
regular inflections of the sentence's lemmas, a contraction's host), cached per reference sentence, so the work grows with the candidate links, not with words x
words. Exact integer weights encode levels 1-3 and 5 (:class:`_Weights`), so alignments compare by
sums. (a) When every output word's most valuable link keeps the order, those links are the answer.
Else a heaviest chain of candidate links increasing on both sides (weighted longest increasing
subsequence, Fenwick tree) is the best alignment without crossings; (b) it is optimal for the whole
objective when it reaches an upper bound of 1-3 (every output word, or every reference word, on its
best link) or the exact optimum of 1-3, which is the sum over the connected components of the
candidate links (Hungarian method on the components that are neither a single link nor a complete
set of equally good links). Both cover a reference realised as itself in any of its tokenisations.
(c) Otherwise crossings are unavoidable (a reordered output): every component takes an optimal
matching, then, component by component, the one crossing the fewest other links (then closest to
the diagonal) among those optimal for 1-3 -- in order on the best subset, by dynamic programming,
for a component whose links are all equally good; by exhaustive search otherwise (at most
ENUMERATION_LIMIT nodes, else its Hungarian matching stays) -- until no component changes. Readings
of contested surfaces are all tried up to MAX_BRANCHES combinations, else by steepest ascent.

Guarantees (tests/test_alignment.py checks each against brute force): 1-3 are always optimal, so a
shuffled reference links every word exactly once; 4 is optimal (zero) whenever some alignment
optimal on 1-3 has no crossing, and then so is 5; otherwise no single component can lower 4. The
exceptions are bounded searches: more than MAX_BRANCHES combinations of readings in one sentence
(steepest ascent over readings; at most 5 in the test treebanks, fr_gsd) and a component past
ENUMERATION_LIMIT (its crossings are then not reduced).
Minimising crossings over all optimal matchings at once is a quadratic assignment problem, which is
why the last step is local (on 6,000 random small cases it found the global minimum every time).

Every output word gets a lemma: the linked reference word's lemma, the lemma a CoNLL-U output
supplies, or else the word itself. A word is punctuation when it is linked to a reference word with
relation ``punct``, or, unlinked, when all its characters are Unicode punctuation (category P*).
"""

from __future__ import annotations

import heapq
import itertools
import math
import unicodedata
from bisect import bisect_left, insort
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Sequence

from .inflection import EnglishInflection
from .lexicon import MISSING_LEMMAS, LemmaLexicon
from .text import fold

ALIGNMENT_VERSION = "evalhouse-align:3"
METHODS = ("multiword", "exact", "casefold", "lemma", "lexicon", "inflection", "contraction", "unaligned")
MAX_BRANCHES = 64  # readings of contested multiword surfaces: all combinations up to this many, else steepest ascent
ENUMERATION_LIMIT = 20000  # search nodes for one component's crossing-minimal optimal matching
_APOSTROPHES = "'\u2019"
_HYPHENS = "-\u2010\u2011"
_SPACELESS = (
    "CJK",
    "HIRAGANA",
    "KATAKANA",
    "HALFWIDTH KATAKANA",
    "IDEOGRAPHIC",
    "THAI",
    "LAO",
    "KHMER",
    "MYANMAR",
    "TIBETAN",
)


@dataclass
class ReferenceSentence:
    """The reference words of one sentence (syntactic words, in order) and its multiword tokens."""

    ids: list[int]
    forms: list[str]
    lemmas: list[str]
    deprels: list[str]
    space_after: list[bool]
    multiword: list[tuple[int, int, str, bool]] = field(default_factory=list)  # first, last, form, space_after
    upos: list[str] | None = None  # universal part of speech of each word (for the inflection rules)

    def __post_init__(self) -> None:
        self._index = {i: k for k, i in enumerate(self.ids)}

    def position(self, node_id: int) -> int:
        return self._index[node_id]

    # derived once per reference sentence, however many outputs are aligned to it
    @cached_property
    def keys(self) -> list[str]:
        """fold() of each form: what the tokenisation and the alignment compare."""
        return [fold(f) for f in self.forms]

    @cached_property
    def lemma_keys(self) -> list[str | None]:
        """fold() of each lemma; None where the lemma is missing (``_``), which never matches."""
        return [None if lm is None or lm in MISSING_LEMMAS else fold(lm) for lm in self.lemmas]

    @cached_property
    def dictionary(self) -> dict[str, bool]:
        return _dictionary(self)

    @cached_property
    def form_counts(self) -> dict[str, int]:
        """How often each folded form (or multiword surface) occurs."""
        counts: dict[str, int] = {}
        for form in [f for _, _, f, _ in self.multiword] + self.forms:
            key = fold(form)
            counts[key] = counts.get(key, 0) + 1
        return counts

    @cached_property
    def slots(self) -> tuple[list[tuple[str, int, int]], dict[str, list[int]]]:
        """What a piece of the output may realise, (folded form, first word, last word) by word position:
        every word, and every multiword token as its surface; and folded form -> its slots."""
        slots = [(k, p, p) for p, k in enumerate(self.keys)]
        for first, last, form, _ in self.multiword:
            positions = [self.position(i) for i in range(first, last + 1) if i in self._index]
            if positions:
                slots.append((fold(form), positions[0], positions[-1]))
        by_key: dict[str, list[int]] = {}
        for s, (key, _, _) in enumerate(slots):
            by_key.setdefault(key, []).append(s)
        return slots, by_key

    @cached_property
    def starting(self) -> dict[int, list[int]]:
        """First word position -> the slots that start there."""
        out: dict[int, list[int]] = {}
        for s, (_, first, _) in enumerate(self.slots[0]):
            out.setdefault(first, []).append(s)
        return out

    @cached_property
    def index(self) -> "_Index":
        return _Index(self)

    @cached_property
    def punct(self) -> list[bool]:
        """Is each word punctuation (base relation punct)?"""
        return [d.split(":")[0] == "punct" for d in self.deprels]

    def candidate_cache(self, lexicon: LemmaLexicon | None, rules: EnglishInflection | None) -> dict:
        """Candidate links per output word already looked up against this sentence (with this lexicon
        and these inflection rules)."""
        caches = self.__dict__.setdefault("_candidates", {})
        cache = caches.get((lexicon, rules))
        if cache is None:
            cache = caches[(lexicon, rules)] = {}
        return cache

    def inflected(self, rules: EnglishInflection) -> dict[str, list[int]]:
        """Folded regular inflection -> the positions of the words whose lemma (and part of speech) it
        inflects, by ``rules`` (:mod:`evalhouse.analysis.inflection`); nothing without parts of speech."""
        tables = self.__dict__.setdefault("_inflected", {})
        table = tables.get(rules)
        if table is None:
            table = tables[rules] = {}
            for p, (lemma, upos) in enumerate(zip(self.lemma_keys, self.upos or ())):
                if lemma is not None:
                    for form in rules.inflections(lemma, upos):
                        table.setdefault(form, []).append(p)
        return table


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
    start = None  # where the current word starts (slices, not repeated concatenation: linear)
    for k, ch in enumerate(run):
        word = start is not None
        inner_apostrophe = ch in _APOSTROPHES and (word or (k + 1 < len(run) and _word_char(run[k + 1])))
        inner_hyphen = word and _inner_hyphen(run, k)
        if _word_char(ch) or _spaceless(ch) or inner_apostrophe or inner_hyphen:
            if start is None:
                start = k
        else:
            if start is not None:
                pieces.append(run[start:k])
                start = None
            pieces.append(ch)
    if start is not None:
        pieces.append(run[start:])
    return pieces


def _inner_hyphen(text: str, k: int) -> bool:
    """Is ``text[k]`` a hyphen between two word characters?"""
    return text[k] in _HYPHENS and 0 < k < len(text) - 1 and _word_char(text[k - 1]) and _word_char(text[k + 1])


def _dictionary(ref: ReferenceSentence) -> dict[str, bool]:
    """Case-folded reference forms (and multiword surfaces) -> does the reference write one of them
    directly before a word character (no space, the next word starting with a letter, mark or digit;
    or inside a multiword token)? Written before punctuation only ("anyway." ) does not count: it says
    nothing about where two letters may be split."""
    n = len(ref.forms)
    word_next = [p + 1 < n and bool(ref.forms[p + 1]) and _word_char(ref.forms[p + 1][0]) for p in range(n)]
    d: dict[str, bool] = {}
    inner: set[int] = set()  # positions followed by another word of their multiword token
    last_of: dict[int, bool] = {}  # last position of a multiword token -> written glued to what follows
    for first, last, form, space_after in ref.multiword:
        positions = [ref.position(i) for i in range(first, last + 1) if i in ref._index]
        if not positions:
            continue
        glued = not space_after and word_next[positions[-1]]
        key = fold(form)
        d[key] = d.get(key, False) or glued
        inner.update(positions[:-1])
        last_of[positions[-1]] = glued
    for p, (form, space_after) in enumerate(zip(ref.forms, ref.space_after)):
        key = fold(form)
        if p in inner:
            glued = True
        elif p in last_of:
            glued = last_of[p]
        else:
            glued = not space_after and word_next[p]
        d[key] = d.get(key, False) or glued
    return d


def tokenise(text: str, ref: ReferenceSentence, rules: EnglishInflection | None = None) -> list[str]:
    """Split an output text into tokens, guided by the reference sentence (see module docstring);
    ``rules``: the language's rules, whose contractions may be cut between two letters ("do|n't")."""
    d = ref.dictionary
    slots, by_key = ref.slots
    # how often each form (or multiword surface) may still be a piece of its own
    remaining = dict(ref.form_counts)
    tokens: list[str] = []
    entry: frozenset[int] = frozenset((-1,))  # where the previous piece may end in the reference (-1: before it)
    carve = not _spaced_spaceless(text)  # reference forms may be cut out of unknown runs of Han, kana...
    for chunk in _chunks(text, ref):
        key = fold(chunk)
        if " " in chunk:  # a reference form with a space in it ("6 20 30")
            pieces, entry = [chunk], _continued(by_key.get(key, ()), slots, entry)
        elif remaining.get(key, 0) > 0 and not _may_continue_inside(key, slots, ref.starting, entry):
            # a whole form that no segmentation could beat: it continues the reference, or no piece of it could
            pieces, entry = [chunk], _continued(by_key[key], slots, entry)
        elif remaining.get(key, 0) <= 0 and key in d and not any(c in _SPLITTABLE for c in chunk):
            pieces, entry = [chunk], frozenset()  # a form used up: it stays whole, realising nothing known
        else:
            # forms the output has already used up are not offered again ("ch." once whole, once "ch" + ".")
            available = {f: d[f] for f in by_key if remaining.get(f, 0) > 0}
            pieces, entry = _segment(
                chunk,
                available,
                sorted({len(f) for f in available}, reverse=True),
                slots,
                by_key,
                entry,
                carve,
                rules.joints(chunk) if rules is not None else frozenset(),
            )
        for piece in pieces:
            k = fold(piece)
            if remaining.get(k, 0) > 0:
                remaining[k] -= 1
        tokens.extend(pieces)
    return tokens


def _continued(candidates, slots: list[tuple[str, int, int]], entry: frozenset[int]) -> frozenset[int]:
    """Where a piece that may be any of the slots ``candidates`` ends: the slot that continues ``entry``
    when there is one, else any of them."""
    following = [s for s in candidates if slots[s][1] - 1 in entry]
    return frozenset(slots[s][2] for s in (following or candidates))


def _may_continue_inside(key: str, slots, starting: dict[int, list[int]], entry: frozenset[int]) -> bool:
    """Could a segmentation of the chunk ``key`` into several pieces continue the reference where the
    whole chunk does not? Only if a slot that continues ``entry`` spells a proper prefix of it."""
    for e in entry:
        for s in starting.get(e + 1, ()):
            form = slots[s][0]
            if form == key:
                return False  # the whole chunk continues: nothing beats it
    return any(
        len(slots[s][0]) < len(key) and key.startswith(slots[s][0]) for e in entry for s in starting.get(e + 1, ())
    )


_SPLITTABLE = ".,;:!?()[]{}\"'«»“”„‘’-–—/…"


def _spaced_spaceless(text: str) -> bool:
    """Does ``text`` put white space between two characters of scripts written without spaces (the
    output separates its Chinese or Japanese words)?"""
    words = text.split()
    return any(_spaceless(x[-1]) and _spaceless(y[0]) for x, y in zip(words, words[1:]))


def _chunks(text: str, ref: ReferenceSentence) -> list[str]:
    """White-space chunks of ``text``, keeping whole any reference form that contains a space
    ("6 20 30", "1 000")."""
    spaced = sorted(
        {f for f in ref.forms + [m[2] for m in ref.multiword] if any(c.isspace() for c in f)}, key=len, reverse=True
    )
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
        rest = rest[at + len(form) :]
    return out


_START, _UNCOVERED = -2, -1  # states of the segmentation besides the slots (>= 0)


def _segment(
    chunk: str,
    d: dict[str, bool],
    lengths: list[int],
    slots: list[tuple[str, int, int]],
    by_key: dict[str, list[int]],
    entry: frozenset[int],
    carve: bool = True,
    joints: frozenset[int] = frozenset(),
    skip: bool = True,
) -> tuple[list[str], frozenset[int]]:
    """The pieces of ``chunk`` (module docstring: fewest uncovered letters, then fewest other uncovered
    characters, then fewest breaks, then fewest pieces) and where the last one may end in the reference
    (the next chunk's ``entry``). A hyphen between two uncovered runs of letters is given back to them:
    "e-mails" is one word, not e|-|mails.

    A state is the slot the last piece realises (its key is the piece, its last word says what may
    follow), or the start, or an uncovered run. The states at a position are the slots whose form ends
    there, so the work grows with the places where a reference form occurs in the chunk, not with
    chunk length x sentence length. Inside a run of word characters of a script written with spaces an
    uncovered run can only go on, so it is crossed in one step (``skip``; False: one step per
    character, the same result, kept for the tests)."""
    n = len(chunk)
    # ASCII folds character by character; anything else may change length or composition under
    # fold() ("ß" -> "ss"), so its pieces are folded one by one
    folded = chunk.lower() if chunk.isascii() else None
    # best[i][state] = (uncovered letters, other uncovered characters, breaks, pieces), only for the
    # positions some state reaches (a heap of them, visited in order and then forgotten: memory grows
    # with the places where reference forms occur, not with the chunk's length);
    # back[(i, state)] = (start, previous state, is a slot)
    best: dict[int, dict[int, tuple[int, int, int, int]]] = {0: {_START: (0, 0, 0, 0)}}
    back: dict[tuple[int, int], tuple[int, int, bool]] = {}
    pending = [0]

    def reach(j: int) -> dict[int, tuple[int, int, int, int]]:
        states = best.get(j)
        if states is None:
            states = best[j] = {}
            heapq.heappush(pending, j)
        return states

    def inside_at(i: int) -> bool:
        return 0 < i and _word_char(chunk[i - 1]) and _word_char(chunk[i]) and i not in joints

    while pending:
        i = heapq.heappop(pending)
        if i == n:
            break
        states_here = best.pop(i)
        # a split between two word characters: between two reference forms only after a form the
        # reference writes glued to a word, or in a script written without spaces; next to an
        # uncovered run only in such a script, and only when the output is not written with spaces
        # between its words (then a run of letters is one word of its own: "anyways" is no "anyway")
        inside = inside_at(i)
        spaceless = inside and (_spaceless(chunk[i - 1]) or _spaceless(chunk[i]))
        letter = _word_char(chunk[i])
        if skip and inside and not spaceless and len(states_here) == 1 and _UNCOVERED in states_here:
            # inside a run of word characters (not of a script written without spaces) an uncovered run
            # can only go on: no piece may start in it. Go on to the run's end, or to the next position
            # another state reaches, in one step (a 10 M-character token costs one step, not 10 M)
            stop = pending[0] if pending else n
            j = i + 1
            while j < stop and inside_at(j) and not (_spaceless(chunk[j - 1]) or _spaceless(chunk[j])):
                j += 1
            unc, other, breaks, pieces = states_here[_UNCOVERED]
            cand = (unc + (j - i), other, breaks, pieces)
            target = reach(j)
            old = target.get(_UNCOVERED)
            if old is None or cand < old:
                target[_UNCOVERED] = cand
                back[(j, _UNCOVERED)] = (i, _UNCOVERED, False)
            continue
        for state, (unc, other, breaks, pieces) in list(states_here.items()):
            if not inside:
                can_break = cut = True
            elif state == _UNCOVERED:
                can_break, cut = spaceless and carve, False
            else:
                can_break, cut = spaceless or d[slots[state][0]], spaceless and carve
            if can_break:
                ends = entry if state == _START else (slots[state][2],) if state >= 0 else ()
                for length in lengths:
                    j = i + length
                    if j > n:
                        continue
                    piece = folded[i:j] if folded is not None else fold(chunk[i:j])
                    if piece not in d:
                        continue
                    target = reach(j)
                    for s in by_key[piece]:
                        cand = (unc, other, breaks + (0 if slots[s][1] - 1 in ends else 1), pieces + 1)
                        old = target.get(s)
                        if old is None or cand < old:
                            target[s] = cand
                            back[(j, s)] = (i, state, True)
            if state == _UNCOVERED:  # an uncovered run goes on
                cand = (unc + letter, other + (not letter), breaks, pieces)
            elif cut:  # or starts: a piece that continues nothing
                cand = (unc + letter, other + (not letter), breaks + 1, pieces + 1)
            else:
                continue
            target = reach(i + 1)
            old = target.get(_UNCOVERED)
            if old is None or cand < old:
                target[_UNCOVERED] = cand
                back[(i + 1, _UNCOVERED)] = (i, state, False)
    final = best[n]
    end = min(final, key=lambda s: (final[s], s))
    if end >= 0:  # the next chunk may continue any slot with this form that ends as well
        key = slots[end][0]
        following = frozenset(slots[s][2] for s in by_key[key] if final.get(s) == final[end])
    else:
        following = frozenset()
    spans: list[tuple[int, int, bool]] = []
    j, state = n, end
    while j > 0:
        i, prev, is_word = back[(j, state)]
        spans.append((i, j, is_word))
        j, state = i, prev
    spans.reverse()
    for k in range(1, len(spans) - 1):
        i, j, is_word = spans[k]
        if is_word and j == i + 1 and _inner_hyphen(chunk, i) and not spans[k - 1][2] and not spans[k + 1][2]:
            spans[k] = (i, j, False)
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
    return out, following


# --- alignment ---------------------------------------------------------------------------------


class _Index:
    """Per reference sentence: the look-up tables the alignment needs (built once, shared by all outputs)."""

    __slots__ = ("by_form", "by_lemma", "surfaces", "member", "weights")

    def __init__(self, ref: ReferenceSentence) -> None:
        by_form: dict[str, list[int]] = {}
        by_lemma: dict[str, list[int]] = {}
        for p, (key, lemma_key) in enumerate(zip(ref.keys, ref.lemma_keys)):
            by_form.setdefault(key, []).append(p)
            if lemma_key is not None:
                by_lemma.setdefault(lemma_key, []).append(p)
        self.by_form, self.by_lemma = by_form, by_lemma
        # multiword surfaces: folded surface -> [(surface as written, member positions)], reference order
        self.surfaces: dict[str, list[tuple[str, list[int]]]] = {}
        # member position -> (folded surface of its multiword token, index inside it)
        self.member: dict[int, tuple[str, int]] = {}
        for first, last, form, _ in ref.multiword:
            positions = [ref.position(i) for i in range(first, last + 1) if i in ref._index]
            if len(positions) < 2:
                continue
            key = fold(form)
            self.surfaces.setdefault(key, []).append((form, positions))
            for q, p in enumerate(positions):
                self.member[p] = (key, q)
        self.weights = _Weights(len(ref.ids))


# A piece is one output word the alignment links: a token as written, or one syntactic word of a
# token that is a multiword surface of the reference. (form shown, key, folded surface or None, form
# as written, index in the multiword token, token index). The form shown for a syntactic word is the
# reference's; the form as written is the output's own spelling of it where the surface is the
# concatenation of its words ("google's" -> "google" + "'s"), so that exact and casefold are decided
# on what the output wrote.
_Piece = tuple


def _written(token: str, surface: str, forms: list[str]) -> list[str]:
    """The output's own spelling of each syntactic word of a multiword surface."""
    joined = "".join(forms)
    if len(joined) == len(token) and fold(joined) == fold(token):
        out, at = [], 0
        for f in forms:
            out.append(token[at : at + len(f)])
            at += len(f)
        return out
    return list(forms) if token == surface else [fold(f) for f in forms]


def _readings(tokens: Sequence[str], ref: ReferenceSentence, split: bool) -> list[list[list[_Piece]]]:
    """Per output token, its readings (each a list of pieces): the token itself, or its syntactic words
    when it is a multiword surface of the reference (one reading per distinct analysis of that surface in
    the sentence, the one spelled as the token first), or both when it is also a reference word form."""
    index = ref.index
    out = []
    for k, t in enumerate(tokens):
        key = fold(t)
        plain = [(t, key, None, t, 0, k)]
        groups = index.surfaces.get(key) if split else None
        if not groups:
            out.append([plain])
            continue
        alts = [plain] if key in index.by_form else []
        seen = set()
        for surface, positions in sorted(groups, key=lambda g: g[0] != t):  # stable: reference order otherwise
            forms = [ref.forms[p] for p in positions]
            if tuple(forms) in seen:
                continue
            seen.add(tuple(forms))
            written = _written(t, surface, forms)
            alts.append([(forms[q], ref.keys[p], key, written[q], q, k) for q, p in enumerate(positions)])
        out.append(alts)
    return out


def _candidates(
    piece: _Piece, ref: ReferenceSentence, lexicon: LemmaLexicon | None, rules: EnglishInflection | None
) -> list[tuple[int, int, str]]:
    """(reference position, weight, method) for every word the piece may link to, with the strongest
    method that applies, by reference position. The weight covers objective levels 1-2 (see
    :class:`_Weights`); the context level depends on the neighbours and is added by :func:`_solve`."""
    _, key, surface, written, q, _ = piece
    index = ref.index
    forms = ref.forms
    w = index.weights
    tier, multiword = w.tier, w.multiword
    found: dict[int, tuple[int, str]] = {}
    for p in index.by_form.get(key, ()):
        exact = written == forms[p]
        if surface is not None and index.member.get(p) == (surface, q):
            found[p] = (tier[0 if exact else 1] + multiword, "multiword")
        elif exact:
            found[p] = (tier[0], "exact")
        else:
            found[p] = (tier[1], "casefold")
    hits = index.by_lemma.get(key)
    if hits:
        for p in hits:
            if p not in found:
                found[p] = (tier[2], "lemma")
    if lexicon is not None:
        for lemma in lexicon.lemmas.get(key, ()):
            for p in index.by_lemma.get(lemma, ()):
                if p not in found:
                    found[p] = (tier[3], "lexicon")
    if rules is not None:
        for p in ref.inflected(rules).get(key, ()):
            if p not in found:
                found[p] = (tier[4], "inflection")
        host = rules.contraction_host(key)
        if host is not None:  # the host is the word's form, or its lemma ("can't" for the "ca" of "ca n't")
            for p in (*index.by_form.get(host, ()), *index.by_lemma.get(host, ())):
                if p not in found:
                    found[p] = (tier[4], "contraction")
    return [(p,) + found[p] for p in sorted(found)]


class _Weights:
    """Integer link weights K whose sums compare like the objective's levels 1-3 (module docstring).

    From the most significant: five tier levels (level l counts the links of tier <= l: 0 exact, 1
    casefold, 2 lemma, 3 lexicon, 4 a rule of the language; a multiword link is exact or casefold by
    its spelling), the multiword links, the context (0-2 per link). Each level's base exceeds the
    largest sum the levels below can reach (links are at most the reference words), so no level
    carries into the next, and a link of tier t weighs sum(B^(4-l) for l >= t) * level."""

    __slots__ = ("tier", "multiword")

    def __init__(self, words: int) -> None:
        context = 2 * words + 1  # context sums
        self.multiword = context
        level = (words + 1) * self.multiword
        b = words + 1
        self.tier = [sum(b ** (4 - lv) for lv in range(t, 5)) * level for t in range(5)]


def _crossings(links: Sequence[tuple[int, int]]) -> int:
    """Pairs of links (i, j), (i', j') with i < i' and j > j' (links sorted by piece)."""
    count = 0
    seen: list[int] = []
    for _, j in sorted(links, reverse=True):
        count += bisect_left(seen, j)
        insort(seen, j)
    return count


def _monotone(rows: list[list[tuple]], words: int) -> list[tuple]:
    """The crossing-free alignment of greatest value: a heaviest chain of candidate links increasing in
    both the output and the reference, by a Fenwick tree of prefix maxima over reference positions.
    rows[i] = [(j, value, ...), ...] sorted by j; returns the chosen (i, j, value, ...) tuples."""
    tree = [0] * (words + 1)
    arg = [-1] * (words + 1)
    nodes: list[tuple] = []
    best, best_node = 0, -1
    for i, row in enumerate(rows):
        for edge in reversed(row):  # j descending: links of the same output word never chain
            j, value = edge[0], edge[1]
            v, a, x = 0, -1, j
            while x > 0:
                if tree[x] > v:
                    v, a = tree[x], arg[x]
                x -= x & -x
            total = v + value
            node = len(nodes)
            nodes.append((i, edge, a))
            x = j + 1
            while x <= words and total > tree[x]:  # parents hold at least their children's maximum
                tree[x], arg[x] = total, node
                x += x & -x
            if total > best:
                best, best_node = total, node
    links = []
    while best_node >= 0:
        i, edge, best_node = nodes[best_node]
        links.append((i,) + edge)
    links.reverse()
    return links


def _hungarian(rows: list[int], cols: list[int], weight: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    """A maximum-weight matching between rows and cols (weights > 0 on the given pairs only), by the
    Hungarian method with potentials (Kuhn-Munkres, O(n^2 m)). Returns the matched (row, col) pairs."""
    transpose = len(rows) > len(cols)
    if transpose:
        rows, cols = cols, rows
        weight = {(c, r): w for (r, c), w in weight.items()}
    n, m = len(rows), len(cols)
    cost = [[-weight.get((r, c), 0) for c in cols] for r in rows]
    inf = float("inf")
    u = [0] * (n + 1)
    v = [0] * (m + 1)
    p = [0] * (m + 1)
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta, j1 = inf, 0
            row = cost[i0 - 1]
            ui0 = u[i0]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    pairs = []
    for j in range(1, m + 1):
        if p[j] and (rows[p[j] - 1], cols[j - 1]) in weight:
            r, c = rows[p[j] - 1], cols[j - 1]
            pairs.append((c, r) if transpose else (r, c))
    return sorted(pairs)


@dataclass
class _Component:
    pieces: list[int]
    words: list[int]
    edges: dict[tuple[int, int], tuple[int, int]]  # (i, j) -> (K, K * d + closeness)
    best: int = 0  # greatest total K of a matching inside the component
    links: list[tuple[int, int]] = field(default_factory=list)
    pure: bool = False  # complete bipartite with one K: every matching of min(p, r) links is optimal


def _components(rows: list[list[tuple]], words: int) -> list[_Component]:
    """Connected components of the candidate links. rows[i] = [(j, value, K, method), ...]."""
    degree = [0] * words
    for row in rows:
        for edge in row:
            degree[edge[0]] += 1
    out: list[_Component] = []
    offset = len(rows)  # node of word j: offset + j
    parent = list(range(offset + words))

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    rest = []
    for i, row in enumerate(rows):
        if not row:
            continue
        if len(row) == 1 and degree[row[0][0]] == 1:  # one candidate, which has no other: a link of its own
            j, value, k, _ = row[0]
            out.append(_Component([i], [j], {(i, j): (k, value)}, k, [(i, j)]))
            continue
        a = find(i)
        for edge in row:
            b = find(offset + edge[0])
            if a != b:
                parent[b] = a
        rest.append(i)
    groups: dict[int, _Component] = {}
    for i in rest:
        root = find(i)
        c = groups.get(root)
        if c is None:
            c = groups[root] = _Component([], [], {})
        c.pieces.append(i)
        for j, value, k, _ in rows[i]:
            c.edges[(i, j)] = (k, value)
    for c in groups.values():
        c.words = sorted({j for _, j in c.edges})
        out.append(c)
    return out


def _solve_component(c: _Component) -> None:
    """The component's best total K and a matching attaining it (closest to the diagonal)."""
    if len(c.edges) == 1:
        return
    ks = {k for k, _ in c.edges.values()}
    if len(ks) == 1 and len(c.edges) == len(c.pieces) * len(c.words):
        c.pure = True
        n = min(len(c.pieces), len(c.words))
        c.best = n * next(iter(ks))
        c.links = list(zip(c.pieces[:n], c.words[:n]))  # in order; the subset is chosen by _uncross
    else:
        c.links = _hungarian(c.pieces, c.words, {ij: value for ij, (_, value) in c.edges.items()})
        c.best = sum(c.edges[ij][0] for ij in c.links)


def _crossing_cost(links: Sequence[tuple[int, int]], fixed_sorted: list[tuple[int, int]]) -> list[int]:
    """For each link, how many fixed links it crosses."""
    out = []
    for i, j in links:
        out.append(sum(1 for fi, fj in fixed_sorted if (fi - i) * (fj - j) < 0))
    return out


def _reoptimise_pure(c: _Component, fixed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Pure component: links in order (k-th to k-th) on the subset of the larger side that crosses the
    fewest fixed links (then is closest to the diagonal); exact by dynamic programming."""
    small, large, flip = (c.pieces, c.words, False) if len(c.pieces) <= len(c.words) else (c.words, c.pieces, True)
    a, b = len(small), len(large)
    if a == b:
        return list(zip(c.pieces, c.words))

    def pair(x, y):
        return (y, x) if flip else (x, y)

    big = a * max(near for _, near in c.edges.values()) + 1  # crossings first, then closeness
    cost = {}
    for s in range(a):
        for t in range(s, b - a + s + 1):
            i, j = pair(small[s], large[t])
            crossing = sum(1 for fi, fj in fixed if (fi - i) * (fj - j) < 0)
            cost[(s, t)] = crossing * big - c.edges[(i, j)][1]
    # best[s][t]: small[0..s] placed, small[s] on large[t]
    inf = float("inf")
    prev = [inf] * b
    back = [[-1] * b for _ in range(a)]
    for t in range(0, b - a + 1):
        prev[t] = cost[(0, t)]
    for s in range(1, a):
        cur = [inf] * b
        run, run_t = inf, -1
        for t in range(s, b - a + s + 1):
            if prev[t - 1] < run:
                run, run_t = prev[t - 1], t - 1
            cur[t] = run + cost[(s, t)]
            back[s][t] = run_t
        prev = cur
    t = min(range(a - 1, b), key=lambda x: (prev[x], x))
    chosen = [0] * a
    for s in range(a - 1, -1, -1):
        chosen[s] = t
        t = back[s][t]
    return sorted(pair(small[s], large[chosen[s]]) for s in range(a))


def _optimal_matchings(c: _Component, limit: int):
    """Yield the component's matchings of greatest K (as lists of links), by search bounded by the best
    K still reachable; stops after ``limit`` search nodes (then the caller keeps what it has)."""
    by_piece = {i: [] for i in c.pieces}
    for (i, j), (k, value) in sorted(c.edges.items()):
        by_piece[i].append((j, k, value))
    order = c.pieces
    rest = [0] * (len(order) + 1)
    for x in range(len(order) - 1, -1, -1):
        rest[x] = rest[x + 1] + max(k for _, k, _ in by_piece[order[x]])
    used: set[int] = set()
    chosen: list[tuple[int, int]] = []
    nodes = 0

    def search(x: int, k: int):
        nonlocal nodes
        nodes += 1
        if nodes > limit:
            raise _Limit
        if k + rest[x] < c.best:
            return
        if x == len(order):
            yield list(chosen)
            return
        i = order[x]
        for j, kk, _ in by_piece[i]:
            if j not in used:
                used.add(j)
                chosen.append((i, j))
                yield from search(x + 1, k + kk)
                chosen.pop()
                used.discard(j)
        yield from search(x + 1, k)

    yield from search(0, 0)


class _Limit(Exception):
    """The search for a component's best matching went past ENUMERATION_LIMIT nodes."""


def _reoptimise_search(c: _Component, fixed: list[tuple[int, int]], limit: int) -> list[tuple[int, int]] | None:
    """Mixed component: among its matchings of greatest K, the one crossing fewest links (inside it and
    fixed ones), then closest to the diagonal; exhaustive search, None past ``limit`` nodes."""
    memo: dict[tuple[int, int], int] = {}
    best, best_links = None, None
    try:
        for links in _optimal_matchings(c, limit):
            crossings = _crossings(links)
            for ij in links:
                n = memo.get(ij)
                if n is None:
                    i, j = ij
                    n = memo[ij] = sum(1 for fi, fj in fixed if (fi - i) * (fj - j) < 0)
                crossings += n
            score = (crossings, -sum(c.edges[ij][1] for ij in links))
            if best is None or score < best:
                best, best_links = score, links
    except _Limit:
        return None
    return best_links


def _solve(
    pieces: list[_Piece],
    ref: ReferenceSentence,
    lexicon: LemmaLexicon | None,
    rules: EnglishInflection | None,
    span: int,
) -> tuple[int, int, int, list[tuple[int, int, str]]]:
    """Best alignment of one reading of the output: (total K, crossings, closeness, links (i, j, method)).

    A link's value is K * d + closeness, closeness = span - |i - j| (span exceeds any |i - j|, d any
    sum of closeness), so sums of values compare on K first."""
    words = len(ref.ids)
    d = words * span + 1
    cache = ref.candidate_cache(lexicon, rules)
    rows: list[list[tuple[int, int, int, str]]] = []
    bound_pieces = 0
    chain: list[tuple] | None = []  # each output word's most valuable link, while they keep the order
    last = -1
    keys = ref.keys
    last_piece, last_word = len(pieces) - 1, words - 1
    for i, piece in enumerate(pieces):
        signature = piece[1:5]
        cands = cache.get(signature)
        if cands is None:
            cands = cache[signature] = _candidates(piece, ref, lexicon, rules)
        if not cands:
            rows.append([])
            continue
        before = pieces[i - 1][1] if i > 0 else None
        after = pieces[i + 1][1] if i < last_piece else None
        row = []
        top, top_value = None, 0
        for j, k, method in cands:
            # context: the neighbours agree (folded) with the reference word's neighbours
            if before is not None and j > 0 and keys[j - 1] == before:
                k += 1
            if after is not None and j < last_word and keys[j + 1] == after:
                k += 1
            value = k * d + span - abs(i - j)
            edge = (j, value, k, method)
            row.append(edge)
            if value > top_value:
                top, top_value = edge, value
        rows.append(row)
        bound_pieces += top[2]
        if chain is not None:
            if top[0] > last:
                chain.append((i,) + top)
                last = top[0]
            else:
                chain = None
    # certificates that no alignment beats a crossing-free one on 1-3: every output word, or every
    # reference word, has its best possible link; else the exact optimum, component by component
    if chain is not None:
        core, core_k = chain, bound_pieces  # every output word on its best link, in order: optimal
    else:
        core = _monotone(rows, words)
        core_k = sum(link[3] for link in core)
        bound_words = [0] * words
        for row in rows:
            for j, _, k, _ in row:
                if k > bound_words[j]:
                    bound_words[j] = k
        if core_k != bound_pieces and core_k != sum(bound_words):
            components = _components(rows, words)
            for c in components:
                _solve_component(c)
            if core_k != sum(c.best for c in components):
                links = _uncross(components)
                method = {(i, j): m for i, row in enumerate(rows) for j, _, _, m in row}
                value = {ij: c.edges[ij] for c in components for ij in c.edges}
                return (
                    sum(value[ij][0] for ij in links),
                    _crossings(links),
                    sum(value[ij][1] % d for ij in links),
                    [(i, j, method[(i, j)]) for i, j in links],
                )
    return core_k, 0, sum(link[2] % d for link in core), [(i, j, m) for i, j, _, _, m in core]


def _uncross(components: list[_Component]) -> list[tuple[int, int]]:
    """Optimal links per component, then fewer crossings: each component in turn takes, among its
    optimal matchings, the one that crosses fewest of the other links (then is closest to the
    diagonal), until no component changes (every change removes a crossing, so this ends)."""
    choice = []
    for c in components:
        if c.pure and len(c.pieces) == len(c.words):
            c.links = list(zip(c.pieces, c.words))  # in order: optimal whatever the rest (exchange argument)
        elif c.pure:
            choice.append(c)
        elif len(c.edges) > 1 and _several(c):
            choice.append(c)
    changed = True
    while changed:
        changed = False
        for c in choice:
            fixed = [ij for other in components if other is not c for ij in other.links]
            if c.pure:
                new = _reoptimise_pure(c, fixed)
            else:
                new = _reoptimise_search(c, fixed, ENUMERATION_LIMIT)
                if new is None:
                    continue
            if new != c.links and _score(new, fixed, c) < _score(c.links, fixed, c):
                c.links = new
                changed = True
    return sorted(ij for c in components for ij in c.links)


def _several(c: _Component) -> bool:
    """Does the component have more than one matching of greatest K (or too many to tell)?"""
    try:
        found = 0
        for _ in _optimal_matchings(c, ENUMERATION_LIMIT):
            found += 1
            if found > 1:
                return True
        return False
    except _Limit:
        return True


def _score(links, fixed, c: _Component) -> tuple[int, int]:
    crossings = _crossings(links) + sum(_crossing_cost(links, fixed))
    return crossings, -sum(c.edges[ij][1] for ij in links)


def align(
    tokens: Sequence[str],
    ref: ReferenceSentence,
    lemmas: Sequence[str | None] | None = None,
    lexicon: LemmaLexicon | None = None,
    rules: EnglishInflection | None = None,
) -> list[OutputToken]:
    """Link output tokens one-to-one to reference words (see the module docstring). ``rules``: the
    inflection rules of the reference's language (:func:`evalhouse.analysis.inflection.for_language`),
    used with the words' parts of speech (``ref.upos``)."""
    readings = _readings(tokens, ref, split=lemmas is None)
    span = len(tokens) + len(ref.ids) + 1 + sum(max(len(r) for r in alts) - 1 for alts in readings)
    contested = [k for k, alts in enumerate(readings) if len(alts) > 1]
    choice = [0] * len(readings)

    def run(choice):
        pieces = [p for alts, c in zip(readings, choice) for p in alts[c]]
        k, crossings, near, links = _solve(pieces, ref, lexicon, rules, span)
        return (k, -crossings, near), pieces, links

    best = run(choice)
    if contested and math.prod(len(readings[k]) for k in contested) <= MAX_BRANCHES:
        for trial_choice in itertools.product(*(range(len(readings[k])) for k in contested)):
            if not any(trial_choice):
                continue  # the first reading of every token: already run
            trial = list(choice)
            for k, c in zip(contested, trial_choice):
                trial[k] = c
            result = run(trial)
            if result[0] > best[0]:
                best = result
    elif contested:  # steepest ascent: change the one reading that improves the alignment most, repeat
        while True:
            step = None
            for k in contested:
                for c in range(len(readings[k])):
                    if c == choice[k]:
                        continue
                    trial = list(choice)
                    trial[k] = c
                    result = run(trial)
                    if result[0] > (step or best)[0]:
                        step, step_choice = result, trial
            if step is None:
                break
            best, choice = step, step_choice
    _, pieces, links = best
    linked = {i: (j, method) for i, j, method in links}
    out = []
    ids, ref_lemmas, punct = ref.ids, ref.lemmas, ref.punct
    for i, piece in enumerate(pieces):
        form = piece[0]
        given = lemmas[piece[5]] if lemmas is not None else None
        link = linked.get(i)
        if link is None:
            lemma, source = (given, "given") if given is not None else (form, "form")
            out.append(OutputToken(form, None, "unaligned", lemma, _all_punct(form), source))
        else:
            p, method = link
            lemma, source = (given, "given") if given is not None else (ref_lemmas[p], "reference")
            out.append(OutputToken(form, ids[p], method, lemma, punct[p], source))
    return out
