"""Benchmark of ``evalhouse analyze`` on real data.

    $ python -m benchmarks.analyze [--data ../shared/data] [--submissions 50] [--resamples 1000]

Set-up (not timed): UD v2.3 en_ewt test and the 5 real ADAPT runs are ingested into an in-memory
warehouse; the runs are then copied inside the warehouse (rows of output_sentences, output_tokens,
sentence_statistics and submissions under new run names) up to ``--submissions`` submissions of
2,077 sentences each. Copies have the same scores as their original, which does not change the work
done.

Timed: 1. the whole ``analyze`` (correlations with Holm, projectivity tests, entropy-DEA, tree error
mining in the dep, pos and pos-dep views, paired tests on every pair, DEA intervals, ensemble) with
the paired tests and intervals switched off by ``--resamples 1`` so that the statistics and mining
target is measured on its own; 2. one pair's paired bootstrap with ``--resamples`` resamples on BLEU
and on DEA, from the per-sentence statistics; 3. the full ``analyze`` with ``--resamples``.
Nothing is written into the project.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np

import evalhouse
from evalhouse.analysis import stats
from evalhouse.statistics.analyze import AnalysisConfig, CorpusData, analyze


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
    parser.add_argument("--submissions", type=int, default=50)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--full", action="store_true", help="also time analyze with all pairs resampled")
    args = parser.parse_args(argv)

    data = Path(args.data)
    runs = sorted((data / "sr-outputs" / "adapt-ewt-test").glob("*/en_out.txt"))
    wh = evalhouse.connect(":memory:")
    t = time.perf_counter()
    wh.ingest_treebank([data / "ud-v2.3" / "en_ewt-ud-test.conllu"], corpus="ewt")
    for f in runs:
        wh.ingest_outputs(f, reference="ewt", team="adapt", run=f.parent.name)
    copies = 0
    while len(runs) * (copies + 1) < args.submissions:
        copies += 1
        for table in ("output_sentences", "output_tokens", "sentence_statistics", "submissions"):
            wh.con.execute(f"""INSERT INTO {table} SELECT * REPLACE (run || '#{copies}' AS run) FROM {table}
                               WHERE team = 'adapt' AND run NOT LIKE '%#%'""")
    wh.con.execute(f"""DELETE FROM submissions WHERE run IN (SELECT run FROM submissions ORDER BY run
                       OFFSET {args.submissions})""")
    n_subs = wh.sql("select count(*) from submissions").fetchone()[0]
    print(
        f"set-up: {n_subs} submissions x 2,077 sentences in {time.perf_counter() - t:.1f} s "
        f"({platform.machine()}, Python {platform.python_version()})"
    )

    t = time.perf_counter()
    summary = analyze(wh, AnalysisConfig(resamples=1, views=("dep", "pos", "pos-dep")))
    print(
        f"analyze, statistics and mining in 3 views (resamples 1): {time.perf_counter() - t:.2f} s  rows {summary.rows}"
    )

    keys = sorted(wh.sql("select team, run from submissions").fetchall())[:2]
    corpus = CorpusData.load(wh, "ewt", keys)
    t = time.perf_counter()
    bleu = corpus.scores["bleu"]
    stats.paired_bootstrap(bleu[0], bleu[1], np.ones(bleu.shape[1]), args.resamples, 1)
    ok = corpus.edges > 0
    stats.paired_bootstrap(corpus.matched[0][ok], corpus.matched[1][ok], corpus.edges[ok], args.resamples, 1)
    print(f"paired bootstrap, one pair, {args.resamples} resamples, BLEU and DEA: {time.perf_counter() - t:.3f} s")
    if args.full:
        t = time.perf_counter()
        analyze(wh, AnalysisConfig(resamples=args.resamples, views=("dep", "pos", "pos-dep")))
        print(f"analyze with {args.resamples} resamples on every pair: {time.perf_counter() - t:.1f} s")
    wh.close()


if __name__ == "__main__":
    main()
