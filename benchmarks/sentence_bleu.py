"""Sentence BLEU, whole process against whole process: evalhouse, NLTK and sacrebleu in one run.

    $ python -m benchmarks.sentence_bleu [--data ../shared/data] [--rounds 3]

Input: the distinct (hypothesis, reference) pairs of real data, written once to a TSV file
(hypothesis tokens TAB reference tokens, tokens joined by single spaces); every contender is a
fresh Python process that imports its library, reads that file, scores every pair and writes the
scores. So imports, reading and tokenisation are timed on both sides, and no pair repeats.

* WMT17 en-de: 16 systems against the reference (``bleu/wmt17-en-de``), tokens = ``str.split()``.
* SR: the 5 ADAPT runs against UD v2.3 en_ewt test ``# text``, lowercased and split at white space
  as the SR'18/'19 evaluation script does, and the same pairs with case kept.

Contenders (each uses its fastest documented way to score a list of pairs):

* ``nltk``: ``sentence_bleu([ref], hyp, smoothing_function=SmoothingFunction().method2)`` per pair.
* ``sacrebleu``: ``BLEU(tokenize="none", smooth_method="add-k", effective_order=False)``; the
  statistics of all pairs in one call, then one score per pair. On these tokens this is NLTK's
  method 2 except that NLTK counts at least one n-gram per order (``max(1, t_n)``) where sacrebleu
  counts none: for a hypothesis of fewer than 4 tokens the two differ. Equality with NLTK is
  checked on the pairs whose hypothesis has at least 4 tokens, and the others are counted.
* ``evalhouse-texts``: :func:`evalhouse.analysis.bleu.sentence_bleu_texts` on the two columns.
* ``evalhouse-tokens``: the process splits the texts into token lists (as for NLTK) and calls
  :func:`evalhouse.analysis.bleu.sentence_bleu_many`.
* ``evalhouse-sql``: DuckDB reads the TSV, ``string_split`` makes the lists and the SQL function
  ``sentence_bleu(hyp, ref)`` (registered by ``evalhouse.analysis.udfs``) scores them.

Wall time, CPU time (user + system of the process, from ``wait4``) and peak RSS; the median over
``--rounds`` rounds, contenders alternating within a round. Ratios are NLTK's figure (and the fastest
peer's) divided by evalhouse's. Scores are compared with NLTK's, pair by pair.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks import summary
from benchmarks.process import compile_bytecode

HERE = Path(__file__).resolve().parent

CONTENDERS = {
    "nltk": """
import sys, warnings
from array import array
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
smooth = SmoothingFunction().method2
out = array("d")
with open(sys.argv[1], encoding="utf-8") as f, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    for line in f:
        h, r = line.rstrip("\\n").split("\\t")
        out.append(sentence_bleu([r.split()], h.split(), smoothing_function=smooth))
open(sys.argv[2], "wb").write(out.tobytes())
""",
    "sacrebleu": """
import sys
from array import array
from sacrebleu.metrics import BLEU
bleu = BLEU(tokenize="none", smooth_method="add-k", effective_order=False)
with open(sys.argv[1], encoding="utf-8") as f:
    cells = f.read().replace("\\n", "\\t").split("\\t")[:-1]
hyps, refs = cells[0::2], cells[1::2]
stats = bleu._extract_corpus_statistics(hyps, [refs])
out = array("d", (bleu._compute_score_from_stats(s).score / 100 for s in stats))
open(sys.argv[2], "wb").write(out.tobytes())
""",
    "evalhouse-texts": """
import sys
from evalhouse.analysis.bleu import sentence_bleu_texts
with open(sys.argv[1], encoding="utf-8") as f:
    cells = f.read().replace("\\n", "\\t").split("\\t")[:-1]
hyps, refs = cells[0::2], cells[1::2]
sentence_bleu_texts(hyps, refs).tofile(sys.argv[2])
""",
    "evalhouse-tokens": """
import sys
from evalhouse.analysis.bleu import sentence_bleu_many
hyps, refs = [], []
with open(sys.argv[1], encoding="utf-8") as f:
    for line in f:
        h, r = line.rstrip("\\n").split("\\t")
        hyps.append(h.split())
        refs.append(r.split())
