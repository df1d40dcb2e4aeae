"""`evalhouse sql` without --write is sandboxed (issue 17, point 7): it reads the warehouse and nothing else.

Every attack of the issue is run through the command and must be refused in one line with exit 3 and leave
no trace (no file written, no file's content printed, no database attached); the ordinary read-only uses
(every view, --format csv/json, the export commands) must still work, and --write must still allow them.
"""

from __future__ import annotations

import csv
import io
import json
import shutil

import duckdb
import pytest
from typer.testing import CliRunner

import evalhouse
from evalhouse.cli import app
from evalhouse.warehouse import view_files
from tests.conftest import REPO, significant

runner = CliRunner()
REFUSED = "refused: without --write, sql reads only the warehouse"


@pytest.fixture()
def db(tmp_path):
    """A copy of the sample warehouse (a treebank, two baselines, analyze): every view has its inputs."""
    path = tmp_path / "w.duckdb"
    shutil.copy(REPO / "warehouse.duckdb.example", path)
    return str(path)


@pytest.fixture()
def secret(tmp_path):
    path = tmp_path / "secret.csv"
    path.write_text("name,value\nsecret-token,42\n", encoding="utf-8")
    return path


def _sql(db, query, *more):
    return runner.invoke(app, ["--db", db, "sql", query, *more])


def _attacks(tmp_path, secret):
    out = tmp_path / "copied.csv"
    other = tmp_path / "other.duckdb"
    return {
        "copy to": (f"COPY (SELECT * FROM corpora) TO '{out}' (FORMAT csv)", out),
        "copy view to parquet": (f"COPY corpus_complexity TO '{tmp_path / 'c.parquet'}'", tmp_path / "c.parquet"),
        "export database": (f"EXPORT DATABASE '{tmp_path / 'dump'}'", tmp_path / "dump"),
        "read_text": (f"SELECT content FROM read_text('{secret}')", None),
        "read_text /etc/passwd": ("SELECT content FROM read_text('/etc/passwd')", None),
        "read_csv": (f"SELECT * FROM read_csv('{secret}')", None),
        "read_csv_auto": (f"SELECT * FROM read_csv_auto('{secret}')", None),
        "read_blob": (f"SELECT content FROM read_blob('{secret}')", None),
        "read_json": (f"SELECT * FROM read_json('{secret}')", None),
        "file in from": (f"SELECT * FROM '{secret}'", None),
        "s3": ("SELECT * FROM read_parquet('s3://bucket/x.parquet')", None),
        "glob": (f"SELECT * FROM glob('{tmp_path}/*')", None),
        "url": ("SELECT * FROM read_csv('https://example.com/x.csv')", None),
        "attach": (f"ATTACH '{other}' AS other", other),
        "install": ("INSTALL httpfs", None),
        "load": ("LOAD httpfs", None),
        "sandbox off": ("SET enable_external_access = true", None),
        "reset": ("RESET enable_external_access", None),
        "unlock": ("SET lock_configuration = false", None),
        "allowed directories": (f"SET allowed_directories = ['{tmp_path}']", None),
        "temp directory": (f"SET temp_directory = '{tmp_path / 'spill'}'", tmp_path / "spill"),
        "memory limit": ("SET memory_limit = '100TB'", None),
        "second statement": (f"SELECT 1; COPY (SELECT 1) TO '{out}'", out),
    }


ATTACKS = sorted(_attacks(REPO, REPO))  # the names; the statements need the test's paths


@pytest.mark.slow
@pytest.mark.parametrize("name", ATTACKS)
def test_each_attack_is_refused_in_one_line_and_leaves_no_trace(db, tmp_path, secret, name):
    query, trace = _attacks(tmp_path, secret)[name]
    r = _sql(db, query)
    assert r.exit_code == 3, (r.exit_code, r.stdout, r.stderr)
    assert r.stderr.startswith(f"evalhouse: {REFUSED}") and r.stderr.count("\n") == 1, r.stderr
    assert "secret-token" not in r.stdout + r.stderr and "root:" not in r.stdout
    if trace is not None:
        assert not trace.exists()
    assert "other" not in {p.name for p in tmp_path.iterdir()} - {"secret.csv", "w.duckdb"}


