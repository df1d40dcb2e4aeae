"""Reading source files: one streaming pass that hashes, validates bytes and normalises.

Every loader goes through :func:`open_source`.  It streams the file (or any binary handle, such as
standard input) in blocks, so pipes work and memory stays flat, and it

* computes the SHA-256 of the bytes as read (recorded in ``corpora.sha256``);
* rejects what is not text: an empty file, a NUL byte (binary file), other C0 control
  characters, and bytes that are not UTF-8 -- each with the line it is on;
* rejects a line longer than :data:`MAX_LINE_BYTES` (DuckDB's CSV reader, which splits the lines,
  needs a bound; a buffer of twice that size is then enough, whatever the memory limit);
* accepts and normalises, recording what it did: a UTF-8 byte-order mark (removed) and CRLF
  line ends (turned into LF).  A carriage return that is not followed by a line feed is
  an error: it would silently change the line structure.

The pass itself is :class:`ByteStream`, which yields the validated, normalised blocks: a reader that
parses those blocks (``ingest treebank``) reads each file once, and the digest is of exactly the bytes
it stored.  :func:`open_source` wraps it for readers that need a path: when the bytes are
already canonical the original path is handed on untouched (the fast path: DuckDB or ``open`` reads it
again), and a file whose identity changed in between is refused; otherwise a normalised copy is spooled
to a temporary file.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import BinaryIO, Iterator

from evalhouse.errors import InputError

BLOCK = 1 << 22
MAX_LINE_BYTES = 1 << 24  # 16 MiB; the read_csv calls use max_line_size = this, buffer_size = twice this
# A line inside one block is shorter than BLOCK, so only lines that span blocks need checking.
assert MAX_LINE_BYTES > BLOCK
BOM = b"\xef\xbb\xbf"
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# every other byte: deleting them from a block (bytes.translate, one C pass) leaves nothing unless the
# block has a control character, which the regular expression then locates.  Four times faster than a
# numpy lookup table (6 against 24 ms per 16 MiB), and `evalhouse evalb` then never imports numpy.
_NOT_CONTROL = bytes(b for b in range(256) if not _CONTROL.match(bytes([b])))


@dataclass
class Source:
    """A validated UTF-8 text file ready for DuckDB: ``path`` is canonical (LF, no BOM)."""

    name: str  # what error messages call it (the path as given, or "<stdin>")
    path: str  # a file DuckDB can read: the original or a normalised temporary copy
    sha256: str
    size: int
    ends_with_newline: bool
    normalisations: list[str] = field(default_factory=list)


def _copy_prefix(path: str, out, start: int, stop: int) -> None:
    """Copy bytes [start, stop) of ``path`` (already validated, canonical) into ``out``."""
    with open(path, "rb") as again:
        again.seek(start)
        remaining = stop - start
        while remaining > 0:
            chunk = again.read(min(BLOCK, remaining))
            if not chunk:
                break
            out.write(chunk)
            remaining -= len(chunk)


def _line_of(data: bytes, offset: int, lines_before: int) -> int:
    return lines_before + data.count(b"\n", 0, offset) + 1


class ByteStream:
    """One pass over a file or binary handle: iterating yields its bytes in blocks, validated and
    normalised (no BOM, LF line ends); :class:`InputError` names the first bad line.  After the last
    block, ``sha256`` is the digest of exactly the bytes that were read (before normalisation),
    ``size`` their number, ``normalisations`` what was changed and ``ends_with_newline`` whether the
    text ends with a line feed.  A consumer that parses the blocks it is given therefore parses
    exactly the bytes the digest describes (no second read of the path)."""

    def __init__(self, handle: BinaryIO, name: str, block: int | None = None, kind: str = "CoNLL-U"):
        self.handle = handle
        self.name = name
        self.kind = kind  # what the file should be, for the messages: "CoNLL-U", "bracketed-parse", ...
        self.block = block
        self.sha256: str | None = None
        self.size = 0
        self.ends_with_newline = False
        self.saw_bom = self.saw_crlf = False  # so far
        self.raw_before = 0  # bytes read before the block last yielded
        self.normalisations: list[str] = []

    def __iter__(self) -> Iterator[bytes]:
        name, handle = self.name, self.handle
        block_size = self.block or BLOCK
        digest = hashlib.sha256()
        decoder = codecs.getincrementaldecoder("utf-8")("strict")
        lines_before = 0
        size = 0
        first = True
        pending_cr = False
        saw_crlf = False
        saw_bom = False
        last_byte = b""
        line_bytes = 0  # bytes of the current line read so far (it began in an earlier block)
        while True:
            block = handle.read(block_size)
            if not block:
                break
            digest.update(block)
            size += len(block)
            data = block
            if first:
                first = False
                if data.startswith(BOM):
                    saw_bom = True
                    data = data[len(BOM) :]
            # Collect this block's problems and report the first by line (a PNG header is
            # invalid UTF-8 on line 1 before its control characters on line 2).
            problems: list[tuple[int, str]] = []
            bad = _CONTROL.search(data) if data.translate(None, _NOT_CONTROL) else None
            if bad:
                ch = data[bad.start()]
                line = _line_of(data, bad.start(), lines_before)
                problems.append(
                    (
                        line,
                        f"binary file: NUL byte (this is not a {self.kind} text file)"
                        if ch == 0
                        else f"control character U+{ch:04X} is not allowed in a {self.kind} file",
                    )
                )
            buffered = len(decoder.getstate()[0])  # bytes of a character begun in the previous block
            try:
                decoder.decode(data, final=False)
            except UnicodeDecodeError as err:
                # err.start counts the buffered bytes too; they are on this block's first line
                line = _line_of(data, max(err.start - buffered, 0), lines_before)
                problems.append((line, f"invalid UTF-8 ({err.reason}); is this a binary file or another encoding?"))
            if pending_cr and not data.startswith(b"\n"):
                problems.append((lines_before + 1, "carriage return (CR) not followed by a line feed"))
            if b"\r" in data:
                body = data[:-1] if data.endswith(b"\r") else data
                stray = re.search(rb"\r(?!\n)", body)
                if stray:
                    problems.append(
                        (
                            _line_of(data, stray.start(), lines_before),
                            "carriage return (CR) not followed by a line feed",
                        )
                    )
            if problems:
                line, problem = min(problems, key=lambda p: p[0])  # stable: NUL/control first on a tie
                raise InputError(name, line, problem)
            if b"\r" in data or pending_cr:
                pending_cr = data.endswith(b"\r")
                saw_crlf = saw_crlf or b"\r\n" in data or pending_cr
                data = data.replace(b"\r\n", b"\n")
                if pending_cr:
                    data = data[:-1]
            if data:
                last_byte = data[-1:]
            first_newline = data.find(b"\n")
            if line_bytes + (len(data) if first_newline == -1 else first_newline) > MAX_LINE_BYTES:
                raise InputError(name, lines_before + 1, f"line longer than {MAX_LINE_BYTES >> 20} MiB")
            line_bytes = line_bytes + len(data) if first_newline == -1 else len(data) - data.rfind(b"\n") - 1
            lines_before += data.count(b"\n")
            self.saw_bom, self.saw_crlf, self.raw_before = saw_bom, saw_crlf, size - len(block)
            if data:
                yield data
        if pending_cr:
            raise InputError(name, lines_before + 1, "carriage return (CR) not followed by a line feed")
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError as err:
            raise InputError(name, lines_before + 1, f"invalid UTF-8 at end of file ({err.reason})") from None
        if size == 0 or (saw_bom and size == len(BOM)):
            raise InputError(name, None, "empty file")
        self.normalisations = []
        if saw_bom:
            self.normalisations.append("byte-order mark removed")
        if saw_crlf:
            self.normalisations.append("CRLF line ends read as LF")
        self.sha256 = digest.hexdigest()
        self.size = size
        self.ends_with_newline = last_byte == b"\n"


def shown_path(path: str | bytes | os.PathLike) -> str:
    """``path`` as text an error message can print: bytes that are not UTF-8 as ``\\xff`` escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def check_path_name(path: str | bytes | os.PathLike, where: str | None = None, line: int | None = None) -> None:
    """Refuse a file whose name is not UTF-8 text: evalhouse stores file names as text (``corpora.source_files``,
    ``submissions.source_file``, a corpus named after its file), and DuckDB refused such a name with an internal
    "Python Conversion Failure" naming neither file nor line. ``where``/``line``: the file that gave
    the name (a manifest), named in the message instead."""
    try:
        os.fsencode(path).decode("utf-8")
    except UnicodeDecodeError:
        named = f" {shown_path(path)}" if where else ""
        problem = f"the file name{named} is not UTF-8 text (evalhouse stores file names as text): rename the file"
        raise InputError(where or shown_path(path), line, problem) from None


