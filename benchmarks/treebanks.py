"""Treebank ingest against its peers, whole process against whole process (issue 18, rows 1 and 2).

    $ python -m benchmarks.treebanks [--data ../shared/data/ud] [--words 1000000] [--rounds 3] [--large 5]

Every contender is a fresh Python process (imports timed) reading the same file, and the rounds
alternate between contenders so that a change in the machine's load hits all of them alike:

* ``evalhouse``: ``evalhouse.connect(new file).ingest_treebank([file])``: read once, hash, every check of
  the README's input-decisions table, ``sentences``, ``nodes``, ranges, empty nodes, stripped ``edges``
  with depths, flux weights and projectivity, stored in an on-disk warehouse and committed;
* ``pyconll``: ``pyconll.iter_from_file``, counting words (parse only, nothing checked or stored);
* ``conllu``: ``conllu.parse_incr``, counting words (parse only);
* ``duckdb``: DuckDB's own ``read_csv`` of the lines, ``string_split`` on tabs and a count of the lines
  whose first column is an integer (what DuckDB can do with the text, nothing checked or stored);
* ``duckdb-store``: the same lines split, and the word lines stored as one table of the ten columns (ID and
  HEAD as integers) in a new on-disk file: what DuckDB alone needs to store the ``nodes`` table (no
  sentences, no edges, nothing checked), a floor for any ingest that stores the words in DuckDB.

Reported per contender: median wall and CPU seconds (user + system of the process, both cores
counted), words per second, peak resident memory, and the ratios to evalhouse.  Then evalhouse's
peak memory at the ``--words`` size and at ``--large`` times it, with and without
``--memory-limit``, to show that memory does not grow with the input.

The input concatenates the UD files of ``--data`` until ``--words`` words, each copy's sent_ids made
unique (``c<copy>-<file>-<id>``, as ``benchmarks/crash`` does), so that it is a valid corpus.  Nothing
is written into the project.  Requires ``pip install -e ".[bench]"`` (pyconll) and the test extra
(conllu).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

from evalhouse.version import __version__

from benchmarks import summary
from benchmarks.process import compile_bytecode

_SENT_ID = re.compile(r"^#\s*sent_id\s*=\s*")


def build_concatenation(files: list[Path], target_words: int, out: Path) -> int:
    """Concatenate ``files`` until ``target_words`` words (whole copies); returns the number of words."""
    words = 0
    copy = 0
    with open(out, "w", encoding="utf-8", newline="\n") as handle:
        while words < target_words:
            copy += 1
            for f in files:
                stem = f.name[: -len(".conllu")]
                with open(f, encoding="utf-8") as src:
                    for line in src:
                        if line.startswith("#"):
                            line = _SENT_ID.sub(f"# sent_id = c{copy}-{stem}-", line, count=1)
                        elif line[:1].isdigit() and line.split("\t", 1)[0].isdigit():
                            words += 1
                        handle.write(line)
    return words


CONTENDERS = {
    "evalhouse": """
import sys, evalhouse
with evalhouse.connect(sys.argv[2], memory_limit=sys.argv[3] or None) as wh:
    [s] = wh.ingest_treebank([sys.argv[1]], corpus="bench")
print(s.words)
""",
    "pyconll": """
import sys, pyconll
print(sum(1 for sentence in pyconll.iter_from_file(sys.argv[1]) for token in sentence
          if not token.is_multiword() and not token.is_empty_node()))
""",
    "conllu": """
import sys, conllu
with open(sys.argv[1], encoding="utf-8") as handle:
    print(sum(1 for sentence in conllu.parse_incr(handle) for token in sentence if isinstance(token["id"], int)))
""",
    "duckdb": r"""
import sys, duckdb
print(duckdb.sql(f'''SELECT count(*) FROM (
    SELECT string_split(line, chr(9)) AS f
    FROM read_csv('{sys.argv[1]}', columns = {{'line': 'VARCHAR'}}, delim = chr(1), quote = '', escape = '',
                  header = false, auto_detect = false, new_line = '\\n', max_line_size = 16777216)
    WHERE line IS NOT NULL AND NOT starts_with(line, '#'))
WHERE regexp_full_match(f[1], '[0-9]+')''').fetchall()[0][0])
""",
    "duckdb-store": r"""
