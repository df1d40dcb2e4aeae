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
CONTENT_RELATIONS = frozenset(
    {
        "nsubj",
        "obj",
        "iobj",
        "csubj",
        "ccomp",
        "xcomp",
        "obl",
        "vocative",
        "expl",
        "dislocated",
        "advcl",
        "advmod",
        "discourse",
        "nmod",
        "appos",
        "nummod",
        "acl",
        "amod",
        "conj",
        "fixed",
        "flat",
        "compound",
        "list",
        "parataxis",
        "orphan",
        "goeswith",
        "reparandum",
        "root",
        "dep",
    }
)
FUNCTIONAL_RELATIONS = frozenset({"aux", "cop", "mark", "det", "clf", "case", "cc"})
UNIVERSAL_FEATURES = frozenset(
    {
        "PronType",
        "NumType",
        "Poss",
        "Reflex",
        "Foreign",
        "Abbr",
        "Gender",
        "Animacy",
        "Number",
        "Case",
        "Definite",
        "Degree",
        "VerbForm",
        "Mood",
        "Tense",
        "Aspect",
        "Voice",
        "Evident",
        "Polarity",
        "Person",
        "Polite",
    }
)
# the flags stored per gold word (dependency_gold_words), in this order
FLAGS = (
    "upos_correct",
    "xpos_correct",
    "ufeats_correct",
    "alltags_correct",
    "lemma_correct",
    "head_correct",
    "label_correct",
    "relation_correct",
    "clas_correct",
    "mlas_correct",
    "blex_correct",
)


def universal_feats(feats: str) -> str:
    """FEATS as UFeats compares it: the universal features only, sorted, joined by ``|`` (empty when there
    are none, so ``_`` gives ``''``).

    >>> universal_feats("Number=Sing|Abbr=Yes|Foo=Bar")
    'Abbr=Yes|Number=Sing'
    """
    return "|".join(sorted(f for f in feats.split("|") if f.split("=", 1)[0] in UNIVERSAL_FEATURES))


def span_counts(gold: tuple[np.ndarray, np.ndarray], system: tuple[np.ndarray, np.ndarray]) -> tuple[int, int, int]:
    """Tokens and Sentences: (gold spans, system spans, spans of both) of two sequences of character spans
    (start, end), each span listed one or more times (a multiword token's words share its span). The script
    walks both sorted lists and counts a span correct when a gold and a system span start and end alike."""
    g = set(zip(gold[0].tolist(), gold[1].tolist()))
    s = set(zip(system[0].tolist(), system[1].tolist()))
    return len(g), len(s), len(g & s)


def sentence_spans(sentence: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The character span of each sentence (numbered 1, 2, ... in order), from its words' token spans."""
    first = np.r_[True, sentence[1:] != sentence[:-1]] if len(sentence) else np.zeros(0, dtype=bool)
    last = np.r_[sentence[1:] != sentence[:-1], True] if len(sentence) else np.zeros(0, dtype=bool)
    return start[first], end[last]


class Side:
    """One side's words as the flags need them: per word (0-based file index) its head (file index, -1 for a
    root) and, as integer codes shared with the other side (equal codes, equal strings), its relation,
    UPOS, XPOS, universal features and LEMMA."""

    def __init__(self, head, relation, upos, xpos, ufeats, lemma):
        self.head = np.asarray(head, dtype=np.int64)
        self.relation, self.upos, self.xpos, self.ufeats, self.lemma = (
            np.asarray(x, dtype=np.int64) for x in (relation, upos, xpos, ufeats, lemma)
        )


def content(relation_codes: np.ndarray, names: list[str]) -> np.ndarray:
    """Whether each relation (a code into ``names``) is a content relation."""
    is_content = np.array([n in CONTENT_RELATIONS for n in names], dtype=bool)
    return is_content[relation_codes]


def word_flags(
    gold: Side, system: Side, aligned: np.ndarray, relation_names: list[str], lemma_underscore: int
) -> dict[str, np.ndarray]:
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
    return {
        "upos_correct": upos,
        "xpos_correct": xpos,
        "ufeats_correct": ufeats,
        "alltags_correct": upos & xpos & ufeats,
        "lemma_correct": lemma,
        "head_correct": head,
        "label_correct": label,
        "relation_correct": relation,
        "clas_correct": clas,
        "mlas_correct": mlas,
        "blex_correct": clas & lemma,
    }


def _functional_children(side: Side, relation_names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The words with a functional relation and a head, as (child, parent, rank): sorted by parent, then
    surface order; rank = the child's place among its parent's functional children (0, 1, ...)."""
    functional = np.array([r in FUNCTIONAL_RELATIONS for r in relation_names], dtype=bool)
    child = np.flatnonzero(functional[side.relation] & (side.head >= 0))
    child = child[np.argsort(side.head[child], kind="stable")]
    parent = side.head[child]
    first = np.r_[True, parent[1:] != parent[:-1]] if len(parent) else np.zeros(0, dtype=bool)
    index = np.arange(len(child))
    rank = index - np.maximum.accumulate(np.where(first, index, 0))
    return child, parent, rank


def _children_match(
    gold: Side, system: Side, aligned: np.ndarray, back: np.ndarray, relation_names: list[str], words: np.ndarray
) -> np.ndarray:
    """For gold words ``words`` (aligned), whether their functional children and those of their system words
    pair off as MLAS requires: as many, and at each rank the system child aligned to the gold child, with the
    same relation, UPOS and universal features."""
    g_child, g_parent, g_rank = _functional_children(gold, relation_names)
    s_child, s_parent, s_rank = _functional_children(system, relation_names)
    same_count = (
        np.bincount(g_parent, minlength=len(gold.head))[words]
        == np.bincount(s_parent, minlength=len(system.head))[aligned[words]]
    )
    # each gold child against the system child at its rank under the aligned parent (keys sorted: parent, rank)
    width = int(max(g_rank.max(initial=0), s_rank.max(initial=0))) + 1
    s_key = s_parent * width + s_rank
    q = aligned[g_parent]
    g_key = q * width + g_rank
    at = np.minimum(np.searchsorted(s_key, g_key), max(len(s_key) - 1, 0))
    if len(s_key):
        d = s_child[at]
        pairs_off = (
            (q >= 0)
            & (s_key[at] == g_key)
            & (back[d] == g_child)
            & (gold.relation[g_child] == system.relation[d])
            & (gold.upos[g_child] == system.upos[d])
            & (gold.ufeats[g_child] == system.ufeats[d])
        )
    else:
        pairs_off = np.zeros(len(g_child), dtype=bool)
    spoiled = np.zeros(len(gold.head), dtype=bool)
    spoiled[g_parent[~pairs_off]] = True
    return same_count & ~spoiled[words]
