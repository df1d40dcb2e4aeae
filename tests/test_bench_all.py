"""``python -m benchmarks``, the one command behind BENCHMARKS.md's current table: its ``--quick`` smoke run
on small inputs produces every row, each with its peer, both times, its assumptions, command, load and
date. Only the shape is asserted, never a time (the house rule: times are the benchmarks' to report)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchmarks.summary import markdown
from tests.conftest import REPO, SHARED_DATA, SHARED_TOOLS, shared, tool


def test_the_table_gives_each_row_its_ratio_or_says_it_has_no_peer():
    rows = [
        {
            "row": "a",
            "assumes": "gold stored",
            "cpu": 1.0,
            "wall": 3.0,
            "peer": "p",
            "peer_cpu": 4.0,
            "peer_wall": 2.0,
            "note": "",
            "command": "python -m benchmarks.x",
            "load": 1.5,
            "date": "2026-11-28 09:00 UTC",
        },
        {
            "row": "b",
            "assumes": "warm",
            "cpu": 0.5,
            "wall": 0.5,
            "peer": "",
            "peer_cpu": None,
            "peer_wall": None,
            "note": "n",
            "command": "c",
            "load": 0.0,
            "date": "d",
        },
    ]
    lines = markdown(rows).splitlines()
    assert len(lines) == 4 and all(line.count("|") == 11 for line in lines)
    assert "| 0.25× / 1.50× |" in lines[2]  # 1.0 / 4.0 on CPU, 3.0 / 2.0 on wall
    assert "| b | warm | 0.500 / 0.500 | – | – | – | n | `c` | 0.00 | d |" == lines[3]


@pytest.mark.realdata
def test_quick_runs_every_row(tmp_path):
    shared("parsing", "conll2018", "gold", "en_ewt.conllu")
    tool("conll18_ud_eval.py")
    out = tmp_path / "rows.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks",
            "--quick",
            "--data",
            str(SHARED_DATA),
            "--tools",
            str(SHARED_TOOLS),
            "--out",
            str(out),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    names = [r["row"] for r in rows]
    assert any(n.startswith("`ingest treebank`") for n in names)
    assert sum(n.startswith("`ingest dependency-run`") for n in names) == 6  # 3 sizes x gold stored or not
    assert {r["assumes"].split(";")[0] for r in rows if "dependency-run" in r["row"]} == {
        "gold already stored (warehouse copied in untimed)",
        "gold read and stored in the same command, new warehouse",
    }
    assert any(n.startswith("`evalhouse evalb`") for n in names)
    assert {r["peer"] for r in rows if r["row"].startswith("sentence BLEU")} == {
        "NLTK method 2",
        "sacrebleu (statistics in one call)",
    }
    assert any(n.startswith("campaign") and "sentence-runs/s" in r["note"] for n, r in zip(names, rows))
    assert sum(n.startswith("fixed cost") for n in names) == 3
    for r in rows:
        assert r["cpu"] > 0 and r["wall"] > 0 and r["command"].startswith("python -m benchmarks")
        assert r["date"].endswith("UTC") and r["load"] >= 0
        if not r["row"].startswith("campaign"):
            assert r["peer"] and r["peer_cpu"] > 0 and r["peer_wall"] > 0, r
    table = done.stdout[done.stdout.index("| row |") :].splitlines()
    assert len(table) == 2 + len(rows) and "machine: " in done.stdout


@pytest.mark.realdata
def test_the_sr_campaign_is_distinct_runs_of_every_language(tmp_path):
    from benchmarks.sr_campaign import build

    data = shared("ud-v2.3", "en_ewt-ud-test.conllu").parent.parent
    total, languages, pairs = build(data, tmp_path / "c", runs=7, sentences=12, languages=3)
    runs = sorted(tmp_path.glob("c/*/*/*/en_out.txt"))
    assert languages == 3 and len(runs) == 3 * 7 and total == 3 * 7 * 12
    assert len({r.read_text(encoding="utf-8") for r in runs}) == len(runs)
    assert {r.parent.parent.name for r in runs if r.parts[-4] == "en_ewt_v23"} == {"adapt", "perturbed"}
    lines = pairs.read_text(encoding="utf-8").splitlines()
    assert len(lines) == total and all(line.count("\t") == 1 for line in lines)
    references = sorted(p.name for p in (tmp_path / "c" / "references").iterdir())
    assert len(references) == 3 and all(
        p.read_text(encoding="utf-8").count("\n# text = ") + p.read_text(encoding="utf-8").startswith("# text = ") <= 12
        for p in (tmp_path / "c" / "references").iterdir()
    )
