"""Baseline realisers: a floor for every campaign.

    $ evalhouse baseline lr --corpus en_ewt-test --train en_ewt-train --team baseline --run lr
    $ evalhouse baseline random --corpus en_ewt-test --team baseline --run random --seed 1

Both realise the words of the reference tree with the reference forms (an oracle for morphology:
they measure word order only) and write one sentence per reference sentence.

``random``  a uniformly random order of the words, from a seeded generator (numpy PCG64, seed
            recorded in the run configuration).
``lr``      the Baseline Left-Right model of Bangalore, Rambow & Whittaker (2000, section 4): every
            dependent is placed before or after its head by the direction it takes most often in a
            training treebank. The paper conditions on the lexemes; counts that sparse need a
            back-off, so the direction is estimated from the first of these keys seen in training:
            (head lemma, dependent lemma) (as word keys: case-folded, the form where the lemma is
            missing), (relation, dependent UPOS, head UPOS), (relation), all
            edges; left when P(left) > 0.5. Siblings on the same side are ordered by their mean
            absolute distance to the head in training (same back-off): the farthest first on the
            left, the nearest first on the right; ties by lemma, then by node ID. The result is
            always projective. Without a training treebank the reference corpus itself is used,
            which makes the baseline optimistic (say so when you report it).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from .text import word_key

KINDS = ("random", "lr")


@dataclass
class Word:
    id: int
    form: str
    lemma: str
    upos: str
    head: int
    relation: str


@dataclass
class DirectionModel:
    """Counts of (left, right, summed |distance|) per back-off key."""

    counts: dict[tuple, list[float]] = field(default_factory=lambda: defaultdict(lambda: [0, 0, 0.0]))

    @staticmethod
    def keys(dep: Word, head: Word | None) -> list[tuple]:
        # the word keys of DEA (folded lemma, folded form where the lemma is _): missing lemmas would
        # otherwise pool every (_, _) pair into one lexical key
        h_lemma = word_key(head.lemma, head.form) if head else "<root>"
        h_upos = head.upos if head else "<root>"
        return [
            ("lex", h_lemma, word_key(dep.lemma, dep.form)),
            ("pos", dep.relation, dep.upos, h_upos),
            ("rel", dep.relation),
            ("all",),
        ]

    def add(self, dep: Word, head: Word, distance: int) -> None:
        for key in self.keys(dep, head):
            c = self.counts[key]
            c[0 if distance < 0 else 1] += 1
            c[2] += abs(distance)

    def predict(self, dep: Word, head: Word) -> tuple[bool, float]:
        """(goes left?, expected |distance|)."""
        for key in self.keys(dep, head):
            c = self.counts.get(key)
            if c and c[0] + c[1]:
                return c[0] / (c[0] + c[1]) > 0.5, c[2] / (c[0] + c[1])
        return False, 1.0


def train_direction_model(sentences: Iterable[Sequence[Word]]) -> DirectionModel:
    model = DirectionModel()
    for words in sentences:
        by_id = {w.id: w for w in words}
        for w in words:
            if w.head:
                model.add(w, by_id[w.head], w.id - w.head)
    return model


def linearise_lr(words: Sequence[Word], model: DirectionModel) -> list[Word]:
    by_id = {w.id: w for w in words}
    children: dict[int, list[Word]] = defaultdict(list)
    for w in words:
        children[w.head].append(w)

    def order(node: Word) -> list[Word]:
        left, right = [], []
        for d in children.get(node.id, []):
            goes_left, dist = model.predict(d, node)
            (left if goes_left else right).append((dist, d.lemma, d.id, d))
        left.sort(key=lambda t: (-t[0], t[1], t[2]))
        right.sort(key=lambda t: (t[0], t[1], t[2]))
        out: list[Word] = []
        for *_, d in left:
            out.extend(order(d))
        out.append(node)
        for *_, d in right:
            out.extend(order(d))
        return out

    roots = sorted((w for w in words if w.head == 0 or w.head not in by_id), key=lambda w: w.id)
    result: list[Word] = []
    for r in roots:
        result.extend(order(r))
    return result


def linearise_random(words: Sequence[Word], rng: np.random.Generator) -> list[Word]:
    return [words[i] for i in rng.permutation(len(words))]
