"""Figure 1 / Table 1 of Shimorina, Parmentier & Gardent (2021): every number in Table 1's braces.

"I enjoyed my time at Franklin High School." (tests/data/figure1.conllu).  After the full stop is
stripped the tree has 8 words:

    I(1) <-nsubj- enjoy(2) -obj-> time(4) -nmod-> School(8)
    my(3) <-nmod:poss- time(4);  at(5), Franklin(6), High(7) <-case/compound- School(8)

Table 1: depth {3}; length {8}; MDD {(1 + 2 + 1 + 4 + 1 + 2 + 3)/7 = 2};
MFS {(1 + 1 + 2 + 1 + 2 + 3 + 4)/7 = 2}; MFW {(1 + 1 + 1 + 1 + 1 + 1 + 1)/7 = 1};
MA {(0 + 2 + 0 + 2 + 0 + 0 + 0 + 3)/8 = 0.875}; projectivity {True}.
"""

from __future__ import annotations

import pytest

from tests.conftest import TEST_DATA

FIGURE1 = TEST_DATA / "figure1.conllu"
CORPUS = "figure1"


@pytest.fixture
def fig(wh):
    wh.ingest_treebank([FIGURE1], corpus=CORPUS)
    return wh


def test_table1_sentence_complexity(fig):
    rows = fig.sql("""select sent_id, depth, length, mean_dependency_distance, mean_flux_size,
                             mean_flux_weight, mean_arity, projective
                      from sentence_complexity where corpus = 'figure1'""").fetchall()
    assert len(rows) == 1
    sent_id, depth, length, mdd, mfs, mfw, ma, projective = rows[0]
    assert sent_id == "figure1"
    assert depth == 3
    assert length == 8
    assert mdd == (1 + 2 + 1 + 4 + 1 + 2 + 3) / 7 == 2
    assert mfs == (1 + 1 + 2 + 1 + 2 + 3 + 4) / 7 == 2
    assert mfw == (1 + 1 + 1 + 1 + 1 + 1 + 1) / 7 == 1
    assert ma == (0 + 2 + 0 + 2 + 0 + 0 + 0 + 3) / 8 == 0.875
    assert projective is True


def test_per_position_flux_sizes_and_weights(fig):
    sizes, weights, heads = fig.sql("""
        select flux_sizes(list(head order by dependent)), flux_weights(list(head order by dependent)),
               list(head order by dependent)
        from edges where corpus = 'figure1' group by position""").fetchone()
    assert heads == [2, 0, 4, 2, 8, 8, 8, 4]
    assert sizes == [1, 1, 2, 1, 2, 3, 4]
    assert weights == [1, 1, 1, 1, 1, 1, 1]
    # the materialised sum agrees with the SQL function
    assert fig.sql("select flux_weight_sum from sentence_tree_metrics where corpus = 'figure1'").fetchone()[0] == 7


def test_flux_sets_of_section_3_1(fig):
    """The paper spells out two fluxes: 5-6 is {(nmod, 4, 8), (case, 5, 8)} and 7-8 adds both compounds."""
    edges = fig.sql("""select deprel, least(dependent, head), greatest(dependent, head)
                       from edges where corpus = 'figure1' and head > 0""").fetchall()

    def flux(i: int) -> set[tuple[str, int, int]]:
        return {(d, k, l) for d, k, l in edges if k <= i and i + 1 <= l}

    assert flux(5) == {("nmod", 4, 8), ("case", 5, 8)}
    assert flux(7) == {("nmod", 4, 8), ("case", 5, 8), ("compound", 6, 8), ("compound", 7, 8)}
    assert [len(flux(i)) for i in range(1, 8)] == [1, 1, 2, 1, 2, 3, 4]


def test_edges_rows(fig):
    """Signed distance = dependent - head (section 3.2: (time, School, +4), (School, High, -1), ...)."""
    rows = fig.sql("""select dependent, head, deprel, relation, dependent_lemma, head_lemma, distance,
                             dependent_id, head_id
                      from edges where corpus = 'figure1' order by dependent""").fetchall()
    assert rows == [
        # dep head deprel        relation  dep lemma    head lemma  dist  dep_id head_id
        (1, 2, "nsubj", "nsubj", "I", "enjoy", -1, 1, 2),  # (enjoy -> I) 1 - 2
        (2, 0, "root", "root", "enjoy", None, None, 2, 0),
        (3, 4, "nmod:poss", "nmod", "my", "time", -1, 3, 4),
        (4, 2, "obj", "obj", "time", "enjoy", +2, 4, 2),
        (5, 8, "case", "case", "at", "School", -3, 5, 8),
        (6, 8, "compound", "compound", "Franklin", "School", -2, 6, 8),  # (School -> Franklin) 6 - 8
        (7, 8, "compound", "compound", "High", "School", -1, 7, 8),  # (School -> High) 7 - 8
        (8, 4, "nmod", "nmod", "School", "time", +4, 8, 4),  # (time -> School) 8 - 4
    ]
    # the full stop (word 9, punct) is in nodes but not in edges
    assert fig.sql("select count(*) from nodes where corpus = 'figure1'").fetchone()[0] == 9
    # Table 1's MDD terms, as a multiset: (1 + 2 + 1 + 4 + 1 + 2 + 3)
    assert sorted(abs(r[6]) for r in rows if r[6] is not None) == sorted([1, 2, 1, 4, 1, 2, 3])


def test_arity_and_depth_terms(fig):
    """Table 1's arity terms (0 + 2 + 0 + 2 + 0 + 0 + 0 + 3) and the per-word depths behind {3}."""
    arity = fig.sql("""select e.dependent, count(c.dependent)
                       from edges e left join edges c
                         on c.corpus = e.corpus and c.position = e.position and c.head = e.dependent
                       where e.corpus = 'figure1' group by e.dependent order by e.dependent""").fetchall()
    assert [n for _, n in arity] == [0, 2, 0, 2, 0, 0, 0, 3]
    depths = fig.sql("""select dependent, depth from tree_node_depth where corpus = 'figure1'
                        order by dependent""").fetchall()
    # I 1, enjoy 0, my 2, time 1, at 3, Franklin 3, High 3, School 2
    assert depths == [(1, 1), (2, 0), (3, 2), (4, 1), (5, 3), (6, 3), (7, 3), (8, 2)]


def test_sql_functions_on_figure1_heads(fig):
    mfw, proj = fig.sql("""select mean_flux_weight(list(head order by dependent)),
                                  is_projective(list(head order by dependent))
                           from edges where corpus = 'figure1'""").fetchone()
    assert mfw == 1.0
    assert proj is True
