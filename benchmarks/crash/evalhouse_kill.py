"""Fault injection: SIGKILL a real evalhouse command at many points and check the warehouse it leaves,
what ``evalhouse check`` says of it, its repair, and the retry.

Issue 17 points 1a and 1b.  Each trial copies a prepared warehouse, runs one evalhouse command in a
child process, kills it with SIGKILL, reopens the warehouse with plain DuckDB (which replays the WAL)
and compares it with the warehouse before the command and after an unkilled run of it.  A warehouse is

* ``before``/``after`` when every base table has exactly the rows (count and content checksum per
  corpus, or per corpus x team x run) of the state before/after the command,
* ``torn`` otherwise -- the report names the tables and keys that differ and counts "orphan" rows
  (rows of a corpus with no ``corpora`` row, or of a submission with no ``submissions`` row),
* ``unopenable`` when DuckDB refuses to open it.

Then ``evalhouse check`` must say ``whole`` (exit 0) of a before/after warehouse and ``torn`` (exit 5)
of a torn one; ``evalhouse check --repair`` must turn a torn one into exactly before or after; and the
natural retry (the same command again; refused with exit 3 when its result is already stored) must
leave exactly the warehouse, and so the scores, of an uninterrupted run.  A trial fails when a tear
goes unnoticed (``undetected``), a whole warehouse is called torn (``false alarm``), the repair does
not give before or after, or the retry differs.

Scenarios (built in ``--workdir`` from ``../shared/data``; nothing is written into the project):

* ``treebank``: ``ingest treebank`` of a ~1M-word file made by concatenating every UD test file of
  ``shared/data/ud`` six times with renamed ``sent_id`` comments (``c<copy>-<treebank>-<id>``), into
  a warehouse already holding UD v2.3 EWT test;
* ``outputs``: ``ingest outputs`` of a 10-run campaign (the five ADAPT runs on EWT test, under two
  team names) against that EWT corpus;
* ``analyze``: ``analyze --resamples 200`` over those ten runs, replacing an earlier analysis made with
  another seed (deletes and inserts in eight tables);
* ``replace``: ``ingest outputs --manifest --replace --drop-judgements``: those ten submissions, one of which
  holds 2,077 human judgements (one per sentence), each replaced by another run's outputs (the manifest
  rotated by one run); the judgements of the sentences whose text is unchanged are kept, the others
  deleted (issue 37 point 1);
* ``export``: ``export-dataset --partition-by corpus`` of that warehouse over an existing dataset of
  an older one. The warehouse must stay exactly as it was; the dataset directory must be exactly the
  old dataset or the new one at every kill (never missing or mixed), and the next export must give
  the new one and leave no ``.DIR.tmp-*`` or ``.DIR.old-*`` directory behind.

Kill points: a third of the kills at a uniformly random moment of the whole run (from process
start); two thirds concentrated on COMMIT and checkpoint: after the WAL first grows beyond the size the
schema step leaves (the start of the ingest's COMMIT, measured in the unkilled runs), a uniformly
random delay up to 0.3 s (where ``duckdb_commit_kill.py`` finds torn commits) for one third, up to
1.1 x the time the unkilled runs spent from that moment to their exit for the last third.  For
``export`` the anchor is the moment the new dataset's ``manifest.json`` appears (its last file: the
renames follow), with delays up to 50 ms.

Usage (run it with the interpreter of the venv whose DuckDB you test; it runs that venv's
``evalhouse``)::

    python benchmarks/crash/evalhouse_kill.py --scenario treebank --kills 20 --json treebank.json

``--focus`` puts every kill in the 0.3 s window (more torn states per hour of machine time);
``--no-retry`` skips the retry (half the time).

``--wal-cuts N`` cuts the write-ahead log instead of killing: the command runs once to its end with
DuckDB's checkpoint on shutdown disabled (and no automatic checkpoint), so that its whole transaction
stays in ``<db>.wal`` beside a database file that is exactly as the command left it; then each trial
copies that file with the WAL cut to its first k bytes (the state a crash while DuckDB wrote the WAL
leaves, the tail of the log never reaching the disk), for N values of k drawn uniformly from the
WAL's length plus the last byte, 16 and 256 bytes before its end, and its full length; and judges the
result as a kill's (a cut WAL must give ``before``; the full one ``after``).

A torn ``replace`` may hold human judgements, which ``check --repair`` refuses to delete (exit 3, naming
them and ``--drop-judgements``): the harness records the refusal and repairs with
``--drop-judgements``, which deletes the torn submissions whole; then a warehouse whose every submission is
whole, exactly as before or after (``mixed``) or gone with its judgements (``removed``), is a repaired
state too, and ``after`` without the judged submission's judgements a right retry. A repair that deletes judgements without the flag is a failure.

Exits 1 when any trial failed (a tear not found by the check, a false alarm, a repair that does not
give before or after, a retry that differs, an unopenable warehouse, a dataset missing or mixed);
``--allow-torn`` exits 0 and only reports. A CI step can run it; it takes about (kills x 2 + 2) x the
command's duration with the retry.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("EVALHOUSE_SHARED_DATA", REPO.parent / "shared" / "data"))
EVALHOUSE = str(Path(sys.executable).with_name("evalhouse"))
REFERENCE = ("ud-v2.3", "en_ewt-ud-test.conllu")
ADAPT = ("sr-outputs", "adapt-ewt-test")
TARGET_WORDS = 1_000_000


# --- inputs -----------------------------------------------------------------------------------


def build_treebank(path: Path, target_words: int = TARGET_WORDS) -> int:
    """Concatenate the UD test files until ``target_words`` words; sent_ids made unique per copy."""
    files = sorted((SHARED / "ud").rglob("*.conllu"))
    if not files:
        raise SystemExit(f"REAL DATA MISSING: no *.conllu under {SHARED / 'ud'}")
    words, copy = 0, 0
    sent_id = re.compile(r"^#\s*sent_id\s*=\s*")
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        while words < target_words:
            copy += 1
            for f in files:
                stem = f.name.split("-ud-")[0]
                with open(f, encoding="utf-8") as lines:
                    for line in lines:
                        if line.startswith("#"):
                            line = sent_id.sub(f"# sent_id = c{copy}-{stem}-", line)
                        elif line[:1].isdigit() and line.split("\t", 1)[0].isdigit():
                            words += 1
                        out.write(line)
    return words


def build_campaign(path: Path, rotate: int = 0) -> Path:
    """A manifest of 10 runs: the five ADAPT outputs under two team names; with ``rotate`` = k, run i stored
    under the name of run i - k (every submission gets another run's outputs: ``replace``)."""
    runs = sorted((SHARED.joinpath(*ADAPT)).glob("*/en_out.txt"))
    if len(runs) != 5:
        raise SystemExit(f"REAL DATA MISSING: expected 5 runs under {SHARED.joinpath(*ADAPT)}")
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["path", "team", "run"])
        for team in ("adapt", "adapt-copy"):
            for i, run in enumerate(runs):
                w.writerow([str(run), team, runs[(i - rotate) % len(runs)].parent.name])
    return path