def test_the_settings_cannot_be_undone_from_the_python_api_either(db, secret):
    with evalhouse.connect(db, read_only=True, sandbox=True) as wh:
        for statement in ("SET enable_external_access = true", "SET lock_configuration = false"):
            with pytest.raises(duckdb.Error, match="locked"):
                wh.con.execute(statement)
        with pytest.raises(duckdb.PermissionException):
            wh.con.execute(f"SELECT * FROM read_csv('{secret}')").fetchall()
        assert wh.con.execute("SELECT current_setting('enable_external_access')").fetchone() == (False,)
    # the sandbox belongs to that connection: the next one (and the default) reads files
    with evalhouse.connect(db, read_only=True) as wh:
        assert wh.con.execute(f"SELECT value FROM read_csv('{secret}')").fetchall() == [(42,)]


@pytest.mark.slow
def test_every_view_reads_the_same_rows_in_the_sandbox(db):
    names = [f.name for f in view_files()]

    def rows(sandbox):  # floats to 12 significant digits, sandbox or not (conftest.significant)
        with evalhouse.connect(db, read_only=True, sandbox=sandbox) as wh:
            return {
                n: sorted(repr(tuple(map(significant, r))) for r in wh.con.execute(f'SELECT * FROM "{n}"').fetchall())
                for n in names
            }

    free, boxed = rows(False), rows(True)
    assert boxed == free
    # the sample warehouse has no parses, pronouns or judgements: 13 of the 33 views have rows, every one binds
    assert sum(bool(r) for r in free.values()) >= 13


@pytest.mark.slow
def test_sql_formats_and_functions_work_in_the_sandbox(db):
    r = _sql(db, "SELECT corpus, sentences FROM corpus_complexity", "--format", "csv")
    assert r.exit_code == 0, r.stderr
    assert list(csv.reader(io.StringIO(r.stdout))) == [["corpus", "sentences"], ["sample", "42"]]
    r = _sql(db, "SELECT corpus, sentences FROM corpus_complexity", "--format", "json")
    assert json.loads(r.stdout) == [{"corpus": "sample", "sentences": 42}]
    # a Python SQL function (evalhouse.analysis.udfs) runs inside the sandbox as outside it
    query = "SELECT mean_flux_weight([2, 0, 4, 2, 8, 8, 8, 4]) AS m"
    r = _sql(db, query, "--format", "json")
    assert r.exit_code == 0, r.stderr
    with evalhouse.connect(db, read_only=True) as wh:
        assert json.loads(r.stdout) == [{"m": wh.con.execute(query).fetchone()[0]}]
    # a query error is still the user's SQL (exit 1), not a refusal
    r = _sql(db, "SELECT * FROM no_such_view")
    assert r.exit_code == 1 and REFUSED not in r.stderr


@pytest.mark.slow
def test_write_allows_files_and_changes(db, tmp_path, secret):
    out = tmp_path / "copied.csv"
    r = _sql(db, f"COPY (SELECT corpus FROM corpora) TO '{out}' (FORMAT csv, HEADER false)", "--write")
    assert r.exit_code == 0, r.stderr
    assert out.read_text() == "sample\n"
    r = _sql(db, f"SELECT value FROM read_csv('{secret}')", "--write", "--format", "csv")
    assert r.exit_code == 0 and r.stdout == "value\n42\n", r.stderr


