"""Sentence BLEU's C kernel (analysis/_bleu.c) through its three inputs, against NLTK.

Expected values come from NLTK's ``sentence_bleu`` with ``SmoothingFunction().method2`` on the same
tokens (``str.split()`` for texts) and, for the sufficient statistics, from the independent numpy
implementation ``bleu_statistics_from_ids`` over integer ids made here with a dict. Real data: every
distinct WMT17 en-de and ADAPT SR pair (about 52,000) against NLTK.
"""

from __future__ import annotations

import warnings

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

import evalhouse
from evalhouse.analysis import bleu
from tests.conftest import shared

METHOD2 = SmoothingFunction().method2


def nltk_bleu(hypothesis, reference) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nltk_sentence_bleu([list(reference)], list(hypothesis), smoothing_function=METHOD2)


def statistics_by_ids(hypotheses, references):
    """Independent statistics: tokens to ids with a dict, then the numpy implementation."""
    ids: dict[str, int] = {}
    h = [ids.setdefault(t, len(ids)) for s in hypotheses for t in s]
    r = [ids.setdefault(t, len(ids)) for s in references for t in s]
    return bleu.bleu_statistics_from_ids(h, [len(s) for s in hypotheses], r, [len(s) for s in references])


# Strings of every PEP 393 kind (1, 2 and 4 bytes per character), equal prefixes, the empty token,
# and pairs whose bytes coincide across kinds ("ab" in UCS1 is 61 62; "\u6261" in UCS2 is 61 62).
VOCAB = ["Haus", "Hauß", "haus", "€uro", "猫", "𝄞", "ab", "\u6261", "", "a", "a b", "the", "cat"]
token_lists = st.lists(st.sampled_from(VOCAB), max_size=12)


@st.composite
def pairs(draw):
    ref = draw(token_lists)
    how = draw(st.sampled_from(["independent", "shuffled", "identical", "edited"]))
    if how == "independent":
        hyp = draw(token_lists)
    elif how == "shuffled":
        hyp = draw(st.permutations(ref))
    elif how == "identical":
        hyp = list(ref)
    else:
        hyp = list(ref)
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(hyp)))
            hyp.insert(i, draw(st.sampled_from(VOCAB)))
    return hyp, ref


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(batch=st.lists(pairs(), min_size=1, max_size=10))
def test_token_lists_equal_nltk_and_the_numpy_implementation(batch):
    hyps, refs = [h for h, _ in batch], [r for _, r in batch]
    got = bleu.bleu_statistics(hyps, refs)
    want = statistics_by_ids(hyps, refs)
    np.testing.assert_array_equal(got.matches, want.matches)
    np.testing.assert_array_equal(got.totals, want.totals)
    np.testing.assert_array_equal(got.hyp_len, want.hyp_len)
    np.testing.assert_array_equal(got.ref_len, want.ref_len)
    scores = bleu.sentence_bleu_many(hyps, refs)
    for (h, r), s in zip(batch, scores):
        assert abs(s - nltk_bleu(h, r)) <= 1e-12, (h, r)


# White space that str.split() splits at (ASCII, \x1c-\x1f, NEL, NBSP, ideographic space, line
# separator) and characters it does not split at (zero-width space, BOM, \x1b).
SPACES = [" ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0", "\u2007", "\u3000", "\u2028"]
NOT_SPACES = ["\u200b", "\ufeff", "\x1b"]
WORDS = ["Haus", "haus", "€uro", "猫", "𝄞", "ab", "\u6261", "x"] + NOT_SPACES


@st.composite
def texts(draw):
    words = draw(st.lists(st.sampled_from(WORDS), max_size=10))
    gaps = draw(st.lists(st.sampled_from(SPACES), min_size=len(words) + 1, max_size=len(words) + 1))
    lead = draw(st.booleans())
    return (gaps[0] if lead else "") + "".join(w + g for w, g in zip(words, gaps[1:]))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(batch=st.lists(st.tuples(texts(), texts()), min_size=1, max_size=10))
def test_texts_split_as_str_split(batch):
    hyps, refs = [h for h, _ in batch], [r for _, r in batch]
    got = bleu.bleu_statistics_of_texts(hyps, refs)
    want = bleu.bleu_statistics([h.split() for h in hyps], [r.split() for r in refs])
    np.testing.assert_array_equal(got.matches, want.matches)
    np.testing.assert_array_equal(got.hyp_len, want.hyp_len)
    np.testing.assert_array_equal(got.ref_len, want.ref_len)
    for (h, r), s in zip(batch, bleu.sentence_bleu_texts(hyps, refs)):
        assert abs(s - nltk_bleu(h.split(), r.split())) <= 1e-12, (h, r)


def test_long_pairs_with_many_types_and_repeats():
    """Tables grow past their first size; heavy repetition checks the clipping."""
    rng = np.random.default_rng(7)
    ref = [f"w{k}" for k in rng.integers(0, 3000, 6000)]
    hyp = list(ref)
    for i in rng.integers(0, len(hyp), 400):
        hyp[i] = f"w{rng.integers(0, 3000)}"
    repeated = ["la"] * 50 + ["di", "da"] * 30
    cases = [(hyp, ref), (repeated, ["la"] * 7 + ["di", "da", "la"] * 5), (ref[:1], ref), ([], []), (ref, [])]
    got = bleu.sentence_bleu_many([h for h, _ in cases], [r for _, r in cases])
    for (h, r), s in zip(cases, got):
        assert abs(s - nltk_bleu(h, r)) <= 1e-12


