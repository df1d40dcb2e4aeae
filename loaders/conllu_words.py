"""CoNLL-U dependency trees as the CoNLL 2018 shared task's evaluation reads them: tokens with their
character spans, syntactic words with heads and relations (:class:`Words`, what
:mod:`evalhouse.analysis.dependency_eval` scores).

    $ evalhouse ingest dependency-run ../shared/data/parsing/conll2018/UDPipe-Future/en_ewt.conllu \\
          --gold ../shared/data/parsing/conll2018/gold/en_ewt.conllu --corpus en_ewt --team UDPipe-Future --run 1

A parser's output file is read once by :func:`read_words`, through the one CoNLL-U reader
(:func:`evalhouse.loaders.conllu.chunks`), and checked on the chunks' numpy arrays as :data:`CHECKS`
says: more lenient than ``ingest treebank`` (system outputs of 2018 leave FEATS empty, for instance),
but it still refuses what would make the scores wrong, naming file and line: a line without 10
tab-separated columns, a bad ID or HEAD, a HEAD outside the sentence, a cycle, a sentence with no root
or several roots, an empty FORM, a missing final blank line (the official script refuses that too).
Empty nodes (``8.1``) are skipped, as the official evaluation skips them. The gold trees come from the
warehouse's ``nodes`` (:mod:`evalhouse.ingest.dependency_runs`); both go through
:func:`words_from_tokens`. Spaces (Unicode category Zs) are removed from forms, so that the two texts'
characters can be compared.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field

import numpy as np

from evalhouse.analysis.trees import NotATreeError, TreeBatch, tree_depths
from evalhouse.errors import InputError
from evalhouse.loaders import arrow_arrays
from evalhouse.loaders.conllu import (
    BAD,
    BLANK,
    COMMENT,
    RANGE,
    WORD,
    Blocks,
    Chunk,
    ProblemTally,
    chunks,
    sentence_blocks,
)
from evalhouse.loaders.source import open_bytes


@dataclass
class Words:
    """A whole file: per word (0-based index over the file) its token span, form, head, relation, and
    (``columns``) its LEMMA, UPOS, XPOS and FEATS."""

    characters: list[str] = field(default_factory=list)
    start: list[int] = field(default_factory=list)  # character span of the word's token
    end: list[int] = field(default_factory=list)
    multiword: list[bool] = field(default_factory=list)
    form: list[str] = field(default_factory=list)  # the FORM the script compares (see the module docstring)
    head: list[int] = field(default_factory=list)  # file index of the head word, -1 for the root
    deprel: list[str] = field(default_factory=list)  # verbatim (with subtype)
    sentence: list[int] = field(default_factory=list)  # 1-based sentence position
    word_id: list[int] = field(default_factory=list)  # CoNLL-U ID within the sentence
    sentences: int = 0
    sha256: str | None = None  # of the file read (read_words)
    # LEMMA, UPOS, XPOS, FEATS: name -> Arrow string array, one value per word (None: not read)
    columns: dict | None = None

    def head_ids(self) -> np.ndarray:
        """The CoNLL-U HEAD of every word (0 for a root)."""
        head = np.asarray(self.head, dtype=np.int64)
        index = np.arange(len(head), dtype=np.int64)
        return np.where(head < 0, 0, head - (index - np.asarray(self.word_id, dtype=np.int64)))


# the columns of Words.columns, with their CoNLL-U column numbers (0 = ID)
COLUMNS = {"lemma": 2, "upos": 3, "xpos": 4, "feats": 5}


# What a parser's output must satisfy, in the order that breaks ties between problems on one line (the
# first wins): each check is computed on a chunk's numpy arrays (_OutputChecker.check), as the
# treebank checks are.  They were once SQL queries over staged tables:
# tests/test_conllu_output_checks.py holds what those gave on 800 seeded files, and compares.
CHECKS = (
    "empty sentence (a blank line where a sentence should start)",
    "comment line inside a sentence",
    "expected 10 tab-separated columns, found {n}",
    "bad multiword token ID '{id}' | bad word ID '{id}'",
    "empty FORM",
    "bad multiword token range '{id}'",
    "multiword token is missing some of its words",
    "word ID {id}, expected {ordinal}",
    "HEAD cannot be negative | HEAD '{head}' is not an integer",
    "HEAD {head} points outside the sentence of {words} words",
    "sentence has {roots} roots (exactly one is required)",
    "the file does not end with a blank line after the last sentence",
)
CYCLE = "the heads form a cycle"
_NEGATIVE = re.compile(r"-[0-9]+")


def _starts_with_space(buf: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Whether the text at each of ``start`` (offsets into valid UTF-8) begins with a space separator
    (Unicode category Zs): U+0020, U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F or U+3000, told by the
    bytes of their UTF-8 encodings.  A FORM of spaces only starts with one; the first byte alone would
    also take in most Japanese words (U+3000-U+3FFF all start with 0xE3)."""
    last = len(buf) - 1
    b0, b1, b2 = (buf[np.minimum(start + k, last)] for k in range(3))
    return (
        (b0 == 0x20)
        | ((b0 == 0xC2) & (b1 == 0xA0))
        | ((b0 == 0xE1) & (b1 == 0x9A) & (b2 == 0x80))
        | ((b0 == 0xE2) & (b1 == 0x80) & (((b2 >= 0x80) & (b2 <= 0x8A)) | (b2 == 0xAF)))
        | ((b0 == 0xE2) & (b1 == 0x81) & (b2 == 0x9F))
        | ((b0 == 0xE3) & (b1 == 0x80) & (b2 == 0x80))
    )


