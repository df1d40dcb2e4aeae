"""Sentence BLEU-4 with NLTK's smoothing method 2, computed for many sentences at once.

    $ evalhouse sql "select sentence_bleu(['I','enjoy','my','time'], ['I','enjoy','my','time','at','school'])"
    0.7165313105737893

Definition (Papineni et al. 2002; smoothing: Lin & Och 2004, "method 2" of Chen & Cherry 2014 as
NLTK 3.x implements it, which is what seed 000 section 4 uses):

    m_n = clipped n-gram matches, t_n = max(1, hypothesis n-grams), c = hypothesis length,
    r = reference length
    p_1 = m_1 / t_1,   p_n = (m_n + 1) / (t_n + 1) for n = 2..4
    BLEU = BP * exp(sum_n 1/4 * ln p_n),  BP = 1 if c > r else exp(1 - r / c)
    BLEU = 0 when m_1 = 0 (this covers the empty hypothesis).

So an identical sentence shorter than four tokens scores below 1 (for three tokens p_4 = 1/2 and
BLEU = 0.5 ** 0.25 = 0.8409), exactly as NLTK does.

The core is :func:`bleu_statistics`: per-sentence sufficient statistics (hypothesis and reference
length, matches and totals per order), computed with numpy over a whole batch: tokens are
factorised to integers, n-grams to integers order by order, and clipped counts come from sorted
(sentence, n-gram) keys. Scores (:func:`bleu_from_statistics`) and the SQL view
``sentence_scores`` both read those statistics, so they are computed once (sacrebleu's design).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Sequence

import numpy as np

MAX_ORDER = 4
SIGNATURE = "bleu:nltk-method2|order:4|weights:uniform|evalhouse-bleu:1"


@dataclass
class BleuStatistics:
    """Arrays of shape (sentences,) and (sentences, 4)."""

    hyp_len: np.ndarray
    ref_len: np.ndarray
    matches: np.ndarray
    totals: np.ndarray


def _flatten(sentences: Sequence[Sequence[str]]):
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    return lengths, list(chain.from_iterable(sentences))


def bleu_statistics(hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]]) -> BleuStatistics:
    """Sufficient statistics of sentence BLEU for each (hypothesis, reference) pair of token lists."""
    import pandas as pd

    if len(hypotheses) != len(references):
        raise ValueError("hypotheses and references differ in number")
    h_len, h_tok = _flatten(hypotheses)
    r_len, r_tok = _flatten(references)
    codes, _ = pd.factorize(np.array(h_tok + r_tok, dtype=object))
    return bleu_statistics_from_ids(codes[:len(h_tok)], h_len, codes[len(h_tok):], r_len)


def _dense(values: np.ndarray) -> np.ndarray:
    """Dense integer codes 0..k-1 of int64 values (equal values, equal codes), by sorting.

    Sorting beats hashing here: the values are mostly ordered by sentence already."""
    if len(values) == 0:
        return values.astype(np.int64)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    group = np.empty(len(values), dtype=np.int64)
    group[0] = 0
    np.cumsum(ordered[1:] != ordered[:-1], out=group[1:])
    codes = np.empty_like(group)
    codes[order] = group
    return codes


def bleu_statistics_from_ids(h_ids, h_len, r_ids, r_len) -> BleuStatistics:
    """The same from integer token ids (equal ids = equal tokens), flattened, with sentence lengths.

    Every n-gram gets an exact integer key that includes its sentence: unigram keys factorise
    (sentence, token); the key of an n-gram factorises (key of its first n-1 tokens, key of its last
    token). Only n-grams whose (n-1)-prefix occurs on both sides can match, so each order works on
    the survivors of the previous one. Counts are bincounts of the keys; clipped matches are
    sum(min(count_hyp, count_ref)) per sentence.
    """
    h_ids = np.asarray(h_ids, dtype=np.int64)
    r_ids = np.asarray(r_ids, dtype=np.int64)
    h_len = np.asarray(h_len, dtype=np.int64)
    r_len = np.asarray(r_len, dtype=np.int64)
    k = len(h_len)
    if len(r_len) != k:
        raise ValueError("hypotheses and references differ in number")
    matches = np.zeros((k, MAX_ORDER), dtype=np.int64)
    totals = np.maximum(h_len[:, None] - np.arange(MAX_ORDER)[None, :], 0)
    n_h = len(h_ids)
    sent = np.concatenate((np.repeat(np.arange(k, dtype=np.int64), h_len),
                           np.repeat(np.arange(k, dtype=np.int64), r_len)))
    ids = np.concatenate((h_ids, r_ids))
    vocab = int(ids.max(initial=0)) + 1
    unigram = _dense(sent * vocab + ids)
    # remaining tokens after each position within its sentence (to know which n-grams exist)
    lengths = np.concatenate((h_len, r_len))
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    remaining = np.repeat(starts + lengths, lengths) - np.arange(len(ids))
    is_hyp = np.arange(len(ids)) < n_h
    pos = np.arange(len(ids))  # positions where the current n-gram starts
    key = unigram
    width = int(unigram.max(initial=-1)) + 1
    for n in range(1, MAX_ORDER + 1):
        if n > 1:
            ok = remaining[pos] >= n
            pos, key = pos[ok], key[ok]
            if len(pos) == 0:
                break
            key = _dense(key * width + unigram[pos + n - 1])
        n_keys = int(key.max(initial=-1)) + 1
        hyp = is_hyp[pos]
        h_count = np.bincount(key[hyp], minlength=n_keys)
        r_count = np.bincount(key[~hyp], minlength=n_keys)
        clipped = np.minimum(h_count, r_count)
        key_sentence = np.empty(n_keys, dtype=np.int64)
        key_sentence[key] = sent[pos]
        matches[:, n - 1] = np.bincount(key_sentence, weights=clipped, minlength=k)
        # only n-grams whose key occurs on both sides can extend to a matching (n+1)-gram
        alive = clipped[key] > 0
        pos, key = pos[alive], key[alive]
        if len(pos) == 0:
            break
    return BleuStatistics(h_len, r_len, matches, totals)


def bleu_from_statistics(hyp_len, ref_len, matches, totals) -> np.ndarray:
    """Sentence BLEU (NLTK method 2) from sufficient statistics; works on arrays or scalars."""
    hyp_len = np.asarray(hyp_len, dtype=np.float64)
    ref_len = np.asarray(ref_len, dtype=np.float64)
    matches = np.asarray(matches, dtype=np.float64)
    totals = np.maximum(np.asarray(totals, dtype=np.float64), 1.0)
    p = np.empty_like(matches)
    p[..., 0] = matches[..., 0] / totals[..., 0]
    p[..., 1:] = (matches[..., 1:] + 1.0) / (totals[..., 1:] + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_sum = np.sum(0.25 * np.log(p), axis=-1)
        bp = np.where(hyp_len > ref_len, 1.0, np.exp(1.0 - ref_len / hyp_len))
        score = bp * np.exp(log_sum)
    return np.where(matches[..., 0] == 0, 0.0, score)


def sentence_bleu_many(hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]]) -> np.ndarray:
    """Sentence BLEU of each pair (equal to NLTK's ``sentence_bleu(..., method2)`` to 1e-12)."""
    s = bleu_statistics(hypotheses, references)
    return bleu_from_statistics(s.hyp_len, s.ref_len, s.matches, s.totals)


def sentence_bleu(hypothesis: Sequence[str], reference: Sequence[str]) -> float:
    """Sentence BLEU of one pair (NLTK method 2)."""
    return float(sentence_bleu_many([hypothesis], [reference])[0])


def sentence_bleu_arrow(hypotheses, references):
    """Vectorised DuckDB UDF body: two Arrow list<string> arrays in, one double array out.

    Tokens are dictionary-encoded by Arrow (no Python strings), then :func:`bleu_statistics_from_ids`.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    hypotheses = _combine(hypotheses)
    references = _combine(references)
    null = pc.or_(pc.is_null(hypotheses), pc.is_null(references))
    h_len = pc.fill_null(pc.list_value_length(hypotheses), 0).to_numpy(zero_copy_only=False)
    r_len = pc.fill_null(pc.list_value_length(references), 0).to_numpy(zero_copy_only=False)
    # flatten() skips null lists, whose length we counted as 0: consistent
    values = pa.concat_arrays([hypotheses.flatten(), references.flatten()])
    codes = pc.dictionary_encode(values).indices.to_numpy(zero_copy_only=False).astype(np.int64)
    n_h = int(h_len.sum())
    stats = bleu_statistics_from_ids(codes[:n_h], h_len, codes[n_h:], r_len)
    scores = bleu_from_statistics(stats.hyp_len, stats.ref_len, stats.matches, stats.totals)
    return pa.array(scores, type=pa.float64(), mask=null.to_numpy(zero_copy_only=False))


def _combine(array):
    import pyarrow as pa

    if isinstance(array, pa.ChunkedArray):
        return array.combine_chunks()
    return array
