"""Every row of BENCHMARKS.md's current table in one command.

    $ python -m benchmarks [--quick] [--only treebanks dependency evalb bleu campaign fixed_cost sr_campaign]
                           [--rounds N] [--out FILE]

Runs, each as a process of its own and one after the other, ``benchmarks.treebanks`` (ingest against
pyconll), ``benchmarks.parses`` (``ingest dependency-run`` against ``conll18_ud_eval.py``, with the gold
stored and read in the same command; ``evalb`` against EVALB in C, built with gcc from
``../shared/tools/evalb-c`` into a temporary directory), ``benchmarks.sentence_bleu`` (against NLTK method 2
and sacrebleu), ``benchmarks.campaign`` (sentence-runs per second) and ``benchmarks.fixed_cost`` (and, asked for by ``--only sr_campaign``, the SR-sized campaign of
``benchmarks.sr_campaign``), lets each
print its own report, then prints the table they recorded (``benchmarks.summary``): peer, evalhouse, the
ratio, what the row assumes, the command, the load average and the date, with the machine above it. That
table leads BENCHMARKS.md.

``--quick`` is a smoke run for CI: one round and small inputs (20,000 treebank words, the first 50
sentences of each dependency pair, 2,000 BLEU pairs, a 2-run campaign); its figures are not the table's.
The peers are taken from ``../shared/tools`` (``--tools``); a missing peer leaves its rows without a ratio,
loudly.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import summary

HERE = Path(__file__).resolve().parent
SUBJECTS = ("treebanks", "dependency", "evalb", "bleu", "campaign", "fixed_cost", "sr_campaign")
DEFAULT = SUBJECTS[:-1]  # the SR-sized campaign (~500k sentence-runs, minutes) only when asked for


def commands(args, evalb: Path | None) -> list[tuple[str, list[str]]]:
    """(subject, argv of ``python -m``) for each subject asked for, full or --quick."""
    data, tools, quick = args.data, args.tools, args.quick
    rounds = ["--rounds", "1"] if quick else []

    def full(n: int) -> list[str]:
        return ["--rounds", str(args.rounds or n)]

    parses = ["benchmarks.parses", "--data", str(data), "--conll18", str(tools / "conll18_ud_eval.py")]
    if evalb:
        parses += ["--evalb", str(evalb)]
    table = {
        "treebanks": [
            "benchmarks.treebanks",
            "--data",
            str(data / "ud"),
            "--large",
            "0",
            "--only",
            "evalhouse",
            "pyconll",
        ]
        + (["--words", "20000"] + rounds if quick else full(3)),
        "dependency": parses + ["--only", "dependency"] + (["--sentences", "50"] + rounds if quick else full(5)),
        "evalb": parses + ["--only", "evalb"] + (rounds if quick else full(5)),
        "bleu": ["benchmarks.sentence_bleu", "--data", str(data), "--only", "nltk", "sacrebleu", "evalhouse-texts"]
        + (["--pairs", "2000"] + rounds if quick else full(3)),
        "campaign": ["benchmarks.campaign", "--data", str(data)]
        + (["--runs", "2", "--sample", "50"] + rounds if quick else full(1)),
        "sr_campaign": ["benchmarks.sr_campaign", "--data", str(data)]
        + (["--runs", "3", "--sentences", "10", "--languages", "2"] if quick else []),
        "fixed_cost": ["benchmarks.fixed_cost", "--data", str(data)] + (rounds if quick else full(9)),
    }
    return [(s, table[s]) for s in SUBJECTS if s in args.only]


def build_evalb(tools: Path, directory: Path) -> Path | None:
    source = tools / "evalb-c" / "evalb.c"
    gcc = shutil.which("gcc")
    if not source.is_file() or gcc is None:
        print(f"!!! PEER MISSING: EVALB in C ({source}{'' if gcc else ', no gcc'}) !!!", file=sys.stderr)
        return None
    program = directory / "evalb"
    subprocess.run([gcc, "-O2", "-o", str(program), str(source)], check=True, capture_output=True)
    return program


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--tools", type=Path, default=HERE.parent.parent / "shared" / "tools")
    parser.add_argument("--quick", action="store_true", help="one round, small inputs: a smoke run, not figures")
    parser.add_argument("--only", nargs="*", choices=SUBJECTS, default=list(DEFAULT))
    parser.add_argument("--rounds", type=int, help="rounds of every module (default: each row's own, 1 to 9)")
    parser.add_argument("--out", type=Path, help="also write the rows as JSON lines here")
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        sys.exit(f"REAL DATA MISSING: {args.data}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        evalb = build_evalb(args.tools, tmp) if {"evalb"} & set(args.only) else None
        rows_file = tmp / "rows.jsonl"
        rows_file.touch()
        for subject, command in commands(args, evalb):
            print(f"\n## {subject}: python -m {' '.join(command)}", flush=True)
            env = {**os.environ, "BENCHMARK_ROWS": str(rows_file)}
            subprocess.run([sys.executable, "-m"] + command, check=True, cwd=HERE.parent, env=env)
        rows = [json.loads(line) for line in rows_file.read_text(encoding="utf-8").splitlines()]
    print(f"\n# every row{' (--quick: a smoke run, not figures)' if args.quick else ''}; machine: {summary.machine()}")
    print(summary.markdown(rows))
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return rows


if __name__ == "__main__":
    main()
