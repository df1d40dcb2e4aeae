"""Case folding: the one function evalhouse uses to compare words regardless of case.

    >>> from evalhouse.analysis.text import fold
    >>> fold("Straße") == fold("STRASSE") == "strasse"
    True

Every comparison "ignoring case" (alignment of outputs to references, the lemma lexicon, and in the
service layer the keys DEA and lemma BLEU compare) goes through :func:`fold`, so Python and SQL cannot
disagree: SQL does not fold, it compares keys that Python folded and stored at ingest
(:func:`word_key`: ``edges.head_key`` and ``edges.dependent_key`` of the reference tree,
``output_tokens.lemma_key`` of the output words).

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
MISSING_LEMMAS = ("_", "")  # LEMMA values that mean "no lemma" (CoNLL-U writes _)
# the word key of DEA, lemma BLEU and the accuracies (recorded in every submission's configuration)
KEY_SIGNATURE = "keys:lemma-else-form," + FOLD_SIGNATURE


@lru_cache(maxsize=1 << 18)
def fold(s: str) -> str:
    """The case-folded key of ``s``: NFC(casefold(NFD(s))), Unicode's canonical caseless match."""
    if s.isascii():  # fast path: ASCII is its own NFD/NFC and casefold is lower
        return s.lower()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", s).casefold())


def missing_lemma(lemma: str | None) -> bool:
    """Whether a LEMMA value means "no lemma" (``_``, empty or None)."""
    return lemma is None or lemma in MISSING_LEMMAS


def word_key(lemma: str | None, form: str) -> str:
    """The key DEA, lemma BLEU and the string and tree accuracies compare for one word: its folded
    lemma, or its folded form where the lemma is missing (``_``).

    Treebanks without lemmas (UD Portuguese-GSD v2.3 lacks about half of them) would otherwise make
    every ``_``-``_`` pair match: a random-order baseline scored DEA 0.36 there instead of about 0.07.
    A missing lemma is never a match by itself; the word is compared by its form instead. An output
    word linked to a reference word takes that word's key (as it takes its lemma), so it is the
    reference word's form that counts there (:mod:`evalhouse.ingest.outputs`)."""
    return fold(form) if missing_lemma(lemma) else fold(lemma)
