"""CoNLL-U treebanks read as the warehouse's rows: validate, shred into base tables, strip punctuation.

Command::

    $ evalhouse ingest treebank ../shared/data/ud/UD_English-EWT/en_ewt-ud-test.conllu
    en_ewt-test: 2,077 sentences, 25,094 words, 21,182 edges

One pass over each file, in chunks of whole sentences (:func:`evalhouse.loaders.conllu.chunks`, the one
CoNLL-U reader): the bytes are read once (:class:`evalhouse.loaders.source.ByteStream` hashes and
validates exactly the bytes that are parsed), every UD check below runs on the chunk's numpy arrays
(:class:`_Checker`), and the chunk goes into ``sentences``, ``nodes``, ``multiword_tokens``,
``empty_nodes``, ``edges`` (the stripped tree with each word's ``depth``) and ``sentence_tree_metrics``
(flux weights and projectivity) as Arrow tables, before the next chunk is read.  Memory is that of one
chunk (about :data:`evalhouse.loaders.conllu.CHUNK_BYTES` of text, or one sentence when it is longer)
plus what DuckDB holds, which ``--memory-limit`` bounds.  Every tree algorithm is linear or n log n in
sentence length (:mod:`evalhouse.analysis.trees`).

Ingest is one transaction (the caller opens it): any problem in any file raises
:class:`InputError` naming the file, the line and the problem (the first by line, and how many more
the file has: the rest of the file is still checked, not stored), and the warehouse is left as it
was.  Decisions on untidy input (documented in the README):

* accepted and recorded in ``corpora.normalisations``: a UTF-8 byte-order mark, CRLF line ends,
  a missing blank line after the last sentence, blank lines at the very end of the file;
* rejected: two blank lines in a row inside the file (an empty sentence), a comment after the
  words of a sentence, a sentence with comments but no words, a duplicate ``sent_id``, and every
  violation of the CoNLL-U format that would break a tree metric (see :data:`CHECKS`).

The stripped tree (``edges``) follows Shimorina et al. (2021, section 4): words whose base
relation is ``punct`` are removed; a removed word's dependents are attached to the nearest
ancestor that is not punctuation (to 0, becoming roots, if there is none); the remaining words
are renumbered 1..n in surface order (:func:`evalhouse.analysis.trees.strip_punctuation`).
Each edge carries the keys DEA compares, ``head_key`` and ``dependent_key``:
:func:`evalhouse.analysis.text.word_key` (the folded lemma, or the folded form where the lemma is
missing), computed once per distinct string of a chunk (:func:`_word_keys`).  Words without a lemma
(LEMMA ``_`` where FORM is not ``_``) are counted (``FileResult.missing_lemmas``).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

from evalhouse.analysis.text import MISSING_LEMMAS, fold
from evalhouse.analysis.trees import NotATreeError, TreeBatch, strip_punctuation, tree_depths, tree_metrics
from evalhouse.errors import InputError
from evalhouse.loaders import arrow_arrays
from evalhouse.loaders.arrow_arrays import kernel, kernel_options, take
from evalhouse.loaders.conllu import (
    BAD,
    BLANK,
    COLUMNS,
    COMMENT,
    EMPTY,
    RANGE,
    SENT_ID,
    TEXT,
    WORD,
    Blocks,
    Chunk,
    ProblemTally,
    captured,
    chunks,
    first_per_block,
    in_block_rank,
    parse_ids,
    sentence_blocks,
)
from evalhouse.loaders.source import ByteStream, check_path_name

# a context inside which a file's chunks are inserted (the warehouse's lowered memory limit, evalhouse.memory)

_UD_NAME = re.compile(
    r"^(?P<treebank>(?P<language>[a-z]{2,3})_[a-z0-9]+)-ud-(?P<split>train|dev|test)(?:-[^.]*)?\.conllu$"
)


@dataclass(frozen=True)
class CorpusName:
    corpus: str
    language: str | None
    split: str | None


def corpus_name_for(path: str | os.PathLike) -> CorpusName:
    """Default corpus name from a UD file name: ``en_ewt-ud-test.conllu`` -> ``en_ewt-test``.

    Split files of one treebank (``cs_pdt-ud-train-ca.conllu``, ``...-train-ct.conllu``) share
    a name and so become one corpus.  Other file names give their stem and no language/split.
    """
    base = Path(path).name
    m = _UD_NAME.match(base)
    if m:
        return CorpusName(f"{m['treebank']}-{m['split']}", m["language"], m["split"])
    stem = base[: -len(".conllu")] if base.endswith(".conllu") else Path(base).stem
    return CorpusName(stem, None, None)


def expand_inputs(paths: Iterable[str | os.PathLike]) -> list[str]:
    """Files as given; directories replaced by the ``*.conllu`` files below them, sorted. One path (a
    string or path object) is one input, not a sequence of one-character names."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[str] = []
    for p in paths:
        p = os.fspath(p)
        check_path_name(p)
        if p != "-" and os.path.isdir(p):
            found = sorted(str(f) for f in Path(p).rglob("*.conllu"))
            if not found:
                raise InputError(p, None, "directory holds no *.conllu file")
            for f in found:
                check_path_name(f)
            files.extend(found)
        else:
            files.append(p)
    return files


