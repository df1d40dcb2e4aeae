"""Adversarial tree shapes: time and peak memory of every tree algorithm, before and after issue 17.

Each measurement runs in its own process (``--one``), so its peak resident memory is its own:
the report gives CPU seconds and the peak RSS growth over the process after its input was built
(``ru_maxrss``), with a wall-clock limit and an address-space cap per run (a "before" that would
need more is reported as such instead of swapping the machine).

"before" is the code of the issue: ``tests/reference_trees.py`` (O(sum of dependency lengths)
flux rows, depth by repeated parent steps), the treebank loader's recursive-CTE punctuation
stripping (``loaders/treebank.py``'s ``edges`` statement, on a DuckDB table of the words) and
``tests/reference_la.py`` (a full DP per lineage pair); "after" is ``analysis/trees.py`` and
``analysis/dependency_eval.py``.  ``sql depth`` is today's ``tree_node_depth`` view (a recursive CTE,
no "after": issue 17 proposes depth computed at ingest, i.e. ``tree_depths``).

    python benchmarks/trees.py                  # every shape, a table on stdout
    python benchmarks/trees.py --json out.json  # and the raw numbers
    python benchmarks/trees.py --quick          # small sizes only (a smoke run for CI)

Numbers depend on the machine and its load (printed with the table); CPU time is the figure to
compare.  Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


# --- shapes ---------------------------------------------------------------------------------------


def shape(name: str, n: int) -> tuple[list[int], list[bool]]:
    """(heads, punctuation flags) of an adversarial n-word sentence (one root; tests use it too)."""
    import numpy as np

    half = n // 2
    punct = [False] * n
    if name == "chain":
        heads = [0] + list(range(1, n))
    elif name == "star":  # flat tree, root first
        heads = [0] + [1] * (n - 1)
    elif name == "flat":  # flat tree, root in the middle (the "flat tree")
        heads = [0 if i == half - 1 else half for i in range(n)]
    elif name == "comb":  # a spine with one leaf on every spine word
        heads = [0] + [k - 1 if k % 2 == 0 else k - 2 for k in range(2, n + 1)]
    elif name == "spiral":  # a path zigzagging around the middle: every arc crosses the middle
        order = [half] + [half + (k + 1) // 2 if k % 2 else half - k // 2 for k in range(1, n)]
        heads = [0] * n
        for a, b in zip(order, order[1:]):
            heads[b - 1] = a
    elif name == "rainbow":  # nested arcs (k, n - k + 1) hung on a chain n -> n-1 -> ... -> half + 1
        heads = [0] * n
        heads[n - 1] = 1
        for j in range(half + 1, n):
            heads[j - 1] = j + 1
        for k in range(2, half + 1):
            heads[k - 1] = n - k + 1
    elif name == "random":  # a uniformly random recursive tree
        rng = np.random.default_rng(17)
        perm = rng.permutation(n) + 1
        heads = [0] * n
        pick = (rng.random(n) * np.arange(n)).astype(np.int64)
        for k in range(1, n):
            heads[perm[k] - 1] = int(perm[pick[k]])
    elif name == "punct_chain":  # the file: a chain of punctuation, a word below each link
        m = n // 2
        heads = [0] * n
        for k in range(2, m + 1):
            heads[k - 1] = k - 1  # punctuation chain 1 <- 2 <- ... <- m (1 is a word, the root)
        for k in range(m + 1, n + 1):
            heads[k - 1] = k - m + 1 if k - m + 1 <= m else m  # a word under each link
        punct = [1 < k <= m for k in range(1, n + 1)]
    else:
        raise ValueError(f"unknown shape {name}")
    return heads, punct


# --- one measurement (child process) -------------------------------------------------------------


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(function: str, which: str, name: str, n: int) -> dict:
    sys.path.insert(0, str(REPO))
    import numpy as np

    from evalhouse.analysis import trees

    run = None
    if function != "dependency_la":
        heads, punct = shape(name, n)
        batch = trees.TreeBatch.from_lists([heads])
    if function == "tree_metrics":
        from tests import reference_trees

        fn = reference_trees.tree_metrics if which == "before" else trees.tree_metrics
        run = lambda: int(fn(batch).flux_weight_sum[0])  # noqa: E731
    elif function == "depth":
        from tests import reference_trees

        fn = reference_trees.tree_depths if which == "before" else trees.tree_depths
        run = lambda: int(fn(batch).max())  # noqa: E731
    elif function == "strip_punctuation":
        if which == "after":
            flags = np.asarray(punct)
            run = lambda: int(trees.strip_punctuation(batch, flags).lengths[0])  # noqa: E731
        else:
            con = _words_table(heads, punct)
            from tests.reference_trees import RECURSIVE_EDGES_SQL

            run = lambda: con.execute(RECURSIVE_EDGES_SQL, {"corpus": "c", "offset": 0}).fetchall()[0][0]  # noqa: E731
    elif function == "sql_depth":
        con = _edges_table(heads)
        if which == "before":  # the view before issue 18: a recursive CTE
            from tests.reference_trees import RECURSIVE_DEPTH_SQL

            run = lambda: con.execute(f"SELECT max(depth) FROM ({RECURSIVE_DEPTH_SQL})").fetchone()[0]  # noqa: E731
        else:  # edges.depth computed at ingest, the view a projection
            run = lambda: con.execute("SELECT max(depth) FROM tree_node_depth").fetchone()[0]  # noqa: E731
    elif function == "dependency_la":
        g, s = _chain_words(n, name)
        if which == "before":
            from tests.reference_la import score
        else:
            from evalhouse.analysis.dependency_eval import score
        run = lambda: round(sum(score(g, s).la), 6)  # noqa: E731
    base = _peak_mb()
    cpu, wall = time.process_time(), time.perf_counter()
    value = run()
    return {
        "cpu_s": round(time.process_time() - cpu, 3),
        "wall_s": round(time.perf_counter() - wall, 3),
        "peak_mb": round(_peak_mb() - base, 1),
        "value": value,
    }


def _words_table(heads, punct):
    """A DuckDB connection with the ``nodes`` rows of one sentence and an empty ``edges`` table."""
    import duckdb
    import pandas as pd

    from evalhouse.warehouse import schema_files

    con = duckdb.connect(":memory:")
    for f in schema_files():
        if f.name in ("nodes", "edges"):
            con.execute(f.text)
    frame = pd.DataFrame(
        {
            "corpus": "c",
            "position": 1,
            "id": range(1, len(heads) + 1),
            "form": "w",
            "lemma": "w",
            "upos": "X",
            "xpos": "_",
            "feats": "_",
            "head": heads,
            "deprel": ["punct" if p else ("root" if h == 0 else "dep") for h, p in zip(heads, punct)],
            "deps": "_",
            "misc": "_",
        }
    )
    con.register("frame", frame)
    con.execute("INSERT INTO nodes SELECT * FROM frame")
    # the recursive query of before issue 17 predates the word keys of edges (issue 15) and leaves them out
    con.execute("ALTER TABLE edges ALTER dependent_key DROP NOT NULL")
    con.execute("ALTER TABLE edges ALTER head_key DROP NOT NULL")
    return con


def _edges_table(heads):
    import duckdb
    import pandas as pd

    from evalhouse.analysis import trees

    from evalhouse.warehouse import schema_files, view_files

    con = duckdb.connect(":memory:")
    con.execute(next(f.text for f in schema_files() if f.name == "edges"))
    con.execute(next(f.text for f in view_files() if f.name == "tree_node_depth"))
    n = len(heads)
    frame = pd.DataFrame(
        {
            "corpus": "c",
            "position": 1,
            "dependent": range(1, n + 1),
            "head": heads,
            "deprel": "dep",
            "relation": "dep",
            "dependent_lemma": "w",
            "head_lemma": "w",
            "dependent_upos": "X",
            "head_upos": "X",
            "distance": 0,
            "dependent_id": range(1, n + 1),
            "head_id": heads,
            "depth": trees.tree_depths(trees.TreeBatch.from_lists([list(heads)])),
            "dependent_key": "w",
            "head_key": "w",
        }
    )
    con.register("frame", frame)
    con.execute("INSERT INTO edges SELECT * FROM frame")
    return con


def _chain_words(n: int, system: str):
    """Gold: an n-word chain labelled dep; system: the same chain relabelled (the issue's case) or
    reversed."""
    import tempfile

    from evalhouse.loaders.conllu_words import read_words

    def write(path, heads, rels):
        with open(path, "w", encoding="utf-8") as f:
            for i, (h, r) in enumerate(zip(heads, rels), 1):
                f.write(f"{i}\tw{i}\t_\t_\t_\t_\t{h}\t{'root' if h == 0 else r}\t_\t_\n")
            f.write("\n")

    d = tempfile.mkdtemp()
    chain = [0] + list(range(1, n))
    write(f"{d}/g.conllu", chain, ["dep"] * n)
    if system == "chain_relabelled":
        write(f"{d}/s.conllu", chain, ["obj"] * n)
    else:
        write(f"{d}/s.conllu", list(range(2, n + 1)) + [0], ["dep"] * n)
    return read_words(f"{d}/g.conllu"), read_words(f"{d}/s.conllu")


# --- the plan and the report ----------------------------------------------------------------------

FULL = [
    # (function, shape, n, run "before" too)
    ("tree_metrics", "chain", 100_000, True),
    ("tree_metrics", "comb", 100_000, True),
    ("tree_metrics", "random", 100_000, True),
    ("tree_metrics", "star", 10_000, True),
    ("tree_metrics", "flat", 10_000, True),
    ("tree_metrics", "flat", 30_000, False),  # before: 3.35 GiB more than 10k's 4.9 GB (issue 17)
    ("tree_metrics", "spiral", 10_000, True),
    ("tree_metrics", "spiral", 30_000, False),
    ("depth", "chain", 10_000, True),
    ("depth", "chain", 100_000, False),
    ("depth", "random", 100_000, True),
    ("strip_punctuation", "punct_chain", 2_000, True),
    ("strip_punctuation", "punct_chain", 4_000, True),
    ("strip_punctuation", "punct_chain", 8_000, True),
    ("strip_punctuation", "punct_chain", 50_000, False),  # before: 23.6 GB and killed (issue 17)
    ("strip_punctuation", "punct_chain", 100_000, False),
    ("sql_depth", "chain", 2_000, True),
    ("sql_depth", "chain", 4_000, True),
    ("sql_depth", "chain", 8_000, True),
    ("dependency_la", "chain_relabelled", 200, True),
    ("dependency_la", "chain_relabelled", 400, True),
    ("dependency_la", "chain_relabelled", 1_000, False),  # before: 175 s (issue 17)
    ("dependency_la", "chain_reversed", 400, True),
    ("dependency_la", "chain_reversed", 1_000, False),
]
QUICK = list(dict.fromkeys((f, s, max(60, n // 100), True) for f, s, n, _ in FULL))


def run_one(function, which, name, n, timeout, mem_gb) -> dict:
    cmd = [sys.executable, __file__, "--one", function, which, name, str(n), str(mem_gb)]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout} s"}
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": "MemoryError" if "MemoryError" in out.stderr or "Out of Memory" in out.stderr else last[:120]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def fmt(r: dict | None) -> str:
    if r is None:
        return "not run"
    if "error" in r:
        return r["error"]
    return f"{r['cpu_s']:8.3f} s {r['peak_mb']:8.1f} MB"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--one", nargs=5, help=argparse.SUPPRESS)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--timeout", type=int, default=300, help="wall seconds per run (default 300)")
    ap.add_argument("--mem-gb", type=float, default=3.0, help="address-space cap per run (default 3 GB)")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if args.one:
        function, which, name, n, mem_gb = args.one
        cap = int(float(mem_gb) * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        print(json.dumps(measure(function, which, name, int(n))))
        return 0
    plan = QUICK if args.quick else FULL
    print(
        f"# {platform.node()} {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, "
        f"{time.strftime('%Y-%m-%d %H:%M')}; CPU seconds and peak RSS growth per run, one process each"
    )
    print(f"{'function':18} {'shape':17} {'words':>8}  {'before':>22}  {'after':>22}  value")
    rows = []
    for function, name, n, with_before in plan:
        before = run_one(function, "before", name, n, args.timeout, args.mem_gb) if with_before else None
        after = run_one(function, "after", name, n, args.timeout, args.mem_gb)
        value = (after or before or {}).get("value")
        if before and after and "value" in before and "value" in after and before["value"] != after["value"]:
            value = f"MISMATCH before {before['value']} after {after['value']}"
        rows.append({"function": function, "shape": name, "words": n, "before": before, "after": after})
        print(f"{function:18} {name:17} {n:>8,}  {fmt(before):>22}  {fmt(after):>22}  {value}", flush=True)
    print(f"# load at the end {os.getloadavg()[0]:.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"load_end": os.getloadavg()[0], "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
