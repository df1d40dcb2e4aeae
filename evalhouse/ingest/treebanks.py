"""``evalhouse ingest treebank``: CoNLL-U treebanks into ``corpora``, ``sentences``, ``nodes``, ``edges``
and the other tree tables, in one transaction.

    $ evalhouse ingest treebank ../shared/data/ud-v2.3/en_ewt-ud-test.conllu
    en_ewt-test: 2,077 sentences, 25,094 words, 21,182 edges

The files are read, validated and shredded by :mod:`evalhouse.loaders.treebank` (set-based SQL). Here:
corpus names and languages (UD file names), refusal or replacement of an existing corpus, the flux
weights and projectivity that need Python (:mod:`evalhouse.analysis.trees`, stored in
``sentence_tree_metrics``), the ``corpora`` row, and the link of a generation-input corpus to its
reference (``corpus_inputs``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, ContextManager, Iterable

from evalhouse.names import check_names
from evalhouse.errors import InputError, WarehouseError
from evalhouse.ingest.writer import Writer
from evalhouse.loaders import arrow_arrays
from evalhouse.loaders.source import ByteStream, open_bytes
from evalhouse.loaders.treebank import (
    FileResult,
    ProgressFn,
    TreebankReader,
    _duplicate_message,
    corpus_name_for,
    expand_inputs,
)
from evalhouse.progress import ProgressLike, as_progress
from evalhouse.version import __version__

if TYPE_CHECKING:
    import duckdb
    from evalhouse.warehouse import Warehouse


Bounded = Callable[[], ContextManager]

# What each tree table stores from the loader's rows (:class:`evalhouse.loaders.treebank.TreebankReader`):
# table -> (its columns, the SELECT list over the rows); ``eh_corpus`` is the corpus name. A table not
# listed stores the rows' columns as they are.
_SELECTS = {
    "sentences": (
        "corpus, position, sent_id, text, comments, first_line",
        "eh_corpus, position, coalesce(sent_id, position::VARCHAR), text, comments, first_line",
    ),
    "edges": (
        "corpus, position, dependent, head, deprel, relation, dependent_lemma, head_lemma, dependent_upos, "
        "head_upos, distance, dependent_id, head_id, depth, dependent_key, head_key",
        "eh_corpus, position, dependent, head, deprel, split_part(deprel, ':', 1), dependent_lemma, head_lemma, "
        "dependent_upos, head_upos, CASE WHEN head > 0 THEN dependent - head END, dependent_id, head_id, "
        "depth, dependent_key, head_key",
    ),
}


def _insert_sql(table: str, rows) -> str:
    if table in _SELECTS:
        columns, select = _SELECTS[table]
    else:
        names = ", ".join(rows.column_names)
        columns, select = "corpus, " + names, "eh_corpus, " + names
    return f"INSERT INTO {table} ({columns}) SELECT {select} FROM eh_rows"


# Lines are those of the sent_id comments (a sentence's comments are its first lines, in order). The check
# runs under the 64 MiB an ingest streams under (evalhouse.memory), so it holds little: it groups the
# corpus's sent_ids by their hash (a 309-byte sent_id per sentence made grouping the strings run out of
# memory on duckdb 1.5.6), keeps only the sentences whose hash repeats (a collision is harmless: the sent_ids
# themselves are compared after), works out their lines before any join (joining them with their comments
# ran out of memory when every sentence was repeated) and pairs each with the first sentence of its sent_id,
# the one the report names (no pairs of every two sentences sharing one). With no memory limit, joining
# every sentence with its comments took 440 MB at 15M words.
_DUPLICATE_SENT_ID = r"""
WITH repeated AS (
    SELECT hash(sent_id) AS hashed FROM sentences WHERE corpus = $corpus
    GROUP BY hashed HAVING count(*) > 1 AND max(position) > $offset
), labels AS (
    SELECT position, sent_id, first_line,
           list_position(list_transform(comments, lambda c: regexp_matches(c, '^#\s*sent_id\s*=')), true) AS comment
    FROM sentences
    WHERE corpus = $corpus AND hash(sent_id) IN (SELECT hashed FROM repeated)
), lines AS MATERIALIZED (
    SELECT position, sent_id, first_line - 1 + coalesce(comment, 1) AS line, comment IS NOT NULL AS labelled
    FROM labels
), firsts AS (
    SELECT sent_id, min(position) AS first_position FROM lines GROUP BY sent_id
)
SELECT s.line, s.sent_id, p.line, p.position > $offset, s.labelled, p.labelled
FROM lines s
JOIN firsts f ON f.sent_id = s.sent_id
JOIN lines p ON p.position = f.first_position
WHERE s.position > $offset AND s.position > f.first_position
ORDER BY s.position
LIMIT 1
"""


def load_stream(
    con: duckdb.DuckDBPyConnection, stream: ByteStream, corpus: str, offset: int, bounded: Bounded | None = None
) -> FileResult:
    """Read, check and store one file (a :class:`ByteStream`) as sentences ``offset + 1 ...`` of ``corpus``.

    The loader's rows (:class:`TreebankReader`) are written as soon as each chunk is checked, through one
    :class:`Writer`; after the first problem nothing more is written and the caller's transaction is rolled
    back. The chunks are inserted, and the file's ``sent_id`` values checked for duplicates, inside
    ``bounded()``, when given: the warehouse's lowered memory limit
    (:meth:`evalhouse.warehouse.Warehouse.streaming_memory`)."""
    reader = TreebankReader(stream, offset)
    with bounded() if bounded is not None else contextlib.nullcontext():
        writer = Writer(con)
        try:
            for table, rows in reader.batches():
                # the corpus name as a one-entry dictionary column of the rows (the rows reach DuckDB through a
                # replacement scan, which takes no query parameters)
                writer.put(
                    _insert_sql(table, rows),
                    rows.append_column("eh_corpus", arrow_arrays.repeated(corpus, rows.num_rows)),
                )
        except BaseException:
            try:
                writer.close()
            except BaseException:
                pass  # the reading error is the one to report
            raise
        writer.close()
        params = {"corpus": corpus, "offset": offset}
        dup = next(iter(con.execute(_DUPLICATE_SENT_ID, params).fetchall()), None)  # all fetched: duckdb 2.0 (README)
    if dup:
        raise InputError(stream.name, dup[0], _duplicate_message(corpus, *dup[1:]))
    return reader.result()


def ingest_files(
    con: duckdb.DuckDBPyConnection,
    files: list[str],
    corpus: str,
    offset: int = 0,
    progress: ProgressFn | None = None,
    bounded: Bounded | None = None,
) -> list[FileResult]:
    """Load ``files`` (paths, or ``-`` for standard input) as one corpus; caller owns the transaction.
    ``bounded``: see :func:`load_stream`.

    DuckDB runs on one thread meanwhile (restored after): the INSERTs already run beside the reading
    thread (:class:`Writer`), and a second DuckDB thread compressing the same appends raised the
    process's CPU time from 6.8 s to 9.3 s per million words on this 2-core machine (BENCHMARKS.md)."""
    results = []
    threads = con.execute("SELECT current_setting('threads')").fetchall()[0][0]
    con.execute("SET threads = 1")
    try:
        for i, path in enumerate(files):
            if progress:
                progress(path, i, len(files))
            target = sys.stdin.buffer if path == "-" else path
            with open_bytes(target, name="<stdin>" if path == "-" else None) as stream:
                result = load_stream(con, stream, corpus, offset, bounded)
            offset += result.sentences
            results.append(result)
    except BaseException:
        try:
            con.execute(f"SET threads = {int(threads)}")
        except Exception:  # an aborted transaction refuses it until ROLLBACK; the first error is the one to see
            pass
        raise
    con.execute(f"SET threads = {int(threads)}")
    return results