@pytest.mark.slow
def test_the_export_commands_still_write_files(db, tmp_path):
    out = tmp_path / "c.csv"
    r = runner.invoke(app, ["--db", db, "export", "corpus_complexity", "--out", str(out)])
    assert r.exit_code == 0, r.stderr
    assert out.read_text().startswith("corpus,")
    r = runner.invoke(app, ["--db", db, "export-dataset", str(tmp_path / "ds")])
    assert r.exit_code == 0, r.stderr
    assert (tmp_path / "ds" / "manifest.json").exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["export", "corpus_complexity\" TO '{out}'; --", "--out", "{tmp}/x.csv"],
        ["export", "corpus_complexity", "--out", "{tmp}/x.csv", "--corpus", "x') TO '{out}'; --"],
        ["report", "--team", "x'; COPY (SELECT 1) TO '{out}'; --", "--out", "{tmp}/report"],
        ["report", "--submission", "x/1'; COPY (SELECT 1) TO '{out}'; --", "--out", "{tmp}/report"],
        [
            "export-sql",
            "--dialect",
            "duckdb",
            "--out",
            "{tmp}/x.sql",
            "--dataset",
            "{tmp}'); COPY (SELECT 1) TO '{out}'; --",
        ],
    ],
)
def test_other_commands_run_no_sql_from_their_arguments(db, tmp_path, argv):
    """Names and paths given to export, report and export-sql are data (bound parameters, quoted literals),
    never SQL: a name that would be a COPY if pasted into SQL writes nothing."""
    out = tmp_path / "pwned.csv"
    r = runner.invoke(app, ["--db", db, *[a.format(out=out, tmp=tmp_path) for a in argv]])
    assert not out.exists(), (r.exit_code, r.stdout, r.stderr)


# --- readers run in the same sandbox (issue 37 point 5) -----------------------------------------------


def _crafted(db, secret):
    """The warehouse as a hostile lab might share it: its corpus_complexity view also reads a local file."""
    con = duckdb.connect(db)
    try:
        sql = con.execute("SELECT sql FROM duckdb_views() WHERE view_name = 'corpus_complexity'").fetchall()[0][0]
        con.execute(sql.replace("CREATE VIEW corpus_complexity AS", "CREATE VIEW eh_original AS", 1))
        con.execute(
            f"CREATE OR REPLACE VIEW corpus_complexity AS SELECT * REPLACE (corpus || ' ' || "
            f"(SELECT content FROM read_text('{secret}')) AS corpus) FROM eh_original"
        )
    finally:
        con.close()


def _leaked(tmp_path) -> list[str]:
    """The files under ``tmp_path`` (but the secret and the warehouse) that hold the secret."""
    return sorted(
        str(p)
        for p in tmp_path.rglob("*")
        if p.is_file()
        and p.name != "secret.csv"
        and not p.name.startswith("w.duckdb")
        and b"secret-token" in p.read_bytes()
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["export", "corpus_complexity", "--out", "{out}/cc.csv"],
        ["export", "corpus_complexity", "--out", "{out}/cc.parquet"],
        ["export-dataset", "{out}/dataset", "--views", "corpus_complexity"],
        ["report", "--out", "{out}/report"],
    ],
)
def test_a_view_the_file_brought_reads_no_local_file(db, secret, tmp_path, command):
    """A shared warehouse whose corpus_complexity reads a local file (issue 37: /etc/hostname went into the
    export) is refused in one line, exit 3, and nothing of the file is written anywhere."""
    out = tmp_path / "out"
    out.mkdir()
    # the unchanged warehouse exports (the sandbox lets the command write its output)
    args = [a.format(out=out) for a in command]
    r = runner.invoke(app, ["--db", db, *args])
    assert r.exit_code == 0, r.output
    shutil.rmtree(out)
    out.mkdir()
    _crafted(db, secret)
    r = runner.invoke(app, ["--db", db, *args])
    assert r.exit_code == 3, r.output
    assert r.stderr.startswith("evalhouse: refused: the warehouse tried to reach a file, URL or setting outside it")
    assert len(r.stderr.strip().splitlines()) == 1 and "secret-token" not in r.output
    assert _leaked(tmp_path) == []
    assert not (out / "dataset").exists() and not [p for p in out.iterdir() if p.name.startswith(".dataset")]


