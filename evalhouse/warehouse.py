"""The warehouse: one DuckDB file with evalhouse's base tables, views and SQL functions.

Python API (the CLI is a thin layer over these calls)::

    import evalhouse

    with evalhouse.connect("warehouse.duckdb") as wh:
        wh.ingest_treebank(["en_ewt-ud-test.conllu"])            # -> [CorpusSummary(...)]
        wh.sql("select * from corpus_complexity").df()             # a DuckDB relation
        wh.export_view("sentence_complexity", "out.parquet", corpus=["en_ewt-test"])
        wh.export_conllu("en_ewt-test", "roundtrip.conllu")

This module holds the plumbing every ingest path shares, and nothing else:

* the connection (``--memory-limit``, the lock message, the SQL functions of
  :mod:`evalhouse.analysis.udfs`);
* the schema: ``schema/<kind>/<table>.sql`` and ``sql/<family>/<view>.sql``, applied when a
  warehouse is opened read-write (CREATE TABLE IF NOT EXISTS; CREATE OR REPLACE VIEW in dependency
  order, found with sqlglot); opening read-only changes nothing;
* :meth:`Warehouse.transaction` (an ingest is one transaction), :meth:`Warehouse.insert` (rows into a
  base table, columns by name) and :data:`STORED` with :meth:`Warehouse.make_room` (what a user stores, the tables that
  hold it, and its refusal or replacement).

The ``ingest_*`` and ``export_*`` methods hand over to :mod:`evalhouse.ingest` and
:mod:`evalhouse.export`, where the work is done.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Iterable, Iterator, Mapping, Sequence

import duckdb

from evalhouse.analysis.udfs import register_udfs
from evalhouse.errors import InputError, OptionError, WarehouseError
from evalhouse.export import conllu, relation
from evalhouse.ingest import judgements, outputs, treebanks
from evalhouse.ingest.treebanks import CorpusSummary

DEFAULT_DB = "warehouse.duckdb"


# --- the schema ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SqlFile:
    name: str
    text: str
    kind: str  # "table" or "view"
    folder: str = ""  # schema/<kind>/ or sql/<family>/


def _read_sql_package(package: str, kind: str) -> list[SqlFile]:
    """Every ``*.sql`` file one folder below ``package``, sorted by name."""
    files = []
    for folder in resources.files(package).iterdir():
        if folder.is_dir() and not folder.name.startswith(("_", ".")):
            files += [SqlFile(f.name[:-4], f.read_text(encoding="utf-8"), kind, folder.name)
                      for f in folder.iterdir() if f.name.endswith(".sql")]
    return sorted(files, key=lambda f: f.name)


@lru_cache(maxsize=1)
def schema_files() -> tuple[SqlFile, ...]:
    """DDL of the base tables (``schema/<kind>/``), one file per table, by name."""
    return tuple(_read_sql_package("evalhouse.schema", "table"))


@lru_cache(maxsize=1)
def view_files() -> tuple[SqlFile, ...]:
    """View definitions (``sql/<family>/``) in dependency order: a view comes after the views it reads."""
    # sqlglot (~0.1 s to import) only when views are created or listed: `evalhouse sql` does not pay for it
    import sqlglot.expressions

    files = {f.name: f for f in _read_sql_package("evalhouse.sql", "view")}
    depends: dict[str, set[str]] = {}
    for name, f in files.items():
        refs: set[str] = set()
        for statement in sqlglot.parse(f.text, read="duckdb"):
            if statement is not None:
                refs |= {t.name for t in statement.find_all(sqlglot.expressions.Table)}
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


# --- what users store ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Stored:
    """A kind of thing stored in the warehouse: the key columns that name one, and the tables that hold
    its rows, owner (the table that says it exists) last. A table may be given as ``(table, condition)``
    when only some of its rows belong to this kind (``alignments`` holds several kinds of links)."""

    key: tuple[str, ...]
    tables: tuple[str | tuple[str, str], ...]

    @property
    def owner(self) -> str:
        last = self.tables[-1]
        return last if isinstance(last, str) else last[0]


# Deleting one of these removes its rows from every table listed, in this order; nothing else deletes.
STORED: dict[str, Stored] = {
    "corpus": Stored(("corpus",), ("corpus_inputs", "sentence_tree_metrics", "edges", "empty_nodes",
                                   "multiword_tokens", "nodes", "sentences", "corpora")),
    "submission": Stored(("team", "run", "corpus"), (
        "output_sentences", "output_tokens", "sentence_statistics", "submission_sacrebleu", "judgements",
        ("alignments", "pair = 'output-reference'"), "submissions")),
    # gold parses are the run whose team and run are NULL
    "parse run": Stored(("corpus", "team", "run"), ("la_word_scores", "geig_counts", "constituents", "parse_leaves",
                                                    "parse_sentences", "parse_runs")),
    "dependency run": Stored(("corpus", "team", "run"), ("dependency_word_scores", "dependency_runs")),
    "translation corpus": Stored(("corpus",), (
        "pronoun_judgements", "pronoun_analyses", "pronoun_configs", "translation_outputs", "translation_systems",
        ("alignments", "pair IN ('source-reference', 'source-output')"), "segments", "translation_corpora")),
    "translation system": Stored(("corpus", "team", "run"), (
        "pronoun_analyses", "translation_outputs", ("alignments", "pair = 'source-output'"), "translation_systems")),
    "pronoun configuration": Stored(("corpus", "config"), ("pronoun_analyses", "pronoun_configs")),
    "pronoun analyses": Stored(("corpus", "config", "team", "run"), ("pronoun_analyses",)),
    "pronoun judgements": Stored(("corpus",), ("pronoun_judgements",)),
    "pronoun set": Stored(("pronoun_set",), ("pronoun_lists",)),
    # results of `evalhouse analyze`: per submission, per corpus, per pair of submissions
    "analysis": Stored(("team", "run", "corpus"), ("metric_correlations", "projectivity_tests",
                                                   "entropy_dea_correlation", "suspicious_subtrees",
                                                   "dea_relation_intervals")),
    "ensemble": Stored(("corpus",), ("ensemble_choice", "ensemble_scores")),
    "significance": Stored(("corpus", "team_a", "run_a", "team_b", "run_b"), ("paired_significance",)),
}


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _arrow(rows):
    """A mapping of columns or a list of row mappings as an Arrow table (frames are passed through)."""
    # pyarrow (~0.1 s to import) only when rows are written: read-only commands do not pay for it
    import pyarrow as pa

    if isinstance(rows, Mapping):
        return pa.table({k: list(v) if isinstance(v, (tuple, range)) else v for k, v in rows.items()})
    if isinstance(rows, list):
        return pa.Table.from_pylist(rows)
    return rows


def _is_lock_error(err: Exception) -> bool:
    text = str(err).lower()
    return "lock" in text and ("conflicting" in text or "could not set lock" in text)


class Warehouse:
    """A connection to an evalhouse warehouse (a DuckDB file, or ``:memory:``)."""

    def __init__(self, path: str | os.PathLike = DEFAULT_DB, read_only: bool = False,
                 memory_limit: str | None = None):
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
            raise OptionError(f"`memory_limit` {memory_limit!r}: {str(err).split(': ', 1)[-1]}") from None
        except duckdb.IOException as err:
            if _is_lock_error(err):
                raise WarehouseError(
                    f"{self.path}: database is locked: another process is writing to it; "
                    "try again when it has finished (readers can open it with read-only access)") from None
            raise WarehouseError(f"{self.path}: cannot open: {err}") from None
        register_udfs(self.con)
        if not read_only:
            self.apply_schema()

    # --- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> "Warehouse":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.con.close()

    def apply_schema(self) -> None:
        """Create missing base tables and (re)create every view with its comments. A warehouse file
        that already has this schema, every table and view of it, is left as it is: reapplying ~600
        statements costs about 0.2 s of every command that opens it read-write. The schema's
        fingerprint is kept in the macro ``evalhouse_schema()``."""
        files = schema_files() + view_files()
        fingerprint = hashlib.sha256("\n".join(f.text for f in files).encode("utf-8")).hexdigest()
        stored = self.con.execute(
            "SELECT (SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'main' AND table_name IN $tables) "
            "+ (SELECT count(*) FROM duckdb_views() WHERE schema_name = 'main' AND view_name IN $views), "
            "(SELECT any_value(macro_definition) FROM duckdb_functions() WHERE function_name = 'evalhouse_schema')",
            {"tables": [f.name for f in files if f.kind == "table"],
             "views": [f.name for f in files if f.kind == "view"]}).fetchone()
        if stored == (len(files), f"'{fingerprint}'"):
            return
        with self.transaction():
            self.con.execute("\n".join(f.text for f in files))
            self.con.execute(f"CREATE OR REPLACE MACRO evalhouse_schema() AS '{fingerprint}'")

    # --- writing: one transaction, rows by column name, what is stored and its replacement -----
    @contextmanager
    def transaction(self) -> Iterator["Warehouse"]:
        """One transaction: committed when the block ends, rolled back (and the error re-raised) when
        anything in it fails, so the warehouse is exactly as it was."""
        self.con.execute("BEGIN")
        try:
            yield self
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        self.con.execute("COMMIT")

    def insert(self, table: str, rows) -> int:
        """Append ``rows`` to base table ``table``; returns how many.

        ``rows``: a mapping of column name to values (one list or array per column), a list of
        row mappings, or a pandas or Arrow frame. Columns are matched by name (DuckDB casts each value
        to its column's type); a column not given takes its default (NULL).
        """
        rows = _arrow(rows)
        names = list(rows.column_names if hasattr(rows, "column_names") else rows.columns)
        count = rows.num_rows if hasattr(rows, "num_rows") else len(rows)
        if not count:
            return 0
        columns = ", ".join(_ident(n) for n in names)
        self.con.register("eh_insert", rows)
        try:
            self.con.execute(f"INSERT INTO {_ident(table)} ({columns}) SELECT {columns} FROM eh_insert")
        finally:
            self.con.unregister("eh_insert")
        return count

    def has(self, kind: str, key: Mapping[str, object]) -> bool:
        """Whether a ``kind`` (see :data:`STORED`) named by ``key`` is stored."""
        stored = STORED[kind]
        where = " AND ".join(f"{_ident(c)} IS NOT DISTINCT FROM ${c}" for c in stored.key)
        return bool(self.con.execute(f"SELECT count(*) FROM {_ident(stored.owner)} WHERE {where}",
                                     {c: key[c] for c in stored.key}).fetchone()[0])

    def delete(self, kind: str, keys: Iterable[Mapping[str, object]]) -> None:
        """Delete every ``kind`` named by one of ``keys`` (mappings of its key columns) from all the
        tables that hold it. Call it inside :meth:`transaction`."""
        stored = STORED[kind]
        frame = _arrow([{c: k[c] for c in stored.key} for k in keys])
        if not frame.num_rows:
            return
        match = " AND ".join(f"k.{_ident(c)} IS NOT DISTINCT FROM t.{_ident(c)}" for c in stored.key)
        self.con.register("eh_delete", frame)
        try:
            for table in stored.tables:
                table, condition = (table, None) if isinstance(table, str) else table
                self.con.execute(f"DELETE FROM {_ident(table)} AS t WHERE EXISTS (SELECT 1 FROM eh_delete AS k "
                                 f"WHERE {match})" + (f" AND {condition}" if condition else ""))
        finally:
            self.con.unregister("eh_delete")

    def check_room(self, kind: str, key: Mapping[str, object], replace: bool, what: str) -> bool:
        """Whether a ``kind`` named by ``key`` is stored; refused unless ``replace`` (``what`` names it)."""
        if not self.has(kind, key):
            return False
        if not replace:
            raise WarehouseError(f"{what} is already in {self.path}; pass `replace=True` to replace it",
                                 option="replace")
        return True

    def make_room(self, kind: str, key: Mapping[str, object], replace: bool, what: str) -> bool:
        """Before storing a ``kind`` under ``key``: refuse when one is stored and not ``replace``, delete it
        when ``replace``; returns whether one was replaced."""
        if self.check_room(kind, key, replace, what):
            self.delete(kind, [key])
            return True
        return False

    # --- queries -------------------------------------------------------------------------------
    def sql(self, query: str, params: Sequence | dict | None = None):
        """Run a query; returns a DuckDB relation (``.df()``, ``.fetchall()``, ...) or None."""
        if params is None:
            return self.con.sql(query)
        return self.con.execute(query, params)

    def corpora(self) -> list[str]:
        return [r[0] for r in self.con.execute("SELECT corpus FROM corpora ORDER BY corpus").fetchall()]

    def require_corpus(self, corpus: str, what: str = "corpus") -> None:
        """Refuse an unknown treebank corpus, naming the ones there are."""
        have = self.corpora()
        if corpus not in have:
            raise WarehouseError(f"no {what} '{corpus}' in {self.path} (have: {', '.join(have) or 'none'})")

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

    # --- ingest and export (the work is done in evalhouse.ingest and evalhouse.export) ---------
    def ingest_treebank(self, paths: Iterable[str | os.PathLike], corpus: str | None = None,
                        language: str | None = None, replace: bool = False,
                        progress=None, input_of: str | None = None) -> list[CorpusSummary]:
        """Ingest CoNLL-U files (or directories of them) in one transaction:
        :func:`evalhouse.ingest.treebanks.ingest_treebank`."""
        return treebanks.ingest_treebank(self, paths, corpus=corpus, language=language, replace=replace,
                                         progress=progress, input_of=input_of)

    def ingest_outputs(self, path: str | os.PathLike | None = None, reference: str | None = None,
                       team: str | None = None, run: str | None = None, format: str = "auto",
                       manifest: str | os.PathLike | None = None, replace: bool = False, progress=None,
                       lexicon: bool = True, lexicon_min_count: int = 1, sacrebleu: bool = True):
        """Ingest and score system outputs against a reference corpus, in one transaction:
        :func:`evalhouse.ingest.outputs.ingest_outputs`."""
        return outputs.ingest_outputs(self, path, reference=reference, team=team, run=run, format=format,
                                      manifest=manifest, replace=replace, progress=progress, lexicon=lexicon,
                                      lexicon_min_count=lexicon_min_count, sacrebleu=sacrebleu)

    def ingest_judgements(self, path: str | os.PathLike) -> int:
        """Ingest human judgements (CSV: team, run, corpus, sent_id, annotator, criterion, score):
        :func:`evalhouse.ingest.judgements.ingest_judgements`."""
        return judgements.ingest_judgements(self, path)

    def export_view(self, view: str, out: str | os.PathLike, format: str | None = None,
                    corpus: Sequence[str] | None = None) -> int:
        """Write a view or table to Parquet, CSV or JSON (an array of row objects); returns rows written.
        ``corpus`` filters are bound parameters, never pasted into SQL (:mod:`evalhouse.export.relation`)."""
        return relation.export_relation(self, view, out, format=format, corpus=corpus)

    def export_conllu(self, corpus: str, out: str | os.PathLike) -> int:
        """Write a corpus back as CoNLL-U (byte-identical to a canonical input); returns sentences."""
        self.require_corpus(corpus)
        return conllu.write_corpus(self.con, corpus, out)


def connect(path: str | os.PathLike | None = None, read_only: bool = False,
            memory_limit: str | None = None) -> Warehouse:
    """Open (creating if needed) a warehouse: ``path``, else ``$EVALHOUSE_DB``, else ./warehouse.duckdb.

    ``memory_limit`` (e.g. ``"2GB"``; else ``$EVALHOUSE_MEMORY_LIMIT``, else DuckDB's default of 80%
    of RAM) caps DuckDB's memory; larger work spills to a temporary directory beside the file.
    """
    return Warehouse(path or os.environ.get("EVALHOUSE_DB") or DEFAULT_DB, read_only=read_only,
                     memory_limit=memory_limit or os.environ.get("EVALHOUSE_MEMORY_LIMIT") or None)


__all__ = ["Warehouse", "WarehouseError", "InputError", "CorpusSummary", "STORED", "connect", "schema_files",
           "view_files"]
