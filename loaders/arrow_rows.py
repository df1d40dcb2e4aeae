"""Run one SQL statement over an Arrow table without putting the table in DuckDB's catalog.

``con.register(name, table)`` followed by ``con.unregister(name)`` creates and drops a view whose
dependency holds the Python object; inside a transaction the dropped view (and with it the table) is
kept until COMMIT.  An ingest that inserts chunk after chunk in one transaction therefore held every
chunk's Arrow buffers to the end: 339 MB of Arrow memory for a 2M-word treebank, growing with the
input (BENCHMARKS.md, "Ingest peak memory").  DuckDB's replacement scan instead finds the table as a
local variable of the frame that calls ``execute`` and lets go of it when the statement ends, in
duckdb 1.5.6 and 2.0.  (``con.from_arrow(t).query(...)`` lets go in 2.0 but not in 1.5.6.)
"""

from __future__ import annotations

ROWS = "eh_rows"  # the name the statement uses for the table


def execute_on_rows(con, sql: str, rows) -> None:
    """Execute ``sql``, in which the table ``eh_rows`` is ``rows`` (an Arrow table or record batch)."""
    eh_rows = rows  # read by DuckDB's replacement scan, by name, from this frame's locals
    try:
        con.execute(sql)
    finally:
        del eh_rows  # the table is not kept a moment longer than the statement
