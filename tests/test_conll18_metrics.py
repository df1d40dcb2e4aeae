"""Every CoNLL 2018 metric (dependency_metrics) against the official script (conll18_ud_eval.py 1.2, run
as a peer from ../shared/tools) on every real parser output and on seeded edits of real gold sentences;
a hand-built case worked out from the script's definitions; and MaltEval's breakdowns, the label confusion
and the per-sentence scores, by hand and summed against the totals on the real outputs."""

from __future__ import annotations

import random

import pytest

from evalhouse.ingest.dependency_runs import ingest_dependency_run
from tests.conftest import shared, write
from tests.conll18_cases import system_text

METRIC_ROWS = (
    "SELECT metric, correct, gold, system, aligned, precision, recall, f1, aligned_accuracy "
    "FROM dependency_metrics WHERE corpus = $c AND team = $t AND run = $r"
)


def script_rows(script, gold_path, system_path) -> dict:
    """The script's figures, full precision: metric -> (correct, gold, system, aligned, P, R, F1, AligndAcc)."""
    evaluation = script.evaluate(script.load_conllu_file(str(gold_path)), script.load_conllu_file(str(system_path)))
    return {
        m: (s.correct, s.gold_total, s.system_total, s.aligned_total, s.precision, s.recall, s.f1, s.aligned_accuracy)
        for m, s in evaluation.items()
    }


def our_rows(wh, corpus, team, run) -> dict:
    return {r[0]: tuple(r[1:]) for r in wh.sql(METRIC_ROWS, {"c": corpus, "t": team, "r": run}).fetchall()}


# --- the real CoNLL 2018 outputs ------------------------------------------------------------------------


@pytest.mark.realdata
def test_every_metric_equals_the_official_script_on_every_real_output(wh, conll18_script):
    d = shared("parsing", "conll2018")
    compared = 0
    for tb in ("en_ewt", "fr_gsd", "zh_gsd"):
        for team in ("HIT-SCIR-18", "Stanford-18", "UDPipe-Future", "gold"):
            ingest_dependency_run(wh, d / team / f"{tb}.conllu", d / "gold" / f"{tb}.conllu", tb, team, "1")
            expected = script_rows(conll18_script, d / "gold" / f"{tb}.conllu", d / team / f"{tb}.conllu")
            assert our_rows(wh, tb, team, "1") == expected, (tb, team)
            compared += 1
    assert compared == 12
    # the gold against itself: every metric 1
    assert {r[0] for r in wh.sql("SELECT DISTINCT f1 FROM dependency_metrics WHERE team = 'gold'").fetchall()} == {1.0}


@pytest.mark.realdata
@pytest.mark.parametrize("treebank", ["en_ewt", "fr_gsd", "zh_gsd"])
def test_every_metric_equals_the_official_script_on_edited_outputs(tmp_path, wh, conll18_script, treebank):
    """Windows of 25 real gold sentences and parser outputs made from them by seeded edits (tests/conll18_cases.py:
    tokens merged and split, multiword tokens made and undone, sentences merged and split, spaces inside forms,
    empty nodes, noise on every column)."""
    blocks = (
        shared("parsing", "conll2018", "gold", f"{treebank}.conllu")
        .read_text(encoding="utf-8")
        .strip("\n")
        .split("\n\n")
    )
    seen = {"range": 0, "empty": 0, "space": 0}
    for case in range(12):
        rng = random.Random(f"{treebank}{case}")
        start = rng.randrange(len(blocks) - 25)
        gold_text = "\n\n".join(blocks[start : start + 25]) + "\n\n"
        text = system_text(gold_text, case)
        seen["range"] += sum("-" in line.split("\t")[0] for line in text.splitlines() if line)
        seen["empty"] += sum("." in line.split("\t")[0] for line in text.splitlines() if line)
        seen["space"] += sum(
            any(c in line.split("\t")[1] for c in "\u00a0\u3000\u2009 ") for line in text.splitlines() if "\t" in line
        )
        gold = write(tmp_path, f"g{case}.conllu", gold_text)
        system = write(tmp_path, f"s{case}.conllu", text)
        ingest_dependency_run(wh, system, gold, f"c{case}", "t", "r")
        assert our_rows(wh, f"c{case}", "t", "r") == script_rows(conll18_script, gold, system), case
    assert all(seen.values()), seen  # the edits the cases are for did happen


