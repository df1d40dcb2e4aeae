"""The treebank loader folds a chunk's distinct lemmas and forms with Arrow's ``ascii_lower`` where a string
is ASCII and with :func:`evalhouse.analysis.text.fold` otherwise (``loaders.treebank._folded``, issue 18).
The two must give what ``fold`` gives for every string: ``fold`` is the definition the aligner, the SQL
views and the output scorer share."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

from evalhouse.analysis.text import fold
from evalhouse.loaders.treebank import _folded

# ASCII letters of both cases and signs, and characters whose case folding is not their lower case or
# changes their length (ß -> ss, İ, ǅ, the Kelvin sign, final sigma, ligatures, combining marks)
ALPHABET = list("aZkK_-'.1 ") + ["İ", "ß", "ǅ", "\u212a", "Σ", "ς", "é", "É", "ﬁ", "ŉ", "中", "\u0301", "Å", "Ω"]


def random_strings(rng: random.Random, n: int, alphabet: list[str]) -> list[str]:
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(n)]


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string()])
def test_folded_is_fold_of_every_string(kind):
    rng = random.Random(18)
    for _ in range(200):
        values = random_strings(rng, rng.randint(1, 40), ALPHABET)
        got = _folded(pa.array(values, kind))
        assert got.type == kind
        assert got.to_pylist() == [fold(v) for v in values]


@pytest.mark.parametrize("alphabet", [list("aZkK_-'.1"), ["İ", "ß", "Σ", "中"]], ids=["all-ascii", "none-ascii"])
def test_folded_when_every_string_or_none_is_ascii(alphabet):
    values = random_strings(random.Random(3), 50, alphabet)
    assert _folded(pa.array(values, pa.string())).to_pylist() == [fold(v) for v in values]