@dataclass
class FileResult:
    name: str
    sha256: str
    sentences: int
    words: int
    tokens: int
    multiword_tokens: int
    empty_nodes: int
    edges: int
    normalisations: list[str]
    missing_lemmas: int = 0  # words whose LEMMA is _ and FORM is not (corpora.missing_lemmas)


# The checks, in the order that breaks ties between problems on one line (the first wins), with
# the message of each.  Each is a function of a chunk's arrays in _Checker.problems.
CHECKS = (
    "sentence with comments but no words",
    "empty sentence: two blank lines in a row",
    "comment line after the words of the sentence (comments must come first)",
    "line holds only white space (a sentence break must be an empty line)",
    "expected 10 tab-separated columns, found {n}",
    "empty {column} column (use _ for an unknown value)",
    "invalid ID '{id}' (expected 7, 3-4 or 8.1)",
    "duplicate word ID {id} | word ID {id} where {ordinal} was expected (IDs must run 1, 2, 3, ...)",
    "HEAD '{head}' is not an integer",
    "HEAD {head} is out of range (the sentence has {words} words)",
    "word {id} is its own head",
    "no root: no word has HEAD 0",
    "second root: words {first} and {id} both have HEAD 0",
    "range {id} must span two or more words",
    "range {id} goes beyond the last word ({words})",
    "range {id} overlaps the range before it",
    "empty node {id} follows a word that does not exist (the sentence has {words} words)",
    "empty node {id}: expected {major}.{expected}",
    "range {id} must come just before word {major} | empty node {id} must come after word {major} and before word {next}",
    "second sent_id comment in one sentence",
    "invalid DEPS '{deps}' (expected _ or head:relation pairs separated by |, such as 2:nsubj|4:conj)",
    "DEPS of {id} points to {head}, which is not a word or empty node of the sentence (it has {words} words)",
    "DEPS of {id} points to itself ('{deps}')",
    "DEPS not sorted by head: '{deps}' | DEPS pointing to head {head} not sorted by relation: '{deps}' | "
    "DEPS repeat the relation '{head}:{relation}': '{deps}'",
)
CYCLE = "cycle: word {word} is not connected to the root (its heads loop)"


