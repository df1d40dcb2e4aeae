"""Bad content in the files of every ingest path gives ``FILE:LINE: problem``, exit 1, and leaves the
warehouse as it was (issue 17 point 4): numbers in other scripts' digits (``¹``, which ``str.isdigit``
accepts and ``int`` refuses; ``١``, which both accept as 1), ids of 5,000 digits (beyond ``int``'s
4,300), a CSV field over the csv module's 128 KiB, a header-only judgement file, APT weights outside
[0, 1]; and ``evalb`` with no sentence within CUTOFF_LEN. Each case is a file written here, with the
line the message must name.
"""

from __future__ import annotations

import shutil

import pytest
from typer.testing import CliRunner

import evalhouse
from evalhouse.cli import app
from evalhouse.loaders.numbers import decimal, integer, shown
from tests.conftest import SAMPLE, shared, write
from tests.test_integrity import rows
from tests.test_pronouns import P, ingest_fixture

runner = CliRunner()
BIG = "1" * 5000  # int() refuses more than 4,300 digits
SUP, ARABIC_ONE = "\u00b9", "\u0661"  # superscript one; Arabic-Indic digit one
FIELD = "x" * (128 * 1024 + 10)  # over the csv module's field limit
J_HEADER = "team,run,corpus,sent_id,annotator,criterion,score\n"
PJ_HEADER = "team,run,position,source_index,category,judgement\n"


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    db = tmp_path_factory.mktemp("bad") / "w.duckdb"
    with evalhouse.connect(db) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        ingest_fixture(wh)
    assert runner.invoke(app, ["--db", str(db), "baseline", "lr", "--corpus", "sample"]).exit_code == 0
    return db


@pytest.fixture
def db(template, tmp_path):
    path = tmp_path / "w.duckdb"
    shutil.copy(template, path)
    return path


def sr(sent_id):
    return f"# sent_id = {sent_id}\n# text = w\n\n"


def conllu(sent_id):
    return f"# sent_id = {sent_id}\n1\tw\tw\tX\t_\t_\t0\troot\t_\t_\n\n"


def outputs(fmt):
    return ["ingest", "outputs", "{file}", "--reference", "sample", "--team", "t", "--run", "r", "--format", fmt]


def translations_system():
    return [
        "ingest",
        "translations",
        "--corpus",
        "tiny",
        "--team",
        "mt",
        "--run",
        "9",
        "--output",
        str(P / "output.fr"),
        "--source-output-alignment",
        "{file}",
    ]


def translations_corpus():
    return [
        "ingest",
        "translations",
        "--corpus",
        "new",
        "--source",
        str(P / "source.en"),
        "--reference",
        str(P / "reference.fr"),
        "--source-reference-alignment",
        str(P / "source-reference.alig"),
        "--pronouns",
        "en-fr",
        "--documents",
        "{file}",
    ]


ALIGN = (P / "source-output.alig").read_text(encoding="utf-8")

