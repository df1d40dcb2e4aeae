"""`evalhouse evalb` against EVALB's current release in C (issue 35, item 5), run as a peer: the program is
built with gcc from ../shared/tools/evalb-c/evalb.c into a temporary directory (tests/conftest.py,
``evalb_c``) and every report is compared with its standard output, byte for byte.

On real data: EVALB's sample, the 13 parsers of parser-outputs-wsj-sample and NLTK's PTB sample as its
.mrg files are (the unlabelled ``( (S ...) )`` wrapper included), against itself and a perturbed copy,
with COLLINS.prm, new.prm and sample.prm; the stored ``parse_scores`` of the same files against the C
program's totals. On random file pairs inside what the C program reads without undefined behaviour
(well-formed lines, fewer than 200 words and brackets a line): random parameter files (DELETE_LABEL,
EQ_LABEL chains, which C does not make transitive, EQ_WORD, QUOTE_LABEL's reinsertion, LABELED 0,
CUTOFF_LEN, MAX_ERROR down to -1), empty lines, length and word mismatches, files with different line
counts; through the C kernel and through the Python definition."""

from __future__ import annotations

import io
import random
import re
import subprocess

import pytest

from benchmarks.parses import evalb_files, ptb_sample_text
from evalhouse.analysis import parse_eval
from evalhouse.ingest.parses import ingest_parses, resolve_params
from evalhouse.loaders.brackets import read_trees
from evalhouse.loaders.evalb_prm import read_prm
from evalhouse.reports.evalb import EvalbStopped, evalb_report, evalb_report_from_views
from tests.conftest import PTB_PARSERS as PARSERS
from tests.conftest import shared, tool, write


def run_c(program, prm, gold, test) -> tuple[str, str, int]:
    """(standard output, standard error, exit code) of EVALB in C."""
    args = [str(program)] + (["-p", str(prm)] if prm is not None else []) + [str(gold), str(test)]
    done = subprocess.run(args, capture_output=True)
    return done.stdout.decode("utf-8"), done.stderr.decode("utf-8"), done.returncode


def evalhouse_report(gold, test, params, notes=None) -> tuple[str, EvalbStopped | None]:
    try:
        return evalb_report(gold, test, params, notes=notes), None
    except EvalbStopped as stopped:
        return stopped.report, stopped


def prm_files():
    return {
        "COLLINS.prm": tool("evalb-c", "COLLINS.prm"),
        "new.prm": shared("constituency", "evalb", "new.prm"),
        "sample.prm": shared("constituency", "evalb", "sample.prm"),
    }


def flatten_mrg(text: str) -> str:
    """Each tree of a multi-line .mrg text on one line, as written: its lines stripped and joined by a
    space, a tree ending on the line where its brackets balance (counted here, not by the loader)."""
    lines, current, depth = [], [], 0
    for line in text.splitlines():
        if not line.strip() and not current:
            continue
        current.append(line.strip())
        depth += line.count("(") - line.count(")")
        if depth == 0:
            lines.append(" ".join(current))
            current = []
    assert depth == 0 and not current
    return "".join(line + "\n" for line in lines)


# --- real data -----------------------------------------------------------------------------------


@pytest.mark.realdata
def test_evalb_sample_with_every_parameter_file(evalb_c):
    d = shared("constituency", "evalb")
    for name, prm in prm_files().items():
        c_out, _, rc = run_c(evalb_c, prm, d / "sample.gld", d / "sample.tst")
        assert rc == 0
        assert evalb_report(d / "sample.gld", d / "sample.tst", read_prm(prm)) == c_out, name
    # and the older layout still prints sample.rsl (which the C release no longer prints)
    assert (
        evalb_report(d / "sample.gld", d / "sample.tst", read_prm(d / "sample.prm"), layout="1997")
        == (d / "sample.rsl").read_text(encoding="utf-8")
        != run_c(evalb_c, d / "sample.prm", d / "sample.gld", d / "sample.tst")[0]
    )


@pytest.mark.realdata
def test_thirteen_parsers(evalb_c):
    d = shared("constituency", "parser-outputs-wsj-sample")
    for name, prm in prm_files().items():
        params = read_prm(prm)
        for parser in PARSERS:
            c_out, _, rc = run_c(evalb_c, prm, d / "wsj01.mrg", d / f"{parser}.mrg")
            assert rc == 0 and "Bracketing FMeasure" in c_out
            assert evalb_report(d / "wsj01.mrg", d / f"{parser}.mrg", params) == c_out, (parser, name)


