"""Hostile output sizes end to end (issue 37, item 3): ``evalhouse ingest outputs`` in a subprocess per case.

    $ python -m benchmarks.hostile_sizes [--treebank PATH] [--sentences 20]

The reference is the first ``--sentences`` sentences of a real treebank (default: UD English EWT test in
``../shared/data``), ingested once; every case is an output file in ``lines`` format whose first line is
hostile and whose other lines are the reference texts:

* a 10 MB line (the first reference text repeated), a 10 M-character token of random letters, a
  50,000-word sentence (reference texts concatenated, then reversed): refused by file, line and limit;
* at the limits, accepted: a 100,000-character token of random letters, and 1,000 words (the
  reference texts concatenated, 850 words, about 1,000 tokens, in order and reversed; the first
  sentence reversed and repeated to 850 words);
* ties everywhere, accepted: 1,000 tokens drawn at random from the 3 most frequent words of a
  sentence, against the first sentence and against the treebank's longest sentence (81 words in EWT
  test), which is then put first in a second reference (its other sentences the same).

``--only TEXT`` runs the cases whose name contains TEXT.

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
from collections import Counter
from pathlib import Path

DEFAULT = (
    Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "ud" / "UD_English-EWT" / "en_ewt-ud-test.conllu"
)


def first_sentences(path: Path, n: int) -> tuple[str, list[str]]:
    """The first ``n`` sentences of a CoNLL-U file (as text) and their ``# text``."""
    blocks = path.read_text(encoding="utf-8").split("\n\n")[:n]
    texts = [next(line[len("# text = ") :] for line in b.splitlines() if line.startswith("# text = ")) for b in blocks]
    return "\n\n".join(blocks) + "\n\n", texts


def longest_first(path: Path, n: int) -> tuple[str, list[str]]:
    """The treebank's longest sentence (by word lines) followed by its first ``n - 1`` sentences, as
    :func:`first_sentences` returns them."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    longest = max(blocks, key=lambda b: sum(1 for line in b.splitlines() if line.split("\t")[0].isdigit()))
    blocks = [longest] + [b for b in blocks if b is not longest][: n - 1]
    texts = [next(line[len("# text = ") :] for line in b.splitlines() if line.startswith("# text = ")) for b in blocks]
    return "\n\n".join(blocks) + "\n\n", texts


def forms(conllu: str) -> list[str]:
    """The word forms of the first sentence of ``conllu``."""
    block = conllu.split("\n\n")[0]
    return [line.split("\t")[1] for line in block.splitlines() if line.split("\t")[0].isdigit()]


def ties(words_of: list[str], words: int = 1_000) -> str:
    """``words`` tokens drawn at random from the 3 most frequent forms ``words_of`` a sentence (each a
    single token): every alignment ties with many others."""
    rng = random.Random(37)
    common = [w for w, _ in Counter(words_of).most_common(3)]
    return " ".join(rng.choice(common) for _ in range(words))


def cases(texts: list[str], first_forms: list[str]) -> list[tuple[str, str]]:
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
        ("ties: 1,000 tokens, 3 words of the first", ties(first_forms)),
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
    p.add_argument("--only", default="", help="run only the cases whose name contains this")
    args = p.parse_args(argv)
    if not args.treebank.exists():
        sys.exit(f"treebank not found: {args.treebank} (give --treebank)")
    reference, texts = first_sentences(args.treebank, args.sentences)
    long_reference, long_texts = longest_first(args.treebank, args.sentences)
    runs = [(name, line, "ref", texts) for name, line in cases(texts, forms(reference))]
    longest = forms(long_reference)
    runs.append((f"ties: 1,000 tokens, 3 words of a {len(longest)}-word", ties(longest), "long", long_texts))
    runs = [r for r in runs if args.only in r[0]]
    python = [sys.executable, "-m", "evalhouse"]
    print(f"reference: first {len(texts)} sentences of {args.treebank.name}; python {sys.version.split()[0]}")
    print(f"{'case':40} {'exit':>4} {'wall s':>7} {'CPU s':>7} {'peak MB':>8}  message")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        bases = {}
        for corpus, conllu in (("ref", reference), ("long", long_reference)):
            (tmp / f"{corpus}.conllu").write_text(conllu, encoding="utf-8")
            bases[corpus] = tmp / f"{corpus}.duckdb"
            subprocess.run(
                python
                + ["--db", str(bases[corpus]), "ingest", "treebank", str(tmp / f"{corpus}.conllu"), "--corpus", corpus],
                check=True,
                capture_output=True,
            )
        for k, (name, line, corpus, lines) in enumerate(runs):
            out = tmp / f"case{k}.txt"
            out.write_text("\n".join([line] + lines[1:]) + "\n", encoding="utf-8")
            db = tmp / f"case{k}.duckdb"
            db.write_bytes(bases[corpus].read_bytes())
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
                corpus,
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
