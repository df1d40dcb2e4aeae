"""The plain-DuckDB case of issue 17 point 1: a 4-table transaction killed during COMMIT.

No evalhouse code runs here: a child process creates nothing, inserts ``--rows`` rows into four empty
tables in one transaction (two bulk inserts, two small ones) and commits; the parent kills it with SIGKILL at a random moment
between the child saying "commit" and the commit returning (the window is measured first, without
kills), reopens the database and counts the rows of the four tables.  A transaction is atomic only
if every reopened database holds 0 rows in all four tables (before) or all the inserted rows in all
four (after); anything else is a torn commit (upstream duckdb PR #25931, "Fix uncommitted data recovered
accidentally", describes the commit steps between optimistic writes and the WAL terminator).

Usage (run it with the interpreter of the DuckDB version to test)::

    python benchmarks/crash/duckdb_commit_kill.py --kills 40 --json out.json

Prints one line per kill and a summary ``duckdb 1.5.6: 40 kills during COMMIT ...: before 12,
after 21, torn 7, unopenable 0``; exits 1 when any state was torn or unopenable (``--allow-torn`` to exit 0).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

TABLES = ("t0", "t1", "t2", "t3")

CHILD = r"""
import sys, duckdb
db, rows = sys.argv[1], [int(r) for r in sys.argv[2].split(",")]
con = duckdb.connect(db)
con.execute("SET enable_progress_bar = false")
con.execute("BEGIN")
for t, n in zip(("t0", "t1", "t2", "t3"), rows):
    con.execute(f"INSERT INTO {t} SELECT range, md5(range::VARCHAR), range * 0.5 FROM range({n})")
print("commit", flush=True)
con.execute("COMMIT")
print("done", flush=True)
con.close()
"""


def make_base(path: Path) -> None:
    con = duckdb.connect(str(path))
    for t in TABLES:
        con.execute(f"CREATE TABLE {t} (i BIGINT, s VARCHAR, d DOUBLE)")
    con.execute("CHECKPOINT")
    con.close()


def wait_for_wal(db: Path, proc, poll: float = 0.0002) -> float | None:
    """Seconds until ``<db>.wal`` exists (None if the child exits first)."""
    wal = f"{db}.wal"
    t0 = time.monotonic()
    while proc.poll() is None:
        if os.path.exists(wal):
            return time.monotonic() - t0
        time.sleep(poll)
    return None


def run_child(db: Path, rows: list[int], kill: tuple[str, float] | None) -> dict:
    """Run the child; with ``kill = (anchor, delay)`` SIGKILL it ``delay`` seconds after the anchor:
    "commit" (the child is about to COMMIT) or "wal" (the .wal file appeared during COMMIT)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), ",".join(map(str, rows))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    t_commit = time.monotonic()
    if line.strip() != "commit":
        err = proc.stderr.read()
        proc.wait()
        raise RuntimeError(f"child failed before COMMIT: {line!r} {err[-2000:]}")
    out = {"killed": False}
    if kill is None:
        out["wal_after_s"] = wait_for_wal(db, proc)
        if out["wal_after_s"] is not None:  # how long the .wal file lives (until the checkpoint removes it)
            while proc.poll() is None and os.path.exists(f"{db}.wal"):
                time.sleep(0.0002)
            out["wal_gone_after_s"] = time.monotonic() - t_commit
    else:
        anchor, delay = kill
        if anchor == "wal":
            out["wal_after_s"] = wait_for_wal(db, proc)
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            out["killed"] = True
            out["killed_after_s"] = time.monotonic() - t_commit
            return out
    line = proc.stdout.readline()
    proc.wait()
    out["done_after_s"] = time.monotonic() - t_commit if line.strip() == "done" else None
    return out


