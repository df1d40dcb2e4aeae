"""The one writer of an ingest: SQL statements over Arrow rows (:func:`execute_on_rows`), run on a thread of
their own when an ingest streams (:class:`Writer`).

Run one SQL statement over an Arrow table without putting the table in DuckDB's catalog.

``con.register(name, table)`` followed by ``con.unregister(name)`` creates and drops a view whose
dependency holds the Python object; inside a transaction the dropped view (and with it the table) is
kept until COMMIT.  An ingest that inserts chunk after chunk in one transaction therefore held every
chunk's Arrow buffers to the end: 339 MB of Arrow memory for a 2M-word treebank, growing with the
input (BENCHMARKS.md, "Treebank ingest", "Peak memory").  DuckDB's replacement scan instead finds the table as a
local variable of the frame that calls ``execute`` and lets go of it when the statement ends, in
duckdb 1.5.6 and 2.0.  (``con.from_arrow(t).query(...)`` lets go in 2.0 but not in 1.5.6.)

Two limits of a replacement scan, both refused here rather than left to chance: a table or view that
is really called ``eh_rows`` (a user can create one with ``evalhouse sql --write``) would be read
instead of the rows, and a connection with ``python_enable_replacements = false`` finds no rows at all.
"""

from __future__ import annotations

import queue
import threading

import duckdb

from evalhouse.errors import WarehouseError

ROWS = "eh_rows"  # the name the statement uses for the table


def _shadowed(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the catalog has a table or view that ``eh_rows`` in a statement would name.  ``con.table``
    resolves the name as a statement would (case, schemas, temporary objects), in 0.1 ms against 0.8 ms
    for a duckdb_tables()/duckdb_views() query on the example warehouse; it also tries a replacement
    scan, which finds nothing here because this module's frame has no variable of that name."""
    try:
        con.table(ROWS)
    except duckdb.CatalogException:
        return False
    return True


def execute_on_rows(con: duckdb.DuckDBPyConnection, sql: str, rows) -> None:
    """Execute ``sql``, in which the table ``eh_rows`` is ``rows`` (an Arrow table or record batch)."""
    if _shadowed(con):
        raise WarehouseError(
            f"the warehouse has a table or view named {ROWS}, a name evalhouse uses for "
            "the rows it inserts; rename or drop it"
        )
    eh_rows = rows  # read by DuckDB's replacement scan, by name, from this frame's locals
    try:
        con.execute(sql)
    except duckdb.CatalogException as err:
        if ROWS not in str(err):
            raise
        raise WarehouseError(
            f"cannot insert rows: this connection does not let DuckDB read Python "
            f"objects (python_enable_replacements is off?): {err}"
        ) from err
    finally:
        del eh_rows  # the table is not kept a moment longer than the statement


class Writer:
    """Runs the INSERTs of an ingest on a thread of their own, so that DuckDB compresses and writes one
    chunk while the main thread reads and checks the next (DuckDB and numpy release the GIL): on two
    cores the wall time is nearer the larger of the two than their sum.  At most ``depth`` batches wait
    (memory stays bounded); the connection is used by this thread only until :meth:`close`, which waits
    for every INSERT and raises the first error."""

    def __init__(self, con: duckdb.DuckDBPyConnection, depth: int = 2):
        self.con = con
        self.queue: queue.Queue = queue.Queue(maxsize=depth)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="evalhouse-insert", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            if self.error is not None:
                continue
            sql, rows = item
            try:
                execute_on_rows(self.con, sql, rows)
            except BaseException as err:  # re-raised on the main thread
                self.error = err

    def put(self, sql: str, rows) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put((sql, rows))

    def close(self) -> None:
        if self.thread.is_alive():
            self.queue.put(None)
            self.thread.join()
        if self.error is not None:
            raise self.error