def evalhouse(db: Path, *args: str) -> list[str]:
    return [EVALHOUSE, "--db", str(db), *args]


SCORES = {
    "treebank": "SELECT * FROM corpus_complexity ORDER BY ALL",
    "outputs": "SELECT team, run, corpus, dea, mean_bleu, corpus_bleu FROM submission_scores ORDER BY ALL",
    "analyze": "SELECT team, run, metric_a, metric_b, rho, p_holm FROM metric_correlations ORDER BY ALL",
}
SCORES["replace"] = SCORES["outputs"]
REPLACED = ("adapt", "majority_rules_test_12-Oct_17-06")  # the submission that ``replace`` stores again


def build_judgements(path: Path, team: str, run: str, sentences: int = 2077) -> Path:
    """One fluency judgement per sentence of ``team``/``run`` on en_ewt-test (scores 1-5 by position)."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["team", "run", "corpus", "sent_id", "annotator", "criterion", "score"])
        for position in range(1, sentences + 1):
            w.writerow([team, run, "en_ewt-test", position, "a1", "fluency", 1 + position % 5])
    return path


def prepare(work: Path, scenario: str) -> tuple[Path, list[str]]:
    """(base warehouse, command that the trials run and kill). ``export`` also leaves the old dataset in
    ``work/old-dataset``."""
    base = work / "base.duckdb"
    ref = SHARED.joinpath(*REFERENCE)
    if not ref.exists():
        raise SystemExit(f"REAL DATA MISSING: {ref}")
    if not base.exists():
        subprocess.run(evalhouse(base, "ingest", "treebank", str(ref), "--corpus", "en_ewt-test", "-q"), check=True)
    if scenario == "treebank":
        big = work / "big-1M.conllu"
        if not big.exists():
            words = build_treebank(big)
            print(f"built {big}: {words:,} words", flush=True)
        return base, ["ingest", "treebank", str(big), "--corpus", "big-1M", "-q"]
    manifest = build_campaign(work / "campaign.csv")
    outputs = ["ingest", "outputs", "--manifest", str(manifest), "--reference", "en_ewt-test", "-q"]
    if scenario == "outputs":
        return base, outputs
    scored = work / "scored.duckdb"
    if not scored.exists():
        shutil.copy(base, scored)
        subprocess.run(evalhouse(scored, *outputs), check=True)
    if scenario == "replace":
        judged = work / "judged.duckdb"
        if not judged.exists():
            shutil.copy(scored, judged)
            subprocess.run(
                evalhouse(judged, "ingest", "judgements", str(build_judgements(work / "judgements.csv", *REPLACED))),
                check=True,
                stdout=subprocess.DEVNULL,
            )
        rotated = build_campaign(work / "campaign-rotated.csv", rotate=1)
        return judged, [
            "ingest",
            "outputs",
            "--manifest",
            str(rotated),
            "--reference",
            "en_ewt-test",
            "--replace",
            "--drop-judgements",
            "-q",
        ]
    if scenario == "analyze":
        analysed = work / "analysed.duckdb"
        if not analysed.exists():
            shutil.copy(scored, analysed)
            subprocess.run(
                evalhouse(analysed, "analyze", "--resamples", "200", "--seed", "2"),
                check=True,
                stdout=subprocess.DEVNULL,
            )
        return analysed, ["analyze", "--resamples", "200"]
    old = work / "old-dataset"
    if not old.exists():
        subprocess.run(
            evalhouse(base, "export-dataset", str(old), "--partition-by", "corpus"),
            check=True,
            stderr=subprocess.DEVNULL,
        )
    return scored, ["export-dataset", str(work / "trial-dataset"), "--partition-by", "corpus"]


# --- the state of a warehouse ---------------------------------------------------------------------


def fingerprint(db: Path) -> dict[str, dict[str, tuple[int, int]]]:
    """table -> key -> (rows, checksum of the rows' contents); TIMESTAMP columns are left out
    (ingest times differ between runs).  Keys: corpus[/team/run] where the table has those columns."""
    con = duckdb.connect(str(db))
    try:
        out = {}
        tables = [
            r[0]
            for r in con.execute(
                "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary "
                "ORDER BY table_name"
            ).fetchall()
        ]
        for t in tables:
            cols = con.execute(
                "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = $t "
                "AND schema_name = 'main' ORDER BY column_index",
                {"t": t},
            ).fetchall()
            names = [c for c, _ in cols]
            keep = [c for c, ty in cols if not ty.startswith("TIMESTAMP")]
            key_cols = [c for c in ("corpus", "team", "run") if c in names]
            key = " || '/' || ".join(f"coalesce(\"{c}\"::VARCHAR, '')" for c in key_cols) or "'*'"
            row = "row(" + ", ".join(f'"{c}"' for c in keep) + ")"
            rows = con.execute(
                f'SELECT {key} AS k, count(*), sum(hash({row}))::VARCHAR FROM "{t}" GROUP BY k'
            ).fetchall()
            out[t] = {k: (n, s) for k, n, s in rows}
        return out
    finally:
        con.close()


def orphans(db: Path) -> dict[str, int]:
    """Rows whose corpus has no corpora row, or whose submission has no submissions row."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        found = {}
        for (t,) in con.execute(
            "SELECT DISTINCT table_name FROM duckdb_columns() WHERE column_name = 'corpus' "
            "AND schema_name = 'main' AND table_name IN (SELECT table_name FROM duckdb_tables())"
        ).fetchall():
            if t in ("corpora",):
                continue
            cols = {
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM duckdb_columns() WHERE table_name = $t", {"t": t}
                ).fetchall()
            }
            n = con.execute(
                f'SELECT count(*) FROM "{t}" x WHERE NOT EXISTS (SELECT 1 FROM corpora c WHERE c.corpus = x.corpus)'
            ).fetchone()[0]
            if {"team", "run"} <= cols and t != "submissions":
                n += con.execute(
                    f'SELECT count(*) FROM "{t}" x WHERE NOT EXISTS (SELECT 1 FROM submissions s '
                    f"WHERE s.corpus = x.corpus AND s.team = x.team AND s.run = x.run)"
                ).fetchone()[0]
            if n:
                found[t] = n
        return found
    finally:
        con.close()


