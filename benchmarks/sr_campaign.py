"""Issue 40's campaign target: an SR shared task's evaluation, every metric the warehouse stores, in one process.

    $ python -m benchmarks.sr_campaign [--data ../shared/data] [--runs 30] [--sentences 1500] [--languages 11]

Input, built from ``../shared/data`` (:func:`build`): 11 references, the first ``--sentences`` sentences
of the UD v2.3 en_ewt test file (the SR'19 reference) and of each of the 10 UD test files under ``ud/``;
for each, ``--runs`` submissions laid out as ``DIR/<language>/<team>/<run>/en_out.txt``: for en_ewt v2.3 the
real ADAPT runs (those that differ on these sentences), and for every language seeded perturbations of the reference sentences
(:func:`benchmarks.campaign.perturbed`: adjacent swaps, a subtree moved to the front, a dropped word; half
tokenised, half detokenised). The default is 30 x 11 x at most 1,500, about 495k sentence-runs (the SR
shared task's size: 30 submissions x 11 languages x ~1,500 sentences). Distinct runs, no repeated file.

Contenders, each a fresh process (imports included):

* ``evalhouse``: a new warehouse; ``ingest_treebank`` of each reference, ``ingest_outputs`` of each
  language's directory (tokenise, align, SR metrics, sacreBLEU, edit counts, one transaction a language),
  then every output view computed as ``benchmarks.campaign`` does. Wall, CPU (workers included), peak PSS
  of the process tree; sentence-runs per second and per CPU-second.
* the fastest independent implementations of some metric families, on the same (output, reference) text
  pairs, each in its own process: sacreBLEU's ``sentence_bleu`` and ``sentence_chrf`` per pair, and
  rapidfuzz's Levenshtein distance over the token lists (when rapidfuzz is installed). They compute one
  family each; evalhouse's figure is for all of them together, so its sentence-runs per CPU-second are the
  sum over families that a per-family peer figure must be compared with.

Target (issue 40): <= 2 min wall on this 2-core machine (>= 4,000 sentence-runs/s) and <= 1 GB peak.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import tempfile
from pathlib import Path

from benchmarks import summary
from benchmarks.campaign import VIEWS, perturbed, read_blocks
from benchmarks.process import compile_bytecode, machine, run, uptime

HERE = Path(__file__).resolve().parent

EVALHOUSE = """
import sys
from pathlib import Path
import evalhouse
directory, db = Path(sys.argv[1]), sys.argv[2]
views = sys.argv[3].split(",")
with evalhouse.connect(db) as wh:
    for language in sorted(p.name for p in directory.iterdir() if p.is_dir() and p.name != "references"):
        wh.ingest_treebank([directory / "references" / f"{language}.conllu"], corpus=language)
        wh.ingest_outputs(directory / language, reference=language)
    for view in views:
        wh.con.execute(f"SELECT count(*), max(COLUMNS(*)) FROM {view}").fetchall()
"""

LOOP = """
import sys
{setup}
n = 0
for line in open(sys.argv[1], encoding="utf-8"):
    h, r = line.rstrip("\\n").split("\\t")
    {score}
    n += 1
print(n)
"""
PEERS = {
    name: LOOP.format(setup=setup, score=score)
    for name, setup, score in (
        (
            "sacrebleu sentence_bleu",
            "from sacrebleu.metrics import BLEU\nbleu = BLEU(effective_order=True)",
            "bleu.sentence_score(h, [r])",
        ),
        ("sacrebleu sentence_chrf", "from sacrebleu.metrics import CHRF\nchrf = CHRF()", "chrf.sentence_score(h, [r])"),
        (
            "rapidfuzz Levenshtein (tokens)",
            "from rapidfuzz.distance import Levenshtein",
            "Levenshtein.distance(h.split(), r.split())",
        ),
    )
}


def references(data: Path, languages: int) -> list[tuple[str, Path]]:
    """(name, CoNLL-U file): the SR'19 en_ewt reference first, then the UD test files, ``languages`` in all."""
    files = [("en_ewt_v23", data / "ud-v2.3" / "en_ewt-ud-test.conllu")]
    files += [(p.name.split("-")[0], p) for p in sorted((data / "ud").glob("*/*-ud-test.conllu"))]
    return files[:languages]


def _first_sentences(path: Path, n: int) -> str:
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    return "\n\n".join(blocks[:n]) + "\n\n"


