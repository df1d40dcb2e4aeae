"""Adversarial tree shapes end to end (issue 17, point 2): ``evalhouse ingest treebank`` and a full scan
of ``sentence_complexity``, one whole process per shape, under ``--memory-limit``.

    $ python -m benchmarks.adversarial [--memory-limit 500MB] [--quick]

Each shape (``benchmarks/trees.py:shape``) is written as a one-sentence CoNLL-U file: a 100,000-word
chain, star, comb, rainbow and random tree, flat trees of 10,000 and 30,000 words (the root in the
middle), and the issue's deep punctuation chain (50,000 words: a chain of punctuation with a word
below each link, which took 23.6 GB before).  Reported: wall and CPU seconds of the process (imports
included), its peak resident memory, and that memory less the limit given to DuckDB: what evalhouse
itself holds (the documented constant, README "Memory").
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.trees import shape

SHAPES = [
    ("chain", 100_000),
    ("star", 100_000),
    ("comb", 100_000),
    ("rainbow", 100_000),
    ("random", 100_000),
    ("flat", 10_000),
    ("flat", 30_000),
    ("punct_chain", 50_000),
    ("punct_chain", 100_000),
]

CHILD = """
import sys, evalhouse
with evalhouse.connect(sys.argv[2], memory_limit=sys.argv[3]) as wh:
    wh.ingest_treebank([sys.argv[1]], corpus="shape")
    row = wh.sql("SELECT length, depth, mean_dependency_distance, mean_flux_weight, projective "
                 "FROM sentence_complexity").fetchall()
print(row)
"""


def write_sentence(path: Path, heads: list[int], punct: list[bool]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write("# sent_id = 1\n")
        for i, (h, p) in enumerate(zip(heads, punct), 1):
            rel = "punct" if p else ("root" if h == 0 else "dep")
            f.write(f"{i}\tw{i}\tw{i}\t{'PUNCT' if p else 'X'}\t_\t_\t{h}\t{rel}\t_\t_\n")
        f.write("\n")


def run(path: Path, db: Path, memory_limit: str) -> dict:
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(db), memory_limit],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    out, err = proc.stdout.read(), proc.stderr.read()
    if os.waitstatus_to_exitcode(status):
        return {"error": (err.strip().splitlines() or ["?"])[-1][:100]}
    return {
        "wall": time.perf_counter() - start,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss / 1024,
        "row": out.strip(),
    }


def _mib(size: str) -> float:
    units = {"KB": 1e3 / 2**20, "MB": 1e6 / 2**20, "GB": 1e9 / 2**20, "KIB": 1 / 1024, "MIB": 1, "GIB": 1024}
    s = size.strip().upper()
    for u in sorted(units, key=len, reverse=True):
        if s.endswith(u):
            return float(s[: -len(u)]) * units[u]
    return float(s) / 2**20


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memory-limit", default="500MB")
    ap.add_argument("--quick", action="store_true", help="shapes of 2,000 words (a smoke run)")
    args = ap.parse_args(argv)
    shapes = [(name, 2_000) for name, _ in SHAPES] if args.quick else SHAPES
    limit = _mib(args.memory_limit)
    print(
        f"# adversarial shapes, ingest + sentence_complexity, --memory-limit {args.memory_limit}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M %Z')}"
    )
    print(
        f"{'shape':12} {'words':>8} {'wall s':>7} {'CPU s':>7} {'peak RSS MiB':>13} {'over limit MiB':>15}  "
        "length, depth, MDD, MFW, projective"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for name, n in shapes:
            path = Path(tmp) / f"{len(list(Path(tmp).glob('*.conllu')))}-{name}-{n}.conllu"
            write_sentence(path, *shape(name, n))
            db = path.with_suffix(".duckdb")
            r = run(path, db, args.memory_limit)
            if "error" in r:
                print(f"{name:12} {n:>8,} ERROR {r['error']}")
                continue
            print(
                f"{name:12} {n:>8,} {r['wall']:>7.2f} {r['cpu']:>7.2f} {r['rss']:>13,.0f} "
                f"{r['rss'] - limit:>15,.0f}  {r['row']}",
                flush=True,
            )
    print(f"# load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