@contextmanager
def open_bytes(
    path_or_handle: str | os.PathLike | BinaryIO, name: str | None = None, kind: str = "CoNLL-U"
) -> Iterator[ByteStream]:
    """A :class:`ByteStream` over a path (opened and closed here) or a binary handle (left open);
    ``kind`` names what the file should be in the messages (a NUL byte: "this is not a CoNLL-U text file")."""
    if isinstance(path_or_handle, (str, os.PathLike)):
        check_path_name(path_or_handle)
        name = name or os.fspath(path_or_handle)
        try:
            handle = open(path_or_handle, "rb")
        except OSError as err:
            raise InputError(name, None, f"cannot read: {err.strerror or err}") from None
        try:
            yield ByteStream(handle, name, kind=kind)
        finally:
            handle.close()
    else:
        yield ByteStream(path_or_handle, name or getattr(path_or_handle, "name", "<stream>"), kind=kind)


def _identity(st: os.stat_result) -> tuple:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


@contextmanager
def open_source(
    path_or_handle: str | os.PathLike | BinaryIO, name: str | None = None, kind: str = "CoNLL-U"
) -> Iterator[Source]:
    """Validate and (when needed) normalise a text source; yields a :class:`Source`.

    On the fast path (a canonical file read again by its consumer, DuckDB or ``open``) the file's
    identity (device, inode, size, modification and change times) is taken before the validating read
    and compared when the block ends: a file changed in between is refused, so that ``sha256`` never
    describes other bytes than those read.  Readers that parse the validated blocks
    themselves (``evalhouse ingest treebank``) use :class:`ByteStream` and read once."""
    with open_bytes(path_or_handle, name, kind) as stream:
        original_path = os.fspath(path_or_handle) if isinstance(path_or_handle, (str, os.PathLike)) else None
        before = _identity(os.fstat(stream.handle.fileno())) if original_path is not None else None
        spool = None
        try:
            # Without a BOM or CR we never need a copy, unless the input is a stream.
            if original_path is None:
                spool = tempfile.NamedTemporaryFile("wb", suffix=".conllu", delete=False)
            for data in stream:
                if spool is None and (stream.saw_bom or stream.saw_crlf):
                    # First block that needs normalising: copy what the fast path had skipped.
                    spool = tempfile.NamedTemporaryFile("wb", suffix=".conllu", delete=False)
                    _copy_prefix(original_path, spool, start=len(BOM) if stream.saw_bom else 0, stop=stream.raw_before)
                if spool is not None:
                    spool.write(data)
            if spool is not None:
                spool.close()
            yield Source(
                name=stream.name,
                path=spool.name if spool is not None else original_path,
                sha256=stream.sha256,
                size=stream.size,
                ends_with_newline=stream.ends_with_newline,
                normalisations=list(stream.normalisations),
            )
            if spool is None and _identity(os.stat(original_path)) != before:
                raise InputError(
                    stream.name,
                    None,
                    "the file changed while it was being read; "
                    "nothing was stored (try again when it is no longer being written)",
                )
        finally:
            if spool is not None:
                spool.close()
                try:
                    os.unlink(spool.name)
                except OSError:
                    pass
