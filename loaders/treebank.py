"""CoNLL-U treebanks into the warehouse: validate, shred into base tables, strip punctuation.

Command::

    $ evalhouse ingest treebank ../shared/data/ud/UD_English-EWT/en_ewt-ud-test.conllu
    en_ewt-test: 2,077 sentences, 25,094 words, 21,182 edges

One code path for every source: :func:`loaders.source.open_source` streams and validates the
bytes, DuckDB's CSV reader splits the (canonical, LF) text into numbered lines, and every
check and every split of the ten columns is a set-based SQL statement over those lines.  The
only Python per sentence is the flux/projectivity pass of ``analysis.trees`` (numpy, batched).

Ingest is one transaction (the caller opens it): any problem in any file raises
:class:`InputError` naming the file, the line and the problem, and the warehouse is left as it
was.  Decisions on untidy input (documented in the README):

* accepted and recorded in ``corpora.normalisations``: a UTF-8 byte-order mark, CRLF line ends,
  a missing blank line after the last sentence, blank lines at the very end of the file;
* rejected: two blank lines in a row inside the file (an empty sentence), a comment after the
  words of a sentence, a sentence with comments but no words, a duplicate ``sent_id``, and every
  violation of the CoNLL-U format that would break a tree metric (see ``_CHECKS``).

The stripped tree (``edges``) follows Shimorina et al. (2021, section 4): words whose base
relation is ``punct`` are removed; a removed word's dependents are attached to the nearest
ancestor that is not punctuation (to 0, becoming roots, if there is none); the remaining words
are renumbered 1..n in surface order.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import numpy as np

from .errors import InputError
from .source import MAX_LINE_BYTES, Source, open_source

_UD_NAME = re.compile(r"^(?P<treebank>(?P<language>[a-z]{2,3})_[a-z0-9]+)-ud-(?P<split>train|dev|test)(?:-[^.]*)?\.conllu$")


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
    stem = base[:-len(".conllu")] if base.endswith(".conllu") else Path(base).stem
    return CorpusName(stem, None, None)


def expand_inputs(paths: Iterable[str | os.PathLike]) -> list[str]:
    """Files as given; directories replaced by the ``*.conllu`` files below them, sorted."""
    files: list[str] = []
    for p in paths:
        p = os.fspath(p)
        if p != "-" and os.path.isdir(p):
            found = sorted(str(f) for f in Path(p).rglob("*.conllu"))
            if not found:
                raise InputError(p, None, "directory holds no *.conllu file")
            files.extend(found)
        else:
            files.append(p)
    return files


@dataclass
class FileResult:
    source: Source
    sentences: int
    words: int
    tokens: int
    multiword_tokens: int
    empty_nodes: int
    edges: int
    normalisations: list[str]


# --- staging: numbered lines, classified --------------------------------------------------

_STAGE_LINES = r"""
CREATE OR REPLACE TEMP TABLE eh_lines AS
WITH numbered AS (
    SELECT row_number() OVER () AS line_no, line
    FROM read_csv($path, columns = {'line': 'VARCHAR'}, delim = chr(1), quote = '', escape = '',
                  header = false, auto_detect = false, strict_mode = true, new_line = '\n',
                  max_line_size = $max_line, buffer_size = 2 * $max_line)
), blocks AS (
    SELECT line_no, line,
           CASE WHEN line IS NULL THEN 'blank' WHEN starts_with(line, '#') THEN 'comment' ELSE 'token' END AS kind,
           sum((line IS NULL)::INTEGER) OVER (ORDER BY line_no ROWS UNBOUNDED PRECEDING) - (line IS NULL)::INTEGER AS block
    FROM numbered
)
SELECT * FROM blocks
"""

_STAGE_TOKENS = r"""
CREATE OR REPLACE TEMP TABLE eh_tokens AS
WITH split AS (
    SELECT block, line_no, string_split(line, chr(9)) AS f FROM eh_lines WHERE kind = 'token'
), typed AS (
    SELECT block, line_no, f, len(f) AS n_fields,
           CASE WHEN TRY_CAST(f[1] AS UINTEGER)::VARCHAR = f[1] AND f[1] <> '0' AND length(f[1]) <= 9 THEN 'word'
                WHEN regexp_full_match(f[1], '[1-9][0-9]{0,8}-[1-9][0-9]{0,8}') THEN 'range'
                WHEN regexp_full_match(f[1], '(0|[1-9][0-9]{0,8})\.[1-9][0-9]{0,8}') THEN 'empty'
                ELSE 'bad' END AS id_kind
    FROM split
)
SELECT block, line_no, f, n_fields, id_kind,
       CASE id_kind WHEN 'word' THEN f[1]::INTEGER
                    WHEN 'range' THEN split_part(f[1], '-', 1)::INTEGER
                    WHEN 'empty' THEN split_part(f[1], '.', 1)::INTEGER END AS major,
       CASE id_kind WHEN 'range' THEN split_part(f[1], '-', 2)::INTEGER
                    WHEN 'empty' THEN split_part(f[1], '.', 2)::INTEGER ELSE 0 END AS minor,
       CASE WHEN id_kind = 'word' AND n_fields = 10 AND TRY_CAST(f[7] AS UINTEGER)::VARCHAR = f[7] AND length(f[7]) <= 9
            THEN f[7]::INTEGER END AS head,
       row_number() OVER (PARTITION BY block, id_kind ORDER BY line_no) AS ordinal
