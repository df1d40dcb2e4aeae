"""``evalhouse report``: one offline HTML page, and the figures as SVG, PDF and PNG, from the warehouse.

    evalhouse report --corpus en_ewt-test --out report/

    report/index.html                 the report: every script, style and figure inside; no network
    report/figures/<name>.svg|pdf|png correlations, dea_by_relation, buckets (for papers and slides), 7 in wide
    report/figures/single/<name>.*    the same figures laid out for one column of a paper, 3.3 in wide

The page holds: a leaderboard (pooled and mean DEA, BLEU, the SR shared-task metrics and sacreBLEU when
the warehouse has the views ``sr_submission_scores`` / ``sacrebleu_scores``, human z-scores when there
are judgements) with significance groups and rank ranges from ``score_significance``, and every ranked score
with its bootstrap interval, group and rank range (:mod:`evalhouse.reports.ranks`); DEA by relation per submission with the
bootstrap intervals of ``dea_relation_intervals``; the Spearman heatmap of Shimorina et al. (2021)
Figure 2; the projectivity tests; the most suspicious subtrees per mining view; scores by bucket of
sentence length, tree depth and mean dependency distance; the significance tests, entropy and ensemble
tables; and examples: for every relation and every listed suspicious subtree, up to ``examples``
sentences per submission, the reference tree and the output drawn as arcs (inline SVG drawn by the
page's script), failed edges in red. Tables sort by a click on a column and filter by team, corpus and
relation. Every name read from the warehouse is escaped (HTML text and attributes) or passed to the
page's script as JSON with ``<``, ``>`` and ``&`` escaped, and the script writes it with ``textContent``.

Size: the examples dominate. With ``examples`` = 3 (the default), the five ADAPT runs on UD EWT test
(37 relations, 40 subtrees per run) give a page of about 3 MB; the page grows linearly with submissions
x (relations + 40) x ``examples``. ``examples=0`` leaves them out.
"""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass
from functools import partial
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from evalhouse.analysis import mining
from evalhouse.errors import OptionError, WarehouseError
from evalhouse.reports import figures, ranks, tex
from evalhouse.reports.parse_sections import ParseSections
from evalhouse.statistics.analyze import METRICS
from evalhouse.statistics.selection import Selection
from evalhouse.version import __version__

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

LABELS = {
    "bleu": "BLEU",
    "dea": "DEA",
    "fluency_z": "fluency (z)",
    "adequacy_z": "adequacy (z)",
    "depth": "depth",
    "length": "length",
    "mean_dependency_distance": "mean dep. distance",
    "mean_flux_size": "mean flux size",
    "mean_flux_weight": "mean flux weight",
    "mean_arity": "mean arity",
}
SIGNIFICANCE_TESTS = ("approximate-randomisation", "paired-bootstrap")
# the views another part of evalhouse may add; read only when the warehouse has them
OPTIONAL_SCORES = (("sr_submission_scores", "SR"), ("sacrebleu_scores", "sacreBLEU"))
KEYS = ("team", "run", "corpus")
# every ranked score of the outputs' leaderboard: score_intervals.metric -> (title, scale), in this order
RANKED = {
    "dea": ("DEA (pooled)", 1),
    "mean_dea": ("DEA (mean)", 1),
    "mean_bleu": ("BLEU (mean sentence)", 1),
    "corpus_bleu": ("BLEU (corpus)", 1),
    "sr_bleu": ("SR BLEU", 1),
    "sr_nist": ("SR NIST", 1),
    "sr_dist": ("SR DIST", 1),
    "sr_dist_words": ("SR DIST (words)", 1),
    "sacrebleu_bleu": ("sacreBLEU BLEU", 1),
    "sacrebleu_chrf": ("sacreBLEU chrF", 1),
    "mean_ssa": ("SSA", 1),
    "mean_gsa": ("GSA", 1),
    "mean_sta": ("STA", 1),
    "mean_gta": ("GTA", 1),
    "mean_understandability_accuracy": ("understandability acc.", 1),
    "mean_quality_accuracy": ("quality acc.", 1),
}
# buckets of the reference tree's properties: (column, title, right-closed upper bounds, labels)
BUCKETS = (
    (
        "length",
        "sentence length (words)",
        [5, 10, 15, 20, 30, 40, math.inf],
        ["1-5", "6-10", "11-15", "16-20", "21-30", "31-40", "41+"],
    ),
    ("depth", "tree depth", [0, 1, 2, 3, 4, 5, 6, math.inf], ["0", "1", "2", "3", "4", "5", "6", "7+"]),
    (
        "mean_dependency_distance",
        "mean dependency distance",
        [1.5, 2.0, 2.5, 3.0, 4.0, math.inf],
        ["<=1.5", "1.5-2", "2-2.5", "2.5-3", "3-4", ">4"],
    ),
)
FIGURE_RELATIONS = 20  # the DEA figure shows the relations with most edges (two panels); the table has them all
FIGURE_SYSTEMS = 10  # ... and the best systems by pooled DEA; the table has them all
TOP_FORMS = 10  # suspicious subtrees per submission and view in the report
EXAMPLE_LENGTH = 12  # examples: sentences with about this many words first (readable, not trivial)


@dataclass
class ReportSummary:
    path: Path
    submissions: int
    examples: int
    figures: list[Path]
    bytes: int
    parse_runs: int = 0


def write_report(
    wh: Warehouse,
    out,
    submission: str | None = None,
    team: str | None = None,
    corpus: str | None = None,
    examples: int = 3,
    test: str = "approximate-randomisation",
) -> Path:
    """Write the report of the selected submissions to directory ``out``; returns the page's path."""
    return build_report(wh, out, submission=submission, team=team, corpus=corpus, examples=examples, test=test).path