def classify(db: Path, rows: list[int]) -> tuple[str, list[int] | str]:
    try:
        con = duckdb.connect(str(db))
        counts = [con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES]
        full = [
            con.execute(f"SELECT count(*) = {n} AND coalesce(sum(i), 0) = {n * (n - 1) // 2} FROM {t}").fetchone()[0]
            for t, n in zip(TABLES, rows)
        ]
        con.close()
    except duckdb.Error as err:
        return "unopenable", str(err).splitlines()[0][:200]
    if all(c == 0 for c in counts):
        return "before", counts
    if all(full):
        return "after", counts
    return "torn", counts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=40)
    ap.add_argument(
        "--rows",
        default="1000000,1000000,1,50000",
        help="rows inserted into each of the four tables: two bulk inserts (written optimistically "
        "to the database file) and two small ones, like an ingest's nodes/edges and "
        "corpora/sentences (default 1000000,1000000,1,50000)",
    )
    ap.add_argument("--calibrate", type=int, default=3, help="unkilled runs to measure the COMMIT window")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--json", help="write every kill and the summary here")
    ap.add_argument("--workdir", help="directory for the databases (default: a temporary one)")
    ap.add_argument("--allow-torn", action="store_true", help="exit 0 even when a state is torn")
    args = ap.parse_args(argv)
    args.rows = [int(r) for r in args.rows.split(",")]
    if len(args.rows) != 4:
        ap.error("--rows needs four numbers")
    rng = random.Random(args.seed)
    work = Path(args.workdir or tempfile.mkdtemp(prefix="duckdb-commit-kill-"))
    work.mkdir(parents=True, exist_ok=True)
    base = work / "base.duckdb"
    if base.exists():
        base.unlink()
    make_base(base)
    windows, wal_at, wal_life = [], [], []
    for k in range(args.calibrate):
        db = work / "calibrate.duckdb"
        for p in work.glob(f"{db.name}*"):
            p.unlink()
        shutil.copy(base, db)
        run = run_child(db, args.rows, None)
        state, counts = classify(db, args.rows)
        assert state == "after", (state, counts)
        windows.append(run["done_after_s"])
        wal_at.append(run["wal_after_s"])
        if run["wal_after_s"] is not None:
            wal_life.append(run["wal_gone_after_s"] - run["wal_after_s"])
    window = max(windows)
    wal_seen = [w for w in wal_at if w is not None]
    wal_window = max(wal_life) if wal_life else 0.0
    print(
        f"duckdb {duckdb.__version__}: COMMIT of {args.rows} rows takes {min(windows):.3f}-{window:.3f} s; "
        f"the .wal file appears after {', '.join(f'{w:.3f}' for w in wal_seen) or 'never'} s "
        f"and lives {', '.join(f'{w:.3f}' for w in wal_life)} s (unkilled, {args.calibrate} runs)",
        flush=True,
    )
    results = []
    for k in range(args.kills):
        db = work / "trial.duckdb"
        for p in work.glob(f"{db.name}*"):
            p.unlink()
        shutil.copy(base, db)
        # a third of the kills anywhere in COMMIT, a third within 50 ms of the .wal file appearing
        # (while it is being written: where torn commits were found), a third during its life
        if k % 3 == 0 or not wal_seen:
            anchor, delay = "commit", rng.uniform(0, window * 1.1)
        elif k % 3 == 1:
            anchor, delay = "wal", rng.uniform(0, 0.05)
        else:
            anchor, delay = "wal", rng.uniform(0, wal_window * 1.5)
        run = run_child(db, args.rows, (anchor, delay))
        state, detail = classify(db, args.rows)
        results.append(
            {"kill": k, "anchor": anchor, "delay_s": round(delay, 4), **run, "state": state, "detail": detail}
        )
        print(
            f"kill {k:3d} at {anchor}+{delay:.3f}s{'' if run['killed'] else ' (had finished)'}: {state} {detail}",
            flush=True,
        )
    summary = {s: sum(r["state"] == s for r in results) for s in ("before", "after", "torn", "unopenable")}
    line = (
        f"duckdb {duckdb.__version__}: {args.kills} kills during COMMIT of a 4-table transaction "
        f"({', '.join(f'{n:,}' for n in args.rows)} rows): " + ", ".join(f"{k} {v}" for k, v in summary.items())
    )
    print(line)
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "duckdb": duckdb.__version__,
                    "rows": args.rows,
                    "seed": args.seed,
                    "commit_window_s": windows,
                    "summary": summary,
                    "kills": results,
                },
                indent=1,
            )
            + "\n"
        )
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if args.allow_torn or summary["torn"] + summary["unopenable"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