@pytest.fixture(scope="module")
def ptb_files(tmp_path_factory):
    """The PTB sample as distributed, one tree a line (wrapper included), and the perturbed copy of
    benchmarks.parses (seed 1), as `python -m benchmarks.parses` times them."""
    tmp = tmp_path_factory.mktemp("ptb")
    text = ptb_sample_text(shared("constituency", "ptb-sample", "treebank.zip"))
    as_written = write(tmp, "ptb-as-written.txt", flatten_mrg(text))
    gold, perturbed = evalb_files(shared("constituency", "ptb-sample", "treebank.zip"), tmp, seed=1)
    return text, as_written, gold, perturbed


@pytest.mark.realdata
def test_ptb_sample_as_distributed(evalb_c, ptb_files):
    text, as_written, rendered, perturbed = ptb_files
    lines = as_written.read_text().splitlines()
    assert len(lines) == 3914 and all(line.startswith("( (") for line in lines[:5])
    # benchmarks.parses writes the same trees (render() keeps the wrapper), with other white space
    tokens = re.compile(r"\(|\)|[^\s()]+").findall
    assert [tokens(line) for line in rendered.read_text().splitlines()] == [tokens(line) for line in lines]
    for name, prm in prm_files().items():
        params = read_prm(prm)
        for gold, test in ((as_written, as_written), (as_written, perturbed), (perturbed, as_written)):
            c_out, _, rc = run_c(evalb_c, prm, gold, test)
            assert rc == 0
            assert evalb_report(gold, test, params) == c_out, (name, gold.name, test.name)
    # the figures the issue measured with the C program: the wrapper is a bracket like any other
    c_out = run_c(evalb_c, prm_files()["COLLINS.prm"], as_written, perturbed)[0]
    assert "Bracketing Recall         =  76.25\nBracketing Precision      =  87.52\n" in c_out


@pytest.mark.realdata
def test_stored_scores_follow_the_same_rules(wh, evalb_c, ptb_files):
    """`ingest parses` of the .mrg text as distributed (multi-line trees) and of the perturbed copy: the
    pooled counts are the C program's totals row, and the report read back from the views is its output."""
    text, as_written, _, perturbed = ptb_files
    gold_mrg = write(as_written.parent, "ptb.mrg", text)
    prm = prm_files()["COLLINS.prm"]
    ingest_parses(wh, gold_mrg, "ptb", gold=True)
    ingest_parses(wh, perturbed, "ptb", team="t", run="perturbed", params=resolve_params(str(prm)))
    c_out = run_c(evalb_c, prm, as_written, perturbed)[0]
    totals = c_out.split("=" * 76 + "\n")[2].split("\n")[0].split()
    row = wh.sql(
        "SELECT matched_labelled, gold_brackets, test_brackets, crossing, words, correct_tags, config "
        "FROM parse_scores WHERE subset = 'all'"
    ).fetchone()
    assert [str(v) for v in row[:6]] == totals[2:8]
    assert "rules:evalb-2006" in row[6]
    assert evalb_report_from_views(wh, "ptb", "t", "perturbed", read_prm(prm)) == c_out


# --- random files inside what the C program reads ------------------------------------------------

WORDS = ["a", "b", "the", "x-y", "'", '"', "/", "`", "n't", "ç", "語", "a\u00a0b", "-", "="]
TAGS = ["DT", "NN", "VB", "POS", "''", "``", ",", ".", "-NONE-", "NN-HL", "CD", ":", "-LRB-", "#"]
PHRASES = ["S", "NP", "NP-SBJ-1", "VP", "ADVP", "PRT", "PP=2", "TOP", "-NONE-", "A", "B", "C", "S1", "X-"]
SPACES = [" ", " ", " ", "  ", "\t"]


def _tree(rng: random.Random, words: list[str], tags: list[str]) -> str:
    sp = lambda: rng.choice(SPACES)  # noqa: E731

    def build(lo: int, hi: int) -> str:
        if hi - lo == 1 and rng.random() < 0.6:
            return f"({tags[lo]}{sp()}{words[lo]})"
        k = rng.randint(1, min(3, hi - lo))
        cuts = sorted(rng.sample(range(lo + 1, hi), k - 1)) if hi - lo > 1 else []
        parts, prev = [], lo
        for c in cuts + [hi]:
            parts.append(build(prev, c))
            prev = c
        return f"({rng.choice(PHRASES)}{sp()}{sp().join(parts)})"

    if rng.random() < 0.1:
        body = sp().join(build(i, i + 1) for i in range(len(words)))  # a forest
    else:
        body = build(0, len(words))
        if rng.random() < 0.3:
            body = f"({sp()}{body}{sp()})"  # the .mrg wrapper
    return rng.choice(["", " ", "\t"]) + body + rng.choice(["", " "])


