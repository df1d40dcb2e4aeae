"""Export a view, a table or a query's result to Parquet, CSV, JSON or LaTeX, filtered by corpus with bound
data, not SQL text.

    $ evalhouse export corpus_complexity --out table2.csv --format csv --corpus en_ewt-test
    $ evalhouse export dea_by_relation --out dea.tex --corpus en_ewt-test          # booktabs, for a paper
    $ evalhouse export --query "select team, run, dea from submission_scores" --out board.tex

LaTeX is written by :mod:`evalhouse.export.latex` (the formatter the report's "LaTeX" toggles use): the
configuration columns go into the caption. A query runs as the query of ``evalhouse sql`` does (the CLI
opens the warehouse sandboxed: it reads only the warehouse); its rows are written here, not by the query.

**Formulas in CSV**. A spreadsheet that opens a CSV file runs a cell that starts with ``=``,
``+``, ``-`` or ``@`` as a formula (OWASP's "CSV injection"; a tab or carriage return first can do the same),
and names users stored (teams, runs, sentences, lemmas) can start that way. By default a CSV export writes
every value exactly as stored: a number such as -0.5 and a lemma such as "-" must reach R or pandas
unchanged. ``neutralise_formulas=True`` (``--neutralise-formulas``) is for files meant for a spreadsheet:
each text value that starts with one of those characters is written with a ``'`` in front, which
spreadsheets take as "this is text" and do not show. Only text columns are touched (numbers, dates and
lists cannot start a formula: -0.5 stays -0.5), and only in CSV.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import duckdb

from evalhouse.errors import OptionError, WarehouseError
from evalhouse.export import latex

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

FORMATS = ("parquet", "csv", "json", "latex")
EXTENSIONS = {"parquet": "parquet", "pq": "parquet", "csv": "csv", "json": "json", "tex": "latex", "latex": "latex"}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula (OWASP)


def neutralise(value):
    """``value`` with a ``'`` in front when it is text a spreadsheet would run as a formula; anything else
    (numbers included) as it is."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_START) else value


def _neutralised_columns(columns: Sequence[tuple[str, str]]) -> list[str]:
    """The select list of ``columns`` ((name, DuckDB type) pairs) with every text column through the SQL form
    of :func:`neutralise`."""
    from sqlglot import exp  # late, as in export_relation: the warehouse imports this module

    starts = ", ".join(exp.Literal.string(c).sql(dialect="duckdb") for c in FORMULA_START)
    quote = exp.Literal.string("'").sql(dialect="duckdb")
    out = []
    for column, data_type in columns:
        col = exp.to_identifier(column, quoted=True).sql(dialect="duckdb")
        if data_type == "VARCHAR":
            out.append(f"CASE WHEN left({col}, 1) IN ({starts}) THEN {quote} || {col} ELSE {col} END AS {col}")
        else:
            out.append(col)
    return out


def _format_for(out: str, format: str | None) -> str:
    if format is None:
        ext = os.path.splitext(out)[1].lower().lstrip(".")
        format = EXTENSIONS.get(ext)
        if format is None:
            raise OptionError(
                f"cannot tell the format from '{out}'; pass `format` (valid formats: {', '.join(FORMATS)})"
            )
    if format not in FORMATS:
        raise OptionError(f"unknown format '{format}'; valid formats: {', '.join(FORMATS)}")
    return format


def _latex_options(fmt: str, caption: str | None, digits: int | None, fit: bool = False) -> None:
    if fmt != "latex" and (caption is not None or digits is not None or fit):
        raise OptionError(f"`caption`, `digits` and `fit` are for LaTeX tables, not {fmt}")
    if digits is not None and not 0 <= digits <= 12:
        raise OptionError(f"`digits` must be 0 to 12, not {digits}")


def _write_latex(result, out: str, caption: str, label: str, digits: int | None, fit: bool) -> int:
    names = list(result.columns)
    rows = result.fetchall()
    Path(out).write_text(
        latex.relation_table(names, rows, caption, label, digits=3 if digits is None else digits, fit=fit),
        encoding="utf-8",
    )
    return len(rows)


def too_wide(out: str) -> str:
    """The comment :func:`evalhouse.export.latex.table` wrote above a table wider than the page, if any (for
    the command to repeat on stderr)."""
    try:
        text = Path(out).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    found = re.search(r"^% evalhouse: (about \d+ pt wide, .*)$", text, re.M)
    return found.group(1) if found else ""


def written_paths(out: str | os.PathLike) -> list[str]:
    """The files exporting to ``out`` writes: ``out``, and the ``tmp_<name>`` beside it that DuckDB writes first
    and renames when ``out`` exists (duckdb 1.5 and 2.0): what a confined reader must be allowed to write
    (:meth:`evalhouse.warehouse.Warehouse.confine`)."""
    out = os.path.abspath(out)
    folder, name = os.path.split(out)
    return [out, os.path.join(folder, "tmp_" + name)]


