"""Reading system outputs, campaign layouts and human judgements.

Formats of ``evalhouse ingest outputs`` (``--format auto`` picks one from the file's first lines):

``sr``      the Surface Realisation shared task format: blocks of ``# sent_id = N`` and ``# text = ...``
            (``#sent_id`` without the space too), N the 1-based position of the reference sentence;
            blocks are separated by blank lines; other comment lines are kept but ignored.
``lines``   one output sentence per line, line i realising reference sentence i; an empty line is an
            empty output. The file must have exactly as many lines as the reference has sentences.
``conllu``  CoNLL-U (outputs already tokenised and lemmatised), read by the one CoNLL-U reader
            (:mod:`evalhouse.loaders.conllu`) with the checks of :data:`REALISER_CHECKS`: FORM and
            LEMMA of each word are used (LEMMA ``_`` = not given); multiword-token lines and empty
            nodes are skipped. Sentences are matched to the reference by ``# sent_id`` when every
            sentence has one that is a reference sent_id (or a position); otherwise by order, and then
            the counts must agree.

Auto-detection: a line that looks like a CoNLL-U word line (an integer ID, then nine tab-separated
fields) means ``conllu``; a first non-blank line ``# sent_id = ...`` means ``sr``; anything else
is ``lines``.

Every reader yields :class:`OutputSentence` records; problems raise :class:`InputError` with the
file and line.

Size limits: an output sentence longer than :data:`MAX_SENTENCE_CHARACTERS` characters or
with more than :data:`MAX_SENTENCE_WORDS` words (white-space separated words of a text; word lines of
CoNLL-U) is refused, naming file, line and the limit. The reference-guided tokeniser and Bangalore, Rambow & Whittaker's (2000)
accuracies (an exact choice among all minimum-cost edit alignments: quadratic in memory, and in time
an integer programme when many alignments tie, itself capped in branch-and-bound nodes by
:data:`evalhouse.analysis.accuracy.NODE_LIMIT`) are bounded by these limits; see
docs/system-outputs.md, "Size limits". :func:`evalhouse.ingest.outputs.score_submission` applies the
word limit again to the tokens the tokeniser cuts out of a text (a sentence of Chinese without spaces).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from evalhouse.errors import InputError, OptionError
from evalhouse.loaders import arrow_arrays
from evalhouse.loaders.conllu import (
    BAD,
    COMMENT,
    SENT_ID,
    WORD,
    Blocks,
    Chunk,
    ProblemTally,
    captured,
    chunks,
    first_per_block,
    sentence_blocks,
)
from evalhouse.loaders.csv_records import csv_records
from evalhouse.loaders.numbers import decimal, shown
from evalhouse.loaders.source import open_source
from evalhouse.names import problem as name_problem

FORMATS = ("auto", "sr", "lines", "conllu")
_SR_KEY = re.compile(r"^#\s*([A-Za-z_][\w.-]*)\s*=\s?(.*)$")
MAX_SENTENCE_CHARACTERS = 100_000  # characters of one output sentence (far beyond any sentence of ../shared/data)
MAX_SENTENCE_WORDS = 1_000  # words (tokens) of one output sentence (the longest UD sentence in ../shared/data: 201)
_CONLLU_WORD = re.compile(r"^\d+\t([^\t]*\t){8}[^\t]*$")  # how --format auto recognises CoNLL-U

# what a realiser's CoNLL-U output must satisfy, in the order that breaks ties between problems on one line:
# its word lines have ten columns and a FORM (checked on the chunks' numpy arrays; two SQL queries over staged
# tables once, whose outcomes tests/test_conllu_output_checks.py keeps)
REALISER_CHECKS = (
    "not a CoNLL-U word line (ID and nine more tab-separated fields)",
    "empty FORM",
)


class _RealiserChecker(ProblemTally):
    """The checks of :data:`REALISER_CHECKS`, chunk by chunk."""

    def check(self, c: Chunk) -> None:
        ids, token_no = c.id_kind, c.line_no[c.line]
        bad = np.flatnonzero((ids == BAD) | ((ids == WORD) & (c.n_fields != 10)))
        self._add(0, token_no[bad], lambda i: REALISER_CHECKS[0])
        words = np.flatnonzero((ids == WORD) & (c.n_fields == 10))
        empty = words[c.fields[words, 1, 1] == c.fields[words, 1, 0]]
        self._add(1, token_no[empty], lambda i: REALISER_CHECKS[1])


@dataclass
class OutputSentence:
    key: str  # sent_id as written (sr, conllu) or the line number (lines)
    line: int  # where the sentence starts in the file
    text: str | None  # raw text (sr, lines); None for conllu
    forms: list[str] | None = None  # conllu only
    lemmas: list[str | None] | None = None  # conllu only


@dataclass
class OutputFile:
    name: str
    sha256: str
    format: str
    sentences: list[OutputSentence]
    normalisations: list[str]


def read_output_file(path: str | os.PathLike, format: str = "auto") -> OutputFile:
    """Read one output file (validated UTF-8, CRLF/BOM normalised by :func:`open_source`)."""
    if format not in FORMATS:
        raise OptionError(f"unknown format '{format}' (valid: {', '.join(FORMATS)})")
    with open_source(path) as source:
        with open(source.path, encoding="utf-8", newline="\n") as handle:
            text = handle.read()
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        name = source.name
        fmt = detect_format(lines) if format == "auto" else format
        if fmt == "conllu":
            sentences = _read_conllu(name, text)
        else:
            sentences = (_read_sr if fmt == "sr" else _read_lines)(name, lines)
        for sentence in sentences:
            check_size(name, sentence)
        return OutputFile(name, source.sha256, fmt, sentences, list(source.normalisations))


def check_size(name: str, sentence: OutputSentence) -> None:
    """Refuse a sentence past :data:`MAX_SENTENCE_CHARACTERS` or :data:`MAX_SENTENCE_WORDS` (module docstring)."""
    if sentence.forms is not None:
        characters, words = sum(len(f) for f in sentence.forms) + len(sentence.forms), len(sentence.forms)
    else:
        characters = len(sentence.text or "")
        if characters > MAX_SENTENCE_CHARACTERS:
            words = 0
        else:
            words = len((sentence.text or "").split())
    if characters > MAX_SENTENCE_CHARACTERS:
        raise InputError(
            name,
            sentence.line,
            f"output sentence of {characters:,} characters: more than the "
            f"limit of {MAX_SENTENCE_CHARACTERS:,} characters per sentence",
        )
    check_words(name, sentence.line, words)


def check_words(name: str, line: int, words: int) -> None:
    """Refuse an output sentence of more than :data:`MAX_SENTENCE_WORDS` words or tokens."""
    if words > MAX_SENTENCE_WORDS:
        raise InputError(
            name,
            line,
            f"output sentence of {words:,} words: more than the limit of {MAX_SENTENCE_WORDS:,} words per sentence",
        )


def detect_format(lines: Sequence[str]) -> str:
    for line in lines[:200]:
        if _CONLLU_WORD.match(line):
            return "conllu"
    first = next((ln for ln in lines if ln.strip()), "")
    m = _SR_KEY.match(first)
    if m and m.group(1) == "sent_id":
        return "sr"
    return "lines"


def _read_lines(name: str, lines: list[str]) -> list[OutputSentence]:
    return [OutputSentence(str(k), k, text) for k, text in enumerate(lines, start=1)]


def _read_sr(name: str, lines: list[str]) -> list[OutputSentence]:
    out: list[OutputSentence] = []
    block: dict[str, tuple[int, str]] = {}

    def close() -> None:
        if not block:
            return
        if "sent_id" not in block:
            first = min(v[0] for v in block.values())
            raise InputError(name, first, "block has no '# sent_id = N' line")
        sid_line, sid = block["sent_id"]
        if "text" not in block:
            raise InputError(name, sid_line, f"sent_id {sid} has no '# text = ...' line")
        out.append(OutputSentence(sid.strip(), sid_line, block["text"][1]))
        block.clear()

    for k, line in enumerate(lines, start=1):
        if not line.strip():
            close()
            continue
        m = _SR_KEY.match(line)
        if not m:
            raise InputError(name, k, f"expected '# sent_id = N', '# text = ...' or a blank line, found {line[:40]!r}")
        key, value = m.group(1), m.group(2)
        if key == "sent_id" and "sent_id" in block:
            close()
        if key in block:
            raise InputError(name, k, f"second '# {key}' line in one block (a blank line must separate blocks)")
        block[key] = (k, value)
    close()
    return out


def _read_conllu(name: str, text: str) -> list[OutputSentence]:
    """One :class:`OutputSentence` per sentence with words: its ``# sent_id`` (the first, as ``ingest
    treebank`` reads it; '' when it has none), the line it starts on (its sent_id line, else its first
    word), and the FORM and LEMMA (None for ``_`` or empty) of each word. ``text``: the file as
    :func:`read_output_file` read it, cut into chunks without reading the file again."""
    checker = _RealiserChecker(name)
    out: list[OutputSentence] = []
    for c in chunks([text.encode("utf-8")]):
        checker.check(c)
        if checker.first is None:
            out += _conllu_sentences(c, sentence_blocks(c))
    checker.raise_first()
    return out


def _conllu_sentences(c: Chunk, b: Blocks) -> list[OutputSentence]:
    """The sentences with words of a checked chunk (see :func:`_read_conllu`)."""
    words = np.flatnonzero(c.id_kind == WORD)
    if not len(words):
        return []
    comments = np.flatnonzero(c.kind == COMMENT)
    sent_id = captured(c.lines(comments), SENT_ID)
    has_id = arrow_arrays.valid(sent_id)
    first_id = first_per_block(sent_id, has_id, b.of_line[comments], len(b.first_line)).to_pylist()
    id_line = first_per_block(
        arrow_arrays.numbers(c.line_no[comments]), has_id, b.of_line[comments], len(b.first_line)
    ).to_pylist()
    forms, lemmas = c.column(1, words).to_pylist(), c.column(2, words).to_pylist()
    word_block = b.of_token[words]
    starts = np.flatnonzero(np.r_[True, word_block[1:] != word_block[:-1]])
    bounds = np.r_[starts, len(words)].tolist()
    first_line = c.line_no[c.line[words[starts]]].tolist()
    out = []
    for k, block in enumerate(word_block[starts].tolist()):
        lo, hi = bounds[k], bounds[k + 1]
        key, line = first_id[block], id_line[block]
        out.append(
            OutputSentence(
                "" if key is None else key,
                first_line[k] if line is None else line,
                None,
                forms[lo:hi],
                [None if x in ("_", "") else x for x in lemmas[lo:hi]],
            )
        )
    return out


# --- campaigns -------------------------------------------------------------------------------
@dataclass
class SubmissionFile:
    path: str
    team: str
    run: str
    format: str = "auto"
    manifest: str | None = None  # the manifest that lists it, and on which line
    line: int | None = None

    def read(self) -> "OutputFile":
        """:func:`read_output_file` of this file; a problem with the file as a whole (missing, unreadable, not
        text) is reported at the manifest's line that lists it, when a manifest does."""
        try:
            return read_output_file(self.path, self.format)
        except InputError as err:
            if self.manifest is None or err.line is not None or err.path != self.path:
                raise
            raise InputError(self.manifest, self.line, f"{self.path}: {err.problem}", err.more) from None


