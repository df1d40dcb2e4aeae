"""Sentence BLEU-4 with NLTK's smoothing method 2, computed for many sentences at once.

    $ evalhouse sql "select sentence_bleu(['I','enjoy','my','time'], ['I','enjoy','my','time','at','school'])"
    0.7165313105737893

Definition (Papineni et al. 2002; smoothing: Lin & Och 2004, "method 2" of Chen & Cherry 2014 as
NLTK 3.x implements it, which is what Shimorina, Parmentier & Gardent (2021, section 4) use):

    m_n = clipped n-gram matches, t_n = max(1, hypothesis n-grams), c = hypothesis length,
    r = reference length
    p_1 = m_1 / t_1,   p_n = (m_n + 1) / (t_n + 1) for n = 2..4
    BLEU = BP * exp(sum_n 1/4 * ln p_n),  BP = 1 if c > r else exp(1 - r / c)
    BLEU = 0 when m_1 = 0 (this covers the empty hypothesis).

So an identical sentence shorter than four tokens scores below 1 (for three tokens p_4 = 1/2 and
BLEU = 0.5 ** 0.25 = 0.8409), exactly as NLTK does.

The core is :func:`bleu_statistics`: per-sentence sufficient statistics (hypothesis and reference
length, clipped matches and totals per order). Scores (:func:`bleu_from_statistics`) and the SQL
view ``sentence_scores`` both read those statistics, so they are computed once (sacrebleu's design).

The clipped matches are counted in C (``_bleu.c``), pair by pair, where the tokens already are:
Python strings (:func:`bleu_statistics`), whitespace-separated texts
(:func:`bleu_statistics_of_texts`, tokens as ``str.split()`` gives them) or the buffers of an Arrow
``list<string>`` column (the SQL function). Tokens are equal when their strings are (compared byte
for byte); every n-gram gets an exact key (the key of its first n-1 tokens and the id of its last
token), so hash collisions cannot change a count. Why C: with numpy, turning strings into integers
and the fixed cost of each call dominated (4x NLTK over a whole process); see
``benchmarks/sentence_bleu.py``. :func:`bleu_statistics_from_ids` is the independent numpy
implementation over integer ids, kept for integer inputs and as a cross-check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

try:
    from evalhouse.analysis import _bleu
except ImportError:  # installed without a C compiler: the same counts in Python, slower (see _bleu_python)
    from evalhouse.analysis import _bleu_python as _bleu

MAX_ORDER = 4
SIGNATURE = "bleu:nltk-method2|order:4|weights:uniform|evalhouse-bleu:1"


@dataclass
class BleuStatistics:
    """Arrays of shape (sentences,) and (sentences, 4)."""

    hyp_len: np.ndarray
    ref_len: np.ndarray
    matches: np.ndarray
    totals: np.ndarray


def _statistics(matches: np.ndarray) -> BleuStatistics:
    """BleuStatistics from the (pairs, 6) array of hyp length, ref length and matches n = 1..4."""
    hyp_len = matches[:, 0].copy()
    totals = np.maximum(hyp_len[:, None] - np.arange(MAX_ORDER)[None, :], 0)
    return BleuStatistics(hyp_len, matches[:, 1].copy(), np.ascontiguousarray(matches[:, 2:]), totals)


def bleu_statistics(hypotheses: Sequence[Sequence[str]], references: Sequence[Sequence[str]]) -> BleuStatistics:
    """Sufficient statistics of sentence BLEU for each (hypothesis, reference) pair of token lists.

    Tokens must be ``str``; two tokens are equal when the strings are equal."""
    out = np.empty((len(hypotheses), 2 + MAX_ORDER), dtype=np.int64)
    _bleu.matches_of_tokens(hypotheses, references, out)
    return _statistics(out)


def bleu_statistics_of_texts(hypotheses: Sequence[str], references: Sequence[str]) -> BleuStatistics:
    """The same for texts, each split into tokens at white space exactly as ``str.split()`` does.

    ``bleu_statistics_of_texts(["a b"], ["a  b c"])`` equals ``bleu_statistics([["a", "b"]],
    [["a", "b", "c"]])`` without building the token lists."""
    out = np.empty((len(hypotheses), 2 + MAX_ORDER), dtype=np.int64)
    _bleu.matches_of_texts(hypotheses, references, out)
    return _statistics(out)


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
    sent = np.concatenate(
        (np.repeat(np.arange(k, dtype=np.int64), h_len), np.repeat(np.arange(k, dtype=np.int64), r_len))
    )
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


def sentence_bleu_texts(hypotheses: Sequence[str], references: Sequence[str]) -> np.ndarray:
    """Sentence BLEU of each pair of texts tokenised by ``str.split()`` (NLTK method 2 on those tokens).

    >>> sentence_bleu_texts(["I enjoy my time"], ["I enjoy my time at school"])
    array([0.71653131])
    """
    s = bleu_statistics_of_texts(hypotheses, references)
    return bleu_from_statistics(s.hyp_len, s.ref_len, s.matches, s.totals)


def sentence_bleu(hypothesis: Sequence[str], reference: Sequence[str]) -> float:
    """Sentence BLEU of one pair (NLTK method 2)."""
    return float(sentence_bleu_many([hypothesis], [reference])[0])


def sentence_bleu_arrow(hypotheses, references):
    """Vectorised DuckDB UDF body: two Arrow list<string> arrays in, one double array out.

    The C kernel reads the Arrow buffers in place (no Python strings). A NULL list gives NULL; a
    NULL inside a list is an error (a token has to be a string)."""
    import pyarrow as pa

    h_lists, h_strs, h_data, h_null = _arrow_buffers(hypotheses)
    r_lists, r_strs, r_data, r_null = _arrow_buffers(references)
    out = np.empty((len(h_lists) - 1, 2 + MAX_ORDER), dtype=np.int64)
    _bleu.matches_of_arrow(h_lists, h_strs, h_data, r_lists, r_strs, r_data, out)
    stats = _statistics(out)
    scores = bleu_from_statistics(stats.hyp_len, stats.ref_len, stats.matches, stats.totals)
    return pa.array(scores, type=pa.float64(), mask=h_null | r_null)


_LIST_OF_STRING = None


def _arrow_buffers(array):
    """List offsets, string offsets (both int32, shifted for slicing), UTF-8 bytes and null mask."""
    import pyarrow as pa

    global _LIST_OF_STRING
    if _LIST_OF_STRING is None:
        _LIST_OF_STRING = pa.list_(pa.string())
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if not (pa.types.is_list(array.type) and pa.types.is_string(array.type.value_type)):
        array = array.cast(_LIST_OF_STRING)
    n = len(array)
    null = np.zeros(n, dtype=bool) if array.null_count == 0 else array.is_null().to_numpy(zero_copy_only=False)
    if array.buffers()[1] is None:  # an empty array
        return np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int32), b"", null
    lists = np.frombuffer(array.buffers()[1], dtype=np.int32, count=array.offset + n + 1)[array.offset :]
    child = array.values
    if child.null_count and array.flatten().null_count:
        raise ValueError("sentence_bleu: a token list holds a NULL; tokens must be strings")
    if child.buffers()[1] is None:  # no tokens at all
        strs = np.zeros(1, dtype=np.int32)
    else:
        strs = np.frombuffer(child.buffers()[1], dtype=np.int32, count=child.offset + len(child) + 1)[child.offset :]
    data = child.buffers()[2]
    return (np.ascontiguousarray(lists), np.ascontiguousarray(strs), data if data is not None else b"", null)
