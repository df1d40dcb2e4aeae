"""Benchmark of system-output scoring on real data, with straightforward baselines in the same run.

    $ python -m benchmarks.outputs [--data ../shared/data] [--runs 50] [--pairs 100000]

1. ``sentence_bleu``: 100k (hypothesis, reference) lemma-token pairs built from the real ADAPT runs
   against UD v2.3 en_ewt test. Baseline: NLTK's ``sentence_bleu`` with ``method2``, one call per pair.
   Measured: evalhouse's Python function and the SQL function over a DuckDB table; the values are
   compared pair by pair.
2. A campaign of ``--runs`` runs x 2,077 sentences: the 5 real ADAPT runs plus generated
   perturbations of the en_ewt test sentences (seeded adjacent swaps, subtree moves and dropped
   words; half written tokenised, half detokenised), laid out as DIR/<team>/<run>/en_out.txt and
   ingested with one ``ingest outputs DIR`` (tokenisation, alignment, every statistic), then every
   mart view read in full. Baseline: a straightforward per-sentence Python implementation of the
   same scores (the same tokeniser and aligner, then DEA with Python loops, NLTK sentence BLEU on
   lemmas and on surface tokens, the string and tree edit counts), kept in memory, timed over the
   same files.

Nothing is written into the project; the campaign lives in a temporary directory. Issue 18's campaign row
(whole processes, CPU and memory, the peer's numbers checked against the warehouse) is
``python -m benchmarks.campaign``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

import duckdb
import numpy as np
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

import evalhouse
from evalhouse.analysis import accuracy, alignment
from evalhouse.analysis.bleu import sentence_bleu_many
from evalhouse.analysis.udfs import register_udfs
from evalhouse.loaders.outputs import read_output_file
from evalhouse.ingest.outputs import load_reference
from evalhouse.version import __version__


def _lemma_pairs(data: Path, n: int):
    ref_file = data / "ud-v2.3" / "en_ewt-ud-test.conllu"
    runs = sorted((data / "sr-outputs" / "adapt-ewt-test").glob("*/en_out.txt"))
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([ref_file], corpus="ewt")
        for k, f in enumerate(runs):
            wh.ingest_outputs(f, reference="ewt", team="adapt", run=str(k))
        hyp = wh.sql(
            "SELECT list(lower(lemma) ORDER BY token) FILTER (WHERE NOT punct) FROM output_tokens "
            "GROUP BY run, position ORDER BY run, position"
        ).fetchall()
        ref = wh.sql(
            "SELECT list(lower(dependent_lemma) ORDER BY dependent) FROM edges GROUP BY position ORDER BY position"
        ).fetchall()
    refs = [r[0] for r in ref]
    pairs = [(h[0] or [], refs[k % len(refs)]) for k, h in enumerate(hyp)]
    return [pairs[k % len(pairs)] for k in range(n)]


def bench_bleu(data: Path, n: int) -> None:
    pairs = _lemma_pairs(data, n)
    hyps = [p[0] for p in pairs]
    refs = [p[1] for p in pairs]
    smooth = SmoothingFunction().method2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = time.perf_counter()
        expected = np.array([sentence_bleu([r], h, smoothing_function=smooth) for h, r in pairs])
        nltk_s = time.perf_counter() - t
    sentence_bleu_many(hyps[:100], refs[:100])  # warm imports
    t = time.perf_counter()
    ours = sentence_bleu_many(hyps, refs)
    python_s = time.perf_counter() - t
    con = duckdb.connect()
    register_udfs(con)
    con.execute(
        "CREATE TABLE pairs AS SELECT unnest($h) AS h, unnest($r) AS r, unnest(range(1, $n + 1)) AS k",
        {"h": hyps, "r": refs, "n": len(pairs)},
    )
    t = time.perf_counter()
    sql = np.array([v for (v,) in con.execute("SELECT sentence_bleu(h, r) FROM pairs ORDER BY k").fetchall()])
    sql_s = time.perf_counter() - t
    print(f"sentence_bleu over {len(pairs):,} real lemma pairs ({sum(map(len, hyps)) + sum(map(len, refs)):,} tokens)")
    print(f"  NLTK sentence_bleu (method2), one call per pair: {nltk_s:.2f} s, {len(pairs) / nltk_s:,.0f} pairs/s")
    print(
        f"  evalhouse sentence_bleu_many (Python API): {python_s:.3f} s, {len(pairs) / python_s:,.0f} pairs/s, "
        f"ratio {nltk_s / python_s:.1f}x"
    )
    print(
        f"  evalhouse SQL sentence_bleu(h, r) over a table: {sql_s:.3f} s, {len(pairs) / sql_s:,.0f} pairs/s, "
        f"ratio {nltk_s / sql_s:.1f}x"
    )
    print(
        f"  max |difference| to NLTK: Python {np.max(np.abs(ours - expected)):.2e}, "
        f"SQL {np.max(np.abs(sql - expected)):.2e}"
    )


def _perturbed_runs(data: Path, out: Path, runs: int) -> int:
    """Write the real runs and generated perturbations as out/<team>/<run>/en_out.txt."""

    real = sorted((data / "sr-outputs" / "adapt-ewt-test").glob("*/en_out.txt"))
    for f in real[:runs]:
        target = out / "adapt" / f.parent.name / "en_out.txt"
        target.parent.mkdir(parents=True)
        target.write_bytes(f.read_bytes())
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([data / "ud-v2.3" / "en_ewt-ud-test.conllu"], corpus="ewt")
        rows = wh.sql(
            "SELECT position, list(form ORDER BY id), list(head ORDER BY id), "
            "list(misc NOT LIKE '%SpaceAfter=No%' ORDER BY id) FROM nodes GROUP BY position "
            "ORDER BY position"
        ).fetchall()
    for k in range(max(0, runs - len(real))):
        rng = np.random.default_rng(k)
        lines = []
        for pos, forms, heads, spaces in rows:
            order = list(range(len(forms)))
            for _ in range(rng.integers(0, 4)):  # adjacent swaps
                if len(order) > 1:
                    i = int(rng.integers(0, len(order) - 1))
                    order[i], order[i + 1] = order[i + 1], order[i]
            if rng.random() < 0.3 and len(order) > 3:  # move a subtree to the front
                root = int(rng.integers(0, len(forms)))
                sub = {root}
                changed = True
                while changed:
                    changed = False
                    for w, h in enumerate(heads):
                        if h - 1 in sub and w not in sub:
                            sub.add(w)
                            changed = True
                order = [w for w in order if w in sub] + [w for w in order if w not in sub]
            if rng.random() < 0.1 and len(order) > 2:  # drop a word
                order.pop(int(rng.integers(0, len(order))))
            if k % 2:
                text = " ".join(forms[w] for w in order)
            else:
                text = "".join(forms[w] + (" " if spaces[w] else "") for w in order).strip()
            lines.append(f"# sent_id = {pos}\n# text = {text}\n")
        target = out / "perturbed" / f"p{k:02d}" / "en_out.txt"
        target.parent.mkdir(parents=True)
        target.write_text("\n".join(lines), encoding="utf-8")
    return len(rows)


def naive_scores(wh, files: list[Path], corpus: str) -> int:
    """The straightforward implementation: per sentence, Python loops and NLTK BLEU."""

    ref = load_reference(wh.con, corpus)
    edges = wh.sql(
        "SELECT position, lower(head_lemma), lower(dependent_lemma), distance FROM edges "
        "WHERE corpus = $c AND head > 0",
        {"c": corpus},
    ).fetchall()
    by_sentence: dict[int, list] = {}
    for pos, h, d, dist in edges:
        by_sentence.setdefault(pos, []).append((h, d, dist))
    smooth = SmoothingFunction().method2
    scored = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for f in files:
            out = read_output_file(f)
            for s in out.sentences:
                pos = int(s.key)
                rs = ref.sentences[pos - 1]
                toks = alignment.align(alignment.tokenise(s.text, rs), rs)
                hyp = [t.lemma.lower() for t in toks if not t.punct]
                triples = Counter(by_sentence.get(pos, []))
                found = 0
                for (h, d, dist), k in triples.items():
                    pairs = sum(
                        1 for i, lem in enumerate(hyp) if lem == h and 0 <= i + dist < len(hyp) and hyp[i + dist] == d
                    )
                    found += min(k, pairs)
                lemma_of = dict(zip(rs.ids, rs.lemmas))
                reference = [lemma_of[i].lower() for i in ref.stripped_ids[pos - 1]]
                sentence_bleu([reference], hyp, smoothing_function=smooth) if hyp else 0.0
                surface = [t.form for t in toks]
                sentence_bleu([rs.forms], surface, smoothing_function=smooth) if surface else 0.0
                accuracy.edit_counts(reference, hyp)
                where, k = {}, 0
                for t in toks:
                    if not t.punct:
                        k += 1
                        if t.reference_id is not None:
                            where[t.reference_id] = k
                accuracy.tree_counts(
                    ref.stripped_heads[pos - 1], [where.get(i) for i in ref.stripped_ids[pos - 1]], output_length=k
                )
                # seed 003's own accuracies: the words, punctuation kept, the whole tree
                words = [t.form.lower() for t in toks]
                accuracy.edit_counts([f.lower() for f in rs.forms], words)
                at = {t.reference_id: n for n, t in enumerate(toks) if t.reference_id is not None}
                accuracy.tree_counts(ref.heads[pos - 1], [at.get(i) for i in rs.ids])
                scored += 1
    return scored


def bench_campaign(data: Path, runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        campaign = tmp / "campaign"
        sentences = _perturbed_runs(data, campaign, runs)
        files = sorted(campaign.glob("*/*/en_out.txt"))
        db = tmp / "campaign.duckdb"
        with evalhouse.connect(db) as wh:
            wh.ingest_treebank([data / "ud-v2.3" / "en_ewt-ud-test.conllu"])
        t0 = time.perf_counter()
        with evalhouse.connect(db) as wh:
            wh.ingest_outputs(campaign, reference="en_ewt-test")
        ingest_s = time.perf_counter() - t0
        view_s = {}
        with evalhouse.connect(db, read_only=True) as wh:
            for view in (
                "dea_edges",
                "sentence_scores",
                "dea_by_relation",
                "dea_by_relation_pooled",
                "submission_scores",
            ):
                t = time.perf_counter()
                wh.sql(f"CREATE TEMP TABLE bench_{view} AS SELECT * FROM {view}")
                view_s[view] = time.perf_counter() - t
            t = time.perf_counter()
            naive_n = naive_scores(wh, files, "en_ewt-test")
            naive_s = time.perf_counter() - t
        total = ingest_s + sum(view_s.values())
        print(f"campaign: {len(files)} runs x {sentences:,} sentences = {len(files) * sentences:,} output sentences")
        print(f"  ingest outputs DIR (tokenise, align, statistics, one transaction): {ingest_s:.1f} s")
        for view, s in view_s.items():
            print(f"  compute every row of {view} (CREATE TEMP TABLE AS SELECT *): {s:.2f} s")
        print(f"  total ingest + all metric views: {total:.1f} s (target < 60 s)")
        print(
            f"  baseline per-sentence Python (same tokeniser/aligner, DEA loops, NLTK BLEU x2, string and tree edit counts; nothing stored): "
            f"{naive_s:.1f} s for {naive_n:,} sentences; ratio {naive_s / total:.1f}x"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent.parent
    parser.add_argument("--data", type=Path, default=here.parent / "shared" / "data")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--pairs", type=int, default=100_000)
    parser.add_argument("--only", choices=("bleu", "campaign"))
    args = parser.parse_args(argv)
    if not (args.data / "ud-v2.3" / "en_ewt-ud-test.conllu").exists():
        sys.exit(f"REAL DATA MISSING under {args.data}")

    print(f"# evalhouse {__version__} system-output benchmark")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, duckdb {duckdb.__version__}"
    )
    if args.only in (None, "bleu"):
        bench_bleu(args.data, args.pairs)
    if args.only in (None, "campaign"):
        bench_campaign(args.data, args.runs)


if __name__ == "__main__":
    main()
