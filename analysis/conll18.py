"""The word metrics of the CoNLL 2018 shared task's evaluation (``conll18_ud_eval.py`` 1.2, Zeman et al.
2018): which aligned words each metric counts as correct, and which words count at all.

Used by ``evalhouse ingest dependency-run``, which stores the flags computed here per gold word
(``dependency_gold_words``) beside both sides' CoNLL-U columns; the counts, ratios and breakdowns are SQL
(``dependency_metrics``, ``dependency_breakdowns``, ...)::

    $ evalhouse sql "select metric, precision, recall, f1, aligned_accuracy from dependency_metrics
                     where team = 'UDPipe-Future' and corpus = 'en_ewt' order by ordinal"
    metric      precision  recall  f1      aligned_accuracy
    Tokens      0.9907     0.9897  0.9902  NULL
    ...
    LAS         0.8255     0.8247  0.8251  0.8332
    MLAS        0.7484     0.7458  0.7471  0.7546

The script's code is the definition (its ``evaluate``), and a test runs it on every real pair beside ours:

* relations compare on their universal part (``nsubj:pass`` -> ``nsubj``); UFeats on the universal features
  of FEATS only (:data:`UNIVERSAL_FEATURES`), sorted;
* UPOS, XPOS, UFeats: equal values; AllTags: all three equal; Lemmas: equal LEMMA, or a gold LEMMA ``_``;
* UAS: both words roots, or the system head is the system word aligned to the gold head; LAS: UAS and the
  same relation;
* CLAS, MLAS, BLEX count only words whose relation is a content relation (:data:`CONTENT_RELATIONS`): the
  gold words for recall, the system words for precision, the pairs whose gold word is one for correctness.
  CLAS: LAS right. BLEX: CLAS and Lemmas right. MLAS: CLAS, UPOS and UFeats right, and the functional
  children (:data:`FUNCTIONAL_RELATIONS`) of the two words pair off in order, each system child aligned to
  the gold child at its rank with the same relation, UPOS and UFeats.

``relation_correct`` (an aligned word with the same relation, whatever its head) is not a CoNLL 2018 metric:
it is MaltEval's label accuracy, which the breakdowns report beside UAS and LAS.
"""

from __future__ import annotations

import numpy as np

# conll18_ud_eval.py 1.2: CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, UNIVERSAL_FEATURES
CONTENT_RELATIONS = frozenset({
    "nsubj", "obj", "iobj", "csubj", "ccomp", "xcomp", "obl", "vocative", "expl", "dislocated", "advcl",
    "advmod", "discourse", "nmod", "appos", "nummod", "acl", "amod", "conj", "fixed", "flat", "compound",
    "list", "parataxis", "orphan", "goeswith", "reparandum", "root", "dep"})
FUNCTIONAL_RELATIONS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
UNIVERSAL_FEATURES = frozenset({
    "PronType", "NumType", "Poss", "Reflex", "Foreign", "Abbr", "Gender", "Animacy", "Number", "Case",
    "Definite", "Degree", "VerbForm", "Mood", "Tense", "Aspect", "Voice", "Evident", "Polarity", "Person",
    "Polite"})
# the flags stored per gold word (dependency_gold_words), in this order
FLAGS = ("upos_correct", "xpos_correct", "ufeats_correct", "alltags_correct", "lemma_correct", "head_correct",
         "label_correct", "relation_correct", "clas_correct", "mlas_correct", "blex_correct")


def universal_feats(feats: str) -> str:
    """FEATS as UFeats compares it: the universal features only, sorted, joined by ``|`` (empty when there
    are none, so ``_`` gives ``''``).

    >>> universal_feats("Number=Sing|Abbr=Yes|Foo=Bar")
    'Abbr=Yes|Number=Sing'
    """
    return "|".join(sorted(f for f in feats.split("|") if f.split("=", 1)[0] in UNIVERSAL_FEATURES))


class Side:
    """One side's words as the flags need them: per word (0-based file index) its head (file index, -1 for a
    root) and, as integer codes shared with the other side (equal codes, equal strings), its relation,
    UPOS, XPOS, universal features and LEMMA."""

    def __init__(self, head, relation, upos, xpos, ufeats, lemma):
        self.head = np.asarray(head, dtype=np.int64)
        self.relation, self.upos, self.xpos, self.ufeats, self.lemma = (
            np.asarray(x, dtype=np.int64) for x in (relation, upos, xpos, ufeats, lemma))


