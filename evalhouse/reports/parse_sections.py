"""The parser sections of ``evalhouse report``: dependency runs (every CoNLL 2018 metric with bootstrap
intervals, significance groups and rank ranges; MaltEval's breakdowns as figures and a table; the label
confusion; drill-down from any breakdown cell to sentences, the gold tree drawn above the parser's) and
constituency runs (EVALB and leaf-ancestor summaries, the ranked EVALB F, recall, precision and both leaf-ancestor
means with bootstrap intervals, significance groups and rank ranges, the decile table, the worst sentences with
both trees).

    evalhouse analyze && evalhouse report --out report/

Used by :mod:`evalhouse.reports.html`, which lays the sections out beside the system outputs' (a warehouse
of parse runs only gets a report of these sections alone). The numbers come from the views
(``dependency_scores``, ``dependency_breakdowns``, ``dependency_label_confusion``, ``parse_scores``,
``metric_deciles``, ...) and from ``score_intervals`` / ``score_significance`` (``evalhouse analyze``).
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from evalhouse.analysis.parse_eval import EvalbParams, prepare
from evalhouse.loaders.brackets import Tree, render
from evalhouse.reports import figures, ranks, tex
from evalhouse.statistics.selection import Selection
from evalhouse.version import __version__

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

# the ranked metrics: score_intervals.metric -> (dependency_scores column, title)
RANKED = {
    "las": ("las_f1", "LAS"),
    "mlas": ("mlas_f1", "MLAS"),
    "blex": ("blex_f1", "BLEX"),
    "clas": ("clas_f1", "CLAS"),
    "uas": ("uas_f1", "UAS"),
    "la": ("la_gold_mean", "dependency LA"),
}
# the ranked metrics of constituency runs: score_intervals.metric (a parse_scores column) -> title
CONSTITUENCY_RANKED = {
    "labelled_f": "LF",
    "labelled_recall": "LR",
    "labelled_precision": "LP",
    "la_sentence_mean": "LA (sentences)",
    "la_word_mean": "LA (words)",
}
# every F1 of the official script, in its order (dependency_scores columns)
OFFICIAL = (
    ("tokens_f1", "Tokens"),
    ("sentences_f1", "Sentences"),
    ("words_f1", "Words"),
    ("upos_f1", "UPOS"),
    ("xpos_f1", "XPOS"),
    ("ufeats_f1", "UFeats"),
    ("alltags_f1", "AllTags"),
    ("lemmas_f1", "Lemmas"),
    ("uas_f1", "UAS"),
    ("las_f1", "LAS"),
    ("clas_f1", "CLAS"),
    ("mlas_f1", "MLAS"),
    ("blex_f1", "BLEX"),
)
# breakdowns drawn as lines over ordered groups, and how many of the first groups each shows
ORDERED = (
    ("arc_length", "arc length (words; 0 = root)", 12),
    ("root_distance", "distance to the root (arcs)", 10),
    ("sentence_length", "sentence length (words)", 8),
)
# breakdowns of categories, drawn as markers side by side (all their groups)
CATEGORIES = (
    ("arc_direction", "arc direction (gold words)"),
    ("projectivity", "projectivity of the arc (gold words)"),
)
RELATIONS_SHOWN = 20  # the relation figure shows the relations with most gold words; the table has them all
UPOS_SHOWN = 17  # ... and the UPOS figure the tags with most (UD has 17)
RUNS_SHOWN = 8  # ... and the best runs by LAS; the tables have them all
EXAMPLE_LENGTH = 12  # drill-down: sentences with about this many words first
WORST = 5  # constituency runs: the worst sentences by leaf-ancestor score


def _esc(value) -> str:
    return html.escape("" if value is None else str(value), quote=True)


@dataclass
class ParseSections:
    """The parse runs a :class:`Selection` picks, and the sections and drill-down data the report shows."""

    wh: Warehouse
    selected: Selection
    test: str
    examples: int
    dependency: list[tuple[str, str, str]] = field(default_factory=list)  # (team, run, corpus)
    constituency: list[tuple[str, str, str]] = field(default_factory=list)
    configurations: set = field(default_factory=set)
    relations: list[str] = field(default_factory=list)

    def __post_init__(self):
        self.dependency = self.selected.dependency_runs(self.wh)
        where, params = self.selected.where()
        self.constituency = self.selected.constituency_runs(self.wh)
        self.index = {k: i for i, k in enumerate(self.dependency)}
        self.corpora = sorted({c for _, _, c in self.dependency + self.constituency})

    def __bool__(self) -> bool:
        return bool(self.dependency or self.constituency)

    def analysed(self) -> bool:
        """Whether ``evalhouse analyze`` has written the intervals of every selected parser run."""
        for kind, runs in (("dependency run", self.dependency), ("constituency run", self.constituency)):
            if not runs:
                continue
            found = {
                tuple(r)
                for r in self.wh.sql(
                    "SELECT DISTINCT team, run, corpus FROM score_intervals WHERE kind = $kind", {"kind": kind}
                ).fetchall()
            }
            if not set(runs) <= found:
                return False
        return True

    def frame(self, query: str, params=None) -> pd.DataFrame:
        return self.wh.con.execute(query, params or {}).df()

    def dependency_where(self, prefix: str = "") -> tuple[str, dict]:
        return self.selected.where(prefix)

    # --- sections -------------------------------------------------------------------------------
    def sections(self, fig_dir: Path, table, Col, figure) -> list[tuple[str, str, str]]:
        """(id, title, HTML) of each section; ``table``, ``Col`` and ``figure`` are the page's helpers."""
        self.table, self.Col, self.figure = table, Col, figure
        out = []
        if self.dependency:
            out += [
                ("parsers", "Dependency parsers", self.dependency_leaderboard(fig_dir)),
                ("parser-breakdowns", "Dependency parsers: MaltEval's breakdowns", self.breakdowns(fig_dir)),
                ("parser-confusion", "Dependency parsers: label confusion", self.confusion()),
                ("parser-significance", "Dependency parsers: significance", self.significance()),
            ]
        if self.constituency:
            out.append(("constituency", "Constituency parsers", self.constituency_sections()))
        return out

    def dependency_leaderboard(self, fig_dir: Path) -> str:
        where, params = self.dependency_where()
        scores = self.frame(
            f"SELECT * FROM dependency_scores WHERE {where} ORDER BY corpus, las_f1 DESC, team, run", params
        )
        self.configurations |= set(scores["config"])
        self.scoring = set(scores["config"])  # how the runs were scored: the breakdowns' configuration
        intervals = self.frame(
            f"""SELECT corpus, team, run, metric, value, low, high, configuration FROM score_intervals
                                   WHERE kind = 'dependency run' AND {where}""",
            params,
        )
        self.configurations |= set(intervals["configuration"])
        pairs = self.frame(
            """SELECT corpus, metric, team_a, run_a, team_b, run_b, delta, significant, configuration
                              FROM score_significance WHERE kind = 'dependency run' AND test = $test""",
            {"test": self.test},
        )
        self.configurations |= set(pairs["configuration"])
        ranked = ranks.ranked(intervals, pairs, self.dependency, {m: (title, 100) for m, (_, title) in RANKED.items()})
        self.las = {(t, r, c): v for t, r, c, v in scores[["team", "run", "corpus", "las_f1"]].itertuples(index=False)}
        board = scores.copy()
        for column, _ in OFFICIAL:
            board[column] = 100 * board[column]
        cols = (
            [
                self.Col("team", "team"),
                self.Col("run", "run"),
                self.Col("corpus", "corpus"),
                self.Col("gold_words", "gold words"),
            ]
            + [self.Col(c, t, f"CoNLL 2018 {t} F1 (%), conll18_ud_eval.py 1.2", 2) for c, t in OFFICIAL]
            + [self.Col("la_gold_mean", "dep. LA", "dependency leaf-ancestor score, mean over gold words (0-1)", 4)]
        )
        level = next(
            (c.split("level:", 1)[1].split("|")[0] for c in intervals["configuration"] if "level:" in c), "0.95"
        )
        image = self.figure(
            partial(
                figures.parser_scores,
                [f"{t}/{r}" + (f" on {c}" if len(self.corpora) > 1 else "") for t, r, c in self._best_runs()],
                [RANKED[m][1] for m in RANKED],
                self._interval_cube(intervals),
            ),
            fig_dir,
            "parser_scores",
            f"CoNLL 2018 scores and dependency LA of the parsers, with {float(level):.0%} bootstrap intervals",
        )
        rank_cols = [
            self.Col("corpus", "corpus"),
            self.Col("metric", "metric"),
            self.Col("team", "team"),
            self.Col("run", "run"),
            self.Col("value", "score (%)", "F1 (%; dependency LA x 100)", 2),
            self.Col("low", "CI low", f"{float(level):.0%} percentile bootstrap interval, gold sentences resampled", 2),
            self.Col("high", "CI high", "upper bound of the same interval", 2),
            self.Col("group", "group", f"significance group ({self.test}, Holm)"),
            self.Col("ranks", "rank", "rank range: 1 + significantly better .. n - significantly worse"),
        ]
        return (
            f"""<p>Every metric of the official CoNLL 2018 evaluation (<code>conll18_ud_eval.py</code> 1.2, its
figures to the last digit), one row per parser run, best LAS first within each corpus; dependency LA is the
leaf-ancestor metric of Sampson &amp; Babarczy (2003) on dependency trees. Below, the ranked metrics with their
bootstrap intervals (gold sentences resampled), significance <b>groups</b> and <b>rank</b> ranges from the paired
{_esc(self.test)} tests of <code>evalhouse analyze</code> (Holm-adjusted per corpus, metric and test).</p>"""
            + self.table(
                board,
                cols,
                "parsers",
                latex=self.caption("CoNLL 2018 scores (F1, %) of the dependency parsers, best LAS first,", False),
                configurations=scores["config"],
            )
            + image
            + self.table(
                ranked,
                rank_cols,
                "parser-ranks",
                latex=self.caption(
                    f"Ranked scores of the dependency parsers with {float(level):.0%} bootstrap intervals (gold "
                    "sentences resampled),"
                ),
                configurations=set(intervals["configuration"]) | set(pairs["configuration"]),
            )
        )

    def caption(self, what: str, groups: bool = True) -> str:
        """The caption of a LaTeX table of the dependency runs: what it shows, on which corpora, which test."""
        return f"{what} on {', '.join(sorted({c for _, _, c in self.dependency}))} (evalhouse {__version__}" + (
            f"; significance groups and rank ranges from paired {self.test} tests, Holm-adjusted)." if groups else ")."
        )

    def _best_runs(self) -> list[tuple[str, str, str]]:
        return sorted(self.dependency, key=lambda k: (-self.las.get(k, 0), k))[:RUNS_SHOWN]

    def _interval_cube(self, intervals: pd.DataFrame) -> dict:
        runs = self._best_runs()
        cube = {name: np.full((len(RANKED), len(runs)), np.nan) for name in ("value", "low", "high")}
        where = {k: i for i, k in enumerate(runs)}
        metric_index = {m: i for i, m in enumerate(RANKED)}
        for r in intervals.itertuples():
            k, m = where.get((r.team, r.run, r.corpus)), metric_index.get(r.metric)
            if k is None or m is None:
                continue
            for name in cube:
                v = getattr(r, name)
                cube[name][m, k] = np.nan if v is None or pd.isna(v) else 100 * v
        return cube

    def breakdowns(self, fig_dir: Path) -> str:
        where, params = self.dependency_where()
        frame = self.frame(
            f"""SELECT corpus, team, run, breakdown, grp, grp_order, gold_words, system_words,
                                      las_precision, las_recall, las_f1, uas_f1, label_f1, la_gold_mean
                               FROM dependency_breakdowns WHERE {where}
                               ORDER BY corpus, team, run, ordinal, grp_order NULLS LAST, grp""",
            params,
        )
        runs = self._best_runs()
        labels = [f"{t}/{r}" + (f" on {c}" if len(self.corpora) > 1 else "") for t, r, c in runs]

        def las(part: pd.DataFrame, groups: list[str]) -> dict[str, list[float]]:
            """Run label -> LAS F1 of each group (NaN where the view has none: no word, or P + R = 0)."""
            series = {}
            for k, key in enumerate(runs):
                mine = part[(part["team"] == key[0]) & (part["run"] == key[1]) & (part["corpus"] == key[2])]
                got = dict(zip(mine["grp"], mine["las_f1"]))
                series[labels[k]] = [
                    float("nan") if got.get(g) is None or pd.isna(got.get(g)) else float(got[g]) for g in groups
                ]
            return series

        def gold_words(part: pd.DataFrame) -> pd.Series:
            """A group's gold words, counted once per corpus (every run of a corpus has the same gold)."""
            return part.drop_duplicates(["corpus", "grp"]).groupby("grp")["gold_words"].sum()

        def ordered(name: str, first: int | None = None) -> tuple[pd.DataFrame, list[str]]:
            part = frame[frame["breakdown"] == name]
            return part, part.drop_duplicates("grp").sort_values(["grp_order", "grp"])["grp"].tolist()[:first]

        panels = []
        for name, title, first in ORDERED:
            part, order = ordered(name, first)
            panels.append((title, ["0" if g == "root" else g for g in order], las(part, order)))
        image = self.figure(
            partial(figures.breakdown_panels, panels, "LAS F1"),
            fig_dir,
            "parser_breakdowns",
            "LAS F1 by arc length, distance to the root and sentence length (MaltEval's breakdowns)",
        )
        panels = []
        for name, title in CATEGORIES:
            part, order = ordered(name)
            counts = gold_words(part)
            panels.append((title, [f"{g}\n({int(counts[g]):,})" for g in order], las(part, order)))
        image += self.figure(
            partial(figures.breakdown_panels, panels, "LAS F1", joined=False),
            fig_dir,
            "parser_arcs",
            "LAS F1 by arc direction and by projectivity of the arc (MaltEval's breakdowns; gold words in parentheses)",
        )
        relations = frame[frame["breakdown"] == "relation"]
        self.relations = sorted(relations["grp"].unique())
        for name, what, shown_at_most, file, caption in (
            ("relation", "relation", RELATIONS_SHOWN, "parser_relations", "the {n} relations with most gold words"),
            (
                "upos",
                "UPOS",
                UPOS_SHOWN,
                "parser_upos",
                "the {n} tags with most gold words (recall groups the gold words by their gold tag, precision the "
                "system words by the parser's; each word of a multiword token has its own tag)",
            ),
        ):
            part = frame[frame["breakdown"] == name]
            counts = gold_words(part)
            shown = counts.sort_values(ascending=False, kind="stable").head(shown_at_most).index.tolist()
            series = las(part, shown)
            values = np.array([series[label] for label in labels], dtype=float).T.reshape(len(shown), len(runs))
            image += self.figure(
                partial(figures.group_dots, what, shown, [int(counts[g]) for g in shown], labels, values),
                fig_dir,
                file,
                f"LAS F1 by {what}, " + caption.format(n=len(shown)),
            )
        cols = [
            self.Col("team", "team"),
            self.Col("run", "run"),
            self.Col("corpus", "corpus"),
            self.Col("breakdown", "breakdown"),
            self.Col("grp", "group"),
            self.Col("gold_words", "gold words", "gold words in the group (recall's denominator)"),
            self.Col("system_words", "system words", "system words in the group (precision's denominator)"),
            self.Col("las_precision", "LAS P"),
            self.Col("las_recall", "LAS R"),
            self.Col("las_f1", "LAS F1"),
            self.Col("uas_f1", "UAS F1"),
            self.Col("label_f1", "label F1", "relation right, whatever the head"),
            self.Col("la_gold_mean", "dep. LA", "mean dependency LA of the gold words of the group"),
        ]
        table = self.table(
            frame.assign(relation=np.where(frame["breakdown"] == "relation", frame["grp"], None)),
            cols,
            "parser-breakdowns",
            links=self.example_link,
        )
        # the paper's table: a row per breakdown and group (in MaltEval's order), a column per run (LAS F1)
        corpora = sorted({c for _, _, c in self.dependency})
        name = {k: f"{t}/{r}" + (f" on {c}" if len(corpora) > 1 else "") for k in self.dependency for t, r, c in [k]}
        ordered = sorted(self.dependency, key=lambda k: (-self.las.get(k, 0), k))
        gold = frame.groupby(["breakdown", "grp"], sort=False)["gold_words"].max()  # the same for every run of a corpus
        long = frame.assign(
            system=[name[(t, r, c)] for t, r, c in frame[["team", "run", "corpus"]].itertuples(index=False)],
            gold_words=[gold[(b, g)] for b, g in frame[["breakdown", "grp"]].itertuples(index=False)]
            if len(corpora) == 1
            else None,
        )
        table += tex.toggle(
            tex.pivot(
                long,
                [self.Col("breakdown", "breakdown"), self.Col("grp", "group")]
                + ([self.Col("gold_words", "gold words")] if len(corpora) == 1 else []),
                [(name[k], name[k]) for k in ordered],
                "las_f1",
                "LAS F1",
                3,
                self.caption("LAS F1 of the dependency parsers by group of gold words (MaltEval's breakdowns),", False),
                "tab:parser-breakdowns",
                self.scoring,
            )
        )
        return (
            """<p>UAS, LAS and label accuracy by group of words, as MaltEval groups them: recall over the gold words
of a group, precision over the system words of the group (each side by its own attribute), so the counts of a
breakdown add up to the run's totals. Runs are told apart by marker (and, where groups are ordered, line style); a
run without a marker in a group has no F1 there (no word of its in the group, or precision and recall both 0: see
the table). <i>show</i> opens gold
sentences with a word of the group whose head or relation the parser got wrong, the gold tree above the parser's.</p>"""
            + image
            + table
        )

    def example_link(self, row) -> str:
        key = (row["team"], row["run"], row["corpus"])
        if not self.examples or key not in self.index:
            return ""
        return (
            f"<a href='#parser-examples' class='px' data-run='{self.index[key]}' data-breakdown='{_esc(row['breakdown'])}' "
            f"data-grp='{_esc(row['grp'])}'>show</a>"
        )

    def confusion(self) -> str:
        where, params = self.dependency_where()
        frame = self.frame(
            f"""WITH c AS (SELECT * FROM dependency_label_confusion WHERE {where}),
                               gold AS (SELECT corpus, team, run, gold_relation, sum(words) AS gold_words FROM c
                                        WHERE gold_relation IS NOT NULL GROUP BY ALL)
                               SELECT c.corpus, c.team, c.run, c.gold_relation, c.system_relation, c.words, c.head_correct,
                                      c.words / g.gold_words AS share
                               FROM c JOIN gold AS g USING (corpus, team, run, gold_relation)
                               WHERE c.system_relation IS DISTINCT FROM c.gold_relation
                               ORDER BY c.corpus, c.team, c.run, c.words DESC, c.gold_relation, c.system_relation NULLS FIRST""",
            params,
        )
        frame = (
            frame.groupby(["corpus", "team", "run"], sort=False).head(25).rename(columns={"gold_relation": "relation"})
        )
        cols = [
            self.Col("team", "team"),
            self.Col("run", "run"),
            self.Col("corpus", "corpus"),
            self.Col("relation", "gold relation"),
            self.Col("system_relation", "system relation", "empty: not aligned"),
            self.Col("words", "words"),
            self.Col("head_correct", "head right"),
            self.Col("share", "share", "of the gold relation's words"),
        ]
        return (
            "<p>The most frequent confusions of each run: gold relation against the relation the parser gave "
            "the aligned word (empty: no aligned word), with how often the head was right all the same; "
            "<code>dependency_label_confusion</code> has the whole matrix, the diagonal included.</p>"
            + self.table(frame, cols, "parser-confusion", empty="No confusion.")
        )

    def significance(self) -> str:
        where, params = self.selected.where_pair()
        frame = self.frame(
            f"""SELECT corpus, metric, test, team_a, run_a, team_b, run_b, n, value_a, value_b, delta,
                                      p, p_holm, significant
                               FROM score_significance WHERE kind = 'dependency run' AND {where} ORDER BY ALL""",
            params,
        )
        frame = frame.rename(columns={"team_a": "team"})
        cols = [
            self.Col("corpus", "corpus"),
            self.Col("metric", "metric"),
            self.Col("test", "test"),
            self.Col("team", "team a"),
            self.Col("run_a", "run a"),
            self.Col("team_b", "team b"),
            self.Col("run_b", "run b"),
            self.Col("n", "sentences"),
            self.Col("value_a", "a", digits=4),
            self.Col("value_b", "b", digits=4),
            self.Col("delta", "a - b", digits=4),
            self.Col("p", "p"),
            self.Col("p_holm", "p (Holm)"),
            self.Col("significant", "significant"),
        ]
        return (
            "<p>Every pair of parser runs on a corpus, both tests, each metric, with Holm-adjusted p "
            "(<code>score_significance</code>).</p>"
            + self.table(frame, cols, "parser-significance", empty="Fewer than two runs on a corpus.")
        )

    # --- constituency runs ------------------------------------------------------------------------
    def constituency_sections(self) -> str:
        where, params = self.selected.where()
        scores = self.frame(
            f"""SELECT team, run, corpus, subset, sentences, valid_sentences, labelled_recall,
                                       labelled_precision, labelled_f, unlabelled_f, labelled_complete_match,
                                       average_crossing, tagging_accuracy, la_sentence_mean, la_word_mean, config
                                FROM parse_scores WHERE {where} ORDER BY corpus, subset, labelled_f DESC, team, run""",
            params,
        )
        self.configurations |= set(scores["config"])
        cols = [
            self.Col("team", "team"),
            self.Col("run", "run"),
            self.Col("corpus", "corpus"),
            self.Col("subset", "subset"),
            self.Col("valid_sentences", "valid sentences"),
            self.Col("labelled_recall", "LR"),
            self.Col("labelled_precision", "LP"),
            self.Col("labelled_f", "LF", "labelled bracketing F (EVALB)"),
            self.Col("unlabelled_f", "UF"),
            self.Col("labelled_complete_match", "complete match"),
            self.Col("average_crossing", "avg crossing"),
            self.Col("tagging_accuracy", "tagging"),
            self.Col(
                "la_sentence_mean", "LA (sentences)", "leaf-ancestor, mean over sentences (Sampson & Babarczy 2003)"
            ),
            self.Col("la_word_mean", "LA (words)", "leaf-ancestor, mean over words"),
        ]
        deciles = self.frame(
            f"""SELECT team, run, corpus, decile_a AS la_decile, decile_b AS f_decile, sentences
                                 FROM metric_deciles WHERE metric_a = 'la' AND metric_b = 'labelled_f' AND {where}
                                 ORDER BY ALL""",
            params,
        )
        crossed = []
        for (team, run, corpus), g in deciles.groupby(["team", "run", "corpus"], sort=True):
            row = {"team": team, "run": run, "corpus": corpus}
            for d in range(1, 11):
                same = g[(g["la_decile"] == d)]
                total = same["sentences"].sum()
                row[f"d{d}"] = (same[same["f_decile"] == d]["sentences"].sum() / total) if total else None
            crossed.append(row)
        dcols = [self.Col("team", "team"), self.Col("run", "run"), self.Col("corpus", "corpus")] + [
            self.Col(
                f"d{d}",
                f"LA decile {d}",
                f"share of the sentences in LA decile {d} that are in the same decile of labelled F",
                2,
            )
            for d in range(1, 11)
        ]
        return (
            """<p>EVALB's summary (brackets scored as the C program of the current release scores them) beside the
leaf-ancestor metric, per run and subset; the agreement of the two rankings by decile (Sampson &amp; Babarczy 2003,
&sect;6: the share of each LA decile that falls in the same decile of labelled F; <code>metric_deciles</code> has the
full table); and each run's worst sentences by leaf-ancestor score, gold and parser trees one above the other; a
red label marks a bracket that EVALB scores in one tree and the other lacks (label without function tags, span over
the words the run's parameters keep).</p>"""
            + self.table(scores, cols, "constituency")
            + "<h3>Ranked, with intervals</h3>"
            + self.constituency_ranks()
            + "<h3>Deciles</h3>"
            + self.table(pd.DataFrame(crossed), dcols, "constituency-deciles", empty="No deciles.")
            + "<h3>Worst sentences</h3>"
            + self.worst_sentences()
        )

    def constituency_ranks(self) -> str:
        """The ranked scores of the constituency runs (subset all) with their bootstrap intervals,
        significance groups and rank ranges, from ``score_intervals`` and ``score_significance``."""
        where, params = self.selected.where()
        intervals = self.frame(
            f"""SELECT corpus, team, run, metric, value, low, high, configuration FROM score_intervals
                WHERE kind = 'constituency run' AND {where}""",
            params,
        )
        pairs = self.frame(
            """SELECT corpus, metric, team_a, run_a, team_b, run_b, delta, significant, configuration
               FROM score_significance WHERE kind = 'constituency run' AND test = $test""",
            {"test": self.test},
        )
        self.configurations |= set(intervals["configuration"]) | set(pairs["configuration"])
        ranked = ranks.ranked(
            intervals, pairs, self.constituency, {m: (t, 100) for m, t in CONSTITUENCY_RANKED.items()}
        )
        level = next(
            (c.split("level:", 1)[1].split("|")[0] for c in intervals["configuration"] if "level:" in c), "0.95"
        )
        cols = [
            self.Col("corpus", "corpus"),
            self.Col("metric", "metric"),
            self.Col("team", "team"),
            self.Col("run", "run"),
            self.Col("value", "score (%)", "EVALB labelled F, recall, precision (%); leaf-ancestor x 100", 2),
            self.Col(
                "low",
                "CI low",
                f"{float(level):.0%} percentile bootstrap interval, gold sentences resampled, bracket counts pooled",
                2,
            ),
            self.Col("high", "CI high", "upper bound of the same interval", 2),
            self.Col("group", "group", f"significance group ({self.test}, Holm)"),
            self.Col("ranks", "rank", "rank range: 1 + significantly better .. n - significantly worse"),
        ]
        return f"""<p>The ranked scores of the whole corpus (subset all) with their bootstrap intervals: gold sentences
resampled, a resample's EVALB figures computed from the bracket counts summed over the sentences drawn, as EVALB's
totals row sums them; significance <b>groups</b> and <b>rank</b> ranges from the paired {_esc(self.test)} tests of
<code>evalhouse analyze</code> (Holm-adjusted per corpus, metric and test; runs scored under different EVALB
parameters are not compared).</p>""" + self.table(
            ranked,
            cols,
            "constituency-ranks",
            empty="No constituency run analysed.",
            latex=f"Ranked scores of the constituency parsers with {float(level):.0%} bootstrap intervals (gold "
            f"sentences resampled) on {', '.join(sorted({c for _, _, c in self.constituency}))} (evalhouse "
            f"{__version__}; significance groups and rank ranges from paired {self.test} tests, Holm-adjusted).",
            configurations=set(intervals["configuration"]) | set(pairs["configuration"]),
        )

    def worst_sentences(self) -> str:
        parts = []
        for team, run, corpus in self.constituency:
            params = _params(
                self.wh.sql(
                    "SELECT evalb_params FROM parse_runs WHERE corpus = $c AND team = $t AND run = $r",
                    {"c": corpus, "t": team, "r": run},
                ).fetchone()[0]
            )
            worst = self.wh.sql(
                """SELECT l.position, l.la, g.labelled_f FROM la_sentences AS l
                                   JOIN geig_sentences AS g USING (corpus, team, run, position)
                                   WHERE l.corpus = $c AND l.team = $t AND l.run = $r
                                   ORDER BY l.la, l.position LIMIT $k""",
                {"c": corpus, "t": team, "r": run, "k": WORST},
            ).fetchall()
            for position, la, labelled_f in worst:
                gold = _stored_tree(self.wh, corpus, None, None, position)
                test = _stored_tree(self.wh, corpus, team, run, position)
                gold_spans, test_spans = set(_brackets(gold, params)), set(_brackets(test, params))
                parts.append(
                    f"<div class='example'><div class='ex-head'><b>{_esc(team)}/{_esc(run)}</b> on {_esc(corpus)}, "
                    f"sentence {position} · LA {la:.3f} · labelled F "
                    f"{'n/a' if labelled_f is None else f'{labelled_f:.3f}'}</div>"
                    f"<div class='side'>gold</div><div class='scroll'><code class='brackets'>"
                    f"{_marked(gold, params, test_spans)}</code></div>"
                    f"<div class='side'>parser</div><div class='scroll'><code class='brackets'>"
                    f"{_marked(test, params, gold_spans)}</code></div></div>"
                )
        return "".join(parts) or "<p class='empty'>No sentence scored.</p>"

    # --- drill-down data --------------------------------------------------------------------------
    def example_data(self) -> dict:
        """For the page's script: per (run, breakdown, group) up to ``examples`` gold sentences with a word of
        the group wrong (LAS), and for each sentence the gold words and, per run, the parser's words counted
        in it, with heads, relations, alignment and correctness."""
        data = {"runs": [list(k) for k in self.dependency], "items": [], "gold": {}, "sys": {}}
        if not self.examples or not self.dependency:
            return data
        where, params = self.dependency_where("w.")
        picked = self.frame(
            f"""
            WITH members AS (
                SELECT w.corpus, w.team, w.run, w.breakdown, w.grp, w.sentence, g.word_id, w.label_correct
                FROM dependency_word_groups AS w
                JOIN dependency_gold_words AS g
                    ON g.corpus = w.corpus AND g.team = w.team AND g.run = w.run AND g.gold_index = w.word_index
                WHERE w.side = 'gold' AND {where}
            ), wrong AS (
                SELECT corpus, team, run, breakdown, grp, sentence, list(word_id ORDER BY word_id) AS words
                FROM members GROUP BY ALL HAVING count(*) FILTER (WHERE NOT label_correct) > 0
            ), sized AS (
                SELECT corpus, team, run, sentence, count(*) AS length FROM dependency_gold_words GROUP BY ALL
            ), ranked AS (
                SELECT w.*, row_number() OVER (PARTITION BY w.corpus, w.team, w.run, w.breakdown, w.grp
                                               ORDER BY s.length < 5, abs(s.length - {EXAMPLE_LENGTH}), w.sentence) AS k
                FROM wrong AS w JOIN sized AS s USING (corpus, team, run, sentence)
            )
            SELECT corpus, team, run, breakdown, grp, sentence, words FROM ranked WHERE k <= {int(self.examples)}
            ORDER BY corpus, team, run, breakdown, grp, sentence""",
            params,
        )
        wanted = set()
        for (corpus, team, run, breakdown, grp), g in picked.groupby(
            ["corpus", "team", "run", "breakdown", "grp"], sort=True
        ):
            data["items"].append(
                [
                    self.index[(team, run, corpus)],
                    breakdown,
                    grp,
                    [[int(s), [int(w) for w in words]] for s, words in zip(g["sentence"], g["words"])],
                ]
            )
            wanted |= {(team, run, corpus, int(s)) for s in g["sentence"]}
        if not wanted:
            return data
        keys = pd.DataFrame(sorted(wanted), columns=["team", "run", "corpus", "sentence"])
        self.wh.con.register("eh_parse_examples", keys)
        try:
            gold = self.wh.con.execute("""
                SELECT g.team, g.run, g.corpus, g.sentence, g.word_id, g.form, g.head, g.deprel, g.relation,
                       g.head_correct, g.label_correct, g.system_index
                FROM dependency_gold_words AS g JOIN eh_parse_examples USING (team, run, corpus, sentence)
                ORDER BY g.team, g.run, g.corpus, g.sentence, g.word_id""").df()
            system = self.wh.con.execute("""
                SELECT p.team, p.run, p.corpus, p.sentence, p.system_index, p.system_form, p.system_head,
                       p.system_word_id, p.system_relation, p.gold_index, p.head_correct, p.label_correct, s.deprel
                FROM dependency_word_pairs AS p JOIN eh_parse_examples USING (team, run, corpus, sentence)
                JOIN dependency_system_words AS s USING (corpus, team, run, system_index)
                ORDER BY p.team, p.run, p.corpus, p.sentence, p.system_index""").df()
        finally:
            self.wh.con.unregister("eh_parse_examples")
        for (team, run, corpus, sentence), g in gold.groupby(["team", "run", "corpus", "sentence"], sort=True):
            key = f"{self.index[(team, run, corpus)]}\t{int(sentence)}"
            gold_of = dict(zip(g["system_index"].dropna().astype(int), g["word_id"].astype(int)))
            data["gold"][key] = {
                "w": g["form"].tolist(),
                "h": [int(h) for h in g["head"]],
                "r": g["deprel"].tolist(),
                "u": [bool(x) for x in g["head_correct"]],
                "l": [bool(x) for x in g["label_correct"]],
            }
            s = system[
                (system["team"] == team)
                & (system["run"] == run)
                & (system["corpus"] == corpus)
                & (system["sentence"] == sentence)
            ]
            # the parser's words counted in this gold sentence, drawn in order; a head outside them is not drawn
            place = {int(i): k + 1 for k, i in enumerate(s["system_index"])}
            first = s["system_index"] - s["system_word_id"] + 1  # system index of the word's sentence's word 1
            heads = [0 if h == 0 else place.get(int(f + h - 1), -1) for f, h in zip(first, s["system_head"])]
            data["sys"][key] = {
                "w": s["system_form"].tolist(),
                "h": heads,
                "r": s["deprel"].tolist(),
                "a": [gold_of.get(int(i), 0) for i in s["system_index"]],
                "u": [bool(x) for x in s["head_correct"]],
                "l": [bool(x) for x in s["label_correct"]],
            }
        return data


