"""LaTeX tables (issue 38): evalhouse.export.latex, `evalhouse export --format latex` for a view or a query.

The tables are compiled by a real pdflatex (Debian's texlive-latex-base and -recommended, for booktabs) and the
PDF's text is read back with poppler's pdftotext: a special character comes out of LaTeX as itself or the test
fails. Without pdflatex or pdftotext those checks skip with a loud LATEX MISSING reason; the structure
(booktabs rules, alignment, caption, escaping) is asserted in any case.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import evalhouse
from evalhouse.cli import app
from evalhouse.errors import OptionError
from evalhouse.export import latex
from evalhouse.ingest.baselines import run_baseline
from evalhouse.statistics.analyze import AnalysisConfig, analyze
from tests.conftest import SAMPLE

# every LaTeX special, the three that print wrongly in OT1, a mathtext dollar, markup and Latin-1 text
HOSTILE = r"a&b %c $d #e _f {g} ~h ^i \j <k> |l| \textbf{m} é"


def run_cli(*args: str):
    return CliRunner().invoke(app, list(args))


def result_stderr(result) -> str:
    """What a command wrote to stderr (Click < 8.2 mixes it into output)."""
    try:
        return result.stderr
    except ValueError:
        return result.output


def compile_latex(tmp: Path, body: str) -> str:
    """``body`` in an article with booktabs and longtable, compiled by pdflatex; the PDF's text (pdftotext)."""
    if not (shutil.which("pdflatex") and shutil.which("pdftotext")):
        pytest.skip(
            "LATEX MISSING: no pdflatex or pdftotext on PATH (apt-get install texlive-latex-base "
            "texlive-latex-recommended poppler-utils); the LaTeX tables were not compiled"
        )
    doc = tmp / "doc.tex"
    doc.write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage{booktabs,longtable}\n"
        "\\usepackage[margin=2cm,paperheight=60cm]{geometry}\n\\begin{document}\n" + body + "\n\\end{document}\n",
        encoding="utf-8",
    )
    for _ in range(2):  # longtable settles its column widths in a second run
        run = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
            cwd=tmp,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        assert run.returncode == 0, run.stdout[-3000:]
    text = subprocess.run(
        ["pdftotext", "-layout", "doc.pdf", "-"], cwd=tmp, capture_output=True, text=True, check=True
    ).stdout
    return text


def overfull(tmp: Path) -> list[str]:
    """pdflatex's complaints of a box too wide in the last :func:`compile_latex` of ``tmp``: a table wider
    than the text width is an "Overfull \\hbox" (with its excess in pt)."""
    log = (tmp / "doc.log").read_text(encoding="utf-8", errors="replace")
    return re.findall(r"^Overfull \\hbox \(([\d.]+)pt too wide\).*$", log, re.M)


def test_escape_covers_every_special():
    for char in "\\&%$#_{}~^<>|":
        out = latex.escape(char)
        assert out != char and "\\" in out, char
    # nothing left that TeX would read as a command, a group, math, a comment or an alignment tab
    stripped = re.sub(r"\\[A-Za-z]+\{\}|\\[&%$#_{}]", "", latex.escape(HOSTILE))
    assert not set(stripped) & set("\\&%$#_{}~^")


def test_numbers():
    assert latex.number(-0.5) == "$-$0.500"
    assert latex.number(0.1234, 2) == "0.12"
    assert latex.number(-0.0001) == r"$-1.00\times10^{-4}$"  # would print as -0.000
    assert latex.number(0.0004, 3) == r"$4.00\times10^{-4}$"
    assert latex.number(0.001, 3) == "0.001"
    assert latex.number(12345) == "12,345"
    assert latex.number(-3) == "$-$3"
    assert latex.number(-1e-12, 3) != "$-$0.000"
    assert latex.cell(float("nan")) == "" and latex.cell(None) == ""
    assert latex.cell(True) == "yes"


