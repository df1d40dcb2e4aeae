"""``evalhouse analyze``: statistics and error mining over submissions, materialised into tables.

    import evalhouse
    from evalhouse.statistics.analyze import AnalysisConfig, analyze

    with evalhouse.connect("warehouse.duckdb") as wh:
        summary = analyze(wh, AnalysisConfig(alpha=0.05), team=None, corpus=None)

Tables written (see ``schema/analyze/``): metric_correlations, judgement_correlations, projectivity_tests,
entropy_dea_correlation, suspicious_subtrees, suspicious_subtree_submissions, dea_relation_intervals,
ensemble_choice, ensemble_scores, and for submissions and dependency and constituency parser runs
score_intervals and score_significance (every ranked score: :mod:`evalhouse.statistics.leaderboard`,
:mod:`evalhouse.statistics.parse_runs`, :mod:`evalhouse.statistics.constituency_runs`). Views over them (``sql/statistics/``):
correlation_summary, judgement_correlation_summary, suspicious_subtrees_coverage. Error mining uses the
paper's settings by default (:class:`evalhouse.analysis.mining.MiningSettings`, from the config's
``exclude_root``, ``representatives``, ``suspicious``, ``score_form``, ``top_k``, ``max_size``). Rows of the submissions
analysed are replaced; rows of other submissions stay. One transaction. Every row carries a
``configuration`` string. The algorithms live in :mod:`evalhouse.analysis.stats` and
:mod:`evalhouse.analysis.mining`; docs/statistics.md explains the choices.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from evalhouse.analysis import mining, stats
from evalhouse.errors import OptionError, WarehouseError
from evalhouse.statistics import constituency_runs, leaderboard, parse_runs
from evalhouse.statistics.selection import Selection
from evalhouse.progress import as_progress
from evalhouse.version import signature

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

SENTENCE_METRICS = ("bleu", "dea", "fluency_z", "adequacy_z")
TREE_METRICS = ("depth", "length", "mean_dependency_distance", "mean_flux_size", "mean_flux_weight", "mean_arity")
METRICS = SENTENCE_METRICS + TREE_METRICS
PERFORMANCE_METRICS = SENTENCE_METRICS
# Bangalore, Rambow & Whittaker's (2000) accuracies (sentence_scores) and the human judgements they are correlated with (section 4)
ACCURACY_METRICS = ("ssa", "gsa", "sta", "gta", "understandability_accuracy", "quality_accuracy")
JUDGEMENTS = ("fluency_z", "adequacy_z")
TABLES = (
    "metric_correlations",
    "judgement_correlations",
    "projectivity_tests",
    "entropy_dea_correlation",
    "suspicious_subtrees",
    "suspicious_subtree_submissions",
    "dea_relation_intervals",
    "ensemble_choice",
    "ensemble_scores",
)  # schema/analyze/
PARSE_TABLES = ("score_intervals", "score_significance")  # of every ranked score, submissions and parser runs


@dataclass
class AnalysisConfig:
    alpha: float = 0.05
    nonprojective_threshold: float = 0.05
    min_relation_edges: int = 1
    failure_metric: str = "bleu"
    failure_share: float = 0.25
    max_size: int = 3
    views: tuple[str, ...] = mining.VIEWS
    score_form: str = "narayan-gardent"
    top_k: int = 10
    keep: int = 100
    exclude_root: bool = True
    representatives: str = "largest"
    suspicious: str = "non-null"
    resamples: int = 1000
    seed: int = 1
    level: float = 0.95
    tests: tuple[str, ...] = field(default=("paired-bootstrap", "approximate-randomisation"))

    def validate(self) -> None:
        if not 0 < self.alpha < 1:
            raise OptionError(f"`alpha` must be between 0 and 1, not {self.alpha}")
        if not 0 < self.failure_share < 1:
            raise OptionError(f"`failure_share` must be between 0 and 1, not {self.failure_share}")
        if self.failure_metric not in SENTENCE_METRICS:
            raise OptionError(f"`failure_metric` must be one of {', '.join(SENTENCE_METRICS)}")
        if self.score_form not in mining.SCORES:
            raise OptionError(f"`score_form` must be one of {', '.join(mining.SCORES)}")
        if self.representatives not in mining.REPRESENTATIVES:
            raise OptionError(f"`representatives` must be one of {', '.join(mining.REPRESENTATIVES)}")
        if self.suspicious not in mining.SUSPICIOUS:
            raise OptionError(f"`suspicious` must be one of {', '.join(mining.SUSPICIOUS)}")
        if self.top_k < 1:
            raise OptionError("`top_k` must be at least 1")
        if self.keep < 0:
            raise OptionError("`keep` must be 0 (all) or more")
        for v in self.views:
            if v not in mining.VIEWS:
                raise OptionError(f"unknown view '{v}' (valid: {', '.join(mining.VIEWS)})")
        if self.max_size < 2:
            raise OptionError("`max_size` must be at least 2")
        if self.resamples < 1:
            raise OptionError("`resamples` must be at least 1")

    def signature(self, *parts: str) -> str:
        return signature(*parts)

    def mining_settings(self) -> mining.MiningSettings:
        """The error-mining settings of this configuration (the paper's by default)."""
        return mining.MiningSettings(
            exclude_root=self.exclude_root,
            representatives=self.representatives,
            suspicious=self.suspicious,
            top_k=self.top_k,
            score=self.score_form,
            max_size=self.max_size,
        )


@dataclass
class AnalysisSummary:
    submissions: int
    corpora: int
    rows: dict
    dependency_runs: int = 0
    constituency_runs: int = 0


def analyze(
    wh: Warehouse,
    config: AnalysisConfig | None = None,
    team: str | None = None,
    corpus: str | None = None,
    progress=None,
) -> AnalysisSummary:
    """(Re)compute every analysis for the submissions matching ``team`` and ``corpus``. ``progress``
    (:class:`evalhouse.progress.Progress`) is moved on per step and corpus."""
    config = config or AnalysisConfig()
    config.validate()
    selection = Selection(team=team, corpus=corpus)
    subs = pd.DataFrame(selection.submissions(wh, required=False), columns=["team", "run", "corpus"])
    dependency = pd.DataFrame(selection.dependency_runs(wh), columns=["team", "run", "corpus"])
    constituency = pd.DataFrame(selection.constituency_runs(wh), columns=["team", "run", "corpus"])
    if subs.empty and dependency.empty and constituency.empty:
        scope = f" for {selection.describe()}" if team or corpus else ""
        raise WarehouseError(
            f"nothing to analyse{scope} in {wh.path}: run `evalhouse ingest outputs` (system "
            "outputs), `evalhouse ingest dependency-run` (dependency parser runs) or `evalhouse ingest parses` "
            "(constituency parser runs) first"
        )
    results: dict[str, list[pd.DataFrame]] = {t: [] for t in TABLES + PARSE_TABLES}

    def mine(data, config):
        rows, mined = suspicious_subtrees(data, config)
        results["suspicious_subtree_submissions"].append(mined)
        return rows

    steps = [
        ("correlations", "metric_correlations", metric_correlations),
        ("projectivity tests", "projectivity_tests", projectivity_tests),
        ("entropy and DEA", "entropy_dea_correlation", entropy_dea_correlation),
        ("error mining", "suspicious_subtrees", mine),
        ("accuracies and judgements", "judgement_correlations", judgement_correlations),
        ("DEA intervals", "dea_relation_intervals", dea_relation_intervals),
    ]
    task = as_progress(progress).task(
        "analysing",
        total=subs["corpus"].nunique() * (len(steps) + 4)
        + dependency["corpus"].nunique()
        + constituency["corpus"].nunique()
        + 1,
        unit="steps",
    )
    with task:
        for corpus_name, group in subs.groupby("corpus", sort=True):
            keys = list(group[["team", "run"]].itertuples(index=False, name=None))
            task.describe(f"{corpus_name}: loading {len(keys)} submission(s)")
            data = CorpusData.load(wh, corpus_name, keys)
            task.advance(1)
            for label, table, step in steps:
                task.describe(f"{corpus_name}: {label}")
                results[table].append(step(data, config))
                task.advance(1)
            task.describe(f"{corpus_name}: ensemble")
            choice, scores = ensemble(data, config)
            results["ensemble_choice"].append(choice)
            results["ensemble_scores"].append(scores)
            task.advance(1)
            task.describe(f"{corpus_name}: intervals and paired tests of every ranked score")
            intervals, tests = leaderboard.analyse(wh, corpus_name, keys, config)
            results["score_intervals"].append(intervals)
            results["score_significance"].append(tests)
            task.advance(1)
        for corpus_name, group in dependency.groupby("corpus", sort=True):
            keys = list(group[["team", "run"]].itertuples(index=False, name=None))
            task.describe(f"{corpus_name}: intervals and tests of {len(keys)} parser run(s)")
            intervals, tests = parse_runs.analyse(wh, corpus_name, keys, config)
            results["score_intervals"].append(intervals)
            results["score_significance"].append(tests)
            task.advance(1)
        for corpus_name, group in constituency.groupby("corpus", sort=True):
            keys = list(group[["team", "run"]].itertuples(index=False, name=None))
            task.describe(f"{corpus_name}: intervals and tests of {len(keys)} constituency parser run(s)")
            intervals, tests = constituency_runs.analyse(wh, corpus_name, keys, config)
            results["score_intervals"].append(intervals)
            results["score_significance"].append(tests)
            task.advance(1)
        task.describe("writing")
        analysed = subs.to_dict("records")
        parsed = [{"corpus": r["corpus"], "team": r["team"], "run": r["run"]} for r in dependency.to_dict("records")]
        bracketed = [
            {"corpus": r["corpus"], "team": r["team"], "run": r["run"]} for r in constituency.to_dict("records")
        ]
        counts = {}
        with wh.transaction():
            # the rows of the submissions and runs analysed are replaced; rows of the others stay
            wh.delete("analysis", analysed)
            wh.delete("ensemble", [{"corpus": c} for c in subs["corpus"].unique()])
            for kind, keys in (("submission", analysed), ("dependency run", parsed), ("constituency run", bracketed)):
                wh.delete(f"{kind} intervals", keys)
                wh.delete(f"{kind} significance", _same_corpus_pairs(keys))
            for table in TABLES + PARSE_TABLES:
                frames = [f for f in results[table] if f is not None and len(f)]
                columns = [c for c, _, _ in wh.columns(table)]
                counts[table] = wh.insert(table, pd.concat(frames, ignore_index=True)[columns]) if frames else 0
        task.advance(1)
    return AnalysisSummary(len(subs), subs["corpus"].nunique(), counts, len(dependency), len(constituency))


# --- data of one corpus ---------------------------------------------------------------------------


@dataclass
class CorpusData:
    corpus: str
    keys: list[tuple[str, str]]  # (team, run), sorted
    positions: np.ndarray  # sentence positions, sorted
    scores: dict[str, np.ndarray]  # metric -> (submissions x sentences), NaN when missing
    # (SENTENCE_METRICS and ACCURACY_METRICS)
    matched: np.ndarray  # (submissions x sentences) matched edges
    edges: np.ndarray  # (sentences,) edges per sentence
    complexity: pd.DataFrame  # sentence_complexity rows by position
    tree: pd.DataFrame  # edges table rows of the corpus
    relation_counts: np.ndarray  # (sentences x relations) edges per relation
    relation_matched: np.ndarray  # (submissions x sentences x relations) matched edges per relation
    relations: list[str]
    entropy: pd.DataFrame

    @classmethod
    def load(cls, wh: Warehouse, corpus: str, keys: list[tuple[str, str]]) -> "CorpusData":
        con = wh.con
        keys = sorted(keys)
        wanted = pd.DataFrame(keys, columns=["team", "run"])
        con.register("wanted_runs", wanted)
        try:
            scores = con.execute(
                """
                SELECT s.team, s.run, s.position, s.bleu, s.dea, s.fluency_z, s.adequacy_z, s.edges, s.matched_edges,
                       s.ssa, s.gsa, s.sta, s.gta, s.understandability_accuracy, s.quality_accuracy
                FROM sentence_scores s JOIN wanted_runs w USING (team, run)
                WHERE s.corpus = $c ORDER BY s.team, s.run, s.position""",
                {"c": corpus},
            ).df()
            per_relation = con.execute(
                """
                SELECT d.team, d.run, d.position, d.relation, count(*) FILTER (WHERE d.matched) AS matched
                FROM dea_edges d JOIN wanted_runs w USING (team, run)
                WHERE d.corpus = $c GROUP BY ALL""",
                {"c": corpus},
            ).df()
        finally:
            con.unregister("wanted_runs")
        complexity = con.execute(
            """SELECT * FROM sentence_complexity WHERE corpus = $c ORDER BY position""", {"c": corpus}
        ).df()
        tree = con.execute(
            """SELECT position, dependent, head, relation, dependent_lemma, dependent_upos
                              FROM edges WHERE corpus = $c ORDER BY position, dependent""",
            {"c": corpus},
        ).df()
        entropy = con.execute("SELECT relation, entropy FROM relation_entropy WHERE corpus = $c", {"c": corpus}).df()
        positions = complexity["position"].to_numpy()
        n, s = len(positions), len(keys)
        index = {p: i for i, p in enumerate(positions)}
        sub_index = {k: i for i, k in enumerate(keys)}
        row = scores["position"].map(index).to_numpy()
        col = np.array([sub_index[k] for k in zip(scores["team"], scores["run"])], dtype=int)
        metric_arrays = {}
        for m in SENTENCE_METRICS + ACCURACY_METRICS:
            arr = np.full((s, n), np.nan)
            arr[col, row] = scores[m].astype(float).to_numpy()
            metric_arrays[m] = arr
        matched = np.zeros((s, n))
        matched[col, row] = scores["matched_edges"].to_numpy(dtype=float)
        edge_counts = np.zeros(n)
        first = scores[col == 0] if s else scores
        edge_counts[first["position"].map(index).to_numpy()] = first["edges"].to_numpy(dtype=float)
        real = tree[tree["head"] > 0]
        relations = sorted(real["relation"].unique())
        rel_index = {r: i for i, r in enumerate(relations)}
        relation_counts = np.zeros((n, len(relations)))
        np.add.at(
            relation_counts, (real["position"].map(index).to_numpy(), real["relation"].map(rel_index).to_numpy()), 1
        )
        relation_matched = np.zeros((s, n, len(relations)))
        if len(per_relation):
            np.add.at(
                relation_matched,
                (
                    np.array([sub_index[k] for k in zip(per_relation["team"], per_relation["run"])], dtype=int),
                    per_relation["position"].map(index).to_numpy(),
                    per_relation["relation"].map(rel_index).to_numpy(),
                ),
                per_relation["matched"].to_numpy(dtype=float),
            )
        return cls(
            corpus,
            keys,
            positions,
            metric_arrays,
            matched,
            edge_counts,
            complexity,
            tree,
            relation_counts,
            relation_matched,
            relations,
            entropy,
        )

    def metric(self, name: str, sub: int) -> np.ndarray:
        if name in SENTENCE_METRICS or name in ACCURACY_METRICS:
            return self.scores[name][sub]
        return self.complexity[name].to_numpy(dtype=float)


# --- correlations and tests -----------------------------------------------------------------------


def metric_correlations(data: CorpusData, config: AnalysisConfig) -> pd.DataFrame:
    signature = config.signature(
        f"alpha:{config.alpha}", "test:spearman(scipy),pairwise-complete,min-n:3", "adjust:holm,within-submission"
    )
    rows = []
    tree_pairs = {}
    for s, (team, run) in enumerate(data.keys):
        found = []
        for a, b in combinations(METRICS, 2):
            if a in TREE_METRICS and b in TREE_METRICS:
                if (a, b) not in tree_pairs:
                    tree_pairs[(a, b)] = stats.spearman(data.metric(a, s), data.metric(b, s))
                result = tree_pairs[(a, b)]
            else:
                result = stats.spearman(data.metric(a, s), data.metric(b, s))
            if result is not None:
                found.append((a, b) + result)
        if not found:
            continue
        adjusted = stats.holm([f[4] for f in found])
        for (a, b, n, rho, p), ph in zip(found, adjusted):
            rows.append((team, run, data.corpus, a, b, n, rho, p, float(ph), bool(ph < config.alpha), signature))
    return pd.DataFrame(
        rows,
        columns=[
            "team",
            "run",
            "corpus",
            "metric_a",
            "metric_b",
            "n",
            "rho",
            "p",
            "p_holm",
            "significant",
            "configuration",
        ],
    )


def judgement_correlations(data: CorpusData, config: AnalysisConfig) -> pd.DataFrame:
    """Bangalore, Rambow & Whittaker (2000), section 4: each accuracy (SSA, GSA, STA, GTA, UA, QA) against each human judgement
    z-score (fluency, adequacy), Pearson's r beside Spearman's rho, per submission. Holm within the
    submission, over its Pearson tests and, separately, over its Spearman tests (the family of
    metric_correlations is also one test over one submission's pairs). A pair with fewer than 3
    complete sentences or a constant side has no row (so a submission without judgements has none)."""
    signature = config.signature(
        f"alpha:{config.alpha}",
        "test:pearson(scipy)+spearman(scipy),pairwise-complete,min-n:3",
        "adjust:holm,within-submission,per-test",
    )
    rows = []
    for s, (team, run) in enumerate(data.keys):
        found = []
        for metric in ACCURACY_METRICS:
            for judgement in JUDGEMENTS:
                x, y = data.metric(metric, s), data.metric(judgement, s)
                r, rho = stats.pearson(x, y), stats.spearman(x, y)
                if r is None or rho is None:
                    continue
                found.append((metric, judgement, r[0], r[1], r[2], rho[1], rho[2]))
        if not found:
            continue
        p_r_holm = stats.holm([f[4] for f in found])
        p_rho_holm = stats.holm([f[6] for f in found])
        for (metric, judgement, n, r, p_r, rho, p_rho), hr, hs in zip(found, p_r_holm, p_rho_holm):
            rows.append(
                (
                    team,
                    run,
                    data.corpus,
                    metric,
                    judgement,
                    n,
                    r,
                    p_r,
                    float(hr),
                    bool(hr < config.alpha),
                    rho,
                    p_rho,
                    float(hs),
                    bool(hs < config.alpha),
                    signature,
                )
            )
    return pd.DataFrame(
        rows,
        columns=[
            "team",
            "run",
            "corpus",
            "metric",
            "judgement",
            "n",
            "r",
            "p_r",
            "p_r_holm",
            "significant_r",
            "rho",
            "p_rho",
            "p_rho_holm",
            "significant_rho",
            "configuration",
        ],
    )


def projectivity_tests(data: CorpusData, config: AnalysisConfig) -> pd.DataFrame:
    projective = data.complexity["projective"]
    known = projective.notna().to_numpy()
    proj = projective.fillna(True).to_numpy(dtype=bool) & known
    nonproj = ~projective.fillna(True).to_numpy(dtype=bool) & known
    share = nonproj.sum() / known.sum() if known.sum() else 0.0
    columns = [
        "team",
        "run",
        "corpus",
        "metric",
        "median_projective",
        "median_nonprojective",
        "n_projective",
        "n_nonprojective",
        "u",
        "p",
        "nonprojective_share",
        "configuration",
    ]
    if share <= config.nonprojective_threshold:
        return pd.DataFrame([], columns=columns)
    rows = []
    for s, (team, run) in enumerate(data.keys):
        for m in PERFORMANCE_METRICS:
            values = data.metric(m, s)
            x = values[proj & ~np.isnan(values)]
            y = values[nonproj & ~np.isnan(values)]
            if len(x) == 0 or len(y) == 0:
                continue
            u, p, method = stats.mann_whitney(x, y)
            if np.isnan(p):
                continue
            signature = config.signature(
                f"threshold:{config.nonprojective_threshold}",
                f"test:mann-whitney-u,two-sided,{method}",
                "u:projective-sample",
            )
            rows.append(
                (
                    team,
                    run,
                    data.corpus,
                    m,
                    float(np.median(x)),
                    float(np.median(y)),
                    len(x),
                    len(y),
                    u,
                    p,
                    float(share),
                    signature,
                )
            )
    return pd.DataFrame(rows, columns=columns)


def entropy_dea_correlation(data: CorpusData, config: AnalysisConfig) -> pd.DataFrame:
    signature = config.signature(
        f"min_edges:{config.min_relation_edges}",
        "test:spearman(scipy)",
        "dea:pooled-per-relation",
        "entropy:base-relation,bits",
    )
    entropy = dict(zip(data.entropy["relation"], data.entropy["entropy"]))
    edges = data.relation_counts.sum(axis=0)
    keep = [i for i, r in enumerate(data.relations) if edges[i] >= config.min_relation_edges and r in entropy]
    rows = []
    for s, (team, run) in enumerate(data.keys):
        accuracy = data.relation_matched[s].sum(axis=0)[keep] / edges[keep]
        ent = np.array([entropy[data.relations[i]] for i in keep], dtype=float)
        result = stats.spearman(ent, accuracy)
        if result is not None:
            n, rho, p = result
            rows.append((team, run, data.corpus, n, rho, p, signature))
    return pd.DataFrame(rows, columns=["team", "run", "corpus", "relations", "rho", "p", "configuration"])


# --- tree error mining ----------------------------------------------------------------------------


def _same_corpus_pairs(keys: list[dict]) -> list[dict]:
    """The keys of ``score_significance`` rows between any two of ``keys`` (corpus, team, run) on one corpus."""
    return [
        {"corpus": a["corpus"], "team_a": a["team"], "run_a": a["run"], "team_b": b["team"], "run_b": b["run"]}
        for a in keys
        for b in keys
        if a["corpus"] == b["corpus"]
    ]


def corpus_forms(tree: pd.DataFrame, positions: np.ndarray, views, settings: mining.MiningSettings):
    """view -> :class:`evalhouse.analysis.mining.CorpusForms` of a corpus (row i = sentence positions[i];
    a sentence without edges has no form), computed once and shared by every submission."""
    by_position = {position: g for position, g in tree.groupby("position", sort=True)}
    empty = ((), (), (), ())

    def trees():
        for position in positions:
            g = by_position.get(position)
            if g is None:
                yield empty
            else:
                yield (
                    g["head"].tolist(),
                    g["relation"].tolist(),
                    g["dependent_upos"].tolist(),
                    g["dependent_lemma"].tolist(),
                )

    return mining.corpus_forms(trees(), views, settings)


def mine(
    forms: mining.CorpusForms, failures: np.ndarray, usable: np.ndarray, settings: mining.MiningSettings, keep: int = 0
) -> tuple[pd.DataFrame, int]:
    """The scored forms of one submission in one view as table rows, in rank order, and how many forms
    were scored. Stored: every suspicious form (coverage counts them all), and the other scored forms
    ranked up to ``keep`` (0: all; only ``suspicious="top-k"`` scores forms that are not suspicious)."""
    got = mining.score_forms(forms, failures, usable, settings)
    stored = got["suspicious"] | ((got["rank"] <= keep) if keep else True)
    column = got["column"][stored]
    return pd.DataFrame(
        {
            "form": forms.names[column],
            "size": forms.sizes[column],
            "represents": [list(forms.represents[j]) for j in column],
            "c_f": got["c_f"][stored],
            "c_f_fail": got["c_f_fail"][stored],
            "c_notf": got["c_notf"][stored],
            "c_notf_pass": got["c_notf_pass"][stored],
            "score": got["score"][stored],
            "rank": got["rank"][stored],
            "selected": got["suspicious"][stored],
        }
    ), int(got["rank"].size)


def suspicious_subtrees(data: CorpusData, config: AnalysisConfig, forms=None):
    """The rows of ``suspicious_subtrees`` and of ``suspicious_subtree_submissions`` for the corpus."""
    settings = config.mining_settings()
    signature = config.signature(
        f"failure:{config.failure_metric},bottom:{config.failure_share},ceil,ties:earlier-position-fails",
        settings.signature(),
        f"keep:{config.keep}",
    )
    forms = forms or corpus_forms(data.tree, data.positions, config.views, settings)
    frames, runs = [], []
    for s, (team, run) in enumerate(data.keys):
        values = data.metric(config.failure_metric, s)
        usable = ~np.isnan(values)
        failures = np.zeros(len(values), dtype=bool)
        failures[usable] = stats.failure_mask(values[usable], config.failure_share)
        for view in config.views:
            frame, scored = mine(forms[view], failures, usable, settings, config.keep)
            runs.append(
                (
                    team,
                    run,
                    data.corpus,
                    view,
                    int(usable.sum()),
                    int(failures.sum()),
                    forms[view].enumerated,
                    len(forms[view].names),
                    scored,
                    int(frame["selected"].sum()),
                    signature,
                )
            )
            frames.append(frame.assign(team=team, run=run, corpus=data.corpus, view=view, configuration=signature))
    rows = pd.concat(frames, ignore_index=True) if frames else None
    submissions = pd.DataFrame(
        runs,
        columns=[
            "team",
            "run",
            "corpus",
            "view",
            "sentences",
            "failures",
            "forms_enumerated",
            "forms",
            "forms_scored",
            "suspicious",
            "configuration",
        ],
    )
    return rows, submissions


# --- paired significance and intervals ------------------------------------------------------------


def dea_relation_intervals(data: CorpusData, config: AnalysisConfig) -> pd.DataFrame:
    signature = config.signature(
        f"level:{config.level}",
        f"resamples:{config.resamples}",
        f"seed:{config.seed}",
        "bootstrap:percentile,unit:sentence",
    )
    rows = []
    edges = data.relation_counts.sum(axis=0)
    for s, (team, run) in enumerate(data.keys):
        low, high = stats.bootstrap_ratio_intervals(
            data.relation_matched[s], data.relation_counts, config.resamples, config.seed, config.level
        )
        matched = data.relation_matched[s].sum(axis=0)
        for i, rel in enumerate(data.relations):
            rows.append(
                (
                    team,
                    run,
                    data.corpus,
                    rel,
                    int(edges[i]),
                    matched[i] / edges[i],
                    None if np.isnan(low[i]) else float(low[i]),
                    None if np.isnan(high[i]) else float(high[i]),
                    signature,
                )
            )
    return pd.DataFrame(
        rows, columns=["team", "run", "corpus", "relation", "edges", "accuracy", "low", "high", "configuration"]
    )


# --- ensemble -------------------------------------------------------------------------------------


def ensemble(data: CorpusData, config: AnalysisConfig):
    s = len(data.keys)
    signature = config.signature(
        f"submissions:{s}",
        "choice:max-mean-relation-dea,ties:pooled-dea,team,run",
        "relation-dea:in-sample",
        "oracle:max-sentence-bleu,ties:dea,team,run",
    )
    edges_total = data.relation_counts.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        accuracy = data.relation_matched.sum(axis=1) / np.where(edges_total > 0, edges_total, 1)  # (s x r)
        expected = (data.relation_counts @ accuracy.T) / data.edges[:, None]  # (n x s), NaN without edges
    pooled = data.matched.sum(axis=1) / data.edges.sum() if data.edges.sum() else np.zeros(s)
    # preference order for ties: pooled DEA (higher first), then (team, run)
    preference = sorted(range(s), key=lambda i: (-pooled[i], data.keys[i]))
    best = preference[0]
    ordered = expected[:, preference]
    has_edges = data.edges > 0
    pick = np.full(len(data.positions), best)
    if s and has_edges.any():
        pick[has_edges] = np.array(preference)[np.argmax(ordered[has_edges], axis=1)]
    rows_choice = pd.DataFrame(
        {
            "corpus": data.corpus,
            "position": data.positions.astype(int),
            "team": [data.keys[i][0] for i in pick],
            "run": [data.keys[i][1] for i in pick],
            "expected_dea": [float(expected[j, i]) if has_edges[j] else None for j, i in enumerate(pick)],
            "configuration": signature,
        }
    )
    bleu = np.nan_to_num(data.scores["bleu"])
    sentences = np.arange(len(data.positions))
    dea_of = np.where(data.edges > 0, data.matched / np.where(data.edges > 0, data.edges, 1), 0.0)  # (s x n)
    if s:
        # the highest sentence BLEU, ties by sentence DEA, then the first submission in (team, run) order
        candidates = bleu == bleu.max(axis=0)
        oracle = np.argmax(np.where(candidates, dea_of, -np.inf), axis=0)
    else:
        oracle = pick

    def scores(choice):
        dea = data.matched[choice, sentences].sum() / data.edges.sum() if data.edges.sum() else None
        return float(bleu[choice, sentences].mean()), dea

    total = len(data.positions)
    rows = []
    b, d = scores(pick)
    rows.append((data.corpus, "ensemble", None, None, total, b, d, signature))
    b, d = scores(np.full(total, best))
    rows.append((data.corpus, "best-single", data.keys[best][0], data.keys[best][1], total, b, d, signature))
    b, d = scores(oracle)
    rows.append((data.corpus, "oracle", None, None, total, b, d, signature))
    return rows_choice, pd.DataFrame(
        rows, columns=["corpus", "system", "team", "run", "sentences", "mean_bleu", "dea", "configuration"]
    )