def test_export_replaces_an_existing_file_in_the_sandbox(db, tmp_path):
    """DuckDB writes a file it replaces as tmp_<name> first: the sandbox allows that one too, nothing else."""
    out = tmp_path / "cc.csv"
    for _ in range(2):
        r = runner.invoke(app, ["--db", db, "export", "corpora", "--out", str(out)])
        assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8").startswith("corpus,")
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("w.duckdb")) == ["cc.csv"]


# --- a base table replaced by a view: refused by every command class before anything is read ------------


def _shadowed(db, secret):
    """The warehouse as a hostile lab might share it: its base table ``sentences`` is a view over the old
    table that also reads a local file (an audit made ``evalhouse check``, which opened every file read-write
    and unconfined, print the file's content)."""
    con = duckdb.connect(db)
    try:
        con.execute("ALTER TABLE sentences RENAME TO eh_sentences")
        con.execute(
            f"CREATE VIEW sentences AS SELECT * REPLACE (corpus || (SELECT content FROM read_text('{secret}')) "
            "AS corpus) FROM eh_sentences"
        )
    finally:
        con.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["check"],  # a reader that reads base tables only
        ["check", "--repair"],  # a repair: writes, confined
        ["sql", "select count(*) from sentences"],  # a reader of the user's choosing
        ["export", "sentences", "--out", "{out}/s.csv"],  # a reader that writes a file
        ["apt", "--corpus", "sample"],  # showing a configuration
        ["analyze"],  # a write command (its check reads the base tables before it writes)
        ["ingest", "treebank", str(REPO / "evalhouse" / "sample" / "sample.conllu"), "--corpus", "other"],
    ],
)
def test_a_base_table_that_is_a_view_is_refused(db, secret, tmp_path, command):
    """Whatever the command, a warehouse whose base table is a view is refused in one line naming it, exit 3,
    before the view runs: nothing of the file it reads is printed or written, and the file is unchanged."""
    out = tmp_path / "out"
    out.mkdir()
    _shadowed(db, secret)
    before = open(db, "rb").read()
    r = runner.invoke(app, ["--db", db, *[a.format(out=out) for a in command]])
    assert r.exit_code == 3, r.output
    assert r.stderr.startswith(f"evalhouse: {db}: refused: sentences is a view, not the base table"), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "secret-token" not in r.output
    assert _leaked(tmp_path) == [] and list(out.iterdir()) == []
    assert open(db, "rb").read() == before


def test_check_opens_the_warehouse_read_only_and_confined(db, monkeypatch):
    """Plain check only reads: it opens the warehouse read-only and confined; --repair opens it read-write,
    confined as well."""
    opened = []
    real = evalhouse.warehouse.Warehouse.confine

    def confine(self, writable=()):
        opened.append(self.read_only)
        real(self, writable)

    monkeypatch.setattr(evalhouse.warehouse.Warehouse, "confine", confine)
    r = runner.invoke(app, ["--db", db, "check"])
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"{db}: whole")
    r = runner.invoke(app, ["--db", db, "check", "--repair"])
    assert r.exit_code == 0, r.output
    assert opened == [True, False]


# --- a command that writes replaces what a file brought before anything runs -------------------------------
# Writes cannot run confined (DuckDB's sandbox also blocks the scan that inserts Arrow batches), so a view or
# macro of the schema that a file defines otherwise is recreated from the installed SQL first, and a macro
# that takes a function's name, or a CHECK the schema does not declare, is refused (evalhouse.definitions).


def _view_sql(db, name):
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute("SELECT sql FROM duckdb_views() WHERE view_name = ?", [name]).fetchall()[0][0]
    finally:
        con.close()


