"""The warehouse: one DuckDB file with evalhouse's base tables, views and SQL functions.

Python API (the CLI is a thin layer over these calls)::

    import evalhouse

    with evalhouse.connect("warehouse.duckdb") as wh:
        wh.ingest_treebank(["en_ewt-ud-test.conllu"])            # -> [CorpusSummary(...)]
        wh.sql("select * from corpus_complexity").df()             # a DuckDB relation
        wh.export_view("sentence_complexity", "out.parquet", corpus=["en_ewt-test"])
        wh.export_conllu("en_ewt-test", "roundtrip.conllu")

Opening read-write applies ``schema/*.sql`` (CREATE TABLE IF NOT EXISTS) and ``sql/*.sql`` (CREATE
OR REPLACE VIEW, in dependency order found with sqlglot); opening read-only changes nothing.
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Iterable, Sequence

from evalhouse import __version__
from evalhouse.loaders.errors import InputError

DEFAULT_DB = "warehouse.duckdb"
EXPORT_FORMATS = ("parquet", "csv", "json")


class WarehouseError(Exception):
    """A problem with the warehouse itself (locked, unknown corpus or view, existing corpus)."""


@dataclass(frozen=True)
class CorpusSummary:
    corpus: str
    files: tuple[str, ...]
    sentences: int
    words: int
    edges: int
    normalisations: tuple[str, ...]


@dataclass(frozen=True)
class SqlFile:
    name: str
    text: str
    kind: str  # "table" or "view"


def _read_sql_package(package: str, kind: str) -> list[SqlFile]:
    files = []
    for entry in sorted(resources.files(package).iterdir(), key=lambda p: p.name):
        if entry.name.endswith(".sql"):
            files.append(SqlFile(entry.name[:-4], entry.read_text(encoding="utf-8"), kind))
    return files


@lru_cache(maxsize=1)
def schema_files() -> tuple[SqlFile, ...]:
    """DDL of the base tables (``schema/``), one file per table."""
    return tuple(_read_sql_package("evalhouse.schema", "table"))


@lru_cache(maxsize=1)
def view_files() -> tuple[SqlFile, ...]:
    """View definitions (``sql/``) in dependency order: a view comes after the views it reads."""
    import sqlglot
    from sqlglot import exp

    files = {f.name: f for f in _read_sql_package("evalhouse.sql", "view")}
    depends: dict[str, set[str]] = {}
    for name, f in files.items():
        refs: set[str] = set()
        for statement in sqlglot.parse(f.text, read="duckdb"):
            if statement is None:
                continue
            refs |= {t.name for t in statement.find_all(exp.Table)}
        depends[name] = (refs & files.keys()) - {name}
    ordered: list[str] = []
    seen: set[str] = set()

    def visit(name: str, stack: tuple[str, ...] = ()) -> None:
        if name in seen:
            return
        if name in stack:
            raise RuntimeError(f"views depend on each other in a cycle: {' -> '.join(stack + (name,))}")
        for dep in sorted(depends[name]):
            visit(dep, stack + (name,))
        seen.add(name)
        ordered.append(name)

    for name in sorted(files):
        visit(name)
    return tuple(files[n] for n in ordered)


def _is_lock_error(err: Exception) -> bool:
    text = str(err).lower()
    return "lock" in text and ("conflicting" in text or "could not set lock" in text)


class Warehouse:
    """A connection to an evalhouse warehouse (a DuckDB file, or ``:memory:``)."""

    def __init__(self, path: str | os.PathLike = DEFAULT_DB, read_only: bool = False,
                 memory_limit: str | None = None):
        import duckdb

        self.path = os.fspath(path)
        self.read_only = read_only
        if read_only and self.path != ":memory:" and not os.path.exists(self.path):
            raise WarehouseError(f"{self.path}: no such warehouse")
        # DuckDB's buffer manager (its cache of table blocks and the working memory of joins and
        # aggregates) grows up to memory_limit, 80% of RAM by default; past it, operators spill to
        # <db>.tmp. A cap bounds the process's memory whatever the warehouse's size (BENCHMARKS.md).
        config = {} if memory_limit is None else {"memory_limit": str(memory_limit)}
        try:
            self.con = duckdb.connect(self.path, read_only=read_only, config=config)
        except duckdb.ParserException as err:
            raise ValueError(f"--memory-limit {memory_limit!r}: {str(err).split(': ', 1)[-1]}") from None
        except duckdb.IOException as err:
            if _is_lock_error(err):
                raise WarehouseError(
                    f"{self.path}: database is locked: another process is writing to it; "
                    "try again when it has finished (readers can open it with read-only access)") from None
            raise WarehouseError(f"{self.path}: cannot open: {err}") from None
        from evalhouse.analysis.udfs import register_udfs

        register_udfs(self.con)
        if not read_only:
            self.apply_schema()

    # --- lifecycle ---------------------------------------------------------------------
    def __enter__(self) -> "Warehouse":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.con.close()

    def apply_schema(self) -> None:
        """Create missing base tables and (re)create every view with its comments."""
        self.con.execute("BEGIN")
        try:
            for f in schema_files():
                self.con.execute(f.text)
            for f in view_files():
                self.con.execute(f.text)
            self.con.execute("COMMIT")
        except Exception:
            self.con.execute("ROLLBACK")
            raise

    # --- queries -----------------------------------------------------------------------
    def sql(self, query: str, params: Sequence | dict | None = None):
        """Run a query; returns a DuckDB relation (``.df()``, ``.fetchall()``, ...) or None."""
        if params is None:
            return self.con.sql(query)
        return self.con.execute(query, params)

    def corpora(self) -> list[str]:
        return [r[0] for r in self.con.execute("SELECT corpus FROM corpora ORDER BY corpus").fetchall()]

    def views(self) -> list[tuple[str, str]]:
        """(view name, description) for every evalhouse view."""
        names = [f.name for f in view_files()]
        rows = dict(self.con.execute(
            "SELECT view_name, comment FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'").fetchall())
        return [(n, rows.get(n) or "") for n in sorted(names)]

    def columns(self, relation: str) -> list[tuple[str, str, str]]:
        """(column, type, description) of a table or view."""
        return [tuple(r) for r in self.con.execute(
            "SELECT column_name, data_type, coalesce(comment, '') FROM duckdb_columns() "
            "WHERE table_name = $name AND schema_name = 'main' ORDER BY column_index", {"name": relation}).fetchall()]

    # --- ingest ------------------------------------------------------------------------
    def ingest_treebank(self, paths: Iterable[str | os.PathLike], corpus: str | None = None,
                        language: str | None = None, replace: bool = False,
                        progress=None, input_of: str | None = None) -> list[CorpusSummary]:
        """Ingest CoNLL-U files (or directories of them) in one transaction.

        Without ``corpus`` each file becomes the corpus named after it (UD naming; split files of one
        treebank share a name); with ``corpus`` all files are one corpus, in the order given.
        With ``input_of`` the corpus is recorded as the generation input of that reference corpus
        (``corpus_inputs``): sentence i encodes reference sentence i, which is checked (same number of
        sentences, same number of words in each).
        Raises :class:`InputError` (bad input) or :class:`WarehouseError`; either way nothing changes.
        """
        from evalhouse.loaders.treebank import corpus_name_for, expand_inputs, ingest_files

        files = expand_inputs(paths)
        if not files:
            raise WarehouseError("no input files")
        groups: dict[str, list[str]] = {}
        meta: dict[str, tuple[str | None, str | None]] = {}
        for f in files:
            name = corpus_name_for(f) if f != "-" else None
            key = corpus or (name.corpus if name else None)
            if key is None:
                raise WarehouseError("reading standard input needs --corpus NAME")
            groups.setdefault(key, []).append(f)
            lang = language or (name.language if name else None)
            split = name.split if name else None
            if key in meta and meta[key] != (lang, split):
                lang, split = language or meta[key][0], None
            meta[key] = (lang, split)
        con = self.con
        con.execute("BEGIN")
        summaries = []
        try:
            now = _dt.datetime.now(_dt.timezone.utc)
            for key, group in groups.items():
                exists = con.execute("SELECT count(*) FROM corpora WHERE corpus = $c", {"c": key}).fetchone()[0]
                if exists and not replace:
                    raise WarehouseError(f"corpus '{key}' is already in {self.path}; use --replace to replace it")
                if exists:
                    scored = con.execute("SELECT count(*) FROM submissions WHERE corpus = $c", {"c": key}).fetchone()[0]
                    if scored:
                        raise WarehouseError(
                            f"corpus '{key}' has {scored} submission(s) scored against it; replacing it would "
                            "invalidate their scores (ingest the new version under another name)")
                    self._delete_corpus(key)
                results = ingest_files(con, group, key, progress=progress)
                normalisations = [f"{Path(r.source.name).name}: {n}" for r in results for n in r.normalisations]
                lang, split = meta[key]
                con.execute(
                    "INSERT INTO corpora VALUES ($corpus, $language, $split, $files, $sha, $sentences, $words, $tokens, "
                    "$mwt, $empty, $edges, $norm, $version, $now)",
                    {"corpus": key, "language": lang, "split": split,
                     "files": [r.source.name for r in results], "sha": [r.source.sha256 for r in results],
                     "sentences": sum(r.sentences for r in results), "words": sum(r.words for r in results),
                     "tokens": sum(r.tokens for r in results), "mwt": sum(r.multiword_tokens for r in results),
                     "empty": sum(r.empty_nodes for r in results), "edges": sum(r.edges for r in results),
                     "norm": normalisations, "version": __version__, "now": now})
                if input_of is not None:
                    self._link_input(key, input_of, results[0].source.name)
                summaries.append(CorpusSummary(key, tuple(r.source.name for r in results),
                                               sum(r.sentences for r in results), sum(r.words for r in results),
                                               sum(r.edges for r in results), tuple(normalisations)))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        return summaries

    # --- system outputs ------------------------------------------------------------------
    def ingest_outputs(self, path: str | os.PathLike | None = None, reference: str | None = None,
                       team: str | None = None, run: str | None = None, format: str = "auto",
                       manifest: str | os.PathLike | None = None, replace: bool = False, progress=None):
        """Ingest system outputs against a reference corpus, all in one transaction.

        ``path`` is one output file (``team`` and ``run`` required) or a campaign directory laid out as
        ``DIR/<team>/<run>/<file>``; or give ``manifest``, a CSV of path, team, run[, format].
        Returns a list of :class:`evalhouse.outputs.SubmissionSummary`.
        """
        from evalhouse.loaders.outputs import SubmissionFile, campaign_files, read_manifest
        from evalhouse.outputs import ingest_submissions

        if reference is None:
            raise WarehouseError("outputs need a reference corpus (--reference CORPUS)")
        if (path is None) == (manifest is None):
            raise WarehouseError("give either an output file or directory, or --manifest FILE")
        if manifest is not None:
            if team or run:
                raise WarehouseError("--team and --run come from the manifest; do not give them with --manifest")
            files = read_manifest(manifest)
        elif os.path.isdir(path):
            if team or run:
                raise WarehouseError("--team and --run come from the directory layout DIR/<team>/<run>/<file>; "
                                     "do not give them with a directory")
            files = campaign_files(path)
            for f in files:
                f.format = format
        else:
            if not team or not run:
                raise WarehouseError("an output file needs --team and --run")
            files = [SubmissionFile(os.fspath(path), team, run, format)]
        return ingest_submissions(self, files, reference, replace=replace, progress=progress)

    def ingest_judgements(self, path: str | os.PathLike) -> int:
        """Ingest human judgements (CSV: team, run, corpus, sent_id, annotator, criterion, score)."""
        from evalhouse.outputs import ingest_judgements

        return ingest_judgements(self, path)

    def _link_input(self, corpus: str, reference: str, source_name: str) -> None:
        con = self.con
        if reference == corpus or reference not in self.corpora():
            raise WarehouseError(f"--input-of {reference}: no such reference corpus in {self.path}")
        mismatch = con.execute(
            """WITH i AS (SELECT s.position, s.first_line, count(n.id) AS words FROM sentences s
                          LEFT JOIN nodes n USING (corpus, position) WHERE s.corpus = $i GROUP BY ALL),
                    r AS (SELECT s.position, count(n.id) AS words FROM sentences s
                          LEFT JOIN nodes n USING (corpus, position) WHERE s.corpus = $r GROUP BY ALL)
               SELECT coalesce(i.position, r.position), i.first_line, i.words, r.words
               FROM i FULL JOIN r USING (position)
               WHERE i.words IS DISTINCT FROM r.words ORDER BY 1 LIMIT 1""", {"i": corpus, "r": reference}).fetchone()
        if mismatch:
            pos, line, got, want = mismatch
            if got is None:
                raise InputError(source_name, None, f"has fewer sentences than reference corpus {reference} "
                                 f"(nothing for its sentence {pos})")
            if want is None:
                raise InputError(source_name, line, f"sentence {pos} has no counterpart in reference corpus {reference}")
            raise InputError(source_name, line, f"sentence {pos} has {got} words but sentence {pos} of reference "
                             f"corpus {reference} has {want}: it cannot be its input")
        n = con.execute("SELECT count(*) FROM sentences WHERE corpus = $c", {"c": corpus}).fetchone()[0]
        con.execute("INSERT INTO corpus_inputs VALUES ($c, $r, $n)", {"c": corpus, "r": reference, "n": n})

    CORPUS_TABLES = ("corpus_inputs", "sentence_tree_metrics", "edges", "empty_nodes", "multiword_tokens", "nodes", "sentences", "corpora")

    def _delete_corpus(self, corpus: str) -> None:
        for table in self.CORPUS_TABLES:
            self.con.execute(f"DELETE FROM {table} WHERE corpus = $c", {"c": corpus})

    # --- export ------------------------------------------------------------------------
    def export_view(self, view: str, out: str | os.PathLike, format: str | None = None,
                    corpus: Sequence[str] | None = None) -> int:
        """Write a view or table to Parquet, CSV or JSON (an array of row objects); returns rows written.

        ``corpus`` filters are bound parameters, never pasted into SQL.
        """
        from evalhouse.export import export_relation

        return export_relation(self, view, out, format=format, corpus=corpus)

    def export_conllu(self, corpus: str, out: str | os.PathLike) -> int:
        """Write a corpus back as CoNLL-U (byte-identical to a canonical input); returns sentences."""
        from evalhouse.loaders.conllu_writer import write_corpus

        if corpus not in self.corpora():
            raise WarehouseError(f"no corpus '{corpus}' in {self.path} (have: {', '.join(self.corpora()) or 'none'})")
        return write_corpus(self.con, corpus, out)


def connect(path: str | os.PathLike | None = None, read_only: bool = False,
            memory_limit: str | None = None) -> Warehouse:
    """Open (creating if needed) a warehouse: ``path``, else ``$EVALHOUSE_DB``, else ./warehouse.duckdb.

    ``memory_limit`` (e.g. ``"2GB"``; else ``$EVALHOUSE_MEMORY_LIMIT``, else DuckDB's default of 80%
    of RAM) caps DuckDB's memory; larger work spills to a temporary directory beside the file.
    """
    return Warehouse(path or os.environ.get("EVALHOUSE_DB") or DEFAULT_DB, read_only=read_only,
                     memory_limit=memory_limit or os.environ.get("EVALHOUSE_MEMORY_LIMIT") or None)


__all__ = ["Warehouse", "WarehouseError", "InputError", "CorpusSummary", "connect", "schema_files", "view_files"]
