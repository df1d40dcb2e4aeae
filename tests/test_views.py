"""Given/expect tests for every view in sql/, grain checks, and the punctuation-stripping invariants.

Each view gets a tiny hand-written corpus (GIVEN below) and its every row written out by hand, with
the arithmetic in comments.  Grain checks run on the bundled sample and on a corpus of
degenerate sentences.  The stripping of punctuation (Shimorina et al. 2021, section 4: words with
deprel punct removed, their dependents attached to the nearest non-punct ancestor, words
renumbered) is checked against an independent Python implementation with hypothesis.
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import evalhouse
from evalhouse.warehouse import view_files
from tests.conftest import SAMPLE, write
from tests.test_parses import NULLABLE_KEYS, ingest_parse_examples

# view -> grain (key columns), as each view's header declares it (SqlFile.key: `-- Key: (...)`)
VIEWS = {f.name: f.key for f in view_files() if f.key}
SQL_VIEWS = sorted(f.name for f in view_files())


def conllu(text: str) -> str:
    """Hand-written CoNLL-U with columns aligned by spaces -> tab-separated (comments untouched)."""
    lines = []
    for line in text.strip().split("\n"):
        line = line.strip()
        lines.append(line if line.startswith("#") or not line else re.sub(r" +", "\t", line))
    return "\n".join(lines) + "\n\n"


def assert_rows(actual: list[tuple], expected: list[tuple]) -> None:
    """Row-by-row equality; floats compared to 1e-12 relative, everything else exactly."""
    assert len(actual) == len(expected), (actual, expected)
    for got, want in zip(actual, expected):
        assert len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            if isinstance(w, float):
                assert g == pytest.approx(w, rel=1e-12, abs=1e-12), (got, want)
            else:
                assert g == w and type(g) is type(w), (got, want)


# --- GIVEN ---------------------------------------------------------------------------------------
#
# v-1  punctuation with children, in a chain: quickly -> ")" -> "(" -> eaten, so "quickly" must
#      climb two punct words to "eaten"; nsubj:pass, aux:pass, nmod (right of its head).
#      Stripped: The(1) cake(2) of(3) Ann(4) was(5) eaten(6) quickly(7)
#      heads     2      6       4     2      6      0        6
# v-2  "Eat my cake today": the flux of my|cake is {(1,3), (1,4), (2,3)} with the disjoint pair
#      (1,4), (2,3): weight 2; nmod:poss (left of its head, unlike nmod in v-1).
#      Stripped heads 0 3 1 1
# v-3  one word plus punctuation.  Stripped heads 0
# v-4  non-projective: acl:relcl man(2) -> smiled(7) covers the root came(4); compound:prt;
#      advmod on the left (v-1's is on the right).  Stripped heads 2 4 4 0 4 7 2
GIVEN = conllu("""
# sent_id = v-1
# text = The cake of Ann was eaten (quickly).
1  The      the      DET    _ _ 2 det         _ _
2  cake     cake     NOUN   _ _ 6 nsubj:pass  _ _
3  of       of       ADP    _ _ 4 case        _ _
4  Ann      Ann      PROPN  _ _ 2 nmod        _ _
5  was      be       AUX    _ _ 6 aux:pass    _ _
6  eaten    eat      VERB   _ _ 0 root        _ _
7  (        (        PUNCT  _ _ 6 punct       _ SpaceAfter=No
8  quickly  quickly  ADV    _ _ 9 advmod      _ SpaceAfter=No
9  )        )        PUNCT  _ _ 7 punct       _ SpaceAfter=No
10 .        .        PUNCT  _ _ 6 punct       _ _

# sent_id = v-2
# text = Eat my cake today!
1 Eat    eat    VERB   _ _ 0 root       _ _
2 my     my     PRON   _ _ 3 nmod:poss  _ _
3 cake   cake   NOUN   _ _ 1 obj        _ _
4 today  today  NOUN   _ _ 1 obl:tmod   _ SpaceAfter=No
5 !      !      PUNCT  _ _ 1 punct      _ _

