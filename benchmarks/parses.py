"""Parse evaluation against its peers, whole process against whole process (issue 18).

    $ python -m benchmarks.parses --evalb /tmp/evalb/evalb --conll18 /tmp/conll18_ud_eval.py [--rounds 3]

Every contender is a fresh process (imports, reading, scoring and writing included), timed for wall and
CPU (user + system of the process, from ``wait4``); within a round the contenders of a row alternate,
and the table gives the median over ``--rounds`` rounds. Ratios are evalhouse's time divided by the
peer's (below 1: evalhouse is faster). Results are compared wherever they overlap.

Rows:

* ``evalb``: ``evalhouse evalb GOLD TEST --prm COLLINS.prm`` against EVALB in C (``--evalb``, built from
  its public source) with the same file: the 3,914 trees of NLTK's PTB sample (``ptb-sample``) against a
  perturbed copy (:func:`perturb`, seed 1), one tree per line, the ``( (S ...) )`` wrapper of the .mrg
  files included; and EVALB's own 24-sentence sample (fixed cost). evalhouse's report must be the C
  program's output byte for byte (an evalhouse from before issue 35, given with ``--before``, printed the
  older layout: its valid rows and summary figures are compared instead). Beside them, ``typer floor``:
  a two-command typer app that parses the same three arguments and does nothing else, what a command
  built on the installed typer costs here before its own imports and work (typer 0.29 imports pydantic
  and builds an adapter for every parameter; evalhouse's commands do not, see ``evalhouse.cli.coercion``).
* ``dependency-run``: ``evalhouse --db W ingest dependency-run SYSTEM --gold GOLD ...`` against the
  official ``conll18_ud_eval.py GOLD SYSTEM`` (``--conll18``) on the CoNLL 2018 outputs: 20 sentences
  (the first sentences of en_ewt up to a boundary where both files spell the same text), en_ewt (25k
  words), zh_gsd, fr_gsd, and the three treebanks as one file (47k words: en_ewt, fr_gsd and zh_gsd
  one after the other, gold and HIT-SCIR's output), a larger treebank of distinct sentences. Two
  evalhouse figures: a *later* run (the gold treebank is in the warehouse already, as for every run
  after a corpus's first; a prepared warehouse is copied before each run, untimed) and the *first* run (a new warehouse: schema, the gold file ingested with every check of
  ``ingest treebank``, then the run). LAS F1 must equal the script's.
* ``--before PYTHON``: the evalhouse of another virtualenv, timed in the same rounds (evalb, dependency-run
  with the gold stored, and ingest parses in a warehouse of its own), to measure a change against the
  commit before it.
* ``ingest parses`` (no peer): the PTB sample as gold, then the perturbed copy as a stored candidate run
  (GEIG and leaf-ancestor scores stored), into a new warehouse, each a fresh process.

The report names each peer copy it measured (its SHA-256, and the version the script's changelog names:
copies of ``conll18_ud_eval.py`` differ) and the installed typer. A peer that is not given is reported loudly
and its rows show evalhouse alone. Nothing is written into the project; inputs are distinct (no file is
repeated to make it bigger).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib.metadata
import io
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import replace
from pathlib import Path

from evalhouse.loaders.brackets import Tree, read_trees, render

from benchmarks import summary
from benchmarks.process import compile_bytecode, safe_path, typer_coercion

HERE = Path(__file__).resolve().parent
EVALHOUSE = [sys.executable, "-m", "evalhouse"]


def ptb_sample_text(zip_path: Path) -> str:
    """The .mrg files of NLTK's treebank sample concatenated in name order."""
    with zipfile.ZipFile(zip_path) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".mrg"))
        return "".join(z.read(n).decode("utf-8") + "\n" for n in names)


