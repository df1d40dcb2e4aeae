"""Export the warehouse as a Parquet dataset that other engines (Spark, Trino, BigQuery, BI tools) read.

    $ evalhouse export-dataset dataset/ --partition-by corpus
    wrote 58 relations (1,247 rows) to dataset/        # the bundled sample

Layout: one directory per relation, ``DIR/<name>/``, holding ``data_0.parquet`` or, with
``--partition-by corpus`` (or ``team``), hive partitions ``DIR/<name>/corpus=<value>/data_0.parquet``
for every relation that has that column and at least one row. ``DIR/manifest.json`` records the
evalhouse version, the partitioning and, per relation, its kind (table or view), description, row
count, columns (name, DuckDB type, description) and the partition column.

The whole dataset is written to a temporary sibling directory ``.DIR.tmp-*`` and put in place at the
end, so a failure leaves the previous dataset (or nothing) behind, never half of a new one. On Linux the
new directory and the old one are exchanged atomically (``renameat2(RENAME_EXCHANGE)``): at every moment
``DIR`` is the old dataset or the new one. Elsewhere the old one is first moved aside into
``.DIR.old-*`` and the new one renamed into place; a process killed between the two renames leaves no
``DIR``, and the next export (or :func:`recover`) moves the old one back before anything else. The
writing process holds a lock on its temporary directory; a later export removes the ``.DIR.tmp-*`` and
``.DIR.old-*`` directories whose lock nobody holds (left by killed runs), never those of a live one.
Re-exporting the same warehouse gives the same manifest and the same rows. An existing ``DIR`` is only
replaced when it is an evalhouse dataset (has a ``manifest.json``) or empty. Directories and files are
created with the modes the umask gives new files (0755 and 0644 with the usual umask 022), so a BI
service running as another user can read them.

A partition directory is named ``<column>=<value>`` with the value percent-encoded as DuckDB writes it
(every byte but ``A-Z a-z 0-9 . _ ~ -`` as ``%XX``). A name longer than a file name may be (255 bytes) is
shortened to its first bytes, ``~`` and 16 hex digits of the value's SHA-256 (a team name of 300 bytes
no longer makes ``--partition-by team`` fail for the whole warehouse). A reader of the raw hive
partitions then sees the shortened value; the manifest's ``shortened_partitions`` maps it back, and the
views of :func:`evalhouse.export.manifest.attach_dataset` and of ``export-sql --dialect duckdb
--dataset`` give the full value.

``format="postgres"`` (``--format postgres``) writes what PostgreSQL, which has no Parquet reader,
loads instead: ``DIR/<table>.csv`` for every base table in the CSV form of PostgreSQL's ``COPY``
(lists as array literals), ``DIR/schema.sql`` (the tables and views from ``export-sql --dialect
postgres``) and ``DIR/load.psql``, which creates them and copies the rows in:

    $ cd DIR && psql -v ON_ERROR_STOP=1 --single-transaction -d mydb -f load.psql

Views are not exported in that form: PostgreSQL computes them from the tables.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Sequence

from sqlglot import exp

from evalhouse.errors import OptionError, WarehouseError
from evalhouse.export.manifest import MANIFEST
from evalhouse.export.transpile import render, transpile_all
from evalhouse.progress import as_progress
from evalhouse.version import __version__
from evalhouse.warehouse import Warehouse, schema_files, view_files

PARTITION_COLUMNS = ("corpus", "team")
FORMATS = ("parquet", "postgres")


def _relations(wh: Warehouse) -> list[tuple[str, str]]:
    """The base tables the warehouse has (one written by an older evalhouse and opened read-only may lack a
    newer one, such as stored_counts), then the views."""
    have = {
        t
        for (t,) in wh.con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary"
        ).fetchall()
    }
    return [(f.name, "table") for f in schema_files() if f.name in have] + [(f.name, "view") for f in view_files()]


def _description(wh: Warehouse, name: str, kind: str) -> str:
    if kind == "table":
        rows = wh.con.execute(
            "SELECT comment FROM duckdb_tables() WHERE schema_name = 'main' AND table_name = ?", [name]
        ).fetchall()
    else:
        rows = wh.con.execute(
            "SELECT comment FROM duckdb_views() WHERE schema_name = 'main' AND view_name = ?", [name]
        ).fetchall()
    return (rows[0][0] if rows else None) or ""


# DuckDB's partitioned COPY keeps buffers for every partition it writes at once (about 2 MB each
# for the widest relations), so 1,800 corpora in one COPY needed about 4 GB and failed under a 1 GB
# memory_limit. Partitions are written this many at a time instead (DuckDB still names and escapes
# the directories); a view is first materialised into a temporary table, which DuckDB can spill,
# so that it is computed once.
PARTITIONS_PER_COPY = 64


NAME_MAX = 255  # bytes of one file name (Linux, macOS, Windows)
_UNRESERVED = re.compile(r"[A-Za-z0-9._~-]")


def partition_directory(column: str, value: str) -> tuple[str, bool]:
    """The directory name of a hive partition, as DuckDB writes it (``column=`` and the value
    percent-encoded), shortened to its first bytes, ``~`` and 16 hex digits of the value's SHA-256 when it
    would be longer than :data:`NAME_MAX`; and whether it was shortened."""
    encoded = "".join(c if _UNRESERVED.fullmatch(c) else "".join(f"%{b:02X}" for b in c.encode("utf-8")) for c in value)
    name = f"{column}={encoded}"
    if len(name.encode("utf-8")) <= NAME_MAX:
        return name, False
    suffix = "~" + hashlib.sha256(value.encode("utf-8")).hexdigest()[:16]
    keep = NAME_MAX - len(suffix)
    head = name[:keep]
    head = re.sub(r"%[0-9A-F]?$", "", head)  # never cut a %XX escape in two
    # nor a character's escapes: drop trailing escapes of an incomplete UTF-8 sequence
    while True:
        tail = re.search(r"((?:%[0-9A-F]{2})+)$", head)
        if not tail:
            break
        raw = bytes.fromhex(tail.group(1).replace("%", ""))
        try:
            raw.decode("utf-8")
            break
        except UnicodeDecodeError:
            head = head[:-3]
    return head + suffix, True


def _copy_partitioned(wh: Warehouse, source: str, kind: str, part: str, target: Path) -> dict[str, str]:
    """Write ``source`` hive-partitioned by ``part`` under ``target``; returns {shortened value: value} for
    the partitions whose directory name had to be shortened (:func:`partition_directory`)."""
    column = exp.to_identifier(part, quoted=True).sql("duckdb")
    if kind == "view":
        wh.con.execute(f"CREATE OR REPLACE TEMP TABLE eh_export AS SELECT * FROM {source}")
        source = "eh_export"
    shortened: dict[str, str] = {}
    try:
        values = [v for (v,) in wh.con.execute(f"SELECT DISTINCT {column} FROM {source} ORDER BY ALL").fetchall()]
        plain = []
        for v in values:
            name, short = (None, False) if v is None else partition_directory(part, str(v))
            if not short:
                plain.append(v)
                continue
            directory = target / name
            directory.mkdir()
            dest = exp.Literal.string(str(directory / "data_0.parquet")).sql("duckdb")
            wh.con.execute(
                f"COPY (SELECT * EXCLUDE ({column}) FROM {source} WHERE {column} = $value) TO {dest} (FORMAT parquet)",
                {"value": v},
            )
            shortened[name.split("=", 1)[1]] = str(v)
        dest = exp.Literal.string(str(target)).sql("duckdb")
        for k in range(0, len(plain), PARTITIONS_PER_COPY):
            batch = plain[k : k + PARTITIONS_PER_COPY]
            wh.con.execute(
                f"COPY (SELECT * FROM {source} WHERE {column} IN (SELECT unnest($values)) "
                f"OR ($with_null AND {column} IS NULL)) TO {dest} "
                f"(FORMAT parquet, PARTITION_BY ({column}), OVERWRITE_OR_IGNORE)",
                {"values": [v for v in batch if v is not None], "with_null": None in batch},
            )
    finally:
        if kind == "view":
            wh.con.execute("DROP TABLE IF EXISTS eh_export")
    return shortened


def _ident(name: str) -> str:
    return exp.to_identifier(name, quoted=True).sql("duckdb")


def _count(wh: Warehouse, name: str) -> int:
    return wh.con.execute(f"SELECT count(*) FROM {_ident(name)}").fetchall()[0][0]


def _entry(
    wh: Warehouse,
    name: str,
    kind: str,
    rows: int,
    path: str,
    part: str | None,
    columns,
    shortened: dict[str, str] | None = None,
) -> dict:
    """A relation's manifest entry (``shortened_partitions`` only where a partition name was shortened)."""
    entry = {
        "kind": kind,
        "description": _description(wh, name, kind),
        "rows": rows,
        "path": path,
        "partition_by": part,
        "columns": [{"name": c, "type": t, "description": d} for c, t, d in columns],
    }
    if shortened:
        entry["shortened_partitions"] = shortened
    return entry