def _stored_text(db) -> str:
    """Every row of every base table, as text (where a leaked secret would be)."""
    con = duckdb.connect(db, read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        return "\n".join(repr(con.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables)
    finally:
        con.close()


WRITERS = [
    ["analyze"],
    ["baseline", "random", "--corpus", "sample", "--team", "other"],
    ["ingest", "treebank", str(REPO / "evalhouse" / "sample" / "sample.conllu"), "--corpus", "other"],
    ["sql", "--write", "select count(*) from corpus_complexity"],
]


@pytest.mark.slow
@pytest.mark.parametrize("command", WRITERS, ids=lambda c: " ".join(c[:2]))
def test_a_write_recreates_a_view_the_file_brought_before_it_runs(db, secret, tmp_path, command):
    """A shared warehouse whose corpus_complexity reads a local file, with evalhouse's fingerprint: a write
    command recreates the view from the installed SQL before anything reads it, says so in a note naming it,
    and nothing of the local file is printed or stored."""
    _crafted(db, secret)
    assert "read_text" in _view_sql(db, "corpus_complexity")
    r = runner.invoke(app, ["--db", db, *command])
    assert r.exit_code == 0, r.output
    note = f"evalhouse: note: {db}: "
    assert note in r.stderr and "corpus_complexity" in r.stderr.split(note, 1)[1].splitlines()[0], r.stderr
    assert "recreated from the installed SQL" in r.stderr
    assert "secret-token" not in r.output and "secret-token" not in _stored_text(db)
    assert "read_text" not in _view_sql(db, "corpus_complexity") and _leaked(tmp_path) == []
    # the next write finds evalhouse's definitions: no note
    r = runner.invoke(app, ["--db", db, "sql", "--write", "select 1"])
    assert r.exit_code == 0 and "note:" not in r.stderr, r.output


def test_an_unconfined_reader_reads_through_the_installed_definitions(db, secret):
    """The Python API opened read-only without the sandbox: the file's own corpus_complexity is not run
    (a temporary view from the installed SQL takes its place) and the file is not changed."""

    def rows(wh):  # to 12 significant digits: DuckDB's parallel sums may differ in the last bits
        return [
            tuple(map(significant, r)) for r in wh.con.execute("SELECT * FROM corpus_complexity ORDER BY 1").fetchall()
        ]

    with evalhouse.connect(db, read_only=True, sandbox=True) as wh:
        honest = rows(wh)
    _crafted(db, secret)
    before = open(db, "rb").read()
    with evalhouse.connect(db, read_only=True) as wh:
        assert "view corpus_complexity" in wh.replaced  # (with the views DuckDB 1.5.6 wrote otherwise)
        assert "read through temporary copies" in wh.replaced_note
        assert rows(wh) == honest
    assert open(db, "rb").read() == before


def _macro_named_like_a_function(db, secret):
    """A macro of the file that takes the place of DuckDB's lower() in every view that calls it."""
    con = duckdb.connect(db)
    try:
        con.execute(f"CREATE MACRO lower(x) AS (SELECT content FROM read_text('{secret}'))")
    finally:
        con.close()


def _check_constraint(db, secret):
    """judgements (empty in the sample) made again with a CHECK that calls a macro of the file: DuckDB runs it
    on every insert (DuckDB 2.0 refuses a subquery in a CHECK, and a macro a CHECK calls cannot be replaced;
    a file written otherwise is refused all the same)."""
    con = duckdb.connect(db)
    try:
        sql = con.execute("SELECT sql FROM duckdb_tables() WHERE table_name = 'judgements'").fetchall()[0][0]
        con.execute("CREATE MACRO eh_probe() AS 1e9")
        con.execute("DROP TABLE judgements")
        con.execute(sql.rstrip(";").rstrip()[:-1] + ", CHECK (score > -eh_probe()))")
    finally:
        con.close()


@pytest.mark.slow
@pytest.mark.parametrize("craft", [_macro_named_like_a_function, _check_constraint], ids=["macro", "check"])
@pytest.mark.parametrize("command", WRITERS[:2] + WRITERS[3:], ids=lambda c: " ".join(c[:2]))
def test_code_a_write_cannot_replace_is_refused(db, secret, tmp_path, craft, command):
    """What cannot be recreated without deleting what the file holds is refused in one line naming it, exit 3,
    the file unchanged."""
    craft(db, secret)
    before = open(db, "rb").read()
    r = runner.invoke(app, ["--db", db, *command])
    assert r.exit_code == 3, r.output
    expected = (
        "its macro main.lower takes the place"
        if craft is _macro_named_like_a_function
        else "its table judgements has CHECK"
    )
    assert r.stderr.startswith(f"evalhouse: {db}: refused: {expected}"), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "secret-token" not in r.output
    assert open(db, "rb").read() == before and _leaked(tmp_path) == []


# --- writing needs DuckDB 2.0, or an explicit choice ---------------------------------------------------------


def test_writing_with_duckdb_1_5_is_refused_unless_accepted(db, monkeypatch):
    """DuckDB 1.5 can tear a killed commit in a way the count check cannot always find: a write is refused in
    one line naming the way out, the file unchanged; reading works; the environment variable accepts it."""
    monkeypatch.setattr(duckdb, "__version__", "1.5.6")
    monkeypatch.delenv("EVALHOUSE_ALLOW_DUCKDB_1_5_WRITES", raising=False)
    before = open(db, "rb").read()
    r = runner.invoke(app, ["--db", db, "baseline", "random", "--corpus", "sample", "--team", "other"])
    assert r.exit_code == 3, r.output
    assert r.stderr.startswith(f"evalhouse: {db}: refused: writing needs DuckDB 2.0 or later (installed: 1.5.6)")
    assert "EVALHOUSE_ALLOW_DUCKDB_1_5_WRITES=1" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert open(db, "rb").read() == before
    r = runner.invoke(app, ["--db", db, "sql", "select count(*) from corpora"])
    assert r.exit_code == 0, r.output
    monkeypatch.setenv("EVALHOUSE_ALLOW_DUCKDB_1_5_WRITES", "1")
    r = runner.invoke(app, ["--db", db, "baseline", "random", "--corpus", "sample", "--team", "other"])
    assert r.exit_code == 0, r.output


# --- the check itself runs nothing of the file (a hostile review found each of these at the first version) ---

LEAK = "error('LEAK:' || (SELECT content FROM read_text('{secret}')))"
SHADOWS = {
    # a macro that takes the place of a function the check's own catalog queries called
    "current_database": "CREATE MACRO current_database() AS " + LEAK,
    # one that confine() called before the sandbox was on
    "current_setting": "CREATE MACRO current_setting(x) AS " + LEAK,
    # a table macro in place of the catalog listing, hiding a view, run before anything was confined
    "duckdb_views": "CREATE MACRO duckdb_views() AS TABLE SELECT * FROM system.main.duckdb_views() WHERE "
    + LEAK
    + " IS NULL",
    # a built-in's name in other letter case: DuckDB matches names without regard to case
    "Split_Part": "CREATE MACRO \"Split_Part\"(s, d, i) AS (SELECT content FROM read_text('{secret}'))",
    # an operator
    "||": "CREATE MACRO \"||\"(a, b) AS (SELECT content FROM read_text('{secret}'))",
}


def _craft(db, script):
    """Run ``script`` (statements separated by ';') on the warehouse file with plain DuckDB, as a hostile lab
    would before sharing it."""
    con = duckdb.connect(db)
    try:
        for statement in script.split(";"):
            con.execute(statement)
    finally:
        con.close()


def _shadow(db, secret, name):
    _craft(db, SHADOWS[name].format(secret=secret))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHADOWS))
