"""Ingesting system outputs (issue 3): formats, reference-guided tokenisation, alignment, validation,
campaigns, human judgements and the grain of the new views.

Rejection tests run the CLI against a warehouse file, snapshot the row count of every base table
before, and check it after: an ingest is one transaction, so nothing of a rejected batch may remain.
Line numbers in comments are 1-based, as users see them.
"""

from __future__ import annotations

import csv
import os
import pickle
import shutil
import signal
import statistics
import subprocess
import sys

import duckdb
import pytest
from typer.testing import CliRunner

import evalhouse
from evalhouse.analysis import accuracy
from evalhouse.analysis.alignment import METHODS
from evalhouse.cli import app
from evalhouse.errors import InputError
from evalhouse.loaders.outputs import MAX_SENTENCE_CHARACTERS, MAX_SENTENCE_WORDS, campaign_files, read_manifest
from evalhouse.ingest.outputs import ingest_submissions
from evalhouse.warehouse import schema_files
from tests.conftest import write
from tests.test_outputs_metrics import independent_dea, ingest_output, ingest_text, tree

runner = CliRunner()
CLI_TIMEOUT = 60  # seconds: a hang check (the pool must not wait forever on a failed worker), not a speed
# target; the command takes about 2 s on a quiet machine and 6 s was exceeded at a load average of 15

# --- a small reference corpus -----------------------------------------------------------------

# 1: "What if Google morphed into GoogleOS?"  (EWT test, sentence 1: "GoogleOS?" has no space)
# 2: "I don't know."                          (EWT style: do|n't split, no multiword-token line)
# 3: "a full-fledged system"                  (full|-|fledged written without spaces)
REF = (
    tree(
        "s1",
        """
1 What what 0 root
2 if if 4 mark
3 Google Google 4 nsubj
4 morphed morph 1 advcl
5 into into 6 case
6 GoogleOS GoogleOS 4 obl SpaceAfter=No
7 ? ? 1 punct
""",
    )
    + tree(
        "s2",
        """
1 I I 4 nsubj
2 do do 4 aux SpaceAfter=No
3 n't not 4 advmod
4 know know 0 root SpaceAfter=No
5 . . 4 punct
""",
    )
    + tree(
        "s3",
        """
1 a a 5 det
2 full full 4 amod SpaceAfter=No
3 - - 4 punct SpaceAfter=No
4 fledged fledge 5 amod
5 system system 0 root
""",
    )
)

DETOK = ["What if GoogleOS morphed into Google?", "I don't know.", "a full-fledged system"]
TOK = ["What if GoogleOS morphed into Google ?", "I do n't know .", "a full - fledged system"]
# the tokens both must give (the first output swaps Google and GoogleOS: DEA is not trivially 1)
TOKENS = [
    ["What", "if", "GoogleOS", "morphed", "into", "Google", "?"],
    ["I", "do", "n't", "know", "."],
    ["a", "full", "-", "fledged", "system"],
]


@pytest.fixture
def ref(wh, tmp_path):
    ingest_text(wh, tmp_path, "c", REF)
    return wh


def sr(texts: dict[int, str]) -> str:
    return "".join(f"# sent_id = {k}\n# text = {t}\n\n" for k, t in texts.items())


def conllu_output(sentences: list[list[str]], lemmas: list[list[str]] | None = None, sent_ids=None) -> str:
    out = []
    for k, forms in enumerate(sentences):
        if sent_ids:
            out.append(f"# sent_id = {sent_ids[k]}")
        for i, form in enumerate(forms, start=1):
            lemma = lemmas[k][i - 1] if lemmas else "_"
            out.append("\t".join([str(i), form, lemma] + ["_"] * 7))
        out.append("")
    return "\n".join(out) + "\n"


def scores(wh, run):
    return wh.sql(f"""select position, edges, matched_edges, dea, bleu, ssa, gsa, sta, gta,
                             string_insertions, string_deletions, string_substitutions, string_moves
                      from sentence_scores where run = '{run}' order by position""").fetchall()


def tokens_of(wh, run):
    rows = wh.sql(f"""select position, list(form order by token), list(lemma order by token)
                      from output_tokens where run = '{run}' group by position order by position""").fetchall()
    return [(forms, lemmas) for _, forms, lemmas in rows]


# --- formats and tokenisation -----------------------------------------------------------------


@pytest.mark.slow
def test_formats_and_tokenisation_give_the_same_scores(ref, tmp_path):
    variants = {
        "sr-detok": (sr(dict(enumerate(DETOK, 1))), "auto", "sr"),
        "sr-tok": (sr(dict(enumerate(TOK, 1))), "sr", "sr"),
        "lines-detok": ("\n".join(DETOK) + "\n", "auto", "lines"),
        "lines-tok": ("\n".join(TOK) + "\n", "lines", "lines"),
        "conllu-auto": (conllu_output(TOKENS), "auto", "conllu"),
        "conllu-ids": (conllu_output(TOKENS, sent_ids=["s1", "s2", "s3"]), "conllu", "conllu"),
    }
    for run, (text, fmt, _) in variants.items():
        ingest_output(ref, tmp_path, "c", text, run=run, fmt=fmt)
    formats = dict(ref.sql("select run, format from submissions").fetchall())
    assert formats == {run: want for run, (_, _, want) in variants.items()}
    expected = scores(ref, "sr-detok")
    # the swap of Google/GoogleOS breaks nsubj (Google -> morphed) and obl (GoogleOS -> morphed) and
    # case (into -> GoogleOS): 2 of 5 edges found in sentence 1; the others are intact
    assert [(p, e, m) for p, e, m, *_ in expected] == [(1, 5, 2), (2, 3, 3), (3, 3, 3)]
    for run in variants:
        assert scores(ref, run) == expected, run
        assert [forms for forms, _ in tokens_of(ref, run)] == TOKENS, run
    assert tokens_of(ref, "sr-detok")[1][1] == ["I", "do", "not", "know", "."]


