"""Given/expect tests of the views of issue 15: ``sr_sentence_scores``, ``sr_submission_scores``,
``sacrebleu_scores`` and ``alignment_methods``.

Each view first reads tiny base tables written here by hand (GIVEN), with every expected row worked out
beside it; then the SR and sacreBLEU views are checked through ``ingest outputs`` against the reference
tools called directly (NLTK's corpus_bleu, corpus_nist, sentence_bleu, sentence_nist and edit_distance
as the SR evaluation script calls them; sacrebleu's corpus_bleu and corpus_chrf). The real ADAPT runs
are in tests/test_outputs_sr_real.py.
"""

from __future__ import annotations

import datetime as dt
import math

import pytest
import sacrebleu
from nltk.translate.nist_score import nist_length_penalty

from evalhouse.analysis.alignment import METHODS
from evalhouse.warehouse import view_files
from tests.conftest import write
from tests.test_outputs_ingest import conllu_output
from tests.test_outputs_metrics import ingest_output, lines_output
from tests.test_sr_metrics import nltk_sentence, script_scores
from tests.test_views import assert_rows

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def given_submission(
    wh, team: str, run: str, corpus: str, sentences: int, fmt: str = "sr", configuration: str = "evalhouse:test"
) -> None:
    wh.insert(
        "submissions",
        [
            {
                "team": team,
                "run": run,
                "corpus": corpus,
                "format": fmt,
                "source_file": "given",
                "sha256": "0",
                "sentences": sentences,
                "given_sentences": sentences,
                "missing_sentences": 0,
                "missing_positions": [],
                "normalisations": [],
                "configuration": configuration,
                "evalhouse_version": "test",
                "ingested_at": NOW,
            }
        ],
    )


def given_sentences(wh, corpus: str, n: int) -> None:
    wh.insert(
        "sentences",
        {
            "corpus": [corpus] * n,
            "position": list(range(1, n + 1)),
            "sent_id": [f"s{k}" for k in range(1, n + 1)],
            "text": ["x"] * n,
            "comments": [[] for _ in range(n)],
            "first_line": list(range(1, n + 1)),
        },
    )


ZERO_COUNTS = {
    f"{p}_{c}": 0
    for p in ("string", "tree", "lemma_string", "lemma_tree")
    for c in ("insertions", "deletions", "substitutions", "moves", "reference_length")
}


def given_statistics(wh, team, run, corpus, rows):
    """rows: (position, missing, h, r, matches, totals, nist_matches, sentence_nist, word_edits, word_length,
    char_edits, char_length); None for h means the SR statistics are NULL."""
    for position, missing, h, r, m, t, w, nist, we, wl, ce, cl in rows:
        wh.insert(
            "output_sentences",
            [
                {
                    "team": team,
                    "run": run,
                    "corpus": corpus,
                    "position": position,
                    "text": None if missing else "x",
                    "missing": missing,
                    "source_line": None if missing else position,
                }
            ],
        )
        wh.insert(
            "sentence_statistics",
            [
                {
                    "team": team,
                    "run": run,
                    "corpus": corpus,
                    "position": position,
                    "bleu_hypothesis_length": 0,
                    "bleu_reference_length": 0,
                    "bleu_matches": [0] * 4,
                    "bleu_totals": [0] * 4,
                    "surface_hypothesis_length": 0,
                    "surface_reference_length": 0,
                    "surface_matches": [0] * 4,
                    "surface_totals": [0] * 4,
                    **ZERO_COUNTS,
                    "sr_hypothesis_length": h,
                    "sr_reference_length": r,
                    "sr_matches": m,
                    "sr_totals": t,
                    "sr_nist_matches": w,
                    "sr_sentence_nist": nist,
                    "sr_word_edits": we,
                    "sr_word_length": wl,
                    "sr_char_edits": ce,
                    "sr_char_length": cl,
                }
            ],
        )


# --- GIVEN: the SR statistics of two submissions of three sentences -------------------------------
#
# t/r, sentence 1: an output equal to its 4-token reference: every n-gram matches
#      sentence 2: 3 tokens against 4; matches 2, 1, 0, 0 of 3, 2, 1, 0 n-grams; NLTK's sentence_nist
#                  undefined (fewer than 4 tokens); 2 word edits, 5 character edits of 20
#      sentence 3: missing (empty output) against a 2-token reference
# t/notext: the reference had no # text, so the SR statistics are NULL
SR_GIVEN = [
    (1, False, 4, 4, [4, 3, 2, 1], [4, 3, 2, 1], [3.0, 2.0, 1.0, 0.5], 2.5, 0, 4, 0, 19),
    (2, False, 3, 4, [2, 1, 0, 0], [3, 2, 1, 0], [1.5, 0.5, 0.0, 0.0], None, 2, 4, 5, 20),
    (3, True, 0, 2, [0, 0, 0, 0], [0, 0, 0, 0], [0.0, 0.0, 0.0, 0.0], None, 2, 2, 7, 7),
]


