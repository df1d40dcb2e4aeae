"""The code a warehouse file brings with it, and whether it is evalhouse's.

DuckDB keeps a view as SQL, a macro as an expression and a CHECK constraint as an expression, in the
file, and runs them whenever a query reads the view, calls the macro or inserts into the table. A warehouse
file is shared between labs, so a file could bring its own version of them: a ``dea_by_relation`` that reads
``read_text('/etc/passwd')``, a macro named ``lower`` (a macro in the file takes the place of DuckDB's own
function of that name, in every view), a CHECK on ``sentences`` that calls a macro reading a file. Commands
that only read run confined to the warehouse (:meth:`evalhouse.warehouse.Warehouse.confine`); a connection
that is not confined (every write command, ``evalhouse.connect`` without ``sandbox=True``) and every
connection that writes compare the file's definitions with evalhouse's first (:func:`differences`):

* a view or macro of the schema that could reach more than evalhouse's own definition of it is replaced:
  recreated in the file from the installed SQL when the connection writes, shadowed by a temporary one from
  the installed SQL when it only reads; the command names them. "Could reach" is read from DuckDB's tokens
  of the stored text: every identifier (a table, a view, a column, a function, a macro; a quoted one can
  name a file) and every string literal (``FROM 'file.csv'`` reads a file) must be one that evalhouse's
  definition of the same view, as the running DuckDB stores it, has too. Keywords, operators and numbers
  cannot reach anything. Text is not compared: DuckDB stores a view re-serialised, differently by version
  and by the storage format of the file (``a CROSS JOIN b`` or ``a, b``, parentheses around joins), so 24
  of the 44 views of a file written by DuckDB 1.5.6 read differently under 2.0.1 without anyone having
  changed them; by tokens, 3 differ (1.5.6 writes ``false`` as ``CAST('f' AS BOOLEAN)``), and they are
  recreated once, with the note;
* a macro of the file named like one of DuckDB's functions or one of evalhouse's SQL functions, or a CHECK
  constraint on a table of the schema that the schema does not declare, is refused: nothing can replace
  them without deleting what the file holds.

The definitions expected are those of an empty warehouse written by the running DuckDB from the installed SQL:
the cached template's (:func:`evalhouse.template.definitions`, kept beside it), else one built in memory.

Cost: listing the file's views, functions and constraints takes about 20 ms (``duckdb_functions()`` lists every
built-in function, 13 ms of it), on every connection that writes to an existing file or reads it unconfined.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

import duckdb

# The catalog is listed through DuckDB's own functions, qualified (``system.main``), with no other function or
# operator in the query and every filter applied in Python: a file can define a macro ``current_database``, a
# table macro ``duckdb_views`` that hides a view, even an operator ``"+"`` or ``"="``, and an unqualified name
# in these queries would run the file's version during the very check meant to refuse it.
_TABLES = "SELECT database_name, schema_name, table_name, temporary FROM system.main.duckdb_tables()"
_VIEW_NAMES = "SELECT database_name, schema_name, view_name, internal, temporary FROM system.main.duckdb_views()"
_VIEWS = "SELECT database_name, schema_name, view_name, internal, temporary, sql FROM system.main.duckdb_views()"
_FUNCTIONS = (
    "SELECT database_name, schema_name, function_name, function_type, internal, macro_definition, parameters, "
    "parameter_types FROM system.main.duckdb_functions()"
)
_CHECKS = "SELECT database_name, table_name, constraint_type, expression FROM system.main.duckdb_constraints()"
_DEFAULTS = (
    "SELECT database_name, schema_name, table_name, column_name, column_default FROM system.main.duckdb_columns()"
)
_SCHEMAS = "SELECT database_name, schema_name FROM system.main.duckdb_schemas()"
# the catalogs of a connection that are not the file's: DuckDB's functions and the connection's temporary objects
NOT_THE_FILE = frozenset({"system", "temp"})


def tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The file's base tables (schema ``main``), by name in lower case."""
    return {
        fold(name)
        for database, schema, name, temporary in con.execute(_TABLES).fetchall()
        if database not in NOT_THE_FILE and schema == "main" and not temporary
    }