@pytest.mark.slow
@pytest.mark.parametrize(
    "text, tokens",
    [
        ("What if Google morphed into GoogleOS?", ["What", "if", "Google", "morphed", "into", "GoogleOS", "?"]),
        ("what if googleos morphed into google?", ["what", "if", "googleos", "morphed", "into", "google", "?"]),
        ("I don't know.", ["I", "do", "n't", "know", "."]),
        ("Don't I know?", ["Do", "n't", "I", "know", "?"]),
        ("a full-fledged system", ["a", "full", "-", "fledged", "system"]),
        ("a fledged-full system.", ["a", "fledged", "-", "full", "system", "."]),
        # a split between two word characters only where the reference glues words: "know" is glued to
        # "." only, "I" to nothing, so "Iknow" stays whole (and is then unaligned or fuzzy)
        ("Iknow", ["Iknow"]),
    ],
)
def test_reference_guided_tokenisation(ref, tmp_path, text, tokens):
    position = 1 if "oogle" in text else 3 if "full" in text else 2
    lines = ["", "", ""]
    lines[position - 1] = text
    ingest_output(ref, tmp_path, "c", "\n".join(lines) + "\n", fmt="lines")
    forms = ref.sql(f"select list(form order by token) from output_tokens where position = {position}").fetchone()[0]
    assert forms == tokens


MWT = (
    tree(
        "en-mwt",
        """
1 I I 4 nsubj
2-3 cannot
2 can can 4 aux
3 not not 4 advmod
4 go go 0 root SpaceAfter=No
5 . . 4 punct
""",
    )
    + tree(
        "fr-mwt",
        """
1 Il il 2 nsubj
2 parle parler 0 root
3-4 du
3 de de 5 case
4 le le 5 det
5 chat chat 2 obl SpaceAfter=No
6 . . 2 punct
""",
    )
    + tree(
        "zh",
        """
1 我 我 2 nsubj SpaceAfter=No
2 喜欢 喜欢 0 root SpaceAfter=No
3 猫 猫 2 obj SpaceAfter=No
4 。 。 2 punct SpaceAfter=No
""",
    )
    + tree(
        "ja",
        """
1 猫 猫 3 nsubj SpaceAfter=No
2 が が 1 case SpaceAfter=No
3 好き 好き 0 root SpaceAfter=No
4 です だ 3 cop SpaceAfter=No
5 。 。 3 punct SpaceAfter=No
""",
    )
)


@pytest.mark.slow
@pytest.mark.parametrize(
    "position, text, tokens, lemmas, methods, dea",
    [
        # a multiword token's surface form is split into its syntactic words (as UD does)
        (
            1,
            "I cannot go.",
            ["I", "can", "not", "go", "."],
            ["I", "can", "not", "go", "."],
            ["exact", "multiword", "multiword", "exact", "exact"],
            1.0,
        ),
        (
            1,
            "Cannot I go?",
            ["can", "not", "I", "go", "?"],
            ["can", "not", "I", "go", "?"],
            ["multiword", "multiword", "exact", "exact", "unaligned"],
            0.0,
        ),
        (1, "I can not go .", ["I", "can", "not", "go", "."], ["I", "can", "not", "go", "."], ["exact"] * 5, 1.0),
        (
            2,
            "Il parle du chat.",
            ["Il", "parle", "de", "le", "chat", "."],
            ["il", "parler", "de", "le", "chat", "."],
            ["exact", "exact", "multiword", "multiword", "exact", "exact"],
            1.0,
        ),
        (
            2,
            "du chat Il parle",
            ["de", "le", "chat", "Il", "parle"],
            ["de", "le", "chat", "il", "parler"],
            ["multiword", "multiword", "exact", "exact", "exact"],
            3 / 4,
        ),
        # Chinese and Japanese: no spaces in the reference text nor in the output
        (3, "我喜欢猫。", ["我", "喜欢", "猫", "。"], ["我", "喜欢", "猫", "。"], ["exact"] * 4, 1.0),
        (3, "猫我喜欢。", ["猫", "我", "喜欢", "。"], ["猫", "我", "喜欢", "。"], ["exact"] * 4, 1 / 2),
        (4, "猫が好きです。", ["猫", "が", "好き", "です", "。"], ["猫", "が", "好き", "だ", "。"], ["exact"] * 5, 1.0),
        (
            4,
            "好きです猫が。",
            ["好き", "です", "猫", "が", "。"],
            ["好き", "だ", "猫", "が", "。"],
            ["exact"] * 5,
            2 / 3,
        ),
    ],
)
def test_multiword_tokens_and_scripts_without_spaces(wh, tmp_path, position, text, tokens, lemmas, methods, dea):
    ingest_text(wh, tmp_path, "m", MWT)
    texts = {position: text}
    ingest_output(wh, tmp_path, "m", sr(texts))
    rows = wh.sql(f"""select o.form, o.lemma, a.method from output_tokens o join alignments a
                      on a.team = o.team and a.run = o.run and a.corpus = o.corpus and a.position = o.position
                      and a.from_index = o.token where o.position = {position} order by o.token""").fetchall()
    assert [r[0] for r in rows] == tokens
    assert [r[1] for r in rows] == lemmas
    assert [r[2] for r in rows] == methods
    assert wh.sql(f"select dea from sentence_scores where position = {position}").fetchone()[0] == pytest.approx(dea)
    # the independent DEA agrees
    edges = wh.sql(
        f"select position, dependent, head, head_lemma, dependent_lemma, distance from edges "
        f"where head > 0 and position = {position}"
    ).fetchall()
    toks = wh.sql(
        f"select position, stripped_position, lemma from output_tokens where position = {position} "
        "and stripped_position is not null"
    ).fetchall()
    want = independent_dea(edges, toks)
    assert sum(want.values()) / len(want) == pytest.approx(dea)


# --- alignment ------------------------------------------------------------------------------

THREE_THE = tree(
    "the",
    """
1 the the 2 det
2 cat cat 3 nsubj
3 saw see 0 root
4 the the 5 det
5 dog dog 3 obj
6 near near 8 case
7 the the 8 det
8 house house 3 obl
""",
)