def build(data: Path, out: Path, runs: int, sentences: int, languages: int) -> tuple[int, int, Path]:
    """Write the campaign under ``out``; returns (sentence-runs, languages, pairs file). The pairs file holds
    one line per sentence-run: output text TAB reference text (the ``# text`` of the reference sentence), for
    the peers."""
    (out / "references").mkdir(parents=True)
    real = sorted((data / "sr-outputs" / "adapt-ewt-test").glob("*/en_out.txt"))
    total, seen = 0, set()
    pairs = out / "pairs.tsv"
    with open(pairs, "w", encoding="utf-8") as tsv:
        for name, path in references(data, languages):
            reference = out / "references" / f"{name}.conllu"
            reference.write_text(_first_sentences(path, sentences), encoding="utf-8")
            blocks = read_blocks(reference)
            texts = [
                line[len("# text = ") :]
                for line in reference.read_text(encoding="utf-8").splitlines()
                if line.startswith("# text = ")
            ]
            if len(texts) != len(blocks):
                raise SystemExit(f"{path}: a sentence without its # text")
            runs_text = {}
            if name == "en_ewt_v23":
                for f in real[:runs]:  # two real runs may agree on the first sentences: a copy is left out
                    kept = "\n\n".join(f.read_text(encoding="utf-8").split("\n\n")[: len(blocks)]) + "\n"
                    if kept not in runs_text.values():
                        runs_text[("adapt", f.parent.name)] = kept
            for k in range(runs - len(runs_text)):
                runs_text[("perturbed", f"p{k:02d}")] = perturbed(blocks, 1000 * len(seen) + k, tokenised=bool(k % 2))
            for (team, run_name), text in runs_text.items():
                if text in seen:
                    raise SystemExit("two runs of the campaign are the same file")
                seen.add(text)
                target = out / name / team / run_name / "en_out.txt"
                target.parent.mkdir(parents=True)
                target.write_text(text, encoding="utf-8")
                outputs = [
                    line[len("# text = ") :] if line.startswith("# text = ") else line[len("# text =") :]
                    for line in text.splitlines()
                    if line.startswith("# text =")
                ]
                for hyp, ref in zip(outputs, texts):
                    tsv.write(f"{hyp.replace(chr(9), ' ')}\t{ref.replace(chr(9), ' ')}\n")
                total += len(blocks)
    return total, len(references(data, languages)), pairs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--sentences", type=int, default=1500)
    parser.add_argument("--languages", type=int, default=11)
    parser.add_argument("--no-peers", action="store_true")
    args = parser.parse_args(argv)
    if not (args.data / "ud-v2.3" / "en_ewt-ud-test.conllu").exists():
        sys.exit(f"REAL DATA MISSING under {args.data}")
    print(f"# SR-sized campaign, {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC")
    print(f"# {machine()}; one round")
    print(f"# {compile_bytecode()}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        total, languages, pairs = build(args.data, tmp / "campaign", args.runs, args.sentences, args.languages)
        print(
            f"# input: {languages} languages x {args.runs} runs x <= {args.sentences:,} sentences = "
            f"{total:,} sentence-runs (distinct runs)"
        )
        print(f"# {uptime()} before")
        e = run([sys.executable, "-c", EVALHOUSE, str(tmp / "campaign"), str(tmp / "sr.duckdb"), ",".join(VIEWS)])
        print(
            f"evalhouse: wall {e['wall']:.1f} s, CPU {e['cpu']:.1f} s, peak {e['tree_mb']:.0f} MB (tree PSS); "
            f"{total / e['wall']:,.0f} sentence-runs/s wall, {total / e['cpu']:,.0f} per CPU-second; "
            + (
                f"target <= 120 s wall: {'met' if e['wall'] <= 120 else 'not met'}, <= 1 GB: "
                f"{'met' if e['tree_mb'] <= 1000 else 'not met'}"
                if total >= 450_000
                else "smaller than the target's ~500k sentence-runs: no verdict"
            )
        )
        summary.record(
            f"SR-sized campaign, {total:,} sentence-runs",
            "python -m benchmarks.sr_campaign",
            f"{languages} languages x {args.runs} distinct runs; new warehouse, every metric and view",
            e,
            note=f"{total / e['wall']:,.0f} sentence-runs/s wall, {total / e['cpu']:,.0f} a "
            f"CPU-second; peak {e['tree_mb']:.0f} MB; target 120 s, 1 GB",
        )
        if not args.no_peers:
            for name, code in PEERS.items():
                try:
                    p = run([sys.executable, "-c", code, str(pairs)])
                except SystemExit as failed:
                    print(f"{name}: not run ({str(failed).splitlines()[-1][:120]})")
                    continue
                print(
                    f"{name}: wall {p['wall']:.1f} s, CPU {p['cpu']:.1f} s; {total / p['cpu']:,.0f} sentence-runs "
                    f"per CPU-second (this family alone)"
                )
        print(f"# {uptime()} after")


if __name__ == "__main__":
    main()
