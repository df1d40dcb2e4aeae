"""Case folding: the one function evalhouse uses to compare words regardless of case.

    >>> from evalhouse.analysis.text import fold
    >>> fold("Straße") == fold("STRASSE") == "strasse"
    True

Every comparison "ignoring case" (alignment of outputs to references, the lemma lexicon, and in the
service layer the keys DEA and lemma BLEU compare) goes through :func:`fold`, so Python and SQL cannot
disagree: SQL does not fold, it compares keys that Python folded and stored at ingest.

Definition (Unicode 15, section 3.13, D145 "canonical caseless match"): ``NFD(casefold(NFD(s)))``,
returned in NFC so that stored keys are compact. Two strings have the same key exactly when they
are canonical caseless matches. Choices, each tested in ``tests/test_text.py``:

* **casefold, not lower.** ``lower`` is a display mapping; ``casefold`` is the Unicode mapping meant
  for caseless comparison: "Straße", "STRASSE" and "strasse" fold to "strasse" (German writes SS as the
  capital of ß), final and medial sigma fold to the same letter, "ﬁ" folds to "fi". DuckDB's
  ``lower()`` does none of this and even differs from Python's ``lower()`` ("İ" -> "i" in DuckDB,
  "i̇" in Python; "Σ" at the end of a word -> "σ" in DuckDB, "ς" in Python), which is why SQL must
  not fold by itself.
* **Canonical normalisation (NFD before folding, NFC after).** An output written in decomposed form
  (e + combining acute, as macOS writes file names) matches a reference in composed form. Only
  canonical equivalence is used, not compatibility (NFKC): "½", "²" or full-width "Ｆ" stay distinct
  from "1/2", "2" and "F", because those are different characters a writer chose, and CJK treebanks
  write full-width punctuation on purpose.
* **No other normalisation.** Apostrophes (' and ’), dashes and quotes stay distinct; accents are
  kept ("élève" and "eleve" differ). Folding changes the length of some strings ("ß" -> "ss"), so
  callers never assume ``len(fold(s)) == len(s)``.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

FOLD_SIGNATURE = "fold:nfd-casefold-nfc"


@lru_cache(maxsize=1 << 18)
def fold(s: str) -> str:
    """The case-folded key of ``s``: NFC(casefold(NFD(s))), Unicode's canonical caseless match."""
    if s.isascii():  # fast path: ASCII is its own NFD/NFC and casefold is lower
        return s.lower()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", s).casefold())
