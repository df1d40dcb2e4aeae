"""Scale benchmark: how ingest, the views, and the same views on Spark grow with warehouse size.

    $ python -m benchmarks.scale --tokens 1000000,3000000 [--data ../shared/data/ud] [--no-spark]
          [--memory-limit 1GB]

For each size N it builds a fresh on-disk warehouse from the UD files in ``--data``, each file
ingested again and again under distinct corpus names (``<corpus>-r<k>``) until N syntactic words are
in, plus generated system runs: every ``--run-every``-th corpus gets a realisation by the random
baseline (``evalhouse baseline random``, seed = the corpus's number), ingested and scored like any
submission, so the output views (DEA, BLEU, scores) have rows that grow with N. It measures, in a child process of its own (so its peak resident memory is its own):

1. ingest throughput (words per second over all ``ingest treebank`` calls) and the time of the
   generated runs (output words per second);
2. peak resident set size (``ru_maxrss``) of that process after ingest, after the views and at the
   end; ``--memory-limit`` caps DuckDB's memory (the warehouse's ``memory_limit``), so these show
   whether memory stays flat as the warehouse grows;
3. the time of each view with rows (``CREATE TEMP TABLE AS SELECT * FROM view``: the full result
   is computed and materialised);
4. ``export-dataset --partition-by corpus`` time and size;
5. with Spark (pyspark and a JDK installed), the same views transpiled by ``export-sql --dialect spark``
   over that dataset, each fully computed (``write.format('noop')``), in local mode with all cores;
   JVM start-up is not counted.

The output is a Markdown table per size plus a growth summary (time per million words); ``--json``
writes every number. Nothing is written into the project.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

import evalhouse
from evalhouse.export.dataset import export_dataset
from evalhouse.export.transpile import session_settings, transpile_all
from evalhouse.ingest.baselines import run_baseline


SPARK_DRIVER_MEMORY = "4g"


def _ud_files(data: Path) -> list[Path]:
    return sorted(data.rglob("*.conllu"))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def build_and_measure(
    data: Path, tokens: int, workdir: Path, memory_limit: str | None = None, run_every: int = 5
) -> dict:
    """Child-process body: ingest, generated runs, views, export. Returns the measurements."""
    files = _ud_files(data)
    db = workdir / "scale.duckdb"
    words = 0
    corpora = 0
    ingest_s = 0.0
    runs = run_words = 0
    runs_s = 0.0
    copy = 0
    with evalhouse.connect(db, memory_limit=memory_limit) as wh:
        duckdb_memory_limit = wh.con.execute("SELECT current_setting('memory_limit')").fetchone()[0]
        while words < tokens:
            copy += 1
            for f in files:
                if words >= tokens:
                    break
                name = f.name.replace("-ud-", "-").rsplit(".", 1)[0] + f"-r{copy}"
                t = time.perf_counter()
                [summary] = wh.ingest_treebank([f], corpus=name)
                ingest_s += time.perf_counter() - t
                words += summary.words
                corpora += 1
                if run_every and corpora % run_every == 0:
                    t = time.perf_counter()
                    run_baseline(wh, "random", name, seed=corpora)
                    runs_s += time.perf_counter() - t
                    runs += 1
                    run_words += summary.words
        rss_after_ingest = _rss_mb()
        view_times = {}
        view_rows = {}
        for name, _ in wh.views():
            t = time.perf_counter()
            wh.con.execute(f'CREATE OR REPLACE TEMP TABLE bench_view AS SELECT * FROM "{name}"')
            elapsed = time.perf_counter() - t
            n = wh.con.execute("SELECT count(*) FROM bench_view").fetchone()[0]
            wh.con.execute("DROP TABLE bench_view")
            if n:
                view_times[name], view_rows[name] = elapsed, n
        rss_after_views = _rss_mb()
        t = time.perf_counter()
        export_dataset(wh, workdir / "dataset", partition_by="corpus")
        export_s = time.perf_counter() - t
    size = sum(p.stat().st_size for p in (workdir / "dataset").rglob("*") if p.is_file())
    return {
        "tokens_target": tokens,
        "words": words,
        "corpora": corpora,
        "ingest_s": ingest_s,
        "ingest_words_per_s": words / ingest_s,
        "generated_runs": runs,
        "generated_run_words": run_words,
        "generated_runs_s": runs_s,
        "run_every": run_every,
        "db_bytes": db.stat().st_size,
        "view_s": view_times,
        "view_rows": view_rows,
        "export_s": export_s,
        "dataset_bytes": size,
        "duckdb_memory_limit": duckdb_memory_limit,
        "peak_rss_after_ingest_mb": rss_after_ingest,
        "peak_rss_after_views_mb": rss_after_views,
        "peak_rss_mb": _rss_mb(),
    }


def spark_measure(dataset: Path, views: list[str]) -> dict:
    """Child-process body: the transpiled views on Spark local mode over the dataset."""
    from pyspark.sql import SparkSession  # optional: --no-spark runs without pyspark installed

    spark = (
        SparkSession.builder.master("local[*]")
        .appName("evalhouse-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", SPARK_DRIVER_MEMORY)
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    for s in session_settings("spark", dataset=True):
        spark.sql(s)
    times = {}
    for r in transpile_all("spark", dataset):
        if not r.ok:
            continue
        for s in r.statements:
            spark.sql(s)
        if r.kind == "view" and r.name in views:
            t = time.perf_counter()
            spark.sql(f"SELECT * FROM {r.name}").write.format("noop").mode("overwrite").save()
            times[r.name] = time.perf_counter() - t
    spark.stop()
    return {"spark_view_s": times, "spark_driver_memory": SPARK_DRIVER_MEMORY}


def _child(mode: str, *args: str) -> dict:
    r = subprocess.run(
        [sys.executable, "-m", "benchmarks.scale", "--child", mode, *args], capture_output=True, text=True
    )
    if r.returncode != 0:
        raise RuntimeError(f"{mode} child failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), cpu)
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB RAM, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def report(results: list[dict]) -> str:
    """The Markdown tables of docs/engines-and-bi.md#scale, from the measurements (or their JSON)."""

    def setting(key: str, absent: str = "-") -> str:
        return ", ".join(sorted({str(r[key]) for r in results if key in r})) or absent

    lines = [
        f"Configuration: DuckDB memory_limit {setting('duckdb_memory_limit')}; a generated run for every "
        f"{setting('run_every')}th corpus; Spark driver memory {setting('spark_driver_memory', 'none (Spark not run)')}.",
        "",
        "| words | corpora | ingest s | words/s | generated runs (words) | runs s "
        "| peak RSS MB after ingest / views / export | db MB | export s | dataset MB | all views DuckDB s "
        "| all views Spark s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        spark = f"{sum(r['spark_view_s'].values()):,.1f}" if r.get("spark_view_s") else "-"
        lines.append(
            f"| {r['words']:,} | {r['corpora']:,} | {r['ingest_s']:.1f} | {r['ingest_words_per_s']:,.0f} | "
            f"{r.get('generated_runs', 0)} ({r.get('generated_run_words', 0):,}) | {r.get('generated_runs_s', 0):.1f} | "
            f"{r.get('peak_rss_after_ingest_mb', float('nan')):,.0f} / "
            f"{r.get('peak_rss_after_views_mb', float('nan')):,.0f} / {r['peak_rss_mb']:,.0f} | "
            f"{r['db_bytes'] / 2**20:,.0f} | {r['export_s']:.1f} | {r['dataset_bytes'] / 2**20:,.0f} | "
            f"{sum(r['view_s'].values()):.2f} | {spark} |"
        )
    largest = results[-1]
    lines += [
        "",
        "Per view (seconds; DuckDB / Spark):",
        "",
        f"| view | rows at {largest['words'] / 1e6:.3g}M | "
        + " | ".join(f"{r['words'] / 1e6:.1f}M" for r in results)
        + " |",
        "|---|---|" + "---|" * len(results),
    ]
    for v in sorted(results[0]["view_s"]):
        cells = []
        for r in results:
            s = r.get("spark_view_s", {}).get(v)
            cells.append(f"{r['view_s'].get(v, float('nan')):.2f} / " + (f"{s:.2f}" if s is not None else "-"))
        lines.append(f"| `{v}` | {largest['view_rows'].get(v, 0):,} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Growth (seconds per million words, so a constant means linear growth; peak RSS is the absolute peak):",
        "",
        "| words | ingest | generated runs | export | DuckDB views | Spark views | peak RSS MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        m = r["words"] / 1e6
        spark = f"{sum(r['spark_view_s'].values()) / m:.1f}" if r.get("spark_view_s") else "-"
        lines.append(
            f"| {r['words']:,} | {r['ingest_s'] / m:.1f} | {r.get('generated_runs_s', 0) / m:.1f} | "
            f"{r['export_s'] / m:.1f} | {sum(r['view_s'].values()) / m:.2f} | {spark} | "
            f"{r['peak_rss_mb']:,.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--data", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "ud"
    )
    p.add_argument("--tokens", default="1000000,3000000", help="comma-separated sizes in syntactic words")
    p.add_argument("--no-spark", action="store_true", help="skip the Spark measurements")
    p.add_argument("--spark-max-tokens", type=int, help="run Spark only for sizes up to this many words")
    p.add_argument(
        "--run-every",
        type=int,
        default=5,
        help="one generated run (random baseline) for every K-th corpus; 0 for none (default 5)",
    )
    p.add_argument("--memory-limit", help="DuckDB memory_limit for the warehouse, e.g. 1GB (default: DuckDB's)")
    p.add_argument("--json", type=Path, help="also write every number to this file")
    p.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        mode, *rest = args.child
        if mode == "build":
            out = build_and_measure(
                Path(rest[0]), int(rest[1]), Path(rest[2]), run_every=int(rest[3]), memory_limit=(rest[4:] or [None])[0]
            )
        else:
            out = spark_measure(Path(rest[0]), rest[1].split(","))
        print(json.dumps(out))
        return
    if not _ud_files(args.data):
        sys.exit(f"no .conllu files under {args.data} (pass --data)")
    results = []
    for n in [int(x) for x in args.tokens.split(",")]:
        with tempfile.TemporaryDirectory(prefix="evalhouse-scale-") as tmp:
            r = _child(
                "build",
                str(args.data),
                str(n),
                tmp,
                str(args.run_every),
                *([args.memory_limit] if args.memory_limit else []),
            )
            if not args.no_spark and (args.spark_max_tokens is None or n <= args.spark_max_tokens):
                try:
                    r.update(_child("spark", str(Path(tmp) / "dataset"), ",".join(r["view_s"])))
                except RuntimeError as err:
                    print(f"spark skipped: {str(err)[-1500:]}", file=sys.stderr)
            results.append(r)
            print(f"{r['words']:,} words done", file=sys.stderr)
            if args.json:  # after every size, so a failure later keeps what was measured
                args.json.write_text(json.dumps({"machine": machine(), "results": results}, indent=1))

    print(f"Machine: {machine()}; DuckDB {duckdb.__version__}\n")
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "results": results}, indent=1))


if __name__ == "__main__":
    main()
