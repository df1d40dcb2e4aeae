"""export-dataset (Parquet, hive partitions, manifest, atomic replace) and export-sql (sqlglot), on the
bundled sample; the engine tests (tests/test_engines.py) run the transpiled views on Spark and PostgreSQL."""

from __future__ import annotations

import json

import duckdb
import pytest
import sqlglot
from typer.testing import CliRunner

import evalhouse
from evalhouse.cli import app
from evalhouse.errors import WarehouseError
from evalhouse.export import dataset as ds
from evalhouse.export.manifest import attach_dataset
from evalhouse.export.transpile import DIALECTS, transpile_all
from tests.conftest import SAMPLE
from tests.engine_compare import differences

runner = CliRunner()
HOSTILE = "x'; drop table nodes; --"


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "w.duckdb"
    with evalhouse.connect(path) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        wh.ingest_treebank([SAMPLE], corpus=HOSTILE)
    return path


def _rows(con, name):
    rel = con.sql(f'SELECT * FROM "{name}"')
    return rel.columns, rel.fetchall()


@pytest.mark.slow
def test_manifest_counts_rows_and_describes_every_relation(db, tmp_path):
    with evalhouse.connect(db, read_only=True) as wh:
        manifest = ds.export_dataset(wh, tmp_path / "d", partition_by="corpus")
        for name, entry in manifest["relations"].items():
            assert entry["rows"] == wh.sql(f'SELECT count(*) FROM "{name}"').fetchone()[0], name
            assert entry["description"], name
            assert [c["name"] for c in entry["columns"]] == [c for c, _, _ in wh.columns(name)]
    assert manifest["evalhouse_version"] == evalhouse.__version__
    assert json.loads((tmp_path / "d" / "manifest.json").read_text()) == manifest
    # partitioned where there is a corpus column and rows; the hostile corpus name is a directory, not SQL
    assert manifest["relations"]["nodes"]["partition_by"] == "corpus"
    assert len(list((tmp_path / "d" / "nodes").glob("corpus=*"))) == 2
    assert manifest["relations"]["judgements"]["partition_by"] is None  # empty: one file with the schema
    assert (tmp_path / "d" / "judgements" / "data_0.parquet").exists()


@pytest.mark.slow
@pytest.mark.parametrize("partition_by", [None, "corpus"])
def test_dataset_read_back_by_duckdb_equals_the_warehouse(db, tmp_path, partition_by):
    """The DuckDB dialect of export-sql over the dataset, in a fresh connection, gives every view's rows
    (the dataset directory has a hostile name: paths are SQL literals built by sqlglot)."""
    with evalhouse.connect(db, read_only=True) as wh:
        ds.export_dataset(wh, tmp_path / HOSTILE, partition_by=partition_by)
        reference = {n: _rows(wh.con, n) for n, _ in wh.views()}
        tables = {n: _rows(wh.con, n) for n in ("nodes", "edges", "sentences")}
    con = duckdb.connect()
    for r in transpile_all("duckdb", tmp_path / HOSTILE):
        assert r.ok, r
        for s in r.statements:
            con.execute(s)
    problems = []
    for name, (cols, rows) in {**reference, **tables}.items():
        problems += differences(name, cols, rows, *_rows(con, name))
    assert not problems, "\n".join(problems)
    assert con.execute("SELECT count(*) FROM corpus_complexity WHERE corpus = ?", [HOSTILE]).fetchone()[0] == 1


@pytest.mark.slow
def test_reexport_is_idempotent_and_replaces_the_old_dataset(db, tmp_path):
    with evalhouse.connect(db, read_only=True) as wh:
        first = ds.export_dataset(wh, tmp_path / "d", partition_by="corpus")
        files1 = sorted(p.relative_to(tmp_path) for p in (tmp_path / "d").rglob("*"))
        rows1 = duckdb.sql(
            f"SELECT * FROM read_parquet('{tmp_path}/d/nodes/**/*.parquet', hive_partitioning=true) ORDER BY ALL"
        ).fetchall()
        second = ds.export_dataset(wh, tmp_path / "d", partition_by="corpus")
        files2 = sorted(p.relative_to(tmp_path) for p in (tmp_path / "d").rglob("*"))
        rows2 = duckdb.sql(
            f"SELECT * FROM read_parquet('{tmp_path}/d/nodes/**/*.parquet', hive_partitioning=true) ORDER BY ALL"
        ).fetchall()
        third = ds.export_dataset(wh, tmp_path / "d", views=["corpus_complexity"])
    assert first == second and files1 == files2 and rows1 == rows2
    assert sorted(k for k, e in third["relations"].items() if e["kind"] == "view") == ["corpus_complexity"]
    assert not (tmp_path / "d" / "sentence_complexity").exists()  # the old dataset is gone, not merged
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "w.duckdb"]  # no temporary directories left


