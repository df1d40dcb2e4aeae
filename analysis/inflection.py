"""Inflection rules: evidence, beside the lemma lexicon, that an output word is a form of a reference word.

    >>> from evalhouse.analysis.inflection import for_language
    >>> en = for_language("en")
    >>> sorted(en.inflections("travel", "VERB"))[:4]
    ['travel', 'traveled', 'traveling', 'travelled']
    >>> en.contraction_host("wasn't"), en.contraction_host("cannot"), en.contraction_host("catalogue")
    ('was', 'can', None)

The alignment (:mod:`evalhouse.analysis.alignment`) links an output word to a reference word only on
evidence that the one is a form of the other: the same key, the lemma, the lemma lexicon learned from
the treebanks, or a rule of the reference's language written here. A shared prefix is no evidence:
"catalogue" is not a form of "cat" (evalhouse once linked them by a common prefix).

English (``en``, the rules named in any English grammar: Quirk et al. 1985, appendix I):

* **Regular inflection** (:meth:`EnglishInflection.inflections`), generated from the reference word's
  lemma and universal part of speech, never guessed from the output word: nouns (NOUN, PROPN) add the
  plural -s; verbs (VERB, AUX) the third person -s, past and participle -ed and the -ing form;
  adjectives and adverbs (ADJ, ADV) the comparative -er and superlative -est. Spelling: -es after s,
  x, z, ch, sh (and after o, beside -s: zeros, zeroes); y after a consonant becomes i (tries, tried,
  happier); a silent final e is dropped before a vowel (baked, baking, nicer; not in -ee, -ye, -oe:
  seeing); ie becomes y before -ing (lying); a final consonant after a single vowel may double
  (stopped, travelled: both spellings are kept, since doubling follows stress, which the rule cannot
  see). Because the part of speech decides, "news" is no form of the adjective "new", nor "lover" of
  the verb "love".
* **Negative contractions** (:meth:`EnglishInflection.contraction_host`): an output word X + "n't"
  (or "n’t") is the contraction of X and "not" ("wasn't", "doesn't"), with the irregular "won't"
  (will), "can't" (can), "shan't" (shall), "ain't" (no host) and the one-word "cannot" (can); it links
  to a reference word spelled as its host or whose lemma is the host (the "ca" of "ca n't", lemma can);
  the "not" it contains is then a deletion. Before that, the tokeniser cuts a contraction where the
  Penn Treebank tokenisation (which UD English follows) cuts it (:meth:`EnglishInflection.joints`:
  do|n't, was|n't, ca|n't, can|not), so "wasn't" against "was not" is two words, "was" and "n't"
  (linked to "not" by the lexicon), and only a contraction whose first part is no reference word
  ("won't" against "will not") is linked whole.

A rule link ranks below a lexicon link, and is made whatever the lexicon says about the output word:
"building" is a regular form of the verb "build" even where the treebanks attest only the noun
"building". Other languages have no rules here (``for_language`` returns None): their inflections link through the
lexicon alone. The rules are part of the configuration every score records (:attr:`signature`).
"""

from __future__ import annotations

from functools import lru_cache

_VOWELS = frozenset("aeiou")
_NOUN = frozenset({"NOUN", "PROPN"})
_VERB = frozenset({"VERB", "AUX"})
_GRADED = frozenset({"ADJ", "ADV"})
_IRREGULAR_NEGATIVES = {"won't": "will", "can't": "can", "shan't": "shall", "ain't": None, "cannot": "can"}


def _consonant(c: str) -> bool:
    return c.isalpha() and c not in _VOWELS