sentence_bleu_many(hyps, refs).tofile(sys.argv[2])
""",
    "evalhouse-sql": """
import sys
import duckdb
from evalhouse.analysis.udfs import register_udfs
con = duckdb.connect()
register_udfs(con)
con.execute(\"\"\"
    create table pairs as
    select row_number() over () as k, coalesce(h, '') as h, coalesce(r, '') as r
    from read_csv($path, delim = '\\t', quote = '', escape = '', header = false,
                  columns = {'h': 'VARCHAR', 'r': 'VARCHAR'}, nullstr = '\\x01')\"\"\", {"path": sys.argv[1]})
scores = con.execute(\"\"\"
    select sentence_bleu(case when h = '' then [] else string_split(h, ' ') end,
                         case when r = '' then [] else string_split(r, ' ') end) as s
    from pairs order by k\"\"\").fetchnumpy()["s"]
scores.astype("float64").tofile(sys.argv[2])
""",
}
# Each process reports its own peak resident memory (VmHWM, reset by exec; the ru_maxrss of a forked
# child would count the benchmark's own pages from before the exec).
EPILOGUE = """
for _line in open("/proc/self/status"):
    if _line.startswith("VmHWM:"):
        open(sys.argv[2] + ".hwm", "w").write(_line.split()[1])
"""
PEERS = ("nltk", "sacrebleu")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _texts(path: Path) -> list[str]:
    """The ``# text`` of each sentence of a CoNLL-U or SR output file, in order."""
    return [line[len("# text = ") :] for line in _lines(path) if line.startswith("# text = ")]


def build_pairs(data: Path) -> dict[str, list[tuple[str, str]]]:
    """Real (hypothesis, reference) pairs by source, tokens joined by single spaces."""
    groups: dict[str, list[tuple[str, str]]] = {"wmt17": [], "sr-lowercased": [], "sr-cased": []}
    wmt = data / "bleu" / "wmt17-en-de"
    reference = _lines(wmt / "reference.txt")
    for system in sorted(wmt.glob("newstest2017.*.txt")):
        hyps = _lines(system)
        if len(hyps) != len(reference):
            raise SystemExit(f"{system}: {len(hyps)} lines, reference has {len(reference)}")
        groups["wmt17"] += [(" ".join(h.split()), " ".join(r.split())) for h, r in zip(hyps, reference)]
    ud = _texts(data / "ud-v2.3" / "en_ewt-ud-test.conllu")
    for run in sorted((data / "sr-outputs" / "adapt-ewt-test").glob("*/en_out.txt")):
        outputs = _texts(run)
        if len(outputs) != len(ud):
            raise SystemExit(f"{run}: {len(outputs)} sentences, reference has {len(ud)}")
        groups["sr-lowercased"] += [
            (" ".join(h.lower().split()), " ".join(r.lower().split())) for h, r in zip(outputs, ud)
        ]
        groups["sr-cased"] += [(" ".join(h.split()), " ".join(r.split())) for h, r in zip(outputs, ud)]
    return groups


def distinct_pairs(groups: dict[str, list[tuple[str, str]]]) -> tuple[list[tuple[str, str]], dict[str, int]]:
    seen: dict[tuple[str, str], None] = {}
    added = {}
    for name, pairs in groups.items():
        before = len(seen)
        for p in pairs:
            seen.setdefault(p, None)
        added[name] = len(seen) - before
    return list(seen), added


def run_once(name: str, tsv: Path, out: Path) -> dict:
    """One contender in a fresh process: wall, CPU (user + sys) and peak RSS."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CONTENDERS[name] + EPILOGUE, str(tsv), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    stderr = proc.stderr.read().decode(errors="replace")
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{name} failed:\n{stderr}")
    hwm_kb = int(Path(str(out) + ".hwm").read_text())
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": hwm_kb / 1024}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parent.parent / "shared" / "data")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", nargs="*", choices=list(CONTENDERS), help="contenders to run (default: all)")
    parser.add_argument("--pairs", type=int, default=0, help="only the first distinct pairs (for --quick smoke runs)")
    args = parser.parse_args(argv)
    if not (args.data / "bleu" / "wmt17-en-de" / "reference.txt").exists():
        sys.exit(f"REAL DATA MISSING under {args.data}")
    names = args.only or list(CONTENDERS)
    if "nltk" not in names:
        names = ["nltk"] + names
    import duckdb
    import nltk
    import sacrebleu

    import evalhouse

    pairs, added = distinct_pairs(build_pairs(args.data))
    if args.pairs:
        pairs = pairs[: args.pairs]
    hyp_len = np.array([len(h.split()) for h, _ in pairs])
    tokens = int(hyp_len.sum()) + sum(len(r.split()) for _, r in pairs)
    load_before = os.getloadavg()
    print(f"# sentence BLEU benchmark, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"evalhouse {evalhouse.__version__}, nltk {nltk.__version__}, sacrebleu {sacrebleu.__version__}, "
        f"duckdb {duckdb.__version__}"
    )
    print(compile_bytecode())
    print(
        f"pairs: {len(pairs):,} distinct ({', '.join(f'{k} {v:,}' for k, v in added.items())}), "
        f"{tokens:,} tokens; {args.rounds} rounds, median"
    )
    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "pairs.tsv"
        tsv.write_text("".join(f"{h}\t{r}\n" for h, r in pairs), encoding="utf-8")
        runs: dict[str, list[dict]] = {n: [] for n in names}
        scores = {}
        for _ in range(args.rounds):
            for name in names:
                out = Path(tmp) / f"{name}.f64"
                runs[name].append(run_once(name, tsv, out))
                scores[name] = np.fromfile(out, dtype=np.float64)
    load_after = os.getloadavg()
    med = {n: {k: statistics.median(r[k] for r in rs) for k in ("wall", "cpu", "rss_mb")} for n, rs in runs.items()}
    reference = scores["nltk"]
    long_enough = hyp_len >= 4
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
    print(f"{'contender':<18}{'wall s':>9}{'CPU s':>9}{'peak MB':>9}   max |score - NLTK|")
    for name in names:
        m = med[name]
        diff = np.abs(scores[name] - reference)
        if name == "sacrebleu":
            note = (
                f"{diff[long_enough].max():.1e} on {long_enough.sum():,} pairs with >= 4 hyp tokens; "
                f"{int((diff[~long_enough] > 1e-12).sum()):,} shorter pairs differ (max(1, t_n), see docstring)"
            )
        else:
            note = f"{diff.max():.1e}"
        print(f"{name:<18}{m['wall']:>9.3f}{m['cpu']:>9.3f}{m['rss_mb']:>9.0f}   {note}")
    peers = [p for p in PEERS if p in med]
    fastest_wall = min(peers, key=lambda p: med[p]["wall"])
    fastest_cpu = min(peers, key=lambda p: med[p]["cpu"])
    for name in names:
        if not name.startswith("evalhouse"):
            continue
        m = med[name]
        print(
            f"{name}: vs NLTK {med['nltk']['wall'] / m['wall']:.1f}x wall, {med['nltk']['cpu'] / m['cpu']:.1f}x CPU; "
            f"vs fastest peer ({fastest_wall} wall, {fastest_cpu} CPU) "
            f"{med[fastest_wall]['wall'] / m['wall']:.1f}x wall, {med[fastest_cpu]['cpu'] / m['cpu']:.1f}x CPU; "
            f"peak memory {m['rss_mb'] / min(med[p]['rss_mb'] for p in peers):.2f}x the smallest peer's"
        )
    if "evalhouse-texts" in med:
        m = med["evalhouse-texts"]
        for peer in peers:
            summary.record(
                f"sentence BLEU, {len(pairs):,} pairs (`sentence_bleu_texts`)",
                "python -m benchmarks.sentence_bleu",
                "distinct real pairs; imports and reading included; the library path, no environment set",
                m,
                "NLTK method 2" if peer == "nltk" else "sacrebleu (statistics in one call)",
                med[peer],
                f"peer ÷ evalhouse: {med[peer]['cpu'] / m['cpu']:.1f}× CPU, {med[peer]['wall'] / m['wall']:.1f}× wall",
            )


if __name__ == "__main__":
    main()