def _links(wh, run=None):
    where = f"where run = '{run}'" if run else ""
    return wh.sql(f"select from_index, to_index, method from alignments {where} order by from_index").fetchall()


def test_repeated_words_align_kth_to_kth(wh, tmp_path):
    ingest_text(wh, tmp_path, "the", THREE_THE)
    # issue 15 (evalhouse-align:2): a "the" next to the same word as in the reference goes with it
    # ("the house" -> the reference's "the house", ids 7 8); evalhouse-align:1 linked the k-th "the" to
    # the k-th, which put the determiner of "house" on the "the" of "cat"
    ingest_output(wh, tmp_path, "the", "the house saw the dog near the cat\n", run="context")
    links = _links(wh, "context")
    assert [(i, j) for i, j, _ in links if i in (1, 4, 7)] == [(1, 7), (4, 4), (7, 1)]
    assert [j for _, j, _ in links] == [7, 8, 3, 4, 5, 6, 1, 2]
    assert {m for _, _, m in links} == {"exact"}
    # where no neighbour tells them apart, the k-th "the" of the output -> the k-th "the" of the
    # reference (ids 1, 4, 7): the links do not cross
    ingest_output(wh, tmp_path, "the", "house the saw dog the near cat the\n", run="order")
    links = _links(wh, "order")
    assert [(i, j) for i, j, _ in links if i in (2, 5, 8)] == [(2, 1), (5, 4), (8, 7)]
    assert {m for _, _, m in links} == {"exact"}


CAPITAL = tree(
    "cap",
    """
1 The the 2 det
2 cat cat 3 nsubj
3 saw see 0 root
4 the the 5 det
5 dog dog 3 obj SpaceAfter=No
6 . . 3 punct
""",
)


def test_case_difference_does_not_cross_alignments(wh, tmp_path):
    """The issue asks for one-to-one, order-preserving tie breaking: an output identical to the reference
    but for the case of its first word ("the cat saw the dog.", as the tokenised ADAPT runs write)
    must align word for word and score STA = GTA = 1."""
    ingest_text(wh, tmp_path, "cap", CAPITAL)
    ingest_output(wh, tmp_path, "cap", "the cat saw the dog.\n")
    assert [j for _, j, _ in _links(wh)] == [1, 2, 3, 4, 5, 6]
    assert wh.sql("select sta, gta from sentence_scores").fetchone() == (1.0, 1.0)


# "des" twice: first the plain word (indefinite article, lemma un), then the multiword token de + les
FR_DES = tree(
    "des",
    """
1 Il il 2 nsubj
2 mange manger 0 root
3 des un 4 det
4 pommes pomme 2 obj
5-6 des
5 de de 7 case
6 les le 7 det
7 voisins voisin 4 nmod SpaceAfter=No
8 . . 2 punct
""",
)


def test_multiword_surface_that_is_also_a_plain_word(wh, tmp_path):
    """The k-th "des" of the output is the k-th "des" of the reference text, whether that one is a word or
    a multiword token (fr_gsd test sentences 58, 70, 165, 312, 344, 404; pt_gsd 972 with "do")."""
    ingest_text(wh, tmp_path, "des", FR_DES)
    ingest_output(wh, tmp_path, "des", "Il mange des pommes des voisins.\n")
    assert [j for _, j, _ in _links(wh)] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert wh.sql("select dea from sentence_scores").fetchone()[0] == 1.0


# UD allows spaces inside a word (fr_gsd test sentence 188 has the FORM "6 20 30", 399 "1 000")
SPACED = (
    "# sent_id = tel\n"
    "1\tAppelez\tappeler\tVERB\t_\t_\t0\troot\t_\t_\n"
    "2\tle\tle\tDET\t_\t_\t3\tdet\t_\t_\n"
    "3\t6 20 30\t6 20 30\tNUM\t_\t_\t1\tobj\t_\tSpaceAfter=No\n"
    "4\t.\t.\tPUNCT\t_\t_\t1\tpunct\t_\t_\n\n"
)


def test_reference_word_with_spaces(wh, tmp_path):
    ingest_text(wh, tmp_path, "tel", SPACED)
    ingest_output(wh, tmp_path, "tel", "Appelez le 6 20 30.\n")
    forms = wh.sql("select list(form order by token) from output_tokens").fetchone()[0]
    assert forms == ["Appelez", "le", "6 20 30", "."]
    assert wh.sql("select dea from sentence_scores").fetchone()[0] == 1.0


# "ch." is one word the first time; at the end of the sentence the reference splits "ch" + "."
# (ru_gsd test sentence 531 has the same with "гл." and "гл" + ".")
ABBREVIATION = tree(
    "abbr",
    """
1 See see 0 root
2 ch. chapter 1 obj
3 2 2 2 nummod
4 and and 5 cc
5 ch chapter 2 conj SpaceAfter=No
6 . . 1 punct
""",
)


def test_same_string_tokenised_twice_differently(wh, tmp_path):
    ingest_text(wh, tmp_path, "abbr", ABBREVIATION)
    ingest_output(wh, tmp_path, "abbr", "See ch. 2 and ch.\n")
    forms = wh.sql("select list(form order by token) from output_tokens").fetchone()[0]
    assert forms == ["See", "ch.", "2", "and", "ch", "."]
    assert wh.sql("select dea from sentence_scores").fetchone()[0] == 1.0


METHODS_TREE = tree(
    "methods",
    """
1 The the 2 det
2 students student 5 nsubj
3-4 cannot
3 can can 5 aux
4 not not 5 advmod
5 enjoyed enjoy 0 root
6 lessons lesson 5 obj SpaceAfter=No
7 . . 5 punct
""",
)


