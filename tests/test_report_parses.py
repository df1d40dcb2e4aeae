"""`evalhouse report` on a warehouse of parser runs only: dependency runs (the hand-worked case of
tests/test_conll18_metrics.py, a copy, the gold against itself, one run under hostile names) and seed 002's
constituency runs. Numbers on the page against the views they come from, groups recomputed from the stored
tests, the drill-down data against the worked case, names escaped. The browser test is in
test_report_browser.py."""

from __future__ import annotations

import html
import json
import re

import pytest

import evalhouse
from evalhouse.analysis.stats import significance_groups
from evalhouse.errors import WarehouseError
from evalhouse.ingest.dependency_runs import ingest_dependency_run
from evalhouse.reports.html import build_report
from evalhouse.statistics.analyze import AnalysisConfig, analyze
from tests.conftest import write
from tests.test_conll18_metrics import GOLD, SYSTEM
from tests.test_names import rename_submissions
from tests.test_parses import ingest_seed002
from tests.test_report import (
    HOSTILE_RUN,
    HOSTILE_TEAM,
    _cells,
    assert_axes_titled,
    assert_fits_a_page,
    assert_systems_told_apart,
    assert_no_text_overlaps,
    captured_figures,
    latex_toggles,
)


PARSER_FIGURES = ("parser_scores", "parser_breakdowns", "parser_arcs", "parser_relations", "parser_upos")


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("parse-report")
    wh = evalhouse.connect(":memory:")
    gold, system = write(tmp, "g.conllu", GOLD), write(tmp, "s.conllu", SYSTEM)
    ingest_dependency_run(wh, system, gold, "c", "parser", "1")
    ingest_dependency_run(wh, gold, gold, "c", "gold", "self")
    ingest_dependency_run(wh, system, gold, "c", "hostile", "h")
    # names an older evalhouse could store (evalhouse.names refuses them now)
    rename_submissions(wh.con, "hostile", HOSTILE_TEAM, HOSTILE_RUN)
    ingest_seed002(wh)
    analyze(wh, AnalysisConfig(resamples=200, seed=3))
    out = tmp / "report"
    summary = build_report(wh, out, examples=2)
    yield wh, summary, summary.path.read_text(encoding="utf-8")
    wh.close()


