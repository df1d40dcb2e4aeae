"""A read-only warehouse opened with ``functions=False`` (what ``evalhouse sql`` does) registers evalhouse's SQL
functions only when a query needs them: duckdb 1.5.6 imports numpy to register any Python function, 0.1 s of
every command (issue 18, fixed cost; ``python -m benchmarks.fixed_cost``). The answers must not change."""

import subprocess
import sys

import pytest

import evalhouse

SAMPLE = evalhouse.__file__.rsplit("/", 1)[0] + "/sample/sample.conllu"


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("lazy") / "w.duckdb"
    with evalhouse.connect(path) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        wh.con.execute(
            "CREATE VIEW user_flux AS SELECT position, mean_flux_weight(list(head ORDER BY dependent)) AS m "
            "FROM edges GROUP BY position"
        )
        expected = wh.con.execute("SELECT * FROM user_flux ORDER BY position").fetchall()
    return path, expected


@pytest.mark.slow
def test_a_query_naming_no_function_registers_none(db):
    with evalhouse.connect(db[0], read_only=True, functions=False) as wh:
        assert wh.sql("SELECT count(*) FROM corpus_complexity").fetchall() == [(1,)]
        assert wh.functions is False


def test_a_function_named_in_the_query_is_registered(db):
    with evalhouse.connect(db[0], read_only=True, functions=False) as wh:
        rows = wh.sql(
            "SELECT position, mean_flux_weight(list(head ORDER BY dependent)) FROM edges "
            "GROUP BY position ORDER BY position"
        ).fetchall()
        assert wh.functions is True
    assert rows == db[1]


def test_a_view_calling_a_function_is_answered_after_registering(db):
    with evalhouse.connect(db[0], read_only=True, functions=False) as wh:
        assert wh.sql("SELECT * FROM user_flux ORDER BY position").fetchall() == db[1]
        assert wh.functions is True


def test_an_unknown_function_is_still_an_error(db):
    import duckdb

    with evalhouse.connect(db[0], read_only=True, functions=False) as wh:
        with pytest.raises(duckdb.CatalogException, match="no_such_function"):
            wh.sql("SELECT no_such_function(1)")


@pytest.mark.slow
def test_the_sql_command_answers_without_numpy(db):
    code = (
        "import sys; from evalhouse.cli import main; sys.argv = ['evalhouse', '--db', sys.argv[1], 'sql', "
        "'select sentences from corpus_complexity', '--format', 'csv']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print('numpy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(db[0])], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["sentences", "42", "False"]
