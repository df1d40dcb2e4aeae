"""A new warehouse file starts as a copy of an empty warehouse built once per schema and DuckDB version.

Creating the schema in a new file costs about 0.22 s of CPU (some 900 ``COMMENT ON`` statements and 70
tables and views), a fifth of a one-sentence ``ingest treebank`` into a new warehouse (issue 18's fixed
cost). So the first new warehouse also writes an empty one, with the schema and nothing else, to the
cache directory; every later new warehouse is a copy of that file (a millisecond), which
:meth:`evalhouse.warehouse.Warehouse.apply_schema` then finds complete by its fingerprint.

The cache directory is ``$EVALHOUSE_CACHE_DIR``, else ``$XDG_CACHE_HOME/evalhouse``, else
``~/.cache/evalhouse``; ``EVALHOUSE_CACHE_DIR=`` (empty) turns the cache off. A template is named by the
schema's fingerprint and the DuckDB version (a file written by DuckDB 2.0 cannot be read by 1.5), so a
new schema or another DuckDB gets its own and never a stale one.

Safety: a template is written under a temporary name and renamed into place when complete; the copy
for a new warehouse is staged beside it and hard-linked to the warehouse's name, which fails if that name
exists (so nothing is ever overwritten, and a kill leaves either no warehouse or a complete copy, plus
at worst a staged ``<warehouse>.evalhouse-new-<pid>`` file). Whenever the cache cannot be used (no
permission, no hard links, a damaged template, a concurrent creator), the warehouse is created the
ordinary way.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

import duckdb

CACHE_ENV = "EVALHOUSE_CACHE_DIR"


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
    return directory / f"schema-{fingerprint[:24]}-duckdb-{duckdb.__version__}.duckdb"


def remove(path: str | os.PathLike) -> None:
    for suffix in ("", ".wal"):
        try:
            os.unlink(os.fspath(path) + suffix)
        except FileNotFoundError:
            pass


def _build(template: Path, create_schema: Callable[[duckdb.DuckDBPyConnection], None]) -> None:
    template.parent.mkdir(parents=True, exist_ok=True)
    staged = template.with_name(f"{template.name}.{os.getpid()}.tmp")
    remove(staged)
    try:
        con = duckdb.connect(os.fspath(staged))
        try:
            create_schema(con)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        if os.path.exists(f"{staged}.wal"):  # not a self-contained file: do not keep it
            raise OSError(f"{staged}: DuckDB left a write-ahead log")
        os.replace(staged, template)
    finally:
        remove(staged)


def place(path: str, fingerprint: str, create_schema: Callable[[duckdb.DuckDBPyConnection], None]) -> bool:
    """Put a copy of the empty warehouse of schema ``fingerprint`` at ``path``, which does not exist,
    building the template first (with ``create_schema``) when there is none. True when the copy is in
    place; False when the cache is off or cannot be used here, or when ``path`` appeared meanwhile: the
    caller then opens ``path`` as it would have without a cache."""
    template = template_path(fingerprint)
    if template is None:
        return False
    staged = f"{path}.evalhouse-new-{os.getpid()}"
    try:
        if not template.exists():
            _build(template, create_schema)
        shutil.copyfile(template, staged)
        os.link(staged, path)  # never replaces: FileExistsError when another process created `path`
        return True
    except (OSError, duckdb.Error):
        return False
    finally:
        remove(staged)


def discard(path: str, fingerprint: str) -> None:
    """After a copy at ``path`` could not be opened: remove it and its template (it will be rebuilt)."""
    remove(path)
    template = template_path(fingerprint)
    if template is not None:
        remove(template)