# --- constituency trees as stored -----------------------------------------------------------------


def _stored_tree(wh: Warehouse, corpus: str, team: str | None, run: str | None, position: int) -> Tree:
    """The tree of one sentence of a parse run (the gold when ``team`` is None), as ingested."""
    key = {"c": corpus, "t": team, "r": run, "p": position}
    match = "corpus = $c AND team IS NOT DISTINCT FROM $t AND run IS NOT DISTINCT FROM $r AND position = $p"
    notation = wh.sql(f"SELECT notation FROM parse_sentences WHERE {match}", key).fetchone()
    tree = Tree(notation=notation[0] if notation else "ptb")
    for word, pos in wh.sql(f"SELECT word, pos FROM parse_leaves WHERE {match} ORDER BY leaf", key).fetchall():
        tree.words.append(word)
        tree.pos.append(pos)
    for label, parent, s, e in wh.sql(
        f"SELECT label, coalesce(parent, -1), start_leaf, end_leaf FROM constituents WHERE {match} ORDER BY node", key
    ).fetchall():
        tree.nodes.append((label, parent, s, e))
    return tree


def _params(description: str | None) -> EvalbParams:
    """The EVALB parameters a run was scored under, from ``parse_runs.evalb_params``."""
    d = json.loads(description) if description else {}
    return EvalbParams(
        delete_labels=frozenset(d.get("delete_labels", ())),
        delete_labels_for_length=frozenset(d.get("delete_labels_for_length", ())),
        eq_labels=tuple(tuple(p) for p in d.get("eq_labels", ())),
        eq_words=tuple(tuple(p) for p in d.get("eq_words", ())),
        labeled=d.get("labeled", True),
    )