@pytest.fixture
def sr_given(wh):
    given_sentences(wh, "c", 3)
    given_submission(wh, "t", "r", "c", 3, configuration="evalhouse:test|sr-eval")
    given_statistics(wh, "t", "r", "c", SR_GIVEN)
    given_submission(wh, "t", "notext", "c", 3, fmt="conllu")
    given_statistics(
        wh,
        "t",
        "notext",
        "c",
        [(k, False, None, None, None, None, None, None, None, None, None, None) for k in (1, 2, 3)],
    )
    return wh


def test_sr_sentence_scores(sr_given):
    rows = sr_given.sql("""select run, position, sent_id, missing, bleu, nist, dist, dist_words, hypothesis_length,
                                  reference_length, configuration
                           from sr_sentence_scores join configurations using (configuration_id) order by run, position""").fetchall()
    # NLTK sentence_bleu, method 2: p1 = m1 / t1, pn = (mn + 1) / (tn + 1) with tn at least 1, BP = exp(1 - r / c)
    second = math.exp(1 - 4 / 3) * (2 / 3 * (1 + 1) / (2 + 1) * (0 + 1) / (1 + 1) * (0 + 1) / (1 + 1)) ** 0.25
    assert_rows(
        rows,
        [
            ("notext", 1, "s1", False, None, None, None, None, None, None, "evalhouse:test"),
            ("notext", 2, "s2", False, None, None, None, None, None, None, "evalhouse:test"),
            ("notext", 3, "s3", False, None, None, None, None, None, None, "evalhouse:test"),
            ("r", 1, "s1", False, 1.0, 2.5, 1.0, 1.0, 4, 4, "evalhouse:test|sr-eval"),
            ("r", 2, "s2", False, second, None, 1 - 5 / 20, 1 - 2 / 4, 3, 4, "evalhouse:test|sr-eval"),
            ("r", 3, "s3", True, 0.0, None, 0.0, 0.0, 0, 2, "evalhouse:test|sr-eval"),
        ],
    )


def test_sr_submission_scores(sr_given):
    rows = sr_given.sql("""select run, sentences, bleu, nist, dist, dist_words, hypothesis_length, reference_length,
                                  tokenised_output, configuration
                           from sr_submission_scores join configurations using (configuration_id) order by run""").fetchall()
    # corpus_bleu: matches summed (6, 4, 2, 1); totals summed with at least 1 per sentence (8, 6, 4, 3);
    # c = 7, r = 10
    bleu = math.exp(1 - 10 / 7) * math.exp(
        0.25 * (math.log(6 / 8) + math.log(5 / 7) + math.log(3 / 5) + math.log(2 / 4))
    )
    # corpus_nist: weighted matches summed (4.5, 2.5, 1, 0.5) over the hypothesis n-grams (7, 5, 3, 1),
    # times NLTK's own length penalty for c = 7, r = 10
    nist = (4.5 / 7 + 2.5 / 5 + 1 / 3 + 0.5 / 1) * nist_length_penalty(10, 7)
    assert_rows(
        rows,
        [
            ("notext", 3, None, None, None, None, None, None, True, "evalhouse:test"),
            ("r", 3, bleu, nist, 1 - 12 / 46, 1 - 4 / 10, 7, 10, False, "evalhouse:test|sr-eval"),
        ],
    )


def test_sacrebleu_scores(wh):
    given_submission(wh, "t", "r", "c", 1)
    given_submission(wh, "t", "tok", "c", 1, fmt="conllu")
    given_submission(wh, "t", "none", "c", 1)  # no sacreBLEU rows: no row in the view
    rows = [
        ("t", "r", "bleu", 41.5, "nrefs:1|tok:13a", "BLEU = 41.50 ...", "cfg"),
        ("t", "r", "chrf", 60.25, "nrefs:1|nc:6", "chrF2 = 60.25", "cfg"),
        ("t", "tok", "bleu", 12.0, "nrefs:1|tok:13a", "BLEU = 12.00 ...", "cfg2"),
    ]
    wh.insert(
        "submission_sacrebleu",
        [
            {
                "team": t,
                "run": r,
                "corpus": "c",
                "metric": m,
                "score": s,
                "signature": sig,
                "report": rep,
                "configuration": cfg,
            }
            for t, r, m, s, sig, rep, cfg in rows
        ],
    )
    got = wh.sql("""select run, bleu, bleu_signature, bleu_report, chrf, chrf_signature, chrf_report,
                           tokenised_output, configuration from sacrebleu_scores order by run""").fetchall()
    assert_rows(
        got,
        [
            ("r", 41.5, "nrefs:1|tok:13a", "BLEU = 41.50 ...", 60.25, "nrefs:1|nc:6", "chrF2 = 60.25", False, "cfg"),
            ("tok", 12.0, "nrefs:1|tok:13a", "BLEU = 12.00 ...", None, None, None, True, "cfg2"),
        ],
    )


