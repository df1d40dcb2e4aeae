"""The lemma lexicon: which lemmas a word form has in the treebanks, for the alignment's ``lexicon`` links.

    from evalhouse.analysis.lexicon import LemmaLexicon
    lex = LemmaLexicon.from_pairs([("is", "be", 1402), ("was", "be", 950), ("saw", "see", 31),
                                   ("saw", "saw", 4)], corpora=["en_ewt-train"])
    lex.lemmas_of("Was")   # frozenset({'be'})
    lex.signature          # 'lexicon:corpora=en_ewt-train,forms=3,pairs=4,min-count=1,fold:nfd-casefold-nfc'

A realiser that writes "was" where the reference has "were" produced the right lemma with the wrong
inflection. Without a lexicon the output word "was" is linked to nothing (a regular inflection by an
inflection rule of the language at most, :mod:`evalhouse.analysis.inflection`) and
gets its own form as lemma, so DEA counts an inflection slip as an order error. Shimorina, Parmentier & Gardent (2021) lemmatised
outputs with a parser instead; evalhouse learns form -> lemma pairs from treebanks (in the warehouse:
the ``nodes`` of every corpus of the language, training sets included), which is deterministic and
needs no model.

Data structure: folded form -> frozenset of folded lemmas (keys by :func:`~evalhouse.analysis.text.fold`),
built from (form, lemma, count) triples. Ambiguity (documented in docs/system-outputs.md):

* A form keeps **every** lemma attested at least ``min_count`` times ("'s" -> be, have, 's; "saw" ->
  see, saw). Choosing only the most frequent lemma would lose exactly the links the lexicon exists
  for ("'s" for "has"); the sentence restricts the choice anyway, because a lexicon link needs a free
  reference word with that lemma in the same sentence.
* When several reference words qualify, the alignment's objective decides (see
  :mod:`evalhouse.analysis.alignment`): a lexicon link ranks below exact, case-folded and lemma links,
  and among equal candidates the order-preserving one wins.
* Missing lemmas (``_`` or empty) are not learned: they would make every form match every word
  without a lemma.
* ``min_count`` (default 1) drops rarer pairs, for treebanks with annotation noise; it is part of the
  signature.

The signature records what the lexicon was learned from (corpora, number of forms and of
form-lemma pairs, min_count, folding), so a score that used it can say so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .text import FOLD_SIGNATURE, MISSING_LEMMAS, fold

__all__ = ["LemmaLexicon", "MISSING_LEMMAS"]


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: caches key on it
class LemmaLexicon:
    """Folded form -> folded lemmas attested for it, with what it was learned from."""

    lemmas: dict[str, frozenset[str]]
    corpora: tuple[str, ...] = ()
    pairs: int = 0
    min_count: int = 1
    _empty: frozenset = field(default=frozenset(), repr=False, compare=False)

    @classmethod
    def from_pairs(
        cls, triples: Iterable[tuple[str, str, int]], corpora: Iterable[str] = (), min_count: int = 1
    ) -> "LemmaLexicon":
        """Build from (form, lemma, count) triples (counts of the same folded pair are summed)."""
        if min_count < 1:
            raise ValueError(f"min_count must be at least 1, not {min_count}")
        counts: dict[tuple[str, str], int] = {}
        for form, lemma, count in triples:
            if lemma is None or lemma in MISSING_LEMMAS or not form:
                continue
            key = (fold(form), fold(lemma))
            counts[key] = counts.get(key, 0) + int(count)
        table: dict[str, set[str]] = {}
        for (form, lemma), count in counts.items():
            if count >= min_count:
                table.setdefault(form, set()).add(lemma)
        frozen = {form: frozenset(lemmas) for form, lemmas in table.items()}
        return cls(frozen, tuple(sorted(set(corpora))), sum(len(v) for v in frozen.values()), min_count)

    def lemmas_of(self, form: str) -> frozenset[str]:
        """Folded lemmas attested for ``form`` (folded here), empty when the form is unknown."""
        return self.lemmas.get(fold(form), self._empty)

    @property
    def forms(self) -> int:
        return len(self.lemmas)

    @property
    def signature(self) -> str:
        corpora = "+".join(self.corpora) or "unnamed"
        return (
            f"lexicon:corpora={corpora},forms={self.forms},pairs={self.pairs},min-count={self.min_count},"
            f"{FOLD_SIGNATURE}"
        )
