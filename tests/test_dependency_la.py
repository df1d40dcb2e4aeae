"""Dependency LA beside CoNLL 2018 LAS/UAS: hand-made cases for the official word alignment and
scores, dependency lineages by hand, and the real CoNLL 2018 outputs against the official results."""

from __future__ import annotations

import numpy as np
import pytest

from evalhouse.analysis.dependency_eval import align, dependency_lineages, score
from evalhouse.loaders.conllu_words import read_words
from evalhouse.errors import InputError
from evalhouse.ingest.dependency_runs import compare, ingest_dependency_run
from tests.conftest import shared, write


def conllu(rows: str) -> str:
    """'ID FORM HEAD DEPREL' per line (blank line between sentences) -> CoNLL-U."""
    out = []
    for line in rows.strip().splitlines():
        line = line.strip()
        if not line:
            out.append("")
            continue
        wid, form, head, rel = line.split()
        if "-" in wid:
            out.append("\t".join([wid, form] + ["_"] * 8))
        else:
            out.append("\t".join([wid, form, "_", "_", "_", "_", head, rel, "_", "_"]))
    return "\n".join(out) + "\n\n"


GOLD = conllu("""
1 The 2 det
2 cat 3 nsubj
3 sat 0 root
4 down 3 compound:prt
5 . 3 punct
""")


def words(tmp_path, name, text):
    return read_words(write(tmp_path, name, text))


def flags(g, s) -> dict[str, list[bool]]:
    """The CoNLL 2018 flags of the gold words (what ingest stores), as lists."""
    _, _, found = compare(g, s, np.asarray(score(g, s).aligned))
    return {name: values.tolist() for name, values in found.items()}


def all_correct(g) -> bool:
    """A file against itself: every flag true, but CLAS, MLAS and BLEX count content words only."""
    gold, _, found = compare(g, g, np.arange(len(g.form)))
    content = gold["content"].tolist()
    return all(
        v.tolist() == (content if name in ("clas_correct", "mlas_correct", "blex_correct") else [True] * len(v))
        for name, v in found.items()
    )


def test_lineages_by_hand(tmp_path):
    g = words(tmp_path, "g.conllu", GOLD)
    # subtrees: sat = The..., cat = The cat, The, down, .
    # The begins cat's and sat's subtrees (highest: sat); ends only its own
    assert dependency_lineages(g) == [
        ("det", "]", "nsubj", "[", "root"),
        ("nsubj", "]", "root"),
        ("root",),
        ("[", "compound", "]", "root"),
        ("[", "punct", "root", "]"),
    ]


def test_identical_files_score_one(tmp_path):
    g = words(tmp_path, "g.conllu", GOLD)
    ws = score(g, g)
    assert ws.la == [1.0] * 5
    assert all_correct(g)


def test_head_label_and_subtype_rules(tmp_path):
    g = words(tmp_path, "g.conllu", GOLD)
    s = words(
        tmp_path,
        "s.conllu",
        conllu("""
        1 The 2 det
        2 cat 3 nsubj:pass
        3 sat 0 root
        4 down 3 advmod
        5 . 4 punct
    """),
    )
    f = flags(g, s)
    assert f["head_correct"] == [True, True, True, True, False]
    # nsubj:pass = nsubj on the universal part; advmod <> compound:prt
    assert f["label_correct"] == [True, True, True, False, False]


def test_tokenisation_difference_and_multiword_alignment(tmp_path):
    # gold: "cannot" is one multiword token of two words; the system splits it into two tokens
    g = words(
        tmp_path,
        "g.conllu",
        conllu("""
        1 I 2 nsubj
        2-3 cannot _ _
        2 can 0 root
        3 not 2 advmod
        4 go 2 xcomp
    """).replace("2\tcan\t_\t_\t_\t_\t0\troot", "2\tcan\t_\t_\t_\t_\t0\troot"),
    )
    s = words(
        tmp_path,
        "s.conllu",
        conllu("""
        1 I 2 nsubj
        2 can 4 aux
        3 not 4 advmod
        4 go 0 root
    """),
    )
    assert align(g, s) == [0, 1, 2, 3]  # LCS of the forms inside the multiword region
    assert flags(g, s)["head_correct"] == [True, False, False, False]
    # a tokenisation mismatch without multiword tokens: "New York" vs "NewYork" spell the same characters
    g2 = words(tmp_path, "g2.conllu", conllu("1 New 2 compound\n2 York 0 root"))
    s2 = words(tmp_path, "s2.conllu", conllu("1 NewYork 0 root"))
    assert align(g2, s2) == [-1, -1]
    ws2 = score(g2, s2)
    assert ws2.la == [0.0, 0.0] and ws2.system_words == 1


def test_different_text_is_an_error_and_changes_nothing(tmp_path, wh):
    g = write(tmp_path, "g.conllu", GOLD)
    s = write(tmp_path, "s.conllu", GOLD.replace("cat", "dog"))
    with pytest.raises(InputError, match="spell different texts"):
        ingest_dependency_run(wh, s, g, "c", "t", "r")
    assert wh.sql("SELECT count(*) FROM dependency_gold_words").fetchone()[0] == 0