FROM typed
"""

_STAGE_SENTENCES = r"""
CREATE OR REPLACE TEMP TABLE eh_blocks AS
SELECT block,
       min(line_no) AS first_line,
       max(line_no) AS last_line,
       count(*) FILTER (WHERE kind = 'token') AS token_lines,
       count(*) FILTER (WHERE kind = 'comment') AS comment_lines,
       max(line_no) FILTER (WHERE kind = 'comment') AS last_comment,
       min(line_no) FILTER (WHERE kind = 'token') AS first_token,
       (SELECT count(*) FROM eh_tokens t WHERE t.block = b.block AND t.id_kind = 'word') AS n_words
FROM eh_lines AS b
WHERE kind <> 'blank'
GROUP BY block
"""

# Each check returns (line_no, problem); the first by line is reported.
_CHECKS = [
    # structure of blocks
    r"""SELECT first_line, 'sentence with comments but no words'
        FROM eh_blocks WHERE token_lines = 0""",
    r"""SELECT l.line_no, 'empty sentence: two blank lines in a row'
        FROM eh_lines l JOIN eh_lines p ON p.line_no = l.line_no - 1
        WHERE l.kind = 'blank' AND p.kind = 'blank'
          AND l.line_no < (SELECT max(line_no) FROM eh_lines WHERE kind <> 'blank')""",
    r"""SELECT l.line_no, 'comment line after the words of the sentence (comments must come first)'
        FROM eh_lines l JOIN eh_blocks b USING (block)
        WHERE l.kind = 'comment' AND l.line_no > b.first_token""",
    r"""SELECT line_no, 'line holds only white space (a sentence break must be an empty line)'
        FROM eh_lines WHERE kind = 'token' AND ltrim(line, ' ' || chr(9)) = ''""",
    # columns
    r"""SELECT line_no, 'expected 10 tab-separated columns, found ' || n_fields
        FROM eh_tokens WHERE n_fields <> 10""",
    r"""SELECT line_no, 'empty ' || ['ID','FORM','LEMMA','UPOS','XPOS','FEATS','HEAD','DEPREL','DEPS','MISC'][list_position(f, '')] || ' column (use _ for an unknown value)'
        FROM eh_tokens WHERE n_fields = 10 AND list_contains(f, '')""",
    r"""SELECT line_no, 'invalid ID ' || '''' || f[1] || ''' (expected 7, 3-4 or 8.1)'
        FROM eh_tokens WHERE id_kind = 'bad'""",
    # words: IDs, heads, roots
    r"""SELECT line_no,
               CASE WHEN major < ordinal THEN 'duplicate word ID ' || major ELSE 'word ID ' || major || ' where ' || ordinal || ' was expected (IDs must run 1, 2, 3, ...)' END
        FROM eh_tokens WHERE id_kind = 'word' AND major <> ordinal""",
    r"""SELECT line_no, 'HEAD ' || '''' || f[7] || ''' is not an integer'
        FROM eh_tokens WHERE id_kind = 'word' AND n_fields = 10 AND head IS NULL""",
    r"""SELECT t.line_no, 'HEAD ' || t.head || ' is out of range (the sentence has ' || b.n_words || ' words)'
        FROM eh_tokens t JOIN eh_blocks b USING (block) WHERE t.id_kind = 'word' AND t.head > b.n_words""",
    r"""SELECT line_no, 'word ' || major || ' is its own head'
        FROM eh_tokens WHERE id_kind = 'word' AND head = major""",
    r"""SELECT first_token, 'no root: no word has HEAD 0'
        FROM eh_blocks b WHERE n_words > 0 AND NOT EXISTS
            (SELECT 1 FROM eh_tokens t WHERE t.block = b.block AND t.id_kind = 'word' AND t.head = 0)
          AND NOT EXISTS (SELECT 1 FROM eh_tokens t WHERE t.block = b.block
                          AND (t.id_kind = 'bad' OR (t.id_kind = 'word' AND (t.head IS NULL OR t.n_fields <> 10))))""",
    r"""SELECT line_no, 'second root: words ' || first_root || ' and ' || major || ' both have HEAD 0'
        FROM (SELECT line_no, major, head, first_value(major) OVER w AS first_root, row_number() OVER w AS k
              FROM eh_tokens WHERE id_kind = 'word' AND head = 0
              WINDOW w AS (PARTITION BY block ORDER BY line_no))
        WHERE k > 1""",
    # multiword-token ranges and empty nodes
    r"""SELECT line_no, 'range ' || f[1] || ' must span two or more words'
        FROM eh_tokens WHERE id_kind = 'range' AND minor <= major""",
    r"""SELECT t.line_no, 'range ' || t.f[1] || ' goes beyond the last word (' || b.n_words || ')'
        FROM eh_tokens t JOIN eh_blocks b USING (block) WHERE t.id_kind = 'range' AND t.minor > b.n_words""",
    r"""SELECT line_no, 'range ' || f[1] || ' overlaps the range before it'
        FROM (SELECT line_no, f, major, lag(minor) OVER (PARTITION BY block ORDER BY line_no) AS previous_end
              FROM eh_tokens WHERE id_kind = 'range')
        WHERE major <= previous_end""",
    r"""SELECT t.line_no, 'empty node ' || t.f[1] || ' follows a word that does not exist (the sentence has ' || b.n_words || ' words)'
        FROM eh_tokens t JOIN eh_blocks b USING (block) WHERE t.id_kind = 'empty' AND t.major > b.n_words""",
    r"""SELECT line_no, 'empty node ' || f[1] || ': expected ' || major || '.' || expected
        FROM (SELECT line_no, f, major, minor,
                     row_number() OVER (PARTITION BY block, major ORDER BY line_no) AS expected
              FROM eh_tokens WHERE id_kind = 'empty')
        WHERE minor <> expected""",
    # Words are in order (IDs run 1, 2, 3, ...), so a misplaced line is a range that is not
    # directly followed by its first word, or an empty node k.m not preceded by exactly k words.
    r"""SELECT line_no, CASE id_kind WHEN 'range' THEN 'range ' || f[1] || ' must come just before word ' || major
                                 ELSE 'empty node ' || f[1] || ' must come after word ' || major || ' and before word ' || (major + 1) END
        FROM (SELECT line_no, f, id_kind, major,
                     sum((id_kind = 'word')::INTEGER) OVER w AS words_so_far,
                     lead(id_kind) OVER w AS next_kind, lead(major) OVER w AS next_major
              FROM eh_tokens WHERE id_kind <> 'bad'
              WINDOW w AS (PARTITION BY block ORDER BY line_no))
        WHERE (id_kind = 'range' AND (next_kind IS DISTINCT FROM 'word' OR next_major <> major))
           OR (id_kind = 'empty' AND words_so_far <> major)""",
    # comments
    r"""SELECT line_no, 'second sent_id comment in one sentence'
        FROM (SELECT line_no, row_number() OVER (PARTITION BY block ORDER BY line_no) AS k
              FROM eh_lines WHERE kind = 'comment' AND regexp_matches(line, '^#\s*sent_id\s*='))
        WHERE k > 1""",
]

def _first_problem(con, queries: list[str]) -> tuple[int, str, int] | None:
    """The first problem by line over all checks, and how many more there are.

    Each check runs on its own: DuckDB plans a UNION ALL of them much worse than the parts.
    """
    found: list[tuple[int, int, str]] = []
    total = 0
    for i, q in enumerate(queries):
        n, line, problem = con.execute(
            f"SELECT count(*), min(line_no), arg_min(problem, line_no) FROM ({q}) AS p(line_no, problem)").fetchone()
        if n:
            total += n
            found.append((line, i, problem))  # on a tie in line, the earlier check wins
    if not found:
        return None
    line, _, problem = min(found)
    return line, problem, total - 1


def _first_cycle(con, before_line: int | None = None) -> tuple[int, str, int] | None:
    """Cycles, where IDs and heads are sane: walk every word up to its root with numpy.

    With ``before_line`` (the first other problem) only the sentences that end before it are
    walked: they have no other problem, and a cycle anywhere else would come later anyway.
    """
    from evalhouse.analysis.trees import NotATreeError, TreeBatch, tree_depths

    where = "" if before_line is None else \
        f" AND block IN (SELECT block FROM eh_blocks WHERE last_line < {int(before_line)})"
    cols = con.execute("SELECT block, head, line_no, major FROM eh_tokens WHERE id_kind = 'word'" + where +
                       " ORDER BY block, major").fetchnumpy()
    blocks = np.asarray(cols["block"])
    starts = np.flatnonzero(np.r_[True, blocks[1:] != blocks[:-1]]) if len(blocks) else np.zeros(0, int)
    lengths = np.diff(np.r_[starts, len(blocks)])
    try:
        tree_depths(TreeBatch(np.asarray(cols["head"], dtype=np.int64), lengths))
    except NotATreeError as err:
        word = int(np.asarray(cols["major"])[err.index])
        return int(np.asarray(cols["line_no"])[err.index]), f"cycle: word {word} is not connected to the root (its heads loop)", 0
    return None


def _check(con, source: Source) -> None:
    found = _first_problem(con, _CHECKS)
    cycle = _first_cycle(con, found[0] if found else None)
    if cycle is not None:
        found = (cycle[0], cycle[1], found[2] + 1 if found else 0)
    if found is not None:
        line, problem, more = found
        raise InputError(source.name, line, problem, more)


def stage_file(con, source: Source) -> None:
    """Read ``source`` into the temporary staging tables and validate it."""
    con.execute(_STAGE_LINES, {"path": source.path, "max_line": MAX_LINE_BYTES})
    if con.execute("SELECT count(*) FROM eh_lines WHERE kind = 'token'").fetchone()[0] == 0:
        if con.execute("SELECT count(*) FROM eh_lines WHERE kind = 'comment'").fetchone()[0]:
            first = con.execute("SELECT min(line_no) FROM eh_lines WHERE kind = 'comment'").fetchone()[0]
            raise InputError(source.name, first, "sentence with comments but no words")
        raise InputError(source.name, None, "empty file: no sentence")
    con.execute(_STAGE_TOKENS)
    con.execute(_STAGE_SENTENCES)
    _check(con, source)


_INSERT_SENTENCES = r"""
CREATE OR REPLACE TEMP TABLE eh_sentence_map AS
SELECT block, $offset + row_number() OVER (ORDER BY block) AS position FROM eh_blocks;