def test_alignment_methods(wh):
    given_submission(wh, "t", "r", "c", 2)
    given_submission(wh, "t", "empty", "c", 1)  # every output missing: no token at all
    # (position, token, punct, method): sentence 1 "The cats was sleeping ." -> exact, exact, lexicon,
    # inflection, exact punctuation; sentence 2 "banana , wasn't" -> unaligned word, unaligned punctuation,
    # and a fuzzy link as a warehouse scored before evalhouse-align:3 stores it
    tokens = [
        (1, 1, False, "exact"),
        (1, 2, False, "exact"),
        (1, 3, False, "lexicon"),
        (1, 4, False, "inflection"),
        (1, 5, True, "exact"),
        (2, 1, False, "unaligned"),
        (2, 2, True, "unaligned"),
        (2, 3, False, "fuzzy"),
    ]
    wh.insert(
        "output_tokens",
        [
            {
                "team": "t",
                "run": "r",
                "corpus": "c",
                "position": p,
                "token": k,
                "form": "w",
                "lemma": "w",
                "lemma_source": "form",
                "punct": punct,
                "stripped_position": None if punct else k,
                "lemma_key": "w",
            }
            for p, k, punct, _ in tokens
        ],
    )
    wh.insert(
        "alignments",
        [
            {
                "corpus": "c",
                "team": "t",
                "run": "r",
                "position": p,
                "pair": "output-reference",
                "from_index": k,
                "to_index": None if m == "unaligned" else k,
                "method": m,
            }
            for p, k, _, m in tokens
        ],
    )
    # a translation's alignment rows (another pair) are not output tokens: ignored
    wh.insert(
        "alignments",
        [
            {
                "corpus": "c",
                "team": "t",
                "run": "r",
                "position": 1,
                "pair": "source-output",
                "from_index": 1,
                "to_index": 1,
                "method": "given",
            }
        ],
    )
    got = wh.sql("""select run, method, tokens, words, token_share, word_share from alignment_methods
                    order by run, method""").fetchall()
    # t/r: 8 tokens, 6 words (the two punctuation tokens are not words); every method of the aligner, and
    # the stored fuzzy, for both submissions
    expected = {"exact": (3, 2), "lexicon": (1, 1), "inflection": (1, 1), "unaligned": (2, 1), "fuzzy": (1, 1)}
    methods = sorted(set(METHODS) | {"fuzzy"})
    want = [("empty", m, 0, 0, None, None) for m in methods]
    want += [
        ("r", m, *expected.get(m, (0, 0)), expected.get(m, (0, 0))[0] / 8, expected.get(m, (0, 0))[1] / 6)
        for m in methods
    ]
    assert_rows(got, want)


def test_alignment_methods_lists_every_method_of_the_aligner():
    text = next(f.text for f in view_files() if f.name == "alignment_methods")
    values = text.split("VALUES", 1)[1].split(") AS m", 1)[0].replace("\n", " ")
    assert [v.strip(" ('),\n") for v in values.split("),")] == list(METHODS)


# --- through ingest, against the reference tools -------------------------------------------------------

REFERENCE_TEXTS = [
    "What if Google Morphed Into GoogleOS?",
    "The cat sat on a mat.",
    "Nothing came out here.",
    "Straße und Weg",
]
OUTPUT_TEXTS = ["What if Google morphed into GoogleOS?", "the cat sat on the mat .", "", "strasse und weg ja"]


def texted(texts: list[str]) -> str:
    """A CoNLL-U corpus with the given # text (one flat tree of the whitespace tokens, lemma = form)."""
    out = []
    for k, text in enumerate(texts, start=1):
        out += [f"# sent_id = x{k}", f"# text = {text}"]
        for i, form in enumerate(text.split(), start=1):
            out.append(
                "\t".join(
                    [
                        str(i),
                        form,
                        form.lower(),
                        "X",
                        "_",
                        "_",
                        str(0 if i == 1 else 1),
                        "root" if i == 1 else "dep",
                        "_",
                        "_",
                    ]
                )
            )
        out.append("")
    return "\n".join(out) + "\n"


