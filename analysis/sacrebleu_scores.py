"""Standard sacreBLEU corpus BLEU and chrF of one submission, with sacrebleu's signature strings.

    >>> from evalhouse.analysis.sacrebleu_scores import sacrebleu_scores
    >>> r = sacrebleu_scores(["The cat sat on the mat."], ["The cat sat on a mat."])
    >>> r.bleu_text
    'BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)'
    >>> r.bleu_signature
    'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0'

sacrebleu (Post 2018) is the reference implementation and is called, not rewritten: its default
BLEU (13a tokenisation, case-sensitive, exponential smoothing) and chrF2 (character 6-grams,
beta 2, no word n-grams) on the detokenised texts, one reference per sentence. The score is
sacrebleu's (0-100), and the signature says how it was made; a number without its signature is not
comparable with anyone else's (sacrebleu's lesson). A missing output is scored as an empty string.

The per-sentence sufficient statistics are sacrebleu's own (``_extract_corpus_statistics``: for BLEU
hyp_len, ref_len, correct and total n-grams n = 1..4; for chrF, per order, hypothesis, reference and
matched n-grams); summed, they give the corpus score back through sacrebleu
(:func:`score_from_statistics`), which is what a subset or a resample needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass
class SacrebleuResult:
    bleu: float  # sacrebleu's corpus BLEU, 0-100
    bleu_signature: str  # e.g. nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0
    bleu_text: str  # sacrebleu's one-line report (precisions, BP, ratio, lengths)
    chrf: float  # sacrebleu's corpus chrF, 0-100
    chrf_signature: str  # e.g. nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0
    chrf_text: str
    bleu_statistics: np.ndarray  # (sentences, 10) int: hyp_len, ref_len, correct 1..4, total 1..4
    chrf_statistics: np.ndarray  # (sentences, 18) int: per character order 1..6, hyp, ref, match


def _metrics(lowercase: bool, tokenize: str, references: list[list[str]] | None = None):
    # sacrebleu (~0.07 s to import) when a score is computed: every warehouse connection imports the
    # output scorer, which imports this module, and must not pay for it
    from sacrebleu.metrics import BLEU, CHRF

    if tokenize not in BLEU.TOKENIZERS:
        raise ValueError(f"unknown sacrebleu tokenizer {tokenize!r}; valid: {', '.join(BLEU.TOKENIZERS)}")
    # force=True only silences sacrebleu's printed warning about outputs that end in " ." (it changes
    # neither the score nor the signature); evalhouse's ingest says it in its summary instead.
    # references: sacrebleu's documented reference cache, computed once for every system scored
    return (
        BLEU(lowercase=lowercase, tokenize=tokenize, force=True, references=references),
        CHRF(lowercase=lowercase, references=references),
    )


@dataclass
class SacrebleuReference:
    """A reference corpus prepared once (sacrebleu's reference cache: its tokenised n-grams and
    lengths), for scoring many submissions against it; half of sacrebleu's work per submission."""

    size: int
    bleu_metric: object
    chrf_metric: object


def sacrebleu_reference(
    references: Sequence[str], *, lowercase: bool = False, tokenize: str = "13a"
) -> SacrebleuReference:
    """Prepare the reference texts (in order) once; pass the result to :func:`sacrebleu_scores`."""
    refs = [[r if r is not None else "" for r in references]]
    return SacrebleuReference(len(references), *_metrics(lowercase, tokenize, refs))


def sacrebleu_scores(
    hypotheses: Sequence[str | None],
    references: Sequence[str] | SacrebleuReference,
    *,
    lowercase: bool = False,
    tokenize: str = "13a",
) -> SacrebleuResult:
    """sacreBLEU BLEU and chrF of a submission: output texts against reference texts, in order
    (``references``: the texts, or :func:`sacrebleu_reference` of them, whose options then apply)."""
    prepared = (
        references
        if isinstance(references, SacrebleuReference)
        else sacrebleu_reference(references, lowercase=lowercase, tokenize=tokenize)
    )
    if len(hypotheses) != prepared.size:
        raise ValueError("hypotheses and references differ in number")
    hyps = [h if h is not None else "" for h in hypotheses]
    bleu_metric, chrf_metric = prepared.bleu_metric, prepared.chrf_metric
    # sacrebleu's corpus_score is exactly: per-sentence statistics (against the cached references),
    # then _aggregate_and_compute; doing the two steps here keeps the statistics without computing
    # them twice
    bleu_stats = bleu_metric._extract_corpus_statistics(hyps, None)
    chrf_stats = chrf_metric._extract_corpus_statistics(hyps, None)
    bleu = bleu_metric._aggregate_and_compute(bleu_stats)
    chrf = chrf_metric._aggregate_and_compute(chrf_stats)
    return SacrebleuResult(
        bleu=bleu.score,
        bleu_signature=str(bleu_metric.get_signature()),
        bleu_text=str(bleu),
        chrf=chrf.score,
        chrf_signature=str(chrf_metric.get_signature()),
        chrf_text=str(chrf),
        bleu_statistics=np.array(bleu_stats, dtype=np.int64).reshape(len(hyps), -1),
        chrf_statistics=np.array(chrf_stats, dtype=np.int64).reshape(len(hyps), -1),
    )


