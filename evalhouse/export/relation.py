"""Export a view or table to Parquet, CSV or JSON, filtered by corpus with bound data, not SQL text.

    $ evalhouse export corpus_complexity --out table2.csv --format csv --corpus en_ewt-test

**Formulas in CSV** (issue 17). A spreadsheet that opens a CSV file runs a cell that starts with ``=``,
``+``, ``-`` or ``@`` as a formula (OWASP's "CSV injection"; a tab or carriage return first can do the same),
and names users stored (teams, runs, sentences, lemmas) can start that way. By default a CSV export writes
every value exactly as stored: a number such as -0.5 and a lemma such as "-" must reach R or pandas
unchanged. ``neutralise_formulas=True`` (``--neutralise-formulas``) is for files meant for a spreadsheet:
each text value that starts with one of those characters is written with a ``'`` in front, which
spreadsheets take as "this is text" and do not show. Only text columns are touched (numbers, dates and
lists cannot start a formula: -0.5 stays -0.5), and only in CSV.
"""

from __future__ import annotations

import os
from typing import Sequence

from evalhouse.errors import OptionError, WarehouseError

FORMATS = ("parquet", "csv", "json")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula (OWASP)


def neutralise(value):
    """``value`` with a ``'`` in front when it is text a spreadsheet would run as a formula; anything else
    (numbers included) as it is."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_START) else value


def _neutralised_columns(wh, name: str) -> list[str]:
    """The select list of ``name`` with every text column through the SQL form of :func:`neutralise`."""
    from sqlglot import exp  # late, as in export_relation: the warehouse imports this module

    starts = ", ".join(exp.Literal.string(c).sql(dialect="duckdb") for c in FORMULA_START)
    quote = exp.Literal.string("'").sql(dialect="duckdb")
    out = []
    for column, data_type, _ in wh.columns(name):
        col = exp.to_identifier(column, quoted=True).sql(dialect="duckdb")
        if data_type == "VARCHAR":
            out.append(f"CASE WHEN left({col}, 1) IN ({starts}) THEN {quote} || {col} ELSE {col} END AS {col}")
        else:
            out.append(col)
    return out


def _format_for(out: str, format: str | None) -> str:
    if format is None:
        ext = os.path.splitext(out)[1].lower().lstrip(".")
        format = {"parquet": "parquet", "pq": "parquet", "csv": "csv", "json": "json"}.get(ext)
        if format is None:
            raise OptionError(f"cannot tell the format from '{out}'; pass `format` (valid formats: {', '.join(FORMATS)})")
    if format not in FORMATS:
        raise OptionError(f"unknown format '{format}'; valid formats: {', '.join(FORMATS)}")
    return format


def written_paths(out: str | os.PathLike) -> list[str]:
    """The files exporting to ``out`` writes: ``out``, and the ``tmp_<name>`` beside it that DuckDB writes first
    and renames when ``out`` exists (duckdb 1.5 and 2.0): what a confined reader must be allowed to write
    (:meth:`evalhouse.warehouse.Warehouse.confine`)."""
    out = os.path.abspath(out)
    folder, name = os.path.split(out)
    return [out, os.path.join(folder, "tmp_" + name)]


def export_relation(wh, name: str, out: str | os.PathLike, format: str | None = None,
                    corpus: Sequence[str] | None = None, neutralise_formulas: bool = False) -> int:
    """Write relation ``name`` (a view or base table) to ``out``; returns the number of rows.
    ``neutralise_formulas`` (CSV only): see the module's docstring."""
    # sqlglot (~0.1 s) only when exporting: the warehouse imports this module for export_view()
    from sqlglot import exp

    out = os.fspath(out)
    fmt = _format_for(out, format)
    out = os.path.abspath(out)  # as written_paths() names it
    known = {r[0] for r in wh.con.execute(
        "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' "
        "UNION SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary").fetchall()}
    if name not in known:
        raise WarehouseError(f"no view or table '{name}' in {wh.path} (tables: corpora, sentences, nodes, edges, ...; "
                             "every view is described in docs/data-dictionary.md)")
    if neutralise_formulas and fmt != "csv":
        raise OptionError(f"`neutralise_formulas` is for CSV files, not {fmt}")
    columns = _neutralised_columns(wh, name) if neutralise_formulas else ["*"]
    query = exp.select(*columns).from_(exp.Table(this=exp.to_identifier(name, quoted=True)))
    if corpus:
        if "corpus" not in {c[0] for c in wh.columns(name)}:
            raise WarehouseError(f"'{name}' has no corpus column to filter on")
        wh.con.execute("CREATE OR REPLACE TEMP TABLE eh_export_corpora (corpus VARCHAR)")
        wh.con.executemany("INSERT INTO eh_export_corpora VALUES (?)", [[c] for c in corpus])
        query = query.where(exp.column("corpus").isin(query=exp.select("corpus").from_("eh_export_corpora")))
    options = {"parquet": "FORMAT parquet", "csv": "FORMAT csv, HEADER true", "json": "FORMAT json, ARRAY true"}[fmt]
    statement = f"COPY ({query.sql(dialect='duckdb')}) TO {exp.Literal.string(out).sql(dialect='duckdb')} ({options})"
    try:
        rows = wh.con.execute(f"SELECT count(*) FROM ({query.sql(dialect='duckdb')})").fetchall()[0][0]
        wh.con.execute(statement)
    finally:
        if corpus:
            wh.con.execute("DROP TABLE IF EXISTS eh_export_corpora")
    return rows