# sent_id = v-3
# text = Yes.
1 Yes  yes  INTJ   _ _ 0 root   _ SpaceAfter=No
2 .    .    PUNCT  _ _ 1 punct  _ _

# sent_id = v-4
# text = A man suddenly came in who smiled.
1 A         a         DET    _ _ 2 det           _ _
2 man       man       NOUN   _ _ 4 nsubj         _ _
3 suddenly  suddenly  ADV    _ _ 4 advmod        _ _
4 came      come      VERB   _ _ 0 root          _ _
5 in        in        ADP    _ _ 4 compound:prt  _ _
6 who       who       PRON   _ _ 7 nsubj         _ _
7 smiled    smile     VERB   _ _ 2 acl:relcl     _ SpaceAfter=No
8 .         .         PUNCT  _ _ 4 punct         _ _
""")


@pytest.fixture
def given_wh(wh, tmp_path):
    wh.ingest_treebank([write(tmp_path, "given.conllu", GIVEN)], corpus="g")
    return wh


@pytest.mark.slow
def test_given_edges(given_wh):
    """The stripped tree the views read (distance = dependent - head)."""
    rows = given_wh.sql("""select position, dependent, head, deprel, relation, distance, dependent_id, head_id
                           from edges where corpus = 'g' order by position, dependent""").fetchall()
    assert_rows(
        rows,
        [
            (1, 1, 2, "det", "det", -1, 1, 2),
            (1, 2, 6, "nsubj:pass", "nsubj", -4, 2, 6),
            (1, 3, 4, "case", "case", -1, 3, 4),
            (1, 4, 2, "nmod", "nmod", 2, 4, 2),
            (1, 5, 6, "aux:pass", "aux", -1, 5, 6),
            (1, 6, 0, "root", "root", None, 6, 0),
            (1, 7, 6, "advmod", "advmod", 1, 8, 6),  # quickly (ID 8): ")" 9 -> "(" 7 -> eaten 6
            (2, 1, 0, "root", "root", None, 1, 0),
            (2, 2, 3, "nmod:poss", "nmod", -1, 2, 3),
            (2, 3, 1, "obj", "obj", 2, 3, 1),
            (2, 4, 1, "obl:tmod", "obl", 3, 4, 1),
            (3, 1, 0, "root", "root", None, 1, 0),
            (4, 1, 2, "det", "det", -1, 1, 2),
            (4, 2, 4, "nsubj", "nsubj", -2, 2, 4),
            (4, 3, 4, "advmod", "advmod", -1, 3, 4),
            (4, 4, 0, "root", "root", None, 4, 0),
            (4, 5, 4, "compound:prt", "compound", 1, 5, 4),
            (4, 6, 7, "nsubj", "nsubj", -1, 6, 7),
            (4, 7, 2, "acl:relcl", "acl", 5, 7, 2),
        ],
    )


def test_tree_node_depth(given_wh):
    rows = given_wh.sql("select * from tree_node_depth where corpus = 'g' order by position, dependent").fetchall()
    assert_rows(
        rows,
        [
            # v-1: eaten 0; cake, was, quickly 1 (heads = root); The, Ann 2 (-> cake); of 3 (-> Ann)
            ("g", 1, 1, 2),
            ("g", 1, 2, 1),
            ("g", 1, 3, 3),
            ("g", 1, 4, 2),
            ("g", 1, 5, 1),
            ("g", 1, 6, 0),
            ("g", 1, 7, 1),
            # v-2: Eat 0; cake, today 1; my 2
            ("g", 2, 1, 0),
            ("g", 2, 2, 2),
            ("g", 2, 3, 1),
            ("g", 2, 4, 1),
            # v-3: Yes 0
            ("g", 3, 1, 0),
            # v-4: came 0; man, suddenly, in 1; A, smiled 2 (-> man); who 3 (-> smiled)
            ("g", 4, 1, 2),
            ("g", 4, 2, 1),
            ("g", 4, 3, 1),
            ("g", 4, 4, 0),
            ("g", 4, 5, 1),
            ("g", 4, 6, 3),
            ("g", 4, 7, 2),
        ],
    )


# sentence_complexity of GIVEN, by hand.  Edges as (left, right) ends; flux of position i = edges
# with left <= i < right; weight = largest set of edges sharing no word.
#
# v-1  edges (1,2) (2,6) (3,4) (2,4) (5,6) (6,7); |d| = 1+4+1+2+1+1 = 10 over 6 edges
#      flux i=1..6: {12} {26,24} {26,34,24} {26} {26,56} {67}  sizes 1,2,3,1,2,1 = 10
#      weights 1,1,2 (26+34),1,1,1 = 7;  MDD = MFS = 10/6, MFW = 7/6, MA = 6/7, depth 3
#      projective: yields cake {1..4}, Ann {3,4} ... all contiguous
# v-2  edges (2,3) (1,3) (1,4); |d| = 1+2+3 = 6 over 3 edges
#      flux {13,14} {23,13,14} {14}  sizes 2,3,1 = 6; weights 1,2 (23+14),1 = 4
#      MDD = MFS = 6/3 = 2, MFW = 4/3, MA = 3/4, depth 2
# v-3  one word: no edge, no position: MDD = MFS = MFW = 0, MA = 0/1, depth 0
# v-4  edges (1,2) (2,4) (3,4) (4,5) (6,7) (2,7); |d| = 1+2+1+1+1+5 = 11 over 6 edges
#      flux {12} {24,27} {24,34,27} {45,27} {27} {67,27}  sizes 1,2,3,2,1,2 = 11
#      weights 1,1,2 (34+27),2 (45+27),1,1 = 8; MDD = MFS = 11/6, MFW = 8/6, MA = 6/7, depth 3
#      not projective: (2,7) covers the root 4 (and crosses (3,4), (4,5))
SENTENCES = [
    # corpus position sent_id length depth  MDD     MFS     MFW    MA     projective
    ("g", 1, "v-1", 7, 3, 10 / 6, 10 / 6, 7 / 6, 6 / 7, True),
    ("g", 2, "v-2", 4, 2, 6 / 3, 6 / 3, 4 / 3, 3 / 4, True),
    ("g", 3, "v-3", 1, 0, 0.0, 0.0, 0.0, 0 / 1, True),
    ("g", 4, "v-4", 7, 3, 11 / 6, 11 / 6, 8 / 6, 6 / 7, False),
]


def test_sentence_complexity(given_wh):
    rel = given_wh.sql("select * from sentence_complexity where corpus = 'g' order by position")
    assert rel.columns == [
        "corpus",
        "position",
        "sent_id",
        "length",
        "depth",
        "mean_dependency_distance",
        "mean_flux_size",
        "mean_flux_weight",
        "mean_arity",
        "projective",
    ]
    assert_rows(rel.fetchall(), SENTENCES)


def test_corpus_complexity(given_wh):
    rel = given_wh.sql("select * from corpus_complexity where corpus = 'g'")
    assert rel.columns == [
        "corpus",
        "sentences",
        "depth_mean",
        "depth_sd",
        "length_mean",
        "length_sd",
        "mean_dependency_distance_mean",
        "mean_dependency_distance_sd",
        "mean_flux_size_mean",
        "mean_flux_size_sd",
        "mean_flux_weight_mean",
        "mean_flux_weight_sd",
        "mean_arity_mean",
        "mean_arity_sd",
        "nonprojective_pct",
    ]
    rows = rel.fetchall()
    # Sample sd (ddof = 1) over the 4 sentences above:
    # depth  3 2 0 3: mean 8/4 = 2; squares 1+0+4+1 = 6; sd = sqrt(6/3) = sqrt(2)
    # length 7 4 1 7: mean 19/4; squares 2.25^2+0.75^2+3.75^2+2.25^2 = 24.75; sd = sqrt(24.75/3)
    # MDD = MFS 10/6 12/6 0 11/6: mean 33/24; deviations 7/24 15/24 -33/24 11/24;
    #        squares (49+225+1089+121)/576 = 1484/576; sd = sqrt(1484/576/3)
    # MFW 7/6 8/6 0 8/6: mean 23/24; deviations 5/24 9/24 -23/24 9/24;
    #        squares (25+81+529+81)/576 = 716/576; sd = sqrt(716/576/3)
    # MA 6/7 3/4 0 6/7: mean 69/112; deviations 27/112 15/112 -69/112 27/112;
    #        squares (729+225+4761+729)/112^2 = 6444/12544; sd = sqrt(6444/12544/3)
    # non-projective: 1 of 4 = 25 %
    mdd_sd = math.sqrt(1484 / 576 / 3)
    assert_rows(
        rows,
        [
            (
                "g",
                4,
                2.0,
                math.sqrt(2),
                19 / 4,
                math.sqrt(24.75 / 3),
                33 / 24,
                mdd_sd,
                33 / 24,
                mdd_sd,
                23 / 24,
                math.sqrt(716 / 576 / 3),
                69 / 112,
                math.sqrt(6444 / 12544 / 3),
                25.0,
            )
        ],
    )
    # the sd columns are statistics.stdev (ddof = 1), not pstdev, of the sentence_complexity columns
    (row,) = rows
    sentence_column = {
        "depth": 4,
        "length": 3,
        "mean_dependency_distance": 5,
        "mean_flux_size": 6,
        "mean_flux_weight": 7,
        "mean_arity": 8,
    }  # index in SENTENCES rows
    for k, (column, index) in enumerate(sentence_column.items()):
        values = [s[index] for s in SENTENCES]
        assert row[2 + 2 * k] == pytest.approx(statistics.mean(values), rel=1e-12), column
        assert row[3 + 2 * k] == pytest.approx(statistics.stdev(values), rel=1e-12), column
        assert row[3 + 2 * k] != pytest.approx(statistics.pstdev(values), rel=1e-6), column


# Direction of every non-root edge of GIVEN (distance < 0: dependent left of head, head-final):
#   v-1 det L, nsubj:pass L, case L, nmod R, aux:pass L, advmod R
#   v-2 nmod:poss L, obj R, obl:tmod R
#   v-4 det L, nsubj L, advmod L, compound:prt R, nsubj L, acl:relcl R
# H = -pL log2 pL - pR log2 pR; one direction only -> 0; 1 left + 1 right -> 1.
RELATION_ENTROPY = [
    ("g", "acl", 0, 1, 1, 0.0),
    ("g", "advmod", 1, 1, 2, 1.0),  # suddenly L, quickly R
    ("g", "aux", 1, 0, 1, 0.0),  # aux:pass pooled into aux
    ("g", "case", 1, 0, 1, 0.0),
    ("g", "compound", 0, 1, 1, 0.0),
    ("g", "det", 2, 0, 2, 0.0),
    ("g", "nmod", 1, 1, 2, 1.0),  # nmod:poss L (my) + nmod R (Ann)
    ("g", "nsubj", 3, 0, 3, 0.0),  # nsubj x2 + nsubj:pass
    ("g", "obj", 0, 1, 1, 0.0),
    ("g", "obl", 0, 1, 1, 0.0),
]

RELATION_ENTROPY_SUBTYPED = [
    ("g", "acl:relcl", 0, 1, 1, 0.0),
    ("g", "advmod", 1, 1, 2, 1.0),
    ("g", "aux:pass", 1, 0, 1, 0.0),
    ("g", "case", 1, 0, 1, 0.0),
    ("g", "compound:prt", 0, 1, 1, 0.0),
    ("g", "det", 2, 0, 2, 0.0),
    ("g", "nmod", 0, 1, 1, 0.0),  # pooled with nmod:poss it is 1.0
    ("g", "nmod:poss", 1, 0, 1, 0.0),
    ("g", "nsubj", 2, 0, 2, 0.0),
    ("g", "nsubj:pass", 1, 0, 1, 0.0),
    ("g", "obj", 0, 1, 1, 0.0),
    ("g", "obl:tmod", 0, 1, 1, 0.0),
]


def test_relation_entropy(given_wh):
    rel = given_wh.sql("select * from relation_entropy where corpus = 'g' order by relation")
    assert rel.columns == ["corpus", "relation", "left_count", "right_count", "dependencies", "entropy"]
    assert_rows(rel.fetchall(), RELATION_ENTROPY)


def test_relation_entropy_subtyped(given_wh):
    rel = given_wh.sql("select * from relation_entropy_subtyped where corpus = 'g' order by deprel")
    assert rel.columns == ["corpus", "deprel", "left_count", "right_count", "dependencies", "entropy"]
    assert_rows(rel.fetchall(), RELATION_ENTROPY_SUBTYPED)


def test_relation_entropy_by_level(given_wh):
    """relation_entropy_by_level (when sql/ has it) holds both tables above, tagged 'base'/'subtyped'."""
    if "relation_entropy_by_level" not in SQL_VIEWS:
        pytest.skip("sql/ has no relation_entropy_by_level view")
    rows = given_wh.sql("""select corpus, level, relation, left_count, right_count, dependencies, entropy
                           from relation_entropy_by_level where corpus = 'g' order by level, relation""").fetchall()
    expected = [(c, "base", *rest) for c, *rest in RELATION_ENTROPY] + [
        (c, "subtyped", *rest) for c, *rest in RELATION_ENTROPY_SUBTYPED
    ]
    assert_rows(rows, expected)


def test_relation_entropy_paper_example(wh, tmp_path):
    """Seed 001, section 3.1: amod head-final 20 times and head-initial 80 times has entropy 0.72."""
    head_final = conllu("""
        1 big  big  ADJ  _ _ 2 amod _ _
        2 dog  dog  NOUN _ _ 0 root _ _
    """)
    head_initial = conllu("""
        1 dog  dog  NOUN _ _ 0 root _ _
        2 big  big  ADJ  _ _ 1 amod _ _
    """)
    wh.ingest_treebank([write(tmp_path, "amod.conllu", head_final * 20 + head_initial * 80)], corpus="amod")
    expected = -(0.2 * math.log2(0.2) + 0.8 * math.log2(0.8))  # 0.7219280948873623
    for view in ("relation_entropy", "relation_entropy_subtyped"):
        rows = wh.sql(f"select * from {view} where corpus = 'amod'").fetchall()
        assert_rows(rows, [("amod", "amod", 20, 80, 100, expected)])
        assert round(rows[0][-1], 2) == 0.72


# Degenerate sentences: after stripping, d-1 has no word; in d-2 the punct word is the root, so
# its dependents x and y become roots of a forest (head 0) and z stays under y.
DEGENERATE = conllu("""
# sent_id = d-1
1 ...  ...  PUNCT _ _ 0 punct _ _
2 !    !    PUNCT _ _ 1 punct _ _