@dataclass(frozen=True)
class CorpusSummary:
    corpus: str
    files: tuple[str, ...]
    sentences: int
    words: int
    edges: int
    normalisations: tuple[str, ...]
    links_dropped: tuple[str, ...] = ()  # input corpora that no longer fit this replaced reference
    same_files: tuple[str, ...] = ()  # files whose bytes (SHA-256) another corpus already holds: a warning
    missing_lemmas: int = 0  # words whose LEMMA is _ (see corpora.missing_lemmas)

    @property
    def missing_lemmas_note(self) -> str:
        """What the ingest summary says about missing lemmas ("" when every word has one)."""
        if not self.missing_lemmas:
            return ""
        if self.missing_lemmas == self.words:
            return f"no word has a lemma (LEMMA _ for all {self.words:,}): outputs cannot be scored against this corpus"
        share = self.missing_lemmas / self.words
        return (
            f"{self.missing_lemmas:,} of {self.words:,} words ({share:.1%}) have no lemma (LEMMA _): DEA and "
            "lemma BLEU compare them by their case-folded form"
        )


def _group(files: list[str], corpus: str | None, language: str | None):
    """corpus -> its files, and corpus -> (language, split), from UD file names unless given."""
    groups: dict[str, list[str]] = {}
    meta: dict[str, tuple[str | None, str | None]] = {}
    for f in files:
        name = corpus_name_for(f) if f != "-" else None
        key = corpus if corpus is not None else (name.corpus if name else None)
        if key is None:
            raise WarehouseError("reading standard input needs a corpus name (`corpus`)")
        groups.setdefault(key, []).append(f)
        lang = language or (name.language if name else None)
        split = name.split if name else None
        if key in meta and meta[key] != (lang, split):
            lang, split = language or meta[key][0], None
        meta[key] = (lang, split)
    return groups, meta