def test_a_write_refuses_any_macro_in_a_functions_place_and_runs_none(db, secret, tmp_path, name):
    _shadow(db, secret, name)
    before = open(db, "rb").read()
    r = runner.invoke(
        app, ["--db", db, "ingest", "treebank", str(REPO / "evalhouse" / "sample" / "sample.conllu"), "--corpus", "x"]
    )
    assert r.exit_code == 3, r.output
    assert r.stderr.startswith(f"evalhouse: {db}: refused: its macro main.{name.lower()} takes the place"), r.stderr
    assert "LEAK" not in r.output and "secret-token" not in r.output
    assert open(db, "rb").read() == before and _leaked(tmp_path) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SHADOWS))
@pytest.mark.parametrize(
    "command", [["sql", "select 1"], ["export-dataset", "{out}/dataset"]], ids=["sql", "export-dataset"]
)
def test_a_reader_runs_no_macro_in_a_functions_place_unconfined(db, secret, tmp_path, name, command):
    """Readers are confined: whatever the file's macro does, it reads nothing (it may make the command fail)."""
    out = tmp_path / "out"
    out.mkdir()
    _shadow(db, secret, name)
    r = runner.invoke(app, ["--db", db, *[a.format(out=out) for a in command]])
    assert r.exit_code in (0, 3), r.output
    assert "LEAK" not in r.output and "secret-token" not in r.output and _leaked(tmp_path) == []


