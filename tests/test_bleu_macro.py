"""BLEU-4's combination is written once, as the DuckDB macro ``bleu_from_statistics`` (sql/macros/), which every
view calls; the numpy kernel :func:`evalhouse.analysis.bleu.bleu_from_statistics` (the bootstrap's loop) must
equal it, and both must equal NLTK's ``sentence_bleu`` and ``corpus_bleu`` with smoothing method 2, the peer."""

from __future__ import annotations

import random

import numpy as np
import pytest
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

from evalhouse.analysis.bleu import bleu_from_statistics, bleu_statistics
from evalhouse.warehouse import macro_files, view_files

METHOD2 = SmoothingFunction().method2


def macro(wh, h, r, m, t) -> float:
    return wh.sql(
        "SELECT bleu_from_statistics($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)", params=[h, r, *m, *t]
    ).fetchone()[0]


def pairs(seed: int, k: int):
    rng = random.Random(seed)
    words = "a b c d e f".split()
    out = []
    for _ in range(k):
        ref = [rng.choice(words) for _ in range(rng.randint(1, 12))]
        hyp = [rng.choice(words) for _ in range(rng.randint(1, 12))]
        out.append((hyp, ref))
    return out


@pytest.mark.slow
def test_the_macro_equals_nltk_sentence_bleu_and_the_numpy_kernel(wh):
    data = pairs(7, 60)
    s = bleu_statistics([h for h, _ in data], [r for _, r in data])
    kernel = bleu_from_statistics(s.hyp_len, s.ref_len, s.matches, s.totals)
    zeros = 0
    for i, (hyp, ref) in enumerate(data):
        expected = sentence_bleu([ref], hyp, smoothing_function=METHOD2)
        got = macro(
            wh, int(s.hyp_len[i]), int(s.ref_len[i]), [int(x) for x in s.matches[i]], [int(x) for x in s.totals[i]]
        )
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)
        assert kernel[i] == pytest.approx(got, rel=1e-12, abs=1e-15)
        zeros += got == 0
    assert 0 < zeros < len(data)  # both branches (no unigram match, and a score) are exercised


def test_the_macro_over_summed_statistics_equals_nltk_corpus_bleu(wh):
    data = pairs(11, 40)
    s = bleu_statistics([h for h, _ in data], [r for _, r in data])
    # NLTK's corpus_bleu: every sentence counts at least 1 in each n-gram total
    totals = np.maximum(s.totals, 1).sum(axis=0)
    got = macro(
        wh,
        int(s.hyp_len.sum()),
        int(s.ref_len.sum()),
        [int(x) for x in s.matches.sum(axis=0)],
        [int(x) for x in totals],
    )
    expected = corpus_bleu([[r] for _, r in data], [h for h, _ in data], smoothing_function=METHOD2)
    assert got == pytest.approx(expected, rel=1e-12)
    kernel = bleu_from_statistics(s.hyp_len.sum(), s.ref_len.sum(), s.matches.sum(axis=0), totals)
    assert float(kernel) == pytest.approx(got, rel=1e-12)


def test_every_view_that_scores_bleu_calls_the_macro_and_none_restates_the_formula():
    callers = {f.name for f in view_files() if "bleu_from_statistics(" in f.text}
    assert callers == {"sentence_scores", "submission_scores", "sr_sentence_scores", "sr_submission_scores"}
    for f in view_files():
        code = "\n".join(line.split("--")[0] for line in f.text.splitlines())
        assert "0.25 * ln(" not in code.replace("  ", " "), f.name  # the geometric mean of BLEU's precisions
    assert [f.name for f in macro_files()] == ["bleu_from_statistics"]
