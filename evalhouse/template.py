"""A new warehouse file starts as a copy of an empty warehouse built once per schema and DuckDB version.

Creating the schema in a new file costs about 0.3 s of CPU (1,235 statements: 1,146 ``COMMENT ON``, 44 tables
and 44 views; its parse 0.04 s, the views' binding 0.09 s, the comments 0.12 s, the commit 0.03 s, with
:func:`evalhouse.warehouse.schema_settings`), nearly half of a one-sentence ``ingest treebank`` into a new
warehouse (the fixed cost of a command). So the first new warehouse also writes an empty one, with the schema and nothing else, to the
cache directory; every later new warehouse is a copy of that file (about 20 ms, checked), which
:meth:`evalhouse.warehouse.Warehouse.apply_schema` then finds complete by its fingerprint.

The cache directory is ``$EVALHOUSE_CACHE_DIR``, else ``$XDG_CACHE_HOME/evalhouse``, else
``~/.cache/evalhouse``; ``EVALHOUSE_CACHE_DIR=`` (empty) turns the cache off. A template is named by
:data:`FORMAT`, the schema's fingerprint and the DuckDB version (a file written by DuckDB 2.0 cannot be
read by 1.5), so a new schema or another DuckDB gets its own and never a stale one. Old templates are
not pruned (about 2 MB each); the directory can be deleted at any time.

Safety, in order:

* a template is written under a temporary name, synced and renamed into place when complete;
* a template is opened read-only by DuckDB before it is renamed into place, and the SHA-256 of its bytes
  is written beside it (``<template>.sha256``, also under a temporary name, first), as are the digests of
  its views, macros and CHECK constraints (``<template>.definitions.json``: what a warehouse file's own
  definitions are compared with, :mod:`evalhouse.definitions`);
* the copy for a new warehouse is written to a new file of a random name beside the warehouse
  (``<warehouse>.evalhouse-new-XXXXXXXX``, created exclusively: no earlier file is ever written to),
  hashed as it is copied and synced; a copy whose digest is not the recorded one (a template damaged or
  changed since it was built, or one without its digest) is deleted with the template, and the caller
  creates the schema in place. Hashing the ~0.5 MB costs about a millisecond; opening the copy in DuckDB
  to check it, as FORMAT 1 did, cost a second open of the file in every new warehouse;
* only then is it hard-linked to the warehouse's name, which fails if that name exists: an existing file
  is never overwritten, and once linked the file is the warehouse and is never deleted here (another
  process may have opened it already).

A kill leaves either no warehouse or a complete empty one; at worst also the staged file (when the kill
falls between the link and the unlink, a second name of the new warehouse: deleting it deletes a name,
not the data) or a ``*.tmp`` file in the cache directory. Whenever the cache cannot be used (no
permission, no hard links, a damaged template, a concurrent creator), the caller creates the warehouse
the ordinary way.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Callable

import duckdb

from evalhouse import definitions as _definitions

CACHE_ENV = "EVALHOUSE_CACHE_DIR"
# bumped when what a template holds changes in a way its fingerprint does not show (2: a SHA-256 beside it;
# 3: its definitions beside it)
FORMAT = 3
CHUNK = 1 << 20


def cache_dir() -> Path | None:
    """Where templates are kept; ``None`` when the cache is turned off (``EVALHOUSE_CACHE_DIR=``)."""
    value = os.environ.get(CACHE_ENV)
    if value is not None:
        return Path(value) if value else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "evalhouse"


def template_path(fingerprint: str) -> Path | None:
    """The template for a schema ``fingerprint`` under the running DuckDB (it may not exist yet)."""
    directory = cache_dir()
    if directory is None:
        return None
    return directory / f"schema-v{FORMAT}-{fingerprint[:24]}-duckdb-{duckdb.__version__}.duckdb"


def remove(path: str | os.PathLike) -> None:
    """Delete a DuckDB file and its write-ahead log, if they exist."""
    for suffix in ("", ".wal"):
        try:
            os.unlink(os.fspath(path) + suffix)
        except FileNotFoundError:
            pass


def _sync(path: str | os.PathLike) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _build(template: Path, create_schema: Callable[[duckdb.DuckDBPyConnection], None]) -> None:
    template.parent.mkdir(parents=True, exist_ok=True)
    staged = template.with_name(f"{template.name}.{os.getpid()}.tmp")
    remove(staged)
    try:
        con = duckdb.connect(os.fspath(staged))
        try:
            create_schema(con)
            con.execute("CHECKPOINT")
            written = _definitions.read(con)
        finally:
            con.close()
        if os.path.exists(f"{staged}.wal"):  # not a self-contained file: do not keep it
            raise OSError(f"{staged}: DuckDB left a write-ahead log")
        if not _opens(os.fspath(staged)):
            raise OSError(f"{staged}: DuckDB cannot open the template it wrote")
        _sync(staged)
        _replace_text(staged, _definitions_path(template), json.dumps(written.to_json(), sort_keys=True))
        digest = hashlib.sha256(staged.read_bytes()).hexdigest()
        _replace_text(staged, _digest_path(template), digest + "\n")
        os.replace(staged, template)
    finally:
        remove(staged)


def _replace_text(staged: Path, path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a synced temporary file beside ``staged``, renamed into place."""
    temporary = staged.with_name(f"{staged.name}.{path.name.rsplit('.', 1)[-1]}")
    try:
        temporary.write_text(text, encoding="utf-8")
        _sync(temporary)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _digest_path(template: Path) -> Path:
    return template.with_name(f"{template.name}.sha256")