# (id, command with {file}, file contents, line the message names, words the problem must contain)
CASES = [
    ("sr-sent-id-superscript", outputs("sr"), sr(SUP), 1, f"unknown sent_id '{SUP}'"),
    ("sr-sent-id-5000-digits", outputs("sr"), sr(BIG), 1, "unknown sent_id '1111"),
    ("sr-sent-id-arabic-one", outputs("sr"), sr(ARABIC_ONE), 1, f"unknown sent_id '{ARABIC_ONE}'"),
    ("conllu-sent-id-superscript", outputs("conllu"), conllu(SUP), 1, f"unknown sent_id '{SUP}'"),
    ("conllu-sent-id-5000-digits", outputs("conllu"), conllu(BIG), 1, "(5,000 characters)"),
    ("conllu-sent-id-arabic-one", outputs("conllu"), conllu(ARABIC_ONE), 1, "unknown sent_id"),
    (
        "judgement-sent-id-superscript",
        ["ingest", "judgements", "{file}"],
        J_HEADER + f"baseline,lr,sample,{SUP},a,fluency,3\n",
        2,
        f"unknown sent_id '{SUP}'",
    ),
    (
        "judgement-sent-id-5000-digits",
        ["ingest", "judgements", "{file}"],
        J_HEADER + f"baseline,lr,sample,{BIG},a,fluency,3\n",
        2,
        "(5,000 characters)",
    ),
    (
        "judgement-sent-id-arabic-one",
        ["ingest", "judgements", "{file}"],
        J_HEADER + f"baseline,lr,sample,{ARABIC_ONE},a,fluency,3\n",
        2,
        "unknown sent_id",
    ),
    (
        "judgement-field-over-128-KiB",
        ["ingest", "judgements", "{file}"],
        J_HEADER + f"baseline,lr,sample,1,a,fluency,{FIELD}\n",
        2,
        "a field longer than 131,072 characters",
    ),
    ("judgement-header-only", ["ingest", "judgements", "{file}"], J_HEADER, 1, "no judgements"),
    (
        "judgement-score-in-other-digits",
        ["ingest", "judgements", "{file}"],
        J_HEADER + f"baseline,lr,sample,1,a,fluency,{ARABIC_ONE}\n",
        2,
        "is not a number",
    ),
    (
        "manifest-field-over-128-KiB",
        ["ingest", "outputs", "--manifest", "{file}", "--reference", "sample"],
        f"path,team,run\n{FIELD},t,r\n",
        2,
        "a field longer than",
    ),
    (
        "pronoun-judgements-header-only",
        ["ingest", "pronoun-judgements", "{file}", "--corpus", "tiny", "--replace"],
        PJ_HEADER,
        1,
        "no judgements: the file has its header only",
    ),
    (
        "pronoun-judgement-position-superscript",
        ["ingest", "pronoun-judgements", "{file}", "--corpus", "tiny"],
        PJ_HEADER + f"mt,1,{SUP},1,x,correct\n",
        2,
        "position must be a 1-based integer",
    ),
    (
        "pronoun-judgement-position-5000-digits",
        ["ingest", "pronoun-judgements", "{file}", "--corpus", "tiny"],
        PJ_HEADER + f"mt,1,{BIG},1,x,correct\n",
        2,
        "(5,000 characters)",
    ),
    (
        "pronoun-judgement-position-arabic-one",
        ["ingest", "pronoun-judgements", "{file}", "--corpus", "tiny"],
        PJ_HEADER + f"mt,1,{ARABIC_ONE},1,x,correct\n",
        2,
        "position must be a 1-based integer",
    ),
    (
        "pronoun-judgement-field-over-128-KiB",
        ["ingest", "pronoun-judgements", "{file}", "--corpus", "tiny"],
        PJ_HEADER + f"mt,1,1,1,{FIELD},correct\n",
        2,
        "a field longer than",
    ),
    (
        "alignment-index-5000-digits",
        translations_system(),
        ALIGN.replace("0-0", f"{BIG}-0", 1),
        1,
        "is not an alignment link",
    ),
    (
        "alignment-index-arabic-one",
        translations_system(),
        ALIGN.replace("0-0", f"{ARABIC_ONE}-0", 1),
        1,
        "is not an alignment link",
    ),
    ("documents-superscript", translations_corpus(), "0 d1\n\u00b2 d2\n", 2, "expected 'FIRST_SEGMENT"),
    ("documents-arabic-two", translations_corpus(), "0 d1\n\u0662 d2\n", 2, "expected 'FIRST_SEGMENT"),
    ("documents-5000-digits", translations_corpus(), f"0 d1\n{BIG} d2\n", 2, "... (5,003 characters)"),
]


@pytest.mark.slow
@pytest.mark.parametrize("command, text, line, problem", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_content_is_file_line_problem_exit_1_and_nothing_changes(db, tmp_path, command, text, line, problem):
    path = write(tmp_path, "bad.txt", text)
    before = rows(db)
    r = runner.invoke(app, ["--db", str(db), *[a.replace("{file}", str(path)) for a in command]])
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"evalhouse: {path}:{line}: "), r.stderr
    assert problem in r.stderr and len(r.stderr.splitlines()) == 1 and len(r.stderr) < 400, r.stderr
    assert rows(db) == before


APT_CONFIG = "config_1"


def apt_cases():
    # (id, setting replaced, replacement, problem); the message names the line of the setting
    return [
        ("weights-out-of-range", "weigths_per_case", "1,1.5,0,0,0,-1", "weigths_per_case must be numbers in [0, 1]"),
        ("weight-nan", "weigths_per_case", "1,nan,0,0,0,0", "weigths_per_case must be numbers in [0, 1]"),
        ("weight-other-digits", "weigths_per_case", f"1,{ARABIC_ONE},0,0,0,0", "weigths_per_case must be numbers"),
        ("case-superscript", "cases_to_use", "1,\u00b2,3,4,5,6", "cases_to_use must list cases 1-6"),
        ("case-5000-digits", "cases_to_use", f"1,{BIG},3,4,5,6", "... (5,010 characters)"),
        ("max-length-5000-digits", "max_length_matrix", BIG, "max_length_matrix must be an integer"),
    ]