# --- a case worked out by hand from the script's definitions ----------------------------------------------

GOLD = """# sent_id = 1
# text = The cats will sleep here.
1	The	the	DET	DT	Definite=Def|PronType=Art	2	det	_	_
2	cats	cat	NOUN	NNS	Number=Plur	4	nsubj	_	_
3	will	will	AUX	MD	VerbForm=Fin	4	aux	_	_
4	sleep	sleep	VERB	VB	VerbForm=Inf	0	root	_	_
5	here	here	ADV	RB	_	4	advmod	_	SpaceAfter=No
6	.	.	PUNCT	.	_	4	punct	_	_

# sent_id = 2
# text = Yes!
1	Yes	yes	INTJ	UH	_	0	root	_	SpaceAfter=No
2	!	!	PUNCT	.	_	1	punct	_	_

"""
# one sentence for both; The gets a feature that is not universal; cats loses its lemma and gets a subtype;
# will becomes cop (a functional child of sleep changes); here and Yes get wrong heads
SYSTEM = """1	The	the	DET	DT	Definite=Def|PronType=Art|Foo=Yes	2	det	_	_
2	cats	_	NOUN	NNS	Number=Plur	4	nsubj:pass	_	_
3	will	will	AUX	MD	VerbForm=Fin	4	cop	_	_
4	sleep	sleep	VERB	VB	VerbForm=Inf	0	root	_	_
5	here	here	ADV	RB	_	2	advmod	_	_
6	.	.	PUNCT	.	_	4	punct	_	_
7	Yes	yes	INTJ	UH	_	4	parataxis	_	_
8	!	!	PUNCT	.	_	7	punct	_	_

"""
# metric -> (correct, gold, system, aligned)
BY_HAND = {
    "Tokens": (8, 8, 8, None),
    "Sentences": (0, 2, 1, None),
    "Words": (8, 8, 8, None),
    "UPOS": (8, 8, 8, 8),
    "XPOS": (8, 8, 8, 8),
    "UFeats": (8, 8, 8, 8),
    "AllTags": (8, 8, 8, 8),
    "Lemmas": (7, 8, 8, 8),  # cats: gold 'cat', system '_'
    "UAS": (6, 8, 8, 8),  # here, Yes
    "LAS": (5, 8, 8, 8),  # and will (aux / cop)
    # content words: cats, sleep, here, Yes on both sides (parataxis is a content relation)
    "CLAS": (2, 4, 4, 4),  # cats, sleep
    "MLAS": (1, 4, 4, 4),  # sleep's functional child will is aux against cop; cats' The pairs off
    "BLEX": (1, 4, 4, 4),  # cats' lemma
}


@pytest.fixture
def worked(tmp_path, wh):
    ingest_dependency_run(wh, write(tmp_path, "s.conllu", SYSTEM), write(tmp_path, "g.conllu", GOLD), "c", "t", "r")
    return wh


@pytest.mark.slow
def test_a_case_worked_out_by_hand(worked):
    rows = our_rows(worked, "c", "t", "r")
    for metric, (correct, gold, system, aligned) in BY_HAND.items():
        p = correct / system if system else 0.0
        r = correct / gold if gold else 0.0
        f = 2 * correct / (gold + system) if gold + system else 0.0
        assert rows[metric] == (
            correct,
            gold,
            system,
            aligned,
            p,
            r,
            f,
            None if aligned is None else correct / aligned,
        ), metric


@pytest.mark.slow
def test_the_worked_case_equals_the_script(tmp_path, worked, conll18_script):
    expected = script_rows(conll18_script, write(tmp_path, "g2.conllu", GOLD), write(tmp_path, "s2.conllu", SYSTEM))
    assert our_rows(worked, "c", "t", "r") == expected


def breakdown(wh, name):
    return {
        r[0]: r[1:]
        for r in wh.sql(
            "SELECT grp, gold_words, system_words, las_gold_correct, las_system_correct, uas_gold_correct, "
            "uas_system_correct FROM dependency_breakdowns WHERE breakdown = $b",
            {"b": name},
        ).fetchall()
    }