class _OutputChecker(ProblemTally):
    """The checks of :data:`CHECKS`, chunk by chunk: the first problem by line (ties to the earlier
    check) and how many there are in all; then cycles, in the sentences that end before the first
    problem (a sentence after it, or with a problem of its own, has its problem reported first)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.last_line, self.last_line_blank = 0, True  # the file's last line so far
        # per word of a sentence with words: HEAD, line, and the last line of its sentence; per such
        # sentence its number of words (what the cycle walk needs once the first problem is known)
        self.heads: list[np.ndarray] = []
        self.word_lines: list[np.ndarray] = []
        self.sentence_ends: list[np.ndarray] = []
        self.sentence_words: list[np.ndarray] = []

    def check(self, c: Chunk, b: Blocks) -> None:
        had_problem = self.first is not None
        kind, ids = c.kind, c.id_kind
        token_no = c.line_no[c.line]
        words = np.flatnonzero(ids == WORD)
        ranges = np.flatnonzero(ids == RANGE)
        n_words_tok = b.n_words[b.of_token]
        ten = c.n_fields == 10
        # 0: a blank line ending a block without token lines
        blanks = np.flatnonzero(kind == BLANK)
        hollow = blanks[~np.isin(c.block[blanks], c.block[c.line])]
        self._add(0, c.line_no[hollow], lambda i: CHECKS[0])
        # 1: a comment after the first token line of its block
        comments = np.flatnonzero(kind == COMMENT)
        first_token = np.where(b.token_lines > 0, b.first_token, np.iinfo(np.int64).max)
        late = comments[c.line_no[comments] > first_token[b.of_line[comments]]]
        self._add(1, c.line_no[late], lambda i: CHECKS[1])
        # 2: column count
        wrong = np.flatnonzero(~ten)
        self._add(2, token_no[wrong], lambda i: CHECKS[2].format(n=int(c.n_fields[wrong[i]])))
        # 3: a bad ID (one with a dot is an empty node's, skipped as the official evaluation skips them)
        bad = [t for t in np.flatnonzero((ids == BAD) & ten).tolist() if "." not in c.field_text(t, 0)]

        def bad_message(i):
            text = c.field_text(bad[i], 0)
            multiword, word = CHECKS[3].split(" | ")
            return (multiword if "-" in text else word).format(id=text)

        self._add(3, token_no[bad], bad_message)
        # 4: a FORM empty or of spaces only
        forms = np.flatnonzero(((ids == WORD) | (ids == RANGE)) & ten)
        f_start, f_end = c.fields[forms, 1, 0], c.fields[forms, 1, 1]
        maybe = forms[(f_end == f_start) | _starts_with_space(c.buf, f_start)]
        spaces = [t for t in maybe.tolist() if not _no_spaces(c.field_text(t, 1))]
        self._add(4, token_no[spaces], lambda i: CHECKS[4])
        # 5-6: multiword token ranges
        backwards = ranges[c.minor[ranges] < c.major[ranges]]
        self._add(5, token_no[backwards], lambda i: CHECKS[5].format(id=c.field_text(int(backwards[i]), 0)))
        short = ranges[c.minor[ranges] > n_words_tok[ranges]]
        self._add(6, token_no[short], lambda i: CHECKS[6])
        # 7: word IDs 1, 2, 3, ...
        order = words[c.major[words] != c.ordinal[words]]
        self._add(
            7, token_no[order], lambda i: CHECKS[7].format(id=int(c.major[order[i]]), ordinal=int(c.ordinal[order[i]]))
        )
        # 8: HEAD not an integer
        no_head = words[ten[words] & (c.head[words] < 0)]

        def head_message(i):
            text = c.field_text(int(no_head[i]), 6)
            negative, other = CHECKS[8].split(" | ")
            return negative if _NEGATIVE.fullmatch(text) else other.format(head=text)

        self._add(8, token_no[no_head], head_message)
        # 9: HEAD beyond the sentence
        far = words[c.head[words] > n_words_tok[words]]
        self._add(
            9, token_no[far], lambda i: CHECKS[9].format(head=int(c.head[far[i]]), words=int(n_words_tok[far[i]]))
        )
        # 10: roots, in the sentences whose every HEAD is one of its words or 0
        n_blocks = len(b.first_line)
        unreadable = words[(c.head[words] < 0) | (c.head[words] > n_words_tok[words])]
        spoiled = np.bincount(b.of_token[unreadable], minlength=n_blocks) > 0
        roots = np.bincount(b.of_token[words[c.head[words] == 0]], minlength=n_blocks)
        rootless = np.flatnonzero((b.n_words > 0) & ~spoiled & (roots != 1))
        self._add(10, b.first_token[rootless], lambda i: CHECKS[10].format(roots=int(roots[rootless[i]])))
        # 11 (the file's last line) is known at the end
        if c.n_lines:
            self.last_line = int(c.line_no[-1])
            self.last_line_blank = bool(kind[-1] == BLANK)
        if had_problem:
            return  # every sentence of this chunk ends after the first problem: no cycle walk here
        with_words = np.flatnonzero(b.n_words > 0)
        self.heads.append(c.head[words])
        self.word_lines.append(token_no[words])
        self.sentence_ends.append(b.last_line[with_words])
        self.sentence_words.append(b.n_words[with_words])

    def finish(self) -> None:
        """Raise the file's first problem, if it has one."""
        if not self.last_line_blank:
            self._add(11, np.array([self.last_line]), lambda i: CHECKS[11])
        cycle = self._first_cycle()
        if cycle is not None:
            raise InputError(self.name, cycle, CYCLE, self.total)
        self.raise_first()

    def _first_cycle(self) -> int | None:
        """The line of the first word whose heads loop, in the sentences that end before the first problem."""
        if not self.heads:
            return None
        heads, lines = np.concatenate(self.heads), np.concatenate(self.word_lines)
        ends, lengths = np.concatenate(self.sentence_ends), np.concatenate(self.sentence_words)
        clean = ends < self.first[0] if self.first is not None else np.ones(len(ends), dtype=bool)
        word_clean = np.repeat(clean, lengths)
        try:
            tree_depths(TreeBatch(heads[word_clean], lengths[clean]))
        except NotATreeError as err:
            return int(lines[word_clean][err.index])
        return None