def page_data(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="eh-data">(.*?)</script>', page, re.S).group(1))


@pytest.mark.slow
def test_a_warehouse_of_parser_runs_gets_a_report(parsed):
    _, summary, page = parsed
    assert summary.submissions == 0 and summary.parse_runs == 4
    for section in (
        "parsers",
        "parser-breakdowns",
        "parser-confusion",
        "parser-significance",
        "constituency",
        "parser-examples",
        "configuration",
    ):
        assert f"<section id='{section}'>" in page, section
    for section in ("leaderboard", "dea", "examples"):  # the outputs' sections need submissions
        assert f"<section id='{section}'>" not in page
    assert {p.name for p in summary.figures} == {f"{n}.{f}" for n in PARSER_FIGURES for f in ("svg", "pdf", "png")}
    assert "metrics:conll18_ud_eval-1.2" in page and "bootstrap:percentile" in page  # configurations listed


@pytest.mark.slow
def test_leaderboard_and_ranks_are_the_views_and_the_stored_tests(parsed):
    wh, _, page = parsed
    rows = _cells(page, "parsers")
    scores = {
        (t, r): (las, mlas)
        for t, r, las, mlas in wh.sql("SELECT team, run, las_f1, mlas_f1 FROM dependency_scores").fetchall()
    }
    assert len(rows) == 3
    header = re.search(r"<table class='eh' id='t-parsers'><thead><tr>(.*?)</tr>", page, re.S).group(1)
    titles = [html.unescape(t) for t in re.findall(r"<th[^>]*>(.*?)</th>", header)]
    for row in rows:
        las, mlas = scores[(row[0], row[1])]
        assert row[titles.index("LAS")] == f"{100 * las:.2f}" and row[titles.index("MLAS")] == f"{100 * mlas:.2f}"
    assert [r[:2] for r in rows] == [
        ["gold", "self"],
        sorted([r[:2] for r in rows[1:]])[0],
        sorted([r[:2] for r in rows[1:]])[1],
    ]
    ranks = {(r[1], r[2], r[3]): (r[7], r[8]) for r in _cells(page, "parser-ranks")}
    tests = wh.sql("""SELECT metric, team_a, run_a, team_b, run_b, delta, significant FROM score_significance
                      WHERE test = 'approximate-randomisation'""").fetchall()
    values = dict(
        ((t, r), v)
        for t, r, v in wh.sql("SELECT team, run, value FROM score_intervals WHERE metric = 'las'").fetchall()
    )
    better = {
        ((a, ra), (b, rb)) if d > 0 else ((b, rb), (a, ra))
        for m, a, ra, b, rb, d, s in tests
        if m == "las" and s and d != 0
    }
    for (team, run), (group, lo, hi) in significance_groups(values, better).items():
        assert ranks[("LAS", team, run)] == (str(group), f"{lo}" if lo == hi else f"{lo}-{hi}")
    # the run and its copy are tied; two sentences cannot tell the gold from them (p >= 1/4 at best)
    assert ranks[("LAS", "parser", "1")] == ranks[("LAS", HOSTILE_TEAM, HOSTILE_RUN)] == ("1", "1-3")


@pytest.mark.slow
def test_breakdowns_confusion_and_constituency_tables(parsed):
    wh, _, page = parsed
    breakdowns = _cells(page, "parser-breakdowns")
    assert len(breakdowns) == wh.sql("SELECT count(*) FROM dependency_breakdowns").fetchone()[0]
    confusion = _cells(page, "parser-confusion")
    assert ["parser", "1", "c", "aux", "cop", "1", "1", "1.000"] in confusion
    assert ["parser", "1", "c", "root", "parataxis", "1", "0", "0.500"] in confusion
    constituency = _cells(page, "constituency")
    assert constituency[0][:4] == ["briscoe-carroll", "susanne", "seed002", "all"]
    assert "Worst sentences" in page and "class='brackets'" in page


@pytest.mark.slow
def test_drill_down_data_of_the_worked_case(parsed):
    _, _, page = parsed
    data = page_data(page)["parse"]
    runs = [tuple(r) for r in data["runs"]]
    k = runs.index(("parser", "1", "c"))
    items = {(b, g): found for r, b, g, found in data["items"] if r == k}
    # 'here' (advmod, word 5 of gold sentence 1) has the wrong head: sentence 1, the group's word 5
    assert items[("relation", "advmod")] == [[1, [5]]]
    assert items[("relation", "root")] == [[2, [1]]]  # Yes: root in the gold, parataxis in the parser's tree
    gold = data["gold"][f"{k}\t1"]
    assert gold["w"] == ["The", "cats", "will", "sleep", "here", "."] and gold["h"] == [2, 4, 4, 0, 4, 4]
    assert gold["u"] == [True, True, True, True, False, True] and gold["l"] == [True, True, False, True, False, True]
    # the parser's words counted in gold sentence 1 (its sentence runs on: Yes ! count in sentence 2)
    system = data["sys"][f"{k}\t1"]
    assert system["w"] == gold["w"] and system["h"] == [2, 4, 4, 0, 2, 4] and system["a"] == [1, 2, 3, 4, 5, 6]
    second = data["sys"][f"{k}\t2"]
    assert second["w"] == ["Yes", "!"] and second["h"] == [-1, 1]  # Yes hangs from a word drawn in sentence 1


@pytest.mark.slow
def test_hostile_names_stay_escaped(parsed):
    _, _, page = parsed
    assert HOSTILE_TEAM not in page and "<b>x</b>" not in page
    assert html.escape(HOSTILE_TEAM, quote=True) in page
    data = re.search(r'<script type="application/json" id="eh-data">(.*?)</script>', page, re.S).group(1)
    assert "<" not in data and ">" not in data and "&" not in data
    assert [HOSTILE_TEAM, HOSTILE_RUN, "c"] in json.loads(data)["parse"]["runs"]
    assert page.count("<script") == 2


@pytest.mark.slow
def test_nothing_to_report_and_not_analysed(tmp_path):
    with evalhouse.connect(":memory:") as wh:
        with pytest.raises(WarehouseError, match=r"nothing to report in .*ingest outputs.*ingest dependency-run"):
            build_report(wh, tmp_path / "r")
        ingest_dependency_run(wh, write(tmp_path, "s.conllu", SYSTEM), write(tmp_path, "g.conllu", GOLD), "c", "t", "1")
        with pytest.raises(WarehouseError, match="run `evalhouse analyze`"):
            build_report(wh, tmp_path / "r")
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
def test_parser_figures_fit_a_page(parsed, tmp_path, monkeypatch):
    wh, _, _ = parsed
    seen = captured_figures(monkeypatch)
    summary = build_report(wh, tmp_path / "r", examples=0)
    assert set(seen) == set(PARSER_FIGURES) | {f"single/{n}" for n in PARSER_FIGURES}  # 7 in; 3.3 in under single/
    for name, fig in seen.items():
        assert_fits_a_page(summary.path.parent / "figures" / f"{name}.svg")
        assert_axes_titled(fig, name)
        assert_systems_told_apart(fig, name)
        assert_no_text_overlaps(fig, name)


def drawn(ax, run: str, along: str) -> dict[str, float]:
    """The values a run's markers show in ``ax``, by the tick label of their group (``along``: the axis of the
    groups, x or y; the other axis holds the values). Markers are dodged less than half a slot."""
    ticks = [t.get_text() for t in (ax.get_xticklabels() if along == "x" else ax.get_yticklabels())]
    (line,) = [ln for ln in ax.lines if ln.get_label() == run]
    at, value = (line.get_xdata(), line.get_ydata()) if along == "x" else (line.get_ydata(), line.get_xdata())
    return {ticks[round(p)]: float(v) for p, v in zip(at, value)}


@pytest.mark.slow
def test_upos_direction_and_projectivity_figures_of_the_worked_case(parsed, tmp_path, monkeypatch):
    """LAS F1 drawn for the worked case of tests/test_conll18_metrics.py, worked out from its two files. LAS
    right: The, cats (nsubj:pass is nsubj), sleep, both '.' and '!'; wrong: will (aux / cop), here (head 4 / 2),
    Yes (a root in the gold, parataxis under sleep in the parser's single sentence). Every word keeps its UPOS.
    F1 = 2PR / (P + R), P over the system words of a group, R over its gold words; none when P = R = 0."""
    wh, _, _ = parsed
    seen = captured_figures(monkeypatch)
    build_report(wh, tmp_path / "r", examples=0)
    nan = float("nan")
    # the runs as the legends name them (the warehouse has constituency runs on another corpus, so "on c")
    parser, gold_self = "parser/1 on c", "gold/self on c"
    # arc direction. root: gold sleep, Yes; system sleep (right): P 1/1, R 1/2, F1 2/3.
    # head-initial: gold here, ., ! (. and ! right); system here (-> cats), ., Yes (-> sleep), ! (. and ! right):
    # P 2/4, R 2/3, F1 = 2 (1/2)(2/3) / (7/6) = 4/7. head-final: The, cats, will on both sides, two right: 2/3.
    direction, projectivity = seen["parser_arcs"].axes
    assert drawn(direction, parser, "x") == pytest.approx(
        {"root\n(2)": 2 / 3, "head-initial\n(3)": 4 / 7, "head-final\n(3)": 2 / 3}
    )
    # projectivity: every gold arc is projective (5 of 8 right); the system's here -> cats spans will and sleep,
    # which cats does not dominate: 7 projective arcs with the 5 right words, P 5/7, R 5/8, F1 = 10/15; the one
    # non-projective arc has no gold word (R none) and is wrong (P 0): no F1, no marker
    assert drawn(projectivity, parser, "x") == pytest.approx(
        {"projective\n(8)": 2 / 3, "non-projective\n(0)": nan}, nan_ok=True
    )
    # the gold against itself: every group right; it has no non-projective arc
    assert drawn(direction, gold_self, "x") == {"root\n(2)": 1, "head-initial\n(3)": 1, "head-final\n(3)": 1}
    assert drawn(projectivity, gold_self, "x") == pytest.approx(
        {"projective\n(8)": 1, "non-projective\n(0)": nan}, nan_ok=True
    )
    # UPOS, the same on both sides: DET The, NOUN cats, VERB sleep, PUNCT . ! all right (F1 1); AUX will, ADV
    # here, INTJ Yes, each alone in its group and wrong: P = R = 0, no marker
    (upos,) = seen["parser_upos"].axes
    expected = {"DET (1)": 1, "NOUN (1)": 1, "VERB (1)": 1, "PUNCT (2)": 1, "AUX (1)": nan, "ADV (1)": nan}
    assert drawn(upos, parser, "y") == pytest.approx(expected | {"INTJ (1)": nan}, nan_ok=True)
    assert drawn(upos, gold_self, "y") == {label: 1 for label in expected | {"INTJ (1)": 1}}
    # one row per gold tag (the three runs share the gold), its gold words counted once
    assert sorted(t.get_text() for t in upos.get_yticklabels()) == sorted(expected | {"INTJ (1)": 1})


@pytest.mark.slow
def test_latex_toggles_of_the_parser_tables(parsed, tmp_path):
    from evalhouse.export import latex
    from tests.test_latex import compile_latex, overfull

    wh, _, page = parsed
    codes = latex_toggles(page)
    assert set(codes) == {"tab:parsers", "tab:parser-ranks", "tab:parser-breakdowns", "tab:constituency-ranks"}
    la = wh.sql("SELECT value FROM score_intervals WHERE kind = 'constituency run' AND metric = 'la_word_mean'")
    assert latex.number(100 * la.fetchone()[0], 2) in codes["tab:constituency-ranks"]
    las = wh.sql("SELECT team, run, las_f1 FROM dependency_scores").fetchall()
    # the hostile run's name is long: every run is a system S1, S2, ... named in the caption
    systems = {n: k for k, n in re.findall(r"S(\d+): (.*?)(?=; S\d+: |\. )", codes["tab:parsers"])}
    assert len(systems) == len(las)
    for team, run, value in las:
        assert f"S{systems[latex.escape(f'{team}/{run}')]} & c & " in codes["tab:parsers"]
        assert latex.number(100 * value, 2) in codes["tab:parsers"]
    # the breakdowns: a row per breakdown and group, a column per run, the view's LAS F1 in each cell
    table = codes["tab:parser-breakdowns"]
    head = next(ln for ln in table.splitlines() if ln.startswith("breakdown & group"))
    runs = head.removesuffix(" \\\\").split(" & ")[3:]
    names = dict(re.findall(r"S(\d+): (.*?)(?=; S\d+: |\. Configuration)", table))
    rows = {
        tuple(ln.split(" & ")[:2]): ln.removesuffix(" \\\\").split(" & ")
        for ln in table.splitlines()
        if ln.endswith("\\\\") and not ln.startswith("breakdown")
    }
    expected = wh.sql("SELECT team, run, breakdown, grp, las_f1 FROM dependency_breakdowns").fetchall()
    assert len(rows) == len({(b, g) for _, _, b, g, _ in expected})
    for team, run, breakdown, grp, value in expected:
        name = latex.escape(f"{team}/{run}")
        k = runs.index(name) if name in runs else runs.index(f"S{next(k for k, n in names.items() if n == name)}")
        assert rows[(latex.escape(breakdown), latex.escape(grp))][3 + k] == latex.cell(value)
    text = " ".join(compile_latex(tmp_path, "\n".join(codes.values())).split())
    assert overfull(tmp_path) == []  # every toggle within an article's text width
    assert HOSTILE_TEAM in text
