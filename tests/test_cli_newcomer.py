"""What a newcomer hits first: a failed command leaves no warehouse file it made, messages say what to do
next, global options after the subcommand, whole examples in --help, exports in a fixed order. In-process
(typer's CliRunner) where that tests the same thing as a subprocess."""

from __future__ import annotations

import hashlib
import inspect
import json

import pytest
import typer.main
from typer.testing import CliRunner

import evalhouse.warehouse as warehouse
from evalhouse.cli import app
from evalhouse.export import latex
from evalhouse.ingest.baselines import run_baseline
from tests.conftest import SAMPLE, write

runner = CliRunner()

ONE = "# sent_id = {i}\n# text = {w} sleeps\n1\t{w}\t{w}\tPROPN\t_\t_\t2\tnsubj\t_\t_\n2\tsleeps\tsleep\tVERB\t_\t_\t0\troot\t_\t_\n\n"


def _files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- 1. a failed write command leaves no warehouse file it created --------------------------------------
@pytest.mark.parametrize("args", [["analyze"], ["ingest", "treebank", "missing.conllu"]], ids=" ".join)
def test_a_failed_command_removes_the_warehouse_it_created(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)  # the default ./warehouse.duckdb, as a newcomer runs it
    monkeypatch.delenv("EVALHOUSE_DB", raising=False)
    r = runner.invoke(app, args)
    assert r.exit_code in (1, 3), r.output
    assert _files(tmp_path) == []  # neither warehouse.duckdb nor warehouse.duckdb.wal


def test_a_failed_command_never_removes_a_warehouse_that_existed(tmp_path):
    db = tmp_path / "w.duckdb"
    with warehouse.connect(db):  # an empty warehouse the user made on purpose
        pass
    before = db.read_bytes()
    assert runner.invoke(app, ["--db", str(db), "analyze"]).exit_code == 3
    assert db.exists() and db.read_bytes() == before
    assert runner.invoke(app, ["--db", str(db), "ingest", "treebank", str(tmp_path / "missing.conllu")]).exit_code == 1
    assert db.exists()


def test_a_new_warehouse_that_stored_rows_is_kept_when_a_later_step_fails(tmp_path):
    db = tmp_path / "w.duckdb"
    with pytest.raises(RuntimeError):
        with warehouse.connect(db) as wh:
            assert wh.created
            wh.ingest_treebank([SAMPLE], corpus="s")
            raise RuntimeError("a later step of the caller's failed")
    with warehouse.connect(db, read_only=True) as wh:
        assert wh.sql("select count(*) from corpora").fetchall() == [(1,)]


def test_the_library_removes_a_new_empty_warehouse_left_by_an_error(tmp_path):
    db = tmp_path / "new.duckdb"
    with pytest.raises(ZeroDivisionError):
        with warehouse.connect(db):
            1 / 0
    assert _files(tmp_path) == []
    with warehouse.connect(db) as wh:  # a success keeps it
        assert wh.created
    assert _files(tmp_path) == ["new.duckdb"]
    with warehouse.connect(db) as wh:
        assert not wh.created


# --- messages that say what to do next --------------------------------------------------------------------
def test_analyze_on_an_empty_warehouse_says_which_command_to_run_first(tmp_path):
    r = runner.invoke(app, ["--db", str(tmp_path / "w.duckdb"), "analyze"])
    assert r.exit_code == 3
    assert "nothing to analyse" in r.output and "run `evalhouse ingest outputs`" in r.output
    assert "ingest dependency-run" in r.output and "for all submissions" not in r.output


def test_report_and_augment_without_submissions_say_what_to_do_next(tmp_path):
    db = str(tmp_path / "w.duckdb")
    assert runner.invoke(app, ["--db", db, "ingest", "treebank", str(SAMPLE), "-q"]).exit_code == 0
    r = runner.invoke(app, ["--db", db, "report", "--out", str(tmp_path / "report")])
    assert r.exit_code == 3, r.output
    assert "nothing to report" in r.output and "run `evalhouse ingest outputs`" in r.output
    r = runner.invoke(
        app, ["--db", db, "augment", "--submission", "a/1", "--from", "sample", "--out", str(tmp_path / "x.conllu")]
    )
    assert r.exit_code == 3, r.output
    assert "no submissions for submission a/1" in r.output and "select * from submissions" in r.output


