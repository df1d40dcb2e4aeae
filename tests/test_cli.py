"""The CLI: every command and option explained in docs/usage.md (sqlite-utils' test_docs), the README's two set-up
commands, one-line errors, exit codes, speed of --help."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import duckdb
import pytest
import typer.main
from typer.testing import CliRunner

from evalhouse.cli import app
from tests.conftest import REPO, SAMPLE, write

runner = CliRunner()


def _commands(group, prefix: tuple[str, ...] = ()):
    # typer vendors its own click: duck-type groups instead of importing click
    for name, cmd in group.commands.items():
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, prefix + (name,))
        else:
            yield prefix + (name,), cmd


COMMANDS = dict(_commands(typer.main.get_command(app)))
README = (REPO / "README.md").read_text(encoding="utf-8")
USAGE = (REPO / "docs" / "usage.md").read_text(encoding="utf-8")  # the commands explained, moved from the README


def _section(path: tuple[str, ...]) -> str:
    heading = f"### `evalhouse {' '.join(path)}`"
    assert heading in USAGE, f"docs/usage.md has no section '{heading}'"
    start = USAGE.index(heading) + len(heading)
    end = USAGE.find("\n### ", start)
    end2 = USAGE.find("\n## ", start)
    ends = [e for e in (end, end2) if e != -1]
    return USAGE[start : min(ends) if ends else len(USAGE)]


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_every_command_and_option_is_documented(path):
    section = _section(path)
    for param in COMMANDS[path].params:
        if param.param_type_name == "option" and "--help" not in param.opts:
            assert any(opt in section for opt in param.opts), f"{' '.join(path)}: {param.opts} not in docs/usage.md"


def test_usage_documents_no_command_that_does_not_exist():
    documented = set(re.findall(r"^### `evalhouse ([a-z -]+)`", USAGE, flags=re.M))
    assert documented == {" ".join(p) for p in COMMANDS}


@pytest.mark.slow
def test_every_command_help_shows_an_example():
    for path in COMMANDS:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0
        assert "Example: evalhouse" in result.output, path


def test_readme_set_up_is_exactly_two_commands():
    start = README.index("## Set-up")
    setup = README[start : README.index("\n## ", start + 1)]
    blocks = re.findall(r"```console\n(.*?)```", setup, flags=re.S)
    assert [b.strip() for b in blocks] == [
        "python -m pip install -e . && evalhouse demo",
        'python -m pip install -e ".[test]" && python -m pytest',
    ]
    ci = (REPO / ".ci" / "run").read_text()
    assert blocks[1].strip() in ci


@pytest.mark.slow
def test_ingest_sql_export_round_trip(tmp_path):
    db = str(tmp_path / "w.duckdb")
    r = runner.invoke(app, ["--db", db, "ingest", "treebank", str(SAMPLE), "--corpus", "s"])
    assert r.exit_code == 0, r.output
    assert "s: 42 sentences" in r.output
    r = runner.invoke(app, ["--db", db, "sql", "select corpus, sentences from corpus_complexity", "--format", "json"])
    assert json.loads(r.output) == [{"corpus": "s", "sentences": 42}]
    r = runner.invoke(
        app,
        [
            "--db",
            db,
            "sql",
            "select position, length from sentence_complexity where position <= 2 order by 1",
            "--format",
            "csv",
        ],
    )
    assert r.output.splitlines() == ["position,length", "1,8", "2,8"]
    out = tmp_path / "s.conllu"
    r = runner.invoke(app, ["--db", db, "export-conllu", "s", "--out", str(out)])
    assert r.exit_code == 0 and out.read_bytes() == SAMPLE.read_bytes()
    pq = tmp_path / "c.parquet"
    r = runner.invoke(app, ["--db", db, "export", "sentence_complexity", "--out", str(pq), "--corpus", "s"])
    assert r.exit_code == 0, r.output
    import duckdb

    assert duckdb.sql(f"select count(*) from '{pq}'").fetchall()[0][0] == 42


@pytest.mark.slow
def test_sql_csv_quotes_a_bare_carriage_return(tmp_path):
    """Python's csv module quotes "\n" (the line terminator) but not a lone "\r", which a CSV reader takes
    for a line break: every value must come back as it was, one record per row."""
    import csv
    import io

    values = ["a\rb", "c\r\nd", "e\nf", "plain", '"q"']
    query = (
        "select * from (values "
        + ", ".join(f"({k}, '{v}', {k}.5)" for k, v in enumerate(values))
        + ") t(k, v, x) order by k"
    )
    r = runner.invoke(app, ["--db", ":memory:", "sql", query, "--format", "csv"])
    assert r.exit_code == 0, r.output
    text = r.stdout_bytes.decode("utf-8")  # r.output turns "\r\n" into "\n" (click)
    back = list(csv.reader(io.StringIO(text, newline="")))
    assert back == [["k", "v", "x"]] + [[str(k), v, f"{k}.5"] for k, v in enumerate(values)]
    assert "\n3,plain,3.5\n" in text and '"0","a\rb","0.5"' in text  # only rows with "\r" get every field quoted


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_sql_prints_timestamps_with_time_zone(tmp_path, fmt):
    """corpora.ingested_at is TIMESTAMP WITH TIME ZONE: DuckDB hands it to Python through pytz, which
    pandas 3 no longer installs, so `select * from corpora` failed until pytz became a dependency."""
    import datetime as dt

    db = str(tmp_path / "w.duckdb")
    runner.invoke(app, ["--db", db, "ingest", "treebank", str(SAMPLE), "--corpus", "s", "-q"])
    r = runner.invoke(app, ["--db", db, "sql", "select ingested_at from corpora", "--format", fmt])
    assert r.exit_code == 0, r.output
    stamp = re.search(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?\+00(:00)?", r.output).group(0)
    when = dt.datetime.fromisoformat(stamp if stamp.endswith(":00") else stamp + ":00")
    assert abs(dt.datetime.now(dt.timezone.utc) - when) < dt.timedelta(hours=1)


@pytest.mark.slow
def test_export_filter_is_data_not_sql(tmp_path):
    db = str(tmp_path / "w.duckdb")
    runner.invoke(app, ["--db", db, "ingest", "treebank", str(SAMPLE), "--corpus", "s", "-q"])
    out = tmp_path / "x.json"
    hostile = "x'; drop table nodes; --"
    r = runner.invoke(app, ["--db", db, "export", "sentence_complexity", "--out", str(out), "--corpus", hostile])
    assert r.exit_code == 0, r.output
    assert json.loads(out.read_text()) == []
    r = runner.invoke(app, ["--db", db, "sql", "select count(*) as n from nodes", "-f", "json"])
    assert json.loads(r.output) == [{"n": 374}]


@pytest.mark.slow
def test_bad_input_is_one_line_with_file_and_line_and_exit_1(tmp_path):
    bad = write(tmp_path, "bad.conllu", "# sent_id = 1\n1\tA\ta\tX\t_\t_\t0\troot\t_\n\n")
    r = subprocess.run(
        [sys.executable, "-m", "evalhouse", "--db", str(tmp_path / "w.duckdb"), "ingest", "treebank", str(bad)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 1
    assert r.stderr.strip() == f"evalhouse: {bad}:2: expected 10 tab-separated columns, found 9"
    assert "Traceback" not in r.stderr


@pytest.mark.slow
def test_existing_corpus_exit_3_and_unknown_view(tmp_path):
    db = str(tmp_path / "w.duckdb")
    assert runner.invoke(app, ["--db", db, "ingest", "treebank", str(SAMPLE), "-q"]).exit_code == 0
    r = runner.invoke(app, ["--db", db, "ingest", "treebank", str(SAMPLE), "-q"])
    assert r.exit_code == 3 and "--replace" in r.output
    assert runner.invoke(app, ["--db", db, "ingest", "treebank", str(SAMPLE), "-q", "--replace"]).exit_code == 0
    r = runner.invoke(app, ["--db", db, "export", "no_such_view", "--out", str(tmp_path / "x.csv")])
    assert r.exit_code == 3 and "no view or table 'no_such_view'" in r.output
    r = runner.invoke(app, ["--db", db, "export", "corpora", "--out", str(tmp_path / "x.xlsx")])
    assert r.exit_code == 2 and "valid formats" in r.output


def test_locked_database_is_a_clear_message(tmp_path):
    import evalhouse

    db = tmp_path / "w.duckdb"
    with evalhouse.connect(db):
        r = subprocess.run(
            [sys.executable, "-m", "evalhouse", "--db", str(db), "ingest", "treebank", str(SAMPLE)],
            capture_output=True,
            text=True,
        )
    assert r.returncode == 3
    assert "database is locked" in r.stderr and "Traceback" not in r.stderr


def test_help_does_not_import_heavy_libraries():
    code = (
        "import sys; from evalhouse.cli import app; from typer.testing import CliRunner; "
        "CliRunner().invoke(app, ['--help']); "
        "print(sorted(m for m in ('duckdb', 'pandas', 'numpy', 'sqlglot', 'scipy') if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "[]"


@pytest.mark.slow
def test_views_lists_every_view_with_a_description(tmp_path):
    r = runner.invoke(app, ["--db", ":memory:", "views"])
    assert r.exit_code == 0
    for view in ("sentence_complexity", "corpus_complexity", "relation_entropy", "tree_node_depth"):
        assert f"{view}\n    " in r.output
    md = runner.invoke(app, ["--db", ":memory:", "views", "--markdown"]).output
    assert "## `corpus_complexity`" in md and "| `depth_sd` |" in md


def test_version_alone_prints_the_version():
    from evalhouse import __version__

    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"evalhouse {__version__}"


@pytest.mark.slow
def test_memory_limit_reaches_duckdb_and_a_bad_one_is_a_usage_error(tmp_path):
    import evalhouse

    db = str(tmp_path / "w.duckdb")
    evalhouse.connect(db).close()
    before = sorted(p.name for p in tmp_path.iterdir())
    r = runner.invoke(
        app,
        [
            "--db",
            db,
            "--memory-limit",
            "300MB",
            "sql",
            "select current_setting('memory_limit') as m",
            "--format",
            "csv",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "286.1 MiB" in r.output  # 300 MB = 286.1 MiB, as DuckDB prints it
    r = runner.invoke(app, ["--db", db, "--memory-limit", "lots", "sql", "select 1"])
    assert r.exit_code == 2
    assert "--memory-limit 'lots'" in r.output and "Traceback" not in r.output
    r = runner.invoke(
        app, ["--db", str(tmp_path / "new.duckdb"), "--memory-limit", "lots", "ingest", "treebank", str(SAMPLE)]
    )
    assert r.exit_code == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # the bad runs created nothing


def test_memory_limit_from_the_environment(tmp_path, monkeypatch):
    import evalhouse

    monkeypatch.setenv("EVALHOUSE_MEMORY_LIMIT", "1GiB")
    with evalhouse.connect(tmp_path / "w.duckdb") as wh:
        assert wh.con.execute("select current_setting('memory_limit')").fetchone()[0] == "1.0 GiB"
    with evalhouse.connect(tmp_path / "w.duckdb", memory_limit="2GiB") as wh:
        assert wh.con.execute("select current_setting('memory_limit')").fetchone()[0] == "2.0 GiB"


# --- a run builds only the command it names (evalhouse.cli.common.app_for) -----------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(COMMANDS), ids=" ".join)
def test_a_run_that_names_its_command_builds_that_command_alone_with_the_same_help(path):
    from evalhouse.cli.common import app_for

    args = ["--db", "w.duckdb", "--traceback", *path, "--help"]
    pruned = app_for(args)
    assert pruned is not app
    assert set(typer.main.get_command(pruned).commands) == {path[0]}
    full, mine = runner.invoke(app, args), runner.invoke(pruned, args)
    assert (mine.exit_code, mine.output) == (full.exit_code, full.output) and full.exit_code == 0


def test_a_run_of_an_ingest_command_builds_that_subcommand_alone():
    from evalhouse.cli.common import app_for

    def ingest_commands(args):
        return set(typer.main.get_command(app_for(args)).commands["ingest"].commands)

    every = {path[1] for path in COMMANDS if path[0] == "ingest"}
    assert len(every) > 1
    assert ingest_commands(["--db", "w.duckdb", "ingest", "dependency-run", "s.conllu", "--gold", "g"]) == {
        "dependency-run"
    }
    # the group's help, no subcommand and a mistyped one build the whole group: click lists every subcommand
    for args in (["ingest"], ["ingest", "--help"], ["ingest", "treebnk", "x.conllu"]):
        assert ingest_commands(args) == every
    mistyped = ["ingest", "treebnk", "x.conllu"]
    full, mine = runner.invoke(app, mistyped), runner.invoke(app_for(mistyped), mistyped)
    assert (mine.exit_code, mine.output) == (full.exit_code, full.output) and full.exit_code != 0


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--help"],
        ["--version"],
        ["--db"],
        ["--db", "w.duckdb"],
        ["evalbb"],
        ["-x", "evalb"],
        ["--memory-limit=1GB", "--frobnicate", "sql"],
    ],
)
def test_help_version_and_unknown_commands_build_the_whole_app(args):
    from evalhouse.cli.common import app_for

    assert app_for(args) is app


def test_global_options_and_their_values_are_not_taken_for_the_command():
    from evalhouse.cli.common import command_name

    assert command_name(["--db", "sql", "views"]) == "views"  # a warehouse file called "sql"
    assert command_name(["--db=sql", "--memory-limit", "1GB", "--traceback", "evalb", "--db", "x"]) == "evalb"
    assert command_name(["ingest", "treebank"]) == "ingest"


BLAS_PROBE = (
    "import os, sys; sys.argv = ['evalhouse', '--version']\n"
    "from evalhouse.cli.common import main\n"
    "try:\n    main()\nexcept SystemExit:\n    pass\n"
    "import numpy\n"  # OpenBLAS reads its settings when numpy is imported, after main() set them
    "print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))"
)


@pytest.mark.slow
@pytest.mark.parametrize("given, kept", [(None, "4"), ("20", "20")])
def test_the_command_lets_idle_blas_threads_sleep_unless_the_user_says_otherwise(given, kept):
    """``evalhouse`` sets OPENBLAS_THREAD_TIMEOUT=4 for its own process (issue 18: OpenBLAS threads spinning
    0.1 s of CPU after numpy's import); a value the user set is kept. Since issue 40 importing the package
    sets it too (the library's scorers call no BLAS), unless numpy was imported first: then it is too late
    to matter, and the process is left alone."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_THREAD_TIMEOUT"}
    if given is not None:
        env["OPENBLAS_THREAD_TIMEOUT"] = given
    out = subprocess.run([sys.executable, "-c", BLAS_PROBE], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.split()[-1] == kept
    library = subprocess.run(
        [sys.executable, "-c", ("import os, evalhouse; print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))")],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert library.stdout.split()[-1] == kept
    untouched = subprocess.run(
        [
            sys.executable,
            "-c",
            ("import os, numpy, evalhouse, evalhouse.cli; print(os.environ.get('OPENBLAS_THREAD_TIMEOUT'))"),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert untouched.stdout.split()[-1] == str(given)


def test_dependency_run_takes_a_cost_table_file_and_refuses_an_unknown_cost(tmp_path):
    # its --cost is resolved without the constituency ingest (evalhouse.ingest.label_costs); a file is still read
    table = write(tmp_path, "costs.txt", "nsubj obj 0.75\nobj nsubj 1.5\n")
    base = ["--db", str(tmp_path / "w.duckdb"), "ingest", "dependency-run", str(SAMPLE), "--gold", str(SAMPLE)]
    r = runner.invoke(app, [*base, "--corpus", "s", "--team", "t", "--run", "1", "--cost", str(table)])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, [*base, "--corpus", "s", "--team", "t", "--run", "2", "--cost", "nonsense"])
    assert r.exit_code == 2 and "valid: default, strict" in r.output, r.output
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        stored = con.execute("SELECT run, la_cost FROM dependency_runs ORDER BY run").fetchall()
    assert [(run, json.loads(cost)["table"]) for run, cost in stored] == [
        ("1", [["nsubj", "obj", 0.75], ["obj", "nsubj", 1.5]])
    ]
