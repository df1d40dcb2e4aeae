"""Case folding (issue 14/15): one function, ``analysis.text.fold``, for every caseless comparison.

Expected keys come from the Unicode standard's definitions (CaseFolding.txt, canonical decomposition),
written out here by hand, not from the function under test.
"""

from __future__ import annotations

import unicodedata

import duckdb
import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalhouse.analysis.text import FOLD_SIGNATURE, fold


@pytest.mark.parametrize(
    "a, b",
    [
        ("Straße", "STRASSE"),  # CaseFolding.txt: 00DF; F; 0073 0073
        ("straße", "strasse"),
        ("ΣΊΣΥΦΟΣ", "σίσυφος"),  # final sigma 03C2 folds to 03C3 like capital 03A3
        ("ﬁle", "FILE"),  # FB01; F; 0066 0069
        ("Élève", "e\u0301le\u0300ve"),  # composed and decomposed accents: canonical equivalents
        ("İstanbul", "i\u0307stanbul"),  # 0130; F; 0069 0307
        ("The", "the"),
    ],
)
def test_caseless_matches(a, b):
    assert fold(a) == fold(b)


@pytest.mark.parametrize(
    "a, b",
    [
        ("élève", "eleve"),  # accents are kept
        ("½", "1/2"),  # compatibility mappings are not applied (no NFKC)
        ("Ｆ", "F"),  # full-width stays full-width
        ("don't", "don’t"),  # apostrophes stay distinct
        ("1 000", "1000"),
    ],
)
def test_distinctions_kept(a, b):
    assert fold(a) != fold(b)


def test_keys_are_nfc_and_written_out():
    assert fold("Straße") == "strasse"
    assert fold("ΣΊΣΥΦΟΣ") == "σίσυφοσ"
    assert fold("E\u0301") == "\u00e9"  # composed after folding
    assert FOLD_SIGNATURE == "fold:nfd-casefold-nfc"


@given(st.text(max_size=12))
def test_fold_is_idempotent_and_canonical(s):
    key = fold(s)
    assert fold(key) == key
    assert unicodedata.is_normalized("NFC", key)
    # canonical equivalents have the same key (Unicode D145)
    assert fold(unicodedata.normalize("NFD", s)) == key
    assert key == unicodedata.normalize("NFC", unicodedata.normalize("NFD", s).casefold())


@pytest.mark.parametrize("a, b", [("Straße", "STRASSE"), ("ΣΊΣΥΦΟΣ", "σίσυφος"), ("ﬁle", "FILE")])
def test_duckdb_lower_disagrees_so_sql_must_compare_stored_keys(a, b):
    """Why SQL must not fold by itself: DuckDB's lower() keeps these pairs apart, fold() joins them
    (and DuckDB's lower('İ') is 'i', Python's is 'i̇'). Stored keys are the only way to agree."""
    con = duckdb.connect()
    lower_a, lower_b = con.execute("select lower(?), lower(?)", [a, b]).fetchone()
    assert lower_a != lower_b
    assert fold(a) == fold(b)
