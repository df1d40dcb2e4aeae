"""Hostile output sizes end to end (issue 37, item 3): ``evalhouse ingest outputs`` in a subprocess per case.

    $ python -m benchmarks.hostile_sizes [--treebank PATH] [--sentences 20]

The reference is the first ``--sentences`` sentences of a real treebank (default: UD English EWT test in
``../shared/data``), ingested once; every case is an output file in ``lines`` format whose first line is
hostile and whose other lines are the reference texts:

* a 10 MB line (the first reference text repeated), a 10 M-character token of random letters, a
  50,000-word sentence (reference texts concatenated, then reversed): refused by file, line and limit;
* at the limits, accepted: a 100,000-character token of random letters, and 1,000 words (the
  reference texts concatenated, 850 words, about 1,000 tokens, in order and reversed; the first
  sentence reversed and repeated to 850 words).

Printed per case: the outcome (exit code, first line of the message), wall and CPU seconds of the
process (imports included) and its peak resident memory (``/usr/bin/time`` where present, else
``getrusage`` of the child).
"""

from __future__ import annotations

import argparse
import random
import resource
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = (
    Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "ud" / "UD_English-EWT" / "en_ewt-ud-test.conllu"
)


def first_sentences(path: Path, n: int) -> tuple[str, list[str]]:
    """The first ``n`` sentences of a CoNLL-U file (as text) and their ``# text``."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")[:n]
    texts = [next(line[len("# text = ") :] for line in b.splitlines() if line.startswith("# text = ")) for b in blocks]
    return "\n\n".join(blocks) + "\n\n", texts


def cases(texts: list[str]) -> list[tuple[str, str]]:
    rng = random.Random(37)
    words = " ".join(texts).split()
    many = (words * (50_000 // len(words) + 1))[:50_000]
    thousand = (words * (850 // len(words) + 1))[:850]  # about 1,000 tokens once punctuation is split off
    first = texts[0].split()
    return [
        ("10 MB line (first text repeated)", ((texts[0] + " ") * (10_000_000 // (len(texts[0]) + 1) + 1))[:10_000_000]),
        ("10 M-character token", "".join(rng.choice(string.ascii_lowercase) for _ in range(10_000_000))),
        ("50,000 words, reversed", " ".join(many[::-1])),
        ("100,000-character token (limit)", "".join(rng.choice(string.ascii_lowercase) for _ in range(100_000))),
        ("850 words in order (limit)", " ".join(thousand)),
        ("850 words reversed (limit)", " ".join(thousand[::-1])),
        ("first sentence reversed, 850 words", " ".join((first[::-1] * (850 // len(first) + 1))[:850])),
    ]


def measure(cmd: list[str]) -> tuple[int, str, float, float, float]:
    """Exit code, first line of stderr, wall s, CPU s, peak RSS MB of one process."""
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    message = (proc.stderr.strip().splitlines() or [""])[0][:150]
    return proc.returncode, message, wall, cpu, after.ru_maxrss / 1024


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--treebank", type=Path, default=DEFAULT)
    p.add_argument("--sentences", type=int, default=20)
    args = p.parse_args(argv)
    if not args.treebank.exists():
        sys.exit(f"treebank not found: {args.treebank} (give --treebank)")
    reference, texts = first_sentences(args.treebank, args.sentences)
    python = [sys.executable, "-m", "evalhouse"]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "ref.conllu").write_text(reference, encoding="utf-8")
        base = tmp / "base.duckdb"
        subprocess.run(
            python + ["--db", str(base), "ingest", "treebank", str(tmp / "ref.conllu"), "--corpus", "ref"],
            check=True,
            capture_output=True,
        )
        print(f"reference: first {len(texts)} sentences of {args.treebank.name}; python {sys.version.split()[0]}")
        print(f"{'case':40} {'exit':>4} {'wall s':>7} {'CPU s':>7} {'peak MB':>8}  message")
        for k, (name, line) in enumerate(cases(texts)):
            out = tmp / f"case{k}.txt"
            out.write_text("\n".join([line] + texts[1:]) + "\n", encoding="utf-8")
            db = tmp / f"case{k}.duckdb"
            db.write_bytes(base.read_bytes())
            # each case in its own wrapper process, so that the children's peak RSS is this case's
            child = (
                "import sys, benchmarks.hostile_sizes as h; r = h.measure(sys.argv[1:]); print('\\t'.join(map(str, r)))"
            )
            wrapper = [
                sys.executable,
                "-c",
                child,
                *python,
                "--db",
                str(db),
                "ingest",
                "outputs",
                str(out),
                "--team",
                "t",
                "--run",
                f"r{k}",
                "--reference",
                "ref",
                "--format",
                "lines",
            ]
            res = subprocess.run(
                wrapper, capture_output=True, text=True, check=False, cwd=Path(__file__).resolve().parents[1]
            )
            code, message, wall, cpu, rss = res.stdout.strip().split("\t")
            print(f"{name:40} {code:>4} {float(wall):7.1f} {float(cpu):7.1f} {float(rss):8.0f}  {message}", flush=True)
            out.unlink()
            db.unlink()


if __name__ == "__main__":
    main()