def test_sr_and_sacrebleu_views_equal_nltk_and_sacrebleu_through_ingest(wh, tmp_path):
    wh.ingest_treebank([write(tmp_path, "ref.conllu", texted(REFERENCE_TEXTS))], corpus="ref")
    ingest_output(wh, tmp_path, "ref", lines_output(OUTPUT_TEXTS), fmt="lines")
    want = script_scores(OUTPUT_TEXTS, REFERENCE_TEXTS)
    got = wh.sql("select bleu, nist, dist, dist_words, tokenised_output from sr_submission_scores").fetchone()
    assert got[:4] == pytest.approx((want["bleu"], want["nist"], want["dist"], want["dist_words"]), abs=1e-12)
    assert got[4] is False
    rows = wh.sql("select bleu, nist, dist, dist_words from sr_sentence_scores order by position").fetchall()
    for (bleu, nist, dist, dist_words), hyp, ref in zip(rows, OUTPUT_TEXTS, REFERENCE_TEXTS):
        expected = nltk_sentence(hyp, ref)
        for value, metric in ((bleu, "bleu"), (nist, "nist"), (dist, "dist"), (dist_words, "dist_words")):
            if math.isnan(expected[metric]):
                assert value is None, (metric, hyp)
            else:
                assert value == pytest.approx(expected[metric], abs=1e-12), (metric, hyp)
    sacre = wh.sql("select bleu, bleu_signature, bleu_report, chrf, chrf_signature from sacrebleu_scores").fetchone()
    bleu, chrf = (
        sacrebleu.corpus_bleu(OUTPUT_TEXTS, [REFERENCE_TEXTS]),
        sacrebleu.corpus_chrf(OUTPUT_TEXTS, [REFERENCE_TEXTS]),
    )
    assert sacre == (
        bleu.score,
        f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:{sacrebleu.__version__}",
        str(bleu),
        chrf.score,
        f"nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:{sacrebleu.__version__}",
    )
    config = wh.sql("select configuration from submissions").fetchone()[0]
    assert config.endswith(
        "|sr-eval:tokens:lowercased,whitespace-split,punct-attached;bleu:nltk-corpus_bleu,method2,"
        "order:4;nist:nltk-corpus_nist,n:4,weights:reference-corpus;dist:chars,dist_words:words;"
        "evalhouse-sr:1"
    )
    assert wh.sql("select configuration from sacrebleu_scores").fetchone()[0].startswith("evalhouse:")


def test_without_reference_text_the_sr_metrics_are_null_and_said(wh, tmp_path):
    texts = texted(REFERENCE_TEXTS[:2]).replace("# text = The cat sat on a mat.\n", "")
    wh.ingest_treebank([write(tmp_path, "ref.conllu", texts)], corpus="ref")
    [summary] = ingest_output(wh, tmp_path, "ref", lines_output(OUTPUT_TEXTS[:2]), fmt="lines")
    assert (
        "SR metrics and sacreBLEU not computed: reference sentence 2 (sent_id x2) has no '# text' comment"
        in " ".join(summary.notes)
    )
    assert wh.sql("select bleu, nist, dist from sr_submission_scores").fetchone() == (None, None, None)
    assert wh.sql("select count(*) from sr_sentence_scores where bleu is not null").fetchone()[0] == 0
    assert wh.sql("select count(*) from sacrebleu_scores").fetchone()[0] == 0
    assert (
        "|sr-eval:not-computed,reference-without-text" in wh.sql("select configuration from submissions").fetchone()[0]
    )
    # DEA and lemma BLEU do not need the text
    assert wh.sql("select count(*) from sentence_scores where bleu is null").fetchone()[0] == 0


def test_conllu_outputs_are_flagged_tokenised_and_sacrebleu_can_be_skipped(wh, tmp_path):
    wh.ingest_treebank([write(tmp_path, "ref.conllu", texted(REFERENCE_TEXTS))], corpus="ref")
    forms = [t.split() for t in REFERENCE_TEXTS]
    [summary] = ingest_output(wh, tmp_path, "ref", conllu_output(forms), fmt="conllu", run="conllu")
    assert any("FORMs joined by spaces" in n for n in summary.notes)
    assert wh.sql("select tokenised_output from sr_submission_scores").fetchone() == (True,)
    assert "|sr-hypothesis:conllu-forms-joined-by-spaces" in summary.configuration
    ingest_output(wh, tmp_path, "ref", lines_output(OUTPUT_TEXTS), fmt="lines", run="nosacre", sacrebleu=False)
    assert wh.sql("select run from sacrebleu_scores").fetchall() == [("conllu",)]
    assert wh.sql("select count(*) from sr_submission_scores where bleu is not null").fetchone()[0] == 2