def test_every_alignment_method_and_every_token_has_a_lemma(wh, tmp_path):
    # English, "enjoyed" a VERB: the English inflection rules apply to it
    text = METHODS_TREE.replace("enjoyed\tenjoy\tX", "enjoyed\tenjoy\tVERB")
    wh.ingest_treebank([write(tmp_path, "methods.conllu", text)], corpus="methods", language="en")
    ingest_output(wh, tmp_path, "methods", "the student cannot enjoys lessons banana.\n")
    rows = wh.sql("""select o.token, o.form, o.lemma, o.lemma_source, o.punct, a.to_index, a.method
                     from output_tokens o join alignments a on a.team = o.team and a.run = o.run
                      and a.corpus = o.corpus and a.position = o.position and a.from_index = o.token
                      and a.pair = 'output-reference' order by o.token""").fetchall()
    assert rows == [
        (1, "the", "the", "reference", False, 1, "casefold"),  # "The"
        (2, "student", "student", "reference", False, 2, "lemma"),  # lemma of "students"
        (3, "can", "can", "reference", False, 3, "multiword"),  # "cannot" -> can + not
        (4, "not", "not", "reference", False, 4, "multiword"),
        (5, "enjoys", "enjoy", "reference", False, 5, "inflection"),  # -s of the verb enjoy (English rules)
        (6, "lessons", "lesson", "reference", False, 6, "exact"),
        (7, "banana", "banana", "form", False, None, "unaligned"),  # nothing left: its own lemma
        (8, ".", ".", "reference", True, 7, "exact"),
    ]
    # every method but lexicon (no inflection the treebank attests) and contraction (tested below):
    # tests/test_outputs_lemmas.py has the lexicon through ingest
    assert {m for *_, m in rows} == set(METHODS) - {"lexicon", "contraction"}
    assert wh.sql("select count(*) from output_tokens where lemma is null or lemma = ''").fetchone()[0] == 0
    # without the rules (--no-inflection) "enjoys" is linked to nothing, and the configuration says so
    ingest_output(wh, tmp_path, "methods", "the student cannot enjoys lessons banana.\n", run="bare", inflection=False)
    assert (
        wh.sql(
            "select a.method from output_tokens o join alignments a on a.run = o.run and a.position = o.position "
            "and a.from_index = o.token and a.pair = 'output-reference' where o.run = 'bare' and o.form = 'enjoys'"
        ).fetchone()[0]
        == "unaligned"
    )
    configs = dict(wh.sql("select run, configuration from submissions").fetchall())
    assert "inflection:en-regular" in configs["r"] and "inflection:none" in configs["bare"]


def test_a_negative_contraction_links_to_its_host(wh, tmp_path):
    """English rules. "wasn't" where the reference writes "was not" is cut as the Penn Treebank cuts it,
    was + n't: "was" keeps its link and "n't" is a word of its own. "won't" for "will not" cannot be cut
    into reference words (wo + n't): the whole word contracts "will" with "not", so it takes "will" and
    its lemma, and "not" is not realised."""
    text = tree(
        "neg",
        """
1 It it 3 nsubj
2 was be 3 cop
3 not not 0 root
4 there there 3 advmod
""",
    ) + tree(
        "fut",
        """
1 It it 3 nsubj
2 will will 3 aux
3 not not 4 advmod
4 go go 0 root
""",
    )
    wh.ingest_treebank([write(tmp_path, "neg.conllu", text)], corpus="neg", language="en")
    ingest_output(wh, tmp_path, "neg", "It wasn't there\nIt won't go\n", fmt="lines")
    rows = wh.sql("""select o.position, o.form, o.lemma, a.to_index, a.method from output_tokens o join alignments a
                     on a.run = o.run and a.position = o.position and a.from_index = o.token
                     and a.pair = 'output-reference' order by o.position, o.token""").fetchall()
    assert rows == [
        (1, "It", "it", 1, "exact"),
        (1, "was", "be", 2, "exact"),
        (1, "n't", "n't", None, "unaligned"),
        (1, "there", "there", 4, "exact"),
        (2, "It", "it", 1, "exact"),
        (2, "won't", "will", 2, "contraction"),
        (2, "go", "go", 4, "exact"),
    ]


@pytest.mark.slow
def test_conllu_output_supplies_its_own_lemmas(ref, tmp_path):
    lemmas = [
        ["what", "if", "GoogleOS", "morph", "into", "Google", "?"],
        ["I", "do", "not", "know", "."],
        ["a", "full", "-", "fledge", "system"],
    ]
    ingest_output(ref, tmp_path, "c", conllu_output(TOKENS, lemmas), run="given")
    got = ref.sql("""select list(lemma order by token), list(distinct lemma_source) from output_tokens
                     group by position order by position""").fetchall()
    assert [g[0] for g in got] == lemmas
    assert all(g[1] == ["given"] for g in got)
    # a wrong lemma is believed: "fledged" given as its own lemma breaks the two amod edges of sentence 3
    lemmas[2][3] = "fledged"
    ingest_output(ref, tmp_path, "c", conllu_output(TOKENS, lemmas), run="wrong")
    assert ref.sql("select matched_edges from sentence_scores where run = 'wrong' and position = 3").fetchone()[0] == 1


# --- missing sentences ------------------------------------------------------------------------


@pytest.mark.slow
def test_missing_sentences_are_scored_empty_and_reported(tmp_path):
    db = str(tmp_path / "w.duckdb")
    refp = write(tmp_path, "c.conllu", REF)
    assert runner.invoke(app, ["--db", db, "ingest", "treebank", str(refp), "--corpus", "c", "-q"]).exit_code == 0
    out = write(tmp_path, "out.txt", sr({1: DETOK[0], 3: DETOK[2]}))
    r = runner.invoke(app, ["--db", db, "ingest", "outputs", str(out), "--team", "t", "--run", "r", "--reference", "c"])
    assert r.exit_code == 0, r.output
    assert "2 of 3 sentences" in r.output
    assert "missing (scored as empty outputs): positions 2" in r.output
    with evalhouse.connect(db, read_only=True) as wh:
        assert wh.sql("select given_sentences, missing_sentences, missing_positions from submissions").fetchone() == (
            2,
            1,
            [2],
        )
        rows = wh.sql("""select position, sent_id, missing, edges, matched_edges, dea, bleu, ssa, gsa,
                                string_deletions, string_reference_length
                         from sentence_scores order by position""").fetchall()
        # sentence 2 "I do n't know ." has 5 words (seed 003 counts the punctuation) and 3 edges: an empty
        # output deletes all 5
        assert rows[1] == (2, "s2", True, 3, 0, 0.0, 0.0, 0.0, 0.0, 5, 5)
        assert [r[2] for r in rows] == [False, True, False]
        assert wh.sql("select missing_sentences from submission_scores").fetchone()[0] == 1


