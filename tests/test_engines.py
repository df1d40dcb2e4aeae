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
from evalhouse.export.dataset import export_dataset
from evalhouse.export.transpile import session_settings, transpile_all
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


@pytest.mark.realdata
def test_the_real_data_fills_most_views(real):
    _, _, reference = real
    empty = sorted(n for n, (_, rows) in reference.items() if not rows)
    assert empty == []  # judgement_z and judgement_correlation_summary: synthetic judgements (engines_data)


# --- Spark ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("JAVA MISSING: Spark needs a JDK (17 or later) on PATH or in JAVA_HOME; the Spark test cannot run")
    pytest.importorskip("pyspark", reason="PYSPARK MISSING: install the test extras (pip install -e '.[test]')")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("evalhouse-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", str(tmp_path_factory.mktemp("spark-warehouse")))
        .getOrCreate()
    )
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
PG_BIN = os.environ.get(
    "EVALHOUSE_PG_BIN", "/usr/local/bin" if os.path.exists("/usr/local/bin/initdb") else "/usr/lib/postgresql/15/bin"
)


@pytest.fixture(scope="module")
def postgres():
    """A PostgreSQL server in a temporary directory, listening only on a Unix socket there."""
    import tempfile

    initdb = shutil.which("initdb", path=PG_BIN) or shutil.which("initdb")
    pg_ctl = shutil.which("pg_ctl", path=PG_BIN) or shutil.which("pg_ctl")
    if not initdb or not pg_ctl:
        pytest.skip(
            "POSTGRESQL MISSING: no initdb/pg_ctl (Debian: apt-get install postgresql); the PostgreSQL test cannot run"
        )
    psycopg = pytest.importorskip(
        "psycopg", reason="PSYCOPG MISSING: install the test extras (pip install -e '.[test]')"
    )
    # a short path: Unix socket paths are limited to about 100 bytes
    base = tempfile.mkdtemp(prefix="ehpg-")
    prefix = []
    if os.geteuid() == 0:  # initdb refuses to run as root: run the server as nobody
        os.chmod(base, 0o777)
        prefix = ["runuser", "-u", "nobody", "--"]
    data = os.path.join(base, "data")
    try:
        subprocess.run(
            prefix + [initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            prefix
            + [
                pg_ctl,
                "-D",
                data,
                "-l",
                os.path.join(base, "log"),
                "-w",
                "-o",
                f"-k {base} -c listen_addresses='' -p 54329 -c fsync=off",
                "start",
            ],
            check=True,
            capture_output=True,
        )
        con = psycopg.connect(host=base, port=54329, user="postgres", dbname="postgres", autocommit=True)
        yield con
        con.close()
    finally:
        subprocess.run(prefix + [pg_ctl, "-D", data, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def _psql_load(postgres, dataset, database: str) -> None:
    """The user's recipe from docs/engines-and-bi.md: psql runs the dataset's load.psql in one transaction."""
    psql = shutil.which("psql", path=PG_BIN) or shutil.which("psql")
    if not psql:
        pytest.skip("PSQL MISSING: Debian's postgresql-client; the PostgreSQL test cannot load the dataset")
    postgres.execute(f'CREATE DATABASE "{database}"')
    r = subprocess.run(
        [
            psql,
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "--single-transaction",
            "-h",
            postgres.info.host,
            "-p",
            str(postgres.info.port),
            "-U",
            "postgres",
            "-d",
            database,
            "-f",
            "load.psql",
        ],
        cwd=dataset,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr


def _pg_rows(cur, relation: str):
    cur.execute(f'SELECT * FROM "{relation}"')
    return [d.name for d in cur.description], cur.fetchall()


@pytest.fixture(scope="module")
def postgres_loaded(real, postgres, tmp_path_factory):
    """The real warehouse exported with --format postgres and loaded by psql into database evalhouse."""
    db, _, _ = real
    dataset = tmp_path_factory.mktemp("pg") / "dataset"
    with evalhouse.connect(db, read_only=True) as wh:
        export_dataset(wh, dataset, format="postgres")
    _psql_load(postgres, dataset, "evalhouse")
    import psycopg

    con = psycopg.connect(
        host=postgres.info.host, port=postgres.info.port, user="postgres", dbname="evalhouse", autocommit=True
    )
    yield con
    con.close()


@pytest.mark.postgres
def test_every_base_table_round_trips_through_the_postgres_dataset(real, postgres_loaded):
    """Every row of every base table, loaded by psql from the CSV files, equals DuckDB's (lists, NULLs,
    empty strings, quotes and backslashes in the real comments and forms included)."""
    db, _, _ = real
    problems = []
    with postgres_loaded.cursor() as cur, evalhouse.connect(db, read_only=True) as wh:
        for r in transpile_all("postgres"):
            if r.kind == "table":
                rel = wh.sql(f'SELECT * FROM "{r.name}"')
                problems += differences(r.name, rel.columns, rel.fetchall(), *_pg_rows(cur, r.name))
    assert not problems, "\n".join(problems)


@pytest.mark.postgres
def test_every_transpiled_view_returns_duckdbs_rows_on_postgres(real, postgres_loaded):
    _, _, reference = real
    results = transpile_all("postgres")
    problems, ran = [], []
    with postgres_loaded.cursor() as cur:
        for r in results:
            if r.kind != "view" or not r.ok:
                continue
            try:
                cols, rows = _pg_rows(cur, r.name)
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


HOSTILE = """# sent_id = h-1
# text = "a\\b" {c},d
# note = NULL
# empty =
1\t"a\\b"\t"a\\b"\tPUNCT\t_\t_\t0\troot\t_\t_
2\t{c},d\tNULL\tNOUN\t_\t_\t1\tdep\t_\tSpaceAfter=No

"""


@pytest.mark.postgres
def test_hostile_values_round_trip_through_the_postgres_dataset(postgres, tmp_path):
    """Quotes, backslashes, braces, commas, the word NULL and a list holding them, through CSV and psql."""
    src = tmp_path / "hostile.conllu"
    src.write_text(HOSTILE, encoding="utf-8")
    with evalhouse.connect(tmp_path / "h.duckdb") as wh:
        wh.ingest_treebank([src], corpus="hostile")
        export_dataset(wh, tmp_path / "pg", format="postgres")
        rels = {t: wh.sql(f'SELECT * FROM "{t}"') for t in ("sentences", "nodes")}
        expected = {t: (rel.columns, rel.fetchall()) for t, rel in rels.items()}
    _psql_load(postgres, tmp_path / "pg", "hostile")
    import psycopg

    with psycopg.connect(host=postgres.info.host, port=postgres.info.port, user="postgres", dbname="hostile") as con:
        with con.cursor() as cur:
            for t, (cols, rows) in expected.items():
                assert differences(t, cols, rows, *_pg_rows(cur, t)) == []
            cur.execute("SELECT comments FROM sentences")
            assert cur.fetchone()[0] == ["# sent_id = h-1", '# text = "a\\b" {c},d', "# note = NULL", "# empty ="]
            cur.execute("SELECT form, lemma FROM nodes ORDER BY id")
            assert cur.fetchall() == [('"a\\b"', '"a\\b"'), ("{c},d", "NULL")]