@pytest.mark.slow
def test_breakdowns_of_the_worked_case(worked):
    # group -> (gold words, system words, LAS gold correct, LAS system correct, UAS gold, UAS system)
    assert breakdown(worked, "relation") == {
        "det": (1, 1, 1, 1, 1, 1),
        "nsubj": (1, 1, 1, 1, 1, 1),
        "aux": (1, 0, 0, 0, 1, 0),
        "cop": (0, 1, 0, 0, 0, 1),
        "root": (2, 1, 1, 1, 1, 1),
        "advmod": (1, 1, 0, 0, 0, 0),
        "punct": (2, 2, 2, 2, 2, 2),
        "parataxis": (0, 1, 0, 0, 0, 0),
    }
    row = worked.sql(
        "SELECT las_precision, las_recall, las_f1, label_precision, label_recall FROM "
        "dependency_scores_by_relation WHERE relation = 'root'"
    ).fetchone()
    assert row == (1.0, 0.5, 2 * 1.0 * 0.5 / 1.5, 1.0, 0.5)
    assert worked.sql(
        "SELECT las_precision, las_recall, las_f1 FROM dependency_scores_by_relation WHERE relation = 'aux'"
    ).fetchone() == (None, 0.0, None)
    # gold arcs: The 1, cats 2, will 1, here 1, . 2, ! 1, two roots; the system's here reaches back to cats (3)
    # and Yes hangs from sleep (3)
    assert breakdown(worked, "arc_length") == {
        "root": (2, 1, 1, 1, 1, 1),
        "1": (4, 3, 2, 2, 3, 3),
        "2": (2, 2, 2, 2, 2, 2),
        "3": (0, 2, 0, 0, 0, 0),
    }
    assert breakdown(worked, "arc_direction") == {
        "root": (2, 1, 1, 1, 1, 1),
        "head-initial": (3, 4, 2, 2, 2, 2),
        "head-final": (3, 3, 2, 2, 3, 3),
    }
    # gold depths: sleep 0, cats will here . 1, The 2; Yes 0, ! 1. System: Yes 1, ! 2, here 2 (under cats)
    assert breakdown(worked, "root_distance") == {
        "0": (2, 1, 1, 1, 1, 1),
        "1": (5, 4, 3, 2, 4, 3),
        "2": (1, 3, 1, 2, 1, 2),
    }
    assert breakdown(worked, "sentence_length") == {"1-10": (8, 8, 5, 5, 6, 6)}
    # the system's here -> cats spans will and sleep, which cats does not dominate
    assert breakdown(worked, "projectivity") == {"projective": (8, 7, 5, 5, 6, 6), "non-projective": (0, 1, 0, 0, 0, 0)}
    assert breakdown(worked, "upos")["AUX"] == (1, 1, 0, 0, 1, 1)


# French "du" is one token of two words, "de le" (a multiword token, ID 3-4). docs/parse-evaluation.md: in the
# breakdowns each word of a multiword token keeps its own UPOS and the token has none. The parser splits "du"
# as the gold does but tags "le" as a pronoun and attaches it to the verb as obj.
MULTIWORD_GOLD = """# sent_id = 1
# text = Il parle du livre.
1	Il	il	PRON	_	_	2	nsubj	_	_
2	parle	parler	VERB	_	_	0	root	_	_
3-4	du	_	_	_	_	_	_	_	_
3	de	de	ADP	_	_	5	case	_	_
4	le	le	DET	_	_	5	det	_	_
5	livre	livre	NOUN	_	_	2	obl	_	SpaceAfter=No
6	.	.	PUNCT	_	_	2	punct	_	_

"""
MULTIWORD_SYSTEM = """1	Il	il	PRON	_	_	2	nsubj	_	_
2	parle	parler	VERB	_	_	0	root	_	_
3-4	du	_	_	_	_	_	_	_	_
3	de	de	ADP	_	_	5	case	_	_
4	le	le	PRON	_	_	2	obj	_	_
5	livre	livre	NOUN	_	_	2	obl	_	SpaceAfter=No
6	.	.	PUNCT	_	_	2	punct	_	_

"""


