"""Rows inserted inside a transaction are not held until COMMIT (issue 18's ingest memory).

``con.register`` + ``con.unregister`` kept every inserted Arrow table alive to the end of the
transaction, so a one-transaction ingest grew with its input (339 MB of Arrow memory for 2M words).
These tests watch Arrow's allocator directly: no time or RSS is asserted."""

from __future__ import annotations

import duckdb
import numpy as np
import pyarrow as pa

import evalhouse
from evalhouse.loaders.arrow_rows import execute_on_rows


def big_table(n: int = 200_000) -> pa.Table:
    return pa.table({"a": pa.array(np.arange(n, dtype=np.int64)),
                     "b": pa.array([f"word-{i:09d}" for i in range(n)])})


def open_transaction_with_rows():
    """A connection inside BEGIN, a table of rows, Arrow's allocation before it and the rows' size."""
    con = duckdb.connect()
    con.execute("CREATE TABLE t (a BIGINT, b VARCHAR)")
    base = pa.total_allocated_bytes()
    con.execute("BEGIN")
    rows = big_table()
    held = pa.total_allocated_bytes() - base
    assert held > 2_000_000
    return con, rows, base, held


def test_the_rows_are_released_when_the_statement_ends_not_at_commit():
    con, rows, base, held = open_transaction_with_rows()
    execute_on_rows(con, "INSERT INTO t SELECT a, b FROM eh_rows", rows)
    del rows
    assert pa.total_allocated_bytes() - base < held / 10  # released inside the transaction
    con.execute("COMMIT")
    assert con.execute("SELECT count(*), max(b) FROM t").fetchall() == [(200_000, "word-000199999")]


def test_what_register_does_is_why_it_is_not_used():
    # the behaviour this module works around; if a DuckDB release stops holding the table, this test
    # says so and the comment in evalhouse/loaders/arrow_rows.py can go
    con, rows, base, held = open_transaction_with_rows()
    con.register("eh_held", rows)
    con.execute("INSERT INTO t SELECT a, b FROM eh_held")
    con.unregister("eh_held")
    del rows
    still = pa.total_allocated_bytes() - base
    con.execute("COMMIT")
    assert still > held / 2
    assert pa.total_allocated_bytes() - base < held / 10


def test_warehouse_insert_releases_each_batch_inside_one_transaction(tmp_path):
    with evalhouse.connect(tmp_path / "w.duckdb") as wh:
        wh.con.execute("CREATE TABLE scratch (a BIGINT, b VARCHAR)")
        base = pa.total_allocated_bytes()
        with wh.transaction():
            for _ in range(5):
                wh.insert("scratch", big_table())
                assert pa.total_allocated_bytes() - base < 1_000_000
        assert wh.sql("SELECT count(*) FROM scratch").fetchone() == (1_000_000,)