def _renamed_view(db, secret, table):
    """``table`` (a view or a base table of the schema) replaced by a view of another letter case that also
    reads a local file."""
    con = duckdb.connect(db)
    try:
        kind = (
            "VIEW"
            if con.execute(f"SELECT count(*) FROM duckdb_views() WHERE view_name = '{table}'").fetchall()[0][0]
            else "TABLE"
        )
        con.execute(f"CREATE TABLE eh_copy AS SELECT * FROM {table}")
        con.execute(f"DROP {kind} {table}")
        con.execute(
            f"CREATE VIEW \"{table.title()}\" AS SELECT * REPLACE (corpus || (SELECT content FROM read_text('{secret}')) "
            "AS corpus) FROM eh_copy"
        )
    finally:
        con.close()


@pytest.mark.slow
def test_names_in_other_letter_case_are_the_same_names(db, secret, tmp_path):
    """A base table replaced by a view "Corpora" is refused; a view "Corpus_Complexity" in place of the
    schema's is replaced for an unconfined reader."""
    _renamed_view(db, secret, "corpora")
    r = runner.invoke(app, ["--db", db, "sql", "--write", "select corpus from corpora"])
    assert r.exit_code == 3 and "refused: corpora is a view" in r.stderr and "secret-token" not in r.output, r.output
    other = str(tmp_path / "other.duckdb")
    shutil.copy(REPO / "warehouse.duckdb.example", other)
    _renamed_view(other, secret, "corpus_complexity")
    with evalhouse.connect(other, read_only=True) as wh:
        assert "view corpus_complexity" in wh.replaced
        assert "secret-token" not in repr(wh.con.execute("SELECT corpus FROM corpus_complexity").fetchall())


# --- a changed definition may not name what the file added (the second hostile review) -------------------------

