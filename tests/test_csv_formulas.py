"""CSV and spreadsheet formulas (issue 17, point 8): by default every value is written exactly as stored
(-0.5 stays -0.5, a team '=1+2' stays '=1+2'); --neutralise-formulas puts a ' before text values that start
with =, +, -, @, tab or carriage return, in `sql --format csv` and `export --format csv`, and nowhere else.
"""

from __future__ import annotations

import csv

import duckdb
import pytest
from typer.testing import CliRunner

from evalhouse.cli import app
from evalhouse.export.relation import neutralise
from tests.conftest import SAMPLE, significant

runner = CliRunner()
QUERY = (
    "SELECT team, run, corpus, -0.5 AS x, '-0.5' AS s, 3 AS n, ['=a'] AS l, '+' AS plus, 'a=b' AS inner_eq, "
    "NULL::VARCHAR AS missing FROM submissions"
)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    """A corpus '@sample' and a submission of team '=1+2', run '-1': names a spreadsheet would run."""
    path = tmp_path_factory.mktemp("formulas") / "w.duckdb"
    for argv in (
        ["ingest", "treebank", str(SAMPLE), "--corpus", "@sample", "--quiet"],
        ["baseline", "random", "--corpus", "@sample", "--team", "=1+2", "--run", "-1"],
    ):
        r = runner.invoke(app, ["--db", str(path), *argv])
        assert r.exit_code == 0, r.stderr
    return str(path)


def canonical(row: dict) -> tuple:
    """A CSV row with its numbers at 12 significant digits, for sorting and comparing: DuckDB 2.0 sums in
    parallel, so a mean over many rows can differ in its last bit between two queries
    (docs/engines-and-bi.md#floats-from-one-run-to-the-next)."""

    def cell(v: str) -> str:
        try:
            return repr(significant(float(v)))
        except ValueError:
            return v

    return tuple((k, cell(v)) for k, v in row.items())


def same_rows(a, b) -> bool:
    """Two CSV files with the same header and the same rows in any order, numbers to 12 significant digits."""
    ra = list(csv.DictReader(open(a, newline="", encoding="utf-8")))
    rb = list(csv.DictReader(open(b, newline="", encoding="utf-8")))
    return sorted(map(canonical, ra)) == sorted(map(canonical, rb))


@pytest.mark.slow
def test_sql_csv_is_exact_by_default(db):
    r = runner.invoke(app, ["--db", db, "sql", QUERY, "--format", "csv"])
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "team,run,corpus,x,s,n,l,plus,inner_eq,missing\n=1+2,-1,@sample,-0.5,-0.5,3,['=a'],+,a=b,\n"


@pytest.mark.slow
def test_sql_csv_neutralised_on_request(db):
    r = runner.invoke(
        app,
        [
            "--db",
            db,
            "sql",
            QUERY + " UNION ALL SELECT chr(9) || 'tab', '-', '@', -1, '', 0, [], '', '', NULL",
            "--format",
            "csv",
            "--neutralise-formulas",
        ],
    )
    assert r.exit_code == 0, r.stderr
    assert r.stdout == (
        "team,run,corpus,x,s,n,l,plus,inner_eq,missing\n"
        "'=1+2,'-1,'@sample,-0.5,'-0.5,3,['=a'],'+,a=b,\n"
        "'\ttab,'-,'@,-1.0,,0,[],,,\n"
    )
    assert neutralise("\rcr") == "'\rcr" and neutralise(-0.5) == -0.5 and neutralise("a-b") == "a-b"


@pytest.mark.slow
def test_export_csv_is_byte_for_byte_duckdb_copy_by_default(db, tmp_path):
    # edges and sentence_scores (a double per sentence, computed row by row) line for line, so the
    # writing of every double is checked against COPY's; submission_scores sums over many rows
    for view in ("submission_scores", "edges", "sentence_scores"):
        ours, theirs = tmp_path / f"{view}.csv", tmp_path / f"{view}-duckdb.csv"
        r = runner.invoke(app, ["--db", db, "export", view, "--out", str(ours)])
        assert r.exit_code == 0, r.stderr
        con = duckdb.connect(db, read_only=True)
        try:
            con.execute(f"COPY (SELECT * FROM {view}) TO '{theirs}' (FORMAT csv, HEADER true)")
        finally:
            con.close()
        if view != "submission_scores":  # the same lines, byte for byte, in any order
            a, b = ours.read_bytes().splitlines(), theirs.read_bytes().splitlines()
            assert a[0] == b[0] and sorted(a) == sorted(b)
        else:  # its means can differ in the last bit from one query to the next, its row order too
            assert same_rows(ours, theirs)
    assert "-1" in {row["distance"] for row in csv.DictReader(open(tmp_path / "edges.csv", newline=""))}
    bleu = [row["bleu"] for row in csv.DictReader(open(tmp_path / "sentence_scores.csv", newline=""))]
    assert any(len(b) > 10 for b in bleu)  # doubles written at full precision, not rounded


@pytest.mark.slow
def test_export_csv_neutralises_text_only(db, tmp_path):
    for view in ("submission_scores", "edges", "sentence_scores"):
        plain, safe = tmp_path / f"{view}.csv", tmp_path / f"{view}-safe.csv"
        for out, more in ((plain, []), (safe, ["--neutralise-formulas"])):
            r = runner.invoke(app, ["--db", db, "export", view, "--out", str(out), *more])
            assert r.exit_code == 0, r.stderr
        con = duckdb.connect(db, read_only=True)
        try:
            text = {
                c
                for c, t in con.execute(
                    "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = $v", {"v": view}
                ).fetchall()
                if t == "VARCHAR"
            }
        finally:
            con.close()
        before = list(csv.DictReader(open(plain, newline="", encoding="utf-8")))
        after = list(csv.DictReader(open(safe, newline="", encoding="utf-8")))
        assert len(after) == len(before) > 0
        changed = 0
        expected = []
        for b in before:
            row = {}
            for column, value in b.items():
                risky = column in text and value[:1] in ("=", "+", "-", "@", "\t", "\r")
                row[column] = "'" + value if risky else value
                changed += risky
            expected.append(row)
        # as multisets: two queries of a view without ORDER BY may give its rows in two orders (DuckDB 2.0)
        assert sorted(map(canonical, after)) == sorted(map(canonical, expected)), view
        assert changed >= len(before)  # team, run and corpus of every row at least
    rows = list(csv.DictReader(open(tmp_path / "edges-safe.csv", newline="")))
    assert {r["corpus"] for r in rows} == {"'@sample"} and "-1" in {r["distance"] for r in rows}


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["sql", "SELECT 1", "--neutralise-formulas"],
        ["sql", "SELECT 1", "--format", "json", "--neutralise-formulas"],
        ["export", "edges", "--out", "{tmp}/e.parquet", "--neutralise-formulas"],
        ["export", "edges", "--out", "{tmp}/e.json", "--neutralise-formulas"],
    ],
)
def test_the_option_is_refused_where_there_is_no_csv(db, tmp_path, argv):
    r = runner.invoke(app, ["--db", db, *[a.format(tmp=tmp_path) for a in argv]])
    assert r.exit_code == 2 and "--neutralise-formulas is for" in r.stderr, r.stderr
    assert not list(tmp_path.iterdir())