@pytest.mark.slow
def test_words_of_a_multiword_token_keep_their_own_upos(tmp_path, wh):
    system, gold = write(tmp_path, "s.conllu", MULTIWORD_SYSTEM), write(tmp_path, "g.conllu", MULTIWORD_GOLD)
    ingest_dependency_run(wh, system, gold, "c", "t", "r")
    # 5 tokens (Il parle du livre .), 6 words; every word aligns (same tokens, same words inside "du")
    rows = our_rows(wh, "c", "t", "r")
    assert rows["Tokens"][:3] == (5, 5, 5) and rows["Words"][:3] == (6, 6, 6)
    # UPOS: every word but le (DET / PRON); LAS: every word but le (head 5 det / head 2 obj)
    assert rows["UPOS"][:4] == (5, 6, 6, 6) and rows["LAS"][:4] == (5, 6, 6, 6)
    # group -> (gold words, system words, LAS gold correct, LAS system correct, UAS gold, UAS system):
    #   gold words by gold UPOS: Il PRON, parle VERB, de ADP, le DET, livre NOUN, . PUNCT (the token du: none)
    #   system words by system UPOS: Il PRON, parle VERB, de ADP, le PRON, livre NOUN, . PUNCT
    #   PRON: gold {Il}, system {Il, le}; Il is right, le wrong on both head and relation -> (1, 2, 1, 1, 1, 1)
    #   DET: gold {le}, wrong; no system word is a DET -> (1, 0, 0, 0, 0, 0)
    #   ADP (de), VERB, NOUN, PUNCT: one word each side, right -> (1, 1, 1, 1, 1, 1)
    assert breakdown(wh, "upos") == {
        "PRON": (1, 2, 1, 1, 1, 1),
        "VERB": (1, 1, 1, 1, 1, 1),
        "ADP": (1, 1, 1, 1, 1, 1),
        "DET": (1, 0, 0, 0, 0, 0),
        "NOUN": (1, 1, 1, 1, 1, 1),
        "PUNCT": (1, 1, 1, 1, 1, 1),
    }
    # PRON: P = 1/2 (le is wrong), R = 1/1, F1 = 2 * 1/2 * 1 / (1/2 + 1) = 2/3; DET: no system word, P and F1 NULL
    assert wh.sql(
        "SELECT grp, las_precision, las_recall, las_f1 FROM dependency_breakdowns "
        "WHERE breakdown = 'upos' AND grp IN ('PRON', 'DET') ORDER BY grp"
    ).fetchall() == [("DET", None, 0.0, None), ("PRON", 0.5, 1.0, 2 * 0.5 * 1.0 / 1.5)]


@pytest.mark.slow
def test_the_multiword_case_equals_the_script(tmp_path, wh, conll18_script):
    system, gold = write(tmp_path, "s.conllu", MULTIWORD_SYSTEM), write(tmp_path, "g.conllu", MULTIWORD_GOLD)
    ingest_dependency_run(wh, system, gold, "c", "t", "r")
    assert our_rows(wh, "c", "t", "r") == script_rows(conll18_script, gold, system)


@pytest.mark.slow
def test_label_confusion_and_sentences_of_the_worked_case(worked):
    confusion = {
        (r[0], r[1]): r[2:]
        for r in worked.sql(
            "SELECT gold_relation, system_relation, words, head_correct, head_wrong FROM dependency_label_confusion"
        ).fetchall()
    }
    assert confusion == {
        ("det", "det"): (1, 1, 0),
        ("nsubj", "nsubj"): (1, 1, 0),
        ("aux", "cop"): (1, 1, 0),
        ("root", "root"): (1, 1, 0),
        ("advmod", "advmod"): (1, 0, 1),
        ("punct", "punct"): (2, 2, 0),
        ("root", "parataxis"): (1, 0, 1),
    }
    sentences = worked.sql(
        "SELECT sentence, gold_words, system_words, uas_correct, las_correct, clas_correct, "
        "mlas_correct, blex_correct, las_f1 FROM dependency_sentence_scores ORDER BY sentence"
    ).fetchall()
    assert sentences == [(1, 6, 6, 5, 4, 2, 1, 1, 8 / 12), (2, 2, 2, 1, 1, 0, 0, 0, 2 / 4)]
    pairs = worked.sql(
        "SELECT system_form, head_correct, label_correct, mlas_correct FROM dependency_word_pairs ORDER BY system_index"
    ).fetchall()
    assert pairs[2] == ("will", True, False, False) and pairs[3] == ("sleep", True, True, False)