def export_relation(
    wh: Warehouse,
    name: str,
    out: str | os.PathLike,
    format: str | None = None,
    corpus: Sequence[str] | None = None,
    neutralise_formulas: bool = False,
    caption: str | None = None,
    digits: int | None = None,
    fit: bool = False,
) -> int:
    """Write relation ``name`` (a view or base table) to ``out``; returns the number of rows.
    ``neutralise_formulas`` (CSV only): see the module's docstring. ``caption`` (LaTeX only; default: the
    relation's name and the corpora kept), ``digits`` (LaTeX only: decimals of floats, default 3) and ``fit``
    (LaTeX only: split a table wider than the page, :func:`evalhouse.export.latex.fitted`)."""
    # sqlglot (~0.1 s) only when exporting: the warehouse imports this module for export_view()
    from sqlglot import exp

    out = os.fspath(out)
    fmt = _format_for(out, format)
    out = os.path.abspath(out)  # as written_paths() names it
    known = {
        r[0]
        for r in wh.con.execute(
            "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' "
            "UNION SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary"
        ).fetchall()
    }
    if name not in known:
        close = difflib.get_close_matches(name, sorted(known), n=1)
        hint = f"; did you mean {close[0]}?" if close else ""
        raise WarehouseError(
            f"no view or table '{name}' in {wh.path}{hint} (tables: corpora, sentences, nodes, "
            "edges, ...; `evalhouse views` lists every view, described in docs/data-dictionary.md)"
        )
    if neutralise_formulas and fmt != "csv":
        raise OptionError(f"`neutralise_formulas` is for CSV files, not {fmt}")
    _latex_options(fmt, caption, digits, fit)
    columns = _neutralised_columns([c[:2] for c in wh.columns(name)]) if neutralise_formulas else ["*"]
    if fmt == "latex":
        columns = _with_configuration_text(wh, name)
    query = exp.select(*columns).from_(exp.Table(this=exp.to_identifier(name, quoted=True)))
    if corpus:
        if "corpus" not in {c[0] for c in wh.columns(name)}:
            raise WarehouseError(f"'{name}' has no corpus column to filter on")
        wh.con.execute("CREATE OR REPLACE TEMP TABLE eh_export_corpora (corpus VARCHAR)")
        wh.con.executemany("INSERT INTO eh_export_corpora VALUES (?)", [[c] for c in corpus])
        query = query.where(exp.column("corpus").isin(query=exp.select("corpus").from_("eh_export_corpora")))
    # rows sorted by every column, left to right (the key columns come first): the same warehouse exports the
    # same bytes whatever order its rows were inserted in or DuckDB's threads produced them
    ordered = query.sql(dialect="duckdb") + " ORDER BY ALL"
    try:
        if fmt == "latex":
            if caption is None:
                caption = name + (f" ({', '.join(corpus)})" if corpus else "")
            return _write_latex(wh.con.sql(ordered), out, caption, latex.label_of(name), digits, fit)
        rows = wh.con.execute(f"SELECT count(*) FROM ({query.sql(dialect='duckdb')})").fetchall()[0][0]
        wh.con.execute(_copy(ordered, out, fmt))
    finally:
        if corpus:
            wh.con.execute("DROP TABLE IF EXISTS eh_export_corpora")
    return rows


def _with_configuration_text(wh: Warehouse, name: str) -> list[str]:
    """The select list of relation ``name`` for a LaTeX table: its columns, with a ``configuration_id`` (the
    score views') replaced by the configuration's whole text from ``configurations``, which the table's caption
    quotes (:mod:`evalhouse.export.latex`): a paper carries the configuration itself, not an id."""
    from sqlglot import exp  # late, as in export_relation: the warehouse imports this module

    names = [c[0] for c in wh.columns(name)]
    if "configuration_id" not in names or "configuration" in names or not wh.columns("configurations"):
        return ["*"]
    table = exp.to_identifier(name, quoted=True).sql(dialect="duckdb")
    return [
        f"(SELECT k.configuration FROM configurations AS k WHERE k.configuration_id = {table}.configuration_id) "
        "AS configuration"
        if c == "configuration_id"
        else exp.to_identifier(c, quoted=True).sql(dialect="duckdb")
        for c in names
    ]


def _copy(select: str, out: str, fmt: str) -> str:
    from sqlglot import exp  # late, as in export_relation: the warehouse imports this module

    options = {"parquet": "FORMAT parquet", "csv": "FORMAT csv, HEADER true", "json": "FORMAT json, ARRAY true"}[fmt]
    return f"COPY ({select}) TO {exp.Literal.string(out).sql(dialect='duckdb')} ({options})"


def export_query(
    wh: Warehouse,
    query: str,
    out: str | os.PathLike,
    format: str | None = None,
    neutralise_formulas: bool = False,
    caption: str | None = None,
    digits: int | None = None,
    fit: bool = False,
) -> int:
    """Write the rows of ``query`` (one statement that returns rows) to ``out``; returns the number of rows.
    The query runs on ``wh``'s connection, which may be sandboxed (nothing but the warehouse read): the file
    is written by Python (LaTeX) or by a connection of its own that holds only the query's rows. Options as
    in :func:`export_relation`; the caption of a LaTeX table defaults to the query."""
    out = os.fspath(out)
    fmt = _format_for(out, format)
    if neutralise_formulas and fmt != "csv":
        raise OptionError(f"`neutralise_formulas` is for CSV files, not {fmt}")
    _latex_options(fmt, caption, digits, fit)
    result = wh.sql(query)
    if result is None:
        raise OptionError("the query returns no rows to export (give a SELECT, or a statement with RETURNING)")
    if fmt == "latex":
        return _write_latex(
            result, out, "Query: " + " ".join(query.split()) if caption is None else caption, "tab:query", digits, fit
        )
    # an Arrow table: to_arrow_table in duckdb 2.0, fetch_arrow_table (deprecated there) in 1.5
    rows = getattr(result.relation, "to_arrow_table", result.relation.fetch_arrow_table)()
    writer = duckdb.connect()
    try:
        writer.register("eh_query", rows)
        columns = list(zip(result.columns, (str(t) for t in result.types)))
        select = ", ".join(_neutralised_columns(columns)) if neutralise_formulas else "*"
        writer.execute(_copy(f"SELECT {select} FROM eh_query", out, fmt))
    finally:
        writer.close()
    return rows.num_rows