# sent_id = d-2
1 x  x  X     _ _ 2 dep   _ _
2 -  -  PUNCT _ _ 0 punct _ _
3 y  y  X     _ _ 2 dep   _ _
4 z  z  X     _ _ 3 dep   _ _
""")


def test_sentence_complexity_of_degenerate_sentences(wh, tmp_path):
    wh.ingest_treebank([write(tmp_path, "degenerate.conllu", DEGENERATE)], corpus="d")
    assert wh.sql(
        "select dependent, head, dependent_id, head_id, distance from edges where corpus = 'd' "
        "order by position, dependent"
    ).fetchall() == [(1, 0, 1, 0, None), (2, 0, 3, 0, None), (3, 2, 4, 3, 1)]
    assert wh.sql("select * from tree_node_depth where corpus = 'd' order by dependent").fetchall() == [
        ("d", 2, 1, 0),
        ("d", 2, 2, 0),
        ("d", 2, 3, 1),
    ]
    rows = wh.sql("select * from sentence_complexity where corpus = 'd' order by position").fetchall()
    assert_rows(
        rows,
        [
            # no word left: length 0, every metric NULL (documented in sentence_complexity.sql)
            ("d", 1, "d-1", 0, None, None, None, None, None, None),
            # forest x | y -> z: one edge of length 1 (MDD 1/1), two inter-word positions with flux
            # sizes 0 and 1 (MFS 1/2) and weights 0 and 1 (MFW 1/2), arity 1/3, depth 1
            ("d", 2, "d-2", 3, 1, 1.0, 0.5, 0.5, 1 / 3, True),
        ],
    )


# --- grain checks --------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["sample", "given+degenerate"])
def grain_wh(request, tmp_path_factory):
    """Every kind of input in one warehouse, built once per module and parameter: the treebanks, the
    parse examples, the pronoun fixture, two baselines per corpus with judgements, and analyze."""
    from evalhouse.ingest.baselines import run_baseline
    from evalhouse.statistics.analyze import AnalysisConfig, analyze
    from tests.test_pronouns import ingest_fixture

    tmp_path = tmp_path_factory.mktemp("grain")
    with evalhouse.connect(":memory:") as wh:
        if request.param == "sample":
            wh.ingest_treebank([SAMPLE], corpus="sample")
        else:
            wh.ingest_treebank([write(tmp_path, "given.conllu", GIVEN)], corpus="g")
            wh.ingest_treebank([write(tmp_path, "degenerate.conllu", DEGENERATE)], corpus="d")
        ingest_parse_examples(wh)  # parse evaluation views (issue 5)
        ingest_fixture(wh)  # the pronoun views need translations
        judged = []
        for corpus in wh.corpora():
            run_baseline(wh, "lr", corpus)
            run_baseline(wh, "random", corpus, seed=3)
            judged += [
                f"baseline,{run},{corpus},1,{a},{c},{k + 2 * len(judged)}"
                for k, (run, a, c) in enumerate(
                    [
                        ("lr", "a1", "fluency"),
                        ("random", "a1", "fluency"),
                        ("lr", "a2", "adequacy"),
                        ("random", "a2", "adequacy"),
                    ]
                )
            ]
            # every sentence of lr judged too, so that judgement_correlations (3 sentences at least) has rows
            for sent_id, position in wh.sql(
                "select sent_id, position from sentences where corpus = $c", {"c": corpus}
            ).fetchall():
                judged += [
                    f"baseline,lr,{corpus},{sent_id},a3,fluency,{(position * 7) % 5}",
                    f"baseline,lr,{corpus},{sent_id},a4,adequacy,{(position * 3) % 4}",
                ]
        wh.ingest_judgements(
            write(
                tmp_path,
                "judgements.csv",
                "team,run,corpus,sent_id,annotator,criterion,score\n" + "\n".join(judged) + "\n",
            )
        )
        analyze(wh, AnalysisConfig(resamples=5, views=("dep",), max_size=2))  # cheap: only the views need rows
        yield wh


def test_every_view_has_a_grain():
    assert set(SQL_VIEWS) <= set(VIEWS), f"declare the key of {sorted(set(SQL_VIEWS) - set(VIEWS))} in its header"


@pytest.mark.slow
@pytest.mark.parametrize("view", SQL_VIEWS)
def test_view_grain(grain_wh, view):
    if view not in VIEWS:
        pytest.fail(f"no grain listed for view {view}")
    keys = ", ".join(VIEWS[view])
    assert grain_wh.sql(f"select count(*) from {view}").fetchone()[0] > 0
    duplicates = grain_wh.sql(f"select {keys}, count(*) from {view} group by all having count(*) > 1").fetchall()
    assert duplicates == []
    nullable = NULLABLE_KEYS.get(view, ())
    null_keys = " or ".join(
        [f"{k} is null" for k in VIEWS[view] if k not in nullable]
        + ([" and ".join(f"{k} is null" for k in nullable)] if nullable else [])
    )
    assert grain_wh.sql(f"select count(*) from {view} where {null_keys}").fetchone()[0] == 0


@pytest.mark.slow
def test_table_grain(grain_wh):
    for table, keys in {
        "edges": "corpus, position, dependent",
        "nodes": "corpus, position, id",
        "sentences": "corpus, position",
        "sentence_tree_metrics": "corpus, position",
    }.items():
        assert grain_wh.sql(f"select {keys}, count(*) from {table} group by all having count(*) > 1").fetchall() == []
    assert grain_wh.sql("select corpus, sent_id from sentences group by all having count(*) > 1").fetchall() == []


@pytest.mark.slow
def test_edges_foreign_keys(grain_wh):
    # every edges row is a nodes row (dependent_id) that is not punctuation, with the same lemma/upos/deprel
    assert (
        grain_wh.sql("""
        select count(*) from edges e left join nodes n
          on n.corpus = e.corpus and n.position = e.position and n.id = e.dependent_id
        where n.id is null or split_part(n.deprel, ':', 1) = 'punct'
           or n.lemma <> e.dependent_lemma or n.upos <> e.dependent_upos or n.deprel <> e.deprel""").fetchone()[0]
        == 0
    )
    # every non-root edge's head is itself an edges row, whose CoNLL-U ID is head_id
    assert (
        grain_wh.sql("""
        select count(*) from edges e left join edges h
          on h.corpus = e.corpus and h.position = e.position and h.dependent = e.head
        where e.head > 0 and (h.dependent is null or h.dependent_id <> e.head_id
                              or h.dependent_lemma <> e.head_lemma or e.distance <> e.dependent - e.head)""").fetchone()[
            0
        ]
        == 0
    )
    # roots: head 0 <=> head_id 0 <=> distance NULL
    assert (
        grain_wh.sql("""select count(*) from edges
                           where (head = 0) <> (head_id = 0) or (head = 0) <> (distance is null)""").fetchone()[0]
        == 0
    )
    # positions run 1..n in surface (ID) order within each sentence
    assert (
        grain_wh.sql("""select count(*) from (
                               select dependent, row_number() over (partition by corpus, position order by dependent_id) k
                               from edges) where dependent <> k""").fetchone()[0]
        == 0
    )
    # every edges row has its depth, every sentence its complexity row
    assert (
        grain_wh.sql("select count(*) from edges").fetchone()[0]
        == grain_wh.sql("select count(*) from tree_node_depth").fetchone()[0]
    )
    assert (
        grain_wh.sql("select count(*) from sentences").fetchone()[0]
        == grain_wh.sql("select count(*) from sentence_complexity").fetchone()[0]
    )


@pytest.mark.slow
def test_one_root_unless_the_root_was_punctuation(grain_wh):
    rows = grain_wh.sql("""
        select s.corpus, s.position,
               (select count(*) from edges e where e.corpus = s.corpus and e.position = s.position and e.head = 0),
               (select split_part(n.deprel, ':', 1) = 'punct' from nodes n
                 where n.corpus = s.corpus and n.position = s.position and n.head = 0)
        from sentences s order by all""").fetchall()
    assert rows
    for corpus, position, roots, root_was_punct in rows:
        if not root_was_punct:
            assert roots == 1, (corpus, position)
    punct_roots = {(c, p): r for c, p, r, punct in rows if punct}
    if grain_wh.sql("select count(*) from corpora where corpus = 'd'").fetchone()[0]:
        assert punct_roots == {("d", 1): 0, ("d", 2): 2}


# --- stripping invariants -------------------------------------------------------------------------


def edges_as_conllu(wh, corpus: str) -> str:
    """The stripped trees written back as CoNLL-U: positions as IDs, lemmas as forms."""
    rows = wh.sql(
        """select position, dependent, dependent_lemma, dependent_upos, head, deprel
                     from edges where corpus = $c order by position, dependent""",
        {"c": corpus},
    ).fetchall()
    out = []
    for position, group in itertools.groupby(rows, key=lambda r: r[0]):
        out.append(f"# sent_id = {position}")
        for _, dep, lemma, upos, head, deprel in group:
            out.append("\t".join([str(dep), lemma, lemma, upos, "_", "_", str(head), deprel, "_", "_"]))
        out.append("")
    return "\n".join(out) + "\n"


def test_restripping_a_stripped_tree_is_the_identity(wh, tmp_path):
    wh.ingest_treebank([SAMPLE], corpus="sample")
    wh.ingest_treebank([write(tmp_path, "stripped.conllu", edges_as_conllu(wh, "sample"))], corpus="again")
    # every sentence of the sample keeps at least one word, so positions line up (sent_id = position)
    assert wh.sql("select sent_id from sentences where corpus = 'again' order by position").fetchall() == [
        (str(p),)
        for (p,) in wh.sql("select distinct position from edges where corpus = 'sample' order by 1").fetchall()
    ]
    query = """select position, dependent, head, deprel, distance, dependent_lemma, head_lemma
               from edges where corpus = $c order by position, dependent"""
    first = wh.sql(query, {"c": "sample"}).fetchall()
    second = wh.sql(query, {"c": "again"}).fetchall()
    assert len(first) == 309
    assert second == first
    metrics = """select position, length, depth, mean_dependency_distance, mean_flux_size, mean_flux_weight,
                        mean_arity, projective from sentence_complexity where corpus = $c order by position"""
    assert wh.sql(metrics, {"c": "again"}).fetchall() == wh.sql(metrics, {"c": "sample"}).fetchall()


def reference_strip(heads: list[int], punct: list[bool]) -> tuple[list[int], list[int]]:
    """Drop punct words, attach each kept word to its nearest non-punct ancestor (0 if none), renumber.

    Returns (kept CoNLL-U IDs, new heads) -- an independent re-implementation of section 4.
    """
    kept = [w for w in range(1, len(heads) + 1) if not punct[w - 1]]
    new_position = {w: k for k, w in enumerate(kept, 1)}
    new_heads = []
    for w in kept:
        h = heads[w - 1]
        while h and punct[h - 1]:
            h = heads[h - 1]
        new_heads.append(new_position[h] if h else 0)
    return kept, new_heads


@st.composite
def punctuated_trees(draw) -> tuple[list[int], list[bool]]:
    """A random tree of 1..10 words, any of them punctuation (the root and words with children too)."""
    n = draw(st.integers(1, 10))
    order = draw(st.permutations(range(1, n + 1)))
    heads = [0] * n
    for k, word in enumerate(order[1:], 1):
        heads[word - 1] = order[draw(st.integers(0, k - 1))]
    punct = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return heads, punct


def tree_lines(heads: list[int], punct: list[bool], deprels: list[str]) -> str:
    lines = []
    for w, (h, p, rel) in enumerate(zip(heads, punct, deprels), 1):
        deprel = "punct" if p else ("root" if h == 0 else rel)
        form, upos = (",", "PUNCT") if p else (f"w{w}", "X")
        lines.append("\t".join([str(w), form, form, upos, "_", "_", str(h), deprel, "_", "_"]))
    return "\n".join(lines) + "\n\n"


_corpus_ids = itertools.count()


@pytest.fixture(scope="module")
def shared_wh():
    with evalhouse.connect(":memory:") as warehouse:
        yield warehouse


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(punctuated_trees(), min_size=1, max_size=6),
    st.lists(st.sampled_from(["nsubj", "obj", "nmod:poss", "advmod", "conj"]), min_size=10, max_size=10),
)
def test_stripping_matches_reference(shared_wh, sentences, deprels):
    corpus = f"h{next(_corpus_ids)}"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "random.conllu"
        path.write_text("".join(tree_lines(h, p, deprels) for h, p in sentences), encoding="utf-8")
        shared_wh.ingest_treebank([path], corpus=corpus)
    rows = shared_wh.sql(
        """select position, list(dependent_id order by dependent), list(head order by dependent),
                                   list(dependent order by dependent), list(distance order by dependent)
                            from edges where corpus = $c group by position""",
        {"c": corpus},
    ).fetchall()
    got = {position: (ids, heads, deps, dists) for position, ids, heads, deps, dists in rows}
    for position, (heads, punct) in enumerate(sentences, 1):
        kept, new_heads = reference_strip(heads, punct)
        if not kept:
            assert position not in got
            continue
        ids, stripped_heads, deps, dists = got[position]
        assert ids == kept
        assert stripped_heads == new_heads
        assert deps == list(range(1, len(kept) + 1))
        assert dists == [d - h if h else None for d, h in enumerate(new_heads, 1)]
    assert set(got) == {p for p, (h, pu) in enumerate(sentences, 1) if not all(pu)}
