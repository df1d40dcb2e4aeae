"""The C kernels are optional (``optional = true`` in pyproject.toml): without a compiler the build goes
on, ``analysis/_bleu_python.py`` counts in Python and ``evalb`` reads trees in Python. These tests hold
the fallback to the C kernel's exact results (random inputs and real texts), check that the edit
distances equal a textbook Levenshtein, and run the library in a process where the C modules cannot
be imported.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalhouse.analysis import _bleu, _bleu_python
from tests.conftest import shared

WORDS = st.lists(st.sampled_from(["a", "b", "c", "ä", "straße", "the", ",", "x y"[:1]]), max_size=9)


def _both(name, *args, width):
    n = len(args[0]) if name != "matches_of_arrow" else len(args[0]) - 1
    c, py = np.empty((n, width), dtype=np.int64), np.empty((n, width), dtype=np.int64)
    getattr(_bleu, name)(*args, c)
    getattr(_bleu_python, name)(*args, py)
    return c, py


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(WORDS, WORDS), max_size=6))
def test_fallback_counts_equal_the_c_kernel(pairs):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    c, py = _both("matches_of_tokens", hyps, refs, width=6)
    assert (c == py).all()
    texts = [" ".join(h) for h in hyps], ["  ".join(r) + " " for r in refs]
    c, py = _both("matches_of_texts", *texts, width=6)
    assert (c == py).all()
    c, py = _both("edit_distances_of_texts", *texts, width=4)
    assert (c == py).all()
    from evalhouse.analysis.bleu import _arrow_buffers

    h = _arrow_buffers(pa.array(hyps, type=pa.list_(pa.string())))[:3]
    r = _arrow_buffers(pa.array(refs, type=pa.list_(pa.string())))[:3]
    c, py = _both("matches_of_arrow", *h, *r, width=6)
    assert (c == py).all()


def textbook_levenshtein(a, b):
    d = [[i + k if i * k == 0 else 0 for k in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for k in range(1, len(b) + 1):
            d[i][k] = min(d[i - 1][k] + 1, d[i][k - 1] + 1, d[i - 1][k - 1] + (a[i - 1] != b[k - 1]))
    return d[-1][-1]


def test_fallback_edit_distances_are_levenshtein():
    hyps, refs = ["the cat sat", "", "kitten", "a b c d"], ["the hat sat down", "x", "sitting", ""]
    out = np.empty((4, 4), dtype=np.int64)
    _bleu_python.edit_distances_of_texts(hyps, refs, out)
    for row, h, r in zip(out, hyps, refs):
        assert row[0] == textbook_levenshtein(h.split(), r.split())
        assert row[2] == textbook_levenshtein(h, r)
        assert (row[1], row[3]) == (max(len(h.split()), len(r.split())), max(len(h), len(r)))


@pytest.mark.realdata
def test_fallback_equals_the_kernel_on_real_pairs():
    path = shared("sr-outputs", "adapt-ewt-test")
    run = sorted(path.glob("*/en_out.txt"))[0]
    hyps = run.read_text(encoding="utf-8").splitlines()[:400]
    refs = [
        x[9:]
        for x in shared("ud-v2.3", "en_ewt-ud-test.conllu").read_text(encoding="utf-8").splitlines()
        if x.startswith("# text = ")
    ][: len(hyps)]
    for name, width in (("matches_of_texts", 6), ("edit_distances_of_texts", 4)):
        c, py = _both(name, [h.lower() for h in hyps], [r.lower() for r in refs], width=width)
        assert (c == py).all(), name


@pytest.mark.slow
def test_the_library_works_without_the_c_modules(tmp_path):
    """A process whose import system refuses the two C modules: sentence BLEU, the SR metrics and
    an EVALB report still give the C kernels' numbers."""
    script = textwrap.dedent("""
        import importlib.abc, sys
        class Refuse(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name in ("evalhouse.analysis._bleu", "evalhouse.analysis._evalb"):
                    raise ImportError("no C kernel: " + name)
        sys.meta_path.insert(0, Refuse())
        from evalhouse.analysis import bleu, sr_metrics, parse_eval
        assert bleu._bleu.__name__.endswith("_bleu_python") and parse_eval._evalb is None
        print(repr(float(bleu.sentence_bleu_texts(["I enjoy my time"], ["I enjoy my time at school"])[0])))
        s = sr_metrics.sr_statistics(["the cat sat ."], ["The cat sat down ."])
        print(int(s.word_edits[0]), int(s.char_edits[0]))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    from evalhouse.analysis import bleu, sr_metrics

    assert float(out[0]) == float(bleu.sentence_bleu_texts(["I enjoy my time"], ["I enjoy my time at school"])[0])
    s = sr_metrics.sr_statistics(["the cat sat ."], ["The cat sat down ."])
    assert (int(out[1]), int(out[2])) == (int(s.word_edits[0]), int(s.char_edits[0]))