def random_case(seed: int) -> tuple[str, str, str]:
    """(gold, test, parameter file) texts."""
    rng = random.Random(seed)
    gold, test = [], []
    for _ in range(rng.randint(1, 14)):
        words = [rng.choice(WORDS) for _ in range(rng.randint(1, 8))]
        tags = [
            rng.choice(["POS", "''", "``", ":"] if w in ("'", '"', "/") and rng.random() < 0.7 else TAGS) for w in words
        ]
        g = _tree(rng, words, tags)
        r = rng.random()
        if r < 0.06:
            t = ""  # an empty parse
        elif r < 0.14:
            drop = rng.randrange(len(words))
            t = _tree(rng, words[:drop] + words[drop + 1 :] or ["a"], tags[:drop] + tags[drop + 1 :] or ["NN"])
        elif r < 0.22:
            t = _tree(rng, [rng.choice(WORDS) if rng.random() < 0.3 else w for w in words], tags)
        elif r < 0.4:  # quotes tagged otherwise: deleted on one side only, which QUOTE_LABEL may repair
            t = _tree(
                rng,
                words,
                [rng.choice(["POS", "''", "``", ":"]) if w in ("'", '"', "/") else x for w, x in zip(words, tags)],
            )
        else:  # the same words, other tags now and then (a quote term deleted on one side only, for instance)
            t = _tree(rng, words, [rng.choice(TAGS) if rng.random() < 0.25 else x for x in tags])
        if rng.random() < 0.04:
            g = ""
        gold.append(g)
        test.append(t)
    if rng.random() < 0.08:
        (gold if rng.random() < 0.5 else test).append(_tree(rng, ["a"], ["NN"]))  # the line counts differ
    prm = [
        f"DELETE_LABEL {x}"
        for x in rng.sample(["TOP", "-NONE-", ",", ":", "``", "''", ".", "S1", "PRT", "B"], rng.randint(0, 7))
    ]
    prm += [f"DELETE_LABEL_FOR_LENGTH {x}" for x in rng.sample(["-NONE-", ",", "''"], rng.randint(0, 2))]
    prm += [
        f"EQ_LABEL {a} {b}"
        for a, b in rng.sample(
            [("ADVP", "PRT"), ("A", "B"), ("B", "C"), ("NN", "CD"), ("POS", "''")], rng.randint(0, 4)
        )
    ]
    prm += [f"EQ_WORD {a} {b}" for a, b in rng.sample([("a", "the"), ("the", "b"), ("'", '"')], rng.randint(0, 2))]
    prm += [f"QUOTE_LABEL {x}" for x in rng.sample(["POS", "''", "``", "NN", ":"], rng.randint(0, 5))]
    prm += [
        f"LABELED {int(rng.random() < 0.85)}",
        f"CUTOFF_LEN {rng.randint(0, 7)}",
        f"MAX_ERROR {rng.choice([-1, 0, 1, 2, 10, 10, 10])}",
    ]
    rng.shuffle(prm)
    end = "\n" if rng.random() < 0.9 else ""
    return "\n".join(gold) + end, "\n".join(test) + end, "\n".join(prm) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "python"])
def test_random_files_equal_the_c_program(evalb_c, tmp_path, monkeypatch, kernel):
    if not kernel:
        monkeypatch.setattr(parse_eval, "_evalb", None)
    kinds = {"stopped": 0, "lines": 0, "quote": 0, "errors": 0}
    for seed in range(400):
        gold_text, test_text, prm_text = random_case(seed)
        gold, test, prm = (write(tmp_path, n, t) for n, t in (("g", gold_text), ("t", test_text), ("p", prm_text)))
        c_out, c_err, rc = run_c(evalb_c, prm, gold, test)
        notes: list[str] = []
        params = read_prm(prm)
        report, stopped = evalhouse_report(gold, test, params, notes)
        assert report == c_out, f"seed {seed}"
        lines_differ = "Number of lines unmatch" in c_err
        assert (stopped is not None) == (rc == 1 or lines_differ), f"seed {seed}"
        # the error sentences EVALB names on stderr are the ones the notes name
        c_errors = [int(m) for m in re.findall(r"^(\d+) : (?:Length|Words) unmatch", c_err, re.MULTILINE)]
        ours = [int(n.split(": sentence ")[1].split(":")[0]) for n in notes if ": sentence " in n]
        if stopped is not None and stopped.problem.startswith("sentence "):  # the one EVALB stops at
            ours.append(int(stopped.problem.split()[1].rstrip(":")))
        assert ours == c_errors, f"seed {seed}"
        kinds["stopped"] += rc == 1
        kinds["lines"] += lines_differ
        kinds["errors"] += bool(c_errors)
        kinds["quote"] += any(_repaired(g, t, params) for g, t in zip(gold_text.split("\n"), test_text.split("\n")))
    # the random cases reach every branch that matters
    assert min(kinds.values()) > 5, kinds