def test_table_structure():
    code = latex.table(
        [latex.Column("team"), latex.Column("score", 2), latex.Column("n")],
        [["a_b", 0.5, 3], ["c", None, 10], ["d", -1.25, None]],
        "Scores & more",
        "tab:x",
    )
    lines = code.splitlines()
    assert [ln for ln in lines if ln in ("\\toprule", "\\midrule", "\\bottomrule")] == [
        "\\toprule",
        "\\midrule",
        "\\bottomrule",
    ]
    assert "\\begin{tabular}{lrr}" in lines  # numbers right-aligned, text left
    assert "\\caption{Scores \\& more}" in lines and "\\label{tab:x}" in lines
    assert "a\\_b & 0.50 & 3 \\\\" in lines and "c &  & 10 \\\\" in lines and "d & $-$1.25 &  \\\\" in lines
    assert "\\hline" not in code and "|" not in code.split("\\begin{tabular}")[1].split("}")[0]


def test_long_and_wide_tables():
    columns = [latex.Column(f"c{i}") for i in range(latex.WIDE + 1)]
    long = latex.table(columns, [[k] * len(columns) for k in range(latex.LONG + 1)], "Long")
    assert "\\begin{longtable}" in long and "\\endhead" in long and "\\begin{table}" not in long
    assert long.count("\\toprule") == 2 and long.count("\\bottomrule") == 1  # first head and continued head
    assert "\\small" in long
    short = latex.table(columns[:2], [[1, 2]] * latex.LONG, "Short")
    assert "\\begin{table}" in short and "longtable" not in short and "\\small" not in short


def _wide_table():
    """A leaderboard of 2 key columns and 18 scores, the shape of the report's (20 columns): widths by hand,
    titles of 14 characters and values of 6 (0.123) at 9 pt are far wider than a 345 pt text width."""
    columns = [latex.Column("team"), latex.Column("run")] + [latex.Column(f"score number {k:02}") for k in range(18)]
    rows = [[f"team{i}", f"run{i}"] + [round(0.1 + 0.01 * i + 0.001 * k, 3) for k in range(18)] for i in range(4)]
    return columns, rows


def test_a_wide_table_says_so_and_fitted_splits_it():
    columns, rows = _wide_table()
    one = latex.table(columns, rows, "Board", "tab:board")
    assert re.search(r"^% evalhouse: about \d+ pt wide, wider than an article's 345 pt text width", one, re.M)
    fitted = latex.fitted(columns, rows, "Board", "tab:board", note="Configuration: x.", keys=2)
    parts = fitted.split("\\end{table}")[:-1]
    assert len(parts) >= 2 and "about" not in fitted  # every part fits by the estimate: no comment
    assert ["\\label{tab:board}"] + [f"\\label{{tab:board-{k}}}" for k in range(2, len(parts) + 1)] == re.findall(
        r"\\label\{[^}]*\}", fitted
    )
    assert "Configuration: x." in parts[0] and all("Table~\\ref{tab:board}" in p for p in parts[1:])
    # each score column in exactly one part, in order; each part repeats team and run
    heads = [re.search(r"\\midrule", p) and p.split("\\toprule\n", 1)[1].split(" \\\\")[0] for p in parts]
    assert all(h.startswith("team & run & ") for h in heads)
    assert [t for h in heads for t in h.split(" & ")[2:]] == [f"score number {k:02}" for k in range(18)]
    for i, row in enumerate(rows):
        cells = [
            c for p in parts for ln in p.splitlines() if ln.startswith(f"team{i} & ") for c in ln[:-3].split(" & ")[2:]
        ]
        assert cells == [f"{v:.3f}" for v in row[2:]]
    # a narrow table is left alone
    assert latex.fitted(columns[:4], [r[:4] for r in rows], "Board") == latex.table(
        columns[:4], [r[:4] for r in rows], "Board"
    )


@pytest.mark.slow
def test_fitted_tables_are_no_wider_than_the_page_in_pdflatex(tmp_path):
    """pdflatex is the judge: the table the estimate calls too wide overflows, its fitted parts do not."""
    columns, rows = _wide_table()
    compile_latex(tmp_path, latex.table(columns, rows, "Board", "tab:board"))
    assert overfull(tmp_path), "the one 20-column table is wider than the text"
    compile_latex(tmp_path, latex.fitted(columns, rows, "Board", "tab:board", keys=2))
    assert overfull(tmp_path) == []