INSERT INTO sentences
SELECT $corpus, m.position,
       coalesce(c.sent_id, m.position::VARCHAR),
       c.text,
       coalesce(c.comments, []::VARCHAR[]),
       b.first_line
FROM eh_sentence_map m
JOIN eh_blocks b USING (block)
LEFT JOIN (
    SELECT block,
           list(line ORDER BY line_no) AS comments,
           first(regexp_extract(line, '^#\s*sent_id\s*=\s*(.*?)\s*$', 1) ORDER BY line_no)
               FILTER (WHERE regexp_matches(line, '^#\s*sent_id\s*=')) AS sent_id,
           first(regexp_extract(line, '^#\s*text\s*=\s?(.*)$', 1) ORDER BY line_no)
               FILTER (WHERE regexp_matches(line, '^#\s*text\s*=')) AS text
    FROM eh_lines WHERE kind = 'comment' GROUP BY block
) c USING (block)
ORDER BY m.position;

INSERT INTO nodes
SELECT $corpus, m.position, t.major, t.f[2], t.f[3], t.f[4], t.f[5], t.f[6], t.head, t.f[8], t.f[9], t.f[10]
FROM eh_tokens t JOIN eh_sentence_map m USING (block)
WHERE t.id_kind = 'word';

INSERT INTO multiword_tokens
SELECT $corpus, m.position, t.major, t.minor, t.f[2], t.f[3], t.f[4], t.f[5], t.f[6], t.f[7], t.f[8], t.f[9], t.f[10]
FROM eh_tokens t JOIN eh_sentence_map m USING (block)
WHERE t.id_kind = 'range';