def postgres_csv_query(wh: Warehouse, table: str) -> str:
    """A DuckDB query that renders ``table`` for PostgreSQL's ``COPY ... (FORMAT csv)``: scalars as
    DuckDB's CSV writer gives them (NULL unquoted and empty, an empty string quoted), and each list as
    a PostgreSQL array literal: ``{"a","b \\"c\\""}``, every element double-quoted with ``\\`` and
    ``"`` escaped, a NULL element as the bare word NULL."""
    cols = []
    for name, type_, _ in wh.columns(table):
        col = _ident(name)
        if type_.endswith("]"):
            element = (
                "CASE WHEN x IS NULL THEN 'NULL' ELSE '\"' || replace(replace(CAST(x AS VARCHAR), "
                "'\\', '\\\\'), '\"', '\\\"') || '\"' END"
            )
            col = f"'{{' || array_to_string(list_transform({col}, lambda x: {element}), ',') || '}}' AS {col}"
        cols.append(col)
    return f"SELECT {', '.join(cols)} FROM {_ident(table)}"


def _write_postgres(wh: Warehouse, tables: list[str], tmp: Path, task=None) -> dict:
    """The CSV files, schema.sql and load.psql of a PostgreSQL dataset; returns the manifest entries."""
    (tmp / "schema.sql").write_text(render(transpile_all("postgres"), "postgres") + "\n", encoding="utf-8")
    load = [
        f"-- evalhouse {__version__}: loads this dataset into PostgreSQL. From this directory, in one transaction:",
        "--   psql -v ON_ERROR_STOP=1 --single-transaction -d DBNAME -f load.psql",
        "-- schema.sql creates the tables and views; each \\copy loads one table from its CSV file.",
        "\\ir schema.sql",
    ]
    entries = {}
    for name in tables:
        if task is not None:
            task.describe(name)
        columns = wh.columns(name)
        rows = _count(wh, name)
        dest = exp.Literal.string(str(tmp / f"{name}.csv")).sql("duckdb")
        wh.con.execute(f"COPY ({postgres_csv_query(wh, name)}) TO {dest} (FORMAT csv, HEADER false)")
        column_list = ", ".join(exp.to_identifier(c, quoted=True).sql("postgres") for c, _, _ in columns)
        load.append(
            f"\\copy {exp.to_identifier(name, quoted=True).sql('postgres')} ({column_list}) "
            f"FROM '{name}.csv' WITH (FORMAT csv)"
        )
        entries[name] = _entry(wh, name, "table", rows, f"{name}.csv", None, columns)
        if task is not None:
            task.advance(1)
    (tmp / "load.psql").write_text("\n".join(load) + "\n", encoding="utf-8")
    return entries


