"""The fixed cost of an evalhouse command, whole process, imports included (issue 18's "fixed cost" row).

    $ python -m benchmarks.fixed_cost [--data ../shared/data] [--rounds 5]

Two rows, target <= 0.4 s each:

* ``new warehouse``: ``evalhouse --db NEW ingest treebank ONE.conllu --corpus one``: a warehouse file that
  does not exist yet (schema created, every check of ``ingest treebank``) receives one sentence. Round k
  ingests sentence k of UD v2.3 en_ewt test (distinct inputs).
* ``query``: ``evalhouse --db W sql "select * from corpus_complexity" --format csv`` on a warehouse that
  exists (read-only open, a view computed, rows printed).

A new warehouse file is a copy of an empty one cached in ``$EVALHOUSE_CACHE_DIR`` (:mod:`evalhouse.template`):
``evalhouse`` runs with a cache that holds the template (built in the untimed set-up), ``evalhouse, no
cache`` with ``EVALHOUSE_CACHE_DIR=`` (the schema created in the file, as the first new warehouse on a machine
does before it writes the template).

Beside each, the floors no Python program built on DuckDB goes below on this machine, run in the same
rounds: ``python -c pass`` (the interpreter alone) and plain ``duckdb`` doing the nearest equivalent (create
the file and store the sentence's lines with ``read_csv``; open the warehouse read-only and run the same
query); and, for the new warehouse, ``duckdb + Arrow insert``: the same file written from an Arrow table of
the sentence's lines, which is how a Python program hands DuckDB rows it has parsed. The table is built from
buffers: ``pa.array`` or ``pa.table`` of a Python list makes pyarrow import pandas (0.2 s), and so does
duckdb 1.5.6's scan of any Python object (duckdb 2.0's does not), so on 1.5.6 this floor includes that
import and on 2.0 it does not. Contenders alternate within each round (the order reverses every other round); the table gives
medians of wall and CPU (user + system) time and the largest peak RSS. Ratios are evalhouse's CPU time
divided by the target and by each floor's.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks import summary
from benchmarks.process import compile_bytecode, machine, run, typer_coercion, uptime

HERE = Path(__file__).resolve().parent
TARGET = 0.4

DUCKDB_INGEST = """
import sys, duckdb
con = duckdb.connect(sys.argv[2])
path = sys.argv[1].replace("'", "''")  # a literal: binding a parameter makes duckdb 1.5.6 import pandas
con.execute(f"CREATE TABLE lines AS SELECT * FROM read_csv('{path}', delim = '\\t', header = false, "
            "quote = '', escape = '', all_varchar = true, null_padding = true)")