def campaign_files(directory: str | os.PathLike) -> list[SubmissionFile]:
    """``DIR/<team>/<run>/<file>``: every regular file three levels down is one submission."""
    root = Path(directory)
    found = []
    for path in sorted(root.glob("*/*/*")):
        if path.is_file() and not path.name.startswith("."):
            rel = path.relative_to(root).parts
            found.append(SubmissionFile(str(path), rel[0], rel[1]))
    stray = [
        p
        for p in sorted(root.rglob("*"))
        if p.is_file() and len(p.relative_to(root).parts) != 3 and not p.name.startswith(".")
    ]
    if stray:
        raise InputError(str(stray[0]), None, f"not in the layout {root}/<team>/<run>/<file>")
    seen: dict[tuple[str, str], str] = {}
    for f in found:
        if (f.team, f.run) in seen:
            raise InputError(f.path, None, f"team {f.team} run {f.run} already has a file: {seen[(f.team, f.run)]}")
        seen[(f.team, f.run)] = f.path
    if not found:
        raise InputError(str(root), None, "no submission files (expected DIR/<team>/<run>/<file>)")
    return found


MANIFEST_COLUMNS = ("path", "team", "run")


def read_manifest(path: str | os.PathLike) -> list[SubmissionFile]:
    """A CSV manifest with a header: path, team, run[, format]; paths relative to the manifest."""
    name = os.fspath(path)
    base = Path(name).parent
    with open_source(path) as source, open(source.path, encoding="utf-8", newline="") as handle:
        records = csv_records(name, handle, MANIFEST_COLUMNS, optional=("format",))
    out = []
    for k, rec in records:
        fmt = rec.get("format") or "auto"
        if fmt not in FORMATS:
            raise InputError(name, k, f"unknown format {fmt!r} (valid: {', '.join(FORMATS)})")
        for column in ("team", "run"):
            why = name_problem(column, rec[column])
            if why is not None:
                raise InputError(name, k, why)
        p = Path(rec["path"])
        out.append(SubmissionFile(str(p if p.is_absolute() else base / p), rec["team"], rec["run"], fmt, name, k))
    if not out:
        raise InputError(name, 2, "manifest lists no files")
    return out