def ingest_treebank(
    wh: Warehouse,
    paths: Iterable[str | os.PathLike],
    corpus: str | None = None,
    language: str | None = None,
    replace: bool = False,
    progress: ProgressLike | None = None,
    input_of: str | None = None,
) -> list[CorpusSummary]:
    """Ingest CoNLL-U files (or directories of them) into warehouse ``wh`` in one transaction.

    Without ``corpus`` each file becomes the corpus named after it (UD naming; split files of one
    treebank share a name); with ``corpus`` all files are one corpus, in the order given.
    With ``input_of`` the corpus is recorded as the generation input of that reference corpus
    (``corpus_inputs``): sentence i encodes reference sentence i, which is checked (same number of
    sentences, same number of words in each).
    Raises :class:`InputError` (bad input) or :class:`WarehouseError`; either way nothing changes.
    """
    check_names(corpus=corpus)
    files = expand_inputs(paths)
    if not files:
        raise WarehouseError("no input files")
    groups, meta = _group(files, corpus, language)
    summaries = []
    task = as_progress(progress).task("reading", total=len(files), unit="files")
    with task, wh.transaction():
        for key, group in groups.items():
            # refused when submissions or dependency runs are scored against the corpus (evalhouse.stored)
            room = wh.make_room("corpus", {"corpus": key}, replace, f"corpus '{key}'")
            summary = store_corpus(wh, key, group, *meta[key], progress=_file_steps(task))
            if input_of is not None:
                link_input(wh, key, input_of, summary.files[0])
            if room.replaced:
                summary = dataclasses.replace(summary, links_dropped=recheck_inputs(wh, key))
            summary = dataclasses.replace(summary, same_files=same_files(wh, key))
            summaries.append(summary)
    return summaries


def _file_steps(task):
    """The loader's per-file callback, moving ``task`` on by one file each time the next one starts (and
    for the last one when the loader is done with the corpus: see :func:`store_corpus`)."""
    started = []

    def step(path: str, i: int, n: int) -> None:
        if started:
            task.advance(1)
        started.append(path)
        task.describe(path)

    step.finish = lambda: task.advance(1) if started else None  # type: ignore[attr-defined]
    return step


def store_corpus(
    wh: Warehouse,
    corpus: str,
    files: list[str],
    language: str | None = None,
    split: str | None = None,
    progress: ProgressFn | None = None,
) -> CorpusSummary:
    """Store ``files`` as the new treebank corpus ``corpus`` (inside the caller's transaction)."""
    results = ingest_files(wh.con, files, corpus, progress=progress, bounded=wh.streaming_memory)
    if hasattr(progress, "finish"):
        progress.finish()
    normalisations = [f"{Path(r.name).name}: {n}" for r in results for n in r.normalisations]
    missing = sum(r.missing_lemmas for r in results)
    summary = CorpusSummary(
        corpus,
        tuple(r.name for r in results),
        sum(r.sentences for r in results),
        sum(r.words for r in results),
        sum(r.edges for r in results),
        tuple(normalisations),
        missing_lemmas=missing,
    )
    wh.insert(
        "corpora",
        [
            {
                "corpus": corpus,
                "language": language,
                "split": split,
                "source_files": list(summary.files),
                "sha256": [r.sha256 for r in results],
                "sentences": summary.sentences,
                "words": summary.words,
                "tokens": sum(r.tokens for r in results),
                "multiword_tokens": sum(r.multiword_tokens for r in results),
                "empty_nodes": sum(r.empty_nodes for r in results),
                "edges": summary.edges,
                "normalisations": normalisations,
                "evalhouse_version": __version__,
                "ingested_at": _dt.datetime.now(_dt.timezone.utc),
                "missing_lemmas": missing,
            }
        ],
    )
    return summary