def _repaired(gold_line: str, test_line: str, params) -> bool:
    """Whether fix_quote made the word counts of a sentence pair equal."""
    g, t = (next(read_trees(io.StringIO(line + "\n"), "x", one_per_line=True)) for line in (gold_line, test_line))
    a, b = (parse_eval.prepare(x.words, x.pos, x.nodes, params) for x in (g, t))
    return len(a.words) != len(b.words) and parse_eval.align(a, b, params)[0] == parse_eval.STATUS_OK


@pytest.mark.slow
def test_quote_terms_are_put_back_as_c_does(evalb_c, tmp_path):
    """new.prm's QUOTE_LABEL: a quote deleted on one side ('' is deleted, POS is not) is put back, so the
    sentence is scored (its tag counts wrong); without QUOTE_LABEL it is a length mismatch."""
    gold = write(tmp_path, "g", "(S (NP (NNP John) (POS ')) (VP (VB runs)))\n")
    test = write(tmp_path, "t", "(S (NP (NNP John) ('' ')) (VP (VB runs)))\n")
    with_quotes = write(tmp_path, "q.prm", "DELETE_LABEL ''\nQUOTE_LABEL ''\nQUOTE_LABEL POS\n")
    without = write(tmp_path, "n.prm", "DELETE_LABEL ''\n")
    for prm, status in ((with_quotes, "0"), (without, "1")):
        c_out = run_c(evalb_c, prm, gold, test)[0]
        assert evalb_report(gold, test, read_prm(prm)) == c_out
        assert c_out.splitlines()[3].split()[2] == status


def test_eq_label_pairs_are_not_transitive(evalb_c, tmp_path):
    """EQ_LABEL A B and EQ_LABEL B C: A matches B and B matches C, but A does not match C (label_comp)."""
    gold = write(tmp_path, "g", "(S (A (X a) (X b)) (X c))\n(S (A (X a) (X b)) (X c))\n")
    test = write(tmp_path, "t", "(S (B (X a) (X b)) (X c))\n(S (C (X a) (X b)) (X c))\n")
    prm = write(tmp_path, "p.prm", "EQ_LABEL A B\nEQ_LABEL B C\n")
    c_out = run_c(evalb_c, prm, gold, test)[0]
    assert evalb_report(gold, test, read_prm(prm)) == c_out
    assert [line.split()[5] for line in c_out.splitlines()[3:5]] == ["2", "1"]


def test_max_error_stops_the_report_where_c_stops(evalb_c, tmp_path):
    gold = write(tmp_path, "g", "(S (A a) (B b))\n" * 14)
    test = write(tmp_path, "t", "(S (A a) (B b))\n" + "(S (A a) (B c))\n" * 13)
    c_out, c_err, rc = run_c(evalb_c, None, gold, test)
    assert rc == 1 and "=== Summary ===" not in c_out  # the 12th error ends the C program
    with pytest.raises(EvalbStopped) as stopped:
        evalb_report(gold, test, resolve_params("none"))
    assert stopped.value.report == c_out and stopped.value.line == 13
    assert "error 12 of the run, and MAX_ERROR is 10" in stopped.value.problem


def test_cli_prints_the_c_report_and_fails_where_c_stops(evalb_c, tmp_path):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    gold = write(tmp_path, "g", "( (S (NP (DT a)) (VP (VB b))) )\n( (S (NP (DT a)) (VP (VB b))) )\n")
    test = write(tmp_path, "t", "( (S (NP (DT a) (VB b))) )\n( (S (NP (DT a)) (VP (VB c))) )\n(S (DT a))\n")
    c_out, _, rc = run_c(evalb_c, None, gold, test)
    assert rc == 0  # C prints its totals and exits 0 when the test file has more lines
    r = CliRunner().invoke(app, ["evalb", str(gold), str(test), "--prm", "none"])
    assert r.exit_code == 1
    assert r.stdout == c_out
    assert f"{test}:2: sentence 2: word mismatch at word 2 (b|c) (EVALB's error status)" in r.stderr
    assert f"{test}:3: 3 lines, but the gold file {gold} has 2" in r.stderr
    r = CliRunner().invoke(app, ["evalb", str(gold), str(test), "--layout", "1996"])
    assert r.exit_code == 2 and "valid: 2006, 1997" in r.output