class _Checker(ProblemTally):
    """Every UD check of one file, chunk by chunk: the first problem by line (ties to the earlier
    check), how many problems there are in all, and cycles in the sentences before the first problem
    (as the SQL checks did before, so that messages and counts are unchanged)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.cycle: tuple[int, str] | None = None
        self.pending_blank: list[int] = []  # blank lines after a blank line, not yet known to be inside the file
        self.previous_blank = False  # the line before the chunk was blank (a chunk is cut after one)
        self.any_token = False
        self.first_comment: int | None = None
        self.trailing_blank = 0

    @property
    def failed(self) -> bool:
        return self.first is not None or self.cycle is not None

    def check(self, c: Chunk, b: Blocks, sent_id_comment: np.ndarray) -> None:
        """Problems of chunk ``c`` (``sent_id_comment``: per comment line, whether it is a sent_id line)."""
        had_problem = self.failed
        kind, line_no = c.kind, c.line_no
        nonblank = np.flatnonzero(kind != BLANK)
        token_no = line_no[c.line]
        if len(c.line):
            self.any_token = True
        comments = np.flatnonzero(kind == COMMENT)
        if self.first_comment is None and len(comments):
            self.first_comment = int(line_no[comments[0]])
        if len(nonblank):  # blank lines after a blank line, before this non-blank line: inside the file
            self._add(1, np.asarray(self.pending_blank, dtype=np.int64), lambda i: CHECKS[1])
            self.pending_blank = []
            self.trailing_blank = c.n_lines - 1 - int(nonblank[-1])
        else:
            self.trailing_blank += c.n_lines
        ids = c.id_kind
        words = np.flatnonzero(ids == WORD)
        ranges = np.flatnonzero(ids == RANGE)
        empties = np.flatnonzero(ids == EMPTY)
        n_words_tok = b.n_words[b.of_token]

        def field(k):
            return lambda rows: lambda i: c.field_text(int(rows[i]), k)

        # 0: a block of comments only
        lonely = np.flatnonzero(b.token_lines == 0)
        self._add(0, b.first_line[lonely], lambda i: CHECKS[0])
        # 1: two blank lines in a row
        blank = kind == BLANK
        before = np.r_[self.previous_blank, blank[:-1]]
        doubled = np.flatnonzero(blank & before)
        last_nonblank = int(nonblank[-1]) if len(nonblank) else -1
        self._add(1, line_no[doubled[doubled < last_nonblank]], lambda i: CHECKS[1])
        self.pending_blank.extend(line_no[doubled[doubled > last_nonblank]].tolist())
        self.previous_blank = bool(blank[-1]) if c.n_lines else self.previous_blank
        # 2: a comment after the first token line of its block
        late = comments[
            line_no[comments] > np.where(b.token_lines > 0, b.first_token, np.iinfo(np.int64).max)[b.of_line[comments]]
        ]
        self._add(2, line_no[late], lambda i: CHECKS[2])
        # 3: white space only
        first_byte = c.buf[np.minimum(c.start[c.line], len(c.buf) - 1)]
        spaced = c.line[(first_byte == 32) | (first_byte == 9)]
        spaced = np.asarray([i for i in spaced.tolist() if not c.text(i).lstrip(" \t")], dtype=np.int64)
        self._add(3, line_no[spaced] if len(spaced) else spaced, lambda i: CHECKS[3])
        # 4: column count
        wrong = np.flatnonzero(c.n_fields != 10)
        self._add(4, token_no[wrong], lambda i: CHECKS[4].format(n=int(c.n_fields[wrong[i]])))
        # 5: an empty column
        ten = np.flatnonzero(c.n_fields == 10)
        empty_col = (c.fields[ten, :, 1] - c.fields[ten, :, 0]) == 0
        hollow = ten[empty_col.any(axis=1)]
        first_empty = empty_col[empty_col.any(axis=1)].argmax(axis=1)
        self._add(5, token_no[hollow], lambda i: CHECKS[5].format(column=COLUMNS[int(first_empty[i])]))
        # 6: invalid ID
        bad = np.flatnonzero(ids == BAD)
        self._add(6, token_no[bad], lambda i: CHECKS[6].format(id=c.field_text(int(bad[i]), 0)))
        # 7: word IDs 1, 2, 3, ...
        out_of_order = words[c.major[words] != c.ordinal[words]]

        def order_message(i):
            m, o = int(c.major[out_of_order[i]]), int(c.ordinal[out_of_order[i]])
            duplicate, gap = CHECKS[7].split(" | ")
            return duplicate.format(id=m) if m < o else gap.format(id=m, ordinal=o)

        self._add(7, token_no[out_of_order], order_message)
        # 8: HEAD not an integer
        no_head = words[(c.n_fields[words] == 10) & (c.head[words] < 0)]
        self._add(8, token_no[no_head], lambda i: CHECKS[8].format(head=c.field_text(int(no_head[i]), 6)))
        # 9: HEAD beyond the sentence
        far = words[c.head[words] > n_words_tok[words]]
        self._add(
            9, token_no[far], lambda i: CHECKS[9].format(head=int(c.head[far[i]]), words=int(n_words_tok[far[i]]))
        )
        # 10: own head
        own = words[c.head[words] == c.major[words]]
        self._add(10, token_no[own], lambda i: CHECKS[10].format(id=int(c.major[own[i]])))
        # 11: no root (where every word's ID and HEAD could be read)
        roots = words[c.head[words] == 0]
        has_root = np.bincount(b.of_token[roots], minlength=len(b.first_line)) > 0
        unreadable = (ids == BAD) | ((ids == WORD) & (c.head < 0))
        spoiled = np.bincount(b.of_token[unreadable], minlength=len(b.first_line)) > 0
        rootless = np.flatnonzero((b.n_words > 0) & ~has_root & ~spoiled)
        self._add(11, b.first_token[rootless], lambda i: CHECKS[11])
        # 12: a second root
        root_rank = in_block_rank(b.of_token[roots])
        first_root = c.major[roots][np.searchsorted(b.of_token[roots], b.of_token[roots], side="left")]
        second = np.flatnonzero(root_rank > 1)
        self._add(
            12,
            token_no[roots[second]],
            lambda i: CHECKS[12].format(first=int(first_root[second[i]]), id=int(c.major[roots[second[i]]])),
        )
        # 13-15: ranges
        short = ranges[c.minor[ranges] <= c.major[ranges]]
        self._add(13, token_no[short], lambda i: CHECKS[13].format(id=c.field_text(int(short[i]), 0)))
        beyond = ranges[c.minor[ranges] > n_words_tok[ranges]]
        self._add(
            14,
            token_no[beyond],
            lambda i: CHECKS[14].format(id=c.field_text(int(beyond[i]), 0), words=int(n_words_tok[beyond[i]])),
        )
        same_block = np.r_[False, b.of_token[ranges][1:] == b.of_token[ranges][:-1]]
        previous_end = np.r_[0, c.minor[ranges][:-1]]
        overlap = ranges[same_block & (c.major[ranges] <= previous_end)]
        self._add(15, token_no[overlap], lambda i: CHECKS[15].format(id=c.field_text(int(overlap[i]), 0)))
        # 16-17: empty nodes
        after_end = empties[c.major[empties] > n_words_tok[empties]]
        self._add(
            16,
            token_no[after_end],
            lambda i: CHECKS[16].format(id=c.field_text(int(after_end[i]), 0), words=int(n_words_tok[after_end[i]])),
        )
        if len(empties):
            key = b.of_token[empties] * (1 << 32) + c.major[empties]
            order = np.lexsort((empties, c.major[empties], b.of_token[empties]))
            sorted_key = key[order]
            expected = np.empty(len(empties), dtype=np.int64)
            expected[order] = np.arange(len(order)) - np.searchsorted(sorted_key, sorted_key, side="left") + 1
        else:
            expected = np.zeros(0, dtype=np.int64)
        wrong_sub = np.flatnonzero(c.minor[empties] != expected)
        self._add(
            17,
            token_no[empties[wrong_sub]],
            lambda i: CHECKS[17].format(
                id=c.field_text(int(empties[wrong_sub[i]]), 0),
                major=int(c.major[empties[wrong_sub[i]]]),
                expected=int(expected[wrong_sub[i]]),
            ),
        )
        # 18: a range just before its first word; an empty node k.m after exactly k words
        good = np.flatnonzero(ids != BAD)
        g_block = b.of_token[good]
        is_word = (ids[good] == WORD).astype(np.int64)
        cum = np.cumsum(is_word)
        block_start = np.searchsorted(g_block, g_block, side="left")
        words_so_far = cum - np.r_[0, cum][block_start]
        next_same = np.r_[g_block[1:] == g_block[:-1], False]
        next_kind = np.r_[ids[good][1:], -1]
        next_major = np.r_[c.major[good][1:], -1]
        g_ids, g_major = ids[good], c.major[good]
        misplaced_range = (g_ids == RANGE) & ~(next_same & (next_kind == WORD) & (next_major == g_major))
        misplaced_empty = (g_ids == EMPTY) & (words_so_far != g_major)
        misplaced = np.flatnonzero(misplaced_range | misplaced_empty)

        def place_message(i):
            t = int(good[misplaced[i]])
            before_word, between = CHECKS[18].split(" | ")
            m = int(c.major[t])
            text = c.field_text(t, 0)
            return (
                before_word.format(id=text, major=m)
                if ids[t] == RANGE
                else between.format(id=text, major=m, next=m + 1)
            )

        self._add(18, token_no[good[misplaced]], place_message)
        # 19: a second sent_id comment
        sid = comments[sent_id_comment]
        sid_rank = in_block_rank(b.of_line[sid])
        self._add(19, line_no[sid[sid_rank > 1]], lambda i: CHECKS[19])
        # 20-23: DEPS (the enhanced graph), as UD's validate.py checks it at level 2
        self._check_deps(c, b, token_no, n_words_tok)
        # cycles, in the sentences before the first problem (only while none was found in earlier chunks)
        if not had_problem:
            limit = self.first[0] if self.first is not None else None
            self._find_cycle(c, b, words, limit)

    def _check_deps(self, c: Chunk, b: Blocks, token_no: np.ndarray, n_words_tok: np.ndarray) -> None:
        """DEPS of words and empty nodes (:func:`deps_pairs`), as UD's validate.py checks them at level 2
        (``check_id_references``, ``check_deps_format``): each pair ``head:relation`` with a head that is 0, a
        word or an empty node of the sentence and a relation that is not empty (20: 'invalid-deps',
        'invalid-ehead'; 21: 'unknown-ehead'); no pair pointing to the node itself (22: 'deps-self-loop');
        pairs sorted by head, then by relation, none twice (23: 'unsorted-deps', 'unsorted-deps-2',
        'repeated-deps'). Relation names are not checked against UD's list, as DEPREL is not."""
        d = deps_pairs(c)
        text = lambda t: c.field_text(int(t), 8)  # noqa: E731
        ident = lambda t: c.field_text(int(t), 0)  # noqa: E731
        self._add(20, token_no[d.invalid], lambda i: CHECKS[20].format(deps=text(d.invalid[i])))
        ok = d.ok
        tok = d.token[ok]
        kind, major, minor = d.kind[ok], d.major[ok], d.minor[ok]
        block = b.of_token[tok]
        exists = major <= n_words_tok[tok]  # 0 (the root) always exists
        to_empty = np.flatnonzero(kind == EMPTY)
        if len(to_empty):
            empties = np.flatnonzero(c.id_kind == EMPTY)
            exists[to_empty] = np.isin(
                _node_key(block[to_empty], major[to_empty], minor[to_empty]),
                _node_key(b.of_token[empties], c.major[empties], c.minor[empties]),
            )
        unknown = np.flatnonzero(~exists)
        self._add(
            21,
            token_no[tok[unknown]],
            lambda i: CHECKS[21].format(
                id=ident(tok[unknown[i]]),
                head=_node_name(major[unknown[i]], minor[unknown[i]]),
                words=int(n_words_tok[tok[unknown[i]]]),
            ),
        )
        own = (major == c.major[tok]) & (minor == np.where(c.id_kind[tok] == EMPTY, c.minor[tok], 0))
        looped = tok[own]  # in line order: one entry per node
        loops = looped[np.r_[True, looped[1:] != looped[:-1]]] if len(looped) else looped
        self._add(22, token_no[loops], lambda i: CHECKS[22].format(id=ident(loops[i]), deps=text(loops[i])))
        # adjacent pairs of one node: heads in order; with the same head, relations in order and not repeated
        same = np.flatnonzero(tok[1:] == tok[:-1])
        back = same[
            (major[same + 1] < major[same]) | ((major[same + 1] == major[same]) & (minor[same + 1] < minor[same]))
        ]
        tied = same[(major[same + 1] == major[same]) & (minor[same + 1] == minor[same])]
        unsorted, repeated = CHECKS[23].split(" | ")[0], CHECKS[23].split(" | ")[1:]
        disorder = {int(tok[k + 1]): unsorted.format(deps=text(tok[k + 1])) for k in back[::-1]}
        for k in tied[::-1]:  # rare: relations of one head compared as validate.py does, as strings
            t = int(tok[k + 1])
            first, second = d.relation(c, np.flatnonzero(ok)[k]), d.relation(c, np.flatnonzero(ok)[k + 1])
            head = _node_name(major[k], minor[k])
            if second < first:
                disorder.setdefault(t, repeated[0].format(head=head, deps=text(t)))
            elif second == first:
                disorder.setdefault(t, repeated[1].format(head=head, relation=first, deps=text(t)))
        rows = np.fromiter(disorder, dtype=np.int64, count=len(disorder))
        self._add(23, token_no[rows], lambda i: disorder[int(rows[i])])

    def _find_cycle(self, c: Chunk, b: Blocks, words: np.ndarray, limit: int | None) -> None:
        clean = np.ones(len(b.first_line), dtype=bool) if limit is None else b.last_line < limit
        rows = words[clean[b.of_token[words]]]
        lengths = np.bincount(b.of_token[rows], minlength=len(b.first_line))[clean]
        try:
            tree_depths(TreeBatch(c.head[rows], lengths))
        except NotATreeError as err:
            t = int(rows[err.index])
            self.cycle = (int(c.line_no[c.line[t]]), CYCLE.format(word=int(c.major[t])))

    def finish(self) -> None:
        """Raise the file's first problem, if it has one."""
        if not self.any_token:
            if self.first_comment is not None:
                raise InputError(self.name, self.first_comment, CHECKS[0])
            raise InputError(self.name, None, "empty file: no sentence")
        if self.cycle is not None:
            raise InputError(self.name, self.cycle[0], self.cycle[1], self.total)
        self.raise_first()


