"""Conventions of schema/ and sql/: every file parses with sqlglot (duckdb dialect), one object per
file named after the file, a header stating the grain, and a COMMENT ON description."""

from __future__ import annotations

import pytest
import sqlglot
from sqlglot import exp

from evalhouse.warehouse import schema_files, view_files

ALL = list(schema_files()) + list(view_files())


@pytest.mark.slow
@pytest.mark.parametrize("f", ALL, ids=lambda f: f"{f.kind}:{f.name}")
def test_parses_with_sqlglot_and_defines_one_object_named_after_the_file(f):
    statements = [s for s in sqlglot.parse(f.text, read="duckdb") if s is not None]
    creates = [s for s in statements if isinstance(s, exp.Create)]
    assert len(creates) == 1
    assert creates[0].this.find(exp.Table).name == f.name
    assert creates[0].kind == f.kind.upper()
    comments = [s for s in statements if isinstance(s, exp.Comment)]
    assert any(c.args["kind"].upper() == f.kind.upper() and c.this.name == f.name for c in comments)


@pytest.mark.parametrize("f", ALL, ids=lambda f: f"{f.kind}:{f.name}")
def test_header_names_the_grain(f):
    header = f.text.split("CREATE", 1)[0]
    assert header.startswith(f"-- {f.name}:")
    assert "Grain:" in header


@pytest.mark.slow
def test_every_view_and_table_has_a_description_in_the_database(wh):
    described = dict(wh.sql("SELECT view_name, comment FROM duckdb_views() WHERE NOT internal").fetchall())
    described.update(wh.sql("SELECT table_name, comment FROM duckdb_tables()").fetchall())
    for f in ALL:
        assert described.get(f.name), f"{f.name} has no COMMENT ON description"


# The warehouse orders views by the names each one mentions outside comments and strings (cheap, no
# parser). Every table sqlglot finds in a parsed view must be among them, and so come earlier in the
# order; a name used as an alias (parse_scores calls a column la_words) adds a harmless extra edge
# (a cycle would make view_files() raise).
@pytest.mark.slow
def test_view_order_respects_every_dependency_sqlglot_finds():
    from evalhouse.warehouse import view_references

    order = [f.name for f in view_files()]
    names = set(order)
    for f in view_files():
        parsed = set()
        for statement in sqlglot.parse(f.text, read="duckdb"):
            if statement is not None:
                parsed |= {t.name for t in statement.find_all(exp.Table)}
        needed = (parsed & names) - {f.name}
        assert needed <= view_references(f.text, names), f.name
        assert all(order.index(d) < order.index(f.name) for d in needed), f.name