@pytest.mark.slow
def test_a_failure_leaves_the_previous_dataset_and_no_half_written_one(db, tmp_path, monkeypatch):
    with evalhouse.connect(db, read_only=True) as wh:
        before = ds.export_dataset(wh, tmp_path / "d")
        calls = []
        real = ds._description

        def failing(wh, name, kind):
            calls.append(name)
            if len(calls) == 10:
                raise OSError("disk full (simulated)")
            return real(wh, name, kind)

        monkeypatch.setattr(ds, "_description", failing)
        with pytest.raises(OSError, match="simulated"):
            ds.export_dataset(wh, tmp_path / "d", partition_by="corpus")
        with pytest.raises(OSError, match="simulated"):
            calls.clear()
            ds.export_dataset(wh, tmp_path / "new")
    assert json.loads((tmp_path / "d" / "manifest.json").read_text()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d", "w.duckdb"]


@pytest.mark.slow
def test_refuses_to_replace_a_directory_that_is_not_a_dataset(db, tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.tex").write_text("keep me")
    with evalhouse.connect(db, read_only=True) as wh, pytest.raises(WarehouseError, match="not an evalhouse dataset"):
        ds.export_dataset(wh, tmp_path / "mine")
    assert (tmp_path / "mine" / "thesis.tex").read_text() == "keep me"


@pytest.mark.slow
def test_unknown_view_and_partition_fail_clearly(db, tmp_path):
    r = runner.invoke(app, ["--db", str(db), "export-dataset", str(tmp_path / "d"), "--views", HOSTILE])
    assert r.exit_code == 3 and "no view" in r.output
    r = runner.invoke(app, ["--db", str(db), "export-dataset", str(tmp_path / "d"), "--partition-by", "language"])
    assert r.exit_code == 2
    assert not (tmp_path / "d").exists()
    r = runner.invoke(app, ["--db", str(db), "export-dataset", str(tmp_path / "d"), "--partition-by", "team"])
    assert r.exit_code == 0, r.output
    with duckdb.connect(str(db), read_only=True) as con:  # the hostile name went in as data; nothing dropped
        assert con.execute("SELECT count(DISTINCT corpus) FROM nodes").fetchone()[0] == 2


@pytest.mark.slow
@pytest.mark.parametrize("dialect", DIALECTS)
def test_export_sql_parses_in_its_dialect_and_names_what_it_could_not_transpile(dialect, tmp_path):
    out = tmp_path / f"{dialect}.sql"
    r = runner.invoke(app, ["export-sql", "--dialect", dialect, "--out", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    results = transpile_all(dialect)
    for res in results:
        if res.ok:
            for s in res.statements:
                sqlglot.parse_one(s, read=dialect)  # raises if the emitted SQL does not parse
                assert s + ";" in text
        else:
            assert f"not transpiled: {res.name}: {res.reason}" in r.output
            assert f"-- NOT TRANSPILED: {res.reason}" in text
            assert f"CREATE OR REPLACE VIEW {res.name} " not in text
    from evalhouse.warehouse import schema_files

    assert sum(res.kind == "table" and res.ok for res in results) == len(schema_files())  # every table
    # Every view transpiles to every dialect: the pronoun views pair lists with UNNEST ... WITH
    # ORDINALITY (not list_position), correlation_summary's median comes from ranks, and string_agg's
    # ORDER BY takes the target's NULL placement (BigQuery refuses NULLS LAST there).
    assert [(res.name, res.reason) for res in results if not res.ok] == []
    # the file and the command say whether this dialect's SQL is run on an engine by the tests
    checked = dialect in ("duckdb", "spark", "postgres")  # tests/test_engines.py and the DuckDB tests
    header = text.splitlines()[2]
    assert header.startswith("-- Checked:" if checked else "-- Not checked on an engine:"), header
    assert header[3:] in r.output


@pytest.mark.slow
def test_duckdb_export_sql_rebuilds_the_warehouse_views(tmp_path, db):
    """The DuckDB dialect over tables of the same names creates views that equal the originals."""
    out = tmp_path / "duckdb.sql"
    assert runner.invoke(app, ["export-sql", "--dialect", "duckdb", "--out", str(out)]).exit_code == 0
    con = duckdb.connect()
    con.execute(out.read_text())
    assert {r[0] for r in con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()} == {
        n for n, _ in evalhouse.connect(":memory:").views()
    }


@pytest.mark.slow
def test_export_sql_refuses_unknown_dialect_and_unsupported_dataset(tmp_path):
    r = runner.invoke(app, ["export-sql", "--dialect", "mysql", "--out", str(tmp_path / "x.sql")])
    assert r.exit_code == 2
    r = runner.invoke(
        app, ["export-sql", "--dialect", "trino", "--out", str(tmp_path / "x.sql"), "--dataset", str(tmp_path)]
    )
    assert r.exit_code == 2 and "--dataset works with duckdb and spark" in r.output
    assert not (tmp_path / "x.sql").exists()


@pytest.mark.slow
def test_the_committed_data_dictionary_is_current_and_linked_from_the_readme():
    from evalhouse.reports.text import data_dictionary
    from tests.conftest import REPO

    with evalhouse.connect(":memory:") as wh:
        current = data_dictionary(wh)
    assert (REPO / "docs" / "data-dictionary.md").read_text(encoding="utf-8") == current + "\n", (
        "regenerate: evalhouse --db :memory: views --markdown > docs/data-dictionary.md"
    )
    assert "(docs/data-dictionary.md)" in (REPO / "README.md").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("partition_by", ["corpus", "team"])
def test_partitions_written_in_batches_keep_every_row(db, tmp_path, monkeypatch, partition_by):
    """Partitions are written PARTITIONS_PER_COPY at a time (bounded memory); with one per COPY, every
    relation still reads back with all its rows, the NULL team of gold parses included."""
    from evalhouse.ingest.baselines import run_baseline
    from tests.test_parses import ingest_parse_examples

    with evalhouse.connect(db) as wh:
        run_baseline(wh, "random", "sample", seed=1)
        run_baseline(wh, "lr", "sample")
        ingest_parse_examples(wh)
    monkeypatch.setattr(ds, "PARTITIONS_PER_COPY", 1)
    with evalhouse.connect(db, read_only=True) as wh:
        manifest = ds.export_dataset(wh, tmp_path / "d", partition_by=partition_by)
        con = duckdb.connect()
        partitioned = [n for n, e in manifest["relations"].items() if e["partition_by"]]
        assert "parse_runs" in partitioned or partition_by == "corpus"
        for name in partitioned:
            expected = wh.sql(
                f'SELECT CAST("{partition_by}" AS VARCHAR), count(*) FROM "{name}" GROUP BY ALL ORDER BY ALL'
            ).fetchall()
            got = con.execute(
                f'SELECT CAST("{partition_by}" AS VARCHAR), count(*) FROM read_parquet('
                f"'{tmp_path}/d/{name}/**/*.parquet', hive_partitioning = true, hive_types_autocast = false) "
                "GROUP BY ALL ORDER BY ALL"
            ).fetchall()
            assert got == expected, name
        if partition_by == "team":  # the gold parses' NULL team is a partition of its own, read back as NULL
            assert (
                con.execute(
                    f"SELECT count(*) FROM read_parquet('{tmp_path}/d/parse_runs/**/*.parquet', "
                    "hive_partitioning = true) WHERE team IS NULL"
                ).fetchone()[0]
                == 1
            )


@pytest.mark.slow
def test_postgres_dataset_has_a_csv_per_table_and_a_load_script(db, tmp_path):
    """--format postgres: every base table as CSV (one record per row), schema.sql and load.psql copying
    each table's columns in order; the engine test (tests/test_engines.py) loads it with psql."""
    import csv

    r = runner.invoke(app, ["--db", str(db), "export-dataset", str(tmp_path / "pg"), "--format", "postgres"])
    assert r.exit_code == 0, r.output
    manifest = json.loads((tmp_path / "pg" / "manifest.json").read_text())
    assert manifest["format"] == "postgres"
    load = (tmp_path / "pg" / "load.psql").read_text().splitlines()
    assert "\\ir schema.sql" in load
    with evalhouse.connect(db, read_only=True) as wh:
        tables = [n for n, k in ds._relations(wh) if k == "table"]
        assert sorted(manifest["relations"]) == sorted(tables)  # no views: PostgreSQL computes them
        for name in tables:
            with open(tmp_path / "pg" / f"{name}.csv", newline="", encoding="utf-8") as f:
                records = list(csv.reader(f))
            assert (
                len(records)
                == manifest["relations"][name]["rows"]
                == wh.sql(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            ), name
            columns = ", ".join(f'"{c}"' for c, _, _ in wh.columns(name))
            assert f"\\copy \"{name}\" ({columns}) FROM '{name}.csv' WITH (FORMAT csv)" in load
    schema = (tmp_path / "pg" / "schema.sql").read_text()
    assert len(sqlglot.parse(schema, read="postgres")) > len(tables)
    # the nodes CSV holds the hostile corpus name as data
    assert HOSTILE in (tmp_path / "pg" / "nodes.csv").read_text(encoding="utf-8")


@pytest.mark.slow
def test_postgres_dataset_refuses_views_and_partitions_and_is_not_read_as_parquet(db, tmp_path):
    for extra in (["--views", "corpus_complexity"], ["--partition-by", "corpus"]):
        r = runner.invoke(
            app, ["--db", str(db), "export-dataset", str(tmp_path / "pg"), "--format", "postgres", *extra]
        )
        assert r.exit_code == 2 and "base tables only" in r.output
        assert not (tmp_path / "pg").exists()
    r = runner.invoke(app, ["--db", str(db), "export-dataset", str(tmp_path / "pg"), "--format", "postgres"])
    assert r.exit_code == 0
    r = runner.invoke(
        app, ["export-sql", "--dialect", "spark", "--out", str(tmp_path / "x.sql"), "--dataset", str(tmp_path / "pg")]
    )
    assert r.exit_code == 3 and "a postgres dataset, not a parquet one" in r.output
    with pytest.raises(WarehouseError, match="not a parquet one"):
        attach_dataset(duckdb.connect(), tmp_path / "pg")