def _brackets(tree: Tree, params: EvalbParams) -> list[tuple[str, int, int] | None]:
    """Per node, the bracket EVALB scores for it (label cut at its function tags, span over the words kept
    by DELETE_LABEL), or None when EVALB drops it (a deleted label, or no word left under it): the rules of
    :func:`analysis.parse_eval.prepare`, so that the red labels are the brackets the scores counted."""
    prepared = prepare(tree.words, tree.pos, tree.nodes, params)
    return [
        None if deleted or s == e else (label if params.labeled else "", s, e)
        for label, s, e, deleted in prepared.brackets(params)
    ]


def _marked(tree: Tree, params: EvalbParams, other: set) -> str:
    """The tree's brackets as HTML: the label of a bracket that EVALB scores and ``other`` lacks in red."""
    plain = render(tree)
    if not tree.nodes:
        return _esc(plain)
    brackets = _brackets(tree, params)
    marked = Tree(
        notation=tree.notation,
        words=list(tree.words),
        pos=list(tree.pos),
        nodes=[
            ("\x00" + label if b is not None and b not in other else label, p, s, e)
            for (label, p, s, e), b in zip(tree.nodes, brackets)
        ],
    )
    text = _esc(render(marked))
    # "(\x00NP" -> "(" and a red "NP"
    out = []
    for piece in text.split("\x00"):
        if out:
            label, _, rest = piece.partition(" ")
            out.append(f"<span class='bad'>{label}</span> {rest}")
        else:
            out.append(piece)
    return "".join(out)