def test_bad_inputs_fail_loudly():
    with pytest.raises(TypeError, match="tokens must be str"):
        bleu.sentence_bleu_many([["a", 1]], [["a"]])
    with pytest.raises(TypeError, match="texts must be str"):
        bleu.sentence_bleu_texts([["a"]], ["a"])
    with pytest.raises(ValueError, match="differ in number"):
        bleu.sentence_bleu_many([["a"]], [])
    with pytest.raises(ValueError, match="differ in number"):
        bleu.sentence_bleu_texts(["a", "b"], ["a"])


def test_arrow_input_sliced_chunked_and_null():
    """The SQL function's body reads Arrow buffers: slices, chunks, NULL lists and large types."""
    hyps = [["a", "b", "c", "d"], None, ["猫", "x"], [], ["a", "b", "c"]]
    refs = [["a", "b", "c", "d", "e"], ["a"], ["猫", "x", "y"], ["a"], ["a", "b", "c"]]
    want = [nltk_bleu(h, r) if h is not None else None for h, r in zip(hyps, refs)]
    h_arr, r_arr = pa.array(hyps, pa.list_(pa.string())), pa.array(refs, pa.list_(pa.string()))
    assert bleu.sentence_bleu_arrow(h_arr, r_arr).to_pylist() == pytest.approx(want, abs=1e-12)
    # a slice of each (offsets that do not start at 0), and chunked arrays
    got = bleu.sentence_bleu_arrow(h_arr.slice(2), pa.chunked_array([r_arr.slice(2, 1), r_arr.slice(3)]))
    assert got.to_pylist() == pytest.approx(want[2:], abs=1e-12)
    large = pa.array(hyps, pa.large_list(pa.large_string()))
    assert bleu.sentence_bleu_arrow(large, r_arr).to_pylist() == pytest.approx(want, abs=1e-12)
    empty = pa.array([], pa.list_(pa.string()))
    assert bleu.sentence_bleu_arrow(empty, empty).to_pylist() == []
    with pytest.raises(ValueError, match="NULL"):
        bleu.sentence_bleu_arrow(pa.array([["a", None]]), pa.array([["a"]]))


@pytest.mark.slow
def test_sql_function_over_a_table_spanning_many_vectors():
    """More rows than one DuckDB vector (2,048), so the function is called on several chunks."""
    rng = np.random.default_rng(3)
    vocab = ["the", "cat", "sat", "on", "mat", "猫", "€"]
    rows = [
        (
            [vocab[i] for i in rng.integers(0, 7, rng.integers(0, 9))],
            [vocab[i] for i in rng.integers(0, 7, rng.integers(1, 9))],
        )
        for _ in range(5000)
    ]
    with evalhouse.connect(":memory:") as wh:
        got = wh.con.execute(
            "select sentence_bleu(h, r) from (select unnest($h) as h, unnest($r) as r, "
            "unnest(range(5000)) as k) order by k",
            {"h": [h for h, _ in rows], "r": [r for _, r in rows]},
        ).fetchall()
    for (h, r), (s,) in zip(rows, got):
        assert abs(s - nltk_bleu(h, r)) <= 1e-12


def _real_pairs() -> list[tuple[str, str]]:
    wmt = shared("bleu", "wmt17-en-de")
    ud = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    runs = sorted(shared("sr-outputs", "adapt-ewt-test").glob("*/en_out.txt"))
    reference = (wmt / "reference.txt").read_text(encoding="utf-8").splitlines()
    pairs = []
    for system in sorted(wmt.glob("newstest2017.*.txt")):
        pairs += zip(system.read_text(encoding="utf-8").splitlines(), reference, strict=True)

    def texts(path):
        return [x[9:] for x in path.read_text(encoding="utf-8").splitlines() if x.startswith("# text = ")]

    for run in runs:
        for h, r in zip(texts(run), texts(ud), strict=True):
            pairs += [(h, r), (h.lower(), r.lower())]
    return list(dict.fromkeys(pairs))


@pytest.mark.realdata
def test_every_distinct_real_pair_equals_nltk():
    """WMT17 en-de (16 systems) and the 5 ADAPT runs (cased and lowercased) against their references."""
    pairs = _real_pairs()
    assert len(pairs) > 48_000
    texts = bleu.sentence_bleu_texts([h for h, _ in pairs], [r for _, r in pairs])
    lists = bleu.sentence_bleu_many([h.split() for h, _ in pairs], [r.split() for _, r in pairs])
    want = np.array([nltk_bleu(h.split(), r.split()) for h, r in pairs])
    assert np.abs(texts - want).max() <= 1e-12
    assert np.abs(lists - want).max() <= 1e-12
    with evalhouse.connect(":memory:") as wh:
        sql = wh.con.execute(
            "select sentence_bleu(h, r) as s from (select unnest($h) as h, unnest($r) as r, "
            "unnest(range($n)) as k) order by k",
            {"h": [h.split() for h, _ in pairs], "r": [r.split() for _, r in pairs], "n": len(pairs)},
        ).fetchnumpy()["s"]
    assert np.abs(sql - want).max() <= 1e-12
