"""DuckDB's memory limit, lowered while a treebank is streamed in and put back exactly (ingest memory).

DuckDB keeps the blocks an ingest has already written to the warehouse file in its buffer pool until the
memory limit (80% of RAM by default) forces them out. Nothing reads them again during the ingest, but
they made the process grow with the input: 1,070 MiB at 5M words, of which DuckDB's own buffers were
about 360 MB of written table blocks. Written blocks can be evicted at no cost and read back from the
file, and an INSERT pins only the few blocks it is filling, so :func:`lowered` holds the limit at
:data:`STREAMING_LIMIT` while a file's chunks are inserted and its ``sent_id`` values are checked for
duplicates (``loaders/treebank.py``). That check groups hashes of the corpus's ``sent_id`` values and joins
only line numbers (joining every sentence with its comments failed under 128 MB at 5M words).
The limit is lifted again for everything after the file. BENCHMARKS.md has the figures.
Rows inserted and not yet written (a row group is written when full) must then spill to DuckDB's
temporary directory: an ingest whose temporary disk is full or capped (``max_temp_directory_size``) can
run out of the lower limit where it would have fit under the default.

DuckDB shows its limit cut to one decimal (``--memory-limit 2GB`` shows as ``1.8 GiB``, and setting
``1.8 GiB`` back would lose 3%), so the limit is put back from what the warehouse was opened with, by
``SET`` of that option. Without one, DuckDB's default (80% of RAM) is set back as the middle of the sizes
shown like it (``18.8 GiB``: within 0.05 GiB, 0.3%): ``RESET memory_limit`` cannot be used, since
duckdb 1.5.6 then shows the default but goes on enforcing the lowered limit (2.0.1 does not). A limit
changed by SQL since the warehouse was opened is set back the same way, from its shown form.

A statement that fails inside a transaction aborts it, and an aborted transaction refuses ``SET`` until
``ROLLBACK``; settings are not rolled back. :meth:`evalhouse.warehouse.Warehouse.transaction` therefore
takes a :func:`snapshot` before ``BEGIN`` and calls :func:`restore` after a ``ROLLBACK`` or a failed
``COMMIT``, so no failure leaves the connection with the lowered limit (or the single thread of an
ingest). A transaction that commits keeps what was set in it: the ingest puts back its own settings.
"""

from __future__ import annotations

import os
import re
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import duckdb

# DuckDB's limit while a file's chunks are inserted (64 MiB). An INSERT pins the current block of every
# column of every table it fills (about 60 columns of 256 KiB); the rows inserted and not yet written
# (``IN_MEMORY_TABLE``) spill beyond that. At 5M words 256 MiB took 700 MiB of the process, 64 MiB 350 at
# 5-9% more CPU time (BENCHMARKS.md, "Memory").
STREAMING_LIMIT = 64 << 20

_SHOWN = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(bytes|KiB|MiB|GiB|TiB|PiB|KB|MB|GB|TB|PB)\s*")
_UNIT = {
    "bytes": 1,
    "KiB": 1 << 10,
    "MiB": 1 << 20,
    "GiB": 1 << 30,
    "TiB": 1 << 40,
    "PiB": 1 << 50,
    "KB": 10**3,
    "MB": 10**6,
    "GB": 10**9,
    "TB": 10**12,
    "PB": 10**15,
}


def shown_bytes(text: str, middle: bool = False) -> int | None:
    """The bytes of a memory size as DuckDB shows it (``18.8 GiB``), None when the text is not one.

    DuckDB cuts the digits it does not show (1.75 GiB shows as 1.7 GiB, and so does 1.7 GiB less a byte,
    shown as 1.6 GiB when set again), so ``middle`` gives the middle of the sizes shown as ``text``
    instead of the least: what puts back a limit known only by its shown form without drifting down."""
    match = _SHOWN.fullmatch(text or "")
    if not match:
        return None
    number, unit = match.groups()
    places = len(number.partition(".")[2])
    value = float(number) + (0.5 * 10**-places if middle and places else 0.0)
    return int(value * _UNIT[unit])


def _setting(con: duckdb.DuckDBPyConnection, name: str) -> str:
    return con.execute(f"SELECT current_setting('{name}')").fetchall()[0][0]


@dataclass(frozen=True)
class Snapshot:
    """The settings an ingest changes for a while, as DuckDB showed them."""

    threads: int
    memory_limit: str


