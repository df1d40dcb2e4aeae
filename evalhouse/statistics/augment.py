"""``evalhouse augment``: treebank sentences chosen for a submission's weaknesses, to train on.

    $ evalhouse augment --submission adapt/1 --from en_ewt-train --top 500 --out extra.conllu
    wrote 500 sentence(s) to extra.conllu; weak relations: obl, advcl, ccomp, xcomp, acl; suspicious forms: 10

A sentence's richness is its edges with one of the submission's weakest relations (lowest DEA in the view
``dea_by_relation`` among relations with at least ``min_edges`` edges) plus the submission's most
suspicious subtree forms it contains (``suspicious_subtrees``, written by ``evalhouse analyze``; none
before it ran), each form once. The richest ``top`` sentences are written as CoNLL-U by
:func:`evalhouse.export.conllu.write_corpus`, each with a comment saying why it was chosen.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass

from evalhouse.analysis import mining
from evalhouse.errors import OptionError
from evalhouse.export.conllu import write_corpus
from evalhouse.statistics.selection import Selection


@dataclass
class AugmentSummary:
    written: int
    weak_relations: list[str]
    forms: list[str]


def resolve_submission(wh, submission: str, corpus: str | None = None) -> tuple[str, str, str]:
    """``TEAM/RUN`` (with ``corpus`` when the run was scored on several corpora) -> (team, run, corpus)."""
    found = Selection.of(submission, corpus=corpus).submissions(wh)
    if len(found) > 1:
        raise OptionError(f"{submission} was scored on several corpora ({', '.join(c for _, _, c in found)}): "
                          "give `corpus`")
    return found[0]


def augment(wh, submission: str, source: str, top: int, out: str | os.PathLike, corpus: str | None = None,
            weak_relations: int = 5, min_edges: int = 5, forms: int = 10, view: str = "dep",
            max_size: int = 3) -> AugmentSummary:
    """Write the ``top`` sentences of treebank ``source`` richest in the submission's weakest relations
    and its most suspicious forms of ``view``. Ties go to the earlier sentence; sentences with richness 0
    are never chosen. Each sentence gets an ``# evalhouse_augment = ...`` comment saying why."""
    if top < 1:
        raise OptionError("`top` must be at least 1")
    team, run, ref = resolve_submission(wh, submission, corpus)
    wh.require_corpus(source)
    weak = [r for (r,) in wh.sql(
        """SELECT relation FROM dea_by_relation WHERE team = $t AND run = $r AND corpus = $c AND edges >= $m
           ORDER BY accuracy, relation LIMIT $k""",
        {"t": team, "r": run, "c": ref, "m": min_edges, "k": weak_relations}).fetchall()]
    suspicious = [f for (f,) in wh.sql(
        """SELECT form FROM suspicious_subtrees WHERE team = $t AND run = $r AND corpus = $c AND view = $v
           ORDER BY rank LIMIT $k""", {"t": team, "r": run, "c": ref, "v": view, "k": forms}).fetchall()]
    edges = wh.sql("""SELECT position, head, relation, dependent_upos, dependent_lemma FROM edges WHERE corpus = $c
                      ORDER BY position, dependent""", {"c": source}).fetchall()
    trees: dict[int, list[tuple]] = {}
    for position, *edge in edges:
        trees.setdefault(position, []).append(edge)
    wanted = set(suspicious)
    scored = []
    for position, tree in trees.items():
        heads, relations, upos, lemmas = (list(column) for column in zip(*tree))
        weak_edges = [r for h, r in zip(heads, relations) if h > 0 and r in weak]
        found = sorted(mining.sentence_forms(heads, relations, upos, lemmas, views=(view,), max_size=max_size)[view]
                       & wanted) if wanted else []
        richness = len(weak_edges) + len(found)
        if richness:
            counts = Counter(weak_edges)
            reason = (f"richness {richness}: weak relations "
                      + (", ".join(f"{r} x{counts[r]}" for r in sorted(counts)) or "none")
                      + "; suspicious forms " + (", ".join(found) or "none") + f" (for {team}/{run} on {ref})")
            scored.append((-richness, position, reason))
    scored.sort()
    chosen = {position: [f"# evalhouse_augment = {reason}"] for _, position, reason in scored[:top]}
    written = write_corpus(wh.con, source, out, only=chosen)
    return AugmentSummary(written, weak, suspicious)
