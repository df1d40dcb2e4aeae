"""Output lemmas on real data (issue 15, parts 2 and 3): the lemma lexicon and missing lemmas, before/after.

    $ python -m benchmarks.output_lemmas [--data ../shared/data]

1. The five ADAPT runs (``sr-outputs/adapt-ewt-test``) against UD v2.3 en_ewt test, ingested in one
   ``ingest outputs`` each way: ``--no-lexicon`` (the alignment before issue 15) and with the lexicon
   learned from the warehouse (here the reference alone, the default when it is the only English
   corpus), then with UD English-GUM test added to the warehouse. Printed per way: unaligned output
   tokens and ``lexicon`` links summed over the runs (and how many of those are forms of be, have,
   do), mean DEA and lemma BLEU of the augmented run, DEA of cop and aux (``dea_by_relation``, the
   augmented run), and the process CPU time of the ingest (sacreBLEU off, so that only the alignment
   differs).
2. The random and LR baselines on UD Portuguese-GSD test (``ud/``, the current master: the UD v2.3
   file SR'19 used is not in ../shared/data), whose words partly lack a lemma: DEA with the keys of
   issue 15 (folded form where the lemma is ``_``) and with ``_`` matching ``_`` (the keys before,
   recomputed from the stored tokens by ``tests/test_outputs_metrics.independent_dea``).
3. The cost of sacreBLEU at ingest: CPU of the five runs with and without it.

Prints the machine's load with the tables; the lead re-measures timings on a quiet machine.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import evalhouse
from evalhouse.ingest.baselines import run_baseline


def _cpu() -> float:
    """CPU of this process and of its finished children (the scoring worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _manifest(data: Path, folder: Path) -> Path:
    runs = sorted((data / "sr-outputs" / "adapt-ewt-test").glob("*/en_out.txt"))
    path = folder / "runs.csv"
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["path", "team", "run"])
        writer.writerows([r, "adapt", r.parent.name] for r in runs)
    return path