def snapshot(con: duckdb.DuckDBPyConnection) -> Snapshot:
    threads, limit = con.execute("SELECT current_setting('threads'), current_setting('memory_limit')").fetchall()[0]
    return Snapshot(int(threads), limit)


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def put_back_limit(con: duckdb.DuckDBPyConnection, shown: str, configured: str | None) -> None:
    """Make DuckDB's memory limit the one that was shown as ``shown``: the warehouse's own option
    (``configured``, or DuckDB's default when it has none), or ``shown`` itself when that is not it."""
    if _setting(con, "memory_limit") == shown:
        return
    middle = f"{shown_bytes(shown, middle=True)} bytes"
    # never RESET: duckdb 1.5.6 then shows the default but keeps enforcing the lowered limit
    con.execute(f"SET memory_limit = {_literal(middle if configured is None else configured)}")
    if _setting(con, "memory_limit") != shown:  # changed by SQL after the warehouse was opened
        con.execute(f"SET memory_limit = '{middle}'")


def restore(con: duckdb.DuckDBPyConnection, before: Snapshot, configured: str | None) -> None:
    """Put back the settings of ``before`` (see the module docstring); outside any open transaction."""
    if int(_setting(con, "threads")) != before.threads:
        con.execute(f"SET threads = {int(before.threads)}")
    put_back_limit(con, before.memory_limit, configured)


def _temporary_room(con: duckdb.DuckDBPyConnection) -> int:
    """Bytes DuckDB may still write to its temporary directory: ``max_temp_directory_size`` (by default 90%
    of the free disk, here of the disk the directory is or will be on) less the temporary files it has."""
    used = int(con.execute("SELECT coalesce(sum(size), 0) FROM duckdb_temporary_files()").fetchall()[0][0])
    size = shown_bytes(_setting(con, "max_temp_directory_size"))
    if size is not None:
        return max(0, size - used)
    path = os.path.abspath(_setting(con, "temp_directory"))
    while not os.path.exists(path):
        path = os.path.dirname(path)
    return int(0.9 * shutil.disk_usage(path).free)


def _unspillable(con: duckdb.DuckDBPyConnection) -> int:
    """An upper bound of the bytes DuckDB could neither drop nor spill to meet a lower limit: all its buffers
    but the blocks of tables already written to the file, which it drops and reads back, and the rows
    inserted and not yet written (``IN_MEMORY_TABLE``), which it spills to the temporary directory when that
    has room for them (without room they count). Those rows are what an earlier file of the same ingest
    leaves: counting them kept the second file of a corpus under the full limit (687 MiB against 354 for
    5M words as three files against one)."""
    sizes = dict(con.execute("SELECT tag, sum(memory_usage_bytes) FROM duckdb_memory() GROUP BY tag").fetchall())
    kept = int(sum(b for tag, b in sizes.items() if tag not in ("BASE_TABLE", "IN_MEMORY_TABLE")))
    pending = int(sizes.get("IN_MEMORY_TABLE", 0))
    return kept + (pending if pending and pending > _temporary_room(con) else 0)


@contextmanager
def lowered(con: duckdb.DuckDBPyConnection, configured: str | None, limit: int = STREAMING_LIMIT) -> Iterator[bool]:
    """DuckDB's memory limit at most ``limit`` bytes for the block (yields whether it was lowered).

    Left as it is when it is already lower, not shown in a form this module reads, when DuckDB might not
    free enough to meet it (a failed ``SET`` would abort the transaction), or when DuckDB has no temporary
    directory: the rows an ingest inserts stay in memory until they fill a row group, and without a place
    to spill them a wide treebank (10 KB of MISC per word) ran out of the lowered limit. Put back when the
    block ends; if the block fails, a failure to put it back (an aborted transaction refuses ``SET`` until
    ``ROLLBACK``) is left to :meth:`evalhouse.warehouse.Warehouse.transaction`, and the block's own error is
    the one raised."""
    shown = _setting(con, "memory_limit")
    now = shown_bytes(shown)
    if now is None or now <= limit or not _setting(con, "temp_directory") or _unspillable(con) > limit // 2:
        yield False
        return
    con.execute(f"SET memory_limit = '{int(limit)} bytes'")
    try:
        yield True
    except BaseException:
        try:
            put_back_limit(con, shown, configured)
        except duckdb.Error:
            pass  # the transaction's restore puts it back after ROLLBACK
        raise
    put_back_limit(con, shown, configured)
