"""BLEU, NIST and DIST as the Surface Realisation shared tasks (SR'18, SR'19, SR'20) compute them.

    >>> from evalhouse.analysis.sr_metrics import sr_statistics, sr_scores
    >>> s = sr_statistics(["What if Google morphed into GoogleOS?"], ["What if Google Morphed Into GoogleOS?"])
    >>> sr_scores(s)
    {'bleu': 1.0, 'nist': ..., 'dist': 1.0, 'dist_words': 1.0, ...}

On the five real ADAPT runs of ``../shared/data/sr-outputs`` against UD v2.3 en_ewt test, see
docs/system-outputs.md, "Which number to quote".

What the shared task's evaluation script does (Bohnet & Mille's ``eval.py``; read, not copied):

* Texts: the ``# text`` (or ``#text``) line of each sentence of the system file and of the reference
  file, ``str.lower()``, then ``str.split()``: detokenised text, punctuation stays attached to its
  word ("googleos?" is one token). The reference is the original sentence text; for UD-based data
  the ``# text`` comment (SR'19 distributed references in the ``#sent_id`` / ``#text`` form of the
  output templates). A missing or empty output is an empty token list.
* BLEU: NLTK ``corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction().method2)``, 4-grams,
  uniform weights: clipped matches and totals summed over the corpus, each sentence adding at least
  1 to each total (NLTK's ``max(1, ...)``), then p1 = M1 / T1, pn = (Mn + 1) / (Tn + 1) for n = 2..4,
  BP = exp(1 - r / c) when c <= r. Per sentence, the same formula is NLTK's ``sentence_bleu``.
* NIST: NLTK ``corpus_nist(refs, hyps, n=4)`` (Doddington 2002 as NLTK implements it): information
  weight Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)), counts over ALL reference sentences
  of the corpus (for unigrams the numerator is the number of reference words);
  NIST = sum over n of (sum over sentences of Info-weighted clipped matches) / (sum of hypothesis
  n-grams), times exp(beta * log(ratio)^2) with beta = log(0.5) / log(1.5)^2 when ratio = c / r < 1.
  Per sentence: NLTK's ``sentence_nist`` (the weights from that one reference), undefined (NaN) where
  NLTK divides by zero (a hypothesis shorter than 4 tokens, an empty reference).
* DIST, two versions of the script exist, both kept:
  ``dist`` (the SR'19 script, which reads ``#text``): 1 - sum of character edit distances between
  the lowercased token sequences joined by single spaces / sum of max(character lengths);
  ``dist_words`` (the script in ADAPT's SR'18 repository, Henry-E/surface-realization-shallow-task
  ``modules/eval_Py3.py``): 1 - sum of word edit distances / sum of max(token counts). Edit distance
  = NLTK's ``edit_distance`` (unit insert, delete, substitute; no transpositions).
  Per sentence: 1 - distance / max length (undefined when both are empty).

Printed digits: the SR'19 script prints BLEU and DIST to 4 decimals (its results file: x100 to 2) and
NIST to 2; the SR'18 script in ADAPT's repository prints BLEU and DIST to 3 and NIST to 6.

Sufficient statistics (:class:`SrStatistics`) are per sentence, so BLEU and DIST of a corpus (or any
subset) are ratios of sums. NIST's numerators carry weights learned from the whole reference
corpus: their sums give the script's NIST only for the whole corpus they were computed on (a
subset, e.g. a bootstrap sample, needs :func:`sr_statistics` again on that subset).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np

try:
    from evalhouse.analysis import _bleu
except ImportError:  # installed without a C compiler: the same counts in Python, slower (see _bleu_python)
    from evalhouse.analysis import _bleu_python as _bleu
from evalhouse.analysis.bleu import MAX_ORDER, bleu_from_statistics, bleu_statistics_of_texts

SIGNATURE = (
    "sr-eval|tokens:lowercased,whitespace-split,punct-attached|bleu:nltk-corpus_bleu,method2,order:4|"
    "nist:nltk-corpus_nist,n:4,weights:reference-corpus|dist:chars,dist_words:words|evalhouse-sr:1"
)
_BETA = math.log(0.5) / math.log(1.5) ** 2


@dataclass
class SrStatistics:
    """Per-sentence sufficient statistics; arrays of shape (sentences,) or (sentences, 4)."""

    hyp_len: np.ndarray  # tokens of the lowercased, whitespace-split output
    ref_len: np.ndarray  # tokens of the lowercased, whitespace-split reference
    bleu_matches: np.ndarray  # clipped n-gram matches, n = 1..4
    bleu_totals: np.ndarray  # max(1, hypothesis n-grams), as NLTK's corpus_bleu counts them
    nist_matches: np.ndarray  # information-weighted clipped matches (weights of the whole reference corpus)
    nist_totals: np.ndarray  # hypothesis n-grams (no max(1, ...))
    word_edits: np.ndarray  # word edit distance
    word_lengths: np.ndarray  # max(hyp_len, ref_len)
    char_edits: np.ndarray  # character edit distance of the tokens joined by single spaces
    char_lengths: np.ndarray  # max of the two character lengths
    sentence_nist: np.ndarray  # NLTK sentence_nist (weights from the sentence's reference); NaN if undefined


def sr_tokens(text: str | None) -> list[str]:
    """The script's tokens: lowercased, split at white space; a missing text has none."""
    return text.lower().split() if text else []