def content(relation_codes: np.ndarray, names: list[str]) -> np.ndarray:
    """Whether each relation (a code into ``names``) is a content relation."""
    is_content = np.array([n in CONTENT_RELATIONS for n in names], dtype=bool)
    return is_content[relation_codes]


def word_flags(gold: Side, system: Side, aligned: np.ndarray, relation_names: list[str],
               lemma_underscore: int) -> dict[str, np.ndarray]:
    """Per gold word, whether each CoNLL 2018 word metric counts it correct (:data:`FLAGS`, every flag false
    for an unaligned word). ``aligned[k]``: the system word aligned to gold word k, or -1;
    ``relation_names``: the relations the codes stand for; ``lemma_underscore``: the code of LEMMA ``_``
    (-1 if no word has it)."""
    n = len(gold.head)
    aligned = np.asarray(aligned, dtype=np.int64)
    gi = np.flatnonzero(aligned >= 0)
    si = aligned[gi]
    back = np.full(len(system.head) + 1, -1, dtype=np.int64)  # system word -> gold word; back[-1]: none
    back[si] = gi

    def on_pairs(values: np.ndarray) -> np.ndarray:
        out = np.zeros(n, dtype=bool)
        out[gi] = values
        return out

    upos = on_pairs(gold.upos[gi] == system.upos[si])
    xpos = on_pairs(gold.xpos[gi] == system.xpos[si])
    ufeats = on_pairs(gold.ufeats[gi] == system.ufeats[si])
    lemma = on_pairs((gold.lemma[gi] == lemma_underscore) | (gold.lemma[gi] == system.lemma[si]))
    gh, sh = gold.head[gi], system.head[si]
    head = on_pairs(((gh < 0) & (sh < 0)) | ((gh >= 0) & (back[sh] == gh)))
    relation = on_pairs(gold.relation[gi] == system.relation[si])
    label = head & relation
    clas = label & content(gold.relation, relation_names)
    mlas = clas & upos & ufeats
    candidates = np.flatnonzero(mlas)
    if len(candidates):
        mlas[candidates] = _children_match(gold, system, aligned, back, relation_names, candidates)
    return {"upos_correct": upos, "xpos_correct": xpos, "ufeats_correct": ufeats,
            "alltags_correct": upos & xpos & ufeats, "lemma_correct": lemma, "head_correct": head,
            "label_correct": label, "relation_correct": relation, "clas_correct": clas, "mlas_correct": mlas,
            "blex_correct": clas & lemma}


def _functional_children(side: Side, relation_names: list[str]) -> dict[int, list[int]]:
    """Word -> its children with a functional relation, in surface order."""
    functional = np.array([r in FUNCTIONAL_RELATIONS for r in relation_names], dtype=bool)
    children: dict[int, list[int]] = {}
    words = np.flatnonzero(functional[side.relation] & (side.head >= 0))
    for k, h in zip(words.tolist(), side.head[words].tolist()):
        children.setdefault(h, []).append(k)
    return children


def _children_match(gold: Side, system: Side, aligned: np.ndarray, back: np.ndarray, relation_names: list[str],
                    words: np.ndarray) -> np.ndarray:
    """For gold words ``words`` (aligned), whether their functional children and those of their system words
    pair off as MLAS requires: the same number, and at each rank the system child aligned to the gold child,
    with the same relation, UPOS and universal features."""
    g_children = _functional_children(gold, relation_names)
    s_children = _functional_children(system, relation_names)

    def key(side: Side, k: int) -> tuple[int, int, int]:
        return int(side.relation[k]), int(side.upos[k]), int(side.ufeats[k])

    out = np.zeros(len(words), dtype=bool)
    for i, (p, q) in enumerate(zip(words.tolist(), aligned[words].tolist())):
        gc, sc = g_children.get(p, ()), s_children.get(q, ())
        out[i] = len(gc) == len(sc) and all(back[d] == c and key(gold, c) == key(system, d) for c, d in zip(gc, sc))
    return out
