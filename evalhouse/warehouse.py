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
  order); opening read-only changes nothing;
* :meth:`Warehouse.transaction` (an ingest is one transaction), :meth:`Warehouse.insert` (rows into a
  base table, columns by name) and :data:`STORED` with :meth:`Warehouse.make_room` (what a user stores, the tables that
  hold it, and its refusal or replacement).

The ``ingest_*``, ``run_*``, ``add_apt_config`` and ``export_*`` methods (one for every input a user stores,
typed) hand over to :mod:`evalhouse.ingest` and :mod:`evalhouse.export`, where the work is done.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, Sequence

import duckdb

from evalhouse import definitions, memory, names, template
from evalhouse.analysis.udfs import ARROW_FUNCTIONS, FUNCTIONS, register_udfs
from evalhouse.errors import InputError, OptionError, WarehouseError
from evalhouse.lazy import lazy_module
from evalhouse.ingest.writer import execute_on_rows
from evalhouse.stored import CheckReport, Dependent, Parent, Room, Stored, TornWarehouseError
from evalhouse.version import __version__
from evalhouse import stored as _stored

if (
    TYPE_CHECKING
):  # for annotations and linters; at run time the module __getattr__ below re-exports CorpusSummary lazily
    from evalhouse.analysis.leaf_ancestor import LabelCost
    from evalhouse.analysis.parse_eval import EvalbParams
    from evalhouse.ingest.outputs import SubmissionSummary
    from evalhouse.ingest.parses import ParseRunSummary
    from evalhouse.ingest.translations import ConfigSpec, TranslationSummary
    from evalhouse.ingest.treebanks import CorpusSummary
    from evalhouse.progress import ProgressLike
    from evalhouse.reports.apt import AptReport

# where the ingest_* and export_* methods hand over, loaded when first used: opening a warehouse to
# query it does not import numpy, the aligner or sqlglot (fixed cost of a command)
conllu = lazy_module("evalhouse.export.conllu")
relation = lazy_module("evalhouse.export.relation")
apt_configs = lazy_module("evalhouse.ingest.apt_configs")
baselines = lazy_module("evalhouse.ingest.baselines")
dependency_runs = lazy_module("evalhouse.ingest.dependency_runs")
judgements = lazy_module("evalhouse.ingest.judgements")
outputs = lazy_module("evalhouse.ingest.outputs")
parses = lazy_module("evalhouse.ingest.parses")
pronoun_judgements = lazy_module("evalhouse.ingest.pronoun_judgements")
translations = lazy_module("evalhouse.ingest.translations")
treebanks = lazy_module("evalhouse.ingest.treebanks")


def __getattr__(name: str):
    if name == "CorpusSummary":  # re-exported (see __all__) without importing the treebank ingest
        return treebanks.CorpusSummary
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


DEFAULT_DB = "warehouse.duckdb"


# --- the schema ------------------------------------------------------------------------------------

_KEY = re.compile(r"\bKey: (?:\(([^)]*)\)|([A-Za-z_]\w*))")


@dataclass(frozen=True)
class SqlFile:
    name: str
    text: str
    kind: str  # "table", "macro" or "view"
    folder: str = ""  # schema/<kind>/ or sql/<family>/

    @property
    def header(self) -> str:
        """The comment lines at the top of the file (purpose, grain, columns, upstream)."""
        lines = []
        for line in self.text.splitlines():
            if not line.startswith("--"):
                break
            lines.append(line)
        return "\n".join(lines)

    @property
    def key(self) -> tuple[str, ...]:
        """The columns that identify a row of the view, declared once in its header (``-- Key: (a, b).``, or
        ``Key:`` after the grain on its line): the grain tests read it; () when the header declares none."""
        m = _KEY.search(self.header)
        return tuple(c.strip() for c in (m.group(1) or m.group(2)).split(",")) if m else ()

    @property
    def intermediate(self) -> bool:
        """A view that other views read and a user reads through them (its header says ``-- Intermediate:``):
        ``evalhouse views`` and the data dictionary list it apart, after the views meant for users."""
        return self.kind == "view" and "\n-- Intermediate:" in "\n" + self.header


# sql/macros/: the DuckDB macros that views share (a formula written once), created before the views
MACRO_FOLDER = "macros"


def _read_sql_package(package: str, kind: str, only: str | None = None, skip: str | None = None) -> list[SqlFile]:
    """Every ``*.sql`` file one folder below ``package`` (or in its folder ``only``), sorted by name."""
    files = []
    for folder in resources.files(package).iterdir():
        if (
            folder.is_dir()
            and not folder.name.startswith(("_", "."))
            and folder.name != skip
            and (only is None or folder.name == only)
        ):
            files += [
                SqlFile(f.name[:-4], f.read_text(encoding="utf-8"), kind, folder.name)
                for f in folder.iterdir()
                if f.name.endswith(".sql")
            ]
    return sorted(files, key=lambda f: f.name)


@lru_cache(maxsize=1)
def schema_files() -> tuple[SqlFile, ...]:
    """DDL of the base tables (``schema/<kind>/``), one file per table, by name."""
    return tuple(_read_sql_package("evalhouse.schema", "table"))


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COMMENTS_AND_STRINGS = re.compile(r"--[^\n]*|'(?:[^']|'')*'")


@lru_cache(maxsize=1)
def schema_script() -> tuple[tuple[SqlFile, ...], str, str]:
    """The files of the schema (tables, then views in dependency order), their DDL as one script, and its
    SHA-256 fingerprint (what ``evalhouse_schema()`` records, and what names a template)."""
    files = schema_files() + macro_files() + view_files()
    script = "\n".join(f.text for f in files)
    return files, script, hashlib.sha256(script.encode("utf-8")).hexdigest()


def _create_schema_in_transaction(con: duckdb.DuckDBPyConnection) -> None:
    with schema_settings(con):
        con.execute("BEGIN")
        _create_schema(con)
        con.execute("COMMIT")