def diff(state, expected) -> list[str]:
    out = []
    for t in sorted(set(state) | set(expected)):
        a, b = state.get(t, {}), expected.get(t, {})
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                out.append(f"{t}[{k}]: {a.get(k, (0,))[0]} rows (expected {b.get(k, (0,))[0]})")
    return out


def data_only(state):
    """A fingerprint without ``stored_counts``: what evalhouse recorded of the rows, not the rows. A repair
    counts the tables it deleted from again (an empty table then has a total of 0 where it had none), so the
    harness judges the rows, and ``evalhouse check`` (which must say whole of every state but a torn one, and
    of every repaired one) judges the counts."""
    return {t: v for t, v in state.items() if t != "stored_counts"}


def classify(db: Path, before, after, extra: dict | None = None) -> dict:
    """``before``, ``after``, the name of one of the ``extra`` states (name -> fingerprint), ``torn`` or
    ``unopenable``."""
    try:
        state = fingerprint(db)
    except duckdb.Error as err:
        return {"state": "unopenable", "detail": str(err).splitlines()[0][:300]}
    state, before, after = (data_only(x) for x in (state, before, after))
    extra = {name: data_only(x) for name, x in (extra or {}).items()}
    if state == before:
        return {"state": "before"}
    if state == after:
        return {"state": "after"}
    for name, expected in (extra or {}).items():
        if state == expected:
            return {"state": name}
    return {
        "state": "torn",
        "differs_from_before": diff(state, before)[:12],
        "differs_from_after": diff(state, after)[:12],
        "orphans": orphans(db),
    }


