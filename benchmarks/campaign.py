"""Issue 18's campaign row: 50 runs x 2,077 sentences, ingest + every view, against a per-sentence loop.

    $ python -m benchmarks.campaign [--data ../shared/data] [--runs 50] [--rounds 3]

Input: the 5 real ADAPT runs on UD v2.3 en_ewt test (``sr-outputs/adapt-ewt-test``) and ``--runs`` - 5
perturbations of the reference sentences (seeded adjacent swaps, a subtree moved to the front, a dropped
word; half written tokenised, half detokenised; :func:`write_campaign`), laid out as
``DIR/<team>/<run>/en_out.txt``. No two runs are the same file.

Contenders, each a fresh process (imports included), alternating within each round:

* ``evalhouse``: a new warehouse; ``ingest_treebank`` of the reference, ``ingest_outputs(DIR)`` (tokenise,
  align, statistics, one transaction, scored in one worker process per core), then every row and column
  of each output view (``dea_edges``, ``sentence_scores``, ``dea_by_relation``, ``dea_by_relation_pooled``,
  ``submission_scores``, ``sr_submission_scores``) and of the table ``submission_sacrebleu`` computed
  (``SELECT count(*), max(COLUMNS(*))``, which no optimiser can prune).
* ``loop``: ``benchmarks/campaign_loop.py``, a straightforward per-sentence Python loop computing the same
  scores with the same tokeniser, aligner and edit counts, in memory.

CPU time is user + system of the process and every child it waited for (evalhouse's workers included);
peak memory is the largest PSS of the process tree (process and workers, shared pages once), sampled
every 0.05 s, beside the largest peak RSS of any one process (see ``benchmarks/process.py``).
After the rounds, the loop's numbers are compared with the warehouse's: every submission and relation row,
each run's SR and sacreBLEU scores, and 2,000 sampled sentences (``tests/test_bench_campaign.py`` compares
every number on a small campaign).
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import summary
from benchmarks.process import compile_bytecode, machine, run, uptime

HERE = Path(__file__).resolve().parent
VIEWS = (
    "dea_edges",
    "sentence_scores",
    "dea_by_relation",
    "dea_by_relation_pooled",
    "submission_scores",
    "sr_submission_scores",
    "submission_sacrebleu",
)

EVALHOUSE = """
import sys
import evalhouse
reference, directory, db = sys.argv[1:4]
views = sys.argv[4].split(",")
with evalhouse.connect(db) as wh:
    wh.ingest_treebank([reference], corpus="reference")
    wh.ingest_outputs(directory, reference="reference")
    for view in views:
        wh.con.execute(f"SELECT count(*), max(COLUMNS(*)) FROM {view}").fetchall()