@contextmanager
def schema_settings(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """DuckDB on one thread and without its optimizer while the schema script runs, put back after it;
    outside any transaction, so that putting them back never meets an aborted one. The script is 1,235
    statements that read no rows (DDL and ``COMMENT ON``), and what each costs is mostly fixed: the
    optimizer's passes over its plan and the hand-over of its pipeline to a second thread took 0.07 s of
    the 0.32 s of CPU the script cost. The catalog it writes is the same (views are stored as SQL)."""
    threads = con.execute("SELECT current_setting('threads')").fetchall()[0][0]
    con.execute("SET threads = 1")
    con.execute("PRAGMA disable_optimizer")  # on in every connection evalhouse opens: turned on again below
    try:
        yield
    finally:
        con.execute(f"SET threads = {int(threads)}")
        con.execute("PRAGMA enable_optimizer")


def _create_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Run the schema script and record its fingerprint (inside the caller's transaction, if any)."""
    _, script, fingerprint = schema_script()
    con.execute(script)
    con.execute(f"CREATE OR REPLACE MACRO evalhouse_schema() AS '{fingerprint}'")


# DuckDB before 2.0 can tear a commit killed midway (docs/crash-safety.md): writing with it needs this set to 1
ALLOW_TEARING_DUCKDB = "EVALHOUSE_ALLOW_DUCKDB_1_5_WRITES"


def refuse_tearing_duckdb(path: str) -> None:
    """Refuse to write a warehouse file with a DuckDB before 2.0, unless ``$EVALHOUSE_ALLOW_DUCKDB_1_5_WRITES``
    is ``1``. DuckDB 1.5.6 killed during a COMMIT can reopen with part of the transaction (29 of 196 kills,
    10 of 40 in plain DuckDB; 0 with 2.0). ``check`` finds a tear that changes a row count, which every tear
    seen did; one that leaves every count as it was (a replacement by as many rows, cut between two tables)
    it cannot, and evalhouse does not hash every row to find it. So writing on 1.5 is a choice the user
    makes explicitly; reading works on both (a file 1.5 clients must read is created by 1.5)."""
    major = duckdb.__version__.split(".", 1)[0]
    if major.isdigit() and int(major) < 2 and os.environ.get(ALLOW_TEARING_DUCKDB) != "1":
        raise WarehouseError(
            f"{path}: refused: writing needs DuckDB 2.0 or later (installed: {duckdb.__version__}): DuckDB 1.5 "
            "killed during a commit can leave part of it, in a way `evalhouse check` cannot always find; "
            'pip install "duckdb>=2.0,<2.1", or set EVALHOUSE_ALLOW_DUCKDB_1_5_WRITES=1 to write with it anyway'
        )


# the statement that creates a view or macro of the installed SQL (made temporary by Warehouse._shadow_replaced)
_CREATE = re.compile(r"^CREATE OR REPLACE (VIEW|MACRO) ", re.MULTILINE)


@lru_cache(maxsize=1)
def expected_definitions() -> definitions.Definitions:
    """The views, macros and CHECK constraints the running DuckDB writes for the installed schema: from the
    cached template (:func:`evalhouse.template.definitions`), else from an empty warehouse built in memory
    (about 0.4 s, once per process)."""
    _, _, fingerprint = schema_script()
    cached = template.definitions(fingerprint, _create_schema_in_transaction)
    if cached is not None:
        return cached
    with duckdb.connect(":memory:") as con:
        _create_schema(con)
        return definitions.read(con)


def view_references(text: str, names: Iterable[str]) -> set[str]:
    """The names among ``names`` that the SQL ``text`` mentions outside comments and string literals:
    the views a view reads, and perhaps an alias or two (every table sqlglot finds is among them: tested
    in tests/test_sql_files.py; sqlglot took 0.1 s to import and up to 0.8 s to parse every view, most
    of the cost of creating a warehouse)."""
    return set(_IDENTIFIER.findall(_COMMENTS_AND_STRINGS.sub(" ", text))) & set(names)


@lru_cache(maxsize=1)
def macro_files() -> tuple[SqlFile, ...]:
    """The macros the views share (``sql/macros/``, one per file, named after it), by name."""
    return tuple(_read_sql_package("evalhouse.sql", "macro", only=MACRO_FOLDER))


@lru_cache(maxsize=1)
def view_files() -> tuple[SqlFile, ...]:
    """View definitions (``sql/<family>/``) in dependency order: a view comes after the views it reads."""
    files = {f.name: f for f in _read_sql_package("evalhouse.sql", "view", skip=MACRO_FOLDER)}
    depends = {name: view_references(f.text, files) - {name} for name, f in files.items()}
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


def _table_columns(con: duckdb.DuckDBPyConnection) -> dict[str, list[str]]:
    """Base table -> its columns in order."""
    # qualified and filtered in Python, as evalhouse.definitions reads the catalog (a file's macro could take the
    # name of any function or operator); names in lower case, as DuckDB matches them
    rows = con.execute(
        "SELECT database_name, schema_name, table_name, column_name, column_index FROM system.main.duckdb_columns()"
    ).fetchall()
    tables = definitions.tables(con)
    out: dict[str, list[tuple[int, str]]] = {}
    for database, schema, table, column, index in rows:
        if database not in definitions.NOT_THE_FILE and schema == "main" and definitions.fold(table) in tables:
            out.setdefault(definitions.fold(table), []).append((index, column))
    return {table: [c for _, c in sorted(columns)] for table, columns in out.items()}


# --- what users store ------------------------------------------------------------------------------

# What a replacement would lose (see evalhouse.stored): human judgements survive when the sentence they
# judged is still there (same reference corpus, position and output text); pronoun judgements when the
# judged segment is (same corpus, system, position, source and output text).
JUDGEMENTS = Dependent(
    "judgements",
    "SELECT j.*, o.text AS judged_text FROM judgements j LEFT JOIN output_sentences o USING (team, run, corpus, position) "
    "WHERE j.team = $team AND j.run = $run AND j.corpus = $corpus",
    label="'position ' || d.position",
    reason="the output sentence they judged is no longer there (its text changed, or it is missing)",
    flag="drop_judgements",
    table="judgements",
    survives="EXISTS (SELECT 1 FROM output_sentences n WHERE n.team = d.team AND n.run = d.run AND n.corpus = d.corpus "
    "AND n.position = d.position AND n.text IS NOT DISTINCT FROM d.judged_text)",
)
_PRONOUN_JUDGEMENTS = (
    "SELECT pj.*, o.output AS judged_output, s.source AS judged_source FROM pronoun_judgements pj "
    "LEFT JOIN translation_outputs o USING (corpus, team, run, position) LEFT JOIN segments s USING (corpus, position) "
    "WHERE pj.corpus = $corpus"
)


def _pronoun_judgements(systems: str) -> Dependent:
    return Dependent(
        "pronoun judgements",
        _PRONOUN_JUDGEMENTS + systems,
        label="d.team || '/' || d.run || ' segment ' || d.position || ' token ' || d.source_index",
        reason="the segment they judged is no longer there (another source or output, or no such system)",
        flag="drop_judgements",
        table="pronoun_judgements",
        survives="EXISTS (SELECT 1 FROM translation_outputs n JOIN segments s USING (corpus, position) "
        "WHERE n.corpus = d.corpus AND n.team = d.team AND n.run = d.run AND n.position = d.position "
        "AND n.output = d.judged_output AND s.source = d.judged_source)",
    )


# Deleting one of these removes its rows from every table listed, in this order; nothing else deletes.
STORED: dict[str, Stored] = {
    "corpus": Stored(
        ("corpus",),
        (
            "corpus_inputs",
            "sentence_tree_metrics",
            "edges",
            "empty_nodes",
            "multiword_tokens",
            "nodes",
            "sentences",
            "corpora",
        ),
        counts=(
            ("sentences", "sentences"),
            ("nodes", "words"),
            ("edges", "edges"),
            ("multiword_tokens", "multiword_tokens"),
            ("empty_nodes", "empty_nodes"),
        ),
        dependents=(
            Dependent(
                "submissions",
                "SELECT team, run FROM submissions WHERE corpus = $corpus",
                label="d.team || '/' || d.run",
                reason="are scored against it ({shown}); replacing it would invalidate their "
                "scores: ingest the new version under another name",
            ),
            Dependent(
                "dependency runs",
                "SELECT team, run FROM dependency_runs WHERE corpus = $corpus",
                label="d.team || '/' || d.run",
                reason="are scored against its trees ({shown}); replacing it would invalidate "
                "their scores: ingest the new version under another name",
            ),
        ),
    ),
    "submission": Stored(
        ("team", "run", "corpus"),
        (
            "output_sentences",
            "output_tokens",
            "sentence_statistics",
            "submission_sacrebleu",
            "judgements",
            ("alignments", "pair = 'output-reference'"),
            "submissions",
        ),
        parents=(Parent("corpus", ("corpus",)),),
        counts=(("output_sentences", "sentences"), ("sentence_statistics", "sentences")),
        dependents=(JUDGEMENTS,),
    ),
    # gold parses are the run whose team and run are NULL
    "parse run": Stored(
        ("corpus", "team", "run"),
        ("la_word_scores", "geig_counts", "constituents", "parse_leaves", "parse_sentences", "parse_runs"),
        counts=(("parse_sentences", "sentences"), ("parse_leaves", "leaves"), ("constituents", "constituents")),
        dependents=(
            Dependent(
                "candidate runs",
                "SELECT team, run FROM parse_runs WHERE corpus = $corpus AND role = 'candidate' AND $team IS NULL",
                label="d.team || '/' || d.run",
                reason="are scored against them ({shown}); ingest the new gold parses under another corpus name",
            ),
        ),
    ),
    "dependency run": Stored(
        ("corpus", "team", "run"),
        ("dependency_gold_words", "dependency_system_words", "dependency_runs"),
        parents=(Parent("corpus", ("corpus",)),),
        counts=(("dependency_gold_words", "gold_words"), ("dependency_system_words", "system_words")),
    ),
    "translation corpus": Stored(
        ("corpus",),
        (
            "pronoun_judgements",
            "pronoun_analyses",
            "pronoun_configs",
            "translation_outputs",
            "translation_systems",
            ("alignments", "pair IN ('source-reference', 'source-output')"),
            "segments",
            "translation_corpora",
        ),
        counts=(("segments", "segments"),),
        dependents=(
            Dependent(
                "systems",
                "SELECT corpus, team, run FROM translation_systems WHERE corpus = $corpus",
                label="d.team || '/' || d.run",
                reason="their translations and pronoun analyses belong to the corpus replaced (ingest them "
                "again in the same command to keep them)",
                flag="drop_systems",
                again="EXISTS (SELECT 1 FROM translation_systems n WHERE n.corpus = d.corpus "
                "AND n.team = d.team AND n.run = d.run)",
            ),
            _pronoun_judgements(""),
        ),
    ),
    "translation system": Stored(
        ("corpus", "team", "run"),
        (
            "pronoun_judgements",
            "pronoun_analyses",
            "translation_outputs",
            ("alignments", "pair = 'source-output'"),
            "translation_systems",
        ),
        parents=(Parent("translation corpus", ("corpus",)),),
        dependents=(_pronoun_judgements(" AND pj.team = $team AND pj.run = $run"),),
    ),
    "pronoun configuration": Stored(
        ("corpus", "config"),
        ("pronoun_analyses", "pronoun_configs"),
        parents=(Parent("translation corpus", ("corpus",)),),
    ),
    "pronoun analyses": Stored(("corpus", "config", "team", "run"), ("pronoun_analyses",), owned=False),
    "pronoun judgements": Stored(
        ("corpus",), ("pronoun_judgements",), owned=False, parents=(Parent("translation corpus", ("corpus",)),)
    ),
    "pronoun set": Stored(("pronoun_set",), ("pronoun_lists",), owned=False),
    # results of `evalhouse analyze`: per submission, per corpus, per pair of submissions
    "analysis": Stored(
        ("team", "run", "corpus"),
        (
            "metric_correlations",
            "judgement_correlations",
            "projectivity_tests",
            "entropy_dea_correlation",
            "suspicious_subtrees",
            "suspicious_subtree_submissions",
            "dea_relation_intervals",
        ),
        owned=False,
        parents=(Parent("submission", ("team", "run", "corpus")),),
    ),
    # an ensemble is computed from all the submissions on a corpus: without one of them it is stale, whole
    "ensemble": Stored(
        ("corpus",),
        ("ensemble_choice", "ensemble_scores"),
        owned=False,
        parents=(Parent("corpus", ("corpus",)), Parent("submission", ("team", "run", "corpus"), whole=True)),
    ),
    # intervals and paired tests of every ranked score (`evalhouse analyze`): of submissions, of dependency runs,
    # of constituency runs
    "submission intervals": Stored(
        ("team", "run", "corpus"),
        (("score_intervals", "kind = 'submission'"),),
        owned=False,
        parents=(Parent("submission", ("team", "run", "corpus")),),
    ),
    "submission significance": Stored(
        ("corpus", "team_a", "run_a", "team_b", "run_b"),
        (("score_significance", "kind = 'submission'"),),
        owned=False,
        parents=(
            Parent("submission", ("team_a", "run_a", "corpus")),
            Parent("submission", ("team_b", "run_b", "corpus")),
        ),
    ),
    "dependency run intervals": Stored(
        ("corpus", "team", "run"),
        (("score_intervals", "kind = 'dependency run'"),),
        owned=False,
        parents=(Parent("dependency run", ("corpus", "team", "run")),),
    ),
    "dependency run significance": Stored(
        ("corpus", "team_a", "run_a", "team_b", "run_b"),
        (("score_significance", "kind = 'dependency run'"),),
        owned=False,
        parents=(
            Parent("dependency run", ("corpus", "team_a", "run_a")),
            Parent("dependency run", ("corpus", "team_b", "run_b")),
        ),
    ),
    "constituency run intervals": Stored(
        ("corpus", "team", "run"),
        (("score_intervals", "kind = 'constituency run'"),),
        owned=False,
        parents=(Parent("parse run", ("corpus", "team", "run")),),
    ),
    "constituency run significance": Stored(
        ("corpus", "team_a", "run_a", "team_b", "run_b"),
        (("score_significance", "kind = 'constituency run'"),),
        owned=False,
        parents=(
            Parent("parse run", ("corpus", "team_a", "run_a")),
            Parent("parse run", ("corpus", "team_b", "run_b")),
        ),
    ),
}


_FUNCTION_NAMES = tuple(FUNCTIONS) + tuple(ARROW_FUNCTIONS)

# numpy and pyarrow (0.1 s and more to import) only when rows are written: read-only commands do not pay for them
arrow_arrays = lazy_module("evalhouse.loaders.arrow_arrays")


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _arrow(rows):
    """A mapping of columns or a list of row mappings as an Arrow table (frames are passed through), built
    without ``pa.array``, which imports pandas (:mod:`evalhouse.loaders.arrow_arrays`)."""
    if isinstance(rows, Mapping):
        return arrow_arrays.table(rows)
    if isinstance(rows, list):
        return arrow_arrays.table_of_rows(rows)
    return rows


# `evalhouse sql` without --write: once the warehouse file is open, the connection may touch no other
# file or URL (COPY ... TO, read_text/read_csv/glob of any path, ATTACH, INSTALL/LOAD, EXPORT DATABASE, persistent
# secrets) and no setting can be changed back (nor memory_limit, threads, temp_directory). DuckDB's own spill
# files under <db>.tmp are still written. Set after the open: the database file itself is opened before.
SANDBOX = ("SET enable_external_access = false", "SET lock_configuration = true")  # in this order


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def is_sandbox_refusal(err: Exception) -> bool:
    """Whether a DuckDB error is the sandbox (:data:`SANDBOX`) refusing a statement."""
    text = str(err)
    return (
        type(err).__name__ == "PermissionException"
        or "disabled by configuration" in text
        or "the configuration has been locked" in text
    )


def _check_names(kind: str, key: Mapping[str, object]) -> None:
    """A new thing of ``kind`` is named well (:mod:`evalhouse.names`): every ingest stores through
    :meth:`Warehouse.make_room`, so none stores an empty name or a team or run with '/'. Results of stored
    things (analyses, ensembles) are not new names: a warehouse written before the rule is analysed as before."""
    if STORED[kind].owned:
        names.check_names(**{c: key[c] for c in STORED[kind].key if c in names.NAMED})


def _is_lock_error(err: Exception) -> bool:
    text = str(err).lower()
    return "lock" in text and ("conflicting" in text or "could not set lock" in text)


# statements that answer with rows of their own (an INSERT, UPDATE or DELETE does only with RETURNING)
_QUERIES = frozenset({"SELECT", "EXPLAIN", "CALL", "PRAGMA"})


def _returns_rows(con: duckdb.DuckDBPyConnection, query: str) -> bool:
    """Whether the last statement of ``query`` is a query (SELECT, EXPLAIN, CALL, PRAGMA)."""
    statements = con.extract_statements(query)
    return bool(statements) and statements[-1].type.name in _QUERIES


class Result:
    """What :meth:`Warehouse.sql` returns for a query: its DuckDB relation, with the DB-API ``fetchone()``
    and ``fetchmany()`` that relations lost in duckdb 2.0.

    Everything else is the relation's own (``.fetchall()``, ``.df()``/``.fetchdf()``, ``.fetchnumpy()``,
    ``.arrow()``, ``.columns``, ``.limit()``, ``.show()``, ...), so a relation stays lazy: each of those runs
    the query again. ``fetchone()`` and ``fetchmany()`` run it once, on the first call, and hand out its
    rows one after the other (the rows are held in Python, as ``fetchall()`` holds them). Unlike
    ``con.execute(...).fetchone()``, nothing is left unfinished on the connection (duckdb 2.0 refuses
    ``con.sql()``, ``register()`` and the like while an ``execute()`` result is unfinished).

    ``.relation`` is the relation itself: give that to what wants a relation, e.g. SQL that reads a Python
    variable by its name (``r = wh.sql(q).relation`` then ``wh.con.sql("select * from r")``). The wrapper
    has no Arrow stream of its own on purpose: duckdb 1.5.6 scanning it by name from the same connection
    would wait for itself forever."""

    __slots__ = ("relation", "_rows")

    def __init__(self, relation: duckdb.DuckDBPyRelation):
        self.relation = relation
        self._rows: Iterator[tuple] | None = None

    def _pending(self) -> Iterator[tuple]:
        if self._rows is None:
            self._rows = iter(self.relation.fetchall())
        return self._rows

    def fetchone(self) -> tuple | None:
        """The next row, or None after the last."""
        return next(self._pending(), None)

    def fetchmany(self, size: int = 1) -> list[tuple]:
        """The next ``size`` rows (fewer at the end)."""
        return list(itertools.islice(self._pending(), size))

    def __getattr__(self, name: str):
        return getattr(self.relation, name)

    def __len__(self) -> int:
        return len(self.relation)

    def __getitem__(self, column: str):
        return self.relation[column]

    def __contains__(self, column: str) -> bool:
        return column in self.relation

    def __repr__(self) -> str:
        return repr(self.relation)

    __str__ = __repr__


class Warehouse:
    """A connection to an evalhouse warehouse (a DuckDB file, or ``:memory:``)."""

    def __init__(
        self,
        path: str | os.PathLike = DEFAULT_DB,
        read_only: bool = False,
        memory_limit: str | None = None,
        verify: bool = True,
        functions: bool = True,
        sandbox: bool = False,
        writable: Sequence[str | os.PathLike] = (),
    ):
        self.path = os.fspath(path)
        self.sandboxed = False  # confine() ran: the connection reads only the warehouse
        self.functions = False  # whether evalhouse's SQL functions are registered (register_functions)
        # a new in-memory warehouse has nothing to protect (and DuckDB cannot open one read-only)
        read_only = read_only and self.path != ":memory:"
        self.read_only = read_only
        self._rooms: list[Room] | None = None  # the rooms made in the open transaction (make_room)
        self._touched: set[str] | None = None  # the tables the open transaction changed (stored_counts)
        existed = self.path != ":memory:" and os.path.exists(self.path)
        if read_only and self.path != ":memory:" and not existed:
            raise WarehouseError(f"{self.path}: no such warehouse")
        if not read_only and self.path != ":memory:":
            refuse_tearing_duckdb(self.path)
        # DuckDB's buffer manager (its cache of table blocks and the working memory of joins and
        # aggregates) grows up to memory_limit, 80% of RAM by default; past it, operators spill to
        # <db>.tmp. A cap bounds the process's memory whatever the warehouse's size (BENCHMARKS.md).
        config = {} if memory_limit is None else {"memory_limit": str(memory_limit)}
        self._memory_limit = config.get("memory_limit")  # what a lowered limit is put back to (evalhouse.memory)
        # a new file starts as a copy of a cached empty warehouse (evalhouse.template): 0.3 s less per command
        placing = not existed and not read_only and not self.path.startswith(":memory:")
        # whether this connection made the file: a command that fails removes it again (__exit__, discard_new)
        self.created = False
        try:
            if placing:
                if config:  # a bad option is refused before any file is made
                    duckdb.connect(":memory:", config=config).close()
                placed = template.place(self.path, schema_script()[2], _create_schema_in_transaction)
                self.created = placed or not os.path.exists(self.path)  # not one another process made meanwhile
            self.con = duckdb.connect(self.path, read_only=read_only, config=config)
        except duckdb.ParserException as err:
            raise OptionError(f"`memory_limit` {memory_limit!r}: {str(err).split(': ', 1)[-1]}") from None
        except duckdb.IOException as err:
            if _is_lock_error(err) and read_only:
                raise WarehouseError(
                    f"{self.path}: database is locked: another process is writing to it, and DuckDB lets no "
                    "other process open the file, not even to read, until it has finished; try again then, or "
                    "read a copy of the file or an exported dataset (evalhouse export-dataset)"
                ) from None
            if _is_lock_error(err):
                raise WarehouseError(
                    f"{self.path}: database is locked: another process has it open; try again when it has "
                    "finished (only one process can write to a warehouse at a time)"
                ) from None
            raise WarehouseError(f"{self.path}: cannot open: {err}") from None
        # the views and macros of the schema that the file defined otherwise, replaced from the installed SQL
        self.replaced: tuple[str, ...] = ()
        try:
            self._refuse_shadowed_tables()
            # what the file defines runs unconfined on this connection, or before it is confined (a write)
            found = self._compare_definitions() if existed and not (read_only and sandbox) else None
            if functions or not read_only or self.replaced:
                self.register_functions()
            if not read_only:
                self.apply_schema(found)
                # nothing is built on a warehouse that a write killed during COMMIT left torn
                if verify and existed:
                    report = self.check()
                    if report.torn:
                        raise TornWarehouseError(report)
            elif self.replaced:
                self._shadow_replaced()
            if sandbox:
                self.confine(writable)
        except BaseException:
            self.discard_new()
            raise

    # --- lifecycle ---------------------------------------------------------------------------
    def __enter__(self) -> "Warehouse":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:  # a failed command leaves no warehouse file behind that it made and stored nothing in
            self.discard_new()

    def close(self) -> None:
        self.con.close()

    def discard_new(self) -> bool:
        """Close the connection; when this connection created the file (:attr:`created`) and no base table
        holds a row, also delete the file and its write-ahead log, so that a command that failed on a new
        warehouse (``evalhouse analyze`` before any ingest, ``ingest treebank`` of a missing file) leaves no
        ``warehouse.duckdb`` behind. A file that existed before, or that holds rows, is never deleted.
        Returns whether the file was deleted."""
        empty = False
        if self.created:
            try:
                try:  # what a failed statement left open is rolled back, as closing would
                    self.con.execute("ROLLBACK")
                except duckdb.Error:
                    pass
                tables = [
                    r[0]
                    for r in self.con.execute(
                        "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary"
                    ).fetchall()
                ]
                empty = not any(
                    self.con.execute(f"SELECT EXISTS (SELECT 1 FROM {_ident(t)})").fetchall()[0][0] for t in tables
                )
            except duckdb.Error:  # an invalidated connection: the file may hold what it cannot tell; keep it
                empty = False
        if empty:  # the name goes while this connection still holds the file's lock: no other process has it open
            try:
                os.unlink(self.path)
            except OSError:
                empty = False
        try:
            self.con.close()
        except duckdb.Error:
            pass
        if empty:  # the write-ahead log, if closing left one (never the name again: it may be another's by now)
            try:
                os.unlink(self.path + ".wal")
            except FileNotFoundError:
                pass
        return empty

    def _refuse_shadowed_tables(self) -> None:
        """Refuse a warehouse file in which a base table of the schema (``sentences``, ``nodes``, ...) is a view:
        every command reads the base tables, the check of a write command before anything is confined, so a
        shared file whose ``sentences`` is a view over ``read_csv('/etc/...')`` would run its query, unconfined,
        and print or store what it read. Checked in the catalog before anything is read; one line names the
        first such view."""
        names = {f.name for f in schema_files()}
        # the catalog read as evalhouse.definitions reads it: qualified, filtered in Python, names in lower case
        shadowed = sorted(name for name in definitions.view_names(self.con) if name in names)
        if shadowed:
            raise WarehouseError(
                f"{self.path}: refused: {shadowed[0]} is a view, not the base table evalhouse stores it in"
                + (f" (and {len(shadowed) - 1} more)" if len(shadowed) > 1 else "")
                + "; a view in place of a base table could read files outside the warehouse: "
                "ingest into a new warehouse, or open this file with plain DuckDB if you trust it"
            )

    def _compare_definitions(self) -> definitions.Definitions:
        """Compare the file's views, macros and CHECK constraints with the ones evalhouse writes
        (:mod:`evalhouse.definitions`): refuse a macro that takes the place of a SQL function, or a CHECK the
        schema does not declare; set :attr:`replaced` to the views and macros of the schema defined otherwise.
        Only the catalog is read: nothing the file defines runs."""
        expected = expected_definitions()
        found = definitions.read(self.con, expected)
        diff = definitions.differences(
            found,
            expected,
            tables=[f.name for f in schema_files()],
            functions=[*FUNCTIONS, *ARROW_FUNCTIONS],
        )
        if diff.refused:
            raise WarehouseError(
                f"{self.path}: refused: {diff.refused}; code a warehouse file brings with it could read files "
                "outside the warehouse: ingest into a new warehouse, or open this file with plain DuckDB if you trust it"
            )
        self.replaced = diff.replaced
        return found

    def _shadow_replaced(self) -> None:
        """For a connection that only reads, unconfined: a temporary view or macro from the installed SQL in
        place of each of :attr:`replaced` (DuckDB resolves a name in the temporary catalog first, also inside
        the file's other views), so that no definition the file brought runs; the file is not changed."""
        _, _, fingerprint = schema_script()
        texts = {f"{f.kind} {f.name}": f.text for f in macro_files() + view_files()}
        texts["macro evalhouse_schema"] = f"CREATE OR REPLACE MACRO evalhouse_schema() AS '{fingerprint}';"
        try:
            for key, text in texts.items():  # macros, then views in dependency order
                if key in self.replaced:
                    create = next(s for s in self.con.extract_statements(text) if s.type.name == "CREATE")
                    self.con.execute(_CREATE.sub(r"CREATE OR REPLACE TEMP \1 ", create.query, count=1))
        except duckdb.Error as err:
            raise WarehouseError(
                f"{self.path}: its {', '.join(self.replaced[:3])}{' …' if len(self.replaced) > 3 else ''} differ "
                "from evalhouse's and the installed definitions do not fit its tables (written by another "
                f"version of evalhouse?): {str(err).splitlines()[0]}; open it with `sandbox=True` to read it as it is"
            ) from None

    @property
    def replaced_note(self) -> str:
        """One line naming :attr:`replaced` and what was done, for the command to print ('' when none)."""
        if not self.replaced:
            return ""
        done = (
            "read through temporary copies from the installed SQL (the file is unchanged)"
            if self.read_only
            else "recreated from the installed SQL"
        )
        shown = ", ".join(k.split(" ", 1)[1] for k in self.replaced[:6])
        more = f" and {len(self.replaced) - 6} more" if len(self.replaced) > 6 else ""
        return (
            f"{self.path}: {len(self.replaced)} views or macros of the schema differed from the ones evalhouse "
            f"{__version__} writes with DuckDB {duckdb.__version__} (a file written by another DuckDB version, or "
            f"changed since): {shown}{more}; {done}"
        )

    def confine(self, writable: Sequence[str | os.PathLike] = ()) -> None:
        """Confine the connection to the warehouse file (:data:`SANDBOX`), for good: no other file or URL is
        read, none written but ``writable`` (files, and directories with everything under them: what an
        export writes), no database attached, no extension loaded, no setting changed. A view or macro that a
        warehouse file brought with it then runs in the same sandbox as ``evalhouse sql`` (a shared
        file whose ``corpus_complexity`` read /etc/hostname copied it into an export). DuckDB's own spill
        files (its temp_directory) stay writable. Statements refused raise what :func:`is_sandbox_refusal`
        recognises."""
        if self.sandboxed:
            raise WarehouseError(
                "the connection is confined already: open the warehouse again to confine it with other writable paths"
            )
        paths = [os.path.abspath(p) for p in writable]
        directories = [os.path.join(p, "") for p in paths if os.path.isdir(p)]
        files = [p for p in paths if not os.path.isdir(p)]
        if directories:  # beside what DuckDB allows itself (its temp directory)
            # qualified: the file could define a macro current_setting, run here before the sandbox is on
            allowed = (
                self.con.execute("SELECT system.main.current_setting('allowed_directories')").fetchall()[0][0] or []
            )
            self.con.execute("SET allowed_directories = [" + ", ".join(map(_sql_string, allowed + directories)) + "]")
        if files:
            self.con.execute("SET allowed_paths = [" + ", ".join(map(_sql_string, files)) + "]")
        for statement in SANDBOX:
            self.con.execute(statement)
        self.sandboxed = True

    def register_functions(self) -> None:
        """Register evalhouse's SQL functions (:mod:`evalhouse.analysis.udfs`) on the connection, once.
        duckdb 1.5.6 imports numpy to register any Python function (about 0.1 s of a command), so a
        read-only warehouse opened with ``functions=False`` registers them only when :meth:`sql` needs them."""
        if not self.functions:
            register_udfs(self.con)
            self.functions = True

    def apply_schema(self, found: definitions.Definitions | None = None) -> None:
        """Create missing base tables and (re)create every view with its comments. A warehouse file
        that already has this schema, every table and view of it, is left as it is: reapplying its 1,235
        statements costs about 0.3 s of every command that opens it read-write. The schema's
        fingerprint is kept in the macro ``evalhouse_schema()``. ``found``: the file's definitions as
        :meth:`_compare_definitions` read them (the fingerprint is then read there, not called: the macro
        is the file's); without them the file is one this connection made."""
        files, script, fingerprint = schema_script()
        # the catalog read as evalhouse.definitions reads it (a file's macro could take the name of any function)
        present = definitions.tables(self.con) | definitions.view_names(self.con)
        relations = [f for f in files if f.kind != "macro"]  # the macros are the fingerprint's
        if found is not None:
            stored_fingerprint = found.fingerprint
        else:  # a file this connection made: its own macro is called
            stored_fingerprint = self._stored_fingerprint() if any(f.name in present for f in relations) else None
        complete = sum(f.name in present for f in relations) == len(relations)
        if complete and stored_fingerprint == fingerprint and not self.replaced:
            return
        if stored_fingerprint is not None:
            self._refuse_other_tables()
        with schema_settings(self.con), self.transaction():
            _create_schema(self.con)

    def _stored_fingerprint(self) -> str | None:
        """The fingerprint ``evalhouse_schema()`` holds; None when there is none (a file from before fingerprints)
        or it is not ours. Asked only of a file that holds a relation of the schema: in a new one the failed call
        cost 7 ms of CPU, DuckDB's search of every function for the name it suggests instead."""
        try:  # calling the macro: listing duckdb_functions() to find it takes 0.018 s, a twentieth of an ingest
            return self.con.execute("SELECT evalhouse_schema()").fetchall()[0][0]
        except duckdb.Error:
            return None

    def _refuse_other_tables(self) -> None:
        """A warehouse written by another evalhouse whose base tables have other columns than this one's:
        refused in one line naming the first such table (CREATE TABLE IF NOT EXISTS keeps an old table, and the
        views written for the new one would fail on it with DuckDB's binder error)."""
        with duckdb.connect(":memory:") as fresh:
            fresh.execute("\n".join(f.text for f in schema_files()))
            wanted = _table_columns(fresh)
        have = _table_columns(self.con)
        for table, columns in sorted(wanted.items()):
            if table in have and have[table] != columns:
                missing = [c for c in columns if c not in have[table]]
                extra = [c for c in have[table] if c not in columns]
                raise WarehouseError(
                    f"{self.path} was written by another version of evalhouse: its table {table} "
                    + (f"lacks {', '.join(missing)}" if missing else f"has {', '.join(extra)}")
                    + f" (evalhouse {__version__} expects {', '.join(columns)}); ingest into a new warehouse, "
                    "or open this one with the evalhouse that wrote it"
                )

    # --- writing: one transaction, rows by column name, what is stored and its replacement -----
    @contextmanager
    def transaction(self) -> Iterator["Warehouse"]:
        """One transaction: committed when the block ends, rolled back (and the error re-raised) when
        anything in it fails, so the warehouse is exactly as it was; the connection's ``threads`` and
        ``memory_limit`` are then put back too (an ingest lowers them for a while: :mod:`evalhouse.memory`).
        Settings changed in a transaction that commits are kept.

        Before it commits, the rows of every stored thing in each table the transaction changed through
        :meth:`insert`, :meth:`delete` or :meth:`make_room` (or named with :meth:`touched`) are recorded in
        ``stored_counts``, which :meth:`check` compares the tables with (:func:`evalhouse.stored.record`)."""
        settings = memory.snapshot(self.con)  # an ingest lowers threads and memory for a while (evalhouse.memory)
        self.con.execute("BEGIN")
        self._rooms = []
        self._touched = set()
        try:
            yield self
            for room in self._rooms:  # what still applies to the new versions goes back in (evalhouse.stored)
                room.finish()
            _stored.record(self.con, STORED, self._touched)  # in the same commit as the rows it counts
        except BaseException as err:
            for room in self._rooms:
                room.discard()
            self._rooms = None
            self._touched = None
            try:
                self.con.execute("ROLLBACK")
            except duckdb.Error as rollback_error:
                # DuckDB may have ended the transaction itself (a full disk, an invalidated database): the
                # error that caused it is the one to report, never "no transaction is active"
                err.add_note(f"(and the rollback failed: {str(rollback_error).splitlines()[0]})")
            self._put_back(settings, err)
            raise
        self._rooms = None
        self._touched = None
        try:
            self.con.execute("COMMIT")
        except BaseException as err:
            self._put_back(settings, err)
            raise

    def _put_back(self, settings: memory.Snapshot, err: BaseException) -> None:
        """After a failed transaction, the connection's threads and memory limit as they were before it
        (:mod:`evalhouse.memory`: DuckDB does not roll settings back, and an aborted transaction refused the
        ingest's own putting back); a failure to do so is a note on ``err``, the error to report."""
        try:
            memory.restore(self.con, settings, self._memory_limit)
        except duckdb.Error as restore_error:
            err.add_note(f"(and the connection's settings could not be put back: {restore_error})")

    def streaming_memory(self):
        """A context in which DuckDB's memory limit is at most :data:`evalhouse.memory.STREAMING_LIMIT`
        (64 MiB), for a file-backed warehouse (an in-memory one keeps its tables in that memory): what a treebank ingest
        inserts its chunks under (:func:`evalhouse.memory.lowered`)."""
        if self.path.startswith(":memory:"):
            return nullcontext(False)
        return memory.lowered(self.con, self._memory_limit)

    def insert(self, table: str, rows) -> int:
        """Append ``rows`` to base table ``table``; returns how many.

        ``rows``: a mapping of column name to values (one list or array per column), a list of
        row mappings, or a pandas or Arrow frame. Columns are matched by name (DuckDB casts each value
        to its column's type); a column not given takes its default (NULL).
        """
        if self._touched is None:  # its own transaction, so that stored_counts counts the rows in the same commit
            with self.transaction():
                return self.insert(table, rows)
        rows = _arrow(rows)
        names = list(rows.column_names if hasattr(rows, "column_names") else rows.columns)
        count = rows.num_rows if hasattr(rows, "num_rows") else len(rows)
        if not count:
            return 0
        self._touched.add(table)
        columns = ", ".join(_ident(n) for n in names)
        # not con.register: a registered table is held until COMMIT (evalhouse.ingest.writer)
        execute_on_rows(self.con, f"INSERT INTO {_ident(table)} ({columns}) SELECT {columns} FROM eh_rows", rows)
        return count

    def has(self, kind: str, key: Mapping[str, object]) -> bool:
        """Whether a ``kind`` (see :data:`STORED`) named by ``key`` is stored."""
        stored = STORED[kind]
        match = " AND ".join(f"t.{_ident(c)} IS NOT DISTINCT FROM ${i}" for i, c in enumerate(stored.key, 1))
        return bool(
            self.con.execute(
                f"SELECT EXISTS (SELECT 1 FROM {_ident(stored.owner)} AS t WHERE {match})", [key[c] for c in stored.key]
            ).fetchall()[0][0]
        )

    def delete(self, kind: str, keys: Iterable[Mapping[str, object]]) -> None:
        """Delete every ``kind`` named by one of ``keys`` (mappings of its key columns) from all the
        tables that hold it, in :meth:`transaction` (its own one when none is open)."""
        if self._touched is None:
            with self.transaction():
                return self.delete(kind, keys)
        self.touched(*(t for t, _ in STORED[kind].table_list()))
        _stored.delete(self.con, STORED[kind], keys)

    def touched(self, *tables: str) -> None:
        """Say that the open :meth:`transaction` changed ``tables`` other than through :meth:`insert`,
        :meth:`delete` or :meth:`make_room` (an UPDATE or DELETE of your own through :meth:`sql`), so that
        ``stored_counts`` counts their rows when it commits; otherwise :meth:`check` would find them
        changed and call the warehouse torn. :meth:`recount` does it for every table at once."""
        if self._touched is None:
            raise WarehouseError(
                "touched() names tables changed in an open transaction: call it inside `with wh.transaction():`"
            )
        self._touched.update(tables)

    def recount(self) -> None:
        """Record in ``stored_counts`` the rows of every stored thing in every table, in one transaction:
        after changing tables outside evalhouse's writes (``evalhouse sql --write``, ``wh.con``), so that
        :meth:`check` takes the warehouse as it now is. Run :meth:`check` first: what this records is what
        the check will expect."""
        with self.transaction():
            self.touched(*{t for kind in STORED.values() for t, _ in kind.table_list()})

    def check_room(self, kind: str, key: Mapping[str, object], replace: bool, what: str) -> bool:
        """Whether a ``kind`` named by ``key`` is stored; refused unless ``replace`` (``what`` names it), and
        refused when a name in ``key`` cannot be stored (:mod:`evalhouse.names`)."""
        _check_names(kind, key)
        if not self.has(kind, key):
            return False
        if not replace:
            raise WarehouseError(
                f"{what} is already in {self.path}; pass `replace=True` to replace it", option="replace"
            )
        return True

    def make_room(self, kind: str, key: Mapping[str, object], replace: bool, what: str, **allowed: bool) -> Room:
        """Before storing a ``kind`` under ``key``: refuse when one is stored and not ``replace``; else delete
        every row of ``key`` from all its tables (also when no owner row says it exists: a retry after a
        torn write never doubles rows). Call it inside :meth:`transaction`.

        A replacement is refused when it would lose a dependent (:class:`evalhouse.stored.Dependent`: human
        judgements, the systems of a translation corpus, the submissions scored against a corpus) unless
        ``allowed`` passes its flag (``drop_judgements=True``). Use the returned :class:`Room` as a context
        manager around the inserts of the new version: on leaving it, the dependents that still apply are
        put back (``room.kept``, ``room.dropped``); rooms not left by then are finished when the
        transaction ends, before it commits. ``room.replaced`` says whether one was stored."""
        if kind not in STORED:
            raise KeyError(kind)
        _check_names(kind, key)
        exists = self.has(kind, key)
        if exists and not replace:
            raise WarehouseError(
                f"{what} is already in {self.path}; pass `replace=True` to replace it", option="replace"
            )
        if self._touched is None:
            raise WarehouseError("make_room() stores a new version: call it inside `with wh.transaction():`")
        self.touched(*(t for t, _ in STORED[kind].table_list()))
        room = _stored.make_room(self.con, STORED[kind], key, exists, replace, what, allowed)
        if getattr(self, "_rooms", None) is not None:
            self._rooms.append(room)  # finished before COMMIT, if the caller has not left it already
        return room

    def check(self) -> CheckReport:
        """Rows that belong to nothing stored, left by a write killed during COMMIT (:func:`evalhouse.stored.check`)."""
        return _stored.check(self.con, STORED, self.path)

    def repair(self, drop_judgements: bool = False) -> CheckReport:
        """Remove what :meth:`check` finds, in one transaction; returns what was removed, per table. Refused,
        changing nothing, when it would delete human judgements or pronoun judgements, unless
        ``drop_judgements`` (:func:`evalhouse.stored.repair`)."""
        return _stored.repair(self.con, STORED, self.path, drop_judgements=drop_judgements)

    # --- queries -------------------------------------------------------------------------------
    def sql(self, query: str, params: Sequence | dict | None = None) -> "Result | None":
        """Run a query; returns its :class:`Result` (a DuckDB relation: ``.df()``, ``.fetchall()``,
        ``.fetchone()``, ``.arrow()``, ...), or None for a statement that returns no rows (CREATE, INSERT
        without RETURNING, SET, ...; the same with duckdb 1.5 and 2.0). A statement with ``params`` that
        returns no rows gives DuckDB's result of ``execute()`` instead, as it always did
        (``.fetchall()`` is ``[(rows changed,)]``).

        On a warehouse opened read-only with ``functions=False``, evalhouse's SQL functions are registered
        first when the query names one, or when it fails for want of one (a view or macro of the user's
        that calls it) and is then run again: a read-only query changes nothing, so running it twice is safe."""
        if not self.functions and view_references(query, _FUNCTION_NAMES):
            self.register_functions()
        try:
            return self._run(query, params)
        except duckdb.CatalogException as err:
            if self.functions or not self.read_only or not any(f"name {n} " in str(err) for n in _FUNCTION_NAMES):
                raise
        self.register_functions()
        return self._run(query, params)

    def _run(self, query: str, params: Sequence | dict | None) -> "Result | None":
        if params is not None and not _returns_rows(self.con, query):
            return self.con.execute(query, params)
        rel = self.con.sql(query) if params is None else self.con.sql(query, params=params)
        # duckdb 2.0 also gives a relation for a statement (one row "Count", or no row "Success"), 1.5 gives None
        if rel is None or (rel.columns in (["Count"], ["Success"]) and not _returns_rows(self.con, query)):
            return None
        return Result(rel)

    def corpora(self) -> list[str]:
        return [r[0] for r in self.con.execute("SELECT corpus FROM corpora ORDER BY corpus").fetchall()]

    def require_corpus(self, corpus: str, what: str = "corpus") -> None:
        """Refuse an unknown treebank corpus, naming the ones there are."""
        have = self.corpora()
        if corpus not in have:
            raise WarehouseError(f"no {what} '{corpus}' in {self.path} (have: {', '.join(have) or 'none'})")

    def views(self, intermediate: bool | None = None) -> list[tuple[str, str]]:
        """(view name, description) for every evalhouse view by name; ``intermediate=False`` only the views meant
        for users, ``True`` only the building blocks they read (:attr:`SqlFile.intermediate`)."""
        names = [f.name for f in view_files() if intermediate is None or f.intermediate == intermediate]
        rows = dict(
            self.con.execute(
                "SELECT view_name, comment FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'"
            ).fetchall()
        )
        return [(n, rows.get(n) or "") for n in sorted(names)]

    def columns(self, relation: str) -> list[tuple[str, str, str]]:
        """(column, type, description) of a table or view."""
        return [
            tuple(r)
            for r in self.con.execute(
                "SELECT column_name, data_type, coalesce(comment, '') FROM duckdb_columns() "
                "WHERE table_name = $name AND schema_name = 'main' ORDER BY column_index",
                {"name": relation},
            ).fetchall()
        ]

    # --- ingest and export (the work is done in evalhouse.ingest and evalhouse.export) ---------
    # Every input a user stores has one method here, with the parameters of the module function that does
    # the work (its body); the CLI calls these methods (tests/test_python_api.py).
    def ingest_treebank(
        self,
        paths: Iterable[str | os.PathLike],
        corpus: str | None = None,
        language: str | None = None,
        replace: bool = False,
        progress: ProgressLike | None = None,
        input_of: str | None = None,
    ) -> list[CorpusSummary]:
        """Ingest CoNLL-U files (or directories of them) in one transaction:
        :func:`evalhouse.ingest.treebanks.ingest_treebank`."""
        return treebanks.ingest_treebank(
            self, paths, corpus=corpus, language=language, replace=replace, progress=progress, input_of=input_of
        )

    def ingest_outputs(
        self,
        path: str | os.PathLike | None = None,
        reference: str | None = None,
        team: str | None = None,
        run: str | None = None,
        format: str = "auto",
        manifest: str | os.PathLike | None = None,
        replace: bool = False,
        progress: ProgressLike | None = None,
        drop_judgements: bool = False,
        lexicon: bool = True,
        lexicon_min_count: int = 1,
        sacrebleu: bool = True,
        inflection: bool = True,
    ) -> list[SubmissionSummary]:
        """Ingest and score system outputs against a reference corpus, in one transaction:
        :func:`evalhouse.ingest.outputs.ingest_outputs`."""
        return outputs.ingest_outputs(
            self,
            path,
            reference=reference,
            team=team,
            run=run,
            format=format,
            manifest=manifest,
            replace=replace,
            progress=progress,
            drop_judgements=drop_judgements,
            lexicon=lexicon,
            lexicon_min_count=lexicon_min_count,
            sacrebleu=sacrebleu,
            inflection=inflection,
        )

    def ingest_judgements(self, path: str | os.PathLike) -> int:
        """Ingest human judgements (CSV: team, run, corpus, sent_id, annotator, criterion, score):
        :func:`evalhouse.ingest.judgements.ingest_judgements`."""
        return judgements.ingest_judgements(self, path)

    def ingest_parses(
        self,
        path: str | os.PathLike,
        corpus: str,
        *,
        gold: bool = False,
        team: str | None = None,
        run: str | None = None,
        params: EvalbParams | None = None,
        cost: LabelCost | None = None,
        replace: bool = False,
        one_per_line: bool = False,
        allow_mismatch: bool = False,
    ) -> ParseRunSummary:
        """Ingest bracketed parses, gold (``gold=True``) or a candidate run scored against them, in one
        transaction: :func:`evalhouse.ingest.parses.ingest_parses`."""
        return parses.ingest_parses(
            self,
            path,
            corpus,
            gold=gold,
            team=team,
            run=run,
            params=params,
            cost=cost,
            replace=replace,
            one_per_line=one_per_line,
            allow_mismatch=allow_mismatch,
        )

    def ingest_dependency_run(
        self,
        system_path: str | os.PathLike,
        gold_path: str | os.PathLike,
        corpus: str,
        team: str,
        run: str,
        cost: LabelCost | None = None,
        replace: bool = False,
    ) -> dict[str, object]:
        """Score and store a dependency parser's CoNLL-U output against gold trees, in one transaction:
        :func:`evalhouse.ingest.dependency_runs.ingest_dependency_run`."""
        return dependency_runs.ingest_dependency_run(
            self, system_path, gold_path, corpus, team, run, cost=cost, replace=replace
        )

    def ingest_translations(
        self,
        corpus: str,
        *,
        source: str | os.PathLike | None = None,
        reference: str | os.PathLike | None = None,
        source_reference_alignment: str | os.PathLike | None = None,
        documents: str | os.PathLike | None = None,
        pronouns: str | None = None,
        source_language: str | None = None,
        target_language: str | None = None,
        team: str | None = None,
        run: str | None = None,
        output: str | os.PathLike | None = None,
        source_output_alignment: str | os.PathLike | None = None,
        replace: bool = False,
        skip_bad_alignment_lines: bool = False,
        drop_systems: bool = False,
        drop_judgements: bool = False,
    ) -> TranslationSummary:
        """Ingest a parallel corpus and/or a system translation and score its pronouns, in one transaction:
        :func:`evalhouse.ingest.translations.ingest_translations`."""
        return translations.ingest_translations(
            self,
            corpus,
            source=source,
            reference=reference,
            source_reference_alignment=source_reference_alignment,
            documents=documents,
            pronouns=pronouns,
            source_language=source_language,
            target_language=target_language,
            team=team,
            run=run,
            output=output,
            source_output_alignment=source_output_alignment,
            replace=replace,
            skip_bad_alignment_lines=skip_bad_alignment_lines,
            drop_systems=drop_systems,
            drop_judgements=drop_judgements,
        )

    def ingest_pronoun_judgements(self, path: str | os.PathLike, corpus: str, replace: bool = False) -> int:
        """Ingest human judgements of a translation corpus's pronouns (CSV):
        :func:`evalhouse.ingest.pronoun_judgements.ingest_pronoun_judgements`."""
        return pronoun_judgements.ingest_pronoun_judgements(self, path, corpus, replace=replace)

    def add_apt_config(self, corpus: str, spec: ConfigSpec, replace: bool = False) -> int:
        """Add a pronoun configuration to a translation corpus and score every system with it, in one
        transaction (``spec``: :func:`evalhouse.ingest.translations.config_spec`):
        :func:`evalhouse.ingest.translations.add_config`."""
        return translations.add_config(self, corpus, spec, replace=replace)

    def run_apt_config(
        self,
        config_path: str | os.PathLike,
        corpus: str | None = None,
        team: str = "system",
        run: str | None = None,
        replace: bool = False,
        drop_systems: bool = False,
        drop_judgements: bool = False,
    ) -> AptReport:
        """Ingest the files of an original APT configuration file and return APT's report:
        :func:`evalhouse.ingest.apt_configs.run_apt_config`."""
        return apt_configs.run_apt_config(
            self,
            config_path,
            corpus=corpus,
            team=team,
            run=run,
            replace=replace,
            drop_systems=drop_systems,
            drop_judgements=drop_judgements,
        )

    def run_baseline(
        self,
        kind: str,
        corpus: str,
        team: str = "baseline",
        run: str | None = None,
        train: str | None = None,
        seed: int = 1,
        out: str | os.PathLike | None = None,
        replace: bool = False,
        drop_judgements: bool = False,
    ) -> SubmissionSummary:
        """Realise a corpus with a baseline (``random`` or ``lr``) and ingest it as a submission:
        :func:`evalhouse.ingest.baselines.run_baseline`."""
        return baselines.run_baseline(
            self,
            kind,
            corpus,
            team=team,
            run=run,
            train=train,
            seed=seed,
            out=out,
            replace=replace,
            drop_judgements=drop_judgements,
        )

    def export_view(
        self,
        view: str,
        out: str | os.PathLike,
        format: str | None = None,
        corpus: Sequence[str] | None = None,
        neutralise_formulas: bool = False,
        caption: str | None = None,
        digits: int | None = None,
        fit: bool = False,
    ) -> int:
        """Write a view or table to Parquet, CSV, JSON (an array of row objects) or a LaTeX (booktabs) table;
        returns rows written. ``corpus`` filters are bound parameters, never pasted into SQL;
        ``neutralise_formulas`` puts a ``'`` before CSV text that a spreadsheet would run as a formula;
        ``caption``, ``digits`` (decimals of floats) and ``fit`` (split a table wider than the page) are LaTeX's
        (:mod:`evalhouse.export.relation`)."""
        return relation.export_relation(
            self,
            view,
            out,
            format=format,
            corpus=corpus,
            neutralise_formulas=neutralise_formulas,
            caption=caption,
            digits=digits,
            fit=fit,
        )

    def export_query(
        self,
        query: str,
        out: str | os.PathLike,
        format: str | None = None,
        neutralise_formulas: bool = False,
        caption: str | None = None,
        digits: int | None = None,
        fit: bool = False,
    ) -> int:
        """Write the rows of a query to a file, as :meth:`export_view` writes a view's; returns rows written."""
        return relation.export_query(
            self,
            query,
            out,
            format=format,
            neutralise_formulas=neutralise_formulas,
            caption=caption,
            digits=digits,
            fit=fit,
        )

    def export_conllu(self, corpus: str, out: str | os.PathLike) -> int:
        """Write a corpus back as CoNLL-U (byte-identical to a canonical input); returns sentences."""
        self.require_corpus(corpus)
        return conllu.write_corpus(self.con, corpus, out)


def connect(
    path: str | os.PathLike | None = None,
    read_only: bool = False,
    memory_limit: str | None = None,
    verify: bool = True,
    functions: bool = True,
    sandbox: bool = False,
    writable: Sequence[str | os.PathLike] = (),
) -> Warehouse:
    """Open (creating if needed) a warehouse: ``path``, else ``$EVALHOUSE_DB``, else ./warehouse.duckdb.

    ``memory_limit`` (e.g. ``"2GB"``; else ``$EVALHOUSE_MEMORY_LIMIT``, else DuckDB's default of 80%
    of RAM) caps DuckDB's memory; larger work spills to a temporary directory beside the file.

    Opening an existing file read-write runs :meth:`Warehouse.check` first and raises
    :class:`evalhouse.stored.TornWarehouseError` when a write killed during COMMIT left rows that belong to
    nothing stored; ``verify=False`` skips that (to repair it: ``connect(path, verify=False).repair()``).

    ``functions=False`` with ``read_only``: evalhouse's SQL functions are registered when
    :meth:`Warehouse.sql` first needs them, not at once (see :meth:`Warehouse.register_functions`).

    ``sandbox=True`` (``evalhouse sql`` without ``--write``) confines the connection to the warehouse: no
    other file or URL is read or written, no database attached, no extension installed or loaded, no
    setting changed (:data:`SANDBOX`); such statements raise ``duckdb.PermissionException`` or
    ``duckdb.InvalidInputException`` (:func:`is_sandbox_refusal`). Queries, views and SQL functions work as usual.
    Every command that only reads (``export``, ``export-dataset``, ``report``, ``views``, ...) opens the warehouse
    so, with ``writable`` naming what it writes (:meth:`Warehouse.confine`): a view stored in a shared warehouse
    file cannot read local files into what it exports.
    """
    return Warehouse(
        path or os.environ.get("EVALHOUSE_DB") or DEFAULT_DB,
        read_only=read_only,
        memory_limit=memory_limit or os.environ.get("EVALHOUSE_MEMORY_LIMIT") or None,
        verify=verify,
        functions=functions,
        sandbox=sandbox,
        writable=writable,
    )


__all__ = [
    "Warehouse",
    "WarehouseError",
    "TornWarehouseError",
    "InputError",
    "CorpusSummary",
    "STORED",
    "connect",
    "schema_files",
    "view_files",
]