def lexicon_table(data: Path, folder: Path) -> list[str]:
    manifest = _manifest(data, folder)
    rows = []
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([data / "ud-v2.3" / "en_ewt-ud-test.conllu"], corpus="en_ewt-test", language="en")
        ways = [
            ("none (--no-lexicon)", "none", False, None),
            ("the reference alone", "self", True, None),
            ("+ UD English-GUM test", "gum", True, [(data / "ud" / "UD_English-GUM" / "en_gum-ud-test.conllu", None)]),
            (
                "+ current EWT test and the CoNLL 2018 EWT gold",
                "more",
                True,
                [
                    (data / "ud" / "UD_English-EWT" / "en_ewt-ud-test.conllu", "en_ewt-test-current"),
                    (data / "parsing" / "conll2018" / "gold" / "en_ewt.conllu", "en_ewt-conll2018-gold"),
                ],
            ),
        ]
        for label, team, lexicon, extra in ways:
            for path, name in extra or ():
                wh.ingest_treebank([path], corpus=name, language="en")
            with open(manifest, encoding="utf-8") as handle:
                lines = handle.read().replace(",adapt,", f",{team},")
            m = folder / f"{team}.csv"
            m.write_text(lines, encoding="utf-8")
            start = _cpu()
            [first, *_] = wh.ingest_outputs(manifest=m, reference="en_ewt-test", lexicon=lexicon, sacrebleu=False)
            cpu = _cpu() - start
            config = next(f for f in first.configuration.split("|") if f.startswith("lexicon:"))
            methods = defaultdict(int)
            for method, tokens in wh.sql(
                "select method, sum(tokens) from alignment_methods where team = $t group by 1", {"t": team}
            ).fetchall():
                methods[method] = int(tokens)
            bhd = wh.sql(
                """select count(*) from output_tokens o join alignments a on a.team = o.team and a.run = o.run
                            and a.corpus = o.corpus and a.position = o.position and a.from_index = o.token
                            and a.pair = 'output-reference'
                            where o.team = $t and a.method = 'lexicon' and o.lemma in ('be', 'have', 'do')""",
                {"t": team},
            ).fetchone()[0]
            aug = "augmented_and_ewt_test_set_13-Oct_12-07"
            dea, bleu = wh.sql(
                "select mean_dea, mean_bleu from submission_scores where team = $t and run = $r", {"t": team, "r": aug}
            ).fetchone()
            rel = dict(
                wh.sql(
                    "select relation, accuracy from dea_by_relation where team = $t and run = $r and "
                    "relation in ('cop', 'aux')",
                    {"t": team, "r": aug},
                ).fetchall()
            )
            share = wh.sql(
                "select round(100 * word_share, 1) from alignment_methods where team = $t and run = $r "
                "and method = 'lexicon'",
                {"t": team, "r": aug},
            ).fetchone()[0]
            rows.append(
                f"| {label} | `{config}` | {methods['unaligned']:,} | {methods['lexicon']:,} ({bhd:,}) | "
                f"{methods['inflection'] + methods['contraction']:,} | {share}% | {dea:.4f} | {bleu:.4f} | {rel['cop']:.4f} | "
                f"{rel['aux']:.4f} | {cpu:.1f} s |"
            )
        per_run = wh.sql("""select a.run, a.mean_dea, b.mean_dea, a.mean_bleu, b.mean_bleu from submission_scores a
                            join submission_scores b on b.run = a.run and b.team = 'self' where a.team = 'none'
                            order by a.run""").fetchall()
        lost = wh.sql("""select count(*) from sentence_scores a join sentence_scores b using (run, position)
                         where a.team = 'none' and b.team = 'self' and b.dea < a.dea""").fetchone()[0]
        shares = wh.sql("""select method, round(100 * word_share, 1) from alignment_methods where team = 'self'
                           and run = 'augmented_and_ewt_test_set_13-Oct_12-07' order by word_share desc""").fetchall()
        forms = wh.sql("""select o.form, count(*) from output_tokens o join alignments a on a.team = o.team
                          and a.run = o.run and a.corpus = o.corpus and a.position = o.position
                          and a.from_index = o.token and a.pair = 'output-reference'
                          where o.team = 'self' and a.method = 'lexicon' group by 1 order by 2 desc limit 12""").fetchall()
    notes = ["", "mean DEA and mean lemma BLEU per run, --no-lexicon -> the reference alone:"]
    notes += [
        f"  {r}: DEA {a:.4f} -> {b:.4f} ({b - a:+.4f}), BLEU {c:.4f} -> {d:.4f} ({d - c:+.4f})"
        for r, a, b, c, d in per_run
    ]
    notes.append(f"sentences (all 5 runs) whose DEA drops with the lexicon: {lost}")
    notes.append("augmented run, word share by method: " + ", ".join(f"{m} {v}%" for m, v in shares))
    notes.append("most frequent forms linked by lexicon: " + ", ".join(f"{f!r} {n}" for f, n in forms))
    head = [
        "| lexicon | configuration | unaligned tokens (5 runs) | `lexicon` links (be/have/do) | `inflection` + `contraction` | "
        "augmented: word share linked by `lexicon` | augmented: mean DEA | mean lemma BLEU | DEA `cop` | "
        "DEA `aux` | ingest CPU (5 runs) |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    return head + rows + notes


def missing_lemma_table(data: Path) -> list[str]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.test_lemmas_real import old_dea  # the independent computation of the keys before issue 15

    path = data / "ud" / "UD_Portuguese-GSD" / "pt_gsd-ud-test.conllu"
    rows = []
    with evalhouse.connect(":memory:") as wh:
        [s] = wh.ingest_treebank([path])
        run_baseline(wh, "random", s.corpus, seed=1)
        run_baseline(wh, "lr", s.corpus)
        for run in ("random", "lr"):
            dea = wh.sql("select dea from submission_scores where run = $r", {"r": run}).fetchone()[0]
            rows.append(
                f"| {s.corpus} ({s.missing_lemmas:,} of {s.words:,} words without a lemma) | {run} | "
                f"{old_dea(wh, 'baseline', run, s.corpus):.4f} | {dea:.4f} |"
            )
    return [
        "| corpus | baseline | DEA, `_` matching `_` (before) | DEA, folded form where `_` (after) |",
        "|---|---|---|---|",
    ] + rows


def sacrebleu_cost(data: Path, folder: Path) -> list[str]:
    manifest = _manifest(data, folder)
    out = []
    for on in (False, True):
        with evalhouse.connect(":memory:") as wh:
            wh.ingest_treebank([data / "ud-v2.3" / "en_ewt-ud-test.conllu"], corpus="en_ewt-test")
            start = _cpu()
            wh.ingest_outputs(manifest=manifest, reference="en_ewt-test", sacrebleu=on)
            out.append(
                f"ingest outputs of the 5 ADAPT runs, sacreBLEU {'on' if on else 'off'}: "
                f"{_cpu() - start:.1f} s CPU (this process and its scoring workers)"
            )
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(Path(__file__).resolve().parents[1] / ".." / "shared" / "data"))
    args = parser.parse_args(argv)
    data = Path(args.data).resolve()
    print(
        f"{platform.node()} {platform.machine()} python {platform.python_version()}, "
        f"load {os.getloadavg()[0]:.1f}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("\n".join(lexicon_table(data, folder)))
        print()
        print("\n".join(missing_lemma_table(data)))
        print()
        print("\n".join(sacrebleu_cost(data, folder)))
    print(f"load {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