con.close()
"""
DUCKDB_ARROW = """
import sys, duckdb, pyarrow as pa
from array import array
from itertools import accumulate
con = duckdb.connect(sys.argv[2])
lines = [line.encode("utf-8") for line in open(sys.argv[1], encoding="utf-8").read().splitlines()]
offsets = array("i", accumulate((len(b) for b in lines), initial=0))
# from buffers, not pa.array / pa.table of a list: those make pyarrow import pandas
column = pa.Array.from_buffers(pa.string(), len(lines), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(lines))])
rows = pa.Table.from_arrays([column], names=["line"])
con.execute("CREATE TABLE lines AS SELECT * FROM rows")
con.close()
"""
DUCKDB_QUERY = """
import sys, duckdb
con = duckdb.connect(sys.argv[1], read_only=True)
print(con.execute(sys.argv[2]).fetchall())
con.close()
"""
QUERY = "select * from corpus_complexity"


def sentences(path: Path, n: int) -> list[str]:
    """The first ``n`` sentence blocks of a CoNLL-U file, each with its blank line."""
    out, block = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            block.append(line)
            if not line.strip():
                if any(not ln.startswith("#") and ln.strip() for ln in block):
                    out.append("".join(block))
                    if len(out) == n:
                        break
                block = []
    return out


def evalhouse_command() -> list[str]:
    script = Path(sys.executable).parent / "evalhouse"
    return [str(script)] if script.exists() else [sys.executable, "-m", "evalhouse"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--before",
        type=Path,
        help="the python of another virtualenv (e.g. one with main "
        "installed): adds the contender 'evalhouse before', `python -m evalhouse` run by it",
    )
    args = parser.parse_args(argv)
    reference = args.data / "ud-v2.3" / "en_ewt-ud-test.conllu"
    if not reference.exists():
        sys.exit(f"REAL DATA MISSING: {reference}")
    evalhouse_cmd = evalhouse_command()
    blocks = sentences(reference, args.rounds + 1)
    print(f"# fixed cost of a command, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"# {machine()}; {args.rounds} alternating rounds, median")
    print(f"# {compile_bytecode(args.before)}")
    print(f"# {typer_coercion()}" + (f"; before: {typer_coercion(args.before)}" if args.before else ""))
    print(f"# {uptime()} before")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        inputs = []
        for k, block in enumerate(blocks):
            inputs.append(tmp / f"one-{k}.conllu")
            inputs[-1].write_text(block, encoding="utf-8")
        existing = tmp / "existing.duckdb"  # the query row's warehouse: sentence 0 (untimed set-up)
        cached = {**os.environ, "EVALHOUSE_CACHE_DIR": str(tmp / "cache")}  # the set-up writes the template
        uncached = {**os.environ, "EVALHOUSE_CACHE_DIR": ""}
        run(
            evalhouse_cmd + ["--db", str(existing), "ingest", "treebank", str(inputs[0]), "--corpus", "one"], env=cached
        )
        envs = {
            ("new warehouse", "evalhouse"): cached,
            ("new warehouse", "evalhouse, no cache"): uncached,
            ("query", "evalhouse"): cached,
        }
        rows = {
            "new warehouse": {
                "evalhouse": lambda k: (
                    evalhouse_cmd
                    + ["--db", str(tmp / f"new-e{k}.duckdb"), "ingest", "treebank", str(inputs[k]), "--corpus", "one"]
                ),
                "evalhouse, no cache": lambda k: (
                    evalhouse_cmd
                    + ["--db", str(tmp / f"new-n{k}.duckdb"), "ingest", "treebank", str(inputs[k]), "--corpus", "one"]
                ),
                "plain duckdb": lambda k: [
                    sys.executable,
                    "-c",
                    DUCKDB_INGEST,
                    str(inputs[k]),
                    str(tmp / f"new-d{k}.duckdb"),
                ],
                "duckdb + Arrow insert": lambda k: [
                    sys.executable,
                    "-c",
                    DUCKDB_ARROW,
                    str(inputs[k]),
                    str(tmp / f"new-a{k}.duckdb"),
                ],
                "python -c pass": lambda k: [sys.executable, "-c", "pass"],
            },
            "query": {
                "evalhouse": lambda k: evalhouse_cmd + ["--db", str(existing), "sql", QUERY, "--format", "csv"],
                "plain duckdb": lambda k: [sys.executable, "-c", DUCKDB_QUERY, str(existing), QUERY],
                "python -c pass": lambda k: [sys.executable, "-c", "pass"],
            },
        }
        if args.before:
            before = [str(args.before), "-m", "evalhouse"]
            rows["new warehouse"]["evalhouse before"] = lambda k: (
                before
                + ["--db", str(tmp / f"new-b{k}.duckdb"), "ingest", "treebank", str(inputs[k]), "--corpus", "one"]
            )
            rows["query"]["evalhouse before"] = lambda k: (
                before + ["--db", str(existing), "sql", QUERY, "--format", "csv"]
            )
        results = {(row, name): [] for row, contenders in rows.items() for name in contenders}
        for r in range(args.rounds):
            order = [(row, name) for row, contenders in rows.items() for name in contenders]
            for row, name in order if r % 2 == 0 else reversed(order):
                results[row, name].append(run(rows[row][name](r + 1), env=envs.get((row, name))))
    print(f"# {uptime()} after")
    print(f"{'row':<15}{'contender':<24}{'wall s':>8}{'CPU s':>8}{'peak MB':>9}   evalhouse CPU ÷")
    for row, contenders in rows.items():
        med = {n: {k: statistics.median(x[k] for x in results[row, n]) for k in ("wall", "cpu")} for n in contenders}
        mine = med["evalhouse"]["cpu"]
        for name in contenders:
            m = med[name]
            peak = max(x["rss_mb"] for x in results[row, name])
            if name == "evalhouse":
                ratio = f"target {TARGET} s: {mine / TARGET:.2f}x ({'met' if mine <= TARGET else 'not met'})"
            else:
                ratio = f"{mine / m['cpu']:.1f}x"
            print(f"{row:<15}{name:<24}{m['wall']:>8.3f}{m['cpu']:>8.3f}{peak:>9.0f}   {ratio}")
        assumes = {
            "new warehouse": "one-sentence `ingest treebank` into a new warehouse",
            "query": "`evalhouse sql` on an existing warehouse",
        }[row]
        for name, cache in (
            ("evalhouse", "template cached (warm)"),
            ("evalhouse, no cache", "no template cache (cold)"),
        ):
            if name in med:
                summary.record(
                    f"fixed cost, {row}",
                    "python -m benchmarks.fixed_cost",
                    f"{assumes}; {cache}",
                    med[name],
                    "duckdb + Arrow insert" if row == "new warehouse" else "plain duckdb",
                    med["duckdb + Arrow insert" if row == "new warehouse" else "plain duckdb"],
                    f"target {TARGET if cache.endswith('(warm)') else 0.6} s CPU",
                )


if __name__ == "__main__":
    main()
