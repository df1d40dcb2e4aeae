"""``evalhouse ingest parses``: constituency parses, the gold parses of a corpus or a candidate run
scored against them at once (GEIG/PARSEVAL as EVALB does it, and the leaf-ancestor metric of Sampson & Babarczy (2003)).

Python API (the CLI command is a thin layer over it; :func:`ingest_parses` is the body of
``Warehouse.ingest_parses``)::

    import evalhouse
    from evalhouse.ingest.parses import resolve_params, resolve_cost

    with evalhouse.connect("warehouse.duckdb") as wh:
        wh.ingest_parses("wsj01.mrg", "wsj01", gold=True)
        wh.ingest_parses("berkeley.mrg", "wsj01", team="berkeley", run="1",
                         params=resolve_params("collins"), cost=resolve_cost("default"))
        wh.sql("select team, run, labelled_f, la_sentence_mean from parse_scores where subset = 'all'").df()

Files are read by :mod:`evalhouse.loaders.brackets`. Every Python computation (tree preparation and
bracket matching, :mod:`evalhouse.analysis.parse_eval`; lineages and weighted Levenshtein,
:mod:`evalhouse.analysis.leaf_ancestor`) runs at ingest and is stored in ``geig_counts`` and
``la_word_scores``; the views over them (``sql/parses/``) are plain SQL. A candidate run is scored
against the corpus's gold parses sentence by sentence (i-th with i-th). EVALB's own report is
:mod:`evalhouse.reports.evalb`; dependency parsers are scored by :mod:`evalhouse.ingest.dependency_runs`.
"""

from __future__ import annotations

import datetime as _dt
import dataclasses
import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from evalhouse.analysis.leaf_ancestor import DEFAULT, LabelCost, Scorer, format_lineage, lineages
from evalhouse.analysis.parse_eval import (
    COLLINS,
    NO_PARAMS,
    RULES,
    STATUS_ERROR,
    STATUS_OK,
    BracketCounts,
    EvalbParams,
    align,
    count,
    prepare,
)
from evalhouse.names import check_names
from evalhouse.errors import InputError, OptionError, WarehouseError
from evalhouse.loaders.brackets import Tree, open_brackets, read_trees
from evalhouse.ingest.label_costs import resolve_cost  # noqa: F401 (the Python API: parses.resolve_cost)
from evalhouse.loaders.evalb_prm import read_prm
from evalhouse.version import __version__, signature as configuration

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    import duckdb
    from evalhouse.warehouse import Warehouse


@dataclass(frozen=True)
class ParseRunSummary:
    corpus: str
    team: str | None
    run: str | None
    sentences: int
    leaves: int
    constituents: int
    ok: int = 0
    errors: int = 0
    skipped: int = 0
    config: str = ""


def resolve_params(prm: str | None = "collins", delete_labels=(), eq_labels=()) -> EvalbParams:
    """``collins`` (EVALB's COLLINS.prm, built in), ``none`` (nothing deleted: Sampson & Babarczy's (2003) setting) or a
    .prm file; ``delete_labels`` and ``eq_labels`` (pairs) are added to it."""
    if prm is None or prm == "collins":
        params = COLLINS
    elif prm == "none":
        params = NO_PARAMS
    else:
        params = read_prm(prm)
    if delete_labels or eq_labels:
        params = dataclasses.replace(
            params,
            delete_labels=params.delete_labels | frozenset(delete_labels),
            eq_labels=params.eq_labels + tuple(tuple(p) for p in eq_labels),
            source=params.source + "+options",
        )
    return params


def signature(params: EvalbParams, cost: LabelCost) -> str:
    """One-line record of the scoring configuration (sacrebleu-style): ``rules:evalb-2006`` names the
    bracket rules (C EVALB's current release: function tags cut at the first ``-`` or ``=``, the
    unlabelled ``( (S ...) )`` wrapper counted as a bracket labelled ``''``, EQ_LABEL and EQ_WORD as
    pairs, QUOTE_LABEL's reinsertion); ``lineage:labelled-nonterminals`` says that the leaf-ancestor
    lineages leave the unlabelled wrapper out.  The empty label is written ``(unlabelled)`` (``''`` is
    the Penn Treebank's closing quote)."""

    def labels(values) -> str:
        return " ".join(v or "(unlabelled)" for v in values)

    return configuration(
        f"rules:{RULES}",
        f"prm:{params.source}",
        f"labeled:{int(params.labeled)}",
        "delete:" + labels(sorted(params.delete_labels)) if params.delete_labels else "delete:none",
        "eq:" + ",".join(f"{a}={b}" for a, b in params.eq_labels) if params.eq_labels else "eq:none",
        *(["eq-word:" + ",".join(f"{a}={b}" for a, b in params.eq_words)] if params.eq_words else []),
        *(["quote:" + labels(params.quote_labels)] if params.quote_labels else []),
        f"cutoff:{params.cutoff_len}",
        f"la-cost:{cost.name}",
        "lineage:labelled-nonterminals",
    )


