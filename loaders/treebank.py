"""CoNLL-U treebanks into the warehouse: validate, shred into base tables, strip punctuation.

Command::

    $ evalhouse ingest treebank ../shared/data/ud/UD_English-EWT/en_ewt-ud-test.conllu
    en_ewt-test: 2,077 sentences, 25,094 words, 21,182 edges

One code path for every source: :mod:`evalhouse.loaders.conllu` stages the lines (the one CoNLL-U
reader), every UD check below is a set-based SQL statement over them, and the rows go into
``sentences``, ``nodes``, ``multiword_tokens``, ``empty_nodes`` and ``edges`` by SQL as well. The flux
weights and projectivity that need Python are computed by :mod:`evalhouse.ingest.treebanks`, which
calls this module.

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
are renumbered 1..n in surface order. Each edge carries the keys DEA compares, ``head_key`` and
``dependent_key``: :func:`evalhouse.analysis.text.word_key` (folded lemma, or folded form where the
lemma is missing), computed in Python once per distinct (lemma, form) by :func:`stage_word_keys`.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from evalhouse.analysis.text import word_keys
from evalhouse.errors import InputError
from evalhouse.loaders import conllu
from evalhouse.loaders.conllu import Checks, check, stage
from evalhouse.loaders.source import Source, open_source

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

TREEBANK = Checks(tuple(_CHECKS), cycle="cycle: word {word} is not connected to the root (its heads loop)")


def stage_file(con, source: Source) -> None:
    """Read ``source`` into the staging tables (:mod:`evalhouse.loaders.conllu`) and validate it."""
    stage(con, source)
    if con.execute("SELECT count(*) FROM eh_lines WHERE kind = 'token'").fetchone()[0] == 0:
        if con.execute("SELECT count(*) FROM eh_lines WHERE kind = 'comment'").fetchone()[0]:
            first = con.execute("SELECT min(line_no) FROM eh_lines WHERE kind = 'comment'").fetchone()[0]
            raise InputError(source.name, first, "sentence with comments but no words")
        raise InputError(source.name, None, "empty file: no sentence")
    check(con, source, TREEBANK)


_INSERT_SENTENCES = r"""
CREATE OR REPLACE TEMP TABLE eh_sentence_map AS
SELECT block, $offset + row_number() OVER (ORDER BY block) AS position FROM eh_blocks;

INSERT INTO sentences
SELECT $corpus, m.position,
       coalesce(b.sent_id, m.position::VARCHAR),
       c.text,
       coalesce(c.comments, []::VARCHAR[]),
       b.first_line
FROM eh_sentence_map m
JOIN eh_blocks b USING (block)
LEFT JOIN (
    SELECT block,
           list(line ORDER BY line_no) AS comments,
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
    SELECT n.position, n.id, n.head, n.deprel, n.lemma, n.upos, split_part(n.deprel, ':', 1) = 'punct' AS is_punct,
           k.key
    FROM nodes n JOIN eh_word_keys k ON k.lemma = n.lemma AND k.form = n.form
    WHERE n.corpus = $corpus AND n.position > $offset
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
    SELECT w.position, w.id, coalesce(c.head_id, w.head) AS head_id, w.deprel, w.lemma, w.upos, w.key,
           row_number() OVER (PARTITION BY w.position ORDER BY w.id) AS new_position
    FROM words w LEFT JOIN climb c USING (position, id)
    WHERE NOT w.is_punct
)
SELECT $corpus, d.position, d.new_position, coalesce(h.new_position, 0),
       d.deprel, split_part(d.deprel, ':', 1), d.lemma, h.lemma, d.upos, h.upos,
       d.new_position - h.new_position, d.id, d.head_id, d.key, h.key
FROM kept d LEFT JOIN kept h ON h.position = d.position AND h.id = d.head_id
"""


def stage_word_keys(con, corpus: str, offset: int) -> None:
    """The temporary table ``eh_word_keys(lemma, form, key)``: the word key
    (:func:`evalhouse.analysis.text.word_keys`) of every distinct (lemma, form) among the nodes of
    ``corpus`` after position ``offset``, which the ``edges`` insert joins. SQL never folds case
    itself: DuckDB's lower() differs from the folding of the alignment (analysis/text.py)."""
    # pyarrow (~0.1 s to import) only when a treebank is ingested: read-only commands do not pay for it
    import pyarrow as pa

    pairs = con.execute("SELECT DISTINCT lemma, form FROM nodes WHERE corpus = $corpus AND position > $offset",
                        {"corpus": corpus, "offset": offset}).fetchall()
    lemmas, forms = [p[0] for p in pairs], [p[1] for p in pairs]
    con.register("eh_word_keys_input", pa.table({"lemma": pa.array(lemmas, pa.string()),
                                                 "form": pa.array(forms, pa.string()),
                                                 "key": pa.array(word_keys(lemmas, forms), pa.string())}))
    try:
        con.execute("CREATE OR REPLACE TEMP TABLE eh_word_keys AS SELECT * FROM eh_word_keys_input")
    finally:
        con.unregister("eh_word_keys_input")


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
    stage_word_keys(con, corpus, offset)
    con.execute(_INSERT_EDGES, params)
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
    conllu.drop_staging(con)
    con.execute("DROP TABLE IF EXISTS eh_sentence_map")
    con.execute("DROP TABLE IF EXISTS eh_word_keys")


ProgressFn = Callable[[str, int, int], None]


def ingest_files(con, files: list[str], corpus: str, offset: int = 0,
                 progress: ProgressFn | None = None) -> list[FileResult]:
    """Load ``files`` (paths, or ``-`` for standard input) as one corpus; caller owns the transaction."""
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