"""


def read_blocks(path: Path) -> list[tuple[list[str], list[int], list[bool]]]:
    """(forms, heads, space after) of the syntactic words of each sentence of a CoNLL-U file."""
    out, forms, heads, spaces = [], [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if forms:
                    out.append((forms, heads, spaces))
                forms, heads, spaces = [], [], []
            elif not line.startswith("#"):
                c = line.split("\t")
                if c[0].isdigit():
                    forms.append(c[1])
                    heads.append(int(c[6]))
                    spaces.append("SpaceAfter=No" not in c[9].split("|"))
    return out


def perturbed(blocks, seed: int, tokenised: bool) -> str:
    """An SR-format run: each reference sentence with seeded adjacent swaps, perhaps a subtree moved to the
    front and perhaps a word dropped."""
    rng = random.Random(seed)
    lines = []
    for pos, (forms, heads, spaces) in enumerate(blocks, start=1):
        order = list(range(len(forms)))
        for _ in range(rng.randrange(4)):
            if len(order) > 1:
                i = rng.randrange(len(order) - 1)
                order[i], order[i + 1] = order[i + 1], order[i]
        if rng.random() < 0.3 and len(order) > 3:
            sub = {rng.randrange(len(forms))}
            grew = True
            while grew:
                grew = False
                for w, h in enumerate(heads):
                    if h - 1 in sub and w not in sub:
                        sub.add(w)
                        grew = True
            order = [w for w in order if w in sub] + [w for w in order if w not in sub]
        if rng.random() < 0.1 and len(order) > 2:
            order.pop(rng.randrange(len(order)))
        if tokenised:
            text = " ".join(forms[w] for w in order)
        else:
            text = "".join(forms[w] + (" " if spaces[w] else "") for w in order).strip()
        lines.append(f"# sent_id = {pos}\n# text = {text}\n")
    return "\n".join(lines)


def write_campaign(reference: Path, real: list[Path], out: Path, runs: int) -> int:
    """``real`` runs (as team ``adapt``) and ``runs - len(real)`` perturbations (team ``perturbed``) under
    ``out``; returns the number of reference sentences. Refuses two identical runs."""
    blocks = read_blocks(reference)
    texts = {}
    for f in real[:runs]:
        texts[("adapt", f.parent.name)] = f.read_text(encoding="utf-8")
    for k in range(max(0, runs - len(real))):
        texts[("perturbed", f"p{k:02d}")] = perturbed(blocks, k, tokenised=bool(k % 2))
    if len(set(texts.values())) != len(texts):
        raise SystemExit("two runs of the campaign are the same file")
    for (team, name), text in texts.items():
        target = out / team / name / "en_out.txt"
        target.parent.mkdir(parents=True)
        target.write_text(text, encoding="utf-8")
    return len(blocks)


# --- comparing the loop's numbers with the warehouse's --------------------------------------------

WAREHOUSE_ROWS = {
    "sentences": "SELECT team, run, position, edges, matched_edges, dea, bleu, bleu_surface, ssa, gsa, sta, gta, "
    "understandability_accuracy, quality_accuracy FROM sentence_scores",
    "relations": "SELECT team, run, relation, edges, matched FROM dea_by_relation",
    "submissions": "SELECT team, run, sentences, edges, matched_edges, dea, mean_dea, mean_bleu, mean_bleu_surface, "
    "corpus_bleu, mean_ssa, mean_gsa, mean_sta, mean_gta FROM submission_scores",
    "pooled": "SELECT relation, submissions, edges, matched, accuracy, mean_submission_accuracy "
    "FROM dea_by_relation_pooled",
    "sr": "SELECT team, run, bleu, nist, dist, dist_words FROM sr_submission_scores",
    "sacrebleu": "SELECT team, run, metric, score FROM submission_sacrebleu",
}
KEYS = {"sentences": 3, "relations": 3, "submissions": 2, "pooled": 1, "sr": 2, "sacrebleu": 3}


def compare(con, loop: dict, sample: int | None = None, seed: int = 0, tolerance: float = 1e-12) -> tuple[int, list]:
    """Every row of the loop's output against the warehouse's (``sample``: that many sentence rows drawn
    at random, every other row in full); returns (numbers compared, differences)."""
    compared, differences = 0, []
    for part, query in WAREHOUSE_ROWS.items():
        k = KEYS[part]
        stored = {tuple(r[:k]): r[k:] for r in con.execute(query).fetchall()}
        rows = loop[part]
        if sample is not None and part == "sentences" and len(rows) > sample:
            rows = random.Random(seed).sample(rows, sample)
        elif len(stored) != len(rows):
            differences.append((part, "rows", len(rows), len(stored)))
        for row in rows:
            mine = stored.get(tuple(row[:k]))
            if mine is None:
                differences.append((part, tuple(row[:k]), "missing from the warehouse"))
                continue
            for a, b in zip(row[k:], mine):
                compared += 1
                same = (a is None and b is None) or (
                    a is not None and b is not None and abs(float(a) - float(b)) <= tolerance
                )
                if not same:
                    differences.append((part, tuple(row[:k]), a, b))
    return compared, differences


# --- the benchmark ----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sample", type=int, default=2000, help="sentence rows compared after the rounds")
    parser.add_argument(
        "--before",
        type=Path,
        help="the python of another virtualenv (e.g. one with main "
        "installed): adds the contender 'evalhouse before', the same script run by it",
    )
    args = parser.parse_args(argv)
    reference = args.data / "ud-v2.3" / "en_ewt-ud-test.conllu"
    real = sorted((args.data / "sr-outputs" / "adapt-ewt-test").glob("*/en_out.txt"))
    if not reference.exists() or not real:
        sys.exit(f"REAL DATA MISSING under {args.data}")
    print(
        f"# campaign: ingest + every view against a per-sentence loop, "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"
    )
    print(f"# {machine()}; {args.rounds} alternating rounds, median")
    print(f"# {compile_bytecode(args.before)}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        directory = tmp / "campaign"
        n = write_campaign(reference, real, directory, args.runs)
        runs = len(list(directory.glob("*/*/en_out.txt")))
        print(
            f"# input: {runs} distinct runs ({min(len(real), runs)} real) x {n:,} sentences = {runs * n:,} "
            f"output sentences"
        )
        print(f"# {uptime()} before")
        db, out = tmp / "campaign.duckdb", tmp / "loop.json"
        contenders = {
            "evalhouse": [sys.executable, "-c", EVALHOUSE, str(reference), str(directory), str(db), ",".join(VIEWS)],
            "loop": [sys.executable, str(HERE / "campaign_loop.py"), str(reference), str(directory), str(out)],
        }
        if args.before:
            contenders["evalhouse before"] = (
                [str(args.before)]
                + contenders["evalhouse"][1:3]
                + [str(reference), str(directory), str(tmp / "before.duckdb"), ",".join(VIEWS)]
            )
        results = {name: [] for name in contenders}
        for r in range(args.rounds):
            for name in contenders if r % 2 == 0 else reversed(contenders):
                if name.startswith("evalhouse"):  # a new warehouse each time; evalhouse's last one is checked below
                    path = db if name == "evalhouse" else tmp / "before.duckdb"  # only its own: with an odd number
                    for suffix in ("", ".wal"):  # of rounds, 'before' runs last and once deleted the checked one
                        Path(str(path) + suffix).unlink(missing_ok=True)
                results[name].append(run(contenders[name]))
                print(
                    f"#   round {r + 1} {name}: CPU {results[name][-1]['cpu']:.1f} s, "
                    f"wall {results[name][-1]['wall']:.1f} s",
                    flush=True,
                )
        print(f"# {uptime()} after")
        check = subprocess.run(
            [sys.executable, "-c", CHECK, str(db), str(out), str(args.sample)],
            capture_output=True,
            text=True,
            cwd=HERE.parent,
        )
    med = {n: {k: statistics.median(x[k] for x in rs) for k in ("wall", "cpu")} for n, rs in results.items()}
    print(f"{'contender':<18}{'wall s':>9}{'CPU s':>9}{'tree PSS MB':>12}{'largest RSS MB':>16}")
    for name, rs in results.items():
        print(
            f"{name:<18}{med[name]['wall']:>9.1f}{med[name]['cpu']:>9.1f}{max(x['tree_mb'] for x in rs):>12.0f}"
            f"{max(x['rss_mb'] for x in rs):>16.0f}"
        )
    p = med["loop"]
    for name in (n for n in med if n.startswith("evalhouse")):
        e = med[name]
        peak = max(x["tree_mb"] for x in results[name])
        print(
            f"{name} / loop: CPU {e['cpu'] / p['cpu']:.2f}x (target <= 0.5x: "
            f"{'met' if e['cpu'] <= 0.5 * p['cpu'] else 'not met'}), wall {e['wall'] / p['wall']:.2f}x; "
            f"peak {peak:.0f} MB (target <= 500 MB: {'met' if peak <= 500 else 'not met'})"
        )
    print(check.stdout.strip() or check.stderr.strip())
    e = med["evalhouse"]
    summary.record(
        f"campaign, {runs} runs × {n:,} sentences",
        f"python -m benchmarks.campaign --runs {args.runs}",
        "a new warehouse + `ingest outputs` + every output view; distinct runs (real and perturbed)",
        e,
        note=f"{runs * n / e['wall']:,.0f} sentence-runs/s wall, {runs * n / e['cpu']:,.0f} a CPU-second; "
        f"peak {max(x['tree_mb'] for x in results['evalhouse']):.0f} MB (process tree PSS)",
    )


CHECK = """
import json, sys
import duckdb
from benchmarks.campaign import compare
con = duckdb.connect(sys.argv[1], read_only=True)
loop = json.load(open(sys.argv[2], encoding="utf-8"))
compared, differences = compare(con, loop, sample=int(sys.argv[3]))
print(f"results: {compared:,} numbers compared (every submission and relation row, each run's SR and sacreBLEU "
      f"scores, {sys.argv[3]} sampled sentences): "
      + ("all equal to 1e-12" if not differences else f"{len(differences)} DIFFER, e.g. {differences[:3]}"))
"""


if __name__ == "__main__":
    main()