# --- rejections: exact file:line, exit code 1, warehouse unchanged -----------------------------

TABLES = [f.name for f in schema_files()]


@pytest.fixture(scope="module")
def base_db(tmp_path_factory):
    """A warehouse file with corpus c and one good submission (t/good); each test copies it."""
    tmp = tmp_path_factory.mktemp("base")
    db = tmp / "base.duckdb"
    with evalhouse.connect(db) as wh:
        ingest_text(wh, tmp, "c", REF)
        ingest_output(wh, tmp, "c", sr(dict(enumerate(DETOK, 1))), team="t", run="good")
    return db


@pytest.fixture
def db(base_db, tmp_path):
    copy = tmp_path / "w.duckdb"
    shutil.copy(base_db, copy)
    return str(copy)


def counts(db) -> dict[str, int]:
    with evalhouse.connect(db, read_only=True) as wh:
        return {t: wh.sql(f"select count(*) from {t}").fetchone()[0] for t in TABLES}


BAD_OUTPUTS = {
    # name: (bytes, --format, line, problem starts with)
    "unknown sent_id": (b"# sent_id = 1\n# text = x\n\n# sent_id = 4\n# text = y\n", "auto", 4, "unknown sent_id '4'"),
    "sent_id zero": (b"# sent_id = 0\n# text = x\n", "auto", 1, "unknown sent_id '0'"),
    "duplicate sent_id": (
        b"# sent_id = 2\n# text = x\n\n# sent_id = 3\n# text = y\n\n# sent_id = 2\n# text = z\n",
        "auto",
        7,
        "duplicate sent_id 2",
    ),
    "malformed sr line": (b"# sent_id = 1\n# text = x\nx y z\n", "auto", 3, "expected '# sent_id = N'"),
    "sr block without text": (b"# sent_id = 1\n# text = x\n\n# sent_id = 2\n\n", "sr", 4, "sent_id 2 has no"),
    "invalid UTF-8": (b"one\ntwo\ncaf\xe9\n", "lines", 3, "invalid UTF-8"),
    "too few lines": (b"one\ntwo\n", "lines", 2, "2 lines, but reference corpus c has 3 sentences"),
    "too many lines": (b"one\ntwo\nthree\nfour\n", "lines", 4, "4 lines, but reference corpus c has 3 sentences"),
    # the line of a CoNLL-U sentence with a sent_id is its '# sent_id' line
    "conllu duplicate sent_id": (
        conllu_output([["a"], ["b"]], sent_ids=["s1", "s1"]).encode(),
        "auto",
        4,
        "duplicate sent_id s1",
    ),
    "conllu bad word line": (b"1\ta\ta\t_\t_\t_\t_\t_\t_\t_\n2\tb\tb\n\n", "conllu", 2, "not a CoNLL-U word line"),
    # size limits (issue 37): refused by file, line and limit, before any tokenisation or edit distance
    "line too long": (
        b"one\n" + b"x" * (MAX_SENTENCE_CHARACTERS + 1) + b"\nthree\n",
        "lines",
        2,
        f"output sentence of {MAX_SENTENCE_CHARACTERS + 1:,} characters: more than the limit of "
        f"{MAX_SENTENCE_CHARACTERS:,} characters per sentence",
    ),
    "too many words": (
        b"one\n" + b"w " * (MAX_SENTENCE_WORDS + 1) + b"\nthree\n",
        "lines",
        2,
        f"output sentence of {MAX_SENTENCE_WORDS + 1:,} words: more than the limit of "
        f"{MAX_SENTENCE_WORDS:,} words per sentence",
    ),
    # one white-space word that the tokeniser cuts into one token per character
    "too many tokens": (
        b"# sent_id = 1\n# text = one\n\n# sent_id = 2\n# text = " + b"!" * (MAX_SENTENCE_WORDS + 1) + b"\n",
        "sr",
        4,
        f"output sentence of {MAX_SENTENCE_WORDS + 1:,} words: more than the "
        f"limit of {MAX_SENTENCE_WORDS:,} words per sentence",
    ),
    "conllu too many words": (
        conllu_output([["a"] * (MAX_SENTENCE_WORDS + 1)]).encode(),
        "conllu",
        1,
        f"output sentence of {MAX_SENTENCE_WORDS + 1:,} words",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(BAD_OUTPUTS))
def test_bad_output_is_rejected_with_file_and_line(db, tmp_path, case):
    data, fmt, line, problem = BAD_OUTPUTS[case]
    bad = write(tmp_path, "bad.txt", data)
    before = counts(db)
    r = runner.invoke(
        app,
        ["--db", db, "ingest", "outputs", str(bad), "--team", "t", "--run", "bad", "--reference", "c", "--format", fmt],
    )
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"evalhouse: {bad}:{line}: {problem}"), r.stderr
    assert "Traceback" not in r.stderr
    assert counts(db) == before