def perturb(tree: Tree, rng: random.Random, rate: float = 0.3) -> Tree:
    """A copy of ``tree`` with, at random, nonterminals relabelled or flattened and POS tags changed; the
    unlabelled ``( (S ...) )`` wrapper of a ``.mrg`` tree is left as it is (and draws no random number, so
    that the labelled nodes are perturbed as they were when the loader dropped the wrapper)."""
    labels = sorted({lab for lab, _, _, _ in tree.nodes if lab}) or ["X"]
    # retag only among alphabetic tags, so that no word turns into (or out of) deleted punctuation
    tags = sorted({p for p in tree.pos if p is not None and p.isalpha()})
    nodes = [list(nd) for nd in tree.nodes]
    keep = [True] * len(nodes)
    for k, nd in enumerate(nodes):
        if not nd[0]:
            continue
        r = rng.random()
        if r < rate / 2:
            nd[0] = rng.choice(labels)
        elif r < rate and nd[1] != -1 and nodes[nd[1]][0] and tree.pos[nd[2]] != "-NONE-":  # not a root
            keep[k] = False
    remap, out = {}, []
    for k, (label, parent, s, e) in enumerate(nodes):
        while parent != -1 and not keep[parent]:
            parent = nodes[parent][1]
        if not keep[k]:
            continue
        remap[k] = len(out)
        out.append((label, -1 if parent == -1 else remap[parent], s, e))
    pos = [rng.choice(tags) if p is not None and p.isalpha() and rng.random() < rate / 3 else p for p in tree.pos]
    return replace(tree, nodes=out, pos=pos)


def evalb_files(zip_path: Path, directory: Path, seed: int = 1) -> tuple[Path, Path]:
    """The PTB sample and its perturbed copy (:func:`perturb`, ``seed``), one tree per line as EVALB reads
    them, each with the ``( (S ...) )`` wrapper of the .mrg files, written into ``directory``; returns
    (gold, test)."""
    rng = random.Random(seed)
    trees = list(read_trees(io.StringIO(ptb_sample_text(zip_path)), str(zip_path)))
    gold, test = Path(directory) / "ptb-gold.txt", Path(directory) / "ptb-perturbed.txt"
    gold.write_text("".join(render(t) + "\n" for t in trees), encoding="utf-8")
    test.write_text("".join(render(perturb(t, rng)) + "\n" for t in trees), encoding="utf-8")
    return gold, test


# --- CoNLL-U inputs ------------------------------------------------------------------------------


def _blocks(path: Path) -> list[tuple[str, int]]:
    """(sentence text with its blank line, characters of its tokens without spaces) per sentence."""
    out = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        if not block.strip():
            continue
        chars, covered = 0, 0
        for line in block.split("\n"):
            cols = line.split("\t")
            if line.startswith("#") or len(cols) < 2 or "." in cols[0]:
                continue
            if "-" in cols[0]:
                covered = int(cols[0].split("-")[1])
                chars += len("".join(cols[1].split()))
            elif int(cols[0]) > covered:
                chars += len("".join(cols[1].split()))
        out.append((block + "\n\n", chars))
    return out


def prefix_pair(gold: Path, system: Path, directory: Path, sentences: int) -> tuple[Path, Path, int]:
    """The first ``sentences`` or more gold sentences and the system sentences spelling the same text
    (the first boundary both files share); returns the two files and the gold sentence count."""
    g, s = _blocks(gold), _blocks(system)
    gi = si = gc = sc = 0
    while True:
        if gc <= sc:
            gc += g[gi][1]
            gi += 1
        else:
            sc += s[si][1]
            si += 1
        if gc == sc and gi >= sentences:
            break
    out_g, out_s = directory / f"prefix-{gold.name}", directory / f"prefix-{system.parent.name}-{system.name}"
    out_g.write_text("".join(b for b, _ in g[:gi]), encoding="utf-8")
    out_s.write_text("".join(b for b, _ in s[:si]), encoding="utf-8")
    return out_g, out_s, gi


# --- running ---------------------------------------------------------------------------------------


def run(cmd: list[str], before=None) -> dict:
    """One process: wall and CPU time (user + system, its children included), and its output."""
    if before is not None:
        before()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        # safe_path: `python -m evalhouse` of --before's virtualenv must not import this checkout's package
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=safe_path())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        out.seek(0)
        err.seek(0)
        text, errors = out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(map(str, cmd))} failed:\n{errors or text}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "out": text}


