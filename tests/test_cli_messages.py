"""Issue 19, part 2: progress bars only on a terminal, --db after the subcommand, readers of a warehouse
that does not exist, JSON without NaN, the lock message of read-only commands, exit codes in docs/usage.md."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import evalhouse
from evalhouse.cli import app
from evalhouse.cli.common import progress
from evalhouse.progress import CallbackProgress, Progress, as_progress
from tests.conftest import REPO, SAMPLE

runner = CliRunner()


def _on_a_terminal(args: list[str], cwd) -> tuple[int, str, str]:
    """Run evalhouse with stderr on a pseudo-terminal; returns (exit code, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "evalhouse", *args],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
    )
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other side closed
                chunk = b""
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode()
    proc.wait()
    proc.stdout.close()
    os.close(master)
    return proc.returncode, out, seen.decode("utf-8", errors="replace")


@pytest.mark.slow
def test_progress_bars_on_a_terminal_and_nothing_elsewhere(tmp_path):
    corpora = tmp_path / "tb"
    corpora.mkdir()
    for k in range(3):
        (corpora / f"c{k}-ud-test.conllu").write_bytes(SAMPLE.read_bytes())
    db = str(tmp_path / "w.duckdb")
    code, out, terminal = _on_a_terminal(["--db", db, "ingest", "treebank", str(corpora)], tmp_path)
    assert code == 0
    # one bar over the three files (not "[1/1]" three times), drawn by rich
    assert "3/3" in terminal and "files" in terminal and "━" in terminal
    assert "[1/1]" not in terminal
    # stdout keeps the summary only
    assert out.count("sentences") == 3 and "━" not in out
    code, out, terminal = _on_a_terminal(
        ["--db", db, "baseline", "lr", "--corpus", "c0-ud-test", "--out", "lr.txt"], tmp_path
    )
    assert code == 0
    code, out, terminal = _on_a_terminal(
        ["--db", db, "ingest", "outputs", "lr.txt", "--team", "t", "--run", "1", "--reference", "c0-ud-test"], tmp_path
    )
    assert code == 0 and "scoring" in terminal and "42/42" in terminal and "sentences" in terminal
    code, out, terminal = _on_a_terminal(["--db", db, "analyze", "--resamples", "20"], tmp_path)
    assert code == 0 and "analysing" in terminal and "steps" in terminal
    code, out, terminal = _on_a_terminal(["--db", db, "export-dataset", str(tmp_path / "ds")], tmp_path)
    assert code == 0 and "exporting" in terminal and "relations" in terminal
    # --quiet: nothing on the terminal (a file no other corpus holds: the same bytes again would be warned about)
    text = SAMPLE.read_text(encoding="utf-8")
    (tmp_path / "first.conllu").write_text(text[: text.index("\n\n") + 2], encoding="utf-8")
    code, out, terminal = _on_a_terminal(
        ["--db", db, "ingest", "treebank", "first.conllu", "--corpus", "q", "--quiet"], tmp_path
    )
    assert code == 0 and terminal == "" and out == ""
    # stderr not a terminal (a pipe): no bar, no escape sequence; only the warning that c0-ud-test holds these bytes
    r = subprocess.run(
        [sys.executable, "-m", "evalhouse", "--db", db, "ingest", "treebank", str(SAMPLE), "--corpus", "piped"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 0 and "\x1b" not in r.stderr and "━" not in r.stderr
    assert [line.split(": ")[1] for line in r.stderr.splitlines()] == ["warning"] * 3
    r = subprocess.run(
        [sys.executable, "-m", "evalhouse", "--db", db, "analyze", "--resamples", "20"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 0 and r.stderr == ""


def test_the_progress_helper_decides_by_the_stream():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    with progress(stream=io.StringIO()) as p:
        assert type(p) is Progress
    with progress(quiet=True, stream=Terminal()) as p:
        assert type(p) is Progress
    stream = Terminal()
    with progress(stream=stream) as p:
        with p.task("reading", total=2, unit="files") as task:
            task.describe("a.conllu")
            task.advance(2)
    assert "reading" in stream.getvalue() and "2/2" in stream.getvalue()


@pytest.mark.slow
def test_the_older_progress_callback_still_works(tmp_path):
    calls = []
    assert isinstance(as_progress(lambda *a: calls.append(a)), CallbackProgress)
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank(
            [SAMPLE, SAMPLE.parent / "sample.conllu"][:1], corpus="s", progress=lambda *a: calls.append(a)
        )
    assert calls == [(str(SAMPLE), 0, 1)]


@pytest.mark.slow
def test_db_after_the_subcommand(tmp_path):
    db = str(tmp_path / "w.duckdb")
    r = runner.invoke(app, ["ingest", "treebank", str(SAMPLE), "--corpus", "s", "--db", db])
    assert r.exit_code == 0, r.output
    assert os.path.exists(db)
    for args in (
        ["sql", "select count(*) as n from corpora", "--format", "json", "--db", db],
        ["sql", "select count(*) as n from corpora", f"--db={db}", "--format", "json"],
        ["--db", db, "sql", "select count(*) as n from corpora", "--format", "json"],
    ):
        r = runner.invoke(app, args)
        assert r.exit_code == 0 and json.loads(r.output) == [{"n": 1}], (args, r.output)
    # a query that mentions --db is not an option
    r = runner.invoke(app, ["--db", db, "sql", "select '--db' as x", "--format", "json"])
    assert json.loads(r.output) == [{"x": "--db"}]


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["views"],
        ["views", "--markdown"],
        ["sql", "select 1"],
        ["export", "corpora", "--out", "x.csv"],
        ["export-conllu", "c", "--out", "x.conllu"],
        ["export-dataset", "ds"],
        ["report", "--out", "r"],
        ["augment", "--submission", "a/b", "--from", "c", "--out", "x.conllu"],
    ],
    ids=lambda a: a[0],
)
def test_readers_of_a_missing_warehouse_exit_3_and_create_nothing(tmp_path, args, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = str(tmp_path / "missing.duckdb")
    r = runner.invoke(app, ["--db", db, *args])
    assert r.exit_code == 3, r.output
    assert "no such warehouse" in r.output
    assert not os.path.exists(db)


@pytest.mark.slow
def test_sql_json_writes_null_for_nan(tmp_path):
    r = runner.invoke(
        app,
        [
            "--db",
            ":memory:",
            "sql",
            "select 'nan'::double as a, 'inf'::double as b, 1.5::double as c",
            "--format",
            "json",
        ],
    )
    assert r.exit_code == 0
    assert "NaN" not in r.output and "Infinity" not in r.output
    assert json.loads(r.output) == [{"a": None, "b": None, "c": 1.5}]


@pytest.mark.slow
def test_lock_messages_fit_the_command(tmp_path):
    db = tmp_path / "w.duckdb"
    with evalhouse.connect(db) as wh:
        wh.ingest_treebank([SAMPLE], corpus="s")
    with evalhouse.connect(db):
        reader = subprocess.run(
            [sys.executable, "-m", "evalhouse", "--db", str(db), "sql", "select 1"], capture_output=True, text=True
        )
        writer = subprocess.run(
            [sys.executable, "-m", "evalhouse", "--db", str(db), "ingest", "treebank", str(SAMPLE), "--corpus", "t"],
            capture_output=True,
            text=True,
        )
    assert reader.returncode == writer.returncode == 3
    # a read-only command is not told to open the file read-only: it already does
    assert "database is locked" in reader.stderr and "read-only access" not in reader.stderr
    assert "not even to read" in reader.stderr
    assert "database is locked" in writer.stderr and "one process can write" in writer.stderr


def test_the_usage_page_lists_every_exit_code():
    readme = (REPO / "docs" / "usage.md").read_text(encoding="utf-8")  # moved from the README
    table = readme[readme.index("| code | meaning |") :]
    table = table[: table.index("\n\n")]
    assert re.findall(r"^\| (\d+) \|", table, flags=re.M) == ["0", "1", "2", "3", "4", "5"]
    common = (REPO / "evalhouse" / "cli" / "common.py").read_text(encoding="utf-8")
    assert "EXIT_UNEXPECTED = 4" in common and "EXIT_TORN = 5" in common