def _read(path: str, one_per_line: bool):
    """(trees, source) of a bracketed file; '-' reads standard input."""
    with open_brackets(path) as src, open(src.path, encoding="utf-8") as handle:
        trees = list(read_trees(handle, src.name, one_per_line=one_per_line))
    return trees, src


def _gold_trees(con: duckdb.DuckDBPyConnection, corpus: str) -> list[Tree]:
    """The gold parses of ``corpus`` as stored (the trees candidate runs are scored against)."""
    sentences = con.execute(
        "SELECT position, line, notation FROM parse_sentences WHERE corpus = $c AND team IS NULL ORDER BY position",
        {"c": corpus},
    ).fetchall()
    trees = {p: Tree(line=line, notation=notation) for p, line, notation in sentences}
    for p, word, pos in con.execute(
        "SELECT position, word, pos FROM parse_leaves WHERE corpus = $c AND team IS NULL ORDER BY position, leaf",
        {"c": corpus},
    ).fetchall():
        trees[p].words.append(word)
        trees[p].pos.append(pos)
    for p, label, parent, s, e in con.execute(
        "SELECT position, label, coalesce(parent, -1), start_leaf, end_leaf FROM constituents "
        "WHERE corpus = $c AND team IS NULL ORDER BY position, node",
        {"c": corpus},
    ).fetchall():
        trees[p].nodes.append((label, parent, s, e))
    return [trees[p] for p, _, _ in sentences]


def _store_trees(wh: Warehouse, corpus, team, run, trees: list[Tree]) -> tuple[int, int]:
    sent = {k: [] for k in ("position", "line", "notation", "leaves", "text")}
    leaves = {k: [] for k in ("position", "leaf", "word", "pos")}
    nodes = {k: [] for k in ("position", "node", "parent", "label", "start_leaf", "end_leaf")}
    for p, t in enumerate(trees, start=1):
        sent["position"].append(p)
        sent["line"].append(t.line)
        sent["notation"].append(t.notation if t.words else "empty")
        sent["leaves"].append(len(t.words))
        sent["text"].append(" ".join(t.words))
        for i, (w, pos) in enumerate(zip(t.words, t.pos)):
            leaves["position"].append(p)
            leaves["leaf"].append(i)
            leaves["word"].append(w)
            leaves["pos"].append(pos)
        for k, (label, parent, s, e) in enumerate(t.nodes):
            nodes["position"].append(p)
            nodes["node"].append(k)
            nodes["parent"].append(None if parent < 0 else parent)
            nodes["label"].append(label)
            nodes["start_leaf"].append(s)
            nodes["end_leaf"].append(e)
    for table, cols in (("parse_sentences", sent), ("parse_leaves", leaves), ("constituents", nodes)):
        n = len(next(iter(cols.values())))
        wh.insert(table, {"corpus": [corpus] * n, "team": [team] * n, "run": [run] * n, **cols})
    return len(leaves["position"]), len(nodes["position"])


def score_trees(
    gold: list[Tree],
    test: list[Tree],
    params: EvalbParams,
    cost: LabelCost,
    on_mismatch: Callable[[int, Tree, str], None] | None = None,
):
    """Score candidate trees against gold trees (same order); returns (geig rows, la rows) as columns."""
    scorer = Scorer(cost)
    geig = {
        k: []
        for k in (
            "position",
            "status_code",
            "message",
            "length",
            "words",
            "gold_brackets",
            "test_brackets",
            "matched_labelled",
            "matched_unlabelled",
            "crossing",
            "correct_tags",
        )
    }
    la = {k: [] for k in ("position", "word_index", "word", "gold_lineage", "candidate_lineage", "distance", "score")}
    for p, (g, t) in enumerate(zip(gold, test), start=1):
        status, message, gp, tp = align(
            prepare(g.words, g.pos, g.nodes, params), prepare(t.words, t.pos, t.nodes, params), params
        )
        c = (
            count(gp, tp, params)
            if status == STATUS_OK
            else BracketCounts(status, message, gp.length, len(gp.words), 0, 0, 0, 0, 0, 0)
        )
        if c.status == STATUS_ERROR and on_mismatch is not None:
            on_mismatch(p, t, c.message)
        geig["position"].append(p)
        for k in (
            "status_code",
            "message",
            "length",
            "words",
            "gold_brackets",
            "test_brackets",
            "matched_labelled",
            "matched_unlabelled",
            "crossing",
            "correct_tags",
        ):
            geig[k].append(c.status if k == "status_code" else getattr(c, k))
        if c.status != STATUS_OK:
            continue
        n = len(gp.words)
        for i, (w, a, b) in enumerate(zip(gp.words, lineages(gp.nodes, n), lineages(tp.nodes, n)), start=1):
            d, s = scorer(a, b)
            la["position"].append(p)
            la["word_index"].append(i)
            la["word"].append(w)
            la["gold_lineage"].append(format_lineage(a))
            la["candidate_lineage"].append(format_lineage(b))
            la["distance"].append(d)
            la["score"].append(s)
    return geig, la


