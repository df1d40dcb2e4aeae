"""The warehouse explains itself (issue 19, part 4): every column of every view has a COMMENT ON
description, so a BI user browsing the warehouse (or docs/data-dictionary.md) sees what it means; and no
view column is HUGEINT, which pandas reads as float64 and Parquet stores as a double (DuckDB's sum() of
integers is HUGEINT: cast counts to BIGINT)."""

from __future__ import annotations

import pytest

from evalhouse.warehouse import view_files


def _columns(wh):
    names = [f.name for f in view_files()]
    return wh.sql(
        """SELECT table_name, column_name, data_type, comment FROM duckdb_columns()
                     WHERE schema_name = 'main' AND table_name IN $names ORDER BY table_name, column_index""",
        {"names": names},
    ).fetchall()


def test_every_view_column_has_a_description(wh):
    rows = _columns(wh)
    assert len({t for t, *_ in rows}) == len(view_files())
    missing = [f"{t}.{c}" for t, c, _, comment in rows if not (comment or "").strip()]
    assert missing == [], f"{len(missing)} view column(s) without COMMENT ON COLUMN: {', '.join(missing)}"


def test_every_view_has_a_description(wh):
    described = dict(wh.sql("SELECT view_name, comment FROM duckdb_views() WHERE schema_name = 'main'").fetchall())
    assert [f.name for f in view_files() if not (described.get(f.name) or "").strip()] == []


def test_no_view_column_is_hugeint(wh):
    huge = [f"{t}.{c}" for t, c, type_, _ in _columns(wh) if type_ in ("HUGEINT", "UHUGEINT")]
    assert huge == [], f"cast these counts to BIGINT: {', '.join(huge)}"


@pytest.mark.slow
def test_counts_reach_pandas_as_integers(wh):
    """What the HUGEINT rule is for: a count of a view arrives in pandas as an integer column."""
    from tests.conftest import SAMPLE

    wh.ingest_treebank([SAMPLE], corpus="s")
    from evalhouse.ingest.baselines import run_baseline

    run_baseline(wh, "lr", "s")
    frame = wh.sql("SELECT edges, matched_edges FROM submission_scores").df()
    assert all(str(frame[c].dtype).startswith("int") for c in frame.columns), frame.dtypes
    frame = wh.sql("SELECT edges, matched FROM dea_by_relation_pooled").df()
    assert all(str(frame[c].dtype).startswith("int") for c in frame.columns), frame.dtypes