@dataclass
class DepsPairs:
    """The ``head:relation`` pairs of the DEPS of every word and empty node of a chunk that has ten columns and
    DEPS other than ``_``, in line order: per pair its token line (``token``), whether it reads
    (``ok``: a head typed as an ID or 0, a colon, a relation that is not empty), the head's ``kind`` (WORD for 0
    and words, EMPTY) with ``major``/``minor``, and the byte offsets of its relation; ``invalid``: the token lines
    whose DEPS does not read (one entry each)."""

    token: np.ndarray
    ok: np.ndarray
    kind: np.ndarray
    major: np.ndarray
    minor: np.ndarray
    relation_start: np.ndarray
    relation_end: np.ndarray
    invalid: np.ndarray

    def relation(self, c: Chunk, pair: int) -> str:
        return c.data[int(self.relation_start[pair]) : int(self.relation_end[pair])].decode("utf-8")


def deps_pairs(c: Chunk) -> DepsPairs:
    """Split the DEPS of chunk ``c`` into pairs with a few numpy passes over their bytes (:class:`DepsPairs`)."""
    nodes = np.flatnonzero((c.n_fields == 10) & ((c.id_kind == WORD) | (c.id_kind == EMPTY)))
    start, end = c.fields[nodes, 8, 0], c.fields[nodes, 8, 1]
    plain = (end - start == 1) & (c.buf[np.minimum(start, len(c.buf) - 1)] == ord("_"))
    nodes, start, end = nodes[~plain], start[~plain], end[~plain]
    length = end - start
    empty = np.zeros(0, np.int64)
    if not len(nodes):
        return DepsPairs(empty, np.zeros(0, bool), np.zeros(0, np.int8), empty, empty, empty, empty, empty)
    # every byte of these DEPS fields, with the field it is in
    field_of = np.repeat(np.arange(len(nodes)), length)
    pos = start[field_of] + np.arange(len(field_of)) - np.repeat(np.cumsum(length) - length, length)
    byte = c.buf[pos]
    bar = byte == ord("|")
    # pairs: a field's first byte, or the byte after a bar, starts one; a bar ends one
    first_of_field = np.r_[True, field_of[1:] != field_of[:-1]]
    opens = first_of_field | np.r_[False, bar[:-1]]
    pair_of = np.cumsum(opens) - 1
    n_pairs = int(pair_of[-1]) + 1
    pair_start = pos[opens]
    pair_field = field_of[opens]
    last_of_field = np.r_[field_of[1:] != field_of[:-1], True]
    pair_end = np.empty(n_pairs, np.int64)  # a bar's position, or the field's end
    closes = bar | last_of_field
    pair_end[pair_of[closes]] = np.where(bar[closes], pos[closes], pos[closes] + 1)
    # a pair that ends at a bar opening the next one (an empty pair, as in "2:x||3:y") has no bytes
    pair_end = np.maximum(pair_end, pair_start)
    trailing = np.zeros(len(nodes), bool)  # a bar as the last byte: one more, empty, pair
    trailing[field_of[bar & last_of_field]] = True
    colon = np.full(n_pairs, -1, np.int64)
    colons = np.flatnonzero(byte == ord(":"))
    of_colon = pair_of[colons]  # in order: a pair's first colon is where the pair changes
    first = np.r_[True, of_colon[1:] != of_colon[:-1]] if len(colons) else np.zeros(0, bool)
    colon[of_colon[first]] = pos[colons[first]]
    root = (colon - pair_start == 1) & (c.buf[pair_start] == ord("0"))
    has_colon = (colon >= 0) & (colon < pair_end)
    kind, major, minor = parse_ids(c.buf, pair_start, np.where(has_colon, colon, pair_start))
    kind = np.where(root, np.int8(WORD), kind).astype(np.int8)
    major = np.where(root, 0, major)
    ok = has_colon & ((kind == WORD) | (kind == EMPTY)) & (pair_end > colon + 1)
    bad = trailing.copy()  # the fields with a bad pair, in order (a mask: np.unique would import numpy.ma)
    bad[pair_field[~ok]] = True
    bad_fields = np.flatnonzero(bad)
    return DepsPairs(nodes[pair_field], ok, kind, major, minor, colon + 1, pair_end, nodes[bad_fields])


