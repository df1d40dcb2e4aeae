"""The SR shared-task metrics (analysis/sr_metrics.py) against NLTK called directly.

The expected values are what the SR evaluation script computes, recomputed here with the NLTK
functions it calls: ``corpus_bleu`` with ``SmoothingFunction().method2``, ``corpus_nist(n=4)``,
``sentence_bleu`` / ``sentence_nist`` per sentence, and ``nltk.metrics.edit_distance`` for DIST
(characters of the space-joined tokens, and words), on lowercased whitespace-split ``# text``.
Real data: the five ADAPT runs against UD v2.3 en_ewt test, through the Python functions and through
the warehouse (``ingest outputs``, then the views ``sr_submission_scores``, ``sr_sentence_scores`` and
``sacrebleu_scores``, the last against sacrebleu's corpus_bleu and corpus_chrf called directly).
"""

from __future__ import annotations

import csv
import math
import warnings

import numpy as np
import pytest
import sacrebleu
from nltk.metrics import edit_distance
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from nltk.translate.nist_score import corpus_nist, sentence_nist

import evalhouse
from evalhouse.analysis.sr_metrics import sr_reference, sr_scores, sr_sentence_scores, sr_statistics
from tests.conftest import shared

METHOD2 = SmoothingFunction().method2


def script_scores(hyp_texts, ref_texts, chars=True):
    """What the evaluation script prints, from NLTK, before rounding."""
    hyps = [(h or "").lower().split() for h in hyp_texts]
    refs = [[r.lower().split()] for r in ref_texts]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {"bleu": corpus_bleu(refs, hyps, smoothing_function=METHOD2), "nist": corpus_nist(refs, hyps, n=4)}
    words = sum(max(len(r[0]), len(h)) for r, h in zip(refs, hyps))
    out["dist_words"] = 1 - sum(edit_distance(r[0], h) for r, h in zip(refs, hyps)) / words
    if chars:
        joined = [(" ".join(h), " ".join(r[0])) for h, r in zip(hyps, refs)]
        total = sum(max(len(a), len(b)) for a, b in joined)
        out["dist"] = 1 - sum(edit_distance(a, b) for a, b in joined) / total
    return out


def nltk_sentence(hyp_text, ref_text):
    h, r = (hyp_text or "").lower().split(), ref_text.lower().split()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        b = sentence_bleu([r], h, smoothing_function=METHOD2)
    try:
        n = sentence_nist([r], h, n=4)
    except ZeroDivisionError:
        n = math.nan
    jh, jr = " ".join(h), " ".join(r)
    d = 1 - edit_distance(jh, jr) / max(len(jh), len(jr)) if max(len(jh), len(jr)) else math.nan
    dw = 1 - edit_distance(r, h) / max(len(r), len(h)) if max(len(r), len(h)) else math.nan
    return {"bleu": b, "nist": n, "dist": d, "dist_words": dw}


HYPS = [
    "What if Google morphed into GoogleOS?",
    "the cat sat on the mat .",
    "",
    "Straße  und\u00a0Weg ja",
    "a b",
    "Ein Haus",
    None,
]
REFS = [
    "What if Google Morphed Into GoogleOS?",
    "The cat sat on a mat.",
    "nothing came out",
    "strasse und weg ja",
    "a b c d e",
    "Ein Haus steht da .",
    "missing output",
]


def test_small_corpus_equals_nltk():
    s = sr_statistics(HYPS, REFS)
    got, want = sr_scores(s), script_scores(HYPS, REFS)
    for metric in ("bleu", "nist", "dist", "dist_words"):
        assert got[metric] == pytest.approx(want[metric], abs=1e-12), metric
    per = sr_sentence_scores(s)
    for k, (h, r) in enumerate(zip(HYPS, REFS)):
        want = nltk_sentence(h, r)
        for metric, value in want.items():
            if math.isnan(value):
                assert math.isnan(per[metric][k]), (metric, h, r)
            else:
                assert per[metric][k] == pytest.approx(value, abs=1e-12), (metric, h, r)


def test_a_prepared_reference_gives_the_same_statistics():
    """sr_reference(refs) is computed once per corpus and reused for every submission."""
    prepared = sr_reference(REFS)
    for hyps in (HYPS, REFS, [None] * len(REFS)):
        a, b = sr_statistics(hyps, REFS), sr_statistics(hyps, prepared)
        for field in a.__dataclass_fields__:
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    with pytest.raises(ValueError, match="differ in number"):
        sr_statistics(HYPS[:2], prepared)


def test_identical_corpus_is_perfect_and_punctuation_stays_attached():
    texts = ["What if Google morphed into GoogleOS?", "It is done, and it works.", "Yes, four words here"]
    s = sr_statistics(texts, texts)
    scores = sr_scores(s)
    assert (scores["bleu"], scores["dist"], scores["dist_words"]) == (1.0, 1.0, 1.0)
    # "googleos?" is one token: the tokenised output "googleos ?" loses matches the detokenised one has
    tok = sr_statistics(["What if Google morphed into GoogleOS ?"], texts[:1])
    assert tok.hyp_len[0] == 7 and tok.bleu_matches[0, 0] == 5