INSERT INTO empty_nodes
SELECT $corpus, m.position, t.major, t.minor, t.f[2], t.f[3], t.f[4], t.f[5], t.f[6], t.f[7], t.f[8], t.f[9], t.f[10]
FROM eh_tokens t JOIN eh_sentence_map m USING (block)
WHERE t.id_kind = 'empty';
"""

# Lines are those of the sent_id comments (a sentence's comments are its first lines, in order).
_DUPLICATE_SENT_ID = r"""
SELECT s.first_line - 1 + coalesce(list_position(list_transform(s.comments, lambda c: regexp_matches(c, '^#\s*sent_id\s*=')), true), 1),
       s.sent_id,
       p.first_line - 1 + coalesce(list_position(list_transform(p.comments, lambda c: regexp_matches(c, '^#\s*sent_id\s*=')), true), 1),
       p.position > $offset
FROM sentences s
JOIN sentences p ON p.corpus = s.corpus AND p.sent_id = s.sent_id AND p.position < s.position
WHERE s.corpus = $corpus AND s.position > $offset
ORDER BY s.position, p.position
LIMIT 1
"""

# The stripped tree, for the sentences of this file (positions > $offset).
_INSERT_EDGES = r"""
INSERT INTO edges
WITH words AS (
    SELECT position, id, head, deprel, lemma, upos, split_part(deprel, ':', 1) = 'punct' AS is_punct
    FROM nodes WHERE corpus = $corpus AND position > $offset
), climb AS (
    -- walk up from each kept word whose head is punctuation until the candidate is not
    WITH RECURSIVE up(position, id, candidate, steps) AS (
        SELECT w.position, w.id, h.head, 1
        FROM words w JOIN words h ON h.position = w.position AND h.id = w.head AND h.is_punct
        WHERE NOT w.is_punct
        UNION ALL
        SELECT up.position, up.id, p.head, up.steps + 1
        FROM up JOIN words p ON p.position = up.position AND p.id = up.candidate AND p.is_punct
    )
    SELECT position, id, arg_max(candidate, steps) AS head_id FROM up GROUP BY position, id
), kept AS (
    SELECT w.position, w.id, coalesce(c.head_id, w.head) AS head_id, w.deprel, w.lemma, w.upos,
           row_number() OVER (PARTITION BY w.position ORDER BY w.id) AS new_position
    FROM words w LEFT JOIN climb c USING (position, id)
    WHERE NOT w.is_punct
)
SELECT $corpus, d.position, d.new_position, coalesce(h.new_position, 0),
       d.deprel, split_part(d.deprel, ':', 1), d.lemma, h.lemma, d.upos, h.upos,
       d.new_position - h.new_position, d.id, d.head_id