# --- human judgements ------------------------------------------------------------------------
JUDGEMENT_COLUMNS = ("team", "run", "corpus", "sent_id", "annotator", "criterion", "score")
# the largest score magnitude a judgement may have (scores of ±1e300 gave an infinite sd and every z
# 0.0, silently); beyond 1e15 a double no longer holds every integer, and human rating scales are far smaller
MAX_SCORE = 1e15


@dataclass
class Judgement:
    line: int
    team: str
    run: str
    corpus: str
    sent_id: str
    annotator: str
    criterion: str
    score: float


def read_judgements(path: str | os.PathLike) -> tuple[str, str, list[Judgement]]:
    """CSV with header team, run, corpus, sent_id, annotator, criterion, score (any column order)."""
    name = os.fspath(path) if not hasattr(path, "read") else "<stdin>"
    with open_source(path) as source, open(source.path, encoding="utf-8", newline="") as handle:
        sha = source.sha256
        records = csv_records(name, handle, JUDGEMENT_COLUMNS)
    out = []
    for k, rec in records:
        score = decimal(rec["score"])  # ASCII, finite (loaders/numbers.py)
        if score is None:
            infinite = re.fullmatch(r"[+-]?(nan|inf|infinity)", rec["score"], re.IGNORECASE)
            raise InputError(name, k, f"score {shown(rec['score'])} is not a {'finite ' if infinite else ''}number")
        if abs(score) > MAX_SCORE:
            raise InputError(
                name,
                k,
                f"score {shown(rec['score'])} is beyond ±{MAX_SCORE:.0e}: judgement_z squares "
                "the scores of an annotator (its sd would be infinite and every z 0), and no "
                "rating scale is that wide",
            )
        for column in ("annotator", "criterion"):  # shown in the report: refused as team and run names are
            why = name_problem(column, rec[column])
            if why is not None:
                raise InputError(name, k, why)
        out.append(
            Judgement(
                k, rec["team"], rec["run"], rec["corpus"], rec["sent_id"], rec["annotator"], rec["criterion"], score
            )
        )
    if not out:
        raise InputError(name, 1, "no judgements: the file has its header only")
    return name, sha, out