def _write_parquet(
    wh: Warehouse, relations: list[tuple[str, str]], partition_by: str | None, tmp: Path, task=None
) -> dict:
    """One directory of Parquet files per relation; returns the manifest entries."""
    entries = {}
    for name, kind in relations:
        if task is not None:
            task.describe(name)
        columns = wh.columns(name)
        rows = _count(wh, name)
        part = partition_by if partition_by and rows and partition_by in {c for c, _, _ in columns} else None
        target = tmp / name
        target.mkdir()
        shortened = None
        if part:
            shortened = _copy_partitioned(wh, _ident(name), kind, part, target)
        else:
            wh.con.execute(
                f"COPY (SELECT * FROM {_ident(name)}) TO "
                f"{exp.Literal.string(str(target / 'data_0.parquet')).sql('duckdb')} (FORMAT parquet)"
            )
        entries[name] = _entry(wh, name, kind, rows, name, part, columns, shortened)
        if task is not None:
            task.advance(1)
    return entries


def export_dataset(
    wh: Warehouse,
    out_dir: str | os.PathLike,
    views: Sequence[str] | None = None,
    partition_by: str | None = None,
    format: str = "parquet",
    progress=None,
    staging: "Staging | None" = None,
) -> dict:
    """Write every base table and the chosen views (default: all) as Parquet under ``out_dir``; or,
    with ``format="postgres"``, the base tables as CSV with the script that loads them into PostgreSQL.

    Returns the manifest (also written to ``out_dir/manifest.json``). ``progress``
    (:class:`evalhouse.progress.Progress`) is moved on per relation written. ``staging``: the directory of
    :func:`stage` to write into (made before a confined warehouse was opened, with it writable); by default
    one is made here, and removed with what is left in it at the end, as a given one is by its owner.
    """
    if format not in FORMATS:
        raise OptionError(f"unknown dataset format '{format}'; valid: {', '.join(FORMATS)}")
    if partition_by is not None and partition_by not in PARTITION_COLUMNS:
        raise OptionError(f"cannot partition by '{partition_by}'; valid: {', '.join(PARTITION_COLUMNS)}")
    if format == "postgres" and (partition_by or views):
        raise OptionError(
            "a postgres dataset holds the base tables only, unpartitioned (PostgreSQL computes "
            "the views): drop `views` and `partition_by`"
        )
    relations = _relations(wh)
    view_names = [n for n, k in relations if k == "view"]
    if views:
        unknown = [v for v in views if v not in view_names]
        if unknown:
            raise WarehouseError(
                f"no view {', '.join(repr(v) for v in unknown)} (every view is described in docs/data-dictionary.md)"
            )
        wanted = set(views)
        relations = [(n, k) for n, k in relations if k == "table" or n in wanted]

    own = staging is None
    if own:
        staging = stage(out_dir)
    elif staging.out != Path(out_dir).resolve():
        raise OptionError(f"`staging` was made for {staging.out}, not {Path(out_dir).resolve()}")
    out, tmp = staging.out, staging.path
    try:
        tables = [n for n, k in relations if k == "table"]
        with as_progress(progress).task(
            "exporting", total=len(tables) if format == "postgres" else len(relations), unit="relations"
        ) as task:
            if format == "postgres":
                entries = _write_postgres(wh, tables, tmp, task)
            else:
                entries = _write_parquet(wh, relations, partition_by, tmp, task)
        manifest = {
            "evalhouse_version": __version__,
            "format": format,
            "partitioning": "hive" if partition_by else None,
            "partition_by": partition_by,
            "relations": entries,
        }
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        _put_in_place(tmp, out)
    finally:
        if own:
            staging.close()
    return manifest


