"""Ingest and view benchmark on real treebanks, with the conllu-library baseline in the same run.

    $ python -m benchmarks.treebanks [--data ../shared/data/ud] [--copies 6]

Measures, on this machine:

1. baseline: ``conllu.parse_incr`` alone over the ≥1M-token concatenation (nothing else);
2. ``evalhouse ingest treebank`` of the same file into a fresh on-disk warehouse, with every
   validation, ``edges`` and the Python tree metrics (run in a child process so that its peak
   resident memory is measured on its own);
3. ingest of every UD file as its own corpus;
4. the complexity views over the 1M-token corpus (``sentence_complexity`` fully scanned,
   ``corpus_complexity``, ``relation_entropy``).

The concatenation repeats every file of ``--data`` ``--copies`` times with sent_ids made unique
(``<file>-<copy>-<sent_id>``), so that it is a valid corpus.  Nothing is written into the project.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import conllu
import duckdb

import evalhouse
from evalhouse.version import __version__

_SENT_ID = re.compile(r"^# sent_id = (.*)$")


def build_concatenation(files: list[Path], copies: int, out: Path) -> int:
    """Write the concatenation; returns its number of syntactic words."""
    words = 0
    with open(out, "w", encoding="utf-8", newline="\n") as handle:
        for copy in range(1, copies + 1):
            for f in files:
                stem = f.name[:-len(".conllu")]
                with open(f, encoding="utf-8") as src:
                    for line in src:
                        m = _SENT_ID.match(line)
                        if m:
                            line = f"# sent_id = {stem}-{copy}-{m.group(1)}\n"
                        elif line[:1].isdigit():
                            head = line.split("\t", 1)[0]
                            if head.isdigit():
                                words += 1
                        handle.write(line)
    return words


def time_conllu(path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    n = 0
    with open(path, encoding="utf-8") as handle:
        for sentence in conllu.parse_incr(handle):
            n += len(sentence)
    return time.perf_counter() - start, n


_CHILD = """
import sys, time, resource, evalhouse
start = time.perf_counter()
with evalhouse.connect(sys.argv[1]) as wh:
    wh.ingest_treebank(sys.argv[3:], corpus=sys.argv[2] or None)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def time_ingest(db: Path, files: list[Path], corpus: str | None) -> tuple[float, float]:
    """(seconds, peak RSS in MiB) of an ingest in a fresh child process."""
    r = subprocess.run([sys.executable, "-c", _CHILD, str(db), corpus or "", *map(str, files)],
                       capture_output=True, text=True, check=True)
    seconds, rss_kib = r.stdout.strip().splitlines()[-1].split()
    return float(seconds), int(rss_kib) / 1024


def time_views(db: Path, corpus: str) -> dict[str, float]:
    out = {}
    with evalhouse.connect(db, read_only=True) as wh:
        for name, query in [
            ("sentence_complexity (all rows)", "SELECT count(*), sum(depth), sum(mean_flux_weight) FROM sentence_complexity WHERE corpus = $c"),
            ("corpus_complexity", "SELECT * FROM corpus_complexity WHERE corpus = $c"),
            ("relation_entropy", "SELECT * FROM relation_entropy WHERE corpus = $c"),
        ]:
            start = time.perf_counter()
            wh.sql(query, {"c": corpus}).fetchall()
            out[name] = time.perf_counter() - start
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent.parent
    parser.add_argument("--data", type=Path, default=here.parent / "shared" / "data" / "ud")
    parser.add_argument("--copies", type=int, default=6)
    args = parser.parse_args(argv)
    files = sorted(args.data.rglob("*.conllu"))
    if not files:
        sys.exit(f"no *.conllu under {args.data}")


    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        big = tmp / "concatenation.conllu"
        words = build_concatenation(files, args.copies, big)
        print(f"# evalhouse {__version__} ingest benchmark")
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, duckdb {duckdb.__version__}")
        print(f"input: {len(files)} UD files x {args.copies} copies = {words:,} words ({big.stat().st_size / 2**20:.0f} MiB)")
        base_s, base_tokens = time_conllu(big)
        print(f"baseline conllu.parse_incr alone: {base_s:.2f} s, {words / base_s:,.0f} words/s "
              f"({base_tokens:,} tokens incl. multiword ranges)")
        ingest_s, rss = time_ingest(tmp / "big.duckdb", [big], "concatenation")
        print(f"evalhouse ingest (validate + nodes + edges + tree metrics, on-disk warehouse): {ingest_s:.2f} s, "
              f"{words / ingest_s:,.0f} words/s, peak RSS {rss:,.0f} MiB")
        print(f"ratio evalhouse / conllu-alone throughput: {base_s / ingest_s:.1f}x")
        all_s, all_rss = time_ingest(tmp / "ud.duckdb", files, None)
        ud_words = words // args.copies
        print(f"all {len(files)} UD files, one corpus each: {all_s:.2f} s, {ud_words / all_s:,.0f} words/s, peak RSS {all_rss:,.0f} MiB")
        for name, seconds in time_views(tmp / "big.duckdb", "concatenation").items():
            print(f"view {name} over {words:,} words: {seconds:.2f} s")


if __name__ == "__main__":
    main()