def _node_key(block: np.ndarray, major: np.ndarray, minor: np.ndarray) -> np.ndarray:
    """One integer per node (block, major, minor); IDs beyond 2**21 (never those of a node) share a key."""
    cap = (1 << 21) - 1
    return (block.astype(np.int64) << 42) | (np.minimum(major, cap) << 21) | np.minimum(minor, cap)


def _node_name(major, minor) -> str:
    return f"{int(major)}.{int(minor)}" if minor else str(int(major))


def _comments(c: Chunk, b: Blocks):
    """Comment lines of the chunk (Arrow), their sent_id and text values (null where a line is not one), and
    which of them are sent_id lines (numpy; the checker and the store both use it)."""
    lines = np.flatnonzero(c.kind == COMMENT)
    text = c.lines(lines)
    sent_id = captured(text, SENT_ID)
    return lines, text, sent_id, captured(text, TEXT), arrow_arrays.valid(sent_id)


# Rows are held back per table and inserted in multiples of a row group (122,880 rows), the rest at the end:
# an earlier measurement found appending 100,000 rows at a time four times as dear in CPU as appending
# 122,880 (benchmarks/treebanks.py). A table whose held rows reach HELD_BYTES first is inserted as it is:
# a row group of sentences (their comment lines) held 48 MB at 5M words, and one of a treebank with 2 KB of
# MISC per word would hold 240 MB. At 5M words under the 64 MiB streaming limit, 4 MiB (nodes then go in
# about 40,000 rows at a time) took 23.7-24.2 s of CPU against 24.5-24.8 s with no byte bound, and 351-360
# MiB against 470-475, so the partial appends cost nothing measurable there.
ROW_GROUP = 122_880
HELD_BYTES = 4 << 20