def build_report(
    wh: Warehouse,
    out,
    submission: str | None = None,
    team: str | None = None,
    corpus: str | None = None,
    examples: int = 3,
    test: str = "approximate-randomisation",
) -> ReportSummary:
    if examples < 0:
        raise OptionError(f"`examples` must be 0 or more, not {examples}")
    if test not in SIGNIFICANCE_TESTS:
        raise OptionError(f"unknown test '{test}' (valid: {', '.join(SIGNIFICANCE_TESTS)})")
    selected = Selection.of(submission, team, corpus, exclusive=True).resolve(wh)
    subs = selected.submissions(wh, required=False)
    parses = ParseSections(wh, selected, test, examples)
    if not subs and not parses:
        scope = f" for {selected.describe()}" if selected != Selection() else ""
        raise WarehouseError(
            f"nothing to report{scope} in {wh.path}: run `evalhouse ingest outputs` (system outputs) "
            "or `evalhouse ingest dependency-run` / `evalhouse ingest parses` (parser runs) first"
        )
    where, params = selected.where()
    analysed = wh.con.execute(f"SELECT count(*) FROM metric_correlations WHERE {where}", params).fetchall()[0][0]
    if (subs and not analysed) or not parses.analysed():
        raise WarehouseError(
            "the selected submissions or parser runs have not been analysed: run `evalhouse analyze` on them first"
        )
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    r = _Report(wh, selected, subs, examples, test, parses)
    page = r.page(out / "figures")
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return ReportSummary(
        path,
        len(subs),
        r.example_count,
        # none when the warehouse holds constituency runs only
        sorted(p for p in (out / "figures").rglob("*") if p.is_file()) if (out / "figures").exists() else [],
        len(page.encode()),
        len(parses.dependency) + len(parses.constituency),
    )


# --- formatting -----------------------------------------------------------------------------------


def _esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


_BREAK_AFTER = re.compile(r"([_/.:|])(?=\w)")


def _wrappable(text: str) -> str:
    """Escaped ``text`` that a printed table may break after ``_ / . : |`` (as after a hyphen or space):
    run names such as augmented_and_ewt_test_set_13-Oct_12-07 have no other place to break. ``<wbr>``
    changes no text (sorting and filtering read ``textContent``) and nothing on screen (cells do not wrap)."""
    return _BREAK_AFTER.sub(r"\1<wbr>", _esc(text))


def _number(v, digits: int = 3) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return f"{int(v):,}"
    if isinstance(v, (float, np.floating)):
        v = float(v)
        if v != 0 and abs(v) < 10**-digits:
            return f"{v:.{digits - 1}e}"
        return f"{v:.{digits}f}"
    return str(v)


@dataclass
class Col:
    key: str
    title: str
    tip: str = ""
    digits: int = 3


def table(
    frame: pd.DataFrame,
    cols: list[Col],
    table_id: str,
    links=None,
    empty: str = "Nothing to show.",
    latex: str | None = None,
    configurations=(),
) -> str:
    """A sortable, filterable table: numbers carry their raw value in ``data-v``; rows carry ``data-team``,
    ``data-corpus`` and ``data-relation`` for the page's filters. ``links(row)`` returns the HTML of an
    extra last cell (already escaped); ``empty`` is said instead of an empty table. ``latex``: a caption,
    and the table gets a "LaTeX" toggle with the same columns (:mod:`evalhouse.reports.tex`), the
    ``configurations`` in its caption."""
    if frame is None or not len(frame):
        return f"<p class='empty'>{_esc(empty)}</p>"
    head = "".join(f"<th title='{_esc(c.tip)}'>{_wrappable(c.title)}</th>" for c in cols)
    if links:
        head += "<th class='nosort links'>examples</th>"
    body = []
    for row in frame.to_dict("records"):
        attrs = "".join(f" data-{k}='{_esc(row[k])}'" for k in ("team", "corpus", "relation") if k in row)
        cells = []
        for c in cols:
            v = row.get(c.key)
            if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)):
                # 12 significant digits: a mean over many rows can differ in its last bit between runs (DuckDB
                # 2.0 sums in parallel, in no fixed order), which must not change the page's bytes or its order
                raw = "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{float(v):.12g}"
                cells.append(f"<td class='n' data-v='{raw}'>{_esc(_number(v, c.digits))}</td>")
            else:
                cells.append(f"<td>{_wrappable(_number(v))}</td>")
        if links:
            cells.append(f"<td class='links'>{links(row)}</td>")
        body.append(f"<tr{attrs}>{''.join(cells)}</tr>")
    code = "" if latex is None else tex.toggle(tex.frame_table(frame, cols, latex, f"tab:{table_id}", configurations))
    return (
        f"<div class='scroll'><table class='eh' id='t-{_esc(table_id)}'><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></div>{code}"
    )


