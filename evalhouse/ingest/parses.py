"""Constituency parse evaluation: ingest gold and candidate parses, score them (GEIG/PARSEVAL as EVALB
does, and the leaf-ancestor metric of seed 002), and print EVALB's report.

Python API (the CLI commands ``ingest parses`` and ``evalb`` are thin layers over these)::

    import evalhouse
    from evalhouse.parses import ingest_parses, evalb_report, resolve_params, resolve_cost

    with evalhouse.connect("warehouse.duckdb") as wh:
        ingest_parses(wh, "wsj01.mrg", "wsj01", gold=True)
        ingest_parses(wh, "berkeley.mrg", "wsj01", team="berkeley", run="1",
                      params=resolve_params("collins"), cost=resolve_cost("default"))
        wh.sql("select team, run, labelled_f, la_sentence_mean from parse_scores where subset = 'all'").df()

    print(evalb_report("sample.gld", "sample.tst", resolve_params("sample.prm")))

Every Python computation (tree preparation, bracket matching, lineages, weighted Levenshtein) runs at
ingest and is stored in ``geig_counts`` and ``la_word_scores``; the views over them are plain SQL.
A candidate run is scored against the corpus's gold parses sentence by sentence (i-th with i-th).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sys
from dataclasses import dataclass
from typing import Callable

from evalhouse import __version__
from evalhouse.analysis.leaf_ancestor import DEFAULT, LabelCost, Scorer, cost_function, format_lineage, lineages
from evalhouse.analysis.parse_eval import (COLLINS, NO_PARAMS, STATUS_ERROR, STATUS_OK, EvalbParams, compare,
                                           prepare)
from evalhouse.loaders.brackets import Tree, read_trees
from evalhouse.loaders.errors import InputError
from evalhouse.loaders.source import open_source

PARSE_TABLES = ("la_word_scores", "geig_counts", "constituents", "parse_leaves", "parse_sentences", "parse_runs")


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
    """``collins`` (EVALB's COLLINS.prm, built in), ``none`` (nothing deleted: seed 002's setting) or a
    .prm file; ``delete_labels`` and ``eq_labels`` (pairs) are added to it."""
    from dataclasses import replace

    from evalhouse.loaders.evalb_prm import read_prm

    if prm is None or prm == "collins":
        params = COLLINS
    elif prm == "none":
        params = NO_PARAMS
    else:
        params = read_prm(prm)
    if delete_labels or eq_labels:
        params = replace(params, delete_labels=params.delete_labels | frozenset(delete_labels),
                         eq_labels=params.eq_labels + tuple(tuple(p) for p in eq_labels),
                         source=params.source + "+options")
    return params


def resolve_cost(cost: str | None = "default") -> LabelCost:
    """``default`` (the paper's experiment), ``strict``, or the path of a cost-table file."""
    if cost is None or cost in ("default", "strict"):
        return cost_function(cost or "default")
    if not os.path.exists(cost):
        raise ValueError(f"unknown label-cost function '{cost}' (valid: default, strict, or an existing cost-table file)")
    from evalhouse.loaders.evalb_prm import read_cost_table

    return read_cost_table(cost)


def signature(params: EvalbParams, cost: LabelCost) -> str:
    """One-line record of the scoring configuration (sacrebleu-style)."""
    parts = [f"evalhouse:{__version__}", f"prm:{params.source}", f"labeled:{int(params.labeled)}",
             "delete:" + " ".join(sorted(params.delete_labels)) if params.delete_labels else "delete:none",
             "eq:" + ",".join(f"{a}={b}" for a, b in params.eq_labels) if params.eq_labels else "eq:none",
             f"cutoff:{params.cutoff_len}", "function-tags:stripped", f"la-cost:{cost.name}",
             "lineage:nonterminals"]
    return "|".join(parts)


def _read(path: str, one_per_line: bool):
    """(trees, source) of a bracketed file; '-' reads standard input."""
    if path == "-":
        ctx = open_source(sys.stdin.buffer, name="<stdin>")
    else:
        ctx = open_source(path)
    with ctx as src, open(src.path, encoding="utf-8") as handle:
        trees = list(read_trees(handle, src.name, one_per_line=one_per_line))
    return trees, src


def _gold_trees(con, corpus: str) -> list[Tree]:
    sentences = con.execute(
        "SELECT position, line, notation FROM parse_sentences WHERE corpus = $c AND team IS NULL ORDER BY position",
        {"c": corpus}).fetchall()
    trees = {p: Tree(line=line, notation=notation) for p, line, notation in sentences}
    for p, word, pos in con.execute(
            "SELECT position, word, pos FROM parse_leaves WHERE corpus = $c AND team IS NULL ORDER BY position, leaf",
            {"c": corpus}).fetchall():
        trees[p].words.append(word)
        trees[p].pos.append(pos)
    for p, label, parent, s, e in con.execute(
            "SELECT position, label, coalesce(parent, -1), start_leaf, end_leaf FROM constituents "
            "WHERE corpus = $c AND team IS NULL ORDER BY position, node", {"c": corpus}).fetchall():
        trees[p].nodes.append((label, parent, s, e))
    return [trees[p] for p, _, _ in sentences]


def _insert(con, table: str, columns: dict[str, list]) -> None:
    import pandas as pd

    df = pd.DataFrame(columns)
    con.register("_evalhouse_rows", df)
    try:
        con.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT * FROM _evalhouse_rows")
    finally:
        con.unregister("_evalhouse_rows")


def _store_trees(con, corpus, team, run, trees: list[Tree]) -> tuple[int, int]:
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
        _insert(con, table, {"corpus": [corpus] * n, "team": [team] * n, "run": [run] * n, **cols})
    return len(leaves["position"]), len(nodes["position"])


def score_trees(gold: list[Tree], test: list[Tree], params: EvalbParams, cost: LabelCost,
                on_mismatch: Callable[[int, Tree, str], None] | None = None):
    """Score candidate trees against gold trees (same order); returns (geig rows, la rows) as columns."""
    scorer = Scorer(cost)
    geig = {k: [] for k in ("position", "status_code", "message", "length", "words", "gold_brackets", "test_brackets",
                            "matched_labelled", "matched_unlabelled", "crossing", "correct_tags")}
    la = {k: [] for k in ("position", "word_index", "word", "gold_lineage", "candidate_lineage", "distance", "score")}
    for p, (g, t) in enumerate(zip(gold, test), start=1):
        gp = prepare(g.words, g.pos, g.nodes, params)
        tp = prepare(t.words, t.pos, t.nodes, params)
        c = compare(gp, tp, params)
        if c.status == STATUS_ERROR and on_mismatch is not None:
            on_mismatch(p, t, c.message)
        geig["position"].append(p)
        for k in ("status_code", "message", "length", "words", "gold_brackets", "test_brackets",
                  "matched_labelled", "matched_unlabelled", "crossing", "correct_tags"):
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


def ingest_parses(wh, path: str | os.PathLike, corpus: str, *, gold: bool = False, team: str | None = None,
                  run: str | None = None, params: EvalbParams | None = None, cost: LabelCost | None = None,
                  replace: bool = False, one_per_line: bool = False, allow_mismatch: bool = False) -> ParseRunSummary:
    """Ingest a bracketed file as the gold parses of ``corpus`` or as candidate run (team, run), in one
    transaction.  A candidate is scored against the gold at once (GEIG counts and LA word scores).

    Raises :class:`InputError` for bad input (unbalanced brackets, sentence-count mismatch, and -- unless
    ``allow_mismatch`` -- a candidate sentence whose words differ from the gold's) and
    :class:`evalhouse.warehouse.WarehouseError` when the warehouse refuses; either way nothing changes.
    """
    from evalhouse.warehouse import WarehouseError

    path = os.fspath(path)
    if gold == bool(team or run) or (not gold and not (team and run)):
        raise ValueError("give either --gold or both --team and --run")
    params = params or COLLINS
    cost = cost or DEFAULT
    trees, src = _read(path, one_per_line)
    if not trees:
        raise InputError(src.name, None, "no trees in the file")
    con = wh.con
    con.execute("BEGIN")
    try:
        if gold:
            exists = con.execute("SELECT count(*) FROM parse_runs WHERE corpus = $c AND role = 'gold'",
                                 {"c": corpus}).fetchone()[0]
            if exists and not replace:
                raise WarehouseError(f"gold parses of corpus '{corpus}' are already in {wh.path}; use --replace to replace them")
            runs = con.execute("SELECT team || '/' || run FROM parse_runs WHERE corpus = $c AND role = 'candidate' "
                               "ORDER BY 1", {"c": corpus}).fetchall()
            if exists and runs:
                raise WarehouseError(f"cannot replace the gold parses of '{corpus}': candidate runs are scored against "
                                     f"them ({', '.join(r[0] for r in runs)}); replace them into a new corpus instead")
            if exists:
                for table in PARSE_TABLES:
                    con.execute(f"DELETE FROM {table} WHERE corpus = $c AND team IS NULL", {"c": corpus})
            n_leaves, n_nodes = _store_trees(con, corpus, None, None, trees)
            _record_run(con, corpus, None, None, "gold", src, trees, n_leaves, n_nodes, one_per_line, None, None)
            summary = ParseRunSummary(corpus, None, None, len(trees), n_leaves, n_nodes)
        else:
            gold_trees = _gold_trees(con, corpus)
            if not gold_trees:
                raise WarehouseError(f"no gold parses for corpus '{corpus}' in {wh.path}; ingest them first with --gold")
            if len(trees) != len(gold_trees):
                raise InputError(src.name, None, f"{len(trees)} sentences, but the gold parses of '{corpus}' have "
                                                 f"{len(gold_trees)} (candidate sentence i is scored against gold sentence i)")
            key = {"c": corpus, "t": team, "r": run}
            exists = con.execute("SELECT count(*) FROM parse_runs WHERE corpus = $c AND team = $t AND run = $r",
                                 key).fetchone()[0]
            if exists and not replace:
                raise WarehouseError(f"run {team}/{run} of corpus '{corpus}' is already in {wh.path}; use --replace to replace it")
            if exists:
                for table in PARSE_TABLES:
                    con.execute(f"DELETE FROM {table} WHERE corpus = $c AND team = $t AND run = $r", key)

            def mismatch(position: int, tree: Tree, message: str) -> None:
                if not allow_mismatch:
                    raise InputError(src.name, tree.line, f"sentence {position}: {message} against the gold parse "
                                                          "(pass --allow-mismatch to record it as EVALB's error status)")

            geig, la = score_trees(gold_trees, trees, params, cost, on_mismatch=mismatch)
            n_leaves, n_nodes = _store_trees(con, corpus, team, run, trees)
            for table, cols in (("geig_counts", geig), ("la_word_scores", la)):
                n = len(cols["position"])
                _insert(con, table, {"corpus": [corpus] * n, "team": [team] * n, "run": [run] * n, **cols})
            _record_run(con, corpus, team, run, "candidate", src, trees, n_leaves, n_nodes, one_per_line, params, cost)
            codes = geig["status_code"]
            summary = ParseRunSummary(corpus, team, run, len(trees), n_leaves, n_nodes, codes.count(0), codes.count(1),
                                      codes.count(2), signature(params, cost))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return summary


def _record_run(con, corpus, team, run, role, src, trees, n_leaves, n_nodes, one_per_line, params, cost):
    con.execute(
        "INSERT INTO parse_runs VALUES ($corpus, $team, $run, $role, $file, $sha, $sentences, $leaves, $nodes, "
        "$opl, $cutoff, $labeled, $prm, $cost, $config, $version, $now)",
        {"corpus": corpus, "team": team, "run": run, "role": role, "file": src.name, "sha": src.sha256,
         "sentences": len(trees), "leaves": n_leaves, "nodes": n_nodes, "opl": one_per_line,
         "cutoff": params.cutoff_len if params else None, "labeled": params.labeled if params else None,
         "prm": json.dumps(params.describe()) if params else None,
         "cost": json.dumps(cost.describe()) if cost else None,
         "config": signature(params, cost) if params else None,
         "version": __version__, "now": _dt.datetime.now(_dt.timezone.utc)})


# --- EVALB's report -----------------------------------------------------------------------------------

_HEAD = ("  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
         " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n"
         "============================================================================")
_RULE = "============================================================================"


def _pct(num, den) -> float:
    return 100.0 * num / den if den else 0.0


def evalb_report(gold_path: str | os.PathLike, test_path: str | os.PathLike, params: EvalbParams | None = None,
                 cost: LabelCost | None = None) -> str:
    """EVALB's report (per-sentence rows, totals row, summary for all and for len<=CUTOFF_LEN), computed
    through the warehouse views on an in-memory warehouse.  Files are read one sentence per line, as
    EVALB reads them; mismatching sentences get EVALB's error status instead of stopping the run."""
    from evalhouse.warehouse import Warehouse

    params = params or COLLINS
    with Warehouse(":memory:") as wh:
        ingest_parses(wh, gold_path, "evalb", gold=True, one_per_line=True)
        ingest_parses(wh, test_path, "evalb", team="evalb", run="test", params=params, cost=cost,
                      one_per_line=True, allow_mismatch=True)
        rows = wh.sql("SELECT position, length, status_code, gold_brackets, test_brackets, matched_labelled, "
                      "matched_unlabelled, crossing, words, correct_tags FROM geig_sentences ORDER BY position").fetchall()
        summary = {r[0]: r for r in wh.sql(
            "SELECT subset, sentences, error_sentences, skip_sentences, valid_sentences, "
            "labelled_recall, labelled_precision, unlabelled_recall, unlabelled_precision, "
            "labelled_complete_match, unlabelled_complete_match, average_crossing, no_crossing, "
            "two_or_less_crossing, tagging_accuracy, gold_brackets, test_brackets, matched_labelled, "
            "matched_unlabelled, no_crossing_sentences, words, correct_tags FROM parse_scores").fetchall()}
    out = [_HEAD]
    for pos, length, stat, gb, tb, ml, mu, cross, words, tags in rows:
        m = ml if params.labeled else mu
        out.append(f"{pos:4d} {length:4d} {stat:4d}  {_pct(m, gb):6.2f} {_pct(m, tb):6.2f}  {m:4d}   {gb:4d} {tb:4d}"
                   f"   {cross:4d}   {words:4d}  {tags:4d}   {_pct(tags, words):6.2f}")
    out.append(_RULE)
    a = summary["all"]
    m = a[17] if params.labeled else a[18]
    # EVALB's totals row prints, in the "Cross" column, the number of sentences with no crossing
    # bracket (not the sum of crossing brackets): reproduced as printed; see docs/parse-evaluation.md.
    out.append(f"{'':15s} {_pct(m, a[15]):6.2f} {_pct(m, a[16]):6.2f} {m:6d} {a[15]:6d} {a[16]:4d} "
               f"{a[19]:6d} {a[20]:6d} {a[21]:5d} {_pct(a[21], a[20]):8.2f}")
    out.append("=== Summary ===")
    for key, title in (("all", "All"), (f"len<={params.cutoff_len}", f"len<={params.cutoff_len}")):
        s = summary[key]
        rec, prec = (s[5], s[6]) if params.labeled else (s[7], s[8])
        comp = s[9] if params.labeled else s[10]
        out += ["", f"-- {title} --",
                f"Number of sentence        = {s[1]:6d}",
                f"Number of Error sentence  = {s[2]:6d}",
                f"Number of Skip  sentence  = {s[3]:6d}",
                f"Number of Valid sentence  = {s[4]:6d}",
                f"Bracketing Recall         = {_fmt(rec)}",
                f"Bracketing Precision      = {_fmt(prec)}",
                f"Complete match            = {_fmt(comp)}",
                f"Average crossing          = {(s[11] or 0.0):6.2f}",
                f"No crossing               = {_fmt(s[12])}",
                f"2 or less crossing        = {_fmt(s[13])}",
                f"Tagging accuracy          = {_fmt(s[14])}"]
    return "\n".join(out) + "\n"


def _fmt(fraction) -> str:
    return f"{100.0 * (fraction or 0.0):6.2f}"


# --- dependency runs (CoNLL 2018 LAS/UAS beside dependency LA) -------------------------------------------

def ingest_dependency_run(wh, system_path: str | os.PathLike, gold_path: str | os.PathLike, corpus: str,
                          team: str, run: str, cost: LabelCost | None = None, replace: bool = False) -> dict:
    """Score a CoNLL-U parser output against gold UD trees (CoNLL 2018 alignment, LAS/UAS, dependency LA)
    and store the per-word results in one transaction.  Returns the run's ``dependency_scores`` row."""
    from evalhouse.analysis.dependency_eval import AlignmentError, score
    from evalhouse.analysis.leaf_ancestor import STRICT
    from evalhouse.loaders.conllu_words import read_words
    from evalhouse.warehouse import WarehouseError

    if not (team and run):
        raise ValueError("a dependency run needs --team and --run")
    cost = cost or STRICT
    gold = read_words(gold_path)
    system = read_words(system_path)
    try:
        ws = score(gold, system, cost)
    except AlignmentError as err:
        raise InputError(os.fspath(system_path), None, str(err)) from None
    with open_source(gold_path) as gsrc, open_source(system_path) as ssrc:
        gsha, ssha = gsrc.sha256, ssrc.sha256
    config = (f"evalhouse:{__version__}|alignment:conll2018|relations:universal|la-cost:{cost.name}"
              "|lineage:dependency-path-with-subtree-boundaries|unaligned-la:0")
    con = wh.con
    key = {"c": corpus, "t": team, "r": run}
    con.execute("BEGIN")
    try:
        exists = con.execute("SELECT count(*) FROM dependency_runs WHERE corpus = $c AND team = $t AND run = $r",
                             key).fetchone()[0]
        if exists and not replace:
            raise WarehouseError(f"dependency run {team}/{run} of corpus '{corpus}' is already in {wh.path}; "
                                 "use --replace to replace it")
        for table in ("dependency_word_scores", "dependency_runs"):
            con.execute(f"DELETE FROM {table} WHERE corpus = $c AND team = $t AND run = $r", key)
        n = len(gold.form)
        from evalhouse.analysis.dependency_eval import universal

        _insert(con, "dependency_word_scores", {
            "corpus": [corpus] * n, "team": [team] * n, "run": [run] * n, "gold_index": list(range(n)),
            "sentence": gold.sentence, "word_id": gold.word_id, "form": gold.form,
            "relation": [universal(d) for d in gold.deprel], "aligned": [a >= 0 for a in ws.aligned],
            "head_correct": ws.uas, "label_correct": ws.las, "gold_lineage": ws.gold_lineage,
            "system_lineage": ws.system_lineage, "distance": ws.distance, "la": ws.la})
        con.execute(
            "INSERT INTO dependency_runs VALUES ($c, $t, $r, $gf, $gs, $sf, $ss, $gsent, $ssent, $gw, $sw, $cost, "
            "$config, $version, $now)",
            {**key, "gf": os.fspath(gold_path), "gs": gsha, "sf": os.fspath(system_path), "ss": ssha,
             "gsent": gold.sentences, "ssent": system.sentences, "gw": n, "sw": ws.system_words,
             "cost": json.dumps(cost.describe()), "config": config, "version": __version__,
             "now": _dt.datetime.now(_dt.timezone.utc)})
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    cols = ["team", "run", "corpus", "gold_words", "system_words", "aligned_words", "uas_f1", "las_f1",
            "la_gold_mean", "la_aligned_mean"]
    row = con.execute(f"SELECT {', '.join(cols)} FROM dependency_scores WHERE corpus = $c AND team = $t AND run = $r",
                      key).fetchone()
    return dict(zip(cols, row))
