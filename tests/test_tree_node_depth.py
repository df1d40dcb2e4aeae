"""``tree_node_depth`` reads ``edges.depth``, computed at ingest (issue 18): the same columns and rows as
the recursive CTE that walked down from the roots before (``tests/reference_trees.RECURSIVE_DEPTH_SQL``),
checked on a hand-made tree and on every real treebank."""

from __future__ import annotations

import pytest

import evalhouse

from .conftest import write
from .reference_trees import RECURSIVE_DEPTH_SQL
from .treebank_snapshots import REAL_TREEBANKS
from .conftest import shared


def _tok(i, form, head, deprel):
    return "\t".join([str(i), form, form, "X", "_", "_", str(head), deprel, "_", "_"])


# Seed 000's Figure 1 sentence (enjoyed is the root; my, School below time; at, Franklin, High below
# School), then a sentence whose root is punctuation: its two dependents become roots of depth 0.
GIVEN = (
    "\n".join(
        _tok(i, f, h, r)
        for i, (f, h, r) in enumerate(
            [
                ("I", 2, "nsubj"),
                ("enjoyed", 0, "root"),
                ("my", 4, "nmod:poss"),
                ("time", 2, "obj"),
                ("at", 8, "case"),
                ("Franklin", 8, "compound"),
                ("High", 8, "compound"),
                ("School", 4, "nmod"),
                (".", 2, "punct"),
            ],
            1,
        )
    )
    + "\n\n"
    + "\n".join(
        _tok(i, f, h, r)
        for i, (f, h, r) in enumerate([("a", 2, "dep"), ("-", 0, "punct"), ("b", 2, "dep"), ("c", 3, "dep")], 1)
    )
    + "\n\n"
)
# (position, dependent, depth): stripped positions, root = 0
EXPECT = [
    (1, 1, 1),
    (1, 2, 0),
    (1, 3, 2),
    (1, 4, 1),
    (1, 5, 3),
    (1, 6, 3),
    (1, 7, 3),
    (1, 8, 2),
    (2, 1, 0),
    (2, 2, 0),
    (2, 3, 1),
]


@pytest.mark.slow
def test_given_expect(tmp_path):
    path = write(tmp_path, "t.conllu", GIVEN)
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([str(path)], corpus="t")
        got = wh.sql("SELECT position, dependent, depth FROM tree_node_depth ORDER BY ALL").fetchall()
        old = wh.sql(f"SELECT position, dependent, depth FROM ({RECURSIVE_DEPTH_SQL}) ORDER BY ALL").fetchall()
        columns = [c[0] for c in wh.columns("tree_node_depth")]
        assert wh.sql("SELECT max(depth) FROM sentence_complexity").fetchone()[0] == 3
    assert got == EXPECT
    assert old == EXPECT
    assert columns == ["corpus", "position", "dependent", "depth"]


@pytest.mark.realdata
@pytest.mark.parametrize("rel", REAL_TREEBANKS)
def test_same_rows_as_the_recursive_view(rel):
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([str(shared(rel))], corpus="c")
        view = "SELECT corpus, position, dependent, depth FROM tree_node_depth"
        old = f"SELECT * FROM ({RECURSIVE_DEPTH_SQL})"
        missing, extra, n = wh.sql(f"""
            SELECT (SELECT count(*) FROM ({old} EXCEPT ALL {view})),
                   (SELECT count(*) FROM ({view} EXCEPT ALL {old})),
                   (SELECT count(*) FROM edges)""").fetchone()
    assert (missing, extra) == (0, 0)
    assert n > 0