def test_output_past_the_alignment_node_limit_is_rejected_with_file_and_line(db, tmp_path, monkeypatch):
    """An output sentence whose most-moves alignment needs more branch-and-bound nodes than NODE_LIMIT
    (analysis/accuracy.py) is refused like a sentence past the size limits: file, line, problem and limit,
    exit 1, the warehouse unchanged. Line 2 scrambles "I do n't know ." so that its forward search needs more
    than one state in a cell: with the state budget at 0 its alignment goes to the integer programme, which
    needs its root node, more than a limit of 0 (lines 1 and 3 are the reference texts: nothing to align)."""
    monkeypatch.setattr(accuracy, "STATE_BUDGET", 0)
    monkeypatch.setattr(accuracy, "NODE_LIMIT", 0)
    bad = write(tmp_path, "hard.txt", "What if Google morphed into GoogleOS?\nI n't . do know\na full-fledged system\n")
    before = counts(db)
    r = runner.invoke(
        app, ["--db", db, "ingest", "outputs", str(bad), "--team", "t", "--run", "hard", "--reference", "c"]
    )
    assert r.exit_code == 1, r.output
    assert r.stderr == (
        f"evalhouse: {bad}:2: output sentence too hard to align: choosing among its minimum-cost edit alignments "
        "the one with the most moves needs more than the limit of 0 branch-and-bound nodes of the integer "
        "programme\n"
    )
    assert counts(db) == before


def test_conllu_duplicate_sent_id_names_the_sent_id_line(ref, tmp_path):
    text = conllu_output([["a"], ["b"]], sent_ids=["s1", "s1"])  # '# sent_id = s1' on lines 1 and 4
    with pytest.raises(InputError) as err:
        ingest_output(ref, tmp_path, "c", text, run="dup", name="dup.conllu")
    assert (err.value.line, err.value.problem) == (4, "duplicate sent_id s1 (first at line 1)")


def test_conllu_with_an_unknown_sent_id_is_rejected(ref, tmp_path):
    """Two known sent_ids in reverse order and one typo: the issue asks for an error, not a silent match by
    order that scores the output of s2 against reference sentence 1."""
    text = conllu_output([TOKENS[1], TOKENS[0], TOKENS[2]], sent_ids=["s2", "s1", "s3-typo"])
    with pytest.raises(InputError, match="unknown sent_id"):
        ingest_output(ref, tmp_path, "c", text, run="typo")


@pytest.mark.slow
def test_same_submission_twice_is_refused_unless_replace(db, tmp_path):
    again = write(tmp_path, "again.txt", "\n".join(TOK) + "\n")
    before = counts(db)
    args = ["--db", db, "ingest", "outputs", str(again), "--team", "t", "--run", "good", "--reference", "c"]
    r = runner.invoke(app, args)
    assert r.exit_code == 3 and "--replace" in r.stderr
    assert counts(db) == before
    r = runner.invoke(app, args + ["--replace"])
    assert r.exit_code == 0, r.output
    assert counts(db) == before  # replaced, not added: same number of rows everywhere
    with evalhouse.connect(db, read_only=True) as wh:
        assert wh.sql("select format, source_file from submissions").fetchone() == ("lines", str(again))
        assert wh.sql("select text from output_sentences where position = 2").fetchone()[0] == TOK[1]


@pytest.mark.slow
def test_unknown_reference_corpus_is_refused(db, tmp_path):
    out = write(tmp_path, "o.txt", "\n".join(TOK) + "\n")
    r = runner.invoke(
        app, ["--db", db, "ingest", "outputs", str(out), "--team", "t", "--run", "x", "--reference", "nope"]
    )
    assert r.exit_code == 3 and "nope" in r.stderr


# --- campaigns: a directory DIR/<team>/<run>/<file> or a CSV manifest, one transaction ---------


def _campaign(root):
    write_at(root / "alpha" / "run1" / "out.txt", sr(dict(enumerate(DETOK, 1))))
    write_at(root / "alpha" / "run2" / "out.txt", "\n".join(TOK) + "\n")
    write_at(root / "beta" / "primary" / "beta.conllu", conllu_output(TOKENS))