@pytest.mark.slow
def test_unaligned_words_on_both_sides(tmp_path, wh):
    """Gold 'New York' against a system's 'NewYork': two unaligned gold words, one unaligned system word; they
    count in the totals, in the breakdowns and in the confusion (with NULL on the missing side)."""
    gold = (
        "# text = New York\n1\tNew\tNew\tPROPN\t_\t_\t2\tcompound\t_\t_\n2\tYork\tYork\tPROPN\t_\t_\t0\troot\t_\t_\n\n"
    )
    system = "1\tNewYork\t_\tPROPN\t_\t_\t0\troot\t_\t_\n\n"
    ingest_dependency_run(wh, write(tmp_path, "s.conllu", system), write(tmp_path, "g.conllu", gold), "c", "t", "r")
    rows = our_rows(wh, "c", "t", "r")
    assert rows["Words"][:4] == (0, 2, 1, None) and rows["Tokens"][:3] == (0, 2, 1)
    assert rows["LAS"] == (0, 2, 1, 0, 0.0, 0.0, 0.0, 0.0)  # aligned accuracy 0 when nothing aligns, as the script
    confusion = set(wh.sql("SELECT gold_relation, system_relation, words FROM dependency_label_confusion").fetchall())
    assert confusion == {("compound", None, 1), ("root", None, 1), (None, "root", 1)}
    assert breakdown(wh, "relation")["root"][:2] == (1, 1)


# --- the breakdowns add up, on the real outputs ------------------------------------------------------------


@pytest.mark.realdata
def test_breakdowns_confusion_and_sentences_sum_to_the_totals(wh):
    d = shared("parsing", "conll2018")
    for team in ("HIT-SCIR-18", "UDPipe-Future"):
        ingest_dependency_run(wh, d / team / "fr_gsd.conllu", d / "gold" / "fr_gsd.conllu", "fr_gsd", team, "1")
    totals = {
        (r[0], r[1]): r[2:]
        for r in wh.sql("SELECT team, metric, correct, gold, system FROM dependency_metrics").fetchall()
    }
    sums = wh.sql("""SELECT team, breakdown, sum(gold_words), sum(system_words), sum(las_gold_correct),
                            sum(las_system_correct), sum(uas_gold_correct), sum(uas_system_correct), count(*)
                     FROM dependency_breakdowns GROUP BY team, breakdown""").fetchall()
    assert len(sums) == 2 * 7
    for team, name, gold, system, las_g, las_s, uas_g, uas_s, groups in sums:
        assert (gold, system) == totals[(team, "Words")][1:], (team, name)
        assert las_g == las_s == totals[(team, "LAS")][0] and uas_g == uas_s == totals[(team, "UAS")][0], (team, name)
        assert groups >= 2
    for team, words, gold, system, correct in wh.sql("""
            SELECT team, sum(words), sum(words) FILTER (WHERE gold_relation IS NOT NULL),
                   sum(words) FILTER (WHERE system_relation IS NOT NULL), sum(head_correct)
            FROM dependency_label_confusion GROUP BY team""").fetchall():
        assert (gold, system, correct) == (*totals[(team, "Words")][1:], totals[(team, "UAS")][0])
    for team, *got in wh.sql("""
            SELECT team, sum(gold_words), sum(system_words), sum(las_correct), sum(clas_correct), sum(mlas_correct),
                   sum(blex_correct), sum(gold_content_words), sum(system_content_words)
            FROM dependency_sentence_scores GROUP BY team""").fetchall():
        assert got == [
            *totals[(team, "Words")][1:],
            totals[(team, "LAS")][0],
            totals[(team, "CLAS")][0],
            totals[(team, "MLAS")][0],
            totals[(team, "BLEX")][0],
            *totals[(team, "CLAS")][1:],
        ]
    assert wh.sql("SELECT count(*) FROM dependency_word_pairs").fetchone()[0] == sum(
        totals[(t, "Words")][1] + totals[(t, "Words")][2] - totals[(t, "Words")][0]
        for t in ("HIT-SCIR-18", "UDPipe-Future")
    )