def _ngram_counts(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def _weights(counts: Counter, words: int) -> dict[tuple[str, ...], float]:
    """Info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)); for unigrams the numerator is ``words``."""
    return {g: math.log((counts[g[:-1]] if len(g) > 1 else words) / c, 2) for g, c in counts.items()}


def information_weights(references: Sequence[list[str]]) -> dict[tuple[str, ...], float]:
    """NIST information weights of every n-gram (n = 1..4) of a reference corpus."""
    counts: Counter = Counter()
    for ref in references:
        for n in range(1, MAX_ORDER + 1):
            counts.update(_ngram_counts(ref, n))
    return _weights(counts, sum(len(r) for r in references))


@dataclass
class SrReference:
    """Everything the metrics need from a reference corpus alone, computed once per corpus:
    lowercased texts, tokens, n-gram counts per sentence and order, the corpus information weights
    and each sentence's own weights (for sentence NIST)."""

    texts: list[str]
    tokens: list[list[str]]
    ngrams: list[list[Counter]]
    weights: dict[tuple[str, ...], float]
    sentence_weights: list[dict[tuple[str, ...], float]]


def sr_reference(references: Sequence[str]) -> SrReference:
    """Prepare a reference corpus (the ``# text`` of each sentence, in order)."""
    texts = [r.lower() if r else "" for r in references]
    tokens = [t.split() for t in texts]
    ngrams = [[_ngram_counts(t, n) for n in range(1, MAX_ORDER + 1)] for t in tokens]
    corpus: Counter = Counter()
    sentence_weights = []
    for t, counts in zip(tokens, ngrams):
        own: Counter = Counter()
        for c in counts:
            own.update(c)
        corpus.update(own)
        sentence_weights.append(_weights(own, len(t)))
    return SrReference(texts, tokens, ngrams, _weights(corpus, sum(len(t) for t in tokens)), sentence_weights)


def _weighted_matches(hyp: list[str], ref_ngrams: list[Counter], weights) -> list[float]:
    """Per order: sum of Info(g) * min(count_hyp(g), count_ref(g)), in the hypothesis' n-gram order."""
    out = []
    for n in range(1, MAX_ORDER + 1):
        ref_counts = ref_ngrams[n - 1]
        out.append(sum(weights[g] * min(c, ref_counts[g]) for g, c in _ngram_counts(hyp, n).items() if g in ref_counts))
    return out


def _nist_penalty(hyp_words: float, ref_words: float) -> float:
    ratio = hyp_words / ref_words
    if 0 < ratio < 1:
        return math.exp(_BETA * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


def nist_from_sums(matches: Sequence[float], totals: Sequence[float], hyp_words: float, ref_words: float) -> float:
    """NIST from corpus sums of weighted matches and hypothesis n-grams per order; NaN if undefined."""
    if ref_words == 0 or any(t == 0 for t in totals):
        return math.nan
    return float(sum(m / t for m, t in zip(matches, totals)) * _nist_penalty(hyp_words, ref_words))


def nist_from_sum_arrays(
    matches: np.ndarray, totals: np.ndarray, hyp_words: np.ndarray, ref_words: np.ndarray
) -> np.ndarray:
    """:func:`nist_from_sums` over arrays of corpus sums (``matches``, ``totals``: (..., 4)), as the view
    sr_submission_scores computes it: NaN where a total or the reference length is 0."""
    matches, totals = np.asarray(matches, dtype=float), np.asarray(totals, dtype=float)
    hyp_words, ref_words = np.asarray(hyp_words, dtype=float), np.asarray(ref_words, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        penalty = np.where(hyp_words < ref_words, np.exp(_BETA * np.log(hyp_words / ref_words) ** 2), 1.0)
        nist = (matches / totals).sum(axis=-1) * penalty
    return np.where((ref_words == 0) | (totals == 0).any(axis=-1), np.nan, nist)


def sr_statistics(hypotheses: Sequence[str | None], references: Sequence[str] | SrReference) -> SrStatistics:
    """Statistics of each (output text, reference text) pair; the references are the whole corpus
    (texts, or :func:`sr_reference` of them to reuse across submissions)."""
    ref = references if isinstance(references, SrReference) else sr_reference(references)
    if len(hypotheses) != len(ref.texts):
        raise ValueError("hypotheses and references differ in number")
    hyp_texts = [h.lower() if h else "" for h in hypotheses]
    b = bleu_statistics_of_texts(hyp_texts, ref.texts)
    edits = np.empty((len(hyp_texts), 4), dtype=np.int64)
    _bleu.edit_distances_of_texts(hyp_texts, ref.texts, edits)
    hyps = [h.split() for h in hyp_texts]
    nist_matches = np.array(
        [_weighted_matches(h, r, ref.weights) for h, r in zip(hyps, ref.ngrams)], dtype=np.float64
    ).reshape(len(hyps), MAX_ORDER)
    sentence_nist = np.array(
        [_sentence_nist(h, r, n, w) for h, r, n, w in zip(hyps, ref.tokens, ref.ngrams, ref.sentence_weights)],
        dtype=np.float64,
    )
    return SrStatistics(
        hyp_len=b.hyp_len,
        ref_len=b.ref_len,
        bleu_matches=b.matches,
        bleu_totals=np.maximum(b.totals, 1),
        nist_matches=nist_matches,
        nist_totals=b.totals,
        word_edits=edits[:, 0],
        word_lengths=edits[:, 1],
        char_edits=edits[:, 2],
        char_lengths=edits[:, 3],
        sentence_nist=sentence_nist,
    )


def _sentence_nist(hyp: list[str], ref: list[str], ref_ngrams: list[Counter], weights) -> float:
    totals = [max(0, len(hyp) - n + 1) for n in range(1, MAX_ORDER + 1)]
    if not ref or 0 in totals:
        return math.nan
    return nist_from_sums(_weighted_matches(hyp, ref_ngrams, weights), totals, len(hyp), len(ref))


def corpus_bleu_from_sums(matches, totals, hyp_words, ref_words) -> float:
    """NLTK corpus_bleu with method 2 from corpus sums (totals already max(1, .) per sentence)."""
    return float(bleu_from_statistics(hyp_words, ref_words, np.asarray(matches), np.asarray(totals)))


def sr_scores(s: SrStatistics) -> dict[str, float]:
    """The script's corpus BLEU, NIST, DIST (characters) and DIST (words), with the configuration."""
    hyp_words, ref_words = int(s.hyp_len.sum()), int(s.ref_len.sum())
    char_total, word_total = int(s.char_lengths.sum()), int(s.word_lengths.sum())
    return {
        "bleu": corpus_bleu_from_sums(s.bleu_matches.sum(axis=0), s.bleu_totals.sum(axis=0), hyp_words, ref_words),
        "nist": float(nist_from_sums(s.nist_matches.sum(axis=0), s.nist_totals.sum(axis=0), hyp_words, ref_words)),
        "dist": 1 - int(s.char_edits.sum()) / char_total if char_total else math.nan,
        "dist_words": 1 - int(s.word_edits.sum()) / word_total if word_total else math.nan,
        "sentences": len(s.hyp_len),
        "configuration": SIGNATURE,
    }


def sr_sentence_scores(s: SrStatistics) -> dict[str, np.ndarray]:
    """Per sentence: BLEU (NLTK sentence_bleu, method 2), NIST (sentence_nist), DIST and DIST (words)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return {
            "bleu": bleu_from_statistics(s.hyp_len, s.ref_len, s.bleu_matches, s.bleu_totals),
            "nist": s.sentence_nist,
            "dist": np.where(s.char_lengths > 0, 1 - s.char_edits / s.char_lengths, np.nan),
            "dist_words": np.where(s.word_lengths > 0, 1 - s.word_edits / s.word_lengths, np.nan),
        }
