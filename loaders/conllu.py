"""CoNLL-U: the one reader, behind every CoNLL-U file evalhouse reads.

    $ evalhouse ingest treebank en_ewt-ud-test.conllu                  # reference trees (strict UD)
    $ evalhouse ingest dependency-run parser.conllu --gold gold.conllu ...  # parser outputs
    $ evalhouse ingest outputs realiser.conllu --format conllu ...       # realiser outputs

:func:`stage` streams a source checked by :func:`evalhouse.loaders.source.open_source` through
DuckDB's CSV reader into three temporary tables on the connection given: ``eh_lines`` (every line,
numbered, classified blank/comment/token, with its sentence block), ``eh_tokens`` (the token lines
split into their columns, IDs typed word/range/empty/bad, HEAD as an integer) and ``eh_blocks`` (one
row per sentence). What a file must satisfy depends on what it is, so each reader passes its own
:class:`Checks` to :func:`check`, set-based SQL queries over those tables, and reads what it needs
from them: :mod:`evalhouse.loaders.treebank` (every UD rule; shredded into ``nodes`` and ``edges``),
:mod:`evalhouse.loaders.conllu_words` (as the CoNLL 2018 evaluation script reads parser outputs) and
:mod:`evalhouse.loaders.outputs` (FORM and LEMMA of realiser outputs). The first problem by line is
reported as ``InputError(file, line, problem)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from evalhouse.analysis.trees import NotATreeError, TreeBatch, tree_depths
from evalhouse.errors import InputError
from evalhouse.loaders.source import MAX_LINE_BYTES, Source

STAGING_TABLES = ("eh_lines", "eh_tokens", "eh_blocks")

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
       (SELECT count(*) FROM eh_tokens t WHERE t.block = b.block AND t.id_kind = 'word') AS n_words,
       -- the sentence's sent_id: its first '# sent_id = ...' comment, trimmed (NULL when it has none)
       first(regexp_extract(line, '^#\s*sent_id\s*=\s*(.*?)\s*$', 1) ORDER BY line_no)
           FILTER (WHERE kind = 'comment' AND regexp_matches(line, '^#\s*sent_id\s*=')) AS sent_id,
       min(line_no) FILTER (WHERE kind = 'comment' AND regexp_matches(line, '^#\s*sent_id\s*=')) AS sent_id_line
FROM eh_lines AS b
WHERE kind <> 'blank'
GROUP BY block
"""


@dataclass(frozen=True)
class Checks:
    """What one kind of CoNLL-U file must satisfy: SQL queries over the staged tables, each returning
    (line_no, problem); and, unless ``cycle`` is None, that every word reaches a root through its heads
    (``cycle`` is the problem, with ``{word}`` for the word's ID)."""

    queries: tuple[str, ...]
    cycle: str | None = None


def stage(con, source: Source) -> None:
    """Read ``source`` into the staging tables (replacing what they held)."""
    con.execute(_STAGE_LINES, {"path": source.path, "max_line": MAX_LINE_BYTES})
    con.execute(_STAGE_TOKENS)
    con.execute(_STAGE_SENTENCES)


def check(con, source: Source, checks: Checks) -> None:
    """Raise :class:`InputError` for the first problem by line that ``checks`` find in the staged file,
    saying how many more there are."""
    found = _first_problem(con, checks.queries)
    if checks.cycle is not None:
        cycle = _first_cycle(con, checks.cycle, found[0] if found else None)
        if cycle is not None:
            found = (cycle[0], cycle[1], found[2] + 1 if found else 0)
    if found is not None:
        line, problem, more = found
        raise InputError(source.name, line, problem, more)


def read(con, source: Source, checks: Checks, query: str) -> list[tuple]:
    """Stage ``source``, check it, and return the rows of ``query`` over the staged tables (dropped after)."""
    stage(con, source)
    try:
        check(con, source, checks)
        return con.execute(query).fetchall()
    finally:
        drop_staging(con)


def drop_staging(con) -> None:
    for table in STAGING_TABLES:
        con.execute(f"DROP TABLE IF EXISTS {table}")


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


def _first_cycle(con, problem: str, before_line: int | None = None) -> tuple[int, str, int] | None:
    """Cycles, where IDs and heads are sane: walk every word up to its root with numpy.

    With ``before_line`` (the first other problem) only the sentences that end before it are
    walked: they have no other problem, and a cycle anywhere else would come later anyway.
    """
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
        return int(np.asarray(cols["line_no"])[err.index]), problem.format(word=word), 0
    return None