def measure(contenders: dict[str, tuple[list[str], object]], rounds: int) -> dict[str, dict]:
    """Alternating runs of the contenders, ``rounds`` times; medians and the last output of each."""
    runs: dict[str, list[dict]] = {n: [] for n in contenders}
    for _ in range(rounds):
        for name, (cmd, before) in contenders.items():
            runs[name].append(run(cmd, before))
    return {
        n: {
            "wall": statistics.median(r["wall"] for r in rs),
            "cpu": statistics.median(r["cpu"] for r in rs),
            "out": rs[-1]["out"],
        }
        for n, rs in runs.items()
    }


def report(row: str, results: dict[str, dict], peer: str | None, check: str) -> None:
    for name, r in results.items():
        ratio = ""
        if peer in results and name != peer:
            p = results[peer]
            ratio = f"{r['wall'] / p['wall']:7.2f}x wall {r['cpu'] / p['cpu']:7.2f}x CPU"
        print(f"{row:<34}{name:<26}{r['wall']:>8.3f}{r['cpu']:>8.3f}   {ratio}")
    if check:
        print(f"{'':<34}{check}")


# --- evalb ---------------------------------------------------------------------------------------

TYPER_FLOOR = """
from pathlib import Path
from typing import Annotated, Optional
import typer
app = typer.Typer()
@app.command()
def evalb(gold: Path, test: Path, prm: Annotated[Optional[Path], typer.Option("--prm")] = None):
    pass
@app.command()
def other():
    pass
app()
"""


def _evalb_check(results: dict[str, dict]) -> str:
    """Whether each evalhouse's report is EVALB's output byte for byte; for one that is not (an evalhouse from
    before issue 35 prints the older layout), whether the valid sentences' rows and the summary figures
    other than the F-measure are equal."""
    theirs = results["EVALB (C)"]["out"]
    verdicts = []
    for name, r in results.items():
        if not name.startswith("evalhouse"):
            continue
        if r["out"] == theirs:
            verdict = f"byte for byte ({len(theirs.splitlines()):,} lines)"
        else:
            mine, c = _evalb_rows(r["out"]), _evalb_rows(theirs)
            ok_rows = [row for row in c[0] if row[2] == "0"]
            same = [row for row in mine[0] if row[2] == "0"] == ok_rows and mine[1] == c[1]
            verdict = (
                f"not byte for byte; {len(ok_rows):,} valid rows and {len(mine[1])} summary figures equal"
                if same
                else "RESULTS DIFFER"
            )
        verdicts.append(f"{name}: {verdict}")
    return "EVALB's output: " + "; ".join(verdicts)


def _evalb_rows(text: str) -> tuple[list[list[str]], dict[str, str]]:
    """Per-sentence rows (fields) and summary figures (section: key -> value) of an EVALB report."""
    rows, summary, section = [], {}, None
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 12 and fields[0].isdigit():
            rows.append(fields)
        elif line.startswith("-- "):
            section = line.strip("- ")
        elif section and "=" in line and "FMeasure" not in line:
            key, value = line.split("=")
            summary[f"{section}: {key.strip()}"] = value.strip()
    return rows, summary