import sys, duckdb
con = duckdb.connect(sys.argv[2])
con.execute(f'''CREATE TABLE nodes AS
SELECT CAST(f[1] AS INTEGER) AS id, f[2] AS form, f[3] AS lemma, f[4] AS upos, f[5] AS xpos, f[6] AS feats,
       CAST(f[7] AS INTEGER) AS head, f[8] AS deprel, f[9] AS deps, f[10] AS misc
FROM (
    SELECT string_split(line, chr(9)) AS f
    FROM read_csv('{sys.argv[1]}', columns = {{'line': 'VARCHAR'}}, delim = chr(1), quote = '', escape = '',
                  header = false, auto_detect = false, new_line = '\\n', max_line_size = 16777216)
    WHERE line IS NOT NULL AND NOT starts_with(line, '#'))
WHERE regexp_full_match(f[1], '[0-9]+')''')
print(con.execute("SELECT count(*) FROM nodes").fetchall()[0][0])
con.close()
""",
}


def run(name: str, path: Path, db: Path, memory_limit: str = "") -> dict:
    """One whole process: wall and CPU seconds, peak RSS (MiB), the word count it printed."""
    if db.exists():
        db.unlink()
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CONTENDERS[name], str(path), str(db), memory_limit],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    out, err = proc.stdout.read(), proc.stderr.read()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"{name} failed: {err.strip().splitlines()[-1:]}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss / 1024,
        "words": int(out.strip().splitlines()[-1]),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = Path(__file__).resolve().parent.parent
    parser.add_argument("--data", type=Path, default=here.parent / "shared" / "data" / "ud")
    parser.add_argument("--words", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--large", type=int, default=5, help="peak memory also at this multiple of --words")
    parser.add_argument("--memory-limit", default="500MB")
    parser.add_argument("--only", nargs="*", default=list(CONTENDERS))
    args = parser.parse_args(argv)
    files = sorted(args.data.rglob("*.conllu"))
    if not files:
        sys.exit(f"no *.conllu under {args.data}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        big = tmp / "concatenation.conllu"
        words = build_concatenation(files, args.words, big)
        print(f"# evalhouse {__version__} treebank ingest benchmark, {time.strftime('%Y-%m-%d %H:%M %Z')}")
        print(
            f"# {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"duckdb {duckdb.__version__}, load average {os.getloadavg()[0]:.1f} at start"
        )
        print(f"# {compile_bytecode()}")
        print(
            f"# input: {len(files)} UD files concatenated to {words:,} words ({big.stat().st_size / 2**20:.0f} MiB), "
            f"{args.rounds} alternating rounds, whole processes"
        )
        results: dict[str, list[dict]] = {name: [] for name in args.only}
        for r in range(args.rounds):
            order = args.only if r % 2 == 0 else list(reversed(args.only))
            for name in order:
                results[name].append(run(name, big, tmp / "bench.duckdb"))
        print(
            f"{'contender':12} {'words':>10} {'wall s':>7} {'CPU s':>7} {'words/s (wall)':>15} "
            f"{'words/s (CPU)':>14} {'peak RSS MiB':>13}"
        )
        med = {}
        for name, rows in results.items():
            wall = statistics.median(r["wall"] for r in rows)
            cpu = statistics.median(r["cpu"] for r in rows)
            med[name] = (wall, cpu)
            print(
                f"{name:12} {rows[0]['words']:>10,} {wall:>7.2f} {cpu:>7.2f} {words / wall:>15,.0f} "
                f"{words / cpu:>14,.0f} {max(r['rss'] for r in rows):>13,.0f}"
            )
        if "evalhouse" in med:
            ew, ec = med["evalhouse"]
            for name, (w, c) in med.items():
                if name != "evalhouse":
                    print(
                        f"evalhouse vs {name}: {w / ew:.2f}x its speed in wall time, {c / ec:.2f}x in CPU time "
                        f"(above 1: evalhouse faster)"
                    )
            if "pyconll" in med:
                summary.record(
                    f"`ingest treebank`, {words:,} words",
                    "python -m benchmarks.treebanks --large 0",
                    "distinct real UD sentences; a new warehouse each round; imports included",
                    {"wall": ew, "cpu": ec},
                    "pyconll `iter_from_file`",
                    {"wall": med["pyconll"][0], "cpu": med["pyconll"][1]},
                    f"peak RSS {max(r['rss'] for r in results['evalhouse']):,.0f} MiB",
                )
        print(f"# load average {os.getloadavg()[0]:.1f} at the end of the timed rounds")
        if args.large and "evalhouse" in args.only:
            print("# evalhouse peak memory by input size (one process each)")
            large = tmp / "large.conllu"
            large_words = build_concatenation(files, args.words * args.large, large)
            big.unlink() if args.large > 1 else None
            for path, n in ((large, large_words),):
                for limit in ("", args.memory_limit):
                    r = run("evalhouse", path, tmp / "bench.duckdb", limit)
                    print(
                        f"{n:>11,} words, memory limit {limit or 'none':>6}: wall {r['wall']:.1f} s, "
                        f"CPU {r['cpu']:.1f} s, peak RSS {r['rss']:,.0f} MiB"
                    )
            small = tmp / "small.conllu"
            small_words = build_concatenation(files, args.words, small)
            for limit in ("", args.memory_limit):
                r = run("evalhouse", small, tmp / "bench.duckdb", limit)
                print(
                    f"{small_words:>11,} words, memory limit {limit or 'none':>6}: wall {r['wall']:.1f} s, "
                    f"CPU {r['cpu']:.1f} s, peak RSS {r['rss']:,.0f} MiB"
                )


if __name__ == "__main__":
    main()
