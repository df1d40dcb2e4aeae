"""warehouse.duckdb.example: rebuilt by the documented command, it holds the same rows; and a plain
DuckDB client (the duckdb CLI, no evalhouse, no Python UDFs) reads every view read-only."""

from __future__ import annotations

import shutil
import subprocess

import duckdb
import pytest

from evalhouse.warehouse import schema_files, view_files
from tests.conftest import REPO, SAMPLE, significant

EXAMPLE = REPO / "warehouse.duckdb.example"
# Columns that legitimately differ between builds: where and when the ingest ran.
VOLATILE = {"corpora": ["source_files", "ingested_at"], "submissions": ["ingested_at"]}


def _rows(path, table):
    con = duckdb.connect(str(path), read_only=True)
    try:
        cols = [
            c
            for (c,) in con.execute(
                "SELECT column_name FROM duckdb_columns() WHERE table_name = ? ORDER BY column_index", [table]
            ).fetchall()
            if c not in VOLATILE.get(table, [])
        ]
        rows = con.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY ALL").fetchall()
        # aggregates may sum in another order from build to build: compare floats to 12 digits
        return [tuple(map(significant, r)) for r in rows]
    finally:
        con.close()


@pytest.mark.slow
def test_example_is_rebuilt_by_the_documented_command(tmp_path):
    import evalhouse

    rebuilt = tmp_path / "example.duckdb"
    from evalhouse.demo import add_sample_baselines

    with evalhouse.connect(rebuilt) as wh:  # same as the README's commands
        wh.ingest_treebank([SAMPLE], corpus="sample", language="en")
        add_sample_baselines(wh)
    for f in schema_files():
        assert _rows(EXAMPLE, f.name) == _rows(rebuilt, f.name), f.name
    for f in view_files():
        assert _rows(EXAMPLE, f.name) == _rows(rebuilt, f.name), f.name


@pytest.mark.slow
def test_the_installed_duckdb_is_in_the_declared_range_and_reads_the_example():
    from importlib.metadata import requires

    from packaging.requirements import Requirement

    declared = [
        Requirement(r) for r in requires("evalhouse") if Requirement(r).name == "duckdb" and not Requirement(r).marker
    ]
    assert len(declared) == 1 and str(declared[0].specifier) != "", "duckdb is declared once, as a range"
    assert not any(s.operator == "==" for s in declared[0].specifier), "a range, not an exact pin"
    assert declared[0].specifier.contains(duckdb.__version__), (duckdb.__version__, str(declared[0].specifier))
    con = duckdb.connect(str(EXAMPLE), read_only=True)
    try:
        assert con.execute("SELECT corpus, sentences FROM corpora").fetchall() == [("sample", 42)]
        # every view of the example answers (the views are stored in the file, read by this duckdb)
        for f in view_files():
            con.execute(f'SELECT count(*) FROM "{f.name}"').fetchone()
    finally:
        con.close()


@pytest.mark.slow
def test_plain_duckdb_cli_reads_every_view_read_only(tmp_path):
    exe = shutil.which("duckdb")
    if exe is None:
        pytest.fail("the duckdb CLI is not installed (it is a test dependency: pip install -e '.[test]')")
    copy = tmp_path / "w.duckdb"
    shutil.copy(EXAMPLE, copy)
    script = "".join(f"SELECT '{f.name}' AS view, count(*) AS n FROM {f.name};\n" for f in view_files())
    r = subprocess.run([exe, "-readonly", "-csv", str(copy)], input=script, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "Error" not in r.stderr, r.stderr
    counts = dict(line.split(",") for line in r.stdout.splitlines() if "," in line and not line.startswith("view"))
    assert set(counts) == {f.name for f in view_files()}
    assert counts["sentence_complexity"] == "42" and counts["corpus_complexity"] == "1"
    # the Python-computed column reads the same from the plain client as from evalhouse
    import evalhouse

    with evalhouse.connect(copy, read_only=True) as wh:
        expected = wh.sql("SELECT round(mean_flux_weight_mean, 6) FROM corpus_complexity").fetchone()[0]
    r = subprocess.run(
        [exe, "-readonly", "-csv", str(copy)],
        input="SELECT round(mean_flux_weight_mean, 6) FROM corpus_complexity;\n",
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and float(r.stdout.splitlines()[1]) == expected