def test_configurations_go_to_the_caption():
    names = ["team", "dea", "configuration"]
    one = latex.relation_table(names, [["a", 0.5, "x:1|y:2"], ["b", 0.25, "x:1|y:2"]], "v")
    assert "configuration" not in one.split("\\toprule")[1]  # not a column
    assert "\\caption{v. Configuration: x:1\\textbar{}\\allowbreak{}y:2.}" in one
    two = latex.relation_table(names, [["a", 0.5, "x:1"], ["b", 0.25, "x:2"], ["c", 0.1, "x:1"]], "v")
    assert "team & dea & cfg \\\\" in two
    assert ["a & 0.500 & 1 \\\\", "b & 0.250 & 2 \\\\", "c & 0.100 & 1 \\\\"] == [
        ln for ln in two.splitlines() if ln.endswith("\\\\") and ln[0] in "abc"
    ]
    assert "(1) x:1. (2) x:2." in two


@pytest.mark.slow
def test_long_configurations_go_under_the_table_and_compile(tmp_path):
    config = "|".join(f"option{k}:value{k},more" for k in range(60))  # ~1,200 characters, no space
    rows = [[f"s{k}", k / 10, f"{config}|seed:{k}"] for k in range(3)]
    code = latex.relation_table(["system", "score", "configuration"], rows, "scores")
    assert "\\caption{scores. The configuration is under the table.}" in code
    long = latex.relation_table(["system", "score", "configuration"], rows * 20, "many")
    assert "\\begin{longtable}" in long and "\\end{longtable}\n\\par\\smallskip{\\footnotesize" in long
    short = latex.relation_table(["system", "score", "configuration"], [["a", 1.0, "seed:1"]], "one")
    assert "\\caption{one. Configuration: seed:1.}" in short
    text = " ".join(compile_latex(tmp_path, code + long + short).split())
    assert "seed:2" in text and "option59:value59" in text


@pytest.mark.slow
def test_hostile_text_compiles_to_itself(tmp_path):
    code = latex.table([latex.Column(HOSTILE), latex.Column("x")], [[HOSTILE, -0.5], ["ρ ± ≤ …", 1e-9]], HOSTILE)
    text = compile_latex(tmp_path, code)
    flat = " ".join(text.split())
    assert flat.count(" ".join(HOSTILE.split())) == 3, text  # caption, header, cell
    assert "−0.500" in flat or "-0.500" in flat
    assert "ρ ± ≤ ." in flat and "1.00 × 10−9" in flat


@pytest.fixture(scope="module")
def warehouse_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("latex") / "w.duckdb"
    with evalhouse.connect(path) as wh:
        wh.ingest_treebank([SAMPLE], corpus="sample")
        run_baseline(wh, "lr", "sample")
        run_baseline(wh, "random", "sample", seed=1, team="r&d_%", run="x$y")
        analyze(wh, AnalysisConfig(resamples=100, seed=1))
    return path


