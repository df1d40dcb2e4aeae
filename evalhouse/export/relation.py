"""Export a view or table to Parquet, CSV or JSON, filtered by corpus with bound data, not SQL text.

    $ evalhouse export corpus_complexity --out table2.csv --format csv --corpus en_ewt-test
"""

from __future__ import annotations

import os
from typing import Sequence

from evalhouse.errors import OptionError, WarehouseError

FORMATS = ("parquet", "csv", "json")


def _format_for(out: str, format: str | None) -> str:
    if format is None:
        ext = os.path.splitext(out)[1].lower().lstrip(".")
        format = {"parquet": "parquet", "pq": "parquet", "csv": "csv", "json": "json"}.get(ext)
        if format is None:
            raise OptionError(f"cannot tell the format from '{out}'; pass `format` (valid formats: {', '.join(FORMATS)})")
    if format not in FORMATS:
        raise OptionError(f"unknown format '{format}'; valid formats: {', '.join(FORMATS)}")
    return format


def export_relation(wh, name: str, out: str | os.PathLike, format: str | None = None,
                    corpus: Sequence[str] | None = None) -> int:
    """Write relation ``name`` (a view or base table) to ``out``; returns the number of rows."""
    # sqlglot (~0.1 s) only when exporting: the warehouse imports this module for export_view()
    from sqlglot import exp

    out = os.fspath(out)
    fmt = _format_for(out, format)
    known = {r[0] for r in wh.con.execute(
        "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' "
        "UNION SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary").fetchall()}
    if name not in known:
        raise WarehouseError(f"no view or table '{name}' in {wh.path} (tables: corpora, sentences, nodes, edges, ...; "
                             "every view is described in docs/data-dictionary.md)")
    query = exp.select("*").from_(exp.Table(this=exp.to_identifier(name, quoted=True)))
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