def _add(stem: str, suffix: str) -> set[str]:
    """stem + a suffix that starts with a vowel (-ed, -ing, -er, -est), with the spelling rules."""
    out = set()
    if stem.endswith("e") and suffix[0] in "ei":
        if suffix == "ing":
            if stem.endswith(("ee", "ye", "oe")):
                out.add(stem + suffix)
            elif stem.endswith("ie"):
                out.add(stem[:-2] + "ying")
            else:
                out.add(stem[:-1] + suffix)
        else:
            out.add(stem + suffix[1:])  # baked, nicer, nicest
        return out
    if len(stem) >= 2 and stem.endswith("y") and _consonant(stem[-2]) and suffix != "ing":
        out.add(stem[:-1] + "i" + suffix)  # tried, happier
        return out
    out.add(stem + suffix)
    if (
        len(stem) >= 3
        and _consonant(stem[-1])
        and stem[-1] not in "wxy"
        and stem[-2] in _VOWELS
        and _consonant(stem[-3])
    ):
        out.add(stem + stem[-1] + suffix)  # stopped, travelled
    return out


def _plural(stem: str) -> set[str]:
    """stem + -s: the plural of a noun, the third person of a verb."""
    if stem.endswith(("s", "x", "z", "ch", "sh")):
        return {stem + "es"}
    if len(stem) >= 2 and stem.endswith("y") and _consonant(stem[-2]):
        return {stem[:-1] + "ies"}
    if stem.endswith("o"):
        return {stem + "s", stem + "es"}
    return {stem + "s"}


class EnglishInflection:
    """The regular inflection and negative contractions of English (module docstring)."""

    language = "en"
    signature = "inflection:en-regular+negative-contractions"

    @staticmethod
    @lru_cache(maxsize=1 << 16)
    def inflections(lemma: str, upos: str) -> frozenset[str]:
        """The regular forms of a folded ``lemma`` of part of speech ``upos`` (the lemma included);
        empty for other parts of speech and for lemmas that are not all letters."""
        if len(lemma) < 2 or not lemma.isalpha():
            return frozenset()
        if upos in _NOUN:
            out = _plural(lemma)
        elif upos in _VERB:
            out = _plural(lemma) | _add(lemma, "ed") | _add(lemma, "ing")
        elif upos in _GRADED:
            out = _add(lemma, "er") | _add(lemma, "est")
        else:
            return frozenset()
        return frozenset(out | {lemma})

    @staticmethod
    def joints(chunk: str) -> frozenset[int]:
        """Where a chunk of output text may be cut between two letters as the language's tokenisation
        cuts a contraction (the Penn Treebank's, which UD English follows): before the "n't" of
        "don't", "wasn't", "can't" (ca + n't) and between the "can" and "not" of "cannot"."""
        folded = chunk.lower().replace("\u2019", "'")
        out = set()
        at = folded.find("n't")
        while at > 0:
            end = at + 3
            if folded[at - 1].isalpha() and (end == len(folded) or not folded[end].isalnum()):
                out.add(at)
            at = folded.find("n't", at + 1)
        at = folded.find("cannot")
        while at >= 0:
            end = at + 6
            if (at == 0 or not folded[at - 1].isalnum()) and (end == len(folded) or not folded[end].isalnum()):
                out.add(at + 3)
            at = folded.find("cannot", at + 1)
        return frozenset(out)

    @staticmethod
    def contraction_host(form: str) -> str | None:
        """The word a folded negative contraction contracts with "not", or None."""
        form = form.replace("\u2019", "'")
        if form in _IRREGULAR_NEGATIVES:
            return _IRREGULAR_NEGATIVES[form]
        if form.endswith("n't") and len(form) > 3 and form[:-3].isalpha():
            return form[:-3]
        return None


_RULES = {"en": EnglishInflection()}


def for_language(language: str | None) -> EnglishInflection | None:
    """The rules of a language (an ISO 639 code as ``corpora.language`` stores it, ``en`` or ``en_ewt``
    style), or None when evalhouse has none for it."""
    if not language:
        return None
    return _RULES.get(language.split("_")[0].split("-")[0].lower())


def signature(rules: EnglishInflection | None) -> str:
    """What the configuration of a score says about the rules it used."""
    return rules.signature if rules is not None else "inflection:none"