def _no_spaces(form: str) -> str:
    """FORM without its Unicode space separators (category Zs), as the CoNLL 2018 script removes them.
    Every Zs character but U+0020 is unprintable (str.isprintable), so a printable form needs only
    U+0020 removed; the others are checked character by character."""
    if form.isprintable():
        return form.replace(" ", "") if " " in form else form
    return "".join(c for c in form if unicodedata.category(c) != "Zs")


def read_words(path: str | os.PathLike) -> Words:
    """A parser's CoNLL-U output, read once (:class:`evalhouse.loaders.source.ByteStream`) and checked as
    :data:`CHECKS` says; ``Words.sha256`` is the digest of the bytes read."""
    with open_bytes(path) as stream:
        checker = _OutputChecker(stream.name)
        parts: list[Tokens] = []
        for c in chunks(stream):
            checker.check(c, sentence_blocks(c))
            if checker.first is None:
                tokens = np.flatnonzero((c.id_kind == WORD) | (c.id_kind == RANGE))
                parts.append(
                    Tokens(
                        c.block[c.line[tokens]],
                        c.id_kind[tokens] == RANGE,
                        c.major[tokens],
                        c.minor[tokens],
                        c.column(1, tokens).to_pylist(),
                        c.head[tokens],
                        c.column(7, tokens).to_pylist(),
                        {name: c.column(k, tokens) for name, k in COLUMNS.items()},
                    )
                )
        checker.finish()
    words = words_from_tokens(Tokens.concatenate(parts), stream.name)
    words.sha256 = stream.sha256
    return words


