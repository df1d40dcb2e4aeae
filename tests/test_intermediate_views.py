"""Intermediate views (a header line ``-- Intermediate:``) are building blocks other views read: ``evalhouse views``,
:meth:`Warehouse.views` and the data dictionary list them apart, after the views meant for users; every name
keeps working."""

from __future__ import annotations

from typer.testing import CliRunner
import pytest

from evalhouse.cli import app
from evalhouse.warehouse import view_files, view_references

INTERMEDIATE = {
    "apt_case_weights",
    "pronoun_score_groups",
    "tree_node_depth",
    "relation_entropy_by_level",
    "dependency_word_groups",
    "judgement_z",
    "parse_metric_ranks",
}


def test_the_flagged_views_are_those_listed_and_each_is_read_by_a_view_it_names():
    files = view_files()
    names = [f.name for f in files]
    assert {f.name for f in files if f.intermediate} == INTERMEDIATE
    for f in files:
        if f.intermediate:
            readers = [g.name for g in files if g.name != f.name and f.name in view_references(g.text, names)]
            assert readers, f"{f.name} is flagged intermediate but no view reads it"
            line = next(x for x in f.header.splitlines() if x.startswith("-- Intermediate:"))
            assert all(r in line for r in readers), (f.name, readers, line)


@pytest.mark.slow
def test_warehouse_views_splits_users_from_building_blocks(wh):
    everything = [n for n, _ in wh.views()]
    users = [n for n, _ in wh.views(intermediate=False)]
    blocks = [n for n, _ in wh.views(intermediate=True)]
    assert set(blocks) == INTERMEDIATE and not set(users) & INTERMEDIATE
    assert sorted(users + blocks) == everything == sorted(f.name for f in view_files())
    for name in INTERMEDIATE:  # still a view anyone can query
        assert wh.sql(f"SELECT count(*) FROM {name}").fetchone() == (0,)


@pytest.mark.slow
def test_the_views_command_lists_the_intermediate_views_last():
    result = CliRunner().invoke(app, ["--db", ":memory:", "views"])
    assert result.exit_code == 0, result.output
    head, _, tail = result.output.partition("Intermediate views")
    listed = lambda text: {line for line in text.splitlines() if line and not line.startswith(" ")}  # noqa: E731
    assert listed(tail) - {next(iter(tail.splitlines()))} == INTERMEDIATE
    assert not listed(head) & INTERMEDIATE and "sentence_complexity" in listed(head)