@dataclass
class _Held:
    """Rows of one table held back until they fill a row group (or :data:`HELD_BYTES`), and their totals."""

    table: str
    tables: list
    rows: int = 0
    bytes: int = 0


class _Store:
    """Turns checked chunks of one file of a corpus into rows of the warehouse's tables: Arrow tables of a
    row group each (or :data:`HELD_BYTES`), collected in :attr:`ready` as ``(table, rows)`` until taken."""

    def __init__(self, offset: int):
        self.ready: list[tuple[str, object]] = []
        self.offset = offset
        self.sentences = self.words = self.ranges = self.empties = self.edges = self.in_ranges = 0
        self.missing_lemmas = 0
        self.pending: dict[str, _Held] = {}

    def _insert(self, table: str, rows) -> None:
        held = self.pending.setdefault(table, _Held(table, []))
        held.tables.append(rows)
        held.rows += rows.num_rows
        held.bytes += rows.nbytes
        if held.rows >= ROW_GROUP:
            self._write(held, held.rows - held.rows % ROW_GROUP)
        elif held.bytes >= HELD_BYTES:
            self._write(held, held.rows)

    def _write(self, held: _Held, count: int) -> None:
        import pyarrow as pa  # late: pyarrow costs start-up to commands that do not ingest

        rows = pa.concat_tables(held.tables) if len(held.tables) > 1 else held.tables[0]
        rest = rows.slice(count)  # shares the buffers of the tables it spans, no more
        held.tables[:] = [rest] if rest.num_rows else []
        held.rows, held.bytes = rest.num_rows, rest.nbytes
        self.ready.append((held.table, rows.slice(0, count)))

    def take(self) -> list[tuple[str, object]]:
        """The rows made ready since the last call."""
        ready, self.ready = self.ready, []
        return ready

    def flush(self) -> None:
        for held in self.pending.values():
            if held.rows:
                self._write(held, held.rows)

    def store(self, c: Chunk, b: Blocks, comments) -> None:
        import pyarrow as pa  # late: pyarrow costs start-up to commands that do not ingest

        n_blocks = len(b.first_line)
        position = (self.offset + self.sentences + 1 + np.arange(n_blocks)).astype(np.int32)
        lines, text, sent_id, said, is_sent_id = comments
        comment_block = b.of_line[lines]
        counts = np.bincount(comment_block, minlength=n_blocks)
        offsets = np.zeros(n_blocks + 1, dtype=np.int32)
        np.cumsum(counts, out=offsets[1:])
        sid = first_per_block(sent_id, is_sent_id, comment_block, n_blocks)
        txt = first_per_block(said, arrow_arrays.valid(said), comment_block, n_blocks)
        self._insert(
            "sentences",
            arrow_arrays.table(
                {
                    "position": position,
                    "sent_id": sid,
                    "text": txt,
                    "comments": pa.ListArray.from_arrays(arrow_arrays.numbers(offsets), text),
                    "first_line": b.first_line,
                }
            ),
        )

        ids = c.id_kind
        words = np.flatnonzero(ids == WORD)
        cols = {k: c.column(k, words) for k in (1, 2, 3, 4, 5, 7, 8, 9)}
        word_position = position[b.of_token[words]]
        self._insert(
            "nodes",
            arrow_arrays.table(
                {
                    "position": word_position,
                    "id": c.major[words].astype(np.int32),
                    "form": cols[1],
                    "lemma": cols[2],
                    "upos": cols[3],
                    "xpos": cols[4],
                    "feats": cols[5],
                    "head": c.head[words].astype(np.int32),
                    "deprel": cols[7],
                    "deps": cols[8],
                    "misc": cols[9],
                }
            ),
        )
        for kind, table, first, last in (
            (RANGE, "multiword_tokens", "first_id", "last_id"),
            (EMPTY, "empty_nodes", "after_id", "sub_id"),
        ):
            rows = np.flatnonzero(ids == kind)
            if not len(rows):
                continue
            names = ("form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc")
            table_rows = {
                "position": position[b.of_token[rows]],
                first: c.major[rows].astype(np.int32),
                last: c.minor[rows].astype(np.int32),
            }
            table_rows.update({name: c.column(k, rows) for k, name in enumerate(names, start=1)})
            self._insert(table, arrow_arrays.table(table_rows))
        ranges = np.flatnonzero(ids == RANGE)
        self.in_ranges += int((c.minor[ranges] - c.major[ranges] + 1).sum())
        self.ranges += len(ranges)
        self.empties += int(np.count_nonzero(ids == EMPTY))

        # the stripped tree, its depths and metrics
        lengths = b.n_words
        deprel = cols[7]
        start, end = c.fields[words, 7, 0], c.fields[words, 7, 1]
        punct_bytes = c.buf[np.minimum(start[:, None] + np.arange(6), len(c.buf) - 1)]
        punct = np.all(punct_bytes[:, :5] == np.frombuffer(b"punct", np.uint8), axis=1) & (
            (end - start == 5) | ((end - start > 5) & (punct_bytes[:, 5] == ord(":")))
        )
        stripped = strip_punctuation(TreeBatch(c.head[words], lengths), punct)
        tree = stripped.batch()
        depth = tree_depths(tree)
        kept = np.flatnonzero(stripped.keep)
        sentence_start = np.r_[0, np.cumsum(lengths)[:-1]]
        kept_block = np.repeat(np.arange(n_blocks), stripped.lengths)
        head_row = np.where(stripped.head_id > 0, sentence_start[kept_block] + stripped.head_id - 1, 0)
        take_kept = arrow_arrays.numbers(kept)
        take_head = arrow_arrays.numbers(head_row, mask=stripped.head_id == 0)
        keys, missing = _word_keys(cols[2], cols[1])
        self.missing_lemmas += missing
        self._insert(
            "edges",
            arrow_arrays.table(
                {
                    "position": position[kept_block],
                    "dependent": stripped.dependent.astype(np.int32),
                    "head": stripped.head.astype(np.int32),
                    "deprel": take(deprel, take_kept),
                    "dependent_lemma": take(cols[2], take_kept),
                    "head_lemma": take(cols[2], take_head),
                    "dependent_upos": take(cols[3], take_kept),
                    "head_upos": take(cols[3], take_head),
                    "dependent_id": stripped.dependent_id.astype(np.int32),
                    "head_id": stripped.head_id.astype(np.int32),
                    "depth": depth.astype(np.int32),
                    "dependent_key": take(keys, take_kept),
                    "head_key": take(keys, take_head),
                }
            ),
        )
        nonempty = np.flatnonzero(stripped.lengths > 0)
        if len(nonempty):
            metrics = tree_metrics(TreeBatch(tree.heads, stripped.lengths[nonempty]))
            self._insert(
                "sentence_tree_metrics",
                arrow_arrays.table(
                    {
                        "position": position[nonempty],
                        "flux_weight_sum": metrics.flux_weight_sum.astype(np.int64),
                        "projective": metrics.projective.astype(bool),
                    }
                ),
            )
        self.sentences += n_blocks
        self.words += len(words)
        self.edges += len(kept)