def bench_evalb(args, tmp: Path) -> None:
    prm = args.data / "constituency" / "evalb" / "COLLINS.prm"
    ptb = evalb_files(args.data / "constituency" / "ptb-sample" / "treebank.zip", tmp, seed=1)
    sample_dir = args.data / "constituency" / "evalb"
    cases = [
        ("evalb PTB sample, 3,914 trees", ptb, prm),
        (
            "evalb EVALB's sample, 24 lines",
            (sample_dir / "sample.gld", sample_dir / "sample.tst"),
            sample_dir / "sample.prm",
        ),
    ]
    for row, (gold, test), params in cases:
        arguments = ["evalb", str(gold), str(test), "--prm", str(params)]
        contenders = {"evalhouse evalb": (EVALHOUSE + arguments, None)}
        if args.before:
            contenders["evalhouse evalb before"] = ([str(args.before), "-m", "evalhouse"] + arguments, None)
        if args.evalb:
            contenders["EVALB (C)"] = ([str(args.evalb), "-p", str(params), str(gold), str(test)], None)
        contenders["typer floor"] = (
            [sys.executable, "-c", TYPER_FLOOR, "evalb", str(gold), str(test), "--prm", str(params)],
            None,
        )
        results = measure(contenders, args.rounds)
        check = _evalb_check(results) if "EVALB (C)" in results else ""
        report(row, results, "EVALB (C)", check)
        if row.startswith("evalb PTB"):
            summary.record(
                f"`evalhouse evalb`, {row[6:]}",
                "python -m benchmarks.parses --only evalb",
                "distinct trees, the PTB files with their wrapper; output compared byte for byte",
                results["evalhouse evalb"],
                "EVALB (C)" if "EVALB (C)" in results else "",
                results.get("EVALB (C)"),
                check.split(";")[0][:60],
            )


# --- dependency runs -----------------------------------------------------------------------------


def _las(text: str, official: bool) -> str:
    m = re.search(r"LAS F1 Score: ([0-9.]+)" if official else r"LAS ([0-9.]+)", text)
    return m.group(1) if m else "?"


def bench_dependency(args, tmp: Path) -> None:
    d = args.data / "parsing" / "conll2018"
    gold_en = d / "gold" / "en_ewt.conllu"
    g20, s20, n20 = prefix_pair(gold_en, d / "Stanford-18" / "en_ewt.conllu", tmp, 20)
    cases = [
        (f"dependency-run {n20} sentences", g20, s20, "en20"),
        ("dependency-run en_ewt (25k words)", gold_en, d / "HIT-SCIR-18" / "en_ewt.conllu", "en_ewt"),
        ("dependency-run zh_gsd", d / "gold" / "zh_gsd.conllu", d / "HIT-SCIR-18" / "zh_gsd.conllu", "zh_gsd"),
        ("dependency-run fr_gsd", d / "gold" / "fr_gsd.conllu", d / "UDPipe-Future" / "fr_gsd.conllu", "fr_gsd"),
    ]
    # one larger file of distinct sentences: the three treebanks one after the other, gold and HIT-SCIR's output
    three = ("en_ewt", "fr_gsd", "zh_gsd")
    big_gold, big_system = tmp / "three-gold.conllu", tmp / "three-system.conllu"
    big_gold.write_text(
        "".join((d / "gold" / f"{t}.conllu").read_text(encoding="utf-8") for t in three), encoding="utf-8"
    )
    big_system.write_text(
        "".join((d / "HIT-SCIR-18" / f"{t}.conllu").read_text(encoding="utf-8") for t in three), encoding="utf-8"
    )
    cases.append(("dependency-run en+fr+zh 47k words", big_gold, big_system, "three"))
    if args.sentences:  # --quick: the first sentences of each pair (the rows keep their names)
        for *_, corpus in cases:
            (tmp / corpus).mkdir(exist_ok=True)
        cases = [
            (
                row,
                *(prefix_pair(gold, system, tmp / corpus, args.sentences)[:2] if corpus != "en20" else (gold, system)),
                corpus,
            )
            for row, gold, system, corpus in cases
        ]
    for row, gold, system, corpus in cases:

        def prepared_copy(python: list[str], name: str):
            """A warehouse with the gold stored by ``python``'s evalhouse (a schema of its own: --before may
            be a commit whose tables differ), and a function that copies it to where a run starts, untimed."""
            prepared, later = tmp / f"{corpus}-{name}-prepared.duckdb", tmp / f"{corpus}-{name}-later.duckdb"
            run(
                python
                + [
                    "--db",
                    str(prepared),
                    "ingest",
                    "dependency-run",
                    str(system),
                    "--gold",
                    str(gold),
                    "--corpus",
                    corpus,
                    "--team",
                    "setup",
                    "--run",
                    "0",
                ]
            )

            def copy_prepared():
                for suffix in ("", ".wal"):
                    src = Path(str(prepared) + suffix)
                    dst = Path(str(later) + suffix)
                    dst.unlink(missing_ok=True)
                    if src.exists():
                        shutil.copyfile(src, dst)

            return later, copy_prepared

        later, copy_prepared = prepared_copy(EVALHOUSE, "now")
        first = tmp / f"{corpus}-first.duckdb"

        def remove_first(first=first):
            for suffix in ("", ".wal"):
                Path(str(first) + suffix).unlink(missing_ok=True)

        command = [
            "ingest",
            "dependency-run",
            str(system),
            "--gold",
            str(gold),
            "--corpus",
            corpus,
            "--team",
            "bench",
            "--run",
            "1",
        ]
        contenders = {
            "evalhouse (gold stored)": (EVALHOUSE + ["--db", str(later)] + command, copy_prepared),
            "evalhouse (first run)": (EVALHOUSE + ["--db", str(first)] + command, remove_first),
        }
        if args.before:
            before = [str(args.before), "-m", "evalhouse"]
            later_before, copy_before = prepared_copy(before, "before")
            contenders["evalhouse before (gold stored)"] = (before + ["--db", str(later_before)] + command, copy_before)
        if args.conll18:
            contenders["conll18_ud_eval.py"] = ([sys.executable, str(args.conll18), str(gold), str(system)], None)
        results = measure(contenders, args.rounds)
        check = ""
        if "conll18_ud_eval.py" in results:
            official = _las(results["conll18_ud_eval.py"]["out"], True)
            mine = {_las(results[n]["out"], False) for n in results if n.startswith("evalhouse")}
            check = (
                f"LAS F1 equal: {official}"
                if mine == {official}
                else f"LAS DIFFERS: official {official}, evalhouse {sorted(mine)}"
            )
        report(row, results, "conll18_ud_eval.py", check)
        if "zh_gsd" in row or "fr_gsd" in row:
            continue
        peer = "conll18_ud_eval.py" if "conll18_ud_eval.py" in results else ""
        for name, assumes in (
            ("evalhouse (gold stored)", "gold already stored (warehouse copied in untimed)"),
            ("evalhouse (first run)", "gold read and stored in the same command, new warehouse"),
        ):
            summary.record(
                f"`ingest dependency-run`, {row[len('dependency-run ') :]}",
                "python -m benchmarks.parses --only dependency",
                assumes + "; every CoNLL 2018 metric",
                results[name],
                peer,
                results.get(peer),
                check,
            )