@pytest.mark.slow
def test_sql_shows_duckdbs_suggestion_for_an_unknown_view():
    r = runner.invoke(app, ["--db", ":memory:", "sql", "select * from dea_by_relatio"])
    assert r.exit_code == 1
    assert 'Did you mean "dea_by_relation"?' in r.output
    assert "Traceback" not in r.output


@pytest.mark.slow
def test_export_suggests_the_nearest_view(tmp_path):
    r = runner.invoke(app, ["--db", ":memory:", "export", "dea_by_relatio", "--out", str(tmp_path / "x.csv")])
    assert r.exit_code == 3
    assert "did you mean dea_by_relation?" in r.output
    r = runner.invoke(app, ["--db", ":memory:", "export", "qqqqqqqq", "--out", str(tmp_path / "x.csv")])
    assert r.exit_code == 3 and "did you mean" not in r.output


# --- 3. global options after the subcommand -----------------------------------------------------------
@pytest.mark.slow
def test_traceback_after_the_subcommand():
    r = runner.invoke(app, ["sql", "select * from no_such_view", "--db", ":memory:", "--traceback"])
    assert r.exit_code != 0
    assert r.exception is not None and type(r.exception).__name__ == "CatalogException"  # raised, not one line
    r = runner.invoke(app, ["sql", "select 41 + 1 as x", "--traceback", "--db", ":memory:", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == [{"x": 42}]


@pytest.mark.slow
def test_a_value_that_looks_like_a_global_flag_after_double_dash_is_left_alone():
    r = runner.invoke(app, ["--db", ":memory:", "sql", "--", "--traceback"])
    assert r.exit_code == 0, r.output  # the query "--traceback" (an SQL comment); taken as the flag, no query: exit 2


# --- 5. every example on a line of its own, whole ------------------------------------------------------
def _commands(group, prefix=()):
    for name, cmd in group.commands.items():
        yield prefix + (name,), cmd
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, prefix + (name,))


def _examples(text: str) -> list[str]:
    """The examples a docstring or help text gives, one per 'Example:' line, as written in the source."""
    return [line.strip() for line in (text or "").splitlines() if line.strip().startswith("Example:")]


@pytest.mark.slow
@pytest.mark.parametrize("path", [()] + [p for p, _ in _commands(typer.main.get_command(app))], ids=" ".join)
def test_each_example_of_a_help_is_on_a_line_of_its_own(path):
    root = typer.main.get_command(app)
    source = inspect.cleandoc(app.info.help) if not path else None
    for group in app.registered_groups:
        for info in group.typer_instance.registered_commands:
            name = typer.main.get_command_name(info.name or info.callback.__name__)
            if path in ((name,), (group.name, name)):
                source = inspect.getdoc(info.callback)
    if source is None:  # a group without examples of its own (ingest)
        source = root.commands[path[0]].help
    written = _examples(source)
    out = runner.invoke(app, [*path, "--help"], terminal_width=100).output
    lines = [line.strip() for line in out.splitlines()]
    shown = [line for line in lines if "Example:" in line]
    assert all(line.count("Example:") == 1 and line.startswith("Example:") for line in shown), shown
    assert shown == written  # each whole, none broken over two lines
    if path and path != ("ingest",):
        assert written, f"{' '.join(path)} --help gives no example"


# --- 6. exports in a fixed order -------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["json", "csv", "parquet", "latex"])
def test_exports_of_one_warehouse_built_in_two_orders_are_byte_equal(tmp_path, fmt):
    words = ["Zoe", "Ann", "Mia", "Bob", "Eve", "Kim", "Lou", "Dan"]
    files = [
        write(tmp_path, f"c{k}.conllu", "".join(ONE.format(i=i, w=w) for i, w in enumerate(words[k::2])))
        for k in range(2)
    ]
    outputs = []
    for order in (files, files[::-1]):
        db = tmp_path / f"w{len(outputs)}.duckdb"
        for f in order:
            assert runner.invoke(app, ["--db", str(db), "ingest", "treebank", str(f), "-q"]).exit_code == 0
        for view in ("corpus_complexity", "nodes"):
            out = tmp_path / f"{view}{len(outputs)}.{'tex' if fmt == 'latex' else fmt}"
            r = runner.invoke(app, ["--db", str(db), "export", view, "--out", str(out), "--format", fmt])
            assert r.exit_code == 0, r.output
        outputs.append(
            [
                (tmp_path / f"{v}{len(outputs)}.{'tex' if fmt == 'latex' else fmt}").read_bytes()
                for v in ("corpus_complexity", "nodes")
            ]
        )
    assert outputs[0] == outputs[1]
    if fmt == "json":
        rows = json.loads(outputs[0][1])
        keys = [(r["corpus"], r["position"], r["id"]) for r in rows]
        assert keys == sorted(keys)  # the key columns lead the sort


# --- 7. a compact configuration: its id in the score views, its text once in configurations ----------------
SCORE_VIEWS = ("sentence_scores", "submission_scores", "sr_sentence_scores", "sr_submission_scores")


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    path = tmp_path_factory.mktemp("configurations") / "w.duckdb"
    with warehouse.connect(path) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        run_baseline(wh, "lr", "sample")
        run_baseline(wh, "random", "sample", seed=1, team="r", run="1")
    return path


@pytest.mark.slow
def test_configurations_hold_each_text_once_under_the_first_12_hex_digits_of_its_md5(scored):
    with warehouse.connect(scored, read_only=True) as wh:
        stored = sorted({c for (c,) in wh.sql("SELECT configuration FROM submissions").fetchall()})
        rows = sorted(
            wh.sql("SELECT configuration_id, configuration FROM configurations").fetchall(), key=lambda r: r[1]
        )
    assert len(stored) == 2 and all(len(c) > 500 for c in stored)  # the baselines' lexicons differ
    assert rows == [(hashlib.md5(c.encode("utf-8")).hexdigest()[:12], c) for c in stored]


@pytest.mark.slow
@pytest.mark.parametrize("view", SCORE_VIEWS)
def test_score_views_show_the_id_and_the_join_gives_each_submission_its_text(scored, view):
    with warehouse.connect(scored, read_only=True) as wh:
        columns = [c for c, _, _ in wh.columns(view)]
        assert "configuration_id" in columns and "configuration" not in columns
        longest = wh.sql(f"SELECT max(length(CAST(COLUMNS(*) AS VARCHAR))) FROM {view}").fetchall()[0]
        joined = wh.sql(
            f"SELECT DISTINCT v.team, v.run, v.corpus, k.configuration FROM {view} AS v "
            "JOIN configurations AS k USING (configuration_id) ORDER BY ALL"
        ).fetchall()
        expected = wh.sql("SELECT team, run, corpus, configuration FROM submissions ORDER BY ALL").fetchall()
    assert max(n for n in longest if n is not None) < 200  # no 1,000-character text on every row
    assert joined == expected


def test_the_latex_export_of_a_score_view_quotes_the_whole_configuration(scored, tmp_path):
    out = tmp_path / "scores.tex"
    r = runner.invoke(app, ["--db", str(scored), "export", "submission_scores", "--out", str(out)])
    assert r.exit_code == 0, r.output
    code = out.read_text(encoding="utf-8")
    with warehouse.connect(scored, read_only=True) as wh:
        for (text,) in wh.sql("SELECT configuration FROM configurations").fetchall():
            assert latex.breakable(text) in code
    assert "configuration\\_id" not in code