def dataset_fingerprint(path: Path):
    """None when ``path`` does not exist; else its manifest and, per relation, the rows' count and content
    checksum (partition values included) as DuckDB reads them: byte-for-byte Parquet files may differ
    between two exports of the same rows. DOUBLE values are rounded to 9 decimals first: a view's mean
    over doubles (``submission_scores``, ``dea_by_relation_pooled``) can differ in its last bit from one
    query to the next, as DuckDB's parallel sums add in varying order."""
    if not path.exists():
        return None
    manifest_file = path / "manifest.json"
    if not manifest_file.exists():
        return ("no manifest", sorted(str(p.relative_to(path)) for p in path.rglob("*")))
    manifest = json.loads(manifest_file.read_text(encoding="utf-8"))
    con = duckdb.connect()
    out = {"manifest": {k: v for k, v in manifest.items() if k != "relations"}}
    try:
        for name, entry in sorted(manifest["relations"].items()):
            hive = "true" if entry["partition_by"] else "false"
            glob = str(path / name / "**" / "*.parquet")
            cols = ", ".join(
                f'round("{c["name"]}", 9)' if c["type"] in ("DOUBLE", "FLOAT") else f'"{c["name"]}"'
                for c in entry["columns"]
            )
            n, h = con.execute(
                f"SELECT count(*), sum(hash(row({cols})))::VARCHAR FROM read_parquet('{glob}', "
                f"hive_partitioning = {hive}, hive_types_autocast = false)"
            ).fetchone()
            out[name] = (entry["rows"], n, h)
    except duckdb.Error as err:
        return ("unreadable", str(err).splitlines()[0][:200])
    finally:
        con.close()
    return out


def dataset_leftovers(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.glob(f".{path.name}.*-*"))


# --- running and killing ------------------------------------------------------------------------


def fresh_copy(base: Path, db: Path, dataset: Path | None = None, old_dataset: Path | None = None) -> None:
    for p in db.parent.glob(db.name + "*"):
        if p.is_dir():
            shutil.rmtree(p)
        else:
            p.unlink()
    shutil.copy(base, db)
    if dataset is not None:
        for p in [dataset, *dataset.parent.glob(f".{dataset.name}.*-*")]:
            if p.exists():
                shutil.rmtree(p)
        shutil.copytree(old_dataset, dataset)


def wal_size(db: Path) -> int:
    try:
        return os.stat(f"{db}.wal").st_size
    except FileNotFoundError:
        return -1


