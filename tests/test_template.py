"""A new warehouse is a copy of a cached empty one (evalhouse.template): the same catalog as a warehouse
whose schema was created in place, and never at the cost of a file the user has."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import duckdb
import pytest

import evalhouse
from evalhouse import template
from evalhouse import warehouse as warehouse_module
from evalhouse.errors import OptionError, WarehouseError
from evalhouse.warehouse import schema_script
from tests.conftest import SAMPLE

CATALOG = (
    "SELECT table_name, sql, comment FROM duckdb_tables() ORDER BY ALL",
    "SELECT view_name, sql, comment FROM duckdb_views() WHERE NOT internal ORDER BY ALL",
    "SELECT table_name, column_name, column_index, data_type, comment, column_default, is_nullable "
    "FROM duckdb_columns() ORDER BY ALL",
    "SELECT constraint_type, table_name, constraint_column_names FROM duckdb_constraints() ORDER BY ALL",
    "SELECT macro_definition FROM duckdb_functions() WHERE function_name = 'evalhouse_schema'",
)


def catalog(path) -> list:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return [con.execute(q).fetchall() for q in CATALOG]
    finally:
        con.close()


def rows(path) -> int:
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = [r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()]
        return sum(con.execute(f'SELECT count(*) FROM "{t}"').fetchall()[0][0] for t in tables)
    finally:
        con.close()


@pytest.fixture
def cache(tmp_path, monkeypatch):
    directory = tmp_path / "cache"
    monkeypatch.setenv(template.CACHE_ENV, str(directory))
    return directory


def counting_schema_creation(monkeypatch) -> list:
    """Record each time the schema script runs (building a template, or creating a schema in place)."""
    calls = []
    create = warehouse_module._create_schema

    def counted(con):
        calls.append(1)
        create(con)

    monkeypatch.setattr(warehouse_module, "_create_schema", counted)
    return calls


@pytest.mark.slow
def test_a_copy_has_the_catalog_of_a_schema_created_in_place(tmp_path, cache, monkeypatch):
    fingerprint = schema_script()[2]
    calls = counting_schema_creation(monkeypatch)
    evalhouse.connect(tmp_path / "first.duckdb").close()  # builds the template
    assert len(calls) == 1
    built = template.template_path(fingerprint)
    assert built.parent == cache and built.exists()
    stamp = built.stat().st_mtime_ns
    evalhouse.connect(tmp_path / "copy.duckdb").close()
    assert len(calls) == 1  # a copy: the schema script did not run again
    assert built.stat().st_mtime_ns == stamp  # used, not rebuilt
    monkeypatch.setenv(template.CACHE_ENV, "")  # the cache off: the schema is created in the file itself
    evalhouse.connect(tmp_path / "in-place.duckdb").close()
    expected = catalog(tmp_path / "in-place.duckdb")
    assert len(expected[0]) > 30 and len(expected[1]) > 30 and expected[4] == [(f"'{fingerprint}'",)]
    assert catalog(tmp_path / "copy.duckdb") == expected
    assert catalog(tmp_path / "first.duckdb") == expected
    assert rows(tmp_path / "copy.duckdb") == 0
    # nothing else is left beside the warehouses or in the cache
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "copy.duckdb", "first.duckdb", "in-place.duckdb"]
    assert sorted(p.name for p in cache.iterdir()) == [
        built.name,
        built.name + ".definitions.json",
        built.name + ".sha256",
    ]


@pytest.mark.parametrize("cached", [True, False], ids=["template", "in place"])
def test_creating_the_schema_leaves_the_connection_as_duckdb_opened_it(tmp_path, monkeypatch, cached):
    # the schema script runs on one thread without DuckDB's optimizer (warehouse.schema_settings): both come back
    monkeypatch.setenv(template.CACHE_ENV, str(tmp_path / "cache") if cached else "")
    calls = counting_schema_creation(monkeypatch)
    pruned = "EXPLAIN SELECT a FROM (SELECT 1 AS a) WHERE 1 = 0"  # the optimizer plans no filter for it
    with duckdb.connect(":memory:") as plain:
        expected = plain.execute("SELECT current_setting('threads')").fetchone()[0], plain.execute(pruned).fetchall()
    with evalhouse.connect(tmp_path / "w.duckdb") as wh:
        assert calls == [1]
        got = wh.con.execute("SELECT current_setting('threads')").fetchone()[0], wh.con.execute(pruned).fetchall()
    assert got == expected


@pytest.mark.slow
def test_the_cache_off_writes_no_template(tmp_path, monkeypatch):
    monkeypatch.setenv(template.CACHE_ENV, "")
    assert template.cache_dir() is None and template.template_path("f" * 64) is None
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    evalhouse.connect(tmp_path / "w.duckdb").close()
    assert not (tmp_path / "home").exists()
    monkeypatch.delenv(template.CACHE_ENV)
    assert template.cache_dir() == tmp_path / "home" / ".cache" / "evalhouse"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert template.cache_dir() == tmp_path / "xdg" / "evalhouse"


@pytest.mark.slow
def test_a_damaged_template_is_replaced_and_the_warehouse_still_made(tmp_path, cache):
    fingerprint = schema_script()[2]
    evalhouse.connect(tmp_path / "first.duckdb").close()
    built = template.template_path(fingerprint)
    built.write_bytes(b"not a duckdb file" * 1000)
    with evalhouse.connect(tmp_path / "second.duckdb") as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
    assert catalog(tmp_path / "second.duckdb") == catalog(tmp_path / "first.duckdb")
    assert not built.exists()  # discarded; the next new warehouse builds it again
    evalhouse.connect(tmp_path / "third.duckdb").close()
    assert built.exists() and catalog(tmp_path / "third.duckdb") == catalog(tmp_path / "first.duckdb")


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["one byte changed", "digest missing"])
def test_a_template_unlike_its_digest_is_never_copied(tmp_path, cache, damage):
    """A damage DuckDB would not notice on opening (one byte of the file's free space changed), or a
    template without the SHA-256 recorded when it was built: the copy is discarded with the template."""
    fingerprint = schema_script()[2]
    evalhouse.connect(tmp_path / "first.duckdb").close()
    built = template.template_path(fingerprint)
    digest = built.with_name(built.name + ".sha256")
    assert digest.read_text().strip() == hashlib.sha256(built.read_bytes()).hexdigest()
    if damage == "digest missing":
        digest.unlink()
    else:
        data = bytearray(built.read_bytes())
        data[-1] ^= 0xFF
        built.write_bytes(bytes(data))
    evalhouse.connect(tmp_path / "second.duckdb").close()
    assert not built.exists() and not digest.exists()
    assert catalog(tmp_path / "second.duckdb") == catalog(tmp_path / "first.duckdb")
    assert not any(".evalhouse-new-" in p.name for p in tmp_path.iterdir())


@pytest.mark.slow
def test_an_existing_file_is_never_replaced(tmp_path, cache):
    fingerprint = schema_script()[2]
    evalhouse.connect(tmp_path / "first.duckdb").close()
    target = tmp_path / "taken.duckdb"
    target.write_bytes(b"the user's own bytes")
    assert template.place(str(target), fingerprint, lambda con: None) is False
    assert target.read_bytes() == b"the user's own bytes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "first.duckdb", "taken.duckdb"]


@pytest.mark.slow
def test_a_missing_directory_fails_as_without_a_cache(tmp_path, cache):
    with pytest.raises(WarehouseError, match="cannot open"):
        evalhouse.connect(tmp_path / "no" / "such" / "w.duckdb")
    assert not (tmp_path / "no").exists()


@pytest.mark.slow
def test_a_bad_memory_limit_leaves_no_file(tmp_path, cache):
    evalhouse.connect(tmp_path / "first.duckdb").close()
    with pytest.raises(OptionError, match="memory_limit"):
        evalhouse.connect(tmp_path / "w.duckdb", memory_limit="lots")
    assert not (tmp_path / "w.duckdb").exists()
    assert template.template_path(schema_script()[2]).exists()  # the template was not at fault


@pytest.mark.slow
def test_an_unwritable_cache_falls_back(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv(template.CACHE_ENV, str(blocker / "cache"))  # cannot be a directory
    evalhouse.connect(tmp_path / "w.duckdb").close()
    assert catalog(tmp_path / "w.duckdb")[4] == [(f"'{schema_script()[2]}'",)]
    assert not any(p.name.startswith("w.duckdb.") for p in tmp_path.iterdir())


@pytest.mark.slow
def test_no_staged_file_survives_a_failed_link(tmp_path, cache, monkeypatch):
    fingerprint = schema_script()[2]
    evalhouse.connect(tmp_path / "first.duckdb").close()

    def no_links(src, dst):
        raise OSError("hard links are not supported here")

    monkeypatch.setattr(os, "link", no_links)
    evalhouse.connect(tmp_path / "w.duckdb").close()  # created the ordinary way
    assert catalog(tmp_path / "w.duckdb") == catalog(tmp_path / "first.duckdb")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "first.duckdb", "w.duckdb"]
    assert template.template_path(fingerprint).exists()


HOLD = """
import sys, duckdb
con = duckdb.connect(sys.argv[1])
con.execute("CREATE TABLE theirs AS SELECT 42 AS x")
print("ready", flush=True)
sys.stdin.readline()
con.close()
"""


@pytest.mark.slow
def test_a_new_warehouse_another_process_opened_first_is_never_deleted(tmp_path, cache, monkeypatch):
    """The copy is linked into place; before this process opens it, another one does and writes to it. This
    process must then report the lock, as without a cache, and leave the other's data alone."""
    evalhouse.connect(tmp_path / "first.duckdb").close()
    target = tmp_path / "w.duckdb"
    place, holders = template.place, []

    def place_then_taken(path, fingerprint, create):
        placed = place(path, fingerprint, create)
        assert placed  # the copy is linked in: the race is the one under test
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLD, path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        holders.append(holder)
        assert holder.stdout.readline().strip() == "ready"
        return placed

    monkeypatch.setattr(template, "place", place_then_taken)
    try:
        with pytest.raises(WarehouseError, match="locked"):
            evalhouse.connect(target)
    finally:
        for holder in holders:
            holder.communicate("done\n", timeout=60)
    assert holders and holders[0].returncode == 0
    con = duckdb.connect(str(target), read_only=True)
    assert con.execute("SELECT x FROM theirs").fetchall() == [(42,)]
    con.close()


@pytest.mark.slow
def test_staging_never_writes_to_an_existing_file(tmp_path, cache):
    """A kill between the link and the unlink leaves the staged name as a second name of a warehouse; the
    staging must never write through such a name (nor any other existing file)."""
    evalhouse.connect(tmp_path / "first.duckdb").close()
    leftover = tmp_path / f"w.duckdb.evalhouse-new-{os.getpid()}"
    leftover.write_bytes(b"a second name of someone's warehouse")
    with evalhouse.connect(tmp_path / "w.duckdb") as wh:
        assert wh.sql("SELECT count(*) FROM corpora").fetchall() == [(0,)]
    assert leftover.read_bytes() == b"a second name of someone's warehouse"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["cache", "first.duckdb", leftover.name, "w.duckdb"])


@pytest.mark.slow
def test_a_named_in_memory_database_writes_no_file(tmp_path, cache, monkeypatch):
    monkeypatch.chdir(tmp_path)
    evalhouse.connect(tmp_path / "first.duckdb").close()
    with evalhouse.connect(":memory:named") as wh:
        assert wh.sql("SELECT count(*) FROM corpora").fetchall() == [(0,)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "first.duckdb"]


@pytest.mark.slow
@pytest.mark.parametrize("body", ["error('not evalhouse''s')", "'x'::INTEGER", "42"])
def test_a_schema_macro_that_is_not_ours_is_replaced(tmp_path, cache, body):
    """The fingerprint is read by calling evalhouse_schema(); one that fails or returns anything else (a macro
    the user made) means the schema is made again, as when the macro is missing, never a failed open."""
    path = tmp_path / "w.duckdb"
    evalhouse.connect(path).close()
    con = duckdb.connect(str(path))
    con.execute(f"CREATE OR REPLACE MACRO evalhouse_schema() AS {body}")
    con.close()
    with evalhouse.connect(path) as wh:
        assert wh.sql("SELECT evalhouse_schema()").fetchall() == [(schema_script()[2],)]
