"""Branch-and-bound nodes of the most-moves alignment's integer programme, on every pair the project scores:
what ``NODE_LIMIT`` (``analysis/accuracy.py``) must stay far above.

    $ python -m benchmarks.alignment_nodes [--treebank PATH] [--runs DIR] [--ties] [--built]

The pairs are the ones ``edit_operations`` receives (string and lemma-key strings, treelets) while
``ingest outputs`` scores, in this process, against UD v2.3 EWT test (``../shared/data``): the ADAPT runs
(``--runs``), every reference text reversed and shuffled, and the hostile outputs of
:mod:`benchmarks.hostile_sizes` that the size limits let through; with ``--ties`` also 300 tokens drawn from
the 3 most frequent words of every sentence of 30 words or more (about 30 minutes more: the forced programme
of a tie-heavy pair takes seconds). ``--built`` adds outputs built to reach the programme at the limits: 201
distinct reference words against shuffles, reorderings of blocks and random draws of them, 201 to 700 tokens.

Each distinct pair is aligned twice: as ingest does (``auto``: the forward search, the programme past its
budget) and with the programme forced. Printed: the pairs, how many reach the programme as ingest runs it,
the most nodes and CPU seconds of one programme (forced; and of those ingest reaches), and whether the two
ways give the same I, D, S and M on every pair (both are exact, so they must).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import scipy.optimize

import evalhouse
from benchmarks import hostile_sizes
from evalhouse.analysis import accuracy

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
EWT = DATA / "ud-v2.3" / "en_ewt-ud-test.conllu"
RUNS = DATA / "sr-outputs" / "adapt-ewt-test"


class Spy:
    """Records the pairs ``edit_operations`` receives, and the node count and CPU time of each ``milp`` call."""

    def __init__(self):
        self.pairs: dict[tuple[tuple, tuple], str] = {}
        self.solves: list[tuple[int, float]] = []
        self.source = ""
        self._edit, self._milp = accuracy.edit_operations, scipy.optimize.milp

    def __enter__(self):
        def edit(reference, output, method="auto"):
            self.pairs.setdefault((tuple(reference), tuple(output)), self.source)
            return self._edit(reference, output, method)

        def milp(*args, **kwargs):
            start = time.process_time()
            result = self._milp(*args, **kwargs)
            self.solves.append((result.mip_node_count or 0, time.process_time() - start))
            return result

        accuracy.edit_operations, scipy.optimize.milp = edit, milp
        return self

    def __exit__(self, *exc):
        accuracy.edit_operations, scipy.optimize.milp = self._edit, self._milp


def texts_of(path: Path) -> list[tuple[str, list[str]]]:
    """Every sentence's ``# text`` and word forms."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    return [
        (
            next(line[len("# text = ") :] for line in b.splitlines() if line.startswith("# text = ")),
            hostile_sizes.forms(b),
        )
        for b in blocks
    ]


def outputs(sentences: list[tuple[str, list[str]]], ties: bool) -> dict[str, list[str]]:
    """The constructed outputs, one line per reference sentence."""
    rng = random.Random(37)
    shuffled = []
    for text, _ in sentences:
        words = text.split()
        rng.shuffle(words)
        shuffled.append(" ".join(words))
    made = {"reversed": [" ".join(t.split()[::-1]) for t, _ in sentences], "shuffled": shuffled}
    if ties:
        made["ties"] = [hostile_sizes.ties(f, 300) if len(f) >= 30 else t for t, f in sentences]
    return made