def ingest_parses(
    wh: Warehouse,
    path: str | os.PathLike,
    corpus: str,
    *,
    gold: bool = False,
    team: str | None = None,
    run: str | None = None,
    params: EvalbParams | None = None,
    cost: LabelCost | None = None,
    replace: bool = False,
    one_per_line: bool = False,
    allow_mismatch: bool = False,
) -> ParseRunSummary:
    """Ingest a bracketed file as the gold parses of ``corpus`` or as candidate run (team, run), in one
    transaction.  A candidate is scored against the gold at once (GEIG counts and LA word scores).

    Raises :class:`InputError` for bad input (unbalanced brackets, sentence-count mismatch, and -- unless
    ``allow_mismatch`` -- a candidate sentence whose words differ from the gold's) and
    :class:`WarehouseError` when the warehouse refuses; either way nothing changes.
    """
    path = os.fspath(path)
    check_names(corpus=corpus, team=team, run=run)
    if gold == bool(team or run) or (not gold and not (team and run)):
        raise OptionError("give either `gold=True` or both `team` and `run`")
    params = params or COLLINS
    cost = cost or DEFAULT
    trees, src = _read(path, one_per_line)
    if not trees:
        raise InputError(src.name, None, "no trees in the file")
    with wh.transaction():
        if gold:
            # refused when candidate runs are scored against the gold parses (evalhouse.stored)
            wh.make_room(
                "parse run",
                {"corpus": corpus, "team": None, "run": None},
                replace,
                f"the gold parses of corpus '{corpus}'",
            )
            n_leaves, n_nodes = _store_trees(wh, corpus, None, None, trees)
            _record_run(wh, corpus, None, None, "gold", src, trees, n_leaves, n_nodes, one_per_line, None, None)
            return ParseRunSummary(corpus, None, None, len(trees), n_leaves, n_nodes)
        gold_trees = _gold_trees(wh.con, corpus)
        if not gold_trees:
            raise WarehouseError(f"no gold parses for corpus '{corpus}' in {wh.path}; ingest them first (`gold=True`)")
        if len(trees) != len(gold_trees):
            raise InputError(
                src.name,
                None,
                f"{len(trees)} sentences, but the gold parses of '{corpus}' have "
                f"{len(gold_trees)} (candidate sentence i is scored against gold sentence i)",
            )
        wh.make_room(
            "parse run", {"corpus": corpus, "team": team, "run": run}, replace, f"run {team}/{run} of corpus '{corpus}'"
        )

        def mismatch(position: int, tree: Tree, message: str) -> None:
            if not allow_mismatch:
                raise InputError(
                    src.name,
                    tree.line,
                    f"sentence {position}: {message} against the gold parse "
                    "(pass `allow_mismatch=True` to record it as EVALB's error "
                    "status)",
                    option="allow_mismatch",
                )

        geig, la = score_trees(gold_trees, trees, params, cost, on_mismatch=mismatch)
        n_leaves, n_nodes = _store_trees(wh, corpus, team, run, trees)
        for table, cols in (("geig_counts", geig), ("la_word_scores", la)):
            n = len(cols["position"])
            wh.insert(table, {"corpus": [corpus] * n, "team": [team] * n, "run": [run] * n, **cols})
        _record_run(wh, corpus, team, run, "candidate", src, trees, n_leaves, n_nodes, one_per_line, params, cost)
        codes = geig["status_code"]
        return ParseRunSummary(
            corpus,
            team,
            run,
            len(trees),
            n_leaves,
            n_nodes,
            codes.count(0),
            codes.count(1),
            codes.count(2),
            signature(params, cost),
        )


def _record_run(wh: Warehouse, corpus, team, run, role, src, trees, n_leaves, n_nodes, one_per_line, params, cost):
    wh.insert(
        "parse_runs",
        [
            {
                "corpus": corpus,
                "team": team,
                "run": run,
                "role": role,
                "source_file": src.name,
                "sha256": src.sha256,
                "sentences": len(trees),
                "leaves": n_leaves,
                "constituents": n_nodes,
                "one_per_line": one_per_line,
                "cutoff_len": params.cutoff_len if params else None,
                "labeled": params.labeled if params else None,
                "evalb_params": json.dumps(params.describe()) if params else None,
                "la_cost": json.dumps(cost.describe()) if cost else None,
                "config": signature(params, cost) if params else None,
                "evalhouse_version": __version__,
                "ingested_at": _dt.datetime.now(_dt.timezone.utc),
            }
        ],
    )