def score_from_statistics(
    metric: str, statistics: np.ndarray, *, lowercase: bool = False, tokenize: str = "13a"
) -> float:
    """sacrebleu's corpus score from summed per-sentence statistics (``metric``: 'bleu' or 'chrf')."""
    bleu_metric, chrf_metric = _metrics(lowercase, tokenize)
    chosen = {"bleu": bleu_metric, "chrf": chrf_metric}.get(metric)
    if chosen is None:
        raise ValueError(f"unknown metric {metric!r}; valid: bleu, chrf")
    total = [int(x) for x in np.asarray(statistics, dtype=np.int64).sum(axis=0)]
    return chosen._compute_score_from_stats(total).score


@dataclass
class PairedResult:
    """sacrebleu's paired test over systems, as ``sacrebleu --paired-bs`` / ``--paired-ar`` computes it."""

    scores: list[float]  # corpus score of each system (0-100)
    means: list[float | None]  # mean of its bootstrap scores (paired-bs; None for paired-ar)
    cis: list[float | None]  # half-width of sacrebleu's 95% interval around that mean
    p: dict[tuple[int, int], float]  # (a, b) with a < b -> p


def paired_tests(
    statistics: Sequence[np.ndarray],
    metric: str,
    test: str,
    n_samples: int,
    seed: int,
    *,
    lowercase: bool = False,
    tokenize: str = "13a",
) -> PairedResult:
    """sacrebleu's own paired test of every pair of systems, from their per-sentence statistics
    (:class:`SacrebleuResult`'s ``bleu_statistics`` / ``chrf_statistics``), with the draws and formulas of
    ``sacrebleu.significance`` (2.x): for ``paired-bootstrap``, one ``default_rng(seed).choice`` of sentence
    indices shared by every system, each resample's score from the float32 sums, sacrebleu's
    ``estimate_ci`` and ``_compute_p_value`` on the centred absolute differences; for
    ``approximate-randomisation``, ``default_rng(seed).integers(2)`` swap masks, the scores of the two
    shuffled pseudo-systems and ``_compute_p_value`` on their absolute differences. The numbers equal
    ``sacrebleu --paired-bs`` / ``--paired-ar`` with the same seed (``SACREBLEU_SEED``) and resamples
    (tests/test_sacrebleu_scores.py runs sacrebleu's PairedTest beside). The resampled scores are computed
    once per system for the bootstrap (the pairs share the draws), and the statistics are not materialised
    for all resamples at once (sacrebleu's ``stats[idxs]``; the same sums, one resample at a time)."""
    from sacrebleu.significance import _compute_p_value, estimate_ci

    bleu_metric, chrf_metric = _metrics(lowercase, tokenize)
    chosen = {"bleu": bleu_metric, "chrf": chrf_metric}[metric]
    stats = [np.asarray(x, dtype=np.int64) for x in statistics]
    scores = [chosen._aggregate_and_compute(x.tolist()).score for x in stats]
    n = len(stats[0]) if stats else 0
    pairs = [(a, b) for a in range(len(stats)) for b in range(a + 1, len(stats))]
    if test == "paired-bootstrap":
        idxs = np.random.default_rng(seed).choice(n, size=(n_samples, n), replace=True)
        resampled = []
        for x in stats:
            x32 = np.array(x, dtype="float32")
            resampled.append(np.array([chosen._compute_score_from_stats(x32[i].sum(0)).score for i in idxs]))
        means, cis = zip(*(estimate_ci(r) for r in resampled)) if resampled else ((), ())
        p = {}
        for a, b in pairs:
            diffs = np.abs(resampled[b] - resampled[a])
            p[(a, b)] = _compute_p_value(diffs - diffs.mean(), abs(scores[a] - scores[b]))
        return PairedResult(scores, [float(m) for m in means], [float(c) for c in cis], p)
    if test == "approximate-randomisation":
        p = {}
        for a, b in pairs:
            pos_sel = np.random.default_rng(seed).integers(2, size=(n_samples, n), dtype=bool)
            neg_sel = ~pos_sel
            shuf_a = pos_sel @ stats[a] + neg_sel @ stats[b]
            shuf_b = neg_sel @ stats[a] + pos_sel @ stats[b]
            scores_a = np.array([chosen._aggregate_and_compute(x).score for x in shuf_a[:, None]])
            scores_b = np.array([chosen._aggregate_and_compute(x).score for x in shuf_b[:, None]])
            p[(a, b)] = _compute_p_value(np.abs(scores_a - scores_b), abs(scores[a] - scores[b]))
        return PairedResult(scores, [None] * len(stats), [None] * len(stats), p)
    raise ValueError(f"unknown test '{test}'")


def version() -> str:
    """The installed sacrebleu's version (also the last field of its signatures)."""
    # late for the same reason as in _metrics
    import sacrebleu

    return sacrebleu.__version__
