"""``evalhouse demo``: the bundled sample treebank in a fresh warehouse, two baselines scored against it,
``analyze`` over them, a short report of the main views, and the HTML report (the whole data flow on 42
sentences).

    $ evalhouse demo --out /tmp/evalhouse-demo

The committed ``warehouse.duckdb.example`` is built the same way::

    $ rm -f warehouse.duckdb.example
    $ evalhouse --db warehouse.duckdb.example ingest treebank evalhouse/sample/sample.conllu --corpus sample --language en
    $ evalhouse --db warehouse.duckdb.example baseline lr --corpus sample
    $ evalhouse --db warehouse.duckdb.example baseline random --corpus sample --seed 1
    $ evalhouse --db warehouse.duckdb.example analyze
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from evalhouse.reports.html import build_report
from evalhouse.reports.text import render_table
from evalhouse.statistics.analyze import analyze
from evalhouse.warehouse import Warehouse, connect

SAMPLE_CORPUS = "sample"


def sample_path() -> Path:
    """The bundled sample treebank (42 hand-annotated sentences; see evalhouse/sample/README.md)."""
    return Path(str(resources.files("evalhouse.sample").joinpath("sample.conllu")))


def build_sample_warehouse(db: str | os.PathLike) -> None:
    """Create ``db`` from scratch holding the sample as corpus ``sample``."""
    db = Path(db)
    for stale in (db, db.with_name(db.name + ".wal")):
        if stale.exists():
            stale.unlink()
    with connect(db) as wh:
        wh.ingest_treebank([sample_path()], corpus=SAMPLE_CORPUS, language="en")
        add_sample_baselines(wh)


def add_sample_baselines(wh: Warehouse) -> None:
    """The two baseline runs of the demo and the example warehouse (lr trained on the sample itself),
    then ``evalhouse analyze`` with its defaults over them."""
    wh.run_baseline("lr", SAMPLE_CORPUS)
    wh.run_baseline("random", SAMPLE_CORPUS, seed=1)
    analyze(wh)


def run_demo(out: str | os.PathLike) -> str:
    """Build the demo warehouse in ``out`` and return the report text."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    db = out / "warehouse.duckdb"
    build_sample_warehouse(db)
    lines = []
    with connect(db, read_only=True) as wh:

        def table(query: str) -> str:
            rel = wh.sql(query)
            return render_table(list(rel.columns), rel.fetchall())

        corpus = wh.sql("SELECT sentences, words, multiword_tokens, empty_nodes, edges FROM corpora").fetchone()
        lines += [
            f"evalhouse demo: bundled sample treebank -> {db}",
            f"{corpus[0]} sentences, {corpus[1]} words, {corpus[2]} multiword tokens, "
            f"{corpus[3]} empty nodes, {corpus[4]} words after punctuation stripping",
            "",
            "Corpus complexity (Shimorina et al. 2021, Table 2 layout; sd is ddof = 1):",
            table("""SELECT corpus, sentences,
                                  round(depth_mean, 2) || ' ± ' || round(depth_sd, 2) AS depth,
                                  round(length_mean, 2) || ' ± ' || round(length_sd, 2) AS length,
                                  round(mean_dependency_distance_mean, 2) || ' ± ' || round(mean_dependency_distance_sd, 2) AS mdd,
                                  round(mean_flux_size_mean, 2) || ' ± ' || round(mean_flux_size_sd, 2) AS mfs,
                                  round(mean_flux_weight_mean, 2) || ' ± ' || round(mean_flux_weight_sd, 2) AS mfw,
                                  round(mean_arity_mean, 2) || ' ± ' || round(mean_arity_sd, 2) AS ma,
                                  round(nonprojective_pct, 2) AS np_pct
                           FROM corpus_complexity"""),
            "",
            "Figure 1 of the paper (sentence 1): every Table 1 value",
            table("""SELECT sent_id, length, depth, mean_dependency_distance AS mdd, mean_flux_size AS mfs,
                                  mean_flux_weight AS mfw, mean_arity AS ma, projective
                           FROM sentence_complexity WHERE position = 1"""),
            "",
            "Non-projective sentences:",
            table("""SELECT c.sent_id, s.text FROM sentence_complexity c JOIN sentences s USING (corpus, position)
                           WHERE NOT c.projective ORDER BY c.position"""),
            "",
            "Relations with the freest word order (entropy H(d), stripped trees):",
            table("""SELECT relation, left_count, right_count, round(entropy, 3) AS entropy
                           FROM relation_entropy ORDER BY entropy DESC, relation LIMIT 5"""),
            "",
            "Two baseline realisers scored against the sample (lr learned on the sample itself, so optimistic):",
            table("""SELECT team, run, sentences, round(dea, 3) AS dea, round(mean_bleu, 3) AS bleu,
                                  round(mean_ssa, 3) AS ssa, round(mean_gsa, 3) AS gsa, round(mean_sta, 3) AS sta,
                                  round(mean_gta, 3) AS gta
                           FROM submission_scores ORDER BY dea DESC"""),
            "",
            "Relations the lr baseline gets wrong most often (DEA per relation, at least 5 edges):",
            table("""SELECT relation, edges, matched, round(accuracy, 3) AS accuracy FROM dea_by_relation
                           WHERE run = 'lr' AND edges >= 5 ORDER BY accuracy, relation LIMIT 5"""),
            "",
            "Most suspicious subtrees of the random baseline (evalhouse analyze; Narayan & Gardent score):",
            table("""SELECT view, form, c_f, c_f_fail, round(score, 3) AS score, rank FROM suspicious_subtrees
                           WHERE run = 'random' AND view IN ('dep', 'pos-dep') AND rank <= 3 ORDER BY view, rank"""),
        ]
    csv_out = out / "sentence_complexity.csv"
    with connect(db, read_only=True) as wh:
        rows = wh.export_view("sentence_complexity", csv_out, format="csv")
        page = build_report(wh, out / "report", corpus="sample").path
    lines += [
        "",
        f"Exported {rows} rows of sentence_complexity to {csv_out}.",
        f"Wrote the HTML report {page} (open it in a browser; figures as SVG, PDF and PNG in "
        f"{page.parent / 'figures'}).",
        f'Next: evalhouse --db {db} views   |   evalhouse --db {db} sql "select * from corpus_complexity"',
    ]
    return "\n".join(lines)
