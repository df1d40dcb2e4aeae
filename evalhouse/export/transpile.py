"""One definition of each view, many engines: the schema and every view transpiled with sqlglot.

    $ evalhouse export-sql --dialect spark --out evalhouse-spark.sql --dataset dataset/
    wrote 38 tables and 31 of 31 views (spark) to evalhouse-spark.sql
    Checked: evalhouse's tests run this SQL on spark and compare every view's rows with DuckDB's.

The views are read from ``sql/`` (DuckDB dialect) and written with ``sqlglot`` for the target dialect,
over base tables of the same names: either tables created by the emitted DDL, or (``--dataset DIR``,
DuckDB and Spark) the Parquet dataset written by ``evalhouse export-dataset`` (:mod:`evalhouse.export.dataset`). Views whose values need
Python (flux weights, BLEU statistics, tree lineages) read the tables materialised at ingest, so
no view needs a Python function on the target engine.

A view is *not* emitted, and the reason is given instead, when sqlglot reports the target cannot
express part of it (``unsupported_level=RAISE``, e.g. PostgreSQL has no ``IGNORE NULLS``), when it
calls a DuckDB function that sqlglot does not model (it would be copied verbatim and fail), or when
the emitted text does not parse back in the target dialect. A view that reads a view that was not
emitted is not emitted either. Today every view is emitted for every dialect. Every view is run on
Spark and PostgreSQL by the test suite (``tests/test_engines.py``) and its rows compared with
DuckDB's; no Trino or BigQuery engine runs here, and the file says so (:func:`verification`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import sqlglot
from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ErrorLevel, ParseError, UnsupportedError

from evalhouse.errors import OptionError
from evalhouse.export.manifest import full_partition_value, parquet_glob, read_manifest
from evalhouse.version import __version__
from evalhouse.warehouse import macro_files, schema_files, view_files

DIALECTS = ("duckdb", "postgres", "spark", "trino", "bigquery")
DATASET_DIALECTS = ("duckdb", "spark")
# dialects whose emitted SQL the test suite runs on a real engine, comparing every view's rows with
# DuckDB's (tests/test_engines.py); for the others it is sqlglot's translation, parsed back, not run
ENGINE_TESTED_DIALECTS = ("duckdb", "spark", "postgres")
# dialects whose COMMENT ON VIEW / COLUMN statements are emitted (others get the description as a comment)
COMMENT_DIALECTS = ("duckdb", "postgres")


def session_settings(dialect: str, dataset: bool = False) -> list[str]:
    """Statements to run before the views. Spark 4.1 stops a recursive CTE after 1M rows by default
    (``spark.sql.cteRecursionRowLimit``); ``tree_node_depth`` has one row per word, so the limit is
    lifted. Over a dataset, hive partition values stay strings (no type guessing)."""
    if dialect != "spark":
        return []
    out = ["SET spark.sql.cteRecursionRowLimit = -1"]
    if dataset:
        out.append("SET spark.sql.sources.partitionColumnTypeInference.enabled = false")
    return out


@dataclass(frozen=True)
class Transpiled:
    name: str
    kind: str  # "table" or "view"
    description: str
    statements: tuple[str, ...]  # empty when not transpiled
    reason: str | None = None  # why it was not transpiled

    @property
    def ok(self) -> bool:
        return self.reason is None


def _check_dialect(dialect: str) -> None:
    if dialect not in DIALECTS:
        raise OptionError(f"unknown dialect '{dialect}'; valid dialects: {', '.join(DIALECTS)}")


def _parts(text: str):
    statements = [s for s in sqlglot.parse(text, read="duckdb") if s is not None]
    create = next(s for s in statements if isinstance(s, exp.Create))
    comments = [s for s in statements if isinstance(s, exp.Comment)]
    return create, comments


_MACRO = re.compile(r"CREATE\s+OR\s+REPLACE\s+MACRO\s+(\w+)\s*\(([^)]*)\)\s+AS\s+(.*?);", re.S | re.I)


@lru_cache(maxsize=1)
def _macros() -> dict[str, tuple[list[str], exp.Expression]]:
    """The macros of ``sql/macros/``: name -> (parameters, body parsed as DuckDB SQL)."""
    out = {}
    for f in macro_files():
        m = _MACRO.search(re.sub(r"--[^\n]*", "", f.text))
        params = [p.strip() for p in m.group(2).split(",")]
        out[m.group(1).lower()] = (params, sqlglot.parse_one(m.group(3), read="duckdb"))
    return out


def _expand_macros(create):
    """Every call of a macro of ``sql/macros/`` replaced by its body, the arguments put in for its parameters
    (in parentheses): other engines have no DuckDB macro, and the emitted SQL creates none."""
    macros = _macros()

    def expand(node):
        if isinstance(node, exp.Anonymous) and node.name.lower() in macros:
            params, body = macros[node.name.lower()]
            args = dict(zip(params, node.expressions))

            def put(n):
                if isinstance(n, exp.Column) and not n.table and n.name in args:
                    return exp.Paren(this=args[n.name].copy())
                return n

            return exp.Paren(this=body.copy().transform(put))
        return node

    return create.transform(expand)


def _description(comments, kind: str) -> str:
    for c in comments:
        if c.args["kind"].upper() == kind.upper():
            return c.expression.this if hasattr(c.expression, "this") else str(c.expression)
    return ""


def _generate(expression, dialect: str) -> str:
    return expression.sql(dialect=dialect, unsupported_level=ErrorLevel.RAISE, comments=False)


def _portable(create, dialect: str):
    """Rewrite DuckDB conveniences that sqlglot passes through unchanged but other engines reject, into
    equivalent standard SQL (each rewrite is checked on Spark and PostgreSQL by tests/test_engines.py):

    - ``GROUP BY ALL`` becomes the list of the select expressions that contain no aggregate (DuckDB's
      own definition; PostgreSQL has no GROUP BY ALL, and in Trino ``ALL`` means something else);
    - a subquery in FROM without an alias gets one (PostgreSQL before 16 requires it);
    - ``log(b, x)`` (``log2``) becomes ``ln(x) / ln(b)`` on PostgreSQL, whose two-argument ``log``
      takes only NUMERIC;
    - the ORDER BY inside ``string_agg`` takes the target's default NULL placement: the aggregate
      skips NULLs, so where they would sort cannot change the result, and BigQuery accepts no
      ``NULLS LAST`` there.
    """
    if dialect == "duckdb":
        return create
    create = create.copy()
    for select in list(create.find_all(exp.Select)):
        group = select.args.get("group")
        if group is not None and group.args.get("all"):
            keys = []
            for e in select.expressions:
                inner = e.this if isinstance(e, exp.Alias) else e
                if isinstance(inner, exp.Star) or (isinstance(inner, exp.Column) and isinstance(inner.this, exp.Star)):
                    raise _Untranslatable("GROUP BY ALL over SELECT * cannot be expanded")
                if not any(isinstance(n, exp.AggFunc) for n in inner.find_all(exp.AggFunc)) and not inner.find(
                    exp.Window
                ):
                    keys.append(inner.copy())
            select.set("group", exp.Group(expressions=keys))
    for k, sub in enumerate(list(create.find_all(exp.Subquery))):
        if isinstance(sub.parent, (exp.From, exp.Join)) and not sub.alias:
            sub.set("alias", exp.TableAlias(this=exp.to_identifier(f"_q{k}")))
    null_ordering = Dialect.get_or_raise(dialect).NULL_ORDERING
    for aggregate in create.find_all(exp.GroupConcat):
        for ordered in aggregate.find_all(exp.Ordered):
            descending = bool(ordered.args.get("desc"))
            ordered.set(
                "nulls_first",
                {"nulls_are_small": not descending, "nulls_are_large": descending, "nulls_are_last": False}[
                    null_ordering
                ],
            )
    if dialect == "postgres":
        for log in list(create.find_all(exp.Log)):
            if log.expression is not None:
                log.replace(exp.Div(this=exp.Ln(this=log.expression.copy()), expression=exp.Ln(this=log.this.copy())))
    return create


class _Untranslatable(Exception):
    pass


def _portable_table(create, dialect: str):
    """Table DDL for engines without enforced keys or fixed-size arrays (a DuckDB ``INTEGER[4]``
    becomes a plain array; sqlglot would write ``ARRAY<INT>[4]``, which they reject). Trino has no key constraints: the key is dropped
    (it stays in the table's comment and docs/data-dictionary.md). BigQuery takes keys only as
    ``NOT ENFORCED``, and an ARRAY column is never NULL there (it is a repeated field, empty for no
    values) and cannot be declared NOT NULL. Spark's file-source tables take no key constraints either.
    These follow the engines' documentation; Spark's is also run by tests/test_engines.py."""
    if dialect not in ("trino", "bigquery", "spark"):
        return create
    create = create.copy()
    for data_type in create.find_all(exp.DataType):  # DuckDB's fixed-size INTEGER[4]: a plain array
        if data_type.is_type(exp.DataType.Type.ARRAY) and data_type.args.get("values"):
            data_type.set("values", None)
    schema = create.this
    for column in list(schema.find_all(exp.ColumnDef)):  # a one-column key becomes a table key
        for constraint in list(column.args.get("constraints") or []):
            if isinstance(constraint.args.get("kind"), exp.PrimaryKeyColumnConstraint):
                constraint.pop()
                schema.append("expressions", exp.PrimaryKey(expressions=[column.this.copy()]))
    for key in list(create.find_all(exp.PrimaryKey)):
        if dialect == "bigquery":
            key.set("options", [exp.var("NOT ENFORCED")])
        else:
            key.pop()
    if dialect == "bigquery":
        for column in create.find_all(exp.ColumnDef):
            kind = column.args.get("kind")
            if kind is not None and kind.is_type(exp.DataType.Type.ARRAY):
                for constraint in list(column.args.get("constraints") or []):
                    if isinstance(constraint.args.get("kind"), exp.NotNullColumnConstraint):
                        constraint.pop()
    return create


def _problems(create, dialect: str) -> str | None:
    """Why ``create`` cannot be emitted for ``dialect`` (None if it can)."""
    if dialect == "duckdb":
        return None
    unknown = sorted({f.name.lower() for f in create.find_all(exp.Anonymous)})
    if unknown:
        names = ", ".join(f"{n}()" for n in unknown)
        return (
            f"uses the DuckDB function{'s' if len(unknown) > 1 else ''} {names}, which sqlglot cannot "
            f"translate to {dialect}"
        )
    try:
        text = _generate(_portable(create, dialect), dialect)
    except _Untranslatable as err:
        return str(err)
    except UnsupportedError as err:
        return f"sqlglot: {str(err).splitlines()[0]}"
    try:
        sqlglot.parse_one(text, read=dialect)
    except ParseError as err:
        return f"the {dialect} SQL sqlglot writes does not parse back: {str(err).splitlines()[0]}"
    return None


def _table_statements(create, comments, dialect: str, dataset: str | None, manifest: dict | None) -> list[str]:
    name = create.this.find(exp.Table).name
    if dataset is None:
        out = [_generate(_portable_table(create, dialect), dialect)]
    elif dialect == "duckdb":
        entry = manifest["relations"][name]
        hive = "true" if entry["partition_by"] else "false"
        part = entry["partition_by"]
        columns = (
            "*"
            if not entry.get("shortened_partitions")
            else f"* REPLACE ({full_partition_value(entry, part)} AS {exp.to_identifier(part, quoted=True).sql('duckdb')})"
        )
        out = [
            f"CREATE OR REPLACE VIEW {exp.to_identifier(name).sql('duckdb')} AS SELECT {columns} FROM read_parquet("
            f"{exp.Literal.string(parquet_glob(dataset, name)).sql('duckdb')}, hive_partitioning = {hive}, "
            f"hive_types_autocast = false)"
        ]
    else:  # spark
        path = str(Path(dataset).resolve() / name)
        out = [
            f"CREATE OR REPLACE TEMPORARY VIEW {exp.to_identifier(name).sql('spark')} USING parquet "
            f"OPTIONS (path {exp.Literal.string(path).sql('spark')})"
        ]
        return out
    if dialect in COMMENT_DIALECTS and not (dataset and dialect == "duckdb"):
        out += [_generate(c, dialect) for c in comments]
    return out


def _view_statements(create, comments, dialect: str, temporary: bool) -> list[str]:
    text = _generate(_portable(create, dialect), dialect)
    if temporary:
        # Spark: a permanent view cannot read the temporary views that map the Parquet dataset
        text = text.replace("CREATE OR REPLACE VIEW", "CREATE OR REPLACE TEMPORARY VIEW", 1)
    out = [text]
    if dialect in COMMENT_DIALECTS:
        out += [_generate(c, dialect) for c in comments]
    return out


def transpile_all(dialect: str, dataset: str | os.PathLike | None = None) -> list[Transpiled]:
    """The schema (tables, or views over the Parquet dataset) and every view, in dependency order."""
    _check_dialect(dialect)
    manifest = None
    if dataset is not None:
        if dialect not in DATASET_DIALECTS:
            raise OptionError(
                f"`dataset` works with {' and '.join(DATASET_DIALECTS)}; for {dialect}, create the "
                "tables with the emitted DDL and load the Parquet files (see docs/engines-and-bi.md)"
            )
        dataset = os.fspath(dataset)
        manifest = read_manifest(dataset)
    results: list[Transpiled] = []
    for f in schema_files():
        create, comments = _parts(f.text)
        if manifest is not None and f.name not in manifest["relations"]:
            results.append(Transpiled(f.name, "table", _description(comments, "table"), (), "not in the dataset"))
            continue
        reason = _problems(create, dialect)
        statements = () if reason else tuple(_table_statements(create, comments, dialect, dataset, manifest))
        results.append(Transpiled(f.name, "table", _description(comments, "table"), statements, reason))
    missing: set[str] = {r.name for r in results if not r.ok}
    for f in view_files():
        create, comments = _parts(f.text)
        create = _expand_macros(create)
        reads = sorted({t.name for t in create.find_all(exp.Table)} & missing)
        if reads:
            reason = f"reads {', '.join(reads)}, which {'is' if len(reads) == 1 else 'are'} not transpiled"
        else:
            reason = _problems(create, dialect)
        statements = (
            ()
            if reason
            else tuple(
                _view_statements(create, comments, dialect, temporary=dataset is not None and dialect == "spark")
            )
        )
        if reason:
            missing.add(f.name)
        results.append(Transpiled(f.name, "view", _description(comments, "view"), statements, reason))
    return results


def verification(dialect: str) -> str:
    """How far the SQL emitted for ``dialect`` has been checked (printed in the file and by the CLI)."""
    if dialect in ENGINE_TESTED_DIALECTS:
        return f"Checked: evalhouse's tests run this SQL on {dialect} and compare every view's rows with DuckDB's."
    return (
        f"Not checked on an engine: no {dialect} engine runs in evalhouse's tests. This is sqlglot's "
        "translation, parsed back in the dialect; report what fails."
    )


def render(results: list[Transpiled], dialect: str, dataset: str | None = None) -> str:
    """The SQL file: a header, then each object's statements; objects that were not transpiled are
    listed (with the reason) in the header and in place, as comments."""
    skipped = [r for r in results if not r.ok]
    lines = [
        f"-- evalhouse {__version__}: schema and views transpiled from DuckDB to {dialect} by sqlglot.",
        f"-- Over: {'the Parquet dataset ' + str(dataset) if dataset else 'tables of the same names'}.",
        f"-- {verification(dialect)}",
    ]
    if skipped:
        lines.append(f"-- Not transpiled ({len(skipped)}):")
        lines += [f"--   {r.name}: {r.reason}" for r in skipped]
    lines.append("")
    settings = session_settings(dialect, dataset is not None)
    if settings:
        lines += [s + ";" for s in settings] + [""]
    for r in results:
        lines.append(f"-- {r.kind} {r.name}: {r.description}")
        if not r.ok:
            lines += [f"-- NOT TRANSPILED: {r.reason}", ""]
            continue
        lines += [s + ";" for s in r.statements]
        lines.append("")
    return "\n".join(lines)


def export_sql(dialect: str, out: str | os.PathLike, dataset: str | os.PathLike | None = None) -> list[Transpiled]:
    """Write the transpiled schema and views to ``out``; returns the per-object results."""
    results = transpile_all(dialect, dataset)
    text = render(results, dialect, os.fspath(dataset) if dataset is not None else None)
    Path(out).write_text(text, encoding="utf-8")
    return results