@dataclass
class Tokens:
    """Words and multiword tokens in file order, by column (empty nodes left out): per token its sentence
    (any number that changes from one sentence to the next), whether it is a range, its first and last
    ID (a word's last ID is ignored), FORM, HEAD (ignored for a range) and DEPREL, and the Arrow arrays of
    :data:`COLUMNS` (None when they are not wanted)."""

    sentence: np.ndarray
    is_range: np.ndarray
    first: np.ndarray
    last: np.ndarray
    form: list[str]
    head: np.ndarray
    deprel: list[str]
    columns: dict | None = None

    @staticmethod
    def concatenate(parts: list["Tokens"]) -> "Tokens":
        def array(name: str) -> np.ndarray:
            return np.concatenate([getattr(p, name) for p in parts]) if parts else np.zeros(0, dtype=np.int64)

        def strings(name: str) -> list[str]:
            return [x for p in parts for x in getattr(p, name)]

        columns = None
        if parts and all(p.columns is not None for p in parts):
            columns = {name: arrow_arrays.concatenate([p.columns[name] for p in parts]) for name in COLUMNS}
        return Tokens(
            array("sentence"),
            array("is_range").astype(bool),
            array("first"),
            array("last"),
            strings("form"),
            array("head"),
            strings("deprel"),
            columns,
        )


def words_from_tokens(t: Tokens, name: str) -> Words:
    """:class:`Words` from the tokens of a file; a multiword token's words share its character span.

    A word is inside a multiword token when its ID is at most the last ID of the sentence's latest
    range before it; the file's characters are the FORMs (spaces removed) of the ranges and of the
    words outside them.  Whole arrays at a time: a Python loop over the tokens took a third of
    reading a parser's output."""
    n = len(t.form)
    out = Words()
    if n == 0:
        return out
    forms = [_no_spaces(f) for f in t.form]
    lengths = np.fromiter(map(len, forms), dtype=np.int64, count=n)
    new_sentence = np.r_[True, t.sentence[1:] != t.sentence[:-1]]
    sentence_no = np.cumsum(new_sentence)
    if not lengths.all():
        k = int(np.argmin(lengths))
        raise InputError(name, None, f"sentence {int(sentence_no[k])}, token {int(t.first[k])}: FORM is only spaces")
    rows = np.arange(n)
    sentence_start = np.maximum.accumulate(np.where(new_sentence, rows, 0))
    latest_range = np.maximum.accumulate(np.where(t.is_range, rows, -1))
    in_sentence = latest_range >= sentence_start
    range_last = np.where(in_sentence, t.last[np.maximum(latest_range, 0)], 0)
    is_word = ~t.is_range
    multiword = is_word & (t.first <= range_last)
    counted = ~multiword  # ranges, and words outside them, spell the text
    chars = np.where(counted, lengths, 0)
    offset = np.cumsum(chars) - chars
    owner = np.where(multiword, latest_range, rows)  # whose span a token has
    start, end = offset[owner], offset[owner] + lengths[owner]
    words = np.flatnonzero(is_word)
    word_rank = np.cumsum(is_word) - is_word  # words before each token
    sent_first = word_rank[sentence_start]
    head = t.head[words]
    out.characters = list("".join([f for f, keep in zip(forms, counted.tolist()) if keep]))
    out.start, out.end = start[words].tolist(), end[words].tolist()
    out.multiword = multiword[words].tolist()
    word_list = words.tolist()
    # the script removes spaces from the FORM of tokens, not from that of the words of a multiword token
    out.form = [t.form[k] if inside else forms[k] for k, inside in zip(word_list, multiword[words].tolist())]
    out.head = np.where(head == 0, -1, sent_first[words] + head - 1).tolist()
    out.deprel = [t.deprel[k] for k in word_list]
    if t.columns is not None:
        taken = arrow_arrays.numbers(words)
        out.columns = {name: arrow_arrays.take(values, taken) for name, values in t.columns.items()}
    out.sentence = sentence_no[words].tolist()
    out.word_id = t.first[words].tolist()
    out.sentences = int(sentence_no[-1])
    return out