def run(
    db: Path,
    command: list[str],
    kill: tuple[str, float] | None = None,
    commit_wal_size: int | None = None,
    poll: float = 0.0005,
    anchor_glob: tuple[Path, str] | None = None,
) -> dict:
    """Run ``command``; record the WAL's growth; with ``kill = ("start"|"commit"|"file", delay)`` SIGKILL the
    child ``delay`` seconds after it started, after its WAL grew beyond ``commit_wal_size``, or after a
    file matching ``anchor_glob`` (directory, pattern) appeared."""
    t0 = time.monotonic()
    proc = subprocess.Popen(evalhouse(db, *command), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timeline = []  # (seconds, wal size) at every change
    last = None
    anchor_at = None
    deadline = None
    if kill is not None and kill[0] == "start":
        deadline = t0 + kill[1]
    while proc.poll() is None:
        now = time.monotonic()
        size = wal_size(db)
        if size != last:
            timeline.append((round(now - t0, 4), size))
            last = size
        if kill is not None and kill[0] == "commit" and anchor_at is None and size > commit_wal_size:
            anchor_at = now
            deadline = now + kill[1]
        if anchor_glob is not None and anchor_at is None and any(anchor_glob[0].glob(anchor_glob[1])):
            anchor_at = now
            if kill is not None and kill[0] == "file":
                deadline = now + kill[1]
        if deadline is not None and now >= deadline:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            return {
                "killed": True,
                "killed_at_s": round(now - t0, 4),
                "anchor_at_s": None if anchor_at is None else round(anchor_at - t0, 4),
                "wal": timeline[-6:],
            }
        time.sleep(poll)
    err = proc.stderr.read().decode(errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({proc.returncode}): {err[-2000:]}")
    return {
        "killed": False,
        "exit_s": round(time.monotonic() - t0, 4),
        "anchor_at_s": None if anchor_at is None else round(anchor_at - t0, 4),
        "timeline": timeline,
    }


def evalhouse_check(db: Path, repair: bool = False, drop_judgements: bool = False) -> tuple[int, str]:
    flags = (["--repair"] if repair else []) + (["--drop-judgements"] if drop_judgements else [])
    r = subprocess.run(evalhouse(db, "check", *flags), capture_output=True, text=True)
    return r.returncode, (r.stdout + r.stderr).strip()[:600]


def judgement_rows(db: Path) -> int:
    """Rows of ``judgements`` and ``pronoun_judgements``: what a person typed."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return sum(
            con.execute(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in ("judgements", "pronoun_judgements")
        )
    finally:
        con.close()


def scores(db: Path, scenario: str):
    """The scenario's scores, doubles to 12 significant digits (a view's parallel sum over doubles can
    differ in its last bit from one query to the next; the tables under it are compared exactly)."""
    if scenario not in SCORES:
        return None
    con = duckdb.connect(str(db), read_only=True)
    try:
        return [
            tuple(float(f"{v:.12g}") if isinstance(v, float) else v for v in row)
            for row in con.execute(SCORES[scenario]).fetchall()
        ]
    finally:
        con.close()


def judge(
    db: Path,
    scenario: str,
    command: list[str],
    before,
    after,
    after_scores,
    retry: bool,
    dataset: Path | None,
    old_fp,
    new_fp,
    extra: dict | None = None,
) -> dict:
    """What the kill left, what the check says of it, its repair and the retry (see the module docstring).
    ``extra``: the state the retry after a repair with ``--drop-judgements`` may leave (``after-unjudged``),
    for ``replace``."""
    verdict = classify(db, before, after, extra)
    if dataset is not None:  # export: the warehouse is only read; the dataset is the thing
        fp = dataset_fingerprint(dataset)
        verdict["dataset"] = (
            "before" if fp == old_fp else "after" if fp == new_fp else "missing" if fp is None else "mixed"
        )
        verdict["leftovers"] = dataset_leftovers(dataset)
        ok = verdict["state"] == "before" and verdict["dataset"] in ("before", "after")
        if retry:
            r = subprocess.run(evalhouse(db, *command), capture_output=True, text=True)
            verdict["retry"] = (
                "same"
                if r.returncode == 0 and dataset_fingerprint(dataset) == new_fp and not dataset_leftovers(dataset)
                else f"differs (exit {r.returncode}, {dataset_leftovers(dataset)})"
            )
            ok = ok and verdict["retry"] == "same"
        verdict["ok"] = ok
        return verdict
    if verdict["state"] == "unopenable":
        verdict["ok"] = False
        return verdict
    code, said = evalhouse_check(db)
    verdict["check"] = {0: "whole", 5: "torn"}.get(code, f"exit {code}: {said}")
    torn = verdict["state"] == "torn"
    dropped = False
    if torn and verdict["check"] == "whole":
        verdict["problem"] = "undetected"
    elif not torn and verdict["check"] != "whole":
        verdict["problem"] = "false alarm"
    elif torn:
        typed = judgement_rows(db)
        code, said = evalhouse_check(db, repair=True)
        if code == 3 and "--drop-judgements" in said:  # the repair asks before deleting what a person typed
            verdict["repair_refused"] = said
            if judgement_rows(db) != typed or classify(db, before, after, extra)["state"] != "torn":
                verdict["problem"] = "a refused repair changed the warehouse"
            code, said = evalhouse_check(db, repair=True, drop_judgements=True)
            dropped = True
        elif judgement_rows(db) < typed:
            verdict["problem"] = (
                f"the repair deleted {typed - judgement_rows(db):,} judgements without --drop-judgements"
            )
        verdict["repair"] = said
        repaired = classify(db, before, after, extra)["state"]
        whole = whole_submissions(fingerprint(db), before, after) if repaired == "torn" else None
        if whole is not None:  # every submission whole, old or new, or gone with its judgements
            repaired = "removed" if whole["gone"] else "mixed"
            verdict["submissions"] = {k: len(v) for k, v in whole.items()}
        verdict["repaired"] = repaired
        if code != 0 or repaired not in ("before", "after", "removed", "mixed"):
            verdict["problem"] = "repair failed"
        elif evalhouse_check(db)[0] != 0:
            verdict["problem"] = "still torn after the repair"
        dropped = dropped or repaired == "removed"
    if retry and "problem" not in verdict:
        r = subprocess.run(evalhouse(db, *command), capture_output=True, text=True)
        state = classify(db, before, after, extra)["state"]
        same = (
            state in (("after", "after-unjudged") if dropped else ("after",)) and scores(db, scenario) == after_scores
        )
        # an ingest whose result is stored already is refused: that is the natural end of a retry
        if r.returncode not in (0, 3) or not same:
            verdict["problem"] = f"retry gives {state} (exit {r.returncode}: {r.stderr.strip()[-300:]})"
        elif evalhouse_check(db)[0] != 0:
            verdict["problem"] = "the retry left a warehouse the check calls torn"
        verdict["retry"] = "same" if state == "after" and same else state
    verdict["ok"] = "problem" not in verdict
    return verdict


def whole_submissions(state, before, after) -> dict[str, list[str]] | None:
    """When every submission (``corpus/team/run`` key) of ``state`` is whole, exactly as ``before``, exactly as
    ``after`` or gone from every table, and everything else is as before (``stored_counts`` aside: a repair
    counts again), which submissions are which (``old``, ``new``, ``gone``); else None."""
    tables = [t for t in set(state) | set(before) | set(after) if t != "stored_counts"]
    keys = {k for t in tables for side in (state, before, after) for k in side.get(t, {})}
    out: dict[str, list[str]] = {"old": [], "new": [], "gone": []}
    for key in sorted(keys):
        mine = [state.get(t, {}).get(key) for t in tables]
        if key.count("/") != 2:  # a corpus: as before
            if mine != [before.get(t, {}).get(key) for t in tables]:
                return None
            continue
        if mine == [before.get(t, {}).get(key) for t in tables]:
            out["old"].append(key)
        elif mine == [after.get(t, {}).get(key) for t in tables]:
            out["new"].append(key)
        elif all(v is None for v in mine):
            out["gone"].append(key)
        else:
            return None
    return out


def without_judgements(base: Path, out: Path) -> Path:
    """A copy of ``base`` without the judgements of the submission :data:`REPLACED` (``after-unjudged``), deleted
    in one evalhouse transaction, which counts the table again as a repair does."""
    shutil.copy(base, out)
    import evalhouse  # the evalhouse of this interpreter, as the commands run

    key = {"team": REPLACED[0], "run": REPLACED[1], "corpus": "en_ewt-test"}
    with evalhouse.connect(out, verify=False) as wh, wh.transaction():
        wh.sql("DELETE FROM judgements WHERE team = $team AND run = $run AND corpus = $corpus", key)
        wh.touched("judgements")
    return out


# The WAL-cut runs: the command to its end, its transaction left in the WAL (see the module docstring).
NO_CHECKPOINT = r"""
import sys, duckdb
_connect = duckdb.connect
def connect(database=":memory:", *args, **kwargs):
    con = _connect(database, *args, **kwargs)
    if str(database) not in (":memory:", "") and not kwargs.get("read_only"):
        con.execute("PRAGMA disable_checkpoint_on_shutdown")
        con.execute("SET checkpoint_threshold = '1TB'")
    return con
duckdb.connect = connect
from evalhouse.cli import main
sys.argv[0] = "evalhouse"
main()
"""


def run_without_checkpoint(db: Path, command: list[str]) -> tuple[bytes, bytes]:
    """Run ``command`` to its end leaving its transaction in the WAL; (database file, WAL) as it left them."""
    r = subprocess.run([sys.executable, "-c", NO_CHECKPOINT, "--db", str(db), *command], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({r.returncode}): {r.stderr[-2000:]}")
    return db.read_bytes(), Path(f"{db}.wal").read_bytes()


def wal_cut_offsets(size: int, cuts: int, rng: random.Random) -> list[int]:
    """``cuts`` offsets drawn uniformly from [0, size), the last byte, 16 and 256 bytes before the end, and
    ``size`` (the whole WAL)."""
    drawn = {rng.randrange(size) for _ in range(cuts)} if size else set()
    return sorted(drawn | {k for k in (size - 256, size - 16, size - 1, size) if k >= 0})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", choices=("treebank", "outputs", "replace", "analyze", "export"), required=True)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--calibrate", type=int, default=2, help="unkilled runs (timing and the 'after' state)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--workdir", help="keeps inputs and warehouses (default: a temporary directory, removed)")
    ap.add_argument("--json", help="write every trial and the summary here")
    ap.add_argument("--allow-torn", action="store_true", help="exit 0 whatever the trials found")
    ap.add_argument("--no-retry", dest="retry", action="store_false", help="skip the retry after each kill")
    ap.add_argument(
        "--focus",
        action="store_true",
        help="every kill within 0.3 s of the COMMIT's WAL growth (where torn states appear)",
    )
    ap.add_argument(
        "--wal-cuts",
        type=int,
        default=0,
        metavar="N",
        help="cut the WAL of one complete run at N random points (and 4 fixed ones) instead of killing",
    )
    args = ap.parse_args(argv)
    if args.wal_cuts and args.scenario == "export":
        ap.error("--wal-cuts: export writes no WAL (the warehouse is only read)")
    rng = random.Random(args.seed)
    work = Path(args.workdir or tempfile.mkdtemp(prefix=f"evalhouse-kill-{args.scenario}-"))
    work.mkdir(parents=True, exist_ok=True)
    base, command = prepare(work, args.scenario)
    before = fingerprint(base)
    db = work / "trial.duckdb"
    dataset = old_dataset = None
    anchor_glob = None
    if args.scenario == "export":
        dataset, old_dataset = work / "trial-dataset", work / "old-dataset"
        anchor_glob = (work, f".{dataset.name}.tmp-*/manifest.json")
    old_fp = dataset_fingerprint(old_dataset) if old_dataset else None

    calibration = []
    after = new_fp = after_scores = None
    for _ in range(args.calibrate):
        fresh_copy(base, db, dataset, old_dataset)
        r = run(db, command, anchor_glob=anchor_glob)
        state = fingerprint(db)
        if after is not None and state != after:
            raise SystemExit("two unkilled runs left different warehouses: " + "; ".join(diff(state, after)[:5]))
        after = state
        if dataset is not None:
            fp = dataset_fingerprint(dataset)
            if new_fp is not None and fp != new_fp:
                raise SystemExit("two unkilled exports wrote different datasets")
            new_fp = fp
        after_scores = scores(db, args.scenario)
        calibration.append(r)
    extra = None
    if args.scenario == "replace":  # a repair may remove the torn submissions whole (fewer_submissions)
        extra = {"after-unjudged": fingerprint(without_judgements(db, work / "after-unjudged.duckdb"))}
    # the WAL size the schema step leaves: the largest size seen in the first half of every run
    schema_wal = max(max([s for t, s in r["timeline"] if t < r["exit_s"] / 2] or [-1]) for r in calibration)
    anchors = []
    for r in calibration:
        if anchor_glob is not None:
            anchors.append((r["anchor_at_s"] or r["exit_s"], r["exit_s"]))
            continue
        grown = [t for t, s in r["timeline"] if s > schema_wal]
        anchors.append((grown[0] if grown else r["exit_s"], r["exit_s"]))
    duration = max(e for _, e in anchors)
    commit_span = max(e - a for a, e in anchors)
    what = "the new manifest appears" if anchor_glob else f"COMMIT (WAL past {schema_wal:,} bytes) starts"
    print(
        f"duckdb {duckdb.__version__}, evalhouse {' '.join(command[:2])}: unkilled runs take "
        f"{', '.join(f'{e:.1f}' for _, e in anchors)} s; {what} at "
        f"{', '.join(f'{a:.2f}' for a, _ in anchors)} s and lasts up to {commit_span:.2f} s to exit; "
        f"load {os.getloadavg()[0]:.1f}",
        flush=True,
    )

    trials = []
    anchor = "file" if anchor_glob else "commit"
    window = 0.05 if anchor_glob else 0.3
    if args.wal_cuts:
        fresh_copy(base, db)
        database, wal = run_without_checkpoint(db, command)
        cuts = wal_cut_offsets(len(wal), args.wal_cuts, rng)
        print(
            f"WAL of the whole run: {len(wal):,} bytes (database file {len(database):,}); {len(cuts)} cuts", flush=True
        )
        plan = [("wal", k) for k in cuts]
        anchor = "wal"
    else:
        plan = []
        for k in range(args.kills):
            if args.focus:  # only the window where torn warehouses were found
                plan.append((anchor, rng.uniform(0, min(window, commit_span))))
            elif k % 3 == 0:
                plan.append(("start", rng.uniform(0, duration * 1.02)))
            elif k % 3 == 1:  # the plain-DuckDB repro tears within ~30 ms of the WAL growing
                plan.append((anchor, rng.uniform(0, min(window, commit_span))))
            else:
                plan.append((anchor, rng.uniform(0, commit_span * 1.1)))
    for k, kill in enumerate(plan):
        fresh_copy(base, db, dataset, old_dataset)
        if kill[0] == "wal":
            db.write_bytes(database)
            Path(f"{db}.wal").write_bytes(wal[: kill[1]])
            r = {"killed": True, "wal_bytes": kill[1], "wal_of": len(wal)}
        else:
            r = run(db, command, kill, schema_wal, anchor_glob=anchor_glob)
        verdict = judge(
            db, args.scenario, command, before, after, after_scores, args.retry, dataset, old_fp, new_fp, extra
        )
        trials.append({"trial": k, "anchor": kill[0], "delay_s": round(kill[1], 4), **r, **verdict})
        shown = ""
        if verdict["state"] == "torn":
            shown = f" orphans={verdict['orphans']} vs before: {verdict['differs_from_before'][:4]}"
        elif verdict["state"] == "unopenable":
            shown = " " + verdict["detail"]
        for key in ("dataset", "leftovers", "check", "repair_refused", "repaired", "retry", "problem"):
            if key in verdict:
                shown += f" {key}={verdict[key]}"
        at = (
            f"WAL cut at {kill[1]:,} of {len(wal):,} bytes"
            if kill[0] == "wal"
            else f"kill at {kill[0]}+{kill[1]:.3f}s{'' if r['killed'] else ' (had exited)'}"
        )
        print(f"trial {k:3d} {at}: {verdict['state']}{shown}{'' if verdict['ok'] else '  <-- FAILED'}", flush=True)
    states = ("before", "after", "torn", "unopenable")
    summary = {s: sum(t["state"] == s for t in trials) for s in states}
    summary["undetected"] = sum(t.get("problem") == "undetected" for t in trials)
    summary["repair_asked"] = sum("repair_refused" in t for t in trials)
    summary["repaired"] = sum("repaired" in t and "problem" not in t for t in trials)
    summary["failed"] = sum(not t["ok"] for t in trials)
    if dataset is not None:
        summary["dataset"] = {
            d: sum(t.get("dataset") == d for t in trials) for d in ("before", "after", "missing", "mixed")
        }
    by_anchor = {
        a: {s: sum(t["state"] == s and t["anchor"] == a for t in trials) for s in states} for a in ("start", anchor)
    }
    trials_named = f"{len(plan)} WAL cuts" if args.wal_cuts else f"{len(plan)} kills"
    print(
        f"duckdb {duckdb.__version__}, {args.scenario}: {trials_named}: "
        + ", ".join(f"{k} {v}" for k, v in summary.items())
        + f" (kills anywhere: {by_anchor['start']}; kills from {anchor} on: {by_anchor[anchor]}); "
        f"load {os.getloadavg()[0]:.1f}"
    )
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "duckdb": duckdb.__version__,
                    "scenario": args.scenario,
                    "command": command,
                    "seed": args.seed,
                    "focus": args.focus,
                    "retry": args.retry,
                    "wal_cuts": args.wal_cuts,
                    "calibration": [{k: v for k, v in r.items() if k != "timeline"} for r in calibration],
                    "schema_wal_bytes": schema_wal,
                    "summary": summary,
                    "by_anchor": by_anchor,
                    "trials": trials,
                },
                indent=1,
                default=str,
            )
            + "\n"
        )
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if args.allow_torn or summary["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