class Staging:
    """The temporary directory ``.DIR.tmp-*`` an export of ``DIR`` is written into (``path``), made and locked by
    :func:`stage`; :meth:`close` (or leaving it as a context manager) removes what is left of it and lets the
    lock go. Made before the warehouse is opened, it is the one directory a confined reader may write
    (:meth:`evalhouse.warehouse.Warehouse.confine`)."""

    def __init__(self, out: Path, path: Path, lock: int):
        self.out, self.path, self._lock = out, path, lock

    def __enter__(self) -> "Staging":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._lock is None:
            return
        shutil.rmtree(self.path, ignore_errors=True)  # gone already once the dataset is in place
        os.close(self._lock)
        self._lock = None


def stage(out_dir: str | os.PathLike) -> Staging:
    """Make the locked temporary directory of an export of ``out_dir``, after putting back a dataset a killed
    export moved aside, refusing an ``out_dir`` that is not an evalhouse dataset, and removing the leftovers
    of killed exports."""
    out = Path(out_dir).resolve()
    recover(out)
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MANIFEST).exists())):
        raise WarehouseError(f"{out}: exists and is not an evalhouse dataset (no {MANIFEST}); not replacing it")
    out.parent.mkdir(parents=True, exist_ok=True)
    remove_stale(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    lock = _lock(tmp)
    try:
        os.chmod(tmp, _directory_mode())  # mkdtemp makes it 0700: the dataset is for other users to read too
    except BaseException:
        os.close(lock)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Staging(out, tmp, lock)


# --- putting a dataset in place, and cleaning up after killed runs -------------------------------------


def _directory_mode() -> int:
    """The mode a new directory gets from the umask (0755 with the usual 022)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o777 & ~umask


def _lock(directory: Path) -> int:
    """Hold an exclusive lock on ``directory`` for as long as this process writes it (released when the
    returned descriptor is closed, or when the process dies, however it dies)."""
    fd = os.open(directory, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def _unused(directory: Path) -> bool:
    """Whether no live process holds the lock of :func:`_lock` on ``directory``."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _leftovers(out: Path, kind: str) -> list[Path]:
    return sorted(p for p in out.parent.glob(f".{glob_escape(out.name)}.{kind}-*") if p.is_dir() and not p.is_symlink())


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def recover(out: str | os.PathLike) -> bool:
    """Put back a dataset that a killed export had moved aside (``.DIR.old-*/DIR``) when ``DIR`` is missing;
    returns whether it did. Run at the start of every export."""
    out = Path(out)
    if out.exists():
        return False
    for old in reversed(_leftovers(out, "old")):
        moved = old / out.name
        if (moved / MANIFEST).exists() and _unused(old):
            os.rename(moved, out)
            shutil.rmtree(old, ignore_errors=True)
            return True
    return False


def remove_stale(out: str | os.PathLike) -> list[Path]:
    """Remove the ``.DIR.tmp-*`` and ``.DIR.old-*`` directories that killed exports left beside ``DIR`` (a
    directory whose lock a live export holds is kept); returns those removed."""
    out = Path(out)
    removed = []
    for kind in ("tmp", "old"):
        for leftover in _leftovers(out, kind):
            if kind == "old" and not out.exists():
                continue  # the only copy of the dataset: recover() puts it back
            if _unused(leftover):
                shutil.rmtree(leftover, ignore_errors=True)
                removed.append(leftover)
    return removed


RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two directories atomically (Linux ``renameat2`` with ``RENAME_EXCHANGE``); False where the C
    library or the file system cannot."""
    renameat2 = getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _put_in_place(tmp: Path, out: Path) -> None:
    """Make the complete dataset ``tmp`` the dataset ``out``: never a moment without one where the system can
    exchange directories atomically; elsewhere, a killed process leaves the old one in ``.DIR.old-*``, which
    :func:`recover` puts back."""
    if not out.exists():
        os.rename(tmp, out)
        return
    if _exchange(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)  # now the old dataset
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    lock = _lock(old)
    try:
        os.rename(out, old / out.name)
        try:
            os.rename(tmp, out)
        except BaseException:
            os.rename(old / out.name, out)
            raise
    finally:
        os.close(lock)
    shutil.rmtree(old, ignore_errors=True)