def write_at(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


@pytest.mark.slow
def test_campaign_directory(db, tmp_path):
    root = tmp_path / "campaign"
    _campaign(root)
    r = runner.invoke(app, ["--db", db, "ingest", "outputs", str(root), "--reference", "c"])
    assert r.exit_code == 0, r.output
    with evalhouse.connect(db, read_only=True) as wh:
        subs = wh.sql("select team, run, format from submissions where team != 't' order by all").fetchall()
        assert subs == [("alpha", "run1", "sr"), ("alpha", "run2", "lines"), ("beta", "primary", "conllu")]
        # all three are the same text: the same scores
        s = {run: scores(wh, run) for run in ("run1", "run2", "primary")}
        assert s["run1"] == s["run2"] == s["primary"] == scores(wh, "good")


@pytest.mark.slow
def test_campaign_with_one_bad_file_ingests_nothing(db, tmp_path):
    """One transaction: a bad file among good ones leaves every table as it was. (Scored in this process,
    workers=1 here; the CLI test below covers worker processes.)"""
    root = tmp_path / "campaign"
    _campaign(root)
    bad = write_at(root / "gamma" / "run1" / "out.txt", "# sent_id = 1\n# text = x\n\n# sent_id = 7\n# text = y\n")
    before = counts(db)
    with evalhouse.connect(db) as wh, pytest.raises(InputError) as err:
        ingest_submissions(wh, campaign_files(root), "c", workers=1)
    assert str(err.value).startswith(f"{bad}:4: unknown sent_id '7'")
    assert counts(db) == before


def test_input_error_survives_pickling():
    """Worker processes send exceptions back pickled; InputError must come back whole."""
    err = pickle.loads(pickle.dumps(InputError("out.txt", 4, "unknown sent_id '7'")))
    assert (err.path, err.line, err.problem, str(err)) == (
        "out.txt",
        4,
        "unknown sent_id '7'",
        "out.txt:4: unknown sent_id '7'",
    )


@pytest.mark.slow
def test_cli_campaign_with_a_bad_file_exits_1(db, tmp_path):
    root = tmp_path / "campaign"
    _campaign(root)
    bad = write_at(root / "gamma" / "run1" / "out.txt", "# sent_id = 1\n# text = x\n\n# sent_id = 7\n# text = y\n")
    before = counts(db)
    proc = subprocess.Popen(
        [sys.executable, "-m", "evalhouse", "--db", db, "ingest", "outputs", str(root), "--reference", "c"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, stderr = proc.communicate(timeout=CLI_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the command and the pool workers it forked
        proc.communicate()
        pytest.fail(f"'evalhouse ingest outputs DIR' with a bad file still running after {CLI_TIMEOUT} s")
    assert proc.returncode == 1
    assert stderr.startswith(f"evalhouse: {bad}:4: unknown sent_id '7'"), stderr
    assert counts(db) == before


@pytest.mark.slow
def test_manifest(db, tmp_path):
    root = tmp_path / "files"
    _campaign(root)
    manifest = write(
        root,
        "manifest.csv",
        "path,team,run,format\n"
        "alpha/run1/out.txt,alpha,run1,sr\n"
        "alpha/run2/out.txt,alpha,2,\n"
        f"{root / 'beta' / 'primary' / 'beta.conllu'},beta,primary,conllu\n",
    )
    r = runner.invoke(app, ["--db", db, "ingest", "outputs", "--manifest", str(manifest), "--reference", "c"])
    assert r.exit_code == 0, r.output
    with evalhouse.connect(db, read_only=True) as wh:
        subs = wh.sql("select team, run, format from submissions where team != 't' order by all").fetchall()
        assert subs == [("alpha", "2", "lines"), ("alpha", "run1", "sr"), ("beta", "primary", "conllu")]


@pytest.mark.slow
def test_manifest_with_one_bad_file_ingests_nothing(db, tmp_path):
    root = tmp_path / "files"
    _campaign(root)
    write_at(root / "bad.txt", "one\ntwo\n")
    manifest = write(
        root,
        "manifest.csv",
        "path,team,run\nalpha/run1/out.txt,alpha,run1\nalpha/run2/out.txt,alpha,run2\nbad.txt,gamma,1\n",
    )
    before = counts(db)
    with evalhouse.connect(db) as wh, pytest.raises(InputError) as err:
        ingest_submissions(wh, read_manifest(manifest), "c", workers=1)
    assert str(err.value).startswith(f"{root / 'bad.txt'}:2: 2 lines")
    assert counts(db) == before
    # a bad manifest row names its line
    manifest = write(
        root,
        "manifest2.csv",
        "path,team,run,format\nalpha/run1/out.txt,alpha,run1,sr\nalpha/run2/out.txt,alpha,run2,xml\n",
    )
    r = runner.invoke(app, ["--db", db, "ingest", "outputs", "--manifest", str(manifest), "--reference", "c"])
    assert r.exit_code == 1 and r.stderr.startswith(f"evalhouse: {manifest}:3: unknown format"), r.stderr
    assert counts(db) == before
    # a file the manifest lists that is not there: the manifest's line names it (issue 37)
    manifest = write(root, "manifest3.csv", "path,team,run\nalpha/run1/out.txt,alpha,run1\nmissing.txt,gamma,1\n")
    r = runner.invoke(app, ["--db", db, "ingest", "outputs", "--manifest", str(manifest), "--reference", "c"])
    assert r.exit_code == 1, r.output
    assert r.stderr == f"evalhouse: {manifest}:3: {root / 'missing.txt'}: cannot read: No such file or directory\n"
    assert counts(db) == before


# --- human judgements ----------------------------------------------------------------------

JUDGEMENTS = [
    # team, run, corpus, sent_id, annotator, criterion, score
    ("t", "good", "c", "s1", "ann1", "fluency", 70),
    ("t", "good", "c", "s2", "ann1", "fluency", 90),
    ("t", "good", "c", "3", "ann1", "fluency", 40),  # a position instead of a sent_id
    ("t", "other", "c", "s1", "ann1", "fluency", 55),
    ("t", "good", "c", "s1", "ann1", "Adequacy", 3),  # criterion is case-insensitive
    ("t", "good", "c", "s2", "ann1", "adequacy", 5),
    ("t", "good", "c", "s1", "ann2", "fluency", 20),
    ("t", "other", "c", "s1", "ann2", "fluency", 35),
    ("t", "other", "c", "s3", "ann2", "fluency", 35),
    ("t", "good", "c", "s3", "ann3", "fluency", 50),  # a single score: sd undefined, z NULL
]


def _csv(path, rows, header=("team", "run", "corpus", "sent_id", "annotator", "criterion", "score")):
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return path


@pytest.mark.slow
def test_judgement_z_equals_an_independent_computation(db, tmp_path):
    other = write(tmp_path, "other.txt", "\n".join(TOK) + "\n")
    assert (
        runner.invoke(
            app,
            ["--db", db, "ingest", "outputs", str(other), "--team", "t", "--run", "other", "--reference", "c", "-q"],
        ).exit_code
        == 0
    )
    path = _csv(tmp_path / "j.csv", JUDGEMENTS)
    r = runner.invoke(app, ["--db", db, "ingest", "judgements", str(path)])
    assert r.exit_code == 0, r.output
    groups: dict[tuple, list[float]] = {}
    for *_, ann, crit, score in JUDGEMENTS:
        groups.setdefault((ann, crit.lower()), []).append(score)
    position = {"s1": 1, "s2": 2, "s3": 3, "3": 3}
    want = {}
    for team, run, corpus, sid, ann, crit, score in JUDGEMENTS:
        xs = groups[(ann, crit.lower())]
        z = (score - statistics.mean(xs)) / statistics.stdev(xs) if len(xs) > 1 else None
        want[(run, position[sid], ann, crit.lower())] = z
    with evalhouse.connect(db, read_only=True) as wh:
        got = {
            (run, p, a, c): z
            for run, p, a, c, z in wh.sql("select run, position, annotator, criterion, z from judgement_z").fetchall()
        }
        assert got.keys() == want.keys()
        for k, z in want.items():
            assert (got[k] is None) if z is None else got[k] == pytest.approx(z, abs=1e-12), k
        # sentence_scores: mean z over annotators per criterion
        rows = {
            (run, p): (f, a, n)
            for run, p, f, a, n in wh.sql(
                "select run, position, fluency_z, adequacy_z, judgements from sentence_scores"
            ).fetchall()
        }
        assert rows[("good", 1)][0] == pytest.approx(
            (want[("good", 1, "ann1", "fluency")] + want[("good", 1, "ann2", "fluency")]) / 2, abs=1e-12
        )
        assert rows[("good", 1)][1] == pytest.approx(want[("good", 1, "ann1", "adequacy")], abs=1e-12)
        assert rows[("good", 1)][2] == 3
        assert rows[("other", 2)] == (None, None, 0)


@pytest.mark.slow
@pytest.mark.parametrize(
    "row, line, problem",
    [
        (("t", "good", "c", "s1", "ann1", "fluency", "good"), 3, "score 'good' is not a number"),
        (("t", "good", "c", "s1", "ann1", "fluency", "nan"), 3, "score 'nan' is not a finite number"),
        (("t", "good", "c", "s9", "ann1", "fluency", "1"), 3, "unknown sent_id 's9'"),
        (("t", "nope", "c", "s1", "ann1", "fluency", "1"), 3, "no submission team t run nope"),
        (("t", "good", "c", "s2", "", "fluency", "1"), 3, "empty annotator"),
        (("t", "good", "c", "s1", "ann1", "FLUENCY", "2"), 3, "annotator ann1 already scored"),
        # issue 37: scores whose squares overflow gave judgement_z an infinite sd and every z 0.0, silently
        (
            ("t", "good", "c", "s2", "ann1", "fluency", "1e300"),
            3,
            "score '1e300' is beyond ±1e+15: judgement_z squares",
        ),
        (("t", "good", "c", "s2", "ann1", "fluency", "-1e300"), 3, "score '-1e300' is beyond ±1e+15"),
        # names shown in the report, refused as team names are (evalhouse/names.py)
        (
            ("t", "good", "c", "s2", "ann\u202e1", "fluency", "1"),
            3,
            "annotator 'ann\\u202e1': a name cannot contain an invisible formatting character (here U+202E",
        ),
        (
            ("t", "good", "c", "s2", "ann1", "flu\u200bency", "1"),
            3,
            "criterion 'flu\\u200bency': a name cannot contain",
        ),
    ],
)
def test_bad_judgements_are_rejected_with_line(db, tmp_path, row, line, problem):
    path = _csv(tmp_path / "j.csv", [("t", "good", "c", "s1", "ann1", "fluency", "5"), row])
    before = counts(db)
    r = runner.invoke(app, ["--db", db, "ingest", "judgements", str(path)])
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"evalhouse: {path}:{line}: {problem}"), r.stderr
    assert counts(db) == before


# --- grain of the views and a plain DuckDB client ---------------------------------------------


def test_sentence_scores_grain(db, tmp_path):
    other = write(tmp_path, "other.txt", "\n".join(TOK) + "\n")
    with evalhouse.connect(db) as wh:
        wh.ingest_outputs(other, reference="c", team="u", run="2")
        rows = wh.sql("select team, run, corpus, sent_id, position from sentence_scores order by all").fetchall()
        assert rows == [(t, r, "c", f"s{p}", p) for t, r in (("t", "good"), ("u", "2")) for p in (1, 2, 3)]
        for view, key in (
            ("dea_edges", "team, run, corpus, position, dependent"),
            ("dea_by_relation", "team, run, corpus, relation"),
            ("submission_scores", "team, run, corpus"),
        ):
            n, distinct = wh.sql(f"select count(*), count(distinct ({key})) from {view}").fetchone()
            assert n == distinct > 0, view
        # dea_edges: one row per submission x reference edge (root excluded)
        n_edges = wh.sql("select count(*) from edges where corpus = 'c' and head > 0").fetchone()[0]
        assert wh.sql("select count(*) from dea_edges").fetchone()[0] == 2 * n_edges


NEW_VIEWS = (
    "dea_edges",
    "dea_by_relation",
    "dea_by_relation_pooled",
    "judgement_z",
    "sentence_scores",
    "submission_scores",
)


# a plain DuckDB client of the installed duckdb's release, without evalhouse: PyPI's duckdb-cli stops at 1.5.6,
# and a file that duckdb 2.0 created opens only in 2.0 (docs/crash-safety.md), so then plain Python duckdb
PLAIN_PYTHON_CLIENT = """
import sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
for statement in sys.stdin.read().split(";\\n"):
    if statement.strip():
        for row in con.execute(statement).fetchall():
            print(",".join(str(v) for v in row))
"""


def _plain_client(db: str) -> list[str]:
    exe = shutil.which("duckdb")
    if exe is None:
        pytest.fail("the duckdb CLI is not installed (it is a test dependency: pip install -e '.[test]')")
    cli = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout.split()[0].lstrip("v")
    if cli.split(".")[0] == duckdb.__version__.split(".")[0]:
        return [exe, "-readonly", "-csv", "-noheader", db]
    return [sys.executable, "-c", PLAIN_PYTHON_CLIENT, db]


@pytest.mark.slow
def test_plain_duckdb_cli_reads_the_output_views(db, tmp_path):
    _csv(tmp_path / "j.csv", JUDGEMENTS[:3])
    assert runner.invoke(app, ["--db", db, "ingest", "judgements", str(tmp_path / "j.csv")]).exit_code == 0
    script = "".join(f"SELECT '{v}' AS view, count(*) AS n FROM {v};\n" for v in NEW_VIEWS)
    script += "SELECT 'bleu', round(sum(bleu + dea + ssa + coalesce(fluency_z, 0)), 9) FROM sentence_scores;\n"
    r = subprocess.run(_plain_client(db), input=script, capture_output=True, text=True)
    assert r.returncode == 0 and "Error" not in r.stderr, r.stderr
    got = dict(line.split(",") for line in r.stdout.splitlines())
    with evalhouse.connect(db, read_only=True) as wh:
        for v in NEW_VIEWS:
            assert int(got[v]) == wh.sql(f"select count(*) from {v}").fetchone()[0] > 0, v
        total = wh.sql(
            "select round(sum(bleu + dea + ssa + coalesce(fluency_z, 0)), 9) from sentence_scores"
        ).fetchone()[0]
    assert float(got["bleu"]) == total