def bench_ingest_parses(args, tmp: Path) -> None:
    """``ingest parses`` of the gold PTB sample into a new warehouse, then of its perturbed copy (GEIG and LA
    stored); with ``--before``, the other virtualenv's evalhouse does the same in its own warehouse, in the
    same rounds."""
    gold, test = evalb_files(args.data / "constituency" / "ptb-sample" / "treebank.zip", tmp, seed=1)
    sides = {"evalhouse": EVALHOUSE}
    if args.before:
        sides["evalhouse before"] = [str(args.before), "-m", "evalhouse"]
    gold_runs: dict[str, list[dict]] = {name: [] for name in sides}
    test_runs: dict[str, list[dict]] = {name: [] for name in sides}
    for _ in range(args.rounds):
        for k, (name, command) in enumerate(sides.items()):
            db = tmp / f"parses-{k}.duckdb"

            def fresh(db=db):
                for suffix in ("", ".wal"):
                    Path(str(db) + suffix).unlink(missing_ok=True)

            gold_runs[name].append(
                run(command + ["--db", str(db), "ingest", "parses", str(gold), "--corpus", "ptb", "--gold"], fresh)
            )
            test_runs[name].append(
                run(
                    command
                    + [
                        "--db",
                        str(db),
                        "ingest",
                        "parses",
                        str(test),
                        "--corpus",
                        "ptb",
                        "--team",
                        "bench",
                        "--run",
                        "perturbed",
                    ]
                )
            )
    for row, runs in (
        ("ingest parses gold (3,914 trees)", gold_runs),
        ("ingest parses candidate (GEIG+LA)", test_runs),
    ):
        report(
            row,
            {
                name: {"wall": statistics.median(r["wall"] for r in rs), "cpu": statistics.median(r["cpu"] for r in rs)}
                for name, rs in runs.items()
            },
            None,
            "",
        )
    outputs = {name: rs[-1]["out"].strip() for name, rs in test_runs.items()}
    print(f"{'':<34}{outputs['evalhouse']}")
    if args.before:
        print(f"{'':<34}{'the same summary' if len(set(outputs.values())) == 1 else 'SUMMARIES DIFFER'} before")


