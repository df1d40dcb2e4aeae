"""``evalhouse augment``: treebank sentences chosen for a submission's weaknesses, to train on (Shimorina, Parmentier & Gardent
2021, section 6, "error-focused data augmentation").

    $ evalhouse augment --submission adapt/1 --from en_ewt-train --top 500 --out extra.conllu \\
          --complexity depth=8 --complexity mean_dependency_distance=3
    wrote 500 sentence(s) to extra.conllu; weak relations: obl, advcl, ccomp, xcomp, acl; suspicious forms: 10

The paper names three kinds of weakness to target: dependency relations with low DEA, constructions
found suspicious by error mining, and "input trees with large depth, length or mean dependency
distance". Accordingly:

* a sentence's **richness** is its edges with one of the submission's weakest relations (lowest DEA in
  the view ``dea_by_relation`` among relations with at least ``min_edges`` edges) plus the
  submission's best-ranked suspicious forms it contains (``suspicious_subtrees``, written by
  ``evalhouse analyze``; none before it ran), each form once. Forms are matched with the analysis's
  own settings (root excluded or not, maximum size), read from its configuration;
* **complexity criteria** (``complexity``, e.g. ``{"depth": 8}``): a sentence is chosen only when its
  value of each named metric of ``sentence_complexity`` (``depth``, ``length``,
  ``mean_dependency_distance``: the punctuation-stripped tree, as ``analyze`` measures it) is at least
  the threshold given -- all of them, when several are named.

The ``top`` sentences of highest richness are written (ties to the earlier sentence) as CoNLL-U by
:func:`evalhouse.export.conllu.write_corpus`, each with an ``# evalhouse_augment = ...`` comment that
says why. Without complexity criteria a sentence of richness 0 is never chosen; with them, a sentence
that meets them is chosen even at richness 0 (it is selected for its complexity).

Sentences from the submission's own reference corpus are refused: that is the test set, and training
on it leaks the test set into training. The check also refuses a corpus ingested from the same file
(same SHA-256) and one linked to the reference as its generation input (``corpus_inputs``).
``allow_reference=True`` (``--allow-reference``) does it anyway, for experiments that mean to.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping

from evalhouse.analysis import mining
from evalhouse.errors import OptionError
from evalhouse.export.conllu import write_corpus
from evalhouse.statistics.selection import Selection

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

COMPLEXITY = (
    "depth",
    "length",
    "mean_dependency_distance",
)  # Shimorina, Parmentier & Gardent (2021), section 6; columns of sentence_complexity


@dataclass
class AugmentSummary:
    written: int
    weak_relations: list[str]
    forms: list[str]


def resolve_submission(wh: Warehouse, submission: str, corpus: str | None = None) -> tuple[str, str, str]:
    """``TEAM/RUN`` (with ``corpus`` when the run was scored on several corpora) -> (team, run, corpus)."""
    found = Selection.of(submission, corpus=corpus).submissions(wh)
    if len(found) > 1:
        raise OptionError(
            f"{submission} was scored on several corpora ({', '.join(c for _, _, c in found)}): give `corpus`"
        )
    return found[0]


def parse_complexity(items) -> dict[str, float]:
    """``["depth=8", "length=20"]`` (the command's ``--complexity`` values) -> ``{"depth": 8.0, ...}``."""
    out: dict[str, float] = {}
    for item in items or ():
        name, sep, value = str(item).partition("=")
        name = name.strip()
        if not sep or name not in COMPLEXITY:
            raise OptionError(
                f"`complexity` takes METRIC=THRESHOLD with METRIC one of {', '.join(COMPLEXITY)}, not '{item}'"
            )
        try:
            out[name] = float(value)
        except ValueError:
            raise OptionError(f"`complexity` threshold of {name} must be a number, not '{value}'") from None
    return out


def reference_leak(wh: Warehouse, source: str, reference: str) -> str | None:
    """Why choosing training sentences from ``source`` would take them from the test set ``reference``
    (the submission's reference corpus), or None: it is that corpus, it was ingested from the same file
    (a SHA-256 in common), or ``corpus_inputs`` links the two sentence by sentence."""
    if source == reference:
        return f"'{source}' is the reference corpus"
    shared = wh.sql(
        """SELECT list_intersect(a.sha256, b.sha256) FROM corpora AS a, corpora AS b
                       WHERE a.corpus = $s AND b.corpus = $r""",
        {"s": source, "r": reference},
    ).fetchone()
    if shared and shared[0]:
        return f"'{source}' was ingested from the same file as '{reference}', the reference corpus"
    linked = wh.sql(
        """SELECT count(*) FROM corpus_inputs
                       WHERE (corpus = $s AND reference = $r) OR (corpus = $r AND reference = $s)""",
        {"s": source, "r": reference},
    ).fetchone()[0]
    if linked:
        return f"'{source}' holds the sentences of '{reference}', the reference corpus (corpus_inputs)"
    return None


def _analysis_settings(configuration: str | None) -> tuple[bool, int]:
    """(exclude_root, max_size) of the analysis whose forms are targeted, from its configuration."""
    defaults = mining.MiningSettings()
    if not configuration:
        return defaults.exclude_root, defaults.max_size
    parts = dict(p.split(":", 1) for p in configuration.split("|") if ":" in p)
    # a configuration without a root part is from an older evalhouse, which mined the root's forms too
    return parts.get("root") == "excluded", int(parts.get("max_size", defaults.max_size))


def augment(
    wh: Warehouse,
    submission: str,
    source: str,
    top: int,
    out: str | os.PathLike,
    corpus: str | None = None,
    weak_relations: int = 5,
    min_edges: int = 5,
    forms: int = 10,
    view: str = "dep",
    max_size: int | None = None,
    complexity: Mapping[str, float] | None = None,
    allow_reference: bool = False,
) -> AugmentSummary:
    """Write the ``top`` sentences of treebank ``source`` richest in the submission's weakest relations
    and its most suspicious forms of ``view``, among those meeting every ``complexity`` threshold.
    Ties go to the earlier sentence. Each sentence gets an ``# evalhouse_augment = ...`` comment saying
    why. Refused when ``source`` is the submission's reference corpus, unless ``allow_reference``.
    ``max_size`` (default: the analysis's) is the largest form matched."""
    if top < 1:
        raise OptionError("`top` must be at least 1")
    complexity = dict(complexity or {})
    for name in complexity:
        if name not in COMPLEXITY:
            raise OptionError(f"unknown complexity metric '{name}' (valid: {', '.join(COMPLEXITY)})")
    team, run, ref = resolve_submission(wh, submission, corpus)
    wh.require_corpus(source)
    leak = None if allow_reference else reference_leak(wh, source, ref)
    if leak:
        raise OptionError(
            f"{leak} of {team}/{run}, its test set: choosing training sentences from it leaks the "
            "test set into training; pass `allow_reference` to do it anyway"
        )
    weak = [
        r
        for (r,) in wh.sql(
            """SELECT relation FROM dea_by_relation WHERE team = $t AND run = $r AND corpus = $c AND edges >= $m
           ORDER BY accuracy, relation LIMIT $k""",
            {"t": team, "r": run, "c": ref, "m": min_edges, "k": weak_relations},
        ).fetchall()
    ]
    found_forms = wh.sql(
        """SELECT form, configuration FROM suspicious_subtrees WHERE team = $t AND run = $r AND corpus = $c
           AND view = $v ORDER BY rank LIMIT $k""",
        {"t": team, "r": run, "c": ref, "v": view, "k": forms},
    ).fetchall()
    suspicious = [f for f, _ in found_forms]
    exclude_root, analysed_size = _analysis_settings(found_forms[0][1] if found_forms else None)
    max_size = analysed_size if max_size is None else max_size
    edges = wh.sql(
        """SELECT position, head, relation, dependent_upos, dependent_lemma FROM edges WHERE corpus = $c
                      ORDER BY position, dependent""",
        {"c": source},
    ).fetchall()
    trees: dict[int, list[tuple]] = {}
    for position, *edge in edges:
        trees.setdefault(position, []).append(edge)
    measured: dict[int, tuple] = {}
    if complexity:
        names = list(complexity)
        for position, *values in wh.sql(
            f"SELECT position, {', '.join(names)} FROM sentence_complexity WHERE corpus = $c ORDER BY position",
            {"c": source},
        ).fetchall():
            if all(v is not None and v >= complexity[n] for n, v in zip(names, values)):
                measured[position] = tuple(zip(names, values))
    wanted = set(suspicious)
    scored = []
    for position, tree in trees.items():
        if complexity and position not in measured:
            continue
        heads, relations, upos, lemmas = (list(column) for column in zip(*tree))
        weak_edges = [r for h, r in zip(heads, relations) if h > 0 and r in weak]
        found = (
            sorted(
                mining.sentence_forms(
                    heads, relations, upos, lemmas, views=(view,), max_size=max_size, exclude_root=exclude_root
                )[view]
                & wanted
            )
            if wanted
            else []
        )
        richness = len(weak_edges) + len(found)
        if richness or complexity:
            counts = Counter(weak_edges)
            reason = (
                f"richness {richness}: weak relations "
                + (", ".join(f"{r} x{counts[r]}" for r in sorted(counts)) or "none")
                + "; suspicious forms "
                + (", ".join(found) or "none")
            )
            if complexity:
                reason += "; complexity " + ", ".join(
                    f"{n} {_number(v)} >= {_number(complexity[n])}" for n, v in measured[position]
                )
            scored.append((-richness, position, reason + f" (for {team}/{run} on {ref})"))
    scored.sort()
    chosen = {position: [f"# evalhouse_augment = {reason}"] for _, position, reason in scored[:top]}
    written = write_corpus(wh.con, source, out, only=chosen)
    return AugmentSummary(written, weak, suspicious)


def _number(value: float) -> str:
    """A threshold or a measured value as written in the reason: 8 rather than 8.0, else 4 decimals."""
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.4f}".rstrip("0")