NAMING = {
    # a view named like a column of corpus_complexity, read by a corpus_complexity whose identifiers are all
    # in evalhouse's definition of it
    "a view named like a column": (
        "CREATE VIEW depth AS SELECT content AS corpus FROM read_text('{secret}');"
        "CREATE OR REPLACE VIEW corpus_complexity AS SELECT * FROM depth",
        "corpus_complexity",
        "SELECT * FROM corpus_complexity",
    ),
    # a view named by a word DuckDB's tokenizer calls a keyword (not a reserved one: it can name a view)
    "a view named like an unreserved keyword": (
        "CREATE VIEW \"value\" AS SELECT content AS corpus FROM read_text('{secret}');"
        "CREATE OR REPLACE VIEW corpus_complexity AS SELECT * FROM value",
        "corpus_complexity",
        "SELECT * FROM corpus_complexity",
    ),
    # a schema named like a table of the schema
    "a schema named like a table": (
        "CREATE SCHEMA edges; CREATE VIEW edges.sentences AS SELECT content AS corpus FROM read_text('{secret}');"
        "CREATE OR REPLACE VIEW sentence_complexity AS SELECT * FROM edges.sentences",
        "sentence_complexity",
        "SELECT * FROM sentence_complexity",
    ),
    # the shared macro made to read a view named like one of its parameters; every view left as it was
    "a view named like a macro's parameter": (
        "CREATE VIEW m1 AS SELECT length(content)::DOUBLE AS r FROM read_text('{secret}');"
        "CREATE OR REPLACE MACRO bleu_from_statistics(h, r, m1, m2, m3, m4, t1, t2, t3, t4) AS "
        "(SELECT m1.r FROM m1)",
        "bleu_from_statistics",
        "SELECT bleu_from_statistics(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(NAMING))
def test_a_changed_definition_that_names_what_the_file_added_is_replaced(db, secret, name):
    sql, replaced, query = NAMING[name]
    _craft(db, sql.format(secret=secret))
    with evalhouse.connect(db, read_only=True) as wh:  # an unconfined reader: temporary copies
        assert any(key.endswith(f" {replaced}") for key in wh.replaced), wh.replaced
        rows = wh.con.execute(query).fetchall()
        assert "secret-token" not in repr(rows)
        if replaced == "bleu_from_statistics":  # all ones: BLEU 1 (the file's macro gave the secret's length)
            assert rows == [(1.0,)]
    r = runner.invoke(app, ["--db", db, "sql", "--write", query])  # a write: recreated, with the note
    assert r.exit_code == 0 and "recreated from the installed SQL" in r.stderr and "secret-token" not in r.output, (
        r.output
    )


def test_a_default_on_a_table_of_the_schema_is_refused(db, tmp_path):
    """A column default runs on every insert (DuckDB refuses a subquery in it, so it can only spoof or leak
    settings): a write refuses a table of the schema with one, the file unchanged."""
    con = duckdb.connect(db)
    try:
        con.execute("CREATE MACRO lab_stamp() AS 'file code ran: ' || version()")
        con.execute("ALTER TABLE sentences ADD COLUMN lab_note VARCHAR DEFAULT lab_stamp()")
    finally:
        con.close()
    before = open(db, "rb").read()
    r = runner.invoke(
        app, ["--db", db, "ingest", "treebank", str(REPO / "evalhouse" / "sample" / "sample.conllu"), "--corpus", "x"]
    )
    assert r.exit_code == 3, r.output
    assert r.stderr.startswith(f"evalhouse: {db}: refused: its table sentences has CHECK constraints, column defaults")
    assert open(db, "rb").read() == before


# --- relations and functions are two namespaces (the third hostile review) ------------------------------------

OTHER_NAMESPACE = {
    "a table macro named like a table": (
        "CREATE MACRO sentences() AS TABLE SELECT content AS corpus FROM read_text('{secret}');"
        "CREATE OR REPLACE VIEW corpus_complexity AS SELECT corpus FROM sentences()",
        "corpus_complexity",
    ),
    "a scalar macro named like a table": (
        "CREATE MACRO edges(x) AS (SELECT content FROM read_text('{secret}'));"
        "CREATE OR REPLACE VIEW corpus_complexity AS SELECT edges(1) AS corpus",
        "corpus_complexity",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(OTHER_NAMESPACE))
def test_a_macro_named_like_a_relation_of_the_schema_is_the_files(db, secret, name):
    sql, replaced = OTHER_NAMESPACE[name]
    _craft(db, sql.format(secret=secret))
    with evalhouse.connect(db, read_only=True) as wh:
        assert f"view {replaced}" in wh.replaced, wh.replaced
        assert "secret-token" not in repr(wh.con.execute(f"SELECT * FROM {replaced}").fetchall())
    r = runner.invoke(app, ["--db", db, "sql", "--write", f"select * from {replaced}"])
    assert r.exit_code == 0 and "recreated from the installed SQL" in r.stderr and "secret-token" not in r.output


def test_names_fold_as_duckdb_folds_them():
    from evalhouse.definitions import fold

    assert fold("Corpus_Complexity") == "corpus_complexity"
    assert fold("parse_metric_ran\u212as") != "parse_metric_ranks"  # the Kelvin sign: Python's lower() gives k
