"""Parser outputs made from real gold sentences by seeded edits, to compare evalhouse's CoNLL 2018 metrics
with the official script's on the cases the real outputs do not cover: tokens merged and split, multiword
tokens made, undone and re-cased, sentences merged and split, spaces (Zs) inside forms, empty nodes, and
noise on heads, relations (with and without subtypes, functional and content), UPOS, XPOS, FEATS and
LEMMA. Every output spells the gold text (without spaces), so the script scores it.

    system_text(gold_text, seed) -> the CoNLL-U text of a parser output
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

RELATIONS = [
    "nsubj",
    "obj",
    "obl",
    "nmod",
    "amod",
    "advmod",
    "det",
    "case",
    "aux",
    "cop",
    "mark",
    "cc",
    "conj",
    "compound",
    "punct",
    "acl:relcl",
    "nsubj:pass",
    "obl:tmod",
    "dep",
    "flat",
    "clf",
]
UPOS = ["NOUN", "VERB", "ADJ", "ADP", "DET", "PRON", "AUX", "PUNCT", "X"]
FEATS = ["_", "Number=Sing", "Number=Plur", "Gender=Fem|Number=Sing", "Case=Nom|Foo=Bar", "Foo=Bar"]
SPACES = [" ", "\u00a0", "\u3000", "\u2009"]


@dataclass
class Word:
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    head: int  # index into the sentence's words, -1 for the root
    deprel: str


@dataclass
class Sentence:
    words: list[Word]
    ranges: list[tuple[int, int, str]] = field(default_factory=list)  # (first, last) word indices, FORM
    empty_after: list[int] = field(default_factory=list)  # word indices followed by an empty node


def parse(text: str) -> list[Sentence]:
    out = []
    for block in text.strip("\n").split("\n\n"):
        words, ranges, empties = [], [], []
        for line in block.split("\n"):
            if not line or line.startswith("#"):
                continue
            c = line.split("\t")
            if "." in c[0]:
                empties.append(len(words) - 1)
            elif "-" in c[0]:
                a, b = map(int, c[0].split("-"))
                ranges.append((a - 1, b - 1, c[1]))
            else:
                words.append(Word(c[1], c[2], c[3], c[4], c[5], int(c[6]) - 1, c[7]))
        out.append(Sentence(words, ranges, empties))
    return out


def write(sentences: list[Sentence]) -> str:
    lines = []
    for s in sentences:
        starts = {a: (a, b, f) for a, b, f in s.ranges}
        for i, w in enumerate(s.words):
            if i in starts:
                a, b, f = starts[i]
                lines.append(f"{a + 1}-{b + 1}\t{f}\t_\t_\t_\t_\t_\t_\t_\t_")
            lines.append(
                "\t".join([str(i + 1), w.form, w.lemma, w.upos, w.xpos, w.feats, str(w.head + 1), w.deprel, "_", "_"])
            )
            for k in [k for k in s.empty_after if k == i]:
                lines.append(f"{i + 1}.1\t_\t_\t_\t_\t_\t_\t_\t{i + 1}:dep\t_")
        lines.append("")
    return "\n".join(lines) + "\n"


def _in_range(s: Sentence, i: int) -> bool:
    return any(a <= i <= b for a, b, _ in s.ranges)


def _descends(s: Sentence, k: int, h: int) -> bool:
    """Whether word k is h or below h."""
    seen = 0
    while k != -1 and seen <= len(s.words):
        if k == h:
            return True
        k = s.words[k].head
        seen += 1
    return False


def _renumber(s: Sentence, removed: int | None = None, inserted: int | None = None) -> None:
    """Heads and ranges after removing word ``removed`` (heads already moved off it) or inserting at ``inserted``."""

    def move(k: int) -> int:
        if removed is not None and k > removed:
            return k - 1
        if inserted is not None and k >= inserted:
            return k + 1
        return k

    for w in s.words:
        if w.head >= 0:
            w.head = move(w.head)
    s.ranges = [(move(a), move(b), f) for a, b, f in s.ranges]
    s.empty_after = [move(k) for k in s.empty_after]


def noise(s: Sentence, rng: random.Random) -> None:
    for w in s.words:
        r = rng.random()
        if r < 0.06:
            w.deprel = rng.choice(RELATIONS) if w.head >= 0 else w.deprel
        elif r < 0.09:
            w.deprel = w.deprel.split(":")[0] if ":" in w.deprel else w.deprel + ":x"
        elif r < 0.13:
            w.upos = rng.choice(UPOS)
        elif r < 0.16:
            w.xpos = rng.choice(["_", "NN", w.xpos + "x"])
        elif r < 0.20:
            w.feats = rng.choice(FEATS)
        elif r < 0.24:
            w.lemma = rng.choice(["_", w.lemma.upper(), w.form.lower()])
    for k, w in enumerate(s.words):
        if w.head >= 0 and rng.random() < 0.08:
            options = [h for h in range(len(s.words)) if not _descends(s, h, k)]
            w.head = rng.choice(options)


def merge_tokens(s: Sentence, rng: random.Random) -> None:
    """Contract an arc between two adjacent words outside multiword tokens into one word."""
    pairs = [
        i
        for i in range(len(s.words) - 1)
        if not _in_range(s, i) and not _in_range(s, i + 1) and (s.words[i].head == i + 1 or s.words[i + 1].head == i)
    ]
    if not pairs:
        return
    i = rng.choice(pairs)
    upper, lower = (i + 1, i) if s.words[i].head == i + 1 else (i, i + 1)
    keep = s.words[upper]
    keep.form = s.words[i].form + s.words[i + 1].form
    for w in s.words:
        if w.head == lower:
            w.head = upper
    del s.words[lower]
    _renumber(s, removed=lower)


def split_token(s: Sentence, rng: random.Random) -> None:
    """Split a word outside multiword tokens into two, the second attached to the first."""
    options = [i for i, w in enumerate(s.words) if len(w.form) >= 2 and not _in_range(s, i)]
    if not options:
        return
    i = rng.choice(options)
    w = s.words[i]
    cut = rng.randrange(1, len(w.form))
    second = Word(w.form[cut:], "_", "X", "_", "_", i, "flat")
    w.form = w.form[:cut]
    _renumber(s, inserted=i + 1)
    second.head = i
    s.words.insert(i + 1, second)


def make_range(s: Sentence, rng: random.Random) -> None:
    """Two adjacent words outside multiword tokens become a multiword token (its words' case changed now and then)."""
    options = [
        i for i in range(len(s.words) - 1) if not _in_range(s, i) and not _in_range(s, i + 1) and i not in s.empty_after
    ]
    if not options:
        return
    i = rng.choice(options)
    s.ranges.append((i, i + 1, s.words[i].form + s.words[i + 1].form))
    s.ranges.sort()
    if rng.random() < 0.5:
        s.words[i].form = s.words[i].form.swapcase()


def undo_range(s: Sentence, rng: random.Random) -> None:
    """A multiword token's words become tokens that spell its FORM (its first word takes all but the last
    character, the others one each, as far as there are characters)."""
    if not s.ranges:
        return
    a, b, form = s.ranges.pop(rng.randrange(len(s.ranges)))
    n = b - a + 1
    if len(form) < n:
        s.ranges.append((a, b, form))
        s.ranges.sort()
        return
    pieces = [form[: len(form) - n + 1]] + list(form[len(form) - n + 1 :])
    for k, piece in zip(range(a, b + 1), pieces):
        s.words[k].form = piece


def space_in_form(s: Sentence, rng: random.Random) -> None:
    """A space separator (Zs) inside the FORM of a token outside multiword tokens."""
    options = [i for i, w in enumerate(s.words) if len(w.form) >= 2 and not _in_range(s, i)]
    if options:
        w = s.words[rng.choice(options)]
        cut = rng.randrange(1, len(w.form))
        w.form = w.form[:cut] + rng.choice(SPACES) + w.form[cut:]


def empty_node(s: Sentence, rng: random.Random) -> None:
    options = [i for i in range(len(s.words)) if not _in_range(s, i) or _in_range(s, i) and not _in_range(s, i + 1)]
    if options:
        s.empty_after.append(rng.choice(options))


def merge_sentences(a: Sentence, b: Sentence) -> Sentence:
    n = len(a.words)
    root_a = next(k for k, w in enumerate(a.words) if w.head < 0)
    for w in b.words:
        w.head = root_a if w.head < 0 else w.head + n
    for w in b.words:
        if w.head == root_a and w.deprel == "root":
            w.deprel = "parataxis"
    return Sentence(
        a.words + b.words,
        a.ranges + [(x + n, y + n, f) for x, y, f in b.ranges],
        a.empty_after + [k + n for k in b.empty_after],
    )


def split_sentence(s: Sentence, rng: random.Random) -> list[Sentence]:
    cuts = [k for k in range(1, len(s.words)) if not any(a < k <= b for a, b, _ in s.ranges)]
    if not cuts:
        return [s]
    k = rng.choice(cuts)
    parts = []
    for lo, hi in ((0, k), (k, len(s.words))):
        words = s.words[lo:hi]
        inside = set(range(lo, hi))

        def depth(j: int) -> int:
            d = 0
            while s.words[j].head >= 0:
                j, d = s.words[j].head, d + 1
            return d

        root = min(inside, key=depth)
        new = []
        for j, w in zip(range(lo, hi), words):
            head = -1 if j == root else (w.head - lo if w.head in inside else root - lo)
            new.append(Word(w.form, w.lemma, w.upos, w.xpos, w.feats, head, "root" if j == root else w.deprel))
        parts.append(
            Sentence(
                new,
                [(a - lo, b - lo, f) for a, b, f in s.ranges if lo <= a and b < hi],
                [e - lo for e in s.empty_after if lo <= e < hi],
            )
        )
    return parts


EDITS = (merge_tokens, split_token, make_range, undo_range, space_in_form, empty_node)


def system_text(gold_text: str, seed: int) -> str:
    """A parser output for ``gold_text`` (the same characters without spaces), made by seeded edits."""
    rng = random.Random(seed)
    sentences = parse(gold_text)
    out: list[Sentence] = []
    i = 0
    while i < len(sentences):
        s = sentences[i]
        if i + 1 < len(sentences) and rng.random() < 0.1:
            s = merge_sentences(s, sentences[i + 1])
            i += 1
        i += 1
        for edit in EDITS:
            if rng.random() < 0.3:
                edit(s, rng)
        noise(s, rng)
        out += split_sentence(s, rng) if rng.random() < 0.1 else [s]
    return write(out)