FROM kept d LEFT JOIN kept h ON h.position = d.position AND h.id = d.head_id
"""


def _materialise_tree_metrics(con, corpus: str, offset: int) -> None:
    from evalhouse.analysis.trees import TreeBatch, tree_metrics

    cols = con.execute(
        "SELECT position, head FROM edges WHERE corpus = $corpus AND position > $offset ORDER BY position, dependent",
        {"corpus": corpus, "offset": offset}).fetchnumpy()
    positions = np.asarray(cols["position"], dtype=np.int64)
    heads = np.asarray(cols["head"], dtype=np.int64)
    if len(positions) == 0:
        return
    starts = np.flatnonzero(np.r_[True, positions[1:] != positions[:-1]])
    lengths = np.diff(np.r_[starts, len(positions)])
    metrics = tree_metrics(TreeBatch(heads, lengths))
    import pandas as pd

    frame = pd.DataFrame({
        "position": positions[starts].astype(np.int32),
        "flux_weight_sum": metrics.flux_weight_sum.astype(np.int32),
        "projective": metrics.projective.astype(bool),
    })
    con.register("eh_tree_metrics_frame", frame)
    try:
        con.execute("INSERT INTO sentence_tree_metrics SELECT $corpus, position, flux_weight_sum, projective "
                    "FROM eh_tree_metrics_frame", {"corpus": corpus})
    finally:
        con.unregister("eh_tree_metrics_frame")


def load_file(con, source: Source, corpus: str, offset: int) -> FileResult:
    """Stage, validate and insert one file as sentences ``offset + 1 ...`` of ``corpus``."""
    stage_file(con, source)
    params = {"corpus": corpus, "offset": offset}
    for statement in _INSERT_SENTENCES.split(";\n"):
        if statement.strip():
            con.execute(statement, {k: v for k, v in params.items() if f"${k}" in statement})
    dup = con.execute(_DUPLICATE_SENT_ID, params).fetchone()
    if dup:
        line, sent_id, first_line, same_file = dup
        where = f"line {first_line}" if same_file else f"line {first_line} of an earlier file of corpus {corpus}"
        raise InputError(source.name, line, f"duplicate sent_id '{sent_id}' (first used at {where})")
    con.execute(_INSERT_EDGES, params)
    _materialise_tree_metrics(con, corpus, offset)
    counts = con.execute(r"""
        SELECT (SELECT count(*) FROM eh_blocks),
               count(*) FILTER (WHERE id_kind = 'word'),
               count(*) FILTER (WHERE id_kind = 'range'),
               count(*) FILTER (WHERE id_kind = 'empty'),
               (SELECT count(*) FROM edges WHERE corpus = $corpus AND position > $offset),
               (SELECT count(*) FROM eh_tokens w WHERE w.id_kind = 'word' AND EXISTS (
                    SELECT 1 FROM eh_tokens r WHERE r.block = w.block AND r.id_kind = 'range'
                    AND w.major BETWEEN r.major AND r.minor))
        FROM eh_tokens""", params).fetchone()
    sentences, words, ranges, empties, edges, words_in_ranges = counts
    normalisations = list(source.normalisations)
    trailing = con.execute(r"""SELECT count(*) FROM eh_lines WHERE kind = 'blank'
                               AND line_no > (SELECT max(line_no) FROM eh_lines WHERE kind <> 'blank')""").fetchone()[0]
    if trailing > 1:
        normalisations.append(f"{trailing - 1} blank line(s) at end of file dropped")
    elif trailing == 0:
        normalisations.append("blank line after the last sentence added")
    return FileResult(source, sentences, words, words - words_in_ranges + ranges, ranges, empties, edges, normalisations)


def drop_staging(con) -> None:
    for table in ("eh_lines", "eh_tokens", "eh_blocks", "eh_sentence_map"):
        con.execute(f"DROP TABLE IF EXISTS {table}")


ProgressFn = Callable[[str, int, int], None]


def ingest_files(con, files: list[str], corpus: str, offset: int = 0,
                 progress: ProgressFn | None = None) -> list[FileResult]:
    """Load ``files`` (paths, or ``-`` for standard input) as one corpus; caller owns the transaction."""
    import sys

    results = []
    for i, path in enumerate(files):
        if progress:
            progress(path, i, len(files))
        target = sys.stdin.buffer if path == "-" else path
        with open_source(target, name="<stdin>" if path == "-" else None) as source:
            result = load_file(con, source, corpus, offset)
        offset += result.sentences
        results.append(result)
    drop_staging(con)
    return results