def views(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """The file's views (schema ``main``), by name in lower case (DuckDB matches names without regard to case,
    so ``"Corpus_Complexity"`` is read wherever ``corpus_complexity`` is named), with their stored SQL."""
    return {
        fold(name): sql
        for database, schema, name, internal, temporary, sql in con.execute(_VIEWS).fetchall()
        if database not in NOT_THE_FILE and schema == "main" and not internal and not temporary
    }


def view_names(con: duckdb.DuckDBPyConnection) -> set[str]:
    """The names of :func:`views`, without their SQL (which DuckDB serialises on every listing: 4–10 ms)."""
    return {
        fold(name)
        for database, schema, name, internal, temporary in con.execute(_VIEW_NAMES).fetchall()
        if database not in NOT_THE_FILE and schema == "main" and not internal and not temporary
    }


_REACHING = {duckdb.token_type.identifier: "i", duckdb.token_type.string_const: "s"}


def fold(name: str) -> str:
    """A name as DuckDB compares it: ASCII letters in lower case, nothing else changed (Python's
    ``str.lower()`` would turn the Kelvin sign into ``k``, a name DuckDB keeps apart)."""
    return name.translate(_ASCII_LOWER)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@lru_cache(maxsize=1)
def _reserved() -> frozenset[str]:
    """DuckDB's reserved keywords (``select``, ``from``, ``as``, ...): the only words that cannot name a table,
    a view or a function. Read from a connection of its own, which holds nothing of any file."""
    with duckdb.connect(":memory:") as con:
        rows = con.execute("SELECT keyword_name, keyword_category FROM duckdb_keywords()").fetchall()
    return frozenset(fold(name) for name, category in rows if category == "reserved")


def reach(sql: str) -> list[str]:
    """What a stored definition can reach: its identifiers (unquoted, lower case: DuckDB matches names
    without regard to case) and string literals, by DuckDB's own tokenizer, sorted, as ``i:name`` and
    ``s:'text'``. A keyword that is not reserved counts as an identifier: the tokenizer calls ``value``,
    ``name`` or ``position`` keywords, and each can name a view the file added."""
    tokens = duckdb.tokenize(sql)
    reserved = _reserved()
    found = set()
    for k, (start, kind) in enumerate(tokens):
        tag = _REACHING.get(kind)
        if tag is None and kind != duckdb.token_type.keyword:
            continue
        text = sql[start : tokens[k + 1][0] if k + 1 < len(tokens) else len(sql)].strip()
        if tag is None:
            if fold(text) in reserved:
                continue
            tag = "i"
        if tag == "i":
            if len(text) > 1 and text[0] == text[-1] == '"':
                text = text[1:-1].replace('""', '"')
            text = fold(text)
        found.add(f"{tag}:{text}")
    return sorted(found)


@dataclass(frozen=True)
class Definitions:
    """What a DuckDB file defines. ``stored`` maps ``view NAME`` and ``macro NAME`` (schema ``main``) to the
    SHA-256 of the stored text and ``reach`` to what that text can reach (:func:`reach`; left out where the
    text is the expected one); ``checks`` maps a table to the digests of what runs when a row goes in: its
    CHECK constraints, column defaults and generated columns; ``shadowing`` names the file's macros that carry
    the name of a built-in function; ``macros`` every macro of the file and ``relations`` every table and view
    (``schema.name``), ``schemas`` its schemas other than ``main``; ``fingerprint`` is what its
    ``evalhouse_schema()`` macro returns (read, not called), or None."""

    stored: dict[str, str]
    reach: dict[str, list[str]] = field(default_factory=dict)
    checks: dict[str, list[str]] = field(default_factory=dict)
    shadowing: tuple[str, ...] = ()
    macros: tuple[str, ...] = ()
    relations: tuple[str, ...] = ()
    schemas: tuple[str, ...] = ()
    fingerprint: str | None = None

    def to_json(self) -> dict:
        return {"stored": self.stored, "reach": self.reach, "checks": self.checks}

    @classmethod
    def from_json(cls, data: dict) -> "Definitions":
        stored, reached, checks = data["stored"], data["reach"], data["checks"]
        if not (isinstance(stored, dict) and all(isinstance(v, str) for v in stored.values())):
            raise ValueError("not a map of definitions")
        for part in (reached, checks):
            if not (isinstance(part, dict) and all(isinstance(v, list) for v in part.values())):
                raise ValueError("not a map of lists")
        if set(reached) != set(stored):
            raise ValueError("definitions without what they reach")
        return cls(stored=stored, reach=reached, checks=checks)


def read(con: duckdb.DuckDBPyConnection, expected: Definitions | None = None) -> Definitions:
    """The views, macros and CHECK constraints of the file ``con`` has open, from DuckDB's catalog (nothing of
    them is run). Names in lower case; a macro's text is every overload of it, with parameter types. What a
    definition reaches is worked out only where its text is not ``expected``'s (about 8 ms for every view):
    the usual file, written by the same DuckDB, costs only the listing."""
    texts = {f"view {name}": sql for name, sql in views(con).items()}
    builtin: set[str] = set()
    overloads: dict[tuple[str, str], list[str]] = {}
    for database, schema, name, kind, internal, definition, parameters, types in con.execute(_FUNCTIONS).fetchall():
        if internal:
            builtin.add(fold(name))
        elif database not in NOT_THE_FILE:
            signature = ", ".join(f"{p} {t}" for p, t in zip(parameters or [], types or []))
            overloads.setdefault((fold(schema), fold(name)), []).append(f"{kind}({signature}) {definition}")
    macros = sorted(f"{schema}.{name}" for schema, name in overloads)
    shadowing = [m for m in macros if m.split(".", 1)[1] in builtin]
    fingerprint = None
    for (schema, name), bodies in overloads.items():
        if schema == "main":
            texts[f"macro {name}"] = "\n".join(sorted(bodies))
    schema_macro = overloads.get(("main", "evalhouse_schema"), [])
    if len(schema_macro) == 1 and schema_macro[0].startswith("macro() '") and schema_macro[0].endswith("'"):
        fingerprint = schema_macro[0][len("macro() '") : -1]
    stored: dict[str, str] = {}
    reached: dict[str, list[str]] = {}
    for key, text in texts.items():
        stored[key] = _digest(text)
        if expected is None or expected.stored.get(key) != stored[key]:
            reached[key] = reach(text)
    checks: dict[str, list[str]] = {}
    for database, table, kind, expression in con.execute(_CHECKS).fetchall():
        if database not in NOT_THE_FILE and kind == "CHECK":
            checks.setdefault(fold(table), []).append(_digest(f"check {expression or ''}"))
    for database, schema, table, column, default in con.execute(_DEFAULTS).fetchall():
        if database not in NOT_THE_FILE and schema == "main" and default is not None:
            checks.setdefault(fold(table), []).append(_digest(f"default {fold(column)} {default}"))
    relations = sorted(
        f"{fold(schema)}.{fold(name)}"
        for database, schema, name, temporary in con.execute(_TABLES).fetchall()
        if database not in NOT_THE_FILE and not temporary
    ) + sorted(
        f"{fold(schema)}.{fold(name)}"
        for database, schema, name, internal, temporary in con.execute(_VIEW_NAMES).fetchall()
        if database not in NOT_THE_FILE and not internal and not temporary
    )
    schemas = sorted(
        {fold(schema) for database, schema in con.execute(_SCHEMAS).fetchall() if database not in NOT_THE_FILE}
        - {"main"}
    )
    return Definitions(
        stored=stored,
        reach=reached,
        checks={t: sorted(v) for t, v in checks.items()},
        shadowing=tuple(shadowing),
        macros=tuple(macros),
        relations=tuple(relations),
        schemas=tuple(schemas),
        fingerprint=fingerprint,
    )


@dataclass(frozen=True)
class Differences:
    """How a file's definitions differ from evalhouse's: ``replaced``, the views and macros of the schema that
    reach more than evalhouse's own, to replace from the installed SQL (``view NAME``, ``macro NAME``); ``refused``, why the file cannot be opened
    so (empty when it can)."""

    replaced: tuple[str, ...]
    refused: str = ""


def differences(
    found: Definitions, expected: Definitions, tables: Iterable[str], functions: Iterable[str]
) -> Differences:
    """Compare a file's definitions (``found``) with those evalhouse writes (``expected``). ``tables``: the base
    tables of the schema; ``functions``: the names of evalhouse's Python SQL functions, which a macro of the
    file would also take the place of. A view or macro of the schema that the file lacks is not replaced here
    (opening read-write creates it; reading it fails as it would without this check)."""
    reserved = {fold(f) for f in functions}
    shadowing = sorted(set(found.shadowing) | {m for m in found.macros if m.split(".", 1)[1] in reserved})
    if shadowing:
        return Differences(
            (),
            f"its macro {shadowing[0]} takes the place of the SQL function of that name"
            + (f" (and {len(shadowing) - 1} more)" if len(shadowing) > 1 else ""),
        )
    tables = {fold(t) for t in tables}
    for table in sorted(tables):
        if found.checks.get(table, []) != expected.checks.get(table, []):
            return Differences(
                (),
                f"its table {table} has CHECK constraints, column defaults or generated columns that evalhouse's "
                "schema does not declare",
            )
    # what a changed definition must not name: the file's own objects (a view `depth` that reads a file, named by
    # a corpus_complexity whose every identifier evalhouse's has too, `depth` being a column there) and schemas
    # relations and functions are two namespaces in DuckDB: a table macro `sentences()` is not the table
    our_relations = tables | {key.split(" ", 1)[1] for key in expected.stored if key.startswith("view ")}
    our_macros = {key.split(" ", 1)[1] for key in expected.stored if key.startswith("macro ")}
    foreign = (
        {f"i:{name}" for name in found.schemas}
        | {
            f"i:{name}"
            for schema, name in (entry.split(".", 1) for entry in found.relations)
            if schema != "main" or name not in our_relations
        }
        | {
            f"i:{name}"
            for schema, name in (entry.split(".", 1) for entry in found.macros)
            if schema != "main" or name not in our_macros
        }
    )
    replaced = tuple(
        sorted(
            key
            for key, digest in expected.stored.items()
            if key in found.stored
            and found.stored[key] != digest
            and (not set(found.reach[key]) <= set(expected.reach[key]) or foreign & set(found.reach[key]))
        )
    )
    return Differences(replaced)
