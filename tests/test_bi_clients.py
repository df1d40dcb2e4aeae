"""BI clients (issue 19, part 4), verified here: SQLAlchemy through duckdb-engine, read-only (what Superset
uses), and a notebook's pandas through duckdb. Metabase (a Java application with a community DuckDB
driver) is not run here: docs/engines-and-bi.md says so."""

from __future__ import annotations

import pytest

import evalhouse
from evalhouse.ingest.baselines import run_baseline
from tests.conftest import SAMPLE


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    path = tmp_path_factory.mktemp("bi") / "published.duckdb"
    with evalhouse.connect(path) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        run_baseline(wh, "lr", "sample")
    return path


@pytest.mark.slow
@pytest.mark.parametrize("how", ["url", "connect_args"])
def test_sqlalchemy_duckdb_engine_reads_views_and_comments_read_only(published, how):
    sa = pytest.importorskip("sqlalchemy")
    pytest.importorskip("duckdb_engine")
    if how == "url":  # what goes into Superset's SQLAlchemy URI field
        engine = sa.create_engine(f"duckdb:///{published}?access_mode=read_only")
    else:  # Superset: Advanced > Other > Engine parameters {"connect_args": {"read_only": true}}
        engine = sa.create_engine(f"duckdb:///{published}", connect_args={"read_only": True})
    try:
        with engine.connect() as con:
            rows = con.execute(sa.text("SELECT team, run, edges, matched_edges, dea FROM submission_scores")).fetchall()
            assert [(t, r) for t, r, *_ in rows] == [("baseline", "lr")]
            assert isinstance(rows[0][2], int) and 0 < rows[0][4] <= 1
            inspector = sa.inspect(con)
            assert {"submission_scores", "dea_by_relation", "sentence_complexity"} <= set(inspector.get_view_names())
            # the column descriptions reach the BI tool (Superset shows them in its dataset editor)
            columns = {c["name"]: c for c in inspector.get_columns("dea_by_relation")}
            assert all(c.get("comment") for c in columns.values()), columns
            assert str(columns["edges"]["type"]) == "BIGINT"
            with pytest.raises(sa.exc.DBAPIError, match="read-only"):
                con.execute(sa.text("CREATE TABLE scribble (x INTEGER)"))
            con.rollback()
    finally:
        engine.dispose()


@pytest.mark.slow
def test_a_notebook_reads_views_as_pandas_with_integer_counts(published):
    import duckdb

    con = duckdb.connect(str(published), read_only=True)
    try:
        frame = con.execute("SELECT relation, edges, matched, accuracy FROM dea_by_relation ORDER BY relation").df()
    finally:
        con.close()
    assert len(frame) > 10
    assert str(frame["edges"].dtype).startswith("int") and str(frame["matched"].dtype).startswith("int")
    assert ((frame["matched"] / frame["edges"] - frame["accuracy"]).abs() < 1e-12).all()
