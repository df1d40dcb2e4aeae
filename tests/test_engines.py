"""The transpiled views on real engines: Apache Spark (local mode, over the exported Parquet dataset)
and PostgreSQL (a server started in a temporary directory, tables loaded with COPY from CSV that
DuckDB writes). Every view sqlglot transpiles must return exactly DuckDB's rows (floats within the
tolerance documented in tests/engine_compare.py); the views it does not transpile are listed with a
reason, and that list is checked too. The data is real (tests/engines_data.py)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

import evalhouse
from evalhouse.dataset import export_dataset
from evalhouse.transpile import session_settings, transpile_all
from tests import engines_data
from tests.engine_compare import differences


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("engines")
    db = engines_data.build(tmp / "w.duckdb", tmp)
    with evalhouse.connect(db, read_only=True) as wh:
        export_dataset(wh, tmp / "dataset", partition_by="corpus")
        reference = {}
        for name, _ in wh.views():
            rel = wh.sql(f'SELECT * FROM "{name}"')
            reference[name] = (rel.columns, rel.fetchall())
    return db, tmp / "dataset", reference


def test_the_real_data_fills_most_views(real):
    _, _, reference = real
    empty = sorted(n for n, (_, rows) in reference.items() if not rows)
    assert empty == ["judgement_z"]  # no human judgements of SR outputs in ../shared/data


# --- Spark ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("JAVA MISSING: Spark needs a JDK (17 or later) on PATH or in JAVA_HOME; the Spark test cannot run")
    pyspark = pytest.importorskip("pyspark", reason="PYSPARK MISSING: install the test extras (pip install -e '.[test]')")
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("evalhouse-test")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.warehouse.dir", str(tmp_path_factory.mktemp("spark-warehouse")))
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.mark.spark
def test_every_transpiled_view_returns_duckdbs_rows_on_spark(real, spark):
    _, dataset, reference = real
    results = transpile_all("spark", dataset)
    for s in session_settings("spark", dataset=True):
        spark.sql(s)
    for r in results:
        if r.kind == "table":
            assert r.ok, r.reason
            for s in r.statements:
                spark.sql(s)
    problems, ran = [], []
    for r in results:
        if r.kind != "view" or not r.ok:
            continue
        try:
            for s in r.statements:
                spark.sql(s)
            df = spark.sql(f"SELECT * FROM {r.name}")
            rows = [tuple(row) for row in df.collect()]
        except Exception as err:  # noqa: BLE001 - reported below, with the view's name
            problems.append(f"{r.name}: fails on spark: {type(err).__name__}: {str(err).splitlines()[0][:300]}")
            continue
        cols, ref_rows = reference[r.name]
        problems += differences(r.name, cols, ref_rows, df.columns, rows)
        ran.append(r.name)
    assert not problems, "\n".join(problems)
    skipped = {r.name: r.reason for r in results if not r.ok}
    assert skipped == {} and set(ran) == set(reference)  # every view, none left out
    print(f"spark: {len(ran)} views equal to DuckDB")


@pytest.mark.spark
def test_spark_ddl_without_a_dataset_creates_every_table_and_view(spark):
    """export-sql --dialect spark without --dataset: the emitted CREATE TABLE statements (keys dropped,
    as Spark's file-source tables take none) and every view run on Spark; the views read empty tables.
    A new session: the dataset test's temporary views would otherwise shadow the tables made here."""
    spark = spark.newSession()
    spark.sql("CREATE DATABASE IF NOT EXISTS evalhouse_ddl")
    spark.sql("USE evalhouse_ddl")
    try:
        results = transpile_all("spark")
        for r in results:
            assert r.ok, (r.name, r.reason)
            for s in r.statements:
                spark.sql(s)
        for r in results:
            assert spark.sql(f"SELECT count(*) FROM {r.name}").collect()[0][0] == 0, r.name
    finally:
        spark.sql("USE default")
        spark.sql("DROP DATABASE evalhouse_ddl CASCADE")


# --- PostgreSQL ----------------------------------------------------------------------------------------
PG_BIN = os.environ.get("EVALHOUSE_PG_BIN", "/usr/local/bin" if os.path.exists("/usr/local/bin/initdb")
                        else "/usr/lib/postgresql/15/bin")


@pytest.fixture(scope="module")
def postgres():
    """A PostgreSQL server in a temporary directory, listening only on a Unix socket there."""
    import tempfile

    initdb = shutil.which("initdb", path=PG_BIN) or shutil.which("initdb")
    pg_ctl = shutil.which("pg_ctl", path=PG_BIN) or shutil.which("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip("POSTGRESQL MISSING: no initdb/pg_ctl (Debian: apt-get install postgresql); the PostgreSQL test cannot run")
    psycopg = pytest.importorskip("psycopg", reason="PSYCOPG MISSING: install the test extras (pip install -e '.[test]')")
    # a short path: Unix socket paths are limited to about 100 bytes
    base = tempfile.mkdtemp(prefix="ehpg-")
    prefix = []
    if os.geteuid() == 0:  # initdb refuses to run as root: run the server as nobody
        os.chmod(base, 0o777)
        prefix = ["runuser", "-u", "nobody", "--"]
    data = os.path.join(base, "data")
    try:
        subprocess.run(prefix + [initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"],
                       check=True, capture_output=True)
        subprocess.run(prefix + [pg_ctl, "-D", data, "-l", os.path.join(base, "log"), "-w", "-o",
                                 f"-k {base} -c listen_addresses='' -p 54329 -c fsync=off", "start"],
                       check=True, capture_output=True)
        con = psycopg.connect(host=base, port=54329, user="postgres", dbname="postgres", autocommit=True)
        yield con
        con.close()
    finally:
        subprocess.run(prefix + [pg_ctl, "-D", data, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def _pg_copy_text(wh, table: str) -> tuple[str, list[str]]:
    """A SELECT that renders the table for PostgreSQL's COPY ... CSV: lists as array literals."""
    cols = []
    for name, type_, _ in wh.columns(table):
        q = f'"{name}"'
        if type_.endswith("]"):
            element = "'\"' || replace(replace(CAST(x AS VARCHAR), '\\', '\\\\'), '\"', '\\\"') || '\"'"
            q = f"'{{' || array_to_string(list_transform({q}, x -> {element}), ',') || '}}'"
        cols.append(q)
    return f'SELECT {", ".join(cols)} FROM "{table}"', [c for c, _, _ in wh.columns(table)]


@pytest.mark.postgres
def test_every_transpiled_view_returns_duckdbs_rows_on_postgres(real, postgres, tmp_path):
    db, _, reference = real
    results = transpile_all("postgres")
    with postgres.cursor() as cur, evalhouse.connect(db, read_only=True) as wh:
        for r in results:
            if r.kind == "table":
                assert r.ok, r.reason
                for s in r.statements:
                    cur.execute(s)
                query, cols = _pg_copy_text(wh, r.name)
                csv = tmp_path / f"{r.name}.csv"
                wh.con.execute(f"COPY ({query}) TO '{csv}' (FORMAT csv, HEADER false)")
                with cur.copy(f'COPY "{r.name}" ({", ".join(chr(34) + c + chr(34) for c in cols)}) FROM STDIN (FORMAT csv)') as copy:
                    copy.write(csv.read_bytes())
                cur.execute(f'SELECT count(*) FROM "{r.name}"')
                assert cur.fetchone()[0] == wh.sql(f'SELECT count(*) FROM "{r.name}"').fetchone()[0], r.name
        problems, ran = [], []
        for r in results:
            if r.kind != "view" or not r.ok:
                continue
            try:
                for s in r.statements:
                    cur.execute(s)
                cur.execute(f'SELECT * FROM "{r.name}"')
                cols = [d.name for d in cur.description]
                rows = cur.fetchall()
            except Exception as err:  # noqa: BLE001 - reported below, with the view's name
                problems.append(f"{r.name}: fails on postgres: {type(err).__name__}: {str(err).splitlines()[0][:300]}")
                continue
            ref_cols, ref_rows = reference[r.name]
            problems += differences(r.name, ref_cols, ref_rows, cols, rows)
            ran.append(r.name)
    assert not problems, "\n".join(problems)
    skipped = {r.name: r.reason for r in results if not r.ok}
    assert skipped == {} and set(ran) == set(reference)  # every view, none left out
    print(f"postgres: {len(ran)} views equal to DuckDB")