@pytest.mark.slow
def test_export_a_view_and_a_query(warehouse_file, tmp_path):
    view = tmp_path / "scores.tex"
    result = result_view = run_cli(
        "--db", str(warehouse_file), "export", "submission_scores", "--out", str(view), "--corpus", "sample"
    )
    assert result.exit_code == 0, result.output
    code = view.read_text(encoding="utf-8")
    with evalhouse.connect(warehouse_file, read_only=True) as wh:
        rows = wh.sql(
            "SELECT team, run, dea, configuration FROM submission_scores "
            "JOIN configurations USING (configuration_id) ORDER BY ALL"
        ).fetchall()
    configurations = sorted({r[3] for r in rows})
    assert len(configurations) == 2  # the baselines' lexicons differ: a cfg column numbers them, under the table
    assert "\\caption{submission\\_scores (sample). The configuration is under the table.}" in code
    assert "{\\footnotesize\\raggedright Configurations (column cfg): (1) " in code
    assert re.search(r"^team & run & .* & cfg \\\\$", code, re.M)
    for config in configurations:
        assert latex.breakable(config) in code  # each stored configuration, whole
    assert "r\\&d\\_\\%" in code and "x\\$y" in code
    for _, _, dea, _ in rows:
        assert f"{dea:.3f}" in code
    query = tmp_path / "q.tex"
    result = run_cli(
        "--db",
        str(warehouse_file),
        "export",
        "--query",
        "select team, run, round(dea, 4) as dea from submission_scores order by team",
        "--out",
        str(query),
        "--digits",
        "2",
        "--caption",
        "DEA of the baselines",
    )
    assert result.exit_code == 0, result.output
    code = query.read_text(encoding="utf-8")
    assert "\\caption{DEA of the baselines}" in code and "\\begin{tabular}{llr}" in code
    assert sum(ln.endswith("\\\\") for ln in code.splitlines()) == 1 + len(rows)
    assert [f"{dea:.2f}" in code for _, _, dea, _ in rows] == [True] * len(rows)
    # submission_scores has 26 columns: one table far wider than a page, which the file and stderr say;
    # --fit splits it into tables that pdflatex sets within the text width
    assert re.search(r"^% evalhouse: about \d+ pt wide", code_view := view.read_text(encoding="utf-8"), re.M)
    assert "note: " in result_stderr(result_view) and "pt wide" in result_stderr(result_view)
    fitted = tmp_path / "fitted.tex"
    result = run_cli(
        "--db", str(warehouse_file), "export", "submission_scores", "--out", str(fitted), "--corpus", "sample", "--fit"
    )
    assert result.exit_code == 0, result.output
    assert "pt wide" not in result_stderr(result) and fitted.read_text(encoding="utf-8").count("\\begin{table}") > 1
    compile_latex(tmp_path, fitted.read_text(encoding="utf-8"))
    assert overfull(tmp_path) == []
    assert code_view
    text = compile_latex(tmp_path, view.read_text(encoding="utf-8") + "\n" + code)
    flat = " ".join(text.split())
    assert "r&d_%" in flat and "x$y" in flat and "DEA of the baselines" in flat
    assert not math.isnan(rows[0][2])


@pytest.mark.slow
def test_query_export_is_sandboxed_and_checked(warehouse_file, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read", encoding="utf-8")
    out = tmp_path / "x.tex"
    result = run_cli(
        "--db", str(warehouse_file), "export", "--query", f"select * from read_text('{secret}')", "--out", str(out)
    )
    assert result.exit_code != 0 and not out.exists()
    result = run_cli("--db", str(warehouse_file), "export", "--out", str(out))
    assert result.exit_code == 2 and "--query" in result.output
    result = run_cli("--db", str(warehouse_file), "export", "corpora", "--query", "select 1", "--out", str(out))
    assert result.exit_code == 2
    result = run_cli(
        "--db", str(warehouse_file), "export", "corpora", "--out", str(tmp_path / "c.csv"), "--caption", "x"
    )
    assert result.exit_code == 2 and "LaTeX" in result.output
    # a query to the other formats: the same rows as the view's export
    with evalhouse.connect(warehouse_file, read_only=True) as wh:
        with pytest.raises(OptionError):
            wh.export_query("set threads = 2", tmp_path / "t.csv")  # returns no rows
    csv_query, csv_view = tmp_path / "q.csv", tmp_path / "v.csv"
    assert (
        run_cli(
            "--db", str(warehouse_file), "export", "-q", "select * from corpus_complexity", "--out", str(csv_query)
        ).exit_code
        == 0
    )
    assert run_cli("--db", str(warehouse_file), "export", "corpus_complexity", "--out", str(csv_view)).exit_code == 0
    # the same rows, each number to 12 significant digits: corpus_complexity's standard deviations are sums
    # DuckDB's threads may add in another order on each run (the last bits differed in 1 run of 4)
    assert _csv_cells(csv_query) == _csv_cells(csv_view)


def _csv_cells(path: Path) -> list[list[str]]:
    """A CSV file's cells, numbers written to 12 significant digits."""

    def cell(text: str) -> str:
        try:
            return format(float(text), ".12g")
        except ValueError:
            return text

    return [[cell(c) for c in line.split(",")] for line in path.read_text(encoding="utf-8").splitlines()]
