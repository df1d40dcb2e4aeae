"""Warehouse.sql() gives the same answers with duckdb 1.5.6 and 2.0 (the declared range, pyproject.toml):
what the README's Python API promises (.fetchall, .fetchone, .df, .fetchnumpy, .arrow, .columns), None for a
statement without rows, and no unfinished result left on the connection (2.0 refuses register() and
con.sql() while one is)."""

from __future__ import annotations

import pyarrow as pa
import pytest

import evalhouse


@pytest.mark.slow
def test_a_query_answers_through_every_promised_method():
    with evalhouse.connect(":memory:") as wh:
        wh.sql("CREATE TABLE t (i INTEGER, s VARCHAR)")
        wh.sql("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
        for params in (None, {"lo": 0}):
            query = "SELECT i, s FROM t ORDER BY i" if params is None else "SELECT i, s FROM t WHERE i > $lo ORDER BY i"
            r = wh.sql(query, params)
            assert r.columns == ["i", "s"]
            assert r.fetchone() == (1, "a")
            assert r.fetchmany(5) == [(2, "b"), (3, "c")]
            assert r.fetchone() is None
            assert r.fetchall() == [(1, "a"), (2, "b"), (3, "c")]
            assert r.df()["s"].tolist() == ["a", "b", "c"] == r.fetchdf()["s"].tolist()
            assert r.fetchnumpy()["i"].tolist() == [1, 2, 3]
            assert r.arrow().read_all().column("i").to_pylist() == [1, 2, 3]
            assert r.limit(1).fetchall() == [(1, "a")]  # relation methods pass through


@pytest.mark.slow
def test_statements_without_rows_give_none_and_counts_with_parameters():
    with evalhouse.connect(":memory:") as wh:
        assert wh.sql("CREATE TABLE t (i INTEGER)") is None
        assert wh.sql("INSERT INTO t VALUES (1), (2)") is None
        assert wh.sql("SET threads = 1") is None
        assert wh.sql("INSERT INTO t VALUES ($v)", {"v": 3}).fetchall() == [(1,)]
        assert wh.sql("DELETE FROM t WHERE i = 1 RETURNING i").fetchall() == [(1,)]
        assert wh.sql("SELECT count(*) FROM t").fetchone() == (2,)


@pytest.mark.slow
def test_a_fetchone_leaves_the_connection_free():
    with evalhouse.connect(":memory:") as wh:
        wh.sql("CREATE TABLE t AS SELECT range AS i FROM range(5000)")
        assert wh.sql("SELECT i FROM t ORDER BY i").fetchone() == (0,)
        assert wh.sql("SELECT count(*) FROM t WHERE i > $i", {"i": 10}).fetchone() == (4989,)
        wh.con.register("eh_test", pa.table({"a": [1]}))  # duckdb 2.0 refuses this after an unfinished result
        wh.con.unregister("eh_test")
        assert wh.has("corpus", {"corpus": "none"}) is False
        assert wh.con.sql("SELECT 42").fetchall() == [(42,)]
