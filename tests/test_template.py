"""A new warehouse is a copy of a cached empty one (evalhouse.template): the same catalog as a warehouse
whose schema was created in place, and never at the cost of a file the user has."""

from __future__ import annotations

import os

import duckdb
import pytest

import evalhouse
from evalhouse import template
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


def test_a_copy_has_the_catalog_of_a_schema_created_in_place(tmp_path, cache, monkeypatch):
    fingerprint = schema_script()[2]
    evalhouse.connect(tmp_path / "first.duckdb").close()  # builds the template
    built = template.template_path(fingerprint)
    assert built.parent == cache and built.exists()
    stamp = built.stat().st_mtime_ns
    evalhouse.connect(tmp_path / "copy.duckdb").close()
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
    assert [p.name for p in cache.iterdir()] == [built.name]


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


def test_an_existing_file_is_never_replaced(tmp_path, cache):
    fingerprint = schema_script()[2]
    evalhouse.connect(tmp_path / "first.duckdb").close()
    target = tmp_path / "taken.duckdb"
    target.write_bytes(b"the user's own bytes")
    assert template.place(str(target), fingerprint, lambda con: None) is False
    assert target.read_bytes() == b"the user's own bytes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache", "first.duckdb", "taken.duckdb"]


def test_a_missing_directory_fails_as_without_a_cache(tmp_path, cache):
    with pytest.raises(WarehouseError, match="cannot open"):
        evalhouse.connect(tmp_path / "no" / "such" / "w.duckdb")
    assert not (tmp_path / "no").exists()


def test_a_bad_memory_limit_leaves_no_file(tmp_path, cache):
    evalhouse.connect(tmp_path / "first.duckdb").close()
    with pytest.raises(OptionError, match="memory_limit"):
        evalhouse.connect(tmp_path / "w.duckdb", memory_limit="lots")
    assert not (tmp_path / "w.duckdb").exists()
    assert template.template_path(schema_script()[2]).exists()  # the template was not at fault


def test_an_unwritable_cache_falls_back(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv(template.CACHE_ENV, str(blocker / "cache"))  # cannot be a directory
    evalhouse.connect(tmp_path / "w.duckdb").close()
    assert catalog(tmp_path / "w.duckdb")[4] == [(f"'{schema_script()[2]}'",)]
    assert not any(p.name.startswith("w.duckdb.") for p in tmp_path.iterdir())


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