@pytest.mark.parametrize(
    "text, line, problem",
    [
        (GOLD.replace("\t0\troot", "\t9\troot"), 3, "HEAD 9 points outside"),
        (GOLD.replace("\t0\troot", "\t2\troot"), 1, "0 roots"),
        (GOLD.rstrip("\n") + "\n", 5, "does not end with a blank line"),
        (GOLD.replace("1\tThe\t_", "1\tThe"), 1, "expected 10 tab-separated columns"),
    ],
)
def test_reader_errors(tmp_path, text, line, problem):
    with pytest.raises(InputError) as err:
        read_words(write(tmp_path, "bad.conllu", text))
    assert err.value.line == line and problem in err.value.problem


def test_view_given_expect(tmp_path, wh):
    g = write(tmp_path, "g.conllu", GOLD)
    s = write(
        tmp_path,
        "s.conllu",
        conllu("""
        1 The 2 det
        2 cat 3 nsubj:pass
        3 sat 0 root
        4 down 3 advmod
        5 . 4 punct
    """),
    )
    r = ingest_dependency_run(wh, s, g, "c", "t", "r")
    assert (r["uas_f1"], r["las_f1"]) == (4 / 5, 3 / 5)
    rel = {
        x[0]: x[1:]
        for x in wh.sql(
            "SELECT relation, gold_words, uas_recall, las_recall FROM "
            "dependency_scores_by_relation WHERE gold_words > 0"
        ).fetchall()
    }
    assert rel == {
        "det": (1, 1.0, 1.0),
        "nsubj": (1, 1.0, 1.0),
        "root": (1, 1.0, 1.0),
        "compound": (1, 1.0, 0.0),
        "punct": (1, 0.0, 0.0),
    }
    # down: gold [ compound ] root, system [ advmod root (down now heads '.', so its subtree ends later)
    row = wh.sql("SELECT gold_lineage, system_lineage, la FROM dependency_gold_words WHERE form = 'down'").fetchone()
    assert row[:2] == ("[ compound ] root", "[ advmod root")
    assert row[2] == pytest.approx(1 - 3 / 7)  # strict: substitute (2) + delete ] (1) over 4 + 3 symbols


# --- real CoNLL 2018 outputs -----------------------------------------------------------------------

# Official CoNLL 2018 test-set LAS (F1, %) published for HIT-SCIR (ranked first on both treebanks)
OFFICIAL_LAS = {("HIT-SCIR-18", "en_ewt"): 84.57, ("HIT-SCIR-18", "zh_gsd"): 76.77}


@pytest.mark.realdata
def test_conll2018_runs_las_equals_the_official_results(wh):
    d = shared("parsing", "conll2018")
    for team in ("HIT-SCIR-18", "Stanford-18", "UDPipe-Future"):
        for tb in ("en_ewt", "fr_gsd", "zh_gsd"):
            r = ingest_dependency_run(wh, d / team / f"{tb}.conllu", d / "gold" / f"{tb}.conllu", tb, team, "1")
            assert 0.5 < r["las_f1"] < r["uas_f1"] < 1 and 0 < r["la_gold_mean"] <= r["la_aligned_mean"] <= 1
            if (team, tb) in OFFICIAL_LAS:
                assert round(100 * r["las_f1"], 2) == OFFICIAL_LAS[(team, tb)]
    # the gold against itself scores 1 everywhere
    g = d / "gold" / "fr_gsd.conllu"
    r = ingest_dependency_run(wh, g, g, "fr_gsd", "gold", "self")
    assert (r["uas_f1"], r["las_f1"], r["la_gold_mean"]) == (1.0, 1.0, 1.0)


# --- properties ------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from evalhouse.analysis.leaf_ancestor import STRICT  # noqa: E402
from evalhouse.loaders import arrow_arrays  # noqa: E402
from evalhouse.loaders.conllu_words import COLUMNS, Words  # noqa: E402

RELS = ["nsubj", "obj", "obl", "nmod", "amod", "det", "case"]


def random_words(seed: int, n: int) -> Words:
    import random

    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    head = [-1] * n
    for k in range(1, n):  # attach each word to one placed before it in a random order: a tree
        head[order[k]] = order[rng.randrange(k)]
    w = Words()
    pos = 0
    for i in range(n):
        form = f"w{i}"
        w.characters.extend(form)
        w.start.append(pos)
        w.end.append(pos + len(form))
        pos += len(form)
        w.multiword.append(False)
        w.form.append(form)
        w.head.append(head[i])
        w.deprel.append("root" if head[i] == -1 else rng.choice(RELS))
        w.sentence.append(1)
        w.word_id.append(i + 1)
    w.sentences = 1
    w.columns = {name: arrow_arrays.strings(["_"] * n, has_nulls=False) for name in COLUMNS}
    return w


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.integers(1, 12))
def test_dependency_la_identity_symmetry_and_range(seed_a, seed_b, n):
    a, b = random_words(seed_a, n), random_words(seed_b, n)
    same = score(a, a)
    assert same.la == [1.0] * n and all_correct(a)
    ab, ba = score(a, b, STRICT), score(b, a, STRICT)
    assert ab.la == pytest.approx(ba.la)  # strict costs are symmetric
    assert all(0.0 <= x <= 1.0 for x in ab.la)
    fab, fba = flags(a, b), flags(b, a)
    # same words, heads compared both ways
    assert fab["head_correct"] == fba["head_correct"] and fab["label_correct"] == fba["label_correct"]
    # a word with the right head and relation whose whole path is right scores 1; LA = 1 for all words
    # exactly when the trees are identical up to relation subtypes
    assert (ab.la == [1.0] * n) == (a.head == b.head and a.deprel == b.deprel)