_SCRIPT_VERSION = re.compile(r"^#.*\bVersion (\d+(?:\.\d+)+):", re.MULTILINE)


def describe_peer(path: Path) -> str:
    """What a peer is, for the report: its path, the start of its SHA-256 and, for a script whose header keeps a
    changelog (``conll18_ud_eval.py``: ``# - [25 Jun 2018] Version 1.2: ...``), the latest version it names.
    Copies of a peer differ (the CoNLL 2018 script changed after the shared task's first release), and a ratio
    means little without knowing which one was measured."""
    data = path.read_bytes()
    versions = _SCRIPT_VERSION.findall(data[:20_000].decode("utf-8", "replace"))
    newest = max(versions, key=lambda v: tuple(int(p) for p in v.split("."))) if versions else None
    return f"{path} (sha256 {hashlib.sha256(data).hexdigest()[:12]}{f', version {newest}' if newest else ''})"


def _installed(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--evalb", type=Path, help="EVALB's C program (built from its public source)")
    parser.add_argument("--conll18", type=Path, help="the official conll18_ud_eval.py")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=["evalb", "dependency", "ingest"], default=None)
    parser.add_argument(
        "--before",
        type=Path,
        help="the python of another virtualenv (e.g. one with main "
        "at an earlier commit installed): its evalhouse is timed in the same rounds (evalb, "
        "dependency-run with the gold stored and ingest parses)",
    )
    parser.add_argument(
        "--sentences",
        type=int,
        default=0,
        help="dependency runs: only the first sentences of each pair (for --quick smoke runs)",
    )
    args = parser.parse_args(argv)
    if not (args.data / "constituency" / "ptb-sample" / "treebank.zip").exists():
        sys.exit(f"REAL DATA MISSING under {args.data}")
    for option, path in (("--evalb", args.evalb), ("--conll18", args.conll18)):
        if path is None or not path.is_file():
            print(
                f"!!! PEER MISSING: {option} {'not given' if path is None else f'{path} is not a file'}; "
                "its rows show evalhouse alone, with no ratio !!!",
                file=sys.stderr,
            )
            setattr(args, option[2:], None)
    import duckdb

    import evalhouse

    load_before = os.getloadavg()
    print(f"# parse evaluation against its peers, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"evalhouse {evalhouse.__version__}, duckdb {duckdb.__version__}, typer {_installed('typer')}; "
        f"{args.rounds} rounds, median"
    )
    for option, path in (("--evalb", args.evalb), ("--conll18", args.conll18)):
        if path is not None:
            print(f"peer {option}: {describe_peer(path)}")
    print(compile_bytecode(args.before))
    print(typer_coercion() + (f"; before: {typer_coercion(args.before)}" if args.before else ""))
    print(f"{'row':<34}{'contender':<26}{'wall s':>8}{'CPU s':>8}   ratio to the peer")
    only = args.only or ["evalb", "dependency", "ingest"]
    with tempfile.TemporaryDirectory() as tmp:
        if "evalb" in only:
            bench_evalb(args, Path(tmp))
        if "dependency" in only:
            bench_dependency(args, Path(tmp))
        if "ingest" in only:
            bench_ingest_parses(args, Path(tmp))
    load_after = os.getloadavg()
    print(f"load average (1 min): {load_before[0]:.2f} before, {load_after[0]:.2f} after")


if __name__ == "__main__":
    main()