def same_files(wh: Warehouse, corpus: str) -> tuple[str, ...]:
    """The files of ``corpus`` whose SHA-256 is that of a file of another corpus, each as "FILE has the same
    SHA-256 as corpus 'OTHER'" (with the other file's name when it differs). Storing one file under two names is allowed (a treebank split
    and its copy under a task's name), but is more often a mistake; the caller warns."""
    rows = wh.sql(
        """WITH mine AS (SELECT unnest(source_files) AS file, unnest(sha256) AS sha FROM corpora WHERE corpus = $c),
                other AS (SELECT corpus, unnest(source_files) AS file, unnest(sha256) AS sha FROM corpora
                          WHERE corpus <> $c)
           SELECT m.file, o.corpus, o.file FROM mine m JOIN other o USING (sha) ORDER BY o.corpus, m.file, o.file""",
        {"c": corpus},
    ).fetchall()
    return tuple(
        f"{mine} has the same SHA-256 as corpus '{other}'" + ("" if theirs == mine else f" ({theirs})")
        for mine, other, theirs in rows
    )


def _mismatch(wh: Warehouse, corpus: str, reference: str):
    """The first sentence where input corpus ``corpus`` does not fit ``reference`` (position, first line, words
    of the input, words of the reference; None where a corpus has no such sentence), or None."""
    return wh.sql(
        """WITH i AS (SELECT s.position, s.first_line, count(n.id) AS words FROM sentences s
                      LEFT JOIN nodes n USING (corpus, position) WHERE s.corpus = $i GROUP BY ALL),
                r AS (SELECT s.position, count(n.id) AS words FROM sentences s
                      LEFT JOIN nodes n USING (corpus, position) WHERE s.corpus = $r GROUP BY ALL)
           SELECT coalesce(i.position, r.position), i.first_line, i.words, r.words
           FROM i FULL JOIN r USING (position)
           WHERE i.words IS DISTINCT FROM r.words ORDER BY 1 LIMIT 1""",
        {"i": corpus, "r": reference},
    ).fetchone()


def link_input(wh: Warehouse, corpus: str, reference: str, source_name: str) -> None:
    """Record ``corpus`` as the generation input of ``reference`` (``corpus_inputs``), after checking that
    sentence i of one has as many words as sentence i of the other."""
    if reference == corpus or reference not in wh.corpora():
        raise WarehouseError(f"`input_of` {reference}: no such reference corpus in {wh.path}")
    mismatch = _mismatch(wh, corpus, reference)
    if mismatch:
        pos, line, got, want = mismatch
        if got is None:
            raise InputError(
                source_name,
                None,
                f"has fewer sentences than reference corpus {reference} (nothing for its sentence {pos})",
            )
        if want is None:
            raise InputError(source_name, line, f"sentence {pos} has no counterpart in reference corpus {reference}")
        raise InputError(
            source_name,
            line,
            f"sentence {pos} has {got} words but sentence {pos} of reference "
            f"corpus {reference} has {want}: it cannot be its input",
        )
    n = wh.sql("SELECT count(*) FROM sentences WHERE corpus = $c", {"c": corpus}).fetchone()[0]
    wh.insert("corpus_inputs", [{"corpus": corpus, "reference": reference, "sentences": n}])


def recheck_inputs(wh: Warehouse, reference: str) -> tuple[str, ...]:
    """After ``reference`` was replaced: keep the ``corpus_inputs`` links of the input corpora that still fit
    it sentence by sentence (the check of :func:`link_input`), delete the others (a stale link would
    pair sentences that no longer correspond). Returns why each deleted link went."""
    dropped = []
    for (corpus,) in wh.sql(
        "SELECT corpus FROM corpus_inputs WHERE reference = $r ORDER BY corpus", {"r": reference}
    ).fetchall():
        mismatch = _mismatch(wh, corpus, reference)
        if mismatch is None:
            continue
        pos, _, got, want = mismatch
        wh.sql("DELETE FROM corpus_inputs WHERE corpus = $c", {"c": corpus}).fetchall()
        if got is None:
            why = f"it has no sentence {pos}"
        elif want is None:
            why = f"the new {reference} has no sentence {pos}"
        else:
            why = f"its sentence {pos} has {got} words, that of the new {reference} {want}"
        dropped.append(f"{corpus} ({why})")
    return tuple(dropped)
