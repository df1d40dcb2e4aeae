"""CoNLL-U: the one reader, behind every CoNLL-U file evalhouse reads.

    $ evalhouse ingest treebank en_ewt-ud-test.conllu                  # reference trees (strict UD)
    $ evalhouse ingest dependency-run parser.conllu --gold gold.conllu ...  # parser outputs
    $ evalhouse ingest outputs realiser.conllu --format conllu ...       # realiser outputs

:func:`chunks` cuts validated, normalised bytes (:class:`evalhouse.loaders.source.ByteStream`) into
:class:`Chunk` s of whole sentences (about :data:`CHUNK_BYTES` each, more when one sentence is longer)
and splits each with a few numpy passes over its bytes, never a Python loop over lines: line and tab
positions, line kinds (blank, comment, token) and sentence blocks, the ten columns of every token line
as byte offsets, IDs typed word (``7``), range (``3-4``), empty node (``8.1``) or bad with their
numbers, HEAD as an integer, and each word's ordinal in its sentence.  Columns become Arrow strings
only when asked for (:meth:`Chunk.column`), by one gather per column.  What a file must satisfy
depends on what it is:

* :mod:`evalhouse.loaders.treebank` checks every UD rule on these arrays, chunk by chunk, and stores
  the chunk (``evalhouse ingest treebank``: memory bounded by the chunk, not the file);
* :mod:`evalhouse.loaders.conllu_words` checks a parser's output on the same arrays (more leniently)
  and reads its words as the CoNLL 2018 evaluation script reads them (``evalhouse ingest dependency-run``);
* :mod:`evalhouse.loaders.outputs` checks a realiser's output (ten columns and a FORM on each word line)
  and reads the FORM and LEMMA of its words, sentence by sentence, with the ``# sent_id`` that
  ``ingest treebank`` would read.

Line numbers are those of the file as a user sees it (1-based; a last line without a line feed
counts).  A sentence block is the run of lines up to and including the blank line that ends it; a
block's number is the number of blank lines before its first line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

import numpy as np

from evalhouse.errors import InputError
from evalhouse.loaders import arrow_arrays
from evalhouse.loaders.arrow_arrays import kernel, kernel_options

try:  # the same arrays in one pass in C (loaders/_conllu.c says why); None when not built
    from evalhouse.loaders import _conllu
except ImportError:  # pragma: no cover - installed without a C compiler
    _conllu = None

# Bytes of whole sentences per chunk: the numpy arrays of a chunk take tens of bytes per byte of CoNLL-U
# at their peak (44 MB above the process for a 4 MiB chunk), whatever the file's size.
CHUNK_BYTES = 1 << 21

BLANK, COMMENT, TOKEN = 0, 1, 2
WORD, RANGE, EMPTY, BAD = 0, 1, 2, 3
COLUMNS = ("ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC")
_NO_HEAD = -1
_WIDTH = 20  # bytes of an ID looked at: the longest valid one, 123456789.123456789, has 19


@dataclass
class Chunk:
    """Whole sentences of a file, split into arrays (see the module docstring).

    Per line (``n_lines``): ``start``/``end`` byte offsets into ``data`` (end excludes the line feed),
    ``kind``, ``block`` and ``line_no``.  Per token line, in line order: ``line`` (its index among the
    chunk's lines), ``n_fields``, ``id_kind``, ``major``/``minor`` (``7`` -> 7, 0; ``3-4`` -> 3, 4;
    ``8.1`` -> 8, 1), ``head`` (-1 when HEAD is not a plain integer or the line is not a word of ten
    columns), ``ordinal`` (1-based rank among the lines of its kind in its block) and, for lines of ten
    columns, ``fields``: the (start, end) byte offsets of each column.
    """

    data: bytes
    buf: np.ndarray
    start: np.ndarray
    end: np.ndarray
    kind: np.ndarray
    block: np.ndarray
    line_no: np.ndarray
    line: np.ndarray
    n_fields: np.ndarray
    id_kind: np.ndarray
    major: np.ndarray
    minor: np.ndarray
    head: np.ndarray
    ordinal: np.ndarray
    fields: np.ndarray  # (n_tokens, 10, 2) int64; zero for lines that do not have ten columns
    first_tab: np.ndarray  # per token line: end of its first column
    _pieces: object = field(default=None, repr=False)

    @property
    def n_lines(self) -> int:
        return len(self.start)

    def text(self, line: int) -> str:
        """The text of line ``line`` (an index into this chunk's lines)."""
        return self.data[int(self.start[line]) : int(self.end[line])].decode("utf-8")

    def field_text(self, token: int, column: int) -> str:
        """Column ``column`` (0 = ID) of token line ``token``, as ``string_split(line, tab)[column + 1]``."""
        text = self.text(int(self.line[token])).split("\t")
        return text[column] if column < len(text) else ""

    def column(self, column: int, tokens: np.ndarray):
        """Column ``column`` of the ten-column token lines ``tokens`` as an Arrow string array."""
        if self._pieces is None:
            # One string array over the chunk's bytes whose strings are, per ten-column line, its
            # fields and the tabs between them, then the gap to the next such line: field k of the
            # i-th ten-column line is string 20 i + 2 k.  Taking strings copies only their bytes.
            ten = np.flatnonzero(self.n_fields == 10)
            bounds = np.empty((len(ten), 20), dtype=np.int32)
            f = self.fields[ten]
            bounds[:, 0:20:2] = f[:, :, 0]
            bounds[:, 1:20:2] = f[:, :, 1]
            offsets = np.append(bounds.ravel(), np.int32(len(self.data)))
            pieces = arrow_arrays.string_array(offsets, self.data)
            rank = np.full(len(self.n_fields), -1, dtype=np.int64)
            rank[ten] = np.arange(len(ten))
            self._pieces = (pieces, rank)
        pieces, rank = self._pieces
        return arrow_arrays.take(pieces, arrow_arrays.numbers(rank[tokens] * 20 + 2 * column))

    def lines(self, lines: np.ndarray):
        """The text of ``lines`` (indices into this chunk's lines) as an Arrow string array."""
        bounds = np.empty((self.n_lines, 2), dtype=np.int32)
        bounds[:, 0] = self.start
        bounds[:, 1] = self.end
        offsets = np.append(bounds.ravel(), np.int32(len(self.data)))
        every = arrow_arrays.string_array(offsets, self.data)
        return arrow_arrays.take(every, arrow_arrays.numbers(np.asarray(lines, dtype=np.int64) * 2))


@dataclass
class Blocks:
    """The sentence blocks of a chunk (runs of non-blank lines), and where each token line falls."""

    first_line: np.ndarray
    last_line: np.ndarray
    token_lines: np.ndarray
    first_token: np.ndarray  # line number; 0 when the block has no token line
    n_words: np.ndarray
    of_line: np.ndarray  # per line of the chunk: its block (index into these arrays); -1 for a blank line
    of_token: np.ndarray  # per token line


def sentence_blocks(c: Chunk) -> Blocks:
    """The sentence blocks of chunk ``c`` (what the readers' checks count per sentence)."""
    nonblank = np.flatnonzero(c.kind != BLANK)
    b = c.block[nonblank]
    starts = np.flatnonzero(np.r_[True, b[1:] != b[:-1]]) if len(b) else np.zeros(0, np.int64)
    stops = np.r_[starts[1:], len(b)].astype(np.int64) if len(b) else np.zeros(0, np.int64)
    of_line = np.full(c.n_lines, -1, dtype=np.int64)
    of_line[nonblank] = np.repeat(np.arange(len(starts)), stops - starts)
    first_line = c.line_no[nonblank[starts]]
    last_line = c.line_no[nonblank[stops - 1]]
    of_token = np.searchsorted(c.block[nonblank[starts]], c.block[c.line])
    token_lines = np.bincount(of_token, minlength=len(starts))
    first_token = np.zeros(len(starts), dtype=np.int64)
    has = token_lines > 0
    first_token[has] = c.line_no[c.line][np.searchsorted(of_token, np.flatnonzero(has))]
    n_words = np.bincount(of_token[c.id_kind == WORD], minlength=len(starts))
    return Blocks(first_line, last_line, token_lines, first_token, n_words, of_line, of_token)


def in_block_rank(block_of: np.ndarray) -> np.ndarray:
    """1-based rank of each row among the rows of its block (rows in line order)."""
    return np.arange(len(block_of)) - np.searchsorted(block_of, block_of, side="left") + 1


# comment lines whose value a reader takes (RE2, through Arrow's kernels: as DuckDB's regexp_extract read them
# before the readers moved to numpy), the value in the group
SENT_ID = r"^#\s*sent_id\s*=\s*(?P<v>.*?)\s*$"
TEXT = r"^#\s*text\s*=\s?(?P<v>.*)$"


def captured(text, pattern: str):
    """The value that ``pattern``'s one group captures in each line of ``text``; null where it does not match."""
    matches = kernel("extract_regex", text, options=kernel_options("ExtractRegexOptions", pattern))
    return kernel("struct_field", matches, options=kernel_options("StructFieldOptions", [0]))


def first_per_block(values, present: np.ndarray, block_of: np.ndarray, n_blocks: int):
    """Per block, the first value among rows where ``present`` (null where there is none)."""
    rows = np.flatnonzero(present)
    blocks, first = np.unique(block_of[rows], return_index=True)
    pick = np.full(n_blocks, -1, dtype=np.int64)
    pick[blocks] = rows[first]
    return arrow_arrays.take(values, arrow_arrays.numbers(pick, mask=pick < 0))


class ProblemTally:
    """A file's checks, chunk by chunk: the first problem by line (ties go to the check numbered
    lower) and how many problems there are in all. ``_add(check, lines, message)`` records the
    problems of one check at ``lines``; ``message(i)`` words the one at ``lines[i]``."""

    def __init__(self, name: str):
        self.name = name
        self.first: tuple[int, int, str] | None = None  # (line, check, problem)
        self.total = 0

    def _add(self, check: int, lines: np.ndarray, message) -> None:
        if not len(lines):
            return
        self.total += len(lines)
        i = int(np.argmin(lines))
        line = int(lines[i])
        if self.first is None or (line, check) < self.first[:2]:
            self.first = (line, check, message(i))

    def raise_first(self) -> None:
        """Raise the first problem, saying how many more there are, if there is one."""
        if self.first is not None:
            raise InputError(self.name, self.first[0], self.first[2], self.total - 1)


def chunks(blocks: Iterable[bytes], chunk_bytes: int | None = None) -> Iterator[Chunk]:
    """Validated, normalised bytes (LF line ends) cut after blank lines into chunks of whole sentences.

    A chunk is at most ``chunk_bytes`` (default :data:`CHUNK_BYTES`) long, whatever the size of the blocks read, unless its first
    sentence alone is longer: then it is that sentence.  The last chunk gets a line feed when the text
    does not end with one.  A cut always follows a blank line, so a sentence never spans two chunks;
    line and block numbers run on across chunks.
    """
    chunk_bytes = chunk_bytes or CHUNK_BYTES
    pending = bytearray()
    first_line, first_block = 1, 0
    searched = 0  # pending[:searched] holds no cut point (a sentence longer than chunk_bytes)

    def cut(end: int) -> Chunk:
        nonlocal first_line, first_block
        data = bytes(pending[:end])
        del pending[:end]
        chunk = split(data, first_line, first_block)
        first_line += chunk.n_lines
        first_block += int(np.count_nonzero(chunk.kind == BLANK))
        return chunk

    for block in blocks:
        pending += block
        while len(pending) >= chunk_bytes:
            # the last blank line ending in the first chunk_bytes (none when a longer sentence is being read)
            at = pending.rfind(b"\n\n", 0, chunk_bytes) if not searched else -1
            if at < 0:  # the first sentence is longer: cut at its end, once it has been read
                at = pending.find(b"\n\n", max(searched - 1, chunk_bytes - 1))
                if at < 0:
                    searched = len(pending)
                    break
            searched = 0
            yield cut(at + 2)
    if pending:
        if not pending.endswith(b"\n"):
            pending += b"\n"
        yield cut(len(pending))


def split(data: bytes, first_line: int = 1, first_block: int = 0) -> Chunk:
    """Split whole lines (``data`` ends with a line feed) into a :class:`Chunk`: per line and per token line the
    arrays of :func:`_split_numpy` (in C when ``loaders/_conllu.c`` is built: the same arrays in one pass), then
    sentence blocks, line numbers and ordinals."""
    buf = np.frombuffer(data, dtype=np.uint8)
    if _conllu is not None:
        start, end, kind, tok, n_fields, first_tab, id_kind, major, minor, head, fields = (
            np.frombuffer(array, dtype=np.int8 if k in (2, 6) else np.int64)
            for k, array in enumerate(_conllu.split_lines(data))
        )
        fields = fields.reshape(-1, 10, 2)
    else:
        start, end, kind, tok, n_fields, first_tab, id_kind, major, minor, head, fields = _split_numpy(buf)
    blank = kind == BLANK
    blanks_before = np.cumsum(blank) - blank
    block = first_block + blanks_before
    line_no = first_line + np.arange(len(start), dtype=np.int64)
    # rank among the token lines of the same kind in the same block (lines are in order)
    t_block = block[tok]
    ordinal = np.zeros(len(tok), dtype=np.int64)
    for k in (WORD, RANGE, EMPTY, BAD):
        rows = np.flatnonzero(id_kind == k)
        if len(rows):
            b = t_block[rows]
            ordinal[rows] = np.arange(len(rows)) - np.searchsorted(b, b, side="left") + 1
    return Chunk(
        data,
        buf,
        start,
        end,
        kind,
        block,
        line_no,
        tok,
        n_fields,
        id_kind,
        major,
        minor,
        head,
        ordinal,
        fields,
        first_tab,
    )


def _split_numpy(buf: np.ndarray):
    """The arrays of whole lines (``buf`` ends with a line feed), with a few numpy passes: per line ``start``,
    ``end``, ``kind``; per token line ``line`` (its index among the lines), ``n_fields``, ``first_tab``,
    ``id_kind``, ``major``, ``minor``, ``head`` and ``fields`` (see :class:`Chunk`). The definition that
    ``loaders/_conllu.c`` computes in one pass."""
    # After source validation the only bytes below 0x0B are TAB (9) and LF (10).
    seps = np.flatnonzero(buf < 11)
    is_nl = buf[seps] == 10
    nl = seps[is_nl]
    tabs = seps[~is_nl]
    n_lines = len(nl)
    start = np.empty(n_lines, dtype=np.int64)
    start[:1] = 0
    start[1:] = nl[:-1] + 1
    end = nl
    blank = start == end
    first_byte = buf[np.minimum(start, len(buf) - 1)]
    kind = np.full(n_lines, TOKEN, dtype=np.int8)
    kind[first_byte == ord("#")] = COMMENT
    kind[blank] = BLANK

    # tabs of each line
    sep_line = np.cumsum(is_nl) - is_nl
    tab_line = sep_line[~is_nl]
    tab_count = np.bincount(tab_line, minlength=n_lines)
    tab_first = np.cumsum(tab_count) - tab_count

    tok = np.flatnonzero(kind == TOKEN)
    n_fields = tab_count[tok] + 1
    t_start, t_end = start[tok], end[tok]
    first_tab = t_end.copy()
    has_tab = n_fields > 1
    first_tab[has_tab] = tabs[tab_first[tok[has_tab]]]
    id_kind, major, minor = parse_ids(buf, t_start, first_tab)

    ten = np.flatnonzero(n_fields == 10)
    fields = np.zeros((len(tok), 10, 2), dtype=np.int64)
    if len(ten):
        t = tabs[tab_first[tok[ten]][:, None] + np.arange(9)]
        fields[ten, 0, 0] = t_start[ten]
        fields[ten, 1:, 0] = t + 1
        fields[ten, :9, 1] = t
        fields[ten, 9, 1] = t_end[ten]
    head = np.full(len(tok), _NO_HEAD, dtype=np.int64)
    words10 = ten[id_kind[ten] == WORD]
    if len(words10):
        value, ok = _parse_head(buf, fields[words10, 6, 0], fields[words10, 6, 1])
        head[words10[ok]] = value[ok]
    return start, end, kind, tok, n_fields, first_tab, id_kind, major, minor, head, fields


def _digits(buf: np.ndarray, start: np.ndarray, end: np.ndarray):
    """The first bytes of each field [start, end) as a matrix as wide as the longest field (at most
    _WIDTH; 0 past a field's end), and the lengths."""
    length = end - start
    width = int(min(length.max(), _WIDTH)) if len(length) else 1
    width = max(width, 1)
    if len(buf) == 0:
        return np.zeros((len(start), width), np.uint8), length
    m = np.empty((len(start), width), dtype=np.uint8)
    last = len(buf) - 1
    for k in range(width):  # column by column: a few passes over 1-D arrays
        m[:, k] = np.where(length > k, buf[np.minimum(start + k, last)], 0)
    return m, length


def parse_ids(buf: np.ndarray, start: np.ndarray, end: np.ndarray):
    """Type IDs as the UD format allows them: ``[1-9][0-9]{0,8}`` (word), ``[1-9][0-9]{0,8}-[1-9][0-9]{0,8}``
    (range), ``(0|[1-9][0-9]{0,8})\\.[1-9][0-9]{0,8}`` (empty node), anything else bad."""
    n = len(start)
    m, length = _digits(buf, start, end)
    width = m.shape[1]
    major = np.zeros(n, dtype=np.int64)
    minor = np.zeros(n, dtype=np.int64)
    n_other = np.zeros(n, dtype=np.int64)
    pos = length.copy()  # the first non-digit, or the end
    for k in range(width):  # Horner's rule, digits before the separator into major, after it into minor
        ch = m[:, k]
        inside = length > k
        digit = (ch >= 48) & (ch <= 57) & inside
        other = inside & ~digit
        pos = np.where(other & (n_other == 0), k, pos)
        n_other += other
        d = ch.astype(np.int64) - 48
        before = digit & (n_other == 0)
        after = digit & (n_other == 1)
        major = np.where(before, major * 10 + d, major)
        minor = np.where(after, minor * 10 + d, minor)
    rows = np.arange(n)
    sep = m[rows, np.minimum(pos, width - 1)] if n else np.zeros(0, np.uint8)
    left = pos
    right = length - pos - 1
    first = m[:, 0] if n else np.zeros(0, np.uint8)
    after_sep = m[rows, np.minimum(pos + 1, width - 1)] if n else np.zeros(0, np.uint8)
    fits = (length >= 1) & (length <= 19)
    word = fits & (n_other == 0) & (length <= 9) & (first != 48)
    parts = fits & (n_other == 1) & (left >= 1) & (left <= 9) & (right >= 1) & (right <= 9) & (after_sep != 48)
    range_ = parts & (sep == 45) & (first != 48)
    empty = parts & (sep == 46) & ((first != 48) | (left == 1))
    kind = np.full(n, BAD, dtype=np.int8)
    kind[word] = WORD
    kind[range_] = RANGE
    kind[empty] = EMPTY
    major = np.where(kind == BAD, 0, major)
    minor = np.where((kind == RANGE) | (kind == EMPTY), minor, 0)
    return kind, major, minor


def _parse_head(buf: np.ndarray, start: np.ndarray, end: np.ndarray):
    """HEAD values: a plain non-negative integer of at most 9 digits without a leading zero."""
    m, length = _digits(buf, start, end)
    value = np.zeros(len(start), dtype=np.int64)
    ok = (length >= 1) & (length <= 9)
    for k in range(m.shape[1]):
        ch = m[:, k]
        inside = length > k
        digit = (ch >= 48) & (ch <= 57)
        ok &= digit | ~inside
        value = np.where(inside & digit, value * 10 + (ch.astype(np.int64) - 48), value)
    if len(start):
        ok &= (m[:, 0] != 48) | (length == 1)
    return value, ok
