"""The counting kernel of ``_bleu.c`` in plain Python: the fallback when evalhouse was installed
without a C compiler (the extension is optional in ``pyproject.toml``).

Same functions, same arguments, same results (``tests/test_bleu_fallback.py`` compares the two on
random and real inputs); only slower, by about the factor ``benchmarks/sentence_bleu.py`` reports
between the C kernel and NLTK. Each function fills ``out``, an int64 array of shape (pairs, 6) or
(pairs, 4), in place, as the C functions do:

- ``matches_of_*``: hypothesis length, reference length, clipped n-gram matches for n = 1..4;
- ``edit_distances_of_texts``: word edit distance, max of the word lengths, character edit distance of
  the tokens joined by single spaces, max of the character lengths.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

ORDER = 4


def _check(hypotheses, references, out, width: int) -> None:
    if len(hypotheses) != len(references):
        raise ValueError("hypotheses and references differ in number")
    if out.shape != (len(hypotheses), width):
        raise ValueError(f"out must hold {width} int64 per pair")


def _matches(hyp: Sequence, ref: Sequence) -> tuple[int, ...]:
    counts = []
    for n in range(1, ORDER + 1):
        h = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
        r = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
        counts.append(sum(min(c, r[g]) for g, c in h.items()))
    return (len(hyp), len(ref), *counts)


def matches_of_tokens(hypotheses, references, out) -> None:
    _check(hypotheses, references, out, 2 + ORDER)
    for j, (h, r) in enumerate(zip(hypotheses, references)):
        for t in (*h, *r):
            if not isinstance(t, str):
                raise TypeError("tokens must be str")
        out[j] = _matches(list(h), list(r))


def matches_of_texts(hypotheses, references, out) -> None:
    _check(hypotheses, references, out, 2 + ORDER)
    for j, (h, r) in enumerate(zip(hypotheses, references)):
        out[j] = _matches(h.split(), r.split())


def _arrow_lists(lists, strs, data) -> list[list[bytes]]:
    data = bytes(data)
    return [[data[strs[t] : strs[t + 1]] for t in range(lists[i], lists[i + 1])] for i in range(len(lists) - 1)]


def matches_of_arrow(h_lists, h_strs, h_data, r_lists, r_strs, r_data, out) -> None:
    hyps, refs = _arrow_lists(h_lists, h_strs, h_data), _arrow_lists(r_lists, r_strs, r_data)
    _check(hyps, refs, out, 2 + ORDER)
    for j, (h, r) in enumerate(zip(hyps, refs)):
        out[j] = _matches(h, r)


def _levenshtein(a: Sequence, b: Sequence) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        diagonal, row[0] = row[0], i
        for k, y in enumerate(b, start=1):
            diagonal, row[k] = row[k], min(row[k] + 1, row[k - 1] + 1, diagonal + (x != y))
    return row[-1]


def edit_distances_of_texts(hypotheses, references, out) -> None:
    _check(hypotheses, references, out, 4)
    for j, (h, r) in enumerate(zip(hypotheses, references)):
        hw, rw = h.split(), r.split()
        hc, rc = " ".join(hw), " ".join(rw)
        out[j] = (_levenshtein(hw, rw), max(len(hw), len(rw)), _levenshtein(hc, rc), max(len(hc), len(rc)))