def _definitions_path(template: Path) -> Path:
    return template.with_name(f"{template.name}.definitions.json")


def _discard(template: Path) -> None:
    remove(template)
    _digest_path(template).unlink(missing_ok=True)
    _definitions_path(template).unlink(missing_ok=True)


def definitions(
    fingerprint: str, create_schema: Callable[[duckdb.DuckDBPyConnection], None]
) -> _definitions.Definitions | None:
    """The views, macros and CHECK constraints the running DuckDB writes for schema ``fingerprint``, as
    the template's build recorded them beside it (building the template first when there is none); None when
    the cache is off or cannot be used (the caller then builds them in memory). A template whose record is
    missing or unreadable is discarded, as one whose digest does not match is, so that the next command
    builds both again instead of every command building the definitions in memory."""
    template = template_path(fingerprint)
    if template is None:
        return None
    try:
        if not template.exists():
            _build(template, create_schema)
    except (OSError, duckdb.Error):
        return None
    try:
        return _definitions.Definitions.from_json(json.loads(_definitions_path(template).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        _discard(template)
        return None


def _opens(path: str) -> bool:
    try:
        duckdb.connect(path, read_only=True).close()
        return True
    except duckdb.Error:
        return False


def place(path: str, fingerprint: str, create_schema: Callable[[duckdb.DuckDBPyConnection], None]) -> bool:
    """Put a copy of the empty warehouse of schema ``fingerprint`` at ``path``, which does not exist,
    building the template first (with ``create_schema``) when there is none. True when the copy is in
    place; False when the cache is off or cannot be used here, or when ``path`` appeared meanwhile: the
    caller then opens ``path`` as it would have without a cache."""
    template = template_path(fingerprint)
    if template is None:
        return False
    staged = None
    try:
        if not template.exists():
            _build(template, create_schema)
        try:
            expected = _digest_path(template).read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            expected = None
        directory, name = os.path.split(os.path.abspath(path))
        fd, staged = tempfile.mkstemp(prefix=f"{name}.evalhouse-new-", dir=directory)  # exclusive, random
        digest = hashlib.sha256()
        with open(template, "rb") as src, os.fdopen(fd, "wb") as dst:
            while chunk := src.read(CHUNK):
                digest.update(chunk)
                dst.write(chunk)
            dst.flush()
            os.fsync(dst.fileno())
        if digest.hexdigest() != expected:  # a damaged template: never link it, build it again next time
            _discard(template)
            return False
        os.link(staged, path)  # never replaces: FileExistsError when another process created `path`
        return True
    except (OSError, duckdb.Error):
        return False
    finally:
        if staged is not None:
            remove(staged)
