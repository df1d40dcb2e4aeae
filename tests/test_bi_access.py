"""BI access: several processes read a warehouse read-only while an ingest writes a different file;
and the limit DuckDB sets (no other process may open a file that one process holds for writing)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import pytest

import evalhouse
from tests.conftest import REPO, SAMPLE

READER = textwrap.dedent("""
    import sys, duckdb
    con = duckdb.connect(sys.argv[1], read_only=True)   # what a BI tool does: read-only connection
    seen = set()
    for _ in range(int(sys.argv[2])):
        seen.add(con.execute("SELECT count(*), sum(sentences) FROM corpus_complexity").fetchone())
        seen.add(con.execute("SELECT count(*) FROM dea_by_relation_pooled").fetchone())
    print(sorted(seen, key=str))
""")

WRITER = textwrap.dedent("""
    import sys, evalhouse
    with evalhouse.connect(sys.argv[1]) as wh:
        for k in range(int(sys.argv[3])):
            wh.ingest_treebank([sys.argv[2]], corpus=f"copy{k}")
    print("ingested")
""")


@pytest.mark.slow
def test_readers_share_a_warehouse_while_an_ingest_writes_another_file(tmp_path):
    shared_db = tmp_path / "published.duckdb"
    with evalhouse.connect(shared_db) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        expected = sorted(
            {
                wh.sql("SELECT count(*), sum(sentences) FROM corpus_complexity").fetchone(),
                wh.sql("SELECT count(*) FROM dea_by_relation_pooled").fetchone(),
            },
            key=str,
        )
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path / "staging.duckdb"), str(SAMPLE), "8"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    readers = [
        subprocess.Popen(
            [sys.executable, "-c", READER, str(shared_db), "200"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        for _ in range(3)
    ]
    outputs = [r.communicate(timeout=300) for r in readers]
    w_out, w_err = writer.communicate(timeout=300)
    for (out, err), r in zip(outputs, readers):
        assert r.returncode == 0, err
        assert out.strip() == str(expected)
    assert writer.returncode == 0 and w_out.strip() == "ingested", w_err
    with evalhouse.connect(tmp_path / "staging.duckdb", read_only=True) as wh:
        assert len(wh.corpora()) == 8


@pytest.mark.slow
def test_a_file_held_for_writing_cannot_be_opened_by_another_process(tmp_path):
    """DuckDB's documented limit: one writing process excludes every other process, readers included.
    evalhouse reports it in one line; the recipe (docs/engines-and-bi.md) is to write elsewhere and
    publish by copying or renaming the file, or to serve BI from the Parquet dataset."""
    db = tmp_path / "w.duckdb"
    with evalhouse.connect(db) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        r = subprocess.run(
            [sys.executable, "-m", "evalhouse", "--db", str(db), "sql", "select 1"],
            capture_output=True,
            text=True,
            cwd=REPO,
        )
    assert r.returncode == 3
    assert "database is locked" in r.stderr and "Traceback" not in r.stderr
