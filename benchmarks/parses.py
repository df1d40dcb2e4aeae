"""Benchmark of parse evaluation: the 3,914-tree Penn Treebank sample against a perturbed copy.

    $ python -m benchmarks.parses [--zip ../shared/data/constituency/ptb-sample/treebank.zip] [--seed 1]

Measures, on this machine, in a fresh on-disk warehouse:

1. ingest of the gold trees (parse, validate, store constituents and leaves);
2. ingest of a perturbed copy as a candidate run, which scores every sentence: EVALB preparation,
   bracket matching (GEIG), lineages and weighted Levenshtein (LA), all stored;
3. the views ``parse_scores``, ``geig_sentences`` (all rows), ``la_sentences`` and ``metric_deciles``.

The target of issue 5 is LA and GEIG over the sample against a perturbed copy in under 10 s (steps
1 + 2).  The perturbed copy (:func:`perturb`) relabels, flattens and retags nodes at random with a
fixed seed; nothing is written into the project.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import random
import tempfile
import time
import zipfile
from dataclasses import replace
from pathlib import Path

import duckdb

import evalhouse
from evalhouse.ingest.parses import ingest_parses
from evalhouse.loaders.brackets import Tree, read_trees, render
from evalhouse.version import __version__


def ptb_sample_text(zip_path: Path) -> str:
    """The .mrg files of NLTK's treebank sample concatenated in name order."""
    with zipfile.ZipFile(zip_path) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".mrg"))
        return "".join(z.read(n).decode("utf-8") + "\n" for n in names)


def perturb(tree: Tree, rng: random.Random, rate: float = 0.3) -> Tree:
    """A copy of ``tree`` with, at random, nonterminals relabelled or flattened and POS tags changed."""
    labels = sorted({lab for lab, _, _, _ in tree.nodes}) or ["X"]
    # retag only among alphabetic tags, so that no word turns into (or out of) deleted punctuation
    tags = sorted({p for p in tree.pos if p is not None and p.isalpha()})
    nodes = [list(nd) for nd in tree.nodes]
    keep = [True] * len(nodes)
    for k, nd in enumerate(nodes):
        r = rng.random()
        if r < rate / 2:
            nd[0] = rng.choice(labels)
        elif r < rate and nd[1] != -1 and tree.pos[nd[2]] != "-NONE-":
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
    them, written into ``directory``; returns (gold, test)."""
    rng = random.Random(seed)
    trees = list(read_trees(io.StringIO(ptb_sample_text(zip_path)), str(zip_path)))
    gold, test = Path(directory) / "ptb-gold.txt", Path(directory) / "ptb-perturbed.txt"
    gold.write_text("".join(render(t) + "\n" for t in trees), encoding="utf-8")
    test.write_text("".join(render(perturb(t, rng)) + "\n" for t in trees), encoding="utf-8")
    return gold, test


def main(argv: list[str] | None = None) -> None:
    here = Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zip", type=Path, default=here.parent / "shared" / "data" / "constituency" / "ptb-sample" / "treebank.zip")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / "gold.mrg"
        gold.write_text(ptb_sample_text(args.zip), encoding="utf-8")
        rng = random.Random(args.seed)
        trees = list(read_trees(io.StringIO(gold.read_text(encoding="utf-8")), str(gold)))
        test = Path(tmp) / "perturbed.mrg"
        test.write_text("".join(render(perturb(t, rng)) + "\n" for t in trees), encoding="utf-8")
        words = sum(len(t.words) for t in trees)
        print(f"# evalhouse {__version__} parse-evaluation benchmark")
        print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, duckdb {duckdb.__version__}")
        print(f"input: {len(trees):,} trees, {words:,} leaves (traces included)")
        db = Path(tmp) / "w.duckdb"
        with evalhouse.connect(db) as wh:
            t0 = time.perf_counter()
            ingest_parses(wh, gold, "ptb", gold=True)
            t1 = time.perf_counter()
            s = ingest_parses(wh, test, "ptb", team="bench", run="perturbed")
            t2 = time.perf_counter()
            print(f"ingest gold: {t1 - t0:.2f} s")
            print(f"ingest + score perturbed copy (GEIG + LA, stored): {t2 - t1:.2f} s "
                  f"({s.ok:,} ok, {s.errors} error, {s.skipped} skip)")
            print(f"total (target < 10 s): {t2 - t0:.2f} s")
            for name, query in [("parse_scores", "SELECT * FROM parse_scores"),
                                ("geig_sentences (all rows)", "SELECT count(*), sum(labelled_f) FROM geig_sentences"),
                                ("la_sentences (all rows)", "SELECT count(*), sum(la) FROM la_sentences"),
                                ("metric_deciles", "SELECT count(*), sum(sentences) FROM metric_deciles")]:
                start = time.perf_counter()
                rows = wh.sql(query).fetchall()
                print(f"view {name}: {time.perf_counter() - start:.3f} s")
            print("scores:", wh.sql("SELECT subset, round(labelled_f, 4), round(unlabelled_f, 4), "
                                    "round(la_sentence_mean, 4), round(la_word_mean, 4) FROM parse_scores "
                                    "ORDER BY subset").fetchall())


if __name__ == "__main__":
    main()
