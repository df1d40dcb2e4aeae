"""evalhouse.definitions: what a warehouse file's views and macros can reach, and how it is compared."""

from __future__ import annotations

import duckdb
import pytest

from evalhouse import definitions, template
from evalhouse.warehouse import _create_schema, _create_schema_in_transaction, expected_definitions, schema_script


def test_reach_is_the_identifiers_and_strings_of_a_definition():
    sql = "SELECT a.\"Col\", 'x''y' AS b, 2.5 FROM t CROSS JOIN read_text('/etc/hostname') WHERE LOWER(c) = d -- e"
    # by hand: identifiers unquoted and in lower case, strings as written; reserved keywords (select, as, from,
    # where), numbers, operators and comments left out; cross and join are keywords that are not reserved
    assert definitions.reach(sql) == sorted(
        ["i:a", "i:col", "s:'x''y'", "i:b", "i:t", "i:cross", "i:join", "i:read_text", "s:'/etc/hostname'"]
        + ["i:lower", "i:c", "i:d"]
    )
    # `cross`, `join` and `value` are keywords to the tokenizer but not reserved ones: they can name a relation
    assert definitions.reach("SELECT * FROM t CROSS JOIN value") == ["i:cross", "i:join", "i:t", "i:value"]


def _defs(**reach):
    return definitions.Definitions(stored={k: k for k in reach}, reach=reach)


def test_a_definition_that_reaches_no_more_than_evalhouses_is_kept():
    expected = _defs(**{"view v": ["i:t", "i:v", "s:'x'"]})
    same = definitions.Definitions(stored={"view v": "other text"}, reach={"view v": ["i:t", "i:v"]})
    assert definitions.differences(same, expected, tables=[], functions=[]) == definitions.Differences(())
    more = definitions.Definitions(stored={"view v": "other text"}, reach={"view v": ["i:t", "i:v", "i:read_text"]})
    assert definitions.differences(more, expected, tables=[], functions=[]).replaced == ("view v",)


def test_a_macro_named_like_a_function_is_refused():
    expected = _defs()
    found = definitions.Definitions(stored={}, macros=("main.flux",))
    assert "main.flux takes the place" in definitions.differences(found, expected, [], functions=["flux"]).refused
    found = definitions.Definitions(stored={}, macros=("main.lower",), shadowing=("main.lower",))
    assert "main.lower takes the place" in definitions.differences(found, expected, [], functions=[]).refused
    found = definitions.Definitions(stored={}, macros=("main.my_own",))
    assert definitions.differences(found, expected, [], functions=["flux"]) == definitions.Differences(())


def test_reading_a_catalog_finds_shadowing_macros_and_checks():
    con = duckdb.connect(":memory:")
    con.execute("CREATE MACRO lower(x) AS 'x'")
    con.execute("CREATE MACRO mine(x) AS x + 1")
    con.execute("CREATE TABLE t (a INTEGER CHECK (a > 0))")
    found = definitions.read(con)
    assert found.shadowing == ("main.lower",) and found.macros == ("main.lower", "main.mine")
    assert list(found.checks) == ["t"] and len(found.checks["t"]) == 1
    assert "i:x" in found.reach["macro mine"]


@pytest.mark.slow
def test_the_templates_definitions_are_those_of_a_schema_built_in_memory(tmp_path, monkeypatch):
    """The definitions kept beside the template (written from the file) equal those of the same schema
    created in memory by the same DuckDB: a file's own serialisation is what the comparison expects."""
    monkeypatch.setenv(template.CACHE_ENV, str(tmp_path))
    cached = template.definitions(schema_script()[2], _create_schema_in_transaction)
    con = duckdb.connect(":memory:")
    _create_schema(con)
    in_memory = definitions.read(con)
    assert cached is not None and cached.stored == in_memory.stored and cached.reach == in_memory.reach
    assert len(cached.stored) == len(expected_definitions().stored) > 40


def test_every_overload_of_a_macro_is_read():
    """A file could hide a second overload behind evalhouse's macro: its text is every overload's."""
    con = duckdb.connect(":memory:")
    con.execute("CREATE MACRO m(a) AS a + 1, (a, b) AS (SELECT content FROM read_text(b))")
    found = definitions.read(con)
    assert "i:read_text" in found.reach["macro m"] and "i:a" in found.reach["macro m"]


def test_a_template_without_its_definitions_is_discarded(tmp_path, monkeypatch):
    """Its record deleted or damaged, the template goes too: the next call builds both again."""
    monkeypatch.setenv(template.CACHE_ENV, str(tmp_path))
    fingerprint = schema_script()[2]
    assert template.definitions(fingerprint, _create_schema_in_transaction) is not None
    built = template.template_path(fingerprint)
    record = built.with_name(built.name + ".definitions.json")
    record.write_text("{", encoding="utf-8")
    assert template.definitions(fingerprint, _create_schema_in_transaction) is None
    assert not built.exists() and not record.exists()
    assert template.definitions(fingerprint, _create_schema_in_transaction) is not None and built.exists()
