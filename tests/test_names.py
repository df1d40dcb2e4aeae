"""Names (issue 17, point 8): empty names and team or run names with '/' are refused at ingest with the
warehouse unchanged; a warehouse written before that rule still reads and selects them; the same file
under a second corpus name is stored with a warning naming the first corpus.

(The stale ``corpus_inputs`` link after ``--replace`` of a reference is tested in tests/test_integrity.py,
test_replacing_a_reference_drops_the_links_of_inputs_that_no_longer_fit.)
"""

from __future__ import annotations

import duckdb
import pytest
from typer.testing import CliRunner

import evalhouse
from evalhouse.cli import app
from evalhouse.errors import InputError, OptionError
from evalhouse.names import check_names
from evalhouse.statistics.augment import resolve_submission
from evalhouse.statistics.selection import Selection
from tests.conftest import SAMPLE, write
from tests.test_integrity import rows
from tests.test_pronouns import P

runner = CliRunner()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The sample treebank as corpus 'first', and its lr baseline written out as an output file."""
    tmp = tmp_path_factory.mktemp("names")
    db, out = tmp / "w.duckdb", tmp / "lr.txt"
    r = runner.invoke(app, ["--db", str(db), "ingest", "treebank", str(SAMPLE), "--corpus", "first", "--quiet"])
    assert r.exit_code == 0, r.stderr
    r = runner.invoke(app, ["--db", str(db), "baseline", "lr", "--corpus", "first", "--out", str(out)])
    assert r.exit_code == 0, r.stderr
    return db, out


@pytest.fixture()
def db(built, tmp_path):
    path = tmp_path / "w.duckdb"
    path.write_bytes(built[0].read_bytes())
    return path


BAD = {
    "empty": ("", "a name cannot be empty or only white space"),
    "blank": ("  ", "a name cannot be empty or only white space"),
    "newline": ("a\nb", "a name cannot contain a control character"),
    # issue 37: visual spoofing in the report and the terminal
    "right-to-left override": (
        "team\u202eevil",
        "a name cannot contain an invisible formatting character "
        "(here U+202E RIGHT-TO-LEFT OVERRIDE): it would display as another name",
    ),
    "zero-width space": (
        "adapt\u200b",
        "a name cannot contain an invisible formatting character (here U+200B ZERO WIDTH SPACE)",
    ),
    "line separator": ("a\u2028b", "a name cannot contain a control character or line separator"),
}


def _commands(out):
    """Each ingest command with a name slot '{}' in one of its options."""
    tr = [
        "--source",
        str(P / "source.en"),
        "--reference",
        str(P / "reference.fr"),
        "--source-reference-alignment",
        str(P / "source-reference.alig"),
    ]
    return {
        "treebank --corpus": ["ingest", "treebank", str(SAMPLE), "--corpus", "{}"],
        "outputs --team": ["ingest", "outputs", str(out), "--reference", "first", "--team", "{}", "--run", "1"],
        "outputs --run": ["ingest", "outputs", str(out), "--reference", "first", "--team", "t", "--run", "{}"],
        "baseline --team": ["baseline", "lr", "--corpus", "first", "--team", "{}"],
        "baseline --run": ["baseline", "random", "--corpus", "first", "--run", "{}"],
        "dependency-run --team": [
            "ingest",
            "dependency-run",
            str(SAMPLE),
            "--gold",
            str(SAMPLE),
            "--corpus",
            "first",
            "--team",
            "{}",
            "--run",
            "1",
        ],
        "dependency-run --run": [
            "ingest",
            "dependency-run",
            str(SAMPLE),
            "--gold",
            str(SAMPLE),
            "--corpus",
            "first",
            "--team",
            "t",
            "--run",
            "{}",
        ],
        "translations --corpus": ["ingest", "translations", "--corpus", "{}", *tr],
        "parses --corpus": ["ingest", "parses", str(P / "source.en"), "--corpus", "{}", "--gold"],
    }


COMMANDS = sorted(_commands(None))


def _refused(db, argv, value, message):
    before = rows(db)
    r = runner.invoke(app, ["--db", str(db), *[a.replace("{}", value) for a in argv]])
    option = next(a for a, b in zip(argv, argv[1:]) if b == "{}")
    assert r.exit_code == 2, (r.exit_code, r.stderr)
    assert r.stderr.startswith(f"evalhouse: {option} {value!r}: {message}"), r.stderr
    assert r.stderr.count("\n") == 1
    assert rows(db) == before


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS)
def test_an_empty_name_is_refused_and_nothing_is_stored(db, built, command):
    _refused(db, _commands(built[1])[command], *BAD["empty"])


@pytest.mark.slow
@pytest.mark.parametrize("bad", ["blank", "newline", "right-to-left override", "zero-width space", "line separator"])
@pytest.mark.parametrize("command", ["treebank --corpus", "outputs --team", "translations --corpus"])
def test_a_blank_or_unprintable_name_is_refused(db, built, command, bad):
    _refused(db, _commands(built[1])[command], *BAD[bad])


@pytest.mark.slow
@pytest.mark.parametrize("command", [c for c in COMMANDS if c.endswith(("--team", "--run"))])
def test_a_team_or_run_with_a_slash_is_refused(db, built, command):
    option = command.split()[-1][2:]
    _refused(db, _commands(built[1])[command], "a/b", f"a {option} name cannot contain '/'")


@pytest.mark.slow
def test_a_corpus_may_contain_a_slash_and_is_found_again(db):
    r = runner.invoke(app, ["--db", str(db), "ingest", "treebank", str(SAMPLE), "--corpus", "ud/en", "--quiet"])
    assert r.exit_code == 0, r.stderr
    r = runner.invoke(app, ["--db", str(db), "sql", "SELECT sentences FROM corpora WHERE corpus = 'ud/en'"])
    assert "42" in r.stdout


@pytest.mark.slow
def test_the_library_refuses_too_and_every_stored_kind_is_checked(db, built):
    with evalhouse.connect(db) as wh:
        with pytest.raises(OptionError, match=r"^`team` 'x/y': a team name cannot contain '/'"):
            wh.ingest_outputs(built[1], reference="first", team="x/y", run="1")
        with pytest.raises(OptionError, match=r"^`corpus` '': a name cannot be empty"):
            wh.ingest_treebank([SAMPLE], corpus="")
        # the net under every ingest: storing any owned kind under a bad name
        with wh.transaction(), pytest.raises(OptionError, match=r"`run` 'a/b'"):
            wh.make_room("dependency run", {"corpus": "first", "team": "t", "run": "a/b"}, False, "run")
    check_names(corpus="a/b", team="t", run=None)  # a corpus may hold '/'; None is 'not given'
    with pytest.raises(OptionError, match="must be a string"):
        check_names(team=1)


@pytest.mark.slow
def test_a_manifest_names_file_and_line(db, built, tmp_path):
    manifest = write(tmp_path, "m.csv", f"path,team,run\n{built[1]},ok,1\n{built[1]},x/y,1\n")
    before = rows(db)
    with evalhouse.connect(db) as wh, pytest.raises(InputError) as err:
        wh.ingest_outputs(manifest=manifest, reference="first")
    assert (
        str(err.value)
        == f"{manifest}:3: team 'x/y': a team name cannot contain '/' (a submission is selected as TEAM/RUN)"
    )
    assert rows(db) == before


# --- a warehouse written before the rule ----------------------------------------------------------


def rename_submissions(con, team: str, new_team: str, new_run: str | None = None) -> None:
    """What an older evalhouse could store (names it now refuses): rename a team, and all its runs to
    ``new_run``, in every base table that has the columns, on an open DuckDB connection."""
    tables = con.execute(
        "SELECT table_name, list(column_name) FROM duckdb_columns() WHERE schema_name = 'main' "
        "AND table_name IN (SELECT table_name FROM duckdb_tables()) GROUP BY ALL"
    ).fetchall()
    for table, columns in tables:
        if "team" in columns:
            both = new_run is not None and "run" in columns
            con.execute(
                f'UPDATE "{table}" SET team = $new' + (", run = $run" if both else "") + " WHERE team = $old",
                {"old": team, "new": new_team, **({"run": new_run} if both else {})},
            )
    con.execute("DELETE FROM stored_counts")  # an older evalhouse recorded no counts


def _rename_team(db, old, new, run=None):
    con = duckdb.connect(str(db))
    try:
        rename_submissions(con, old, new, run)
    finally:
        con.close()


@pytest.mark.slow
def test_a_warehouse_with_slashes_in_names_still_reads_and_selects_them(db, tmp_path):
    r = runner.invoke(
        app, ["--db", str(db), "baseline", "random", "--corpus", "first", "--team", "legacy", "--run", "r"]
    )
    assert r.exit_code == 0, r.stderr
    _rename_team(db, "legacy", "old/team", run="r/1")
    r = runner.invoke(app, ["--db", str(db), "check"])
    assert r.exit_code == 0, r.stdout + r.stderr
    r = runner.invoke(
        app,
        [
            "--db",
            str(db),
            "sql",
            "SELECT team, run, sentences FROM submissions WHERE team = 'old/team'",
            "--format",
            "csv",
        ],
    )
    assert r.stdout == "team,run,sentences\nold/team,r/1,42\n"
    r = runner.invoke(app, ["--db", str(db), "analyze", "--team", "old/team"])
    assert r.exit_code == 0, r.stderr
    with evalhouse.connect(db, read_only=True) as wh:
        assert resolve_submission(wh, "old/team/r/1") == ("old/team", "r/1", "first")
        assert wh.sql("SELECT count(*) FROM metric_correlations WHERE team = 'old/team'").fetchone()[0] > 0
    r = runner.invoke(app, ["--db", str(db), "report", "--submission", "old/team/r/1", "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    assert "old/team" in (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    # replacing it under the old name is refused like any new name: the name cannot be stored any more
    r = runner.invoke(
        app,
        ["--db", str(db), "baseline", "random", "--corpus", "first", "--team", "old/team", "--run", "r/1", "--replace"],
    )
    assert r.exit_code == 2 and "cannot contain '/'" in r.stderr


@pytest.mark.slow
def test_a_submission_spelled_two_ways_is_ambiguous(db):
    for team, run in (("a", "b"), ("c", "d")):
        r = runner.invoke(
            app, ["--db", str(db), "baseline", "random", "--corpus", "first", "--team", team, "--run", run]
        )
        assert r.exit_code == 0, r.stderr
    _rename_team(db, "a", "x/y", run="z")  # x/y + z
    _rename_team(db, "c", "x", run="y/z")  # x + y/z
    with evalhouse.connect(db, read_only=True) as wh:
        with pytest.raises(
            OptionError, match=r"'x/y/z' names several submissions \(team 'x' run 'y/z', team 'x/y' run 'z'\)"
        ):
            Selection.of("x/y/z").submissions(wh)
        assert Selection.of("first/lr").resolve(wh) == Selection("first", "lr")  # one '/': as before


# --- the same file under a second corpus name -------------------------------------------------------


@pytest.mark.slow
def test_the_same_file_under_a_second_corpus_name_warns_naming_the_first(db, tmp_path):
    copy = write(tmp_path, "copy.conllu", SAMPLE.read_bytes())
    r = runner.invoke(app, ["--db", str(db), "ingest", "treebank", str(copy), "--corpus", "second", "--quiet"])
    assert r.exit_code == 0
    assert r.stderr == (
        f"evalhouse: warning: {copy} has the same SHA-256 as corpus 'first' ({SAMPLE}): "
        "stored again as corpus 'second'\n"
    )
    with evalhouse.connect(db, read_only=True) as wh:
        assert wh.corpora() == ["first", "second"]
    # the same name again, or a different file: no warning
    r = runner.invoke(app, ["--db", str(db), "ingest", "treebank", str(copy), "--corpus", "second", "--replace"])
    assert r.exit_code == 0 and "warning" in r.stderr  # 'first' still holds the bytes
    text = SAMPLE.read_text(encoding="utf-8")
    other = write(tmp_path, "other.conllu", text[: text.index("\n\n") + 2])
    r = runner.invoke(app, ["--db", str(db), "ingest", "treebank", str(other), "--corpus", "third"])
    assert r.exit_code == 0 and r.stderr == ""
    with evalhouse.connect(db) as wh:
        s = wh.ingest_treebank([SAMPLE], corpus="fourth")[0]
    assert s.same_files == (
        f"{SAMPLE} has the same SHA-256 as corpus 'first'",
        f"{SAMPLE} has the same SHA-256 as corpus 'second' ({copy})",
    )