def _texts(path):
    return [x[9:] for x in path.read_text(encoding="utf-8").splitlines() if x.startswith("# text = ")]


@pytest.fixture(scope="module")
def adapt(tmp_path_factory):
    """UD v2.3 en_ewt test and the five ADAPT runs ingested in one transaction (team adapt, run = folder)."""
    reference = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    runs = sorted(shared("sr-outputs", "adapt-ewt-test").glob("*/en_out.txt"))
    assert len(runs) == 5
    manifest = tmp_path_factory.mktemp("sr") / "runs.csv"
    with open(manifest, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["path", "team", "run"])
        writer.writerows([run, "adapt", run.parent.name] for run in runs)
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([reference], corpus="en_ewt-test")
        wh.ingest_outputs(manifest=manifest, reference="en_ewt-test")
        yield wh, _texts(reference), runs


def _printed(scores: dict) -> tuple[str, str]:
    """The SR'19 script prints BLEU and DIST to 4 decimals and NIST to 2; ADAPT's SR'18 copy prints
    BLEU and word DIST to 3 and NIST to 6."""
    sr19 = f"{scores['bleu']:.4f} {scores['nist']:.2f}" + (f" {scores['dist']:.4f}" if "dist" in scores else "")
    return sr19, f"{scores['bleu']:.3f} {scores['nist']:.6f} {scores['dist_words']:.3f}"


@pytest.mark.realdata
def test_adapt_runs_equal_the_script_to_the_printed_digits(adapt):
    """Every ADAPT run: corpus BLEU, NIST and word DIST from NLTK directly, to 1e-9 and to the printed
    digits of both script versions, by the Python functions and by the view sr_submission_scores;
    character DIST from NLTK on two runs (its Python edit distance takes about 10 s per run)."""
    wh, refs, runs = adapt
    view = {
        r: dict(zip(("bleu", "nist", "dist", "dist_words"), v))
        for r, *v in wh.sql(
            "select run, bleu, nist, dist, dist_words from sr_submission_scores where team = 'adapt'"
        ).fetchall()
    }
    assert sorted(view) == sorted(run.parent.name for run in runs)
    for k, run in enumerate(runs):
        hyps = _texts(run)
        got = sr_scores(sr_statistics(hyps, refs))
        want = script_scores(hyps, refs, chars=k in (0, 1))
        stored = view[run.parent.name]
        for metric, value in want.items():
            assert abs(got[metric] - value) <= 1e-9, (run.parent.name, metric, got[metric], value)
            assert abs(stored[metric] - value) <= 1e-9, (run.parent.name, metric, stored[metric], value)
        assert _printed({m: got[m] for m in want}) == _printed(want)
        assert _printed({m: stored[m] for m in want}) == _printed(want)


@pytest.mark.realdata
def test_adapt_sentence_scores_equal_nltk(adapt):
    """Per sentence on one run (BLEU, NIST where NLTK defines it, both DISTs), by the Python functions and
    by the view sr_sentence_scores."""
    wh, refs, runs = adapt
    run = runs[-1]
    hyps = _texts(run)
    stats = sr_statistics(hyps, refs)
    per = sr_sentence_scores(stats)
    view = wh.sql(
        "select bleu, nist, dist, dist_words from sr_sentence_scores where run = $r order by position",
        {"r": run.parent.name},
    ).fetchall()
    assert len(view) == len(hyps)
    undefined = 0
    for k in range(0, len(hyps), 3):
        want = nltk_sentence(hyps[k], refs[k])
        stored = dict(zip(("bleu", "nist", "dist", "dist_words"), view[k]))
        for metric, value in want.items():
            if math.isnan(value):
                undefined += 1
                assert math.isnan(per[metric][k]) and stored[metric] is None
            else:
                assert abs(per[metric][k] - value) <= 1e-12, (k, metric)
                assert abs(stored[metric] - value) <= 1e-12, (k, metric)
    assert undefined > 0
    # NLTK's sentence_nist divides by zero exactly when the output has fewer than 4 tokens
    np.testing.assert_array_equal(np.isnan(per["nist"]), stats.hyp_len < 4)


@pytest.mark.realdata
def test_adapt_sacrebleu_view_equals_sacrebleu(adapt):
    """The view sacrebleu_scores against sacrebleu's module-level corpus_bleu and corpus_chrf on the same
    texts: scores, one-line reports and signatures identical."""
    wh, refs, runs = adapt
    stored = {
        r: v
        for r, *v in wh.sql(
            "select run, bleu, bleu_report, bleu_signature, chrf, chrf_signature from sacrebleu_scores"
        ).fetchall()
    }
    for run in runs:
        hyps = _texts(run)
        bleu, chrf = sacrebleu.corpus_bleu(hyps, [refs]), sacrebleu.corpus_chrf(hyps, [refs])
        assert stored[run.parent.name] == [
            bleu.score,
            str(bleu),
            f"nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:{sacrebleu.__version__}",
            chrf.score,
            f"nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:{sacrebleu.__version__}",
        ]