def _word_keys(lemmas, forms):
    """The word keys of a chunk's words (:func:`evalhouse.analysis.text.word_key`: the folded lemma, or
    the folded form where the lemma is ``_``) as an Arrow string array, and how many words lack a lemma
    (LEMMA ``_`` and FORM not ``_``: an underscore word's lemma is itself). :func:`fold` runs once per
    distinct string of the chunk (a dictionary encoding), so Python and SQL never fold differently."""
    lacking = kernel(
        "is_in", lemmas, options=kernel_options("SetLookupOptions", arrow_arrays.strings(list(MISSING_LEMMAS)))
    )
    underscore = arrow_arrays.strings(["_"])[0]  # not the Python str: a scalar from it imports pandas
    missing = int(
        kernel("sum", kernel("and", lacking, kernel("invert", kernel("equal", forms, underscore)))).as_py() or 0
    )
    chosen = kernel("dictionary_encode", kernel("if_else", lacking, forms, lemmas))
    return take(_folded(chosen.dictionary), chosen.indices), missing


def _folded(values):
    """:func:`fold` of each string of ``values`` (Arrow, no nulls). An ASCII string's fold is its lower case
    (fold's own fast path), which Arrow's ``ascii_lower`` gives without making Python strings; only the other
    strings go through :func:`fold` (``_word_keys`` of the million-word benchmark corpus, ten languages:
    0.34 -> 0.24 s)."""
    other = np.flatnonzero(~arrow_arrays.booleans_of(kernel("string_is_ascii", values)))
    lowered = kernel("ascii_lower", values)
    if not len(other):
        return lowered
    folded = arrow_arrays.strings(
        [fold(v) for v in take(values, arrow_arrays.numbers(other)).to_pylist()], has_nulls=False
    )
    # each string of ``other`` is replaced by its fold: the lowered strings and the folded ones side by side,
    # taken back in order
    import pyarrow as pa  # late: pyarrow costs start-up to commands that do not ingest

    pick = np.arange(len(values), dtype=np.int64)
    pick[other] = len(values) + np.arange(len(other))
    return take(pa.concat_arrays([lowered, folded.cast(lowered.type)]), arrow_arrays.numbers(pick))