def collect(spy: Spy, treebank: Path, runs: Path, ties: bool, tmp: Path) -> None:
    """Ingest every output in this process (one file at a time: no worker), so that the spy sees its pairs."""
    sentences = texts_of(treebank)
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([treebank], corpus="ref")
        files = [(run.name, run / "en_out.txt", "auto") for run in sorted(runs.iterdir()) if runs.is_dir()]
        for name, lines in outputs(sentences, ties).items():
            (tmp / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
            files.append((name, tmp / f"{name}.txt", "lines"))
        for name, path, fmt in files:
            spy.source = name
            wh.ingest_outputs(path, reference="ref", team="t", run=name, format=fmt)
    reference, texts = hostile_sizes.first_sentences(treebank, 20)
    with evalhouse.connect(":memory:") as wh:
        (tmp / "first.conllu").write_text(reference, encoding="utf-8")
        wh.ingest_treebank([tmp / "first.conllu"], corpus="first")
        for k, (name, line) in enumerate(hostile_sizes.cases(texts, hostile_sizes.forms(reference))):
            if len(line.split()) > 1_000 or len(line) > 100_000:
                continue  # refused by the size limits before any alignment
            spy.source = f"hostile: {name}"
            (tmp / f"hostile{k}.txt").write_text("\n".join([line] + texts[1:]) + "\n", encoding="utf-8")
            wh.ingest_outputs(tmp / f"hostile{k}.txt", reference="first", team="t", run=f"h{k}", format="lines")


def built(spy: Spy) -> None:
    """Outputs built to reach the programme at the limits: 201 distinct words, 201 to 700 tokens."""
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        ref = [f"w{i}" for i in range(201)]
        for m in (201, 330, 500, 700):
            shuffled = (ref * (m // 201 + 1))[:m]
            rng.shuffle(shuffled)
            cuts = sorted(rng.sample(range(1, 201), rng.randint(2, 11)))
            blocks = [ref[a:b] for a, b in zip([0] + cuts, cuts + [201])]
            rng.shuffle(blocks)
            moved = ([t for b in blocks for t in b] * (m // 201 + 1))[:m]
            for kind, out in (
                ("shuffled", shuffled),
                ("blocks", moved),
                ("drawn", [rng.choice(ref) for _ in range(m)]),
            ):
                spy.pairs.setdefault((tuple(ref), tuple(out)), f"built: {kind}")


def measure(spy: Spy) -> None:
    reached, forced, differ, raised = [], [], 0, 0
    start = time.perf_counter()
    for (ref, out), source in spy.pairs.items():
        spy.solves.clear()
        auto = spy._edit(ref, out).counts()
        reached += [(n, cpu, source, len(ref), len(out)) for n, cpu in spy.solves]
        spy.solves.clear()
        try:
            exact = spy._edit(ref, out, method="integer-programme").counts()
        except accuracy.AlignmentTooHard:
            raised += 1
            continue
        forced += [(n, cpu, source, len(ref), len(out)) for n, cpu in spy.solves]
        differ += exact != auto
    print(f"{len(spy.pairs):,} distinct pairs ({time.perf_counter() - start:.0f} s); NODE_LIMIT {accuracy.NODE_LIMIT}")
    for name, solves in (("forced", forced), ("as ingest runs it", reached)):
        if not solves:
            print(f"{name}: no programme")
            continue
        nodes = max(solves, key=lambda s: s[0])
        slowest = max(solves, key=lambda s: s[1])
        print(
            f"{name}: {len(solves):,} programmes, most nodes {nodes[0]} ({nodes[2]}, {nodes[3]} x {nodes[4]}); "
            f"slowest {slowest[1]:.2f} s CPU ({slowest[2]}, {slowest[3]} x {slowest[4]}, {slowest[0]} nodes)"
        )
    print(f"refused at the node limit: {raised}; counts differing between the two ways: {differ}")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--treebank", type=Path, default=EWT)
    p.add_argument("--runs", type=Path, default=RUNS, help="a directory of ADAPT-style runs, DIR/<run>/en_out.txt")
    p.add_argument("--ties", action="store_true", help="also tie-heavy outputs (about 30 minutes more)")
    p.add_argument("--built", action="store_true", help="also outputs built to reach the programme at the limits")
    args = p.parse_args(argv)
    if not args.treebank.exists():
        sys.exit(f"treebank not found: {args.treebank} (give --treebank)")
    with tempfile.TemporaryDirectory() as tmp, Spy() as spy:
        collect(spy, args.treebank, args.runs, args.ties, Path(tmp))
        if args.built:
            built(spy)
        measure(spy)


if __name__ == "__main__":
    main()