@pytest.mark.slow
@pytest.mark.parametrize("setting, value, problem", [c[1:] for c in apt_cases()], ids=[c[0] for c in apt_cases()])
def test_bad_apt_configuration_names_file_and_line(db, tmp_path, setting, value, problem):
    src = shared("mt", "apt-es-en")
    for f in src.iterdir():
        shutil.copy(f, tmp_path / f.name)
    lines = (tmp_path / APT_CONFIG).read_text(encoding="utf-8").split("\n")
    line = next(k for k, text in enumerate(lines, start=1) if text.strip().startswith(setting))
    sep = ":" if ":" in lines[line - 1] else "="
    lines[line - 1] = f"{setting}{sep} {value}"
    config = write(tmp_path, "bad_config", "\n".join(lines))
    before = rows(db)
    r = runner.invoke(app, ["--db", str(db), "apt", "--config", str(config)])
    assert r.exit_code == 1, r.output
    assert r.stderr.startswith(f"evalhouse: {config}:{line}: ") and problem in r.stderr, r.stderr
    assert len(r.stderr) < 400
    assert rows(db) == before


def test_evalb_prm_numbers_are_ascii(tmp_path):
    evalb = shared("constituency", "evalb")
    text = (evalb / "COLLINS.prm").read_text(encoding="utf-8")
    line = text.split("\n").index("CUTOFF_LEN 40") + 1
    prm = write(tmp_path, "arabic.prm", text.replace("CUTOFF_LEN 40", f"CUTOFF_LEN {ARABIC_ONE}"))
    r = runner.invoke(app, ["evalb", str(evalb / "sample.gld"), str(evalb / "sample.tst"), "--prm", str(prm)])
    assert r.exit_code == 1 and r.stderr.startswith(f"evalhouse: {prm}:{line}: CUTOFF_LEN needs an integer"), r.stderr


def test_evalb_with_no_sentence_within_cutoff_prints_evalb_zero_summary(tmp_path):
    """EVALB's totals for len<=N start at zero and each ratio guards its denominator, so with no sentence
    that short it prints zeros; evalhouse prints the same and says why on stderr (no KeyError)."""
    evalb = shared("constituency", "evalb")
    text = (evalb / "COLLINS.prm").read_text(encoding="utf-8").replace("CUTOFF_LEN 40", "CUTOFF_LEN 1")
    prm = write(tmp_path, "one.prm", text)
    r = runner.invoke(app, ["evalb", str(evalb / "sample.gld"), str(evalb / "sample.tst"), "--prm", str(prm)])
    assert r.exit_code == 0, r.output
    tail = r.stdout.split("-- len<=1 --\n")[1].splitlines()
    assert tail[:4] == [
        f"Number of {w:<16s}=      0" for w in ("sentence", "Error sentence", "Skip  sentence", "Valid sentence")
    ]
    # the C release also prints 2*p*r/(p+r) = 0/0 there, a NaN: "-nan" from glibc on x86-64 (tests/test_evalb_c.py
    # compares with the program)
    assert tail[6].startswith("Bracketing FMeasure       =   ") and tail[6].endswith("nan")
    assert all(line.endswith("=   0.00") for line in tail[4:6] + tail[7:]) and len(tail) == 12
    assert "no sentence is within CUTOFF_LEN 1" in r.stderr


def test_strict_numbers():
    assert [integer(t) for t in ("0", "42", "007", SUP, ARABIC_ONE, "+1", "-1", "1_0", " 1", BIG, "")] == [
        0,
        42,
        7,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    ]
    assert integer("-3", signed=True) == -3
    assert [decimal(t) for t in ("0.5", "1", ".25", "1e-3", "nan", "inf", "1_0", f"0.{ARABIC_ONE}")] == [
        0.5,
        1.0,
        0.25,
        0.001,
        None,
        None,
        None,
        None,
    ]
    assert shown(BIG).endswith("... (5,000 characters)") and len(shown(BIG)) < 80