def _duplicate_message(
    corpus: str, sent_id: str, first_line: int, same_file: bool, labelled: bool, first_labelled: bool
) -> str:
    """What a duplicate sent_id is. A sentence without a ``# sent_id`` comment takes its position in the corpus
    as its sent_id (``sentences.sent_id``: judgements and outputs name sentences by either), so it can collide
    with a sentence whose comment gives that number; the message then says which one has no comment."""
    where = f"line {first_line}" if same_file else f"line {first_line} of an earlier file of corpus {corpus}"
    if not labelled:
        return (
            f"this sentence has no sent_id comment, so its sent_id is its position in the corpus, '{sent_id}', "
            f"which the sentence at {where} has as its sent_id; give every sentence a unique sent_id"
        )
    if not first_labelled:
        return (
            f"duplicate sent_id '{sent_id}': the sentence at {where} has no sent_id comment, so its position "
            f"in the corpus, '{sent_id}', is its sent_id; give every sentence a unique sent_id"
        )
    return f"duplicate sent_id '{sent_id}' (first used at {where})"


class TreebankReader:
    """Reads and checks one file (a :class:`ByteStream`) as sentences ``offset + 1 ...`` of a corpus.

    :meth:`batches` yields ``(table, rows)``: Arrow tables of the warehouse's tree tables (without their
    ``corpus`` column), a chunk's rows as soon as the chunk is checked; after the first problem the rest of the
    file is only checked (to count its problems) and nothing more is yielded; at the end of the file the first
    problem is raised (:class:`InputError`). :meth:`result` then tells what the file held. Writing the rows, and
    checking their ``sent_id`` values across files, is the ingest's (:mod:`evalhouse.ingest.treebanks`)."""

    def __init__(self, stream: ByteStream, offset: int):
        self.stream = stream
        self.checker = _Checker(stream.name)
        self.store = _Store(offset)

    def batches(self) -> Iterator[tuple[str, object]]:
        checker, store = self.checker, self.store
        for c in chunks(self.stream):
            b = sentence_blocks(c)
            comments = _comments(c, b)
            checker.check(c, b, comments[4])
            if not checker.failed:
                store.store(c, b, comments)
                yield from store.take()
        checker.finish()
        store.flush()
        yield from store.take()

    def result(self) -> FileResult:
        stream, store = self.stream, self.store
        normalisations = list(stream.normalisations)
        trailing = self.checker.trailing_blank
        if trailing > 1:
            normalisations.append(f"{trailing - 1} blank line(s) at end of file dropped")
        elif trailing == 0:
            normalisations.append("blank line after the last sentence added")
        return FileResult(
            stream.name,
            stream.sha256,
            store.sentences,
            store.words,
            store.words - store.in_ranges + store.ranges,
            store.ranges,
            store.empties,
            store.edges,
            normalisations,
            store.missing_lemmas,
        )


ProgressFn = Callable[[str, int, int], None]