def _json_for_script(data) -> str:
    """JSON that is safe inside <script type="application/json">: no <, > or & survives as such."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _clean(v):
    """A JSON-able value (NaN -> None, numpy -> Python)."""
    if isinstance(v, (np.floating, float)):
        return None if math.isnan(v) else round(float(v), 4)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    return v


def _parse(configuration: str | None, key: str) -> str | None:
    m = re.search(rf"(?:^|[|,]){re.escape(key)}:([^|,]+)", configuration or "")
    return m.group(1) if m else None


def _asset(name: str) -> str:
    return resources.files("evalhouse.reports").joinpath(name).read_text(encoding="utf-8")


# --- the report -----------------------------------------------------------------------------------


class _Report:
    def __init__(self, wh: Warehouse, selected: Selection, subs, examples: int, test: str, parses: ParseSections):
        self.wh, self.con, self.selected, self.subs = wh, wh.con, selected, subs
        self.examples, self.test, self.parses = examples, test, parses
        self.relations: list[str] = []
        self.where, self.params = selected.where()
        self.corpora = sorted({c for _, _, c in subs})
        self.index = {s: i for i, s in enumerate(subs)}
        self.example_count = 0
        self.configurations: set[str] = set()

    def label(self, team, run, corpus) -> str:
        return f"{team}/{run}" + (f" on {corpus}" if len(self.corpora) > 1 else "")

    def frame(self, query: str, params=None) -> pd.DataFrame:
        return self.con.execute(query, self.params if params is None else params).df()

    def caption(self, what: str, groups: bool = True) -> str:
        """The caption of a LaTeX table: what it shows, on which corpora, with which test."""
        return f"{what} on {', '.join(self.corpora)} (evalhouse {__version__}" + (
            f"; significance groups and rank ranges from paired {self.test} tests, Holm-adjusted)." if groups else ")."
        )

    def views(self) -> set[str]:
        return {
            r[0]
            for r in self.con.execute(
                "SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main'"
            ).fetchall()
        }

    # --- leaderboard ---------------------------------------------------------------------------
    def leaderboard(self) -> tuple[str, list[str]]:
        board = self.frame(f"""SELECT team, run, corpus, sentences, missing_sentences, dea, mean_dea, mean_bleu,
                                      corpus_bleu, round(mean_fluency_z, 12) + 0.0 AS mean_fluency_z,
                                      round(mean_adequacy_z, 12) + 0.0 AS mean_adequacy_z, judged_sentences, configuration
                               FROM submission_scores LEFT JOIN configurations USING (configuration_id)
                               WHERE {self.where} ORDER BY corpus, dea DESC, team, run""")
        # (z-score means rounded to 12 decimals: a mean of z-scores that is 0 comes out as +-1e-17 or so, in
        # another last bit on each run; the page says 0.000 instead of -9.25e-17; + 0.0 turns -0.0 into 0.0)
        self.configurations |= set(board["configuration"])
        cols = [
            Col("team", "team"),
            Col("run", "run"),
            Col("corpus", "corpus"),
            Col("sentences", "sentences"),
            Col("dea", "DEA (pooled)", "matched reference edges / reference edges over the corpus"),
            Col("dea_group", "DEA group", f"significance group of pooled DEA ({self.test}, Holm)"),
            Col("dea_ranks", "DEA rank", "rank range: 1 + significantly better .. n - significantly worse"),
            Col("mean_dea", "DEA (mean)", "mean of sentence DEA over sentences with edges"),
            Col(
                "mean_bleu", "BLEU (mean sentence)", "mean sentence BLEU on lemmas, punctuation removed, NLTK method 2"
            ),
            Col("bleu_group", "BLEU group", f"significance group of mean sentence BLEU ({self.test}, Holm)"),
            Col("bleu_ranks", "BLEU rank", "rank range: 1 + significantly better .. n - significantly worse"),
            Col("corpus_bleu", "BLEU (corpus)", "corpus BLEU-4 on lemmas from summed statistics, NLTK method 2"),
        ]
        notes = []
        self.pairs = self.frame(
            """SELECT corpus, metric, team_a, run_a, team_b, run_b, delta, significant, configuration
                                   FROM score_significance WHERE kind = 'submission' AND test = $test""",
            {"test": self.test},
        )
        self.configurations |= set(self.pairs["configuration"])
        keys = set(self.subs)
        for prefix, metric in (("dea", "dea"), ("bleu", "mean_bleu")):
            board[f"{prefix}_group"] = None
            board[f"{prefix}_ranks"] = None
            for corpus_name, group in board.groupby("corpus"):
                values = {
                    (t, r, c): v
                    for t, r, c, v in group[["team", "run", "corpus", metric]].itertuples(index=False)
                    if v is not None and not (isinstance(v, float) and math.isnan(v))
                }
                for k, (g, rank) in ranks.groups(
                    values, ranks.better_pairs(self.pairs, corpus_name, metric, keys)
                ).items():
                    i = group.index[(group["team"] == k[0]) & (group["run"] == k[1])][0]
                    board.at[i, f"{prefix}_group"] = g
                    board.at[i, f"{prefix}_ranks"] = rank
        views = self.views()
        for view, prefix in OPTIONAL_SCORES:
            if view not in views:
                continue
            extra = self.frame(f"SELECT * FROM {view} WHERE {self.where}")
            if not set(KEYS) <= set(extra.columns):
                continue
            if extra.duplicated(list(KEYS)).any():
                notes.append(f"{view} has several rows per submission: see the view itself.")
                continue
            described = {c: d for c, _, d in self.wh.columns(view)}
            numeric = [
                c
                for c in extra.columns
                if c not in KEYS
                and pd.api.types.is_numeric_dtype(extra[c])
                and not pd.api.types.is_bool_dtype(extra[c])
                and c not in ("sentences", "position")
            ]
            for c in extra.columns:
                if (
                    c not in KEYS
                    and pd.api.types.is_string_dtype(extra[c])
                    and ("configuration" in c or "signature" in c)
                    and not c.endswith("_id")
                ):  # an id's text is in configurations, listed from the leaderboard
                    self.configurations |= {f"{view}.{c}: {v}" for v in extra[c].dropna().unique()}
            board = board.merge(
                extra[list(KEYS) + numeric].rename(columns={c: f"{view}.{c}" for c in numeric}),
                on=list(KEYS),
                how="left",
            )
            cols += [Col(f"{view}.{c}", f"{prefix} {c}", described.get(c) or f"{view}.{c}") for c in numeric]
        if board["judged_sentences"].fillna(0).sum() > 0:
            cols += [
                Col("mean_fluency_z", "fluency (z)", "mean of sentence fluency z-scores"),
                Col("mean_adequacy_z", "adequacy (z)", "mean of sentence adequacy z-scores"),
                Col("judged_sentences", "judged sentences"),
            ]
        if board["missing_sentences"].sum() > 0:
            cols.insert(4, Col("missing_sentences", "missing", "reference sentences with no output (scored as empty)"))
        self.board = board
        return (
            table(board, cols, "leaderboard", latex=self.caption("Leaderboard"), configurations=self.configurations)
            + self.ranked_scores(),
            notes,
        )

    def ranked_scores(self) -> str:
        """Every ranked score with its bootstrap interval, significance group and rank range."""
        intervals = self.frame(f"""SELECT corpus, team, run, metric, value, low, high, configuration FROM score_intervals
                                   WHERE kind = 'submission' AND {self.where}""")
        self.configurations |= set(intervals["configuration"])
        frame = ranks.ranked(intervals, self.pairs, self.subs, RANKED)
        cols = [
            Col("corpus", "corpus"),
            Col("metric", "metric"),
            Col("team", "team"),
            Col("run", "run"),
            Col("value", "score"),
            Col(
                "low",
                "CI low",
                "95% bootstrap interval, reference sentences resampled "
                "(sacreBLEU: its own, mean +- half the 2.5-97.5 percentile range)",
            ),
            Col("high", "CI high", "upper bound of the same interval"),
            Col("group", "group", f"significance group ({self.test}, Holm)"),
            Col("ranks", "rank", "rank range: 1 + significantly better .. n - significantly worse"),
        ]
        return "<h3>Every ranked score with its uncertainty</h3>" + table(
            frame,
            cols,
            "ranks",
            empty="No interval: run `evalhouse analyze`.",
            latex=self.caption("Every ranked score with its 95% bootstrap interval"),
            configurations=set(intervals["configuration"]),
        )

    # --- correlations ----------------------------------------------------------------------------
    def correlations(self, fig_dir: Path) -> str:
        pairs = self.con.execute(
            f"""SELECT metric_a, metric_b, median(rho), count(*),
                                            avg(CASE WHEN significant THEN 1.0 ELSE 0.0 END),
                                            any_value(configuration)
                                     FROM metric_correlations WHERE {self.where} GROUP BY ALL ORDER BY ALL""",
            self.params,
        ).fetchall()
        present = [m for m in METRICS if any(m in (a, b) for a, b, *_ in pairs)]
        index = {m: i for i, m in enumerate(present)}
        n = len(present)
        matrix = np.full((n, n), np.nan)
        crossed = np.zeros((n, n), dtype=bool)
        for a, b, rho, _, share, configuration in pairs:
            self.configurations.add(configuration)
            for i, j in ((index[a], index[b]), (index[b], index[a])):
                matrix[i, j] = rho
                crossed[i, j] = share < 0.5
        np.fill_diagonal(matrix, 1.0)
        labels = [LABELS[m] for m in present]
        fig = partial(figures.correlation_heatmap, matrix, crossed, labels, len(self.subs))
        image = self.figure(
            fig,
            fig_dir,
            "correlations",
            "Spearman correlations between sentence metrics (Shimorina et al. 2021, Figure 2)",
        )
        rows = pd.DataFrame([{"metric": labels[i], **{labels[j]: matrix[i, j] for j in range(n)}} for i in range(n)])
        cols = [Col("metric", "")] + [Col(lab, lab, digits=2) for lab in labels]
        return image + table(rows, cols, "correlations")

    def figure(self, fig, fig_dir: Path, name: str, alt: str) -> str:
        """The page's figure (7 in) and its files; ``fig`` is a Figure, or a function of the width that draws
        it (a ``partial`` of a function of :mod:`figures`), which is drawn at every width of
        :data:`figures.WIDTHS` (``figures/single/NAME.*``: one column, 3.3 in)."""
        drawn = {"": fig} if isinstance(fig, Figure) else {d: fig(width=w) for d, w in figures.WIDTHS.items()}
        data = figures.save(drawn[""], fig_dir, name)
        caption = f"{_esc(alt)}. Files beside this page: " + " ".join(
            f"<a href='figures/{name}.{fmt}'>{fmt.upper()}</a>" for fmt in figures.FORMATS
        )
        for folder, other in drawn.items():
            if folder:
                figures.save(other, fig_dir / folder, name)
                caption += f"; for one column ({figures.WIDTHS[folder]:g} in): " + " ".join(
                    f"<a href='figures/{folder}/{name}.{fmt}'>{fmt.upper()}</a>" for fmt in figures.FORMATS
                )
        return (
            f"<figure><img class='fig' src='{figures.data_uri(data['svg'], 'svg')}' alt='{_esc(alt)}'>"
            f"<figcaption>{caption}.</figcaption></figure>"
        )

    # --- DEA by relation -----------------------------------------------------------------------
    def dea_by_relation(self, fig_dir: Path) -> str:
        frame = self.frame(f"""SELECT d.team, d.run, d.corpus, d.relation, d.edges, d.matched, d.accuracy,
                                      i.low, i.high, i.configuration
                               FROM dea_by_relation AS d
                               LEFT JOIN dea_relation_intervals AS i USING (team, run, corpus, relation)
                               WHERE {self.selected.where("d.")[0]}
                               ORDER BY d.relation, d.team, d.run, d.corpus""")
        self.configurations |= set(frame["configuration"].dropna())
        level = next((float(_parse(c, "level")) for c in frame["configuration"].dropna() if _parse(c, "level")), None)
        self.relations = sorted(frame["relation"].unique())
        pooled = frame.groupby("relation")[["matched", "edges"]].sum()
        pooled["accuracy"] = pooled["matched"] / pooled["edges"]  # over the submissions: the rows' order
        # a relation's reference edges, counted once per corpus (every submission of a corpus has the same)
        pooled["edges"] = frame.drop_duplicates(["corpus", "relation"]).groupby("relation")["edges"].sum()
        shown = pooled.sort_values("edges", ascending=False).head(FIGURE_RELATIONS).sort_values(["accuracy", "edges"])
        ranked = self.board.sort_values("dea", ascending=False)
        systems = [tuple(k) for k in ranked[list(KEYS)].itertuples(index=False)][:FIGURE_SYSTEMS]
        cube = {name: np.full((len(shown), len(systems)), np.nan) for name in ("accuracy", "low", "high")}
        rel_index = {r: i for i, r in enumerate(shown.index)}
        sys_index = {s: k for k, s in enumerate(systems)}
        for row in frame.itertuples():
            i, k = rel_index.get(row.relation), sys_index.get((row.team, row.run, row.corpus))
            if i is not None and k is not None:
                for name in cube:
                    v = getattr(row, name)
                    cube[name][i, k] = np.nan if v is None or pd.isna(v) else v
        fig = partial(
            figures.dea_by_relation,
            list(shown.index),
            [int(e) for e in shown["edges"]],
            [self.label(*s) for s in systems],
            cube["accuracy"],
            cube["low"],
            cube["high"],
            level,
        )
        note = []
        if len(pooled) > len(shown):
            note.append(f"the {len(shown)} relations with most reference edges")
        if len(self.subs) > len(systems):
            note.append(f"the {len(systems)} submissions with the highest pooled DEA")
        image = self.figure(
            fig,
            fig_dir,
            "dea_by_relation",
            "DEA by relation and submission" + (f" ({'; '.join(note)}; the table has all)" if note else ""),
        )
        cols = [
            Col("relation", "relation"),
            Col("team", "team"),
            Col("run", "run"),
            Col("corpus", "corpus"),
            Col("edges", "edges", "reference edges with this relation"),
            Col("matched", "matched"),
            Col("accuracy", "DEA"),
            Col(
                "low",
                "CI low",
                f"lower bound of the {level or 0.95:.0%} percentile bootstrap interval (sentences resampled)",
            ),
            Col("high", "CI high", "upper bound of the same interval"),
        ]
        # the paper's table: a row per relation (hardest first, as in the figure), a column per submission
        ranked_all = [tuple(k) for k in ranked[list(KEYS)].itertuples(index=False)]
        by_system = frame.assign(
            system=[self.label(t, r, c) for t, r, c in frame[list(KEYS)].itertuples(index=False)],
            edges=frame["relation"].map(pooled["edges"]),
        )
        by_system = by_system.set_index("relation").loc[pooled.sort_values(["accuracy", "edges"]).index].reset_index()
        code = tex.pivot(
            by_system,
            [Col("relation", "relation"), Col("edges", "edges")],
            [(self.label(*k), self.label(*k)) for k in ranked_all],
            "accuracy",
            "DEA",
            3,
            self.caption("Dependency edge accuracy (DEA) by relation, hardest first,", groups=False)
            + f" Edges: reference edges of the relation. {level or 0.95:.0%} bootstrap intervals: "
            "the report's table and the view dea_relation_intervals.",
            "tab:dea-relations",
            frame["configuration"].dropna(),
        )
        return (
            image
            + table(
                frame,
                cols,
                "dea-relations",
                links=lambda row: self.example_link("rel", (row["team"], row["run"], row["corpus"]), row["relation"]),
            )
            + tex.toggle(code)
        )

    def example_link(self, kind: str, sub, item: str, view: str = "") -> str:
        if not self.examples or sub not in self.index:
            return ""
        return (
            f"<a href='#examples' class='ex' data-kind='{kind}' data-sub='{self.index[sub]}' "
            f"data-view='{_esc(view)}' data-item='{_esc(item)}'>show</a>"
        )

    # --- buckets --------------------------------------------------------------------------------
    def buckets(self, fig_dir: Path) -> str:
        frame = self.frame(f"""SELECT s.team, s.run, s.corpus, c.length, c.depth, c.mean_dependency_distance,
                                      s.bleu, s.edges, s.matched_edges
                               FROM sentence_scores AS s JOIN sentence_complexity AS c USING (corpus, position)
                               WHERE {self.selected.where("s.")[0]} AND c.length > 0
                               ORDER BY s.team, s.run, s.corpus, s.position""")  # sums in one order: same bits
        rows = []
        values = {}
        panels = []
        systems = [tuple(k) for k in self.board.sort_values("dea", ascending=False)[list(KEYS)].itertuples(index=False)]
        systems = systems[:FIGURE_SYSTEMS]
        for column, title, bounds, labels in BUCKETS:
            panels.append((title, labels))
            cut = pd.cut(frame[column].astype(float), [-math.inf] + bounds, labels=labels, right=True)
            grouped = (
                frame.assign(bucket=cut)
                .groupby(["team", "run", "corpus", "bucket"], observed=True)
                .agg(
                    sentences=("bleu", "size"),
                    mean_bleu=("bleu", "mean"),
                    edges=("edges", "sum"),
                    matched=("matched_edges", "sum"),
                )
                .reset_index()
            )
            grouped["dea"] = grouped["matched"] / grouped["edges"].where(grouped["edges"] > 0)
            for g in grouped.itertuples():
                rows.append(
                    {
                        "property": title,
                        "bucket": g.bucket,
                        "team": g.team,
                        "run": g.run,
                        "corpus": g.corpus,
                        "sentences": int(g.sentences),
                        "edges": int(g.edges),
                        "mean_bleu": g.mean_bleu,
                        "dea": g.dea,
                    }
                )
            for s in systems:
                mine = grouped[(grouped["team"] == s[0]) & (grouped["run"] == s[1]) & (grouped["corpus"] == s[2])]
                by = dict(zip(mine["bucket"], zip(mine["mean_bleu"], mine["dea"])))
                values[(title, "bleu", self.label(*s))] = [by.get(b, (np.nan, np.nan))[0] for b in labels]
                values[(title, "dea", self.label(*s))] = [by.get(b, (np.nan, np.nan))[1] for b in labels]
        fig = partial(
            figures.buckets,
            panels,
            [("bleu", "mean sentence BLEU"), ("dea", "DEA (pooled)")],
            [self.label(*s) for s in systems],
            values,
        )
        image = self.figure(
            fig,
            fig_dir,
            "buckets",
            "Mean sentence BLEU and pooled DEA by bucket of the reference "
            "tree's length, depth and mean dependency distance",
        )
        cols = [
            Col("property", "property"),
            Col("bucket", "bucket"),
            Col("team", "team"),
            Col("run", "run"),
            Col("corpus", "corpus"),
            Col("sentences", "sentences"),
            Col("edges", "edges"),
            Col("mean_bleu", "BLEU (mean sentence)"),
            Col("dea", "DEA (pooled)"),
        ]
        return image + table(pd.DataFrame(rows), cols, "buckets")

    # --- projectivity, mining, significance, entropy, ensemble ---------------------------------------
    def projectivity(self) -> str:
        frame = self.frame(f"""SELECT team, run, corpus, metric, median_projective, median_nonprojective,
                                      n_projective, n_nonprojective, u, p, nonprojective_share, configuration
                               FROM projectivity_tests WHERE {self.where} ORDER BY ALL""")
        self.configurations |= set(frame["configuration"])
        threshold = self.con.execute(
            f"""SELECT corpus, nonprojective_pct FROM corpus_complexity
                                         WHERE corpus IN (SELECT corpus FROM submissions WHERE {self.where})
                                         ORDER BY corpus""",
            self.params,
        ).fetchall()
        shares = ", ".join(f"{c}: {p:.2f}% non-projective" for c, p in threshold)
        cols = [
            Col("team", "team"),
            Col("run", "run"),
            Col("corpus", "corpus"),
            Col("metric", "metric"),
            Col("median_projective", "median (projective)"),
            Col("median_nonprojective", "median (non-projective)"),
            Col("n_projective", "n projective"),
            Col("n_nonprojective", "n non-projective"),
            Col("u", "U", "Mann-Whitney U of the projective sample"),
            Col("p", "p", "two-sided"),
        ]
        return table(
            frame,
            cols,
            "projectivity",
            empty=(
                f"No corpus of the selection is above the non-projectivity threshold of `analyze` "
                f"(--nonprojective-threshold; {shares})."
            ),
        )

    def mining(self) -> str:
        frame = self.frame(f"""SELECT team, run, corpus, view, rank, form, c_f, c_f_fail, score, selected, configuration
                               FROM suspicious_subtrees WHERE {self.where} AND rank <= {TOP_FORMS}
                               ORDER BY view, team, run, corpus, rank""")
        self.configurations |= set(frame["configuration"])
        self.forms = frame
        overall = self.frame(f"""WITH per_form AS (
                                     SELECT view, form, count(*) FILTER (WHERE selected) AS selected_in,
                                            count(*) AS submissions, avg(score) AS mean_score, min(rank) AS best_rank
                                     FROM suspicious_subtrees WHERE {self.where} GROUP BY view, form
                                 ), ranked AS (
                                     SELECT *, row_number() OVER (PARTITION BY view
                                                                  ORDER BY selected_in DESC, round(mean_score, 9) DESC, form) AS k
                                     FROM per_form
                                 )
                                 SELECT view, form, selected_in, submissions, mean_score, best_rank FROM ranked
                                 WHERE k <= {TOP_FORMS} ORDER BY view, k""")
        # (mean_score rounded in the ranking: equal means can differ in their last bit between runs, and the
        # form, not that bit, must break the tie; docs/engines-and-bi.md#floats-from-one-run-to-the-next)
        cols = [
            Col("view", "view"),
            Col("team", "team"),
            Col("run", "run"),
            Col("corpus", "corpus"),
            Col("rank", "rank"),
            Col("form", "form"),
            Col("c_f", "sentences with form"),
            Col("c_f_fail", "failures with form"),
            Col("score", "suspicion"),
        ]
        per_sub = table(
            frame,
            cols,
            "subtrees",
            links=lambda row: self.example_link(
                "form", (row["team"], row["run"], row["corpus"]), row["form"], row["view"]
            ),
        )
        cols = [
            Col("view", "view"),
            Col("form", "form"),
            Col("selected_in", "top-k in", "submissions in which the form is among the top_k"),
            Col("submissions", "stored for"),
            Col("mean_score", "mean suspicion"),
            Col("best_rank", "best rank"),
        ]
        return per_sub + "<h3>Across the selected submissions</h3>" + table(overall, cols, "subtrees-overall")

    def judgements(self) -> str:
        frame = self.frame(f"""SELECT team, run, corpus, metric, judgement, n, r, p_r_holm, significant_r, rho,
                                      p_rho_holm, significant_rho, configuration
                               FROM judgement_correlations WHERE {self.where} ORDER BY ALL""")
        self.configurations |= set(frame["configuration"])
        cols = [
            Col("team", "team"),
            Col("run", "run"),
            Col("corpus", "corpus"),
            Col("metric", "accuracy"),
            Col("judgement", "judgement"),
            Col("n", "n"),
            Col("r", "Pearson r"),
            Col("p_r_holm", "p (Holm)"),
            Col("significant_r", "significant"),
            Col("rho", "Spearman ρ"),
            Col("p_rho_holm", "p (Holm)", "of ρ"),
            Col("significant_rho", "significant", "ρ"),
        ]
        return table(frame, cols, "judgements", empty="No human judgements of the selected submissions.")

    def significance(self) -> str:
        where, params = self.selected.where_pair()
        frame = self.frame(
            f"""SELECT corpus, metric, test, team_a, run_a, team_b, run_b, n, value_a, value_b, delta,
                                      p, p_holm, significant
                               FROM score_significance WHERE kind = 'submission' AND {where} ORDER BY ALL""",
            params,
        )
        frame = frame.rename(columns={"team_a": "team"})
        cols = [
            Col("corpus", "corpus"),
            Col("metric", "metric"),
            Col("test", "test"),
            Col("team", "team a"),
            Col("run_a", "run a"),
            Col("team_b", "team b"),
            Col("run_b", "run b"),
            Col("n", "n"),
            Col("value_a", "a"),
            Col("value_b", "b"),
            Col("delta", "a - b"),
            Col("p", "p"),
            Col("p_holm", "p (Holm)"),
            Col("significant", "significant"),
        ]
        return table(frame, cols, "significance", empty="Fewer than two submissions on a corpus.")

    def entropy(self) -> str:
        frame = self.frame(
            f"SELECT team, run, corpus, relations, rho, p, configuration FROM entropy_dea_correlation "
            f"WHERE {self.where} ORDER BY ALL"
        )
        self.configurations |= set(frame["configuration"])
        return table(
            frame,
            [
                Col("team", "team"),
                Col("run", "run"),
                Col("corpus", "corpus"),
                Col("relations", "relations"),
                Col("rho", "Spearman ρ"),
                Col("p", "p"),
            ],
            "entropy",
        )

    def ensemble(self) -> str:
        frame = self.frame(f"""SELECT corpus, system, team, run, sentences, mean_bleu, dea, configuration FROM ensemble_scores
                               WHERE corpus IN (SELECT corpus FROM submissions WHERE {self.where}) ORDER BY ALL""")
        self.configurations |= set(frame["configuration"])
        return table(
            frame,
            [
                Col("corpus", "corpus"),
                Col("system", "system"),
                Col("team", "team"),
                Col("run", "run"),
                Col("sentences", "sentences"),
                Col("mean_bleu", "BLEU (mean sentence)"),
                Col("dea", "DEA (pooled)"),
            ],
            "ensemble",
        )

    # --- examples -------------------------------------------------------------------------------
    def example_data(self) -> dict:
        """The sentences the drill-down shows, as JSON for the page's script (see the module docstring)."""
        data = {"subs": [list(s) for s in self.subs], "sent": {}, "out": {}, "rel": [], "form": []}
        if not self.examples:
            return data
        k = int(self.examples)
        rel = self.frame(f"""
            WITH failed AS (
                SELECT team, run, corpus, relation, position, count(*) AS failed
                FROM dea_edges WHERE NOT matched AND {self.where} GROUP BY ALL
            ), ranked AS (
                SELECT f.*, row_number() OVER (PARTITION BY f.team, f.run, f.corpus, f.relation
                                               ORDER BY c.length < 5, abs(c.length - {EXAMPLE_LENGTH}), f.position) AS k
                FROM failed AS f JOIN sentence_complexity AS c USING (corpus, position)
            )
            SELECT team, run, corpus, relation, position FROM ranked WHERE k <= {k} ORDER BY ALL""")
        wanted: set[tuple] = set()
        for (team, run, corpus, relation), g in rel.groupby(["team", "run", "corpus", "relation"], sort=True):
            sub = self.index[(team, run, corpus)]
            data["rel"].append([sub, relation, [int(p) for p in g["position"]]])
            wanted |= {(team, run, corpus, int(p)) for p in g["position"]}
        forms = self.forms
        for corpus in self.corpora:
            mine = forms[forms["corpus"] == corpus]
            if not len(mine):
                continue
            tree = self.frame(
                """SELECT position, dependent, head, relation, dependent_upos, dependent_lemma FROM edges
                                 WHERE corpus = $c ORDER BY position, dependent""",
                {"c": corpus},
            )
            needed = {v: set(g["form"]) for v, g in mine.groupby("view")}
            max_size = max(int(_parse(c, "max_size") or 3) for c in mine["configuration"])
            # the enumeration of the mining that found the forms: root excluded unless recorded otherwise
            exclude_root = all(_parse(c, "root") == "excluded" for c in mine["configuration"])
            occurs: dict[tuple[str, str], dict[int, list[int]]] = {}
            for position, g in tree.groupby("position", sort=True):
                args = (
                    g["head"].tolist(),
                    g["relation"].tolist(),
                    g["dependent_upos"].tolist(),
                    g["dependent_lemma"].tolist(),
                )
                for view, names in needed.items():
                    for form, node_sets in mining.form_occurrences(*args, view, names, max_size, exclude_root).items():
                        occurs.setdefault((view, form), {})[int(position)] = sorted(
                            {n + 1 for s in node_sets for n in s}
                        )
            metric = {c: _parse(c, "failure") or "bleu" for c in mine["configuration"]}
            for (team, run), g in mine.groupby(["team", "run"], sort=True):
                failure = metric[g["configuration"].iloc[0]]
                column = failure if failure in ("bleu", "dea", "fluency_z", "adequacy_z") else "bleu"
                scores = dict(
                    self.con.execute(
                        f"SELECT position, {column} FROM sentence_scores WHERE team = $t AND run = $r AND corpus = $c",
                        {"t": team, "r": run, "c": corpus},
                    ).fetchall()
                )
                sub = self.index[(team, run, corpus)]
                for row in g.itertuples():
                    found = occurs.get((row.view, row.form), {})
                    order = sorted(found, key=lambda p: (math.inf if scores.get(p) is None else scores[p], p))[:k]
                    data["form"].append([sub, row.view, row.form, [[p, found[p]] for p in order]])
                    wanted |= {(team, run, corpus, p) for p in order}
        if not wanted:
            return data
        keys = pd.DataFrame(sorted(wanted), columns=["team", "run", "corpus", "position"])
        self.con.register("eh_report_examples", keys)
        try:
            refs = self.con.execute("""
                SELECT e.corpus, e.position, s.sent_id, s.text, e.dependent, e.head, e.deprel, n.form, e.dependent_id
                FROM edges AS e
                JOIN sentences AS s USING (corpus, position)
                JOIN nodes AS n ON n.corpus = e.corpus AND n.position = e.position AND n.id = e.dependent_id
                WHERE (e.corpus, e.position) IN (SELECT DISTINCT corpus, position FROM eh_report_examples)
                ORDER BY e.corpus, e.position, e.dependent""").df()
            tokens = self.con.execute("""
                SELECT t.team, t.run, t.corpus, t.position, t.token, t.form, t.punct, a.to_index
                FROM output_tokens AS t JOIN eh_report_examples USING (team, run, corpus, position)
                LEFT JOIN alignments AS a ON a.pair = 'output-reference' AND a.team = t.team AND a.run = t.run
                     AND a.corpus = t.corpus AND a.position = t.position AND a.from_index = t.token
                ORDER BY t.team, t.run, t.corpus, t.position, t.token""").df()
            matched = self.con.execute("""
                SELECT d.team, d.run, d.corpus, d.position, d.dependent, d.matched
                FROM dea_edges AS d JOIN eh_report_examples USING (team, run, corpus, position)""").df()
            scores = self.con.execute("""
                SELECT s.team, s.run, s.corpus, s.position, s.bleu, s.dea, s.missing
                FROM sentence_scores AS s JOIN eh_report_examples USING (team, run, corpus, position)
                ORDER BY s.team, s.run, s.corpus, s.position""").df()
        finally:
            self.con.unregister("eh_report_examples")
        node_to_word: dict[tuple[str, int], dict[int, int]] = {}
        for (corpus, position), g in refs.groupby(["corpus", "position"], sort=True):
            first = g.iloc[0]
            data["sent"][f"{corpus}\t{position}"] = {
                "id": first["sent_id"],
                "text": first["text"],
                "w": g["form"].tolist(),
                "h": [int(h) for h in g["head"]],
                "r": g["deprel"].tolist(),
            }
            node_to_word[(corpus, int(position))] = dict(zip(g["dependent_id"].astype(int), g["dependent"].astype(int)))
        match = {
            (t, r, c, int(p)): dict(zip(g["dependent"].astype(int), g["matched"].astype(bool)))
            for (t, r, c, p), g in matched.groupby(["team", "run", "corpus", "position"])
        }
        toks = {key: g for key, g in tokens.groupby(["team", "run", "corpus", "position"])}
        for row in scores.itertuples():
            key = (row.team, row.run, row.corpus, int(row.position))
            words = node_to_word.get((row.corpus, int(row.position)), {})
            g = toks.get(key)
            m = match.get(key, {})
            sent = data["sent"].get(f"{row.corpus}\t{int(row.position)}")
            n = len(sent["w"]) if sent else 0
            data["out"][f"{self.index[key[:3]]}\t{row.corpus}\t{int(row.position)}"] = {
                "t": [] if g is None else g["form"].tolist(),
                "p": [] if g is None else [bool(x) for x in g["punct"]],
                "a": [] if g is None else [0 if pd.isna(x) else words.get(int(x), 0) for x in g["to_index"]],
                "m": [None if d not in m else (1 if m[d] else 0) for d in range(1, n + 1)],
                "bleu": _clean(row.bleu),
                "dea": _clean(row.dea),
                "missing": bool(row.missing),
            }
        self.example_count = len(data["out"])
        return data

    # --- the page --------------------------------------------------------------------------------
    def output_sections(self, fig_dir: Path) -> list[tuple[str, str, str]]:
        """The sections on system outputs (submissions)."""
        leaderboard, notes = self.leaderboard()
        return [
            (
                "leaderboard",
                "Leaderboard",
                f"""<p>One row per submission, best pooled DEA first within each corpus.
<b>Groups</b> come from the paired {_esc(self.test)} tests of <code>evalhouse analyze</code> (Holm-adjusted per
corpus, metric and test): within a corpus, submissions are sorted by the score and a new group starts at the first
submission significantly worse than the best one of the current group. <b>Rank</b> is the range 1 + (submissions
significantly better) to n &minus; (submissions significantly worse). DEA groups test pooled DEA; BLEU groups test
mean sentence BLEU. The second table has every ranked score with its 95% bootstrap interval (reference sentences
resampled), group and rank range; sacreBLEU's BLEU and chrF are resampled as <code>sacrebleu --paired-bs</code>
resamples them.</p>{"".join(f'<p class="note">{_esc(n)}</p>' for n in notes)}"""
                + leaderboard,
            ),
            (
                "dea",
                "DEA by relation",
                """<p>Dependency edge accuracy (Shimorina et al. 2021, &sect;3.2) per base
relation and submission. Bars and the CI columns are percentile bootstrap intervals of each submission's DEA for the
relation, resampling sentences (<code>dea_relation_intervals</code>). <i>show</i> opens examples of failed edges.</p>"""
                + self.dea_by_relation(fig_dir),
            ),
            (
                "correlations",
                "Correlations between metrics",
                f"""<p>Spearman &rho; between sentence-level
metrics within each submission, median over the {len(self.subs)} selected; cells whose pair is significant after
Holm in fewer than half of the submissions are crossed out. Metrics without values (e.g. no human judgements) are
left out.</p>"""
                + self.correlations(fig_dir),
            ),
            (
                "buckets",
                "Scores by sentence length, depth and dependency distance",
                """<p>Sentences grouped by
properties of their reference tree (punctuation removed): mean sentence BLEU and pooled DEA of each group.</p>"""
                + self.buckets(fig_dir),
            ),
            (
                "projectivity",
                "Projective and non-projective sentences",
                """<p>Mann-Whitney U test of each score
between projective and non-projective reference trees (Shimorina et al. 2021, Table 3).</p>"""
                + self.projectivity(),
            ),
            (
                "subtrees",
                "Most suspicious subtrees",
                f"""<p>Tree error mining (Narayan &amp; Gardent 2011): the
{TOP_FORMS} highest-ranked reference subtrees of each submission in each view (dep: relations, pos: UPOS, pos-dep,
lemma). <i>show</i> opens the lowest-scoring sentences that contain the subtree, with it highlighted.</p>"""
                + self.mining(),
            ),
            (
                "judgements",
                "Accuracies and human judgements",
                """<p>Bangalore, Rambow &amp; Whittaker (2000)
&sect;4: each string and tree accuracy against the mean fluency and adequacy z-scores of the human judgements, per
submission: Pearson r (what the paper reports) beside Spearman &rho;, Holm-adjusted within the submission.</p>"""
                + self.judgements(),
            ),
            (
                "significance",
                "Significance between submissions",
                "<p>Every pair of submissions on a corpus, both tests, with Holm-adjusted p.</p>" + self.significance(),
            ),
            (
                "entropy",
                "Relation entropy and DEA",
                "<p>Spearman &rho; between a relation's word-order entropy in "
                "the corpus and its DEA (Shimorina et al. 2021, &sect;5.3).</p>" + self.entropy(),
            ),
            (
                "ensemble",
                "Ensemble",
                "<p>The relation-DEA ensemble, the best single submission and the per-sentence "
                "oracle (Shimorina et al. 2021, &sect;6).</p>" + self.ensemble(),
            ),
        ]

    def examples_section(self) -> str:
        return (
            f"""<p>Pick a submission and a relation or a suspicious subtree, or click <i>show</i> in a table.
Each example draws the reference tree (punctuation removed, as DEA sees it) above the output; the output's arcs join
the tokens aligned to the reference words. <span class="bad">Red</span>: a reference edge the output does not realise
(same lemmas at the same signed distance); grey: realised; <span class="hl">yellow</span>: the relation or subtree
asked for. Up to {self.examples} sentence(s) per submission and relation (about {EXAMPLE_LENGTH} words first) or per
subtree (the lowest-scoring first).</p>
<div class="controls"><label>submission <select id="ex-sub"></select></label>
<label>kind <select id="ex-kind"><option value="rel">relation</option><option value="form">suspicious subtree</option></select></label>
<label>item <select id="ex-item"></select></label></div><div id="ex-list"></div>"""
            if self.examples
            else "<p>Examples were left out (<code>--examples 0</code>).</p>"
        )

    def parser_examples_section(self) -> str:
        if not self.examples:
            return "<p>Examples were left out (<code>--examples 0</code>).</p>"
        return f"""<p>Pick a parser run, a breakdown and a group, or click <i>show</i> in the breakdown table. Each example
draws the gold tree above the parser's words counted in the same gold sentence. <span class="bad">Red</span> arcs:
the word's head is wrong; a red label: the head is right and the relation wrong; <span class="hl">underlined</span>:
the words of the group asked for; <span class="unaligned">purple</span> words are aligned to no word of the other
side. Up to {self.examples} sentence(s) per run and group, with a word of the group wrong (about
{EXAMPLE_LENGTH} words first).</p>
<div class="controls"><label>run <select id="px-run"></select></label>
<label>breakdown <select id="px-breakdown"></select></label>
<label>group <select id="px-grp"></select></label></div><div id="px-list"></div>"""

    def page(self, fig_dir: Path) -> str:
        sections = self.output_sections(fig_dir) if self.subs else []
        sections += self.parses.sections(fig_dir, table, Col, self.figure)
        self.configurations |= self.parses.configurations
        data = self.example_data() if self.subs else {"subs": [], "sent": {}, "out": {}, "rel": [], "form": []}
        data["parse"] = self.parses.example_data()
        if self.subs:
            sections.append(("examples", "Examples", self.examples_section()))
        if self.parses.dependency:
            sections.append(("parser-examples", "Dependency parsers: examples", self.parser_examples_section()))
        configurations = sorted(c for c in self.configurations if c)
        sections.append(
            (
                "configuration",
                "Configuration",
                "<p>Every number above was produced with these "
                "settings (the <code>configuration</code> strings stored with the scores).</p><ul>"
                + "".join(f"<li><code>{_esc(c)}</code></li>" for c in configurations)
                + "</ul>",
            )
        )
        runs = self.parses.dependency + self.parses.constituency
        teams = sorted({t for t, _, _ in self.subs + runs})
        corpora = sorted(set(self.corpora) | set(self.parses.corpora))
        relations = sorted(set(self.relations) | set(self.parses.relations))
        selects = "".join(
            f"<label>{name} <select data-filter='{name}'><option value=''>all</option>"
            + "".join(f"<option value='{_esc(v)}'>{_esc(v)}</option>" for v in values)
            + "</select></label>"
            for name, values in (("team", teams), ("corpus", corpora), ("relation", relations))
        )
        nav = "".join(f"<a href='#{sid}'>{_esc(title)}</a>" for sid, title, _ in sections)
        body = "".join(
            f"<section id='{sid}'><h2>{_esc(title)}</h2>{content}</section>" for sid, title, content in sections
        )
        title = f"evalhouse report: {self.selected.describe()}"
        subs = ", ".join(f"{t}/{r} on {c}" for t, r, c in self.subs)
        parsed = ", ".join(f"{t}/{r} on {c}" for t, r, c in runs)
        return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{_esc(title)}</title><style>{_asset("report.css")}</style></head><body>
<header><h1>{_esc(title)}</h1>
<p>{len(self.subs)} submission(s){": " + _esc(subs) if subs else ""}; {len(runs)} parser run(s){": " + _esc(parsed) if parsed else ""}. evalhouse {_esc(__version__)}.</p>
<nav>{nav}</nav></header>
<div class="controls filters">Filter tables: {selects}<label>text <input type="search" id="filter-text" placeholder="any cell"></label></div><main>{body}</main>
<script type="application/json" id="eh-data">{_json_for_script(data)}</script>
<script>{_asset("report.js")}</script>
</body></html>
"""
