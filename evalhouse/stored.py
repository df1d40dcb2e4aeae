"""What a warehouse stores, kept whole: the types of the registry :data:`evalhouse.warehouse.STORED`, the
check that finds a torn warehouse (and its repair), and the one rule of replacement.

**The check** (``evalhouse check``; :func:`check`, :func:`repair`). DuckDB 1.5.6 can leave a write
transaction half applied when the process dies during COMMIT (the rows of ``nodes`` and
``edges`` of a corpus without its ``corpora`` row; upstream duckdb PR #25931). Every kind of stored
thing names the table that says it exists (its *owner*, e.g. ``corpora`` for a corpus) and the tables
that hold its rows, so a torn state shows as

* *orphans*: rows whose key has no owner row (output tokens of no submission), or no row of a kind
  they belong to (a submission of no corpus, an analysis of no submission);
* *incomplete* things: an owner row whose recorded count disagrees with its rows (``corpora.words``
  against the rows of ``nodes``), or a thing whose rows in any of its tables disagree with the count the
  last write that touched the table recorded in ``stored_counts`` (:func:`record`).

``stored_counts`` is what makes every table a write touches counted, not only the few an owner row has a
column for (a killed ``ingest outputs --replace`` on DuckDB 1.5.6 left old and new
``output_tokens`` side by side, and nothing recorded how many there should be). Every write transaction
(:meth:`evalhouse.warehouse.Warehouse.transaction`) records, for each table it inserted into or deleted
from and each kind that table holds, the rows of every thing of that kind, before it commits. A torn
commit keeps some tables of the transaction and loses others; whichever side ``stored_counts`` is on,
a table on the other side disagrees with it, unless the lost change left that thing's count in that
table as it was (a replacement by a version with exactly as many rows whose delete and insert were
both lost); the crash harness looks for such tears (docs/crash-safety.md).

One grouped count per table and kind finds both, on the tables that hold rows (one query finds the empty ones
first): about 25 ms of CPU on a 1M-word treebank warehouse, 48 ms when every table was counted
(docs/crash-safety.md), which every write command spends before it starts. :func:`repair` deletes the orphans
and every row of an incomplete thing, which leaves the warehouse as it was before the torn command (or without
the thing a torn ``--replace`` was replacing); running the command again then gives exactly the rows of an
uninterrupted run. The repair never deletes what a person typed (rows of ``judgements`` and
``pronoun_judgements``) unless it is told to (``drop_judgements``): it refuses, naming them, and changes
nothing. It reports every table it deleted from and how many rows.

**Replacement** (:meth:`evalhouse.warehouse.Warehouse.make_room`, :class:`Room`). Storing a thing
first deletes every row of its key from all its tables, whether or not an owner row exists (so a
retry never doubles rows). A *dependent* is what a replacement would lose that the warehouse cannot
derive again: human judgements of a submission, the systems of a translation corpus, the submissions
scored against a corpus. Replacing is refused when some would be lost, naming them, unless the
dependent has a flag (``drop_judgements``, ``drop_systems``) and the caller passes it; dependents
without a flag (submissions scored against a corpus) always refuse. What still applies to the new
version is kept: a judgement survives when the sentence it judged is still there, the same output
text at the same reference corpus and position (docs/crash-safety.md explains the choice).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

import duckdb

from evalhouse.errors import WarehouseError

COUNTS = "stored_counts"  # the table of counts (schema/meta/stored_counts.sql)
TYPED = ("judgements", "pronoun_judgements")  # what a person typed: a repair deletes it only when told to


def ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass(frozen=True)
class Parent:
    """A kind this one belongs to: ``columns`` hold the parent's key (in its order); a row with a NULL in
    them refers to none (the 'oracle' row of an ensemble). ``whole``: a row without its parent makes the whole thing stale (an ensemble
    of a corpus's submissions lacking one of them), not only that row."""

    kind: str
    columns: tuple[str, ...]
    whole: bool = False


@dataclass(frozen=True)
class Dependent:
    """Rows that a replacement of a stored thing would lose and that the warehouse cannot derive again.

    ``query`` selects them, with any context the test of survival needs (``$name`` parameters are the
    key columns of the thing replaced). After the new version is stored, a row is *again* when the same
    command stored it again (``again``, a condition on the row ``d``), *kept* when it still applies to
    the new version (``survives``; it is then inserted back into ``table``), and *lost* otherwise.
    Losing any is refused unless the caller passes ``flag``; without a flag it is always refused.
    ``label`` names one row in messages; ``reason`` says why lost ones cannot stay (without a flag: what
    refuses, with ``{shown}`` for the rows named).
    """

    what: str
    query: str
    label: str
    reason: str
    flag: str | None = None
    table: str | None = None
    survives: str | None = None
    again: str | None = None


@dataclass(frozen=True)
class Stored:
    """A kind of thing stored in the warehouse: the key columns that name one, and the tables that hold
    its rows, owner (the table that says it exists) last. A table may be given as ``(table, condition)``
    when only some of its rows belong to this kind (``alignments`` holds several kinds of links).

    ``owned``: whether the last table says the thing exists (False for results such as analyses, which
    exist as long as what they analyse does). ``parents``: kinds every row belongs to. ``counts``: columns
    of the owner row that record how many rows a table holds (checked by :func:`check`).
    ``dependents``: what a replacement would lose (:class:`Dependent`).
    """

    key: tuple[str, ...]
    tables: tuple[str | tuple[str, str], ...]
    owned: bool = True
    parents: tuple[Parent, ...] = ()
    counts: tuple[tuple[str, str], ...] = ()
    dependents: tuple[Dependent, ...] = ()

    @property
    def owner(self) -> str:
        last = self.tables[-1]
        return last if isinstance(last, str) else last[0]

    def table_list(self) -> list[tuple[str, str | None]]:
        return [(t, None) if isinstance(t, str) else t for t in self.tables]


def _params(query: str, key: Mapping[str, object]) -> dict:
    """The key values a query names as ``$column``."""
    return {c: v for c, v in key.items() if re.search(rf"\${re.escape(c)}\b", query)}


# --- the check -------------------------------------------------------------------------------------


@dataclass
class Finding:
    """What the check found in ``table``: ``rows`` of ``kind`` with key ``key`` that belong to no ``owner``
    row (``problem`` 'orphan'; repaired by deleting them), a thing some of whose rows lack an owner it
    needs whole (``problem`` 'stale'), a thing whose owner row or ``stored_counts`` records a count its rows
    do not have (``problem`` 'incomplete': ``rows`` found, ``expected`` recorded; ``owner`` is the table that
    records it); stale and incomplete things are repaired by deleting them whole. A thing gone with its owner
    row that ``stored_counts`` still counts (``problem`` 'counted': a write whose count commit survived and
    whose rows did not) is repaired by counting again."""

    problem: str
    kind: str
    table: str
    condition: str | None
    key: dict
    rows: int
    owner: str
    expected: int | None = None

    def describe(self) -> str:
        key = "/".join("NULL" if v is None else str(v) for v in self.key.values())
        if self.problem == "orphan":
            return f"{self.table} {self.rows:,} of {self.kind} {key} (no {self.owner} row)"
        if self.problem == "stale":
            return f"{self.kind} {key} stale ({self.table} has {self.rows:,} rows of no {self.owner} row)"
        if self.problem == "counted":
            return (
                f"{self.kind} {key} gone ({self.owner} records {self.expected:,} rows in {self.table}, there are none)"
            )
        return f"{self.kind} {key} incomplete ({self.table} has {self.rows:,} rows, {self.owner} records {self.expected:,})"


@dataclass
class CheckReport:
    """What :func:`check` found (nothing: the warehouse is whole) or :func:`repair` removed."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    removed: int = 0
    tables: dict[str, int] = field(default_factory=dict)  # of a repair: rows removed per table

    repaired: bool = False  # a report of what repair() did

    @property
    def torn(self) -> bool:
        return bool(self.findings)

    @property
    def rows(self) -> int:
        return sum(f.rows for f in self.findings)

    def summary(self, limit: int = 6) -> str:
        """One line: how many rows in which tables, and the first few findings (of a repair: what it removed)."""
        if not self.findings:
            return f"{self.path}: whole (every row belongs to a stored corpus, submission, run, system or analysis)"
        tables = sorted({f.table for f in self.findings})
        shown = "; ".join(f.describe() for f in self.findings[:limit])
        more = f"; and {len(self.findings) - limit} more" if len(self.findings) > limit else ""
        where = f"{len(tables)} table{'s' if len(tables) != 1 else ''} ({', '.join(tables)})"
        if self.tables or self.removed:
            removed = {t: n for t, n in sorted(self.tables.items()) if n}
            where = (
                f"{len(removed)} table{'s' if len(removed) != 1 else ''} ("
                + ", ".join(f"{t} {n:,}" for t, n in removed.items())
                + ")"
            )
            return (
                f"{self.path}: repaired: removed {self.removed:,} rows in {where} that belonged to nothing stored "
                f"or to a torn write: {shown}{more}"
            )
        if self.repaired:
            return f"{self.path}: repaired: removed no rows; recounted what stored_counts records: {shown}{more}"
        return f"{self.path}: torn: {self.rows:,} rows in {where} belong to nothing stored: {shown}{more}"


class TornWarehouseError(WarehouseError):
    """The warehouse holds rows of a half-applied write (see :func:`check`); nothing is built on it."""

    def __init__(self, report: CheckReport):
        self.report = report
        super().__init__(
            f"{report.summary()}; nothing was changed: repair it first with "
            "`evalhouse check --repair` (or evalhouse.stored.repair)"
        )


def _grouped(
    con: duckdb.DuckDBPyConnection, table: str, condition: str | None, columns: tuple[str, ...], nonempty: set[str]
) -> list[tuple]:
    """``columns`` and the count of each group of ``table``'s rows (where ``condition``); none, without a query,
    when ``table`` is not among ``nonempty`` (:func:`_nonempty`)."""
    if table not in nonempty:
        return []
    cols = ", ".join(ident(c) for c in columns)
    where = f" WHERE {condition}" if condition else ""
    return con.execute(f"SELECT {cols}, count(*) FROM {ident(table)}{where} GROUP BY ALL").fetchall()


def _nonempty(con: duckdb.DuckDBPyConnection, tables: Iterable[str]) -> set[str]:
    """The tables among ``tables`` that hold a row, in one query: a grouped count of an empty table finds nothing,
    and most of a warehouse's ~40 tables are empty for most users (each query costs about 0.8 ms). Each table
    gives at most one row (``LIMIT 1``): written as 43 ``WHERE EXISTS`` subqueries (which DuckDB plans as
    joins), the query cost 9.4 ms of CPU, a third of the check; written so, 3.1 ms."""
    names = sorted(set(tables))
    if not names:
        return set()
    query = " UNION ALL ".join(f"(SELECT {i} AS k FROM {ident(t)} LIMIT 1)" for i, t in enumerate(names))
    return {names[k] for (k,) in con.execute(query).fetchall()}


def _key(values) -> tuple:
    return tuple(None if v is None else str(v) for v in values)


def recorded_counts(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], dict[tuple, int]]:
    """What ``stored_counts`` records: (kind, table) -> key -> rows, for the tables counted (those with a
    total row); nothing when the warehouse has no such table (one made before it, opened read-only)."""
    try:
        rows = con.execute(f"SELECT kind, table_name, key, rows FROM {COUNTS}").fetchall()
    except duckdb.CatalogException:
        return {}
    out: dict[tuple[str, str], dict[tuple, int]] = {}
    totals = set()
    for kind, table, key, n in rows:
        if key is None:
            totals.add((kind, table))
        else:
            out.setdefault((kind, table), {})[_key(key)] = n
    return {t: out.get(t, {}) for t in totals}


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def record(con: duckdb.DuckDBPyConnection, stored: Mapping[str, Stored], tables: Iterable[str]) -> None:
    """Record in ``stored_counts`` the rows of every thing of every kind in each of ``tables`` (the tables a
    write touched), replacing what was recorded for them: one grouped count per table and kind, in three
    statements whatever their number (a statement costs about 0.5 ms: 45 of them were a tenth of a small
    ingest). Call it in the write's transaction, after its last change and before COMMIT."""
    tables = set(tables)
    pairs = [
        (name, kind, table, condition)
        for name, kind in stored.items()
        for table, condition in kind.table_list()
        if table in tables
    ]
    if not pairs:
        return
    values = ", ".join(f"({_literal(name)}, {_literal(table)})" for name, _, table, _ in pairs)
    counted = " UNION ALL ".join(
        f"SELECT {_literal(name)}, {_literal(table)}, "
        f"[{', '.join(f'{ident(c)}::VARCHAR' for c in kind.key)}], count(*) FROM {ident(table)}"
        + (f" WHERE {condition}" if condition else "")
        + " GROUP BY ALL"
        for name, kind, table, condition in pairs
    )
    con.execute(f"DELETE FROM {COUNTS} WHERE (kind, table_name) IN (SELECT * FROM (VALUES {values}))").fetchall()
    con.execute(f"INSERT INTO {COUNTS} {counted}").fetchall()
    con.execute(
        f"INSERT INTO {COUNTS} SELECT v.kind, v.table_name, NULL, coalesce(sum(s.rows), 0) "
        f"FROM (VALUES {values}) AS v(kind, table_name) LEFT JOIN {COUNTS} AS s "
        "ON s.kind = v.kind AND s.table_name = v.table_name AND s.key IS NOT NULL "
        "GROUP BY v.kind, v.table_name"
    ).fetchall()


def check(con: duckdb.DuckDBPyConnection, stored: Mapping[str, Stored], path: str = "warehouse") -> CheckReport:
    """Find the rows that belong to nothing stored, and the things whose rows disagree with the counts
    their owner row or ``stored_counts`` records (see the module docstring). One grouped count per table of
    every kind that has rows (one query first finds the empty tables), and one read of ``stored_counts``."""
    report = CheckReport(path)
    snapshots = recorded_counts(con)
    # a table that a kind of a longer key also holds (the systems of a translation corpus) is compared with
    # stored_counts by that kind: its counts add up to the coarser ones, and its repair removes less
    finer = {
        name: {t for other in stored.values() if set(other.key) > set(kind.key) for t in other.table_list()}
        for name, kind in stored.items()
    }
    nonempty = _nonempty(
        con,
        [t for kind in stored.values() for t, _ in kind.table_list()]
        + [kind.owner for kind in stored.values() if kind.owned],
    )
    owners: dict[str, set[tuple]] = {}
    owner_rows: dict[str, dict[tuple, tuple]] = {}
    for name, kind in stored.items():
        if kind.owned:
            counted = [c for _, c in kind.counts]
            rows = _grouped(con, kind.owner, None, kind.key + tuple(counted), nonempty)
            n = len(kind.key)
            owners[name] = {r[:n] for r in rows}
            owner_rows[name] = {r[:n]: r[n : n + len(counted)] for r in rows}
    for name, kind in stored.items():
        counts = dict(kind.counts)
        columns = kind.key + tuple(dict.fromkeys(c for p in kind.parents for c in p.columns if c not in kind.key))
        n = len(kind.key)
        for table, condition in kind.table_list():
            is_owner = kind.owned and table == kind.owner
            found: dict[tuple, int] = {}
            stale: dict[tuple, tuple[int, str]] = {}
            orphaned: set[tuple] = set()
            for *values, rows in _grouped(con, table, condition, columns, nonempty):
                key = tuple(values[:n])
                found[key] = found.get(key, 0) + rows
                named = dict(zip(columns, values))
                if kind.owned and not is_owner and key not in owners[name]:
                    report.findings.append(Finding("orphan", name, table, condition, named, rows, kind.owner))
                    orphaned.add(key)
                    continue
                for parent in kind.parents:
                    pkey = tuple(named[c] for c in parent.columns)
                    if any(v is None for v in pkey) or pkey in owners[parent.kind]:
                        continue
                    if parent.whole:
                        had = stale.get(key, (0, ""))
                        stale[key] = (had[0] + rows, stored[parent.kind].owner)
                    else:
                        report.findings.append(
                            Finding("orphan", name, table, condition, named, rows, stored[parent.kind].owner)
                        )
                        orphaned.add(key)
                    break
            for key, (rows, owner) in stale.items():
                report.findings.append(Finding("stale", name, table, condition, dict(zip(kind.key, key)), rows, owner))
            if table in counts:
                column = list(counts).index(table)
                for key, recorded in owner_rows[name].items():
                    expected = recorded[column]
                    if expected is not None and found.get(key, 0) != expected:
                        orphaned.add(key)  # found once is enough
                        report.findings.append(
                            Finding(
                                "incomplete",
                                name,
                                table,
                                condition,
                                dict(zip(kind.key, key)),
                                found.get(key, 0),
                                kind.owner,
                                expected,
                            )
                        )
            counted = snapshots.get((name, table))
            if counted is None or (table, condition) in finer.get(name, ()):
                continue  # not counted yet (no write has touched it since stored_counts came), or counted finer
            have = {_key(k): (k, v) for k, v in found.items()}
            for key in sorted(set(have) | set(counted), key=repr):
                rows, expected = have.get(key, (key, 0))[1], counted.get(key, 0)
                original = have.get(key, (key, 0))[0]
                if rows == expected or original in orphaned or original in stale:
                    continue
                gone = kind.owned and original not in owners[name]
                if gone and rows:
                    continue  # rows of no owner row: orphans, found above
                report.findings.append(
                    Finding(
                        "counted" if gone else "incomplete",
                        name,
                        table,
                        condition,
                        dict(zip(kind.key, original)),
                        rows,
                        COUNTS,
                        expected,
                    )
                )
    return report


def _delete_rows(con: duckdb.DuckDBPyConnection, table: str, condition: str | None, key: Mapping[str, object]) -> int:
    where = " AND ".join(f"{ident(c)} IS NOT DISTINCT FROM ${c}" for c in key)
    if condition:
        where += f" AND {condition}"
    return con.execute(f"DELETE FROM {ident(table)} WHERE {where}", dict(key)).fetchall()[0][0]


def delete(con: duckdb.DuckDBPyConnection, kind: Stored, keys: Iterable[Mapping[str, object]]) -> dict[str, int]:
    """Delete every thing of ``kind`` named by one of ``keys`` from all the tables that hold it.

    One DELETE per key and table, with the key's values as constants (``column = $value``, or ``IS NULL``
    for a NULL value: IS NOT DISTINCT FROM): DuckDB then skips the row groups whose min/max rule the key
    out. A semi-join against a table of keys scanned every row of every table instead, so that ingesting
    n submissions in one transaction cost O(n^2) (the campaign benchmark: 0.75 s a submission at 10 runs).
    Returns the rows deleted per table."""
    deleted: dict[str, int] = {}
    for key in keys:
        values = {f"k{i}": key[c] for i, c in enumerate(kind.key)}
        where = " AND ".join(
            f"{ident(c)} IS NULL" if key[c] is None else f"{ident(c)} = $k{i}" for i, c in enumerate(kind.key)
        )
        params = {name: v for name, v in values.items() if v is not None}
        for table, condition in kind.table_list():
            n = con.execute(
                f"DELETE FROM {ident(table)} WHERE {where}" + (f" AND {condition}" if condition else ""), params
            ).fetchall()[0][0]
            deleted[table] = deleted.get(table, 0) + n
    return deleted


def repair(
    con: duckdb.DuckDBPyConnection,
    stored: Mapping[str, Stored],
    path: str = "warehouse",
    max_passes: int = 5,
    drop_judgements: bool = False,
) -> CheckReport:
    """Remove what :func:`check` finds, in one transaction: orphan rows, and every row of an incomplete
    thing; then count again the tables it deleted from (:func:`record`). Repeats until the check finds
    nothing (removing a submission of no corpus orphans its tokens). Returns everything found
    (``findings``), the rows deleted (``removed``) and the rows deleted per table (``tables``).

    Rows of ``judgements`` and ``pronoun_judgements`` (what a person typed) are deleted only with
    ``drop_judgements``; without it a repair that would delete any is refused, naming them, and the
    warehouse is left as it was."""
    removed = CheckReport(path, repaired=True)
    typed: list[tuple[str, int, str]] = []  # (table, rows, what they are)

    def tally(table: str, n: int, finding: Finding) -> None:
        removed.tables[table] = removed.tables.get(table, 0) + n
        removed.removed += n
        if table in TYPED and n:
            typed.append(
                (
                    table,
                    n,
                    finding.describe() if finding.problem == "orphan" else f"{table} {n:,} of {finding.describe()}",
                )
            )

    con.execute("BEGIN")
    try:
        for _ in range(max_passes):
            found = check(con, stored, path)
            if not found.torn:
                break
            touched: set[str] = set()
            for f in found.findings:
                if f.problem == "orphan":
                    tally(f.table, _delete_rows(con, f.table, f.condition, f.key), f)
                    touched.add(f.table)
                elif f.problem == "counted":
                    touched.add(f.table)
                else:
                    for table, n in delete(con, stored[f.kind], [f.key]).items():
                        tally(table, n, f)
                        touched.add(table)
            record(con, stored, touched)
            removed.findings += found.findings
        else:
            raise WarehouseError(f"{path}: still torn after {max_passes} passes of repair: {found.summary()}")
        if typed and not drop_judgements:
            raise WarehouseError(_typed_refusal(path, typed), option="drop_judgements")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
    return removed


def _typed_refusal(path: str, typed: list[tuple[str, int, str]]) -> str:
    total = {t: sum(n for table, n, _ in typed if table == t) for t in TYPED}
    what = " and ".join(f"{n:,} {t.replace('_', ' ')}" for t, n in total.items() if n)
    shown = "; ".join(described for _, _, described in typed[:6])
    more = f"; and {len(typed) - 6} more" if len(typed) > 6 else ""
    return (
        f"{path}: the repair would delete {what}, which a person typed ({shown}{more}); nothing was changed: "
        f"export them first (the tables judgements and pronoun_judgements) if you need them, then pass "
        f"`drop_judgements=True` to delete them with the rest"
    )


# --- replacement -----------------------------------------------------------------------------------


class Room:
    """Room made for a new version of a stored thing (:meth:`evalhouse.warehouse.Warehouse.make_room`).

    Use it as a context manager around the inserts of the new version: on leaving, the dependents that
    still apply are put back and a loss that was not allowed is refused (raising
    :class:`WarehouseError`, which rolls the transaction back). ``kept``, ``dropped`` and ``again`` count
    the dependent rows per ``what``."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        replaced: bool,
        what: str,
        stashes: list[tuple[Dependent, str, int]],
        allowed: Mapping[str, bool],
    ):
        self.con = con
        self.replaced = replaced
        self.what = what
        self._stashes = stashes
        self._allowed = allowed
        self.kept: dict[str, int] = {}
        self.dropped: dict[str, int] = {}
        self.again: dict[str, int] = {}
        self.finished = False

    def __enter__(self) -> "Room":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.finish()
        else:
            self.discard()

    def discard(self) -> None:
        """Forget the stashed dependents (the transaction is being rolled back)."""
        for _, name, _ in self._stashes:
            try:
                self.con.execute(f"DROP TABLE IF EXISTS temp.{name}")
            except Exception:  # the rollback that follows drops them anyway; its error is not the one to report
                pass
        self._stashes = []

    def finish(self) -> None:
        """Put back what still applies; refuse a loss that was not allowed. Finishing twice does nothing."""
        if self.finished:
            return
        self.finished = True
        try:
            for dep, name, total in self._stashes:
                again = dep.again or "false"
                survives = dep.survives or "false"
                lost = self.con.execute(
                    f"SELECT {dep.label} FROM temp.{name} AS d WHERE NOT ({again}) AND NOT ({survives}) ORDER BY ALL"
                ).fetchall()
                n_again = self.con.execute(f"SELECT count(*) FROM temp.{name} AS d WHERE {again}").fetchall()[0][0]
                if lost and not self._allowed.get(dep.flag or "", False):
                    raise _refusal(self.what, dep, [r[0] for r in lost], total)
                kept = 0
                if dep.survives and dep.table:
                    columns = ", ".join(
                        ident(c)
                        for (c,) in self.con.execute(
                            "SELECT column_name FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = $t "
                            "ORDER BY column_index",
                            {"t": dep.table},
                        ).fetchall()
                    )
                    kept = self.con.execute(
                        f"INSERT INTO {ident(dep.table)} ({columns}) SELECT {columns} FROM temp.{name} AS d "
                        f"WHERE NOT ({again}) AND ({survives})"
                    ).fetchall()[0][0]
                self.kept[dep.what] = kept
                self.dropped[dep.what] = len(lost)
                self.again[dep.what] = n_again
        finally:
            self.discard()


def _refusal(what: str, dep: Dependent, lost: list, total: int) -> WarehouseError:
    shown = ", ".join(str(x) for x in lost[:8]) + (f" and {len(lost) - 8} more" if len(lost) > 8 else "")
    of = f" of its {total:,}" if total != len(lost) else ""
    if dep.flag is None:
        return WarehouseError(f"cannot replace {what}: {len(lost):,} {dep.what} {dep.reason.format(shown=shown)}")
    return WarehouseError(
        f"replacing {what} would delete {len(lost):,}{of} {dep.what} ({shown}): {dep.reason}; "
        f"pass `{dep.flag}=True` to delete them",
        option=dep.flag,
    )


_stash_counter = 0


def make_room(
    con: duckdb.DuckDBPyConnection,
    kind: Stored,
    key: Mapping[str, object],
    exists: bool,
    replace: bool,
    what: str,
    allowed: Mapping[str, bool],
) -> Room:
    """Refuse, or delete every row of ``key`` (stashing the dependents to test after the new version is
    in); see :meth:`evalhouse.warehouse.Warehouse.make_room`."""
    global _stash_counter
    if exists and not replace:
        raise WarehouseError(f"{what} is already in the warehouse; pass `replace=True` to replace it", option="replace")
    stashes = []
    for dep in kind.dependents if exists else ():
        params = _params(dep.query, key)
        if dep.flag is None and dep.again is None and dep.survives is None:
            lost = [
                r[0] for r in con.execute(f"SELECT {dep.label} FROM ({dep.query}) AS d ORDER BY ALL", params).fetchall()
            ]
            if lost:
                raise _refusal(what, dep, lost, len(lost))
            continue
        _stash_counter += 1
        name = f"eh_stash_{_stash_counter}"
        con.execute(f"CREATE TEMP TABLE {name} AS {dep.query}", params)
        total = con.execute(f"SELECT count(*) FROM temp.{name}").fetchall()[0][0]
        if total:
            stashes.append((dep, name, total))
        else:
            con.execute(f"DROP TABLE temp.{name}")
    try:
        delete(con, kind, [key])
    except BaseException:
        for _, name, _ in stashes:
            con.execute(f"DROP TABLE IF EXISTS temp.{name}")
        raise
    return Room(con, exists, what, stashes, allowed)
