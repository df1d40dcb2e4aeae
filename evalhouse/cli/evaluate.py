"""``evalhouse analyze``, ``augment`` and ``report`` (statistics over stored scores,
:mod:`evalhouse.statistics` and :mod:`evalhouse.reports.html`), and ``evalhouse evalb`` and ``apt``
(the reports of the reference scorers, :mod:`evalhouse.reports.evalb` and :mod:`evalhouse.reports.apt`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from evalhouse.cli.common import (
    Corpus,
    DropJudgements,
    DropSystems,
    Replace,
    Run,
    Team,
    choices,
    execute,
    open_warehouse,
    progress,
)
from evalhouse.errors import OptionError
from evalhouse.lazy import lazy_module

# the library modules behind these commands, executed when a command runs (see evalhouse.lazy)
analyze_module = lazy_module("evalhouse.statistics.analyze")
apt_reports = lazy_module("evalhouse.reports.apt")
augment_module = lazy_module("evalhouse.statistics.augment")
evalb = lazy_module("evalhouse.reports.evalb")
html = lazy_module("evalhouse.reports.html")
mining = lazy_module("evalhouse.analysis.mining")
parses = lazy_module("evalhouse.ingest.parses")
selection = lazy_module("evalhouse.statistics.selection")
text = lazy_module("evalhouse.reports.text")
translations = lazy_module("evalhouse.ingest.translations")

commands = typer.Typer()

Submission = Annotated[Optional[str], typer.Option("--submission", help="A submission, written TEAM/RUN.")]
Score = choices("Score", ("narayan-gardent", "printed", "failure-term"))  # evalhouse.analysis.mining.SCORES
Representatives = choices("Representatives", ("largest", "all"))  # evalhouse.analysis.mining.REPRESENTATIVES
Suspicious = choices("Suspicious", ("non-null", "top-k"))  # evalhouse.analysis.mining.SUSPICIOUS


def _value(choice) -> str:
    """The string of a choice option (typer passes the enum member; a Python caller may pass the string)."""
    return getattr(choice, "value", choice)


@commands.command("analyze")
def analyze(
    team: Team = None,
    corpus: Corpus = None,
    alpha: Annotated[float, typer.Option("--alpha", help="Significance level (after Holm).")] = 0.05,
    nonprojective_threshold: Annotated[
        float,
        typer.Option(
            "--nonprojective-threshold",
            help="Projectivity tests only on corpora with a larger share of non-projective sentences.",
        ),
    ] = 0.05,
    min_relation_edges: Annotated[
        int,
        typer.Option("--min-relation-edges", help="Entropy-DEA correlation: relations with at least this many edges."),
    ] = 1,
    failure_metric: Annotated[
        str,
        typer.Option("--failure-metric", help="Sentence metric defining failures (bleu, dea, fluency_z, adequacy_z)."),
    ] = "bleu",
    failure_share: Annotated[
        float, typer.Option("--failure-share", help="Share of lowest-scoring sentences that are failures.")
    ] = 0.25,
    max_size: Annotated[int, typer.Option("--max-size", help="Largest subtree (nodes) mined.")] = 3,
    view: Annotated[
        Optional[list[str]],
        typer.Option("--view", help="Mining view (dep, pos, pos-dep, lemma); repeatable; default all."),
    ] = None,
    score_form: Annotated[
        Score,
        typer.Option(
            "--score",
            help="Suspicion score: narayan-gardent (published), printed (Shimorina, Parmentier & Gardent's (2021) formula) or failure-term (its first term alone, the paper's scale).",
        ),
    ] = "narayan-gardent",
    include_root: Annotated[
        bool, typer.Option("--include-root", help="Also mine forms headed by the root word (the paper excludes them).")
    ] = False,
    representatives: Annotated[
        Representatives,
        typer.Option(
            "--representatives",
            help="largest: one form per set of sentences it occurs in, the largest (the paper's); all: every form.",
        ),
    ] = "largest",
    suspicious: Annotated[
        Suspicious,
        typer.Option(
            "--suspicious",
            help="non-null: a form is suspicious when it occurs in a failed sentence (footnote 10); top-k: when its rank is at most --top-k.",
        ),
    ] = "non-null",
    top_k: Annotated[
        int,
        typer.Option(
            "--top-k", help="With --suspicious top-k: forms ranked up to this are a submission's suspicious forms."
        ),
    ] = 10,
    keep: Annotated[
        int,
        typer.Option(
            "--keep",
            help="With --suspicious top-k: also store the forms ranked up to KEEP that are not suspicious (0: all). Suspicious forms are always stored.",
        ),
    ] = 100,
    resamples: Annotated[int, typer.Option("--resamples", help="Bootstrap / randomisation resamples.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the resampling.")] = 1,
) -> None:
    """(Re)compute correlations, tests, error mining, significance and the ensemble into tables, for the
    submissions of --team and --corpus (default: all); for dependency parser runs, bootstrap intervals and
    paired tests of UAS, LAS, CLAS, MLAS, BLEX and dependency LA between the runs of each corpus.

    Example: evalhouse analyze --corpus en_ewt-test --resamples 1000
    """

    def action():
        config = analyze_module.AnalysisConfig(
            alpha=alpha,
            nonprojective_threshold=nonprojective_threshold,
            min_relation_edges=min_relation_edges,
            failure_metric=failure_metric,
            failure_share=failure_share,
            max_size=max_size,
            views=tuple(view or mining.VIEWS),
            score_form=_value(score_form),
            top_k=top_k,
            keep=keep,
            exclude_root=not include_root,
            representatives=_value(representatives),
            suspicious=_value(suspicious),
            resamples=resamples,
            seed=seed,
        )
        with open_warehouse() as wh, progress() as bars:
            summary = analyze_module.analyze(wh, config, team=team, corpus=corpus, progress=bars)
        typer.echo(
            f"analysed {summary.submissions} submission(s) on {summary.corpora} corpus(es) and "
            f"{summary.dependency_runs} dependency and {summary.constituency_runs} constituency parser run(s): "
            + ", ".join(f"{t} {n:,}" for t, n in summary.rows.items())
        )

    execute(action)


@commands.command("augment")
def augment(
    submission: Annotated[str, typer.Option("--submission", help="TEAM/RUN whose weaknesses to target.")],
    source: Annotated[
        str, typer.Option("--from", help="Treebank corpus (e.g. a training set) to select sentences from.")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="CoNLL-U file to write.")],
    top: Annotated[int, typer.Option("--top", help="Number of sentences to select.")] = 100,
    corpus: Annotated[
        Optional[str], typer.Option("--corpus", help="Reference corpus of the submission (when it has several).")
    ] = None,
    weak_relations: Annotated[
        int, typer.Option("--weak-relations", help="How many lowest-DEA relations to target.")
    ] = 5,
    min_edges: Annotated[
        int, typer.Option("--min-edges", help="Weak relations need at least this many reference edges.")
    ] = 5,
    forms: Annotated[
        int, typer.Option("--forms", help="How many of the most suspicious forms to target (needs analyze).")
    ] = 10,
    view: Annotated[str, typer.Option("--view", help="Mining view of those forms (dep, pos, pos-dep, lemma).")] = "dep",
    complexity: Annotated[
        Optional[list[str]],
        typer.Option(
            "--complexity",
            metavar="METRIC=MIN",
            help="Only sentences whose METRIC (depth, length, mean_dependency_distance) is at least MIN; repeatable (all must hold).",
        ),
    ] = None,
    allow_reference: Annotated[
        bool,
        typer.Option(
            "--allow-reference",
            help="Allow --from the submission's own reference corpus (its test set: a leak into training).",
        ),
    ] = False,
) -> None:
    """Select treebank sentences rich in a submission's weakest relations and most suspicious subtrees,
    optionally only complex ones (large depth, length or mean dependency distance).

    Example: evalhouse augment --submission adapt/1 --from en_ewt-train --top 500 --complexity depth=8 --out extra.conllu
    """

    def action():
        thresholds = augment_module.parse_complexity(complexity)
        with open_warehouse(read_only=True, sandbox=True) as wh:
            s = augment_module.augment(
                wh,
                submission,
                source,
                top,
                out,
                corpus=corpus,
                weak_relations=weak_relations,
                min_edges=min_edges,
                forms=forms,
                view=view,
                complexity=thresholds,
                allow_reference=allow_reference,
            )
        typer.echo(
            f"wrote {s.written} sentence(s) to {out}; weak relations: {', '.join(s.weak_relations) or 'none'}; "
            f"suspicious forms: {len(s.forms)}"
        )

    execute(action)


ReportTest = choices("ReportTest", ("approximate-randomisation", "paired-bootstrap"))  # reports.html.SIGNIFICANCE_TESTS


@commands.command("report")
def report(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for index.html and figures/ (SVG, PDF, PNG).")],
    submission: Submission = None,
    team: Team = None,
    corpus: Corpus = None,
    examples: Annotated[
        int,
        typer.Option(
            "--examples", help="Example sentences per submission and relation (and per suspicious subtree); 0: none."
        ),
    ] = 3,
    test: Annotated[
        ReportTest, typer.Option("--test", help="Paired test behind the leaderboard's significance groups.")
    ] = ReportTest("approximate-randomisation"),
) -> None:
    """Write an offline HTML report (one file, no network) and its figures as SVG, PDF and PNG, for the
    analysed submissions and parser runs: one --submission, --team or --corpus, or all.

    Example: evalhouse report --corpus en_ewt-test --out report/
    """

    def action():
        selection.Selection.of(submission, team, corpus, exclusive=True)  # bad options before the warehouse
        with open_warehouse(read_only=True, sandbox=True) as wh:
            summary = html.build_report(
                wh, out, submission=submission, team=team, corpus=corpus, examples=examples, test=test.value
            )
        typer.echo(
            f"wrote {summary.path} ({summary.bytes / 1e6:.1f} MB, {summary.submissions} submission(s) with "
            f"{summary.examples} example output(s), {summary.parse_runs} parser run(s)) and "
            f"{len(summary.figures)} figure files in {summary.path.parent / 'figures'}"
        )

    execute(action)


@commands.command("evalb")
def evalb_command(
    gold_file: Annotated[str, typer.Argument(metavar="GOLD", help="Gold parses, one per line.")],
    test_file: Annotated[
        str, typer.Argument(metavar="TEST", help="Test parses, one per line (an empty line is a skipped sentence).")
    ],
    prm: Annotated[
        Optional[str],
        typer.Option(
            "--prm",
            help="EVALB parameters: 'collins' (built-in COLLINS.prm, the default), 'none' (nothing deleted, "
            "Sampson & Babarczy's (2003) setting) or a .prm file.",
        ),
    ] = None,
    layout: Annotated[
        str,
        typer.Option(
            "--layout",
            help="The report's layout: 2006 (the default: what EVALB's current release in C prints) or "
            "1997 (the older report of EVALB's sample.rsl).",
        ),
    ] = "2006",
) -> None:
    """Print EVALB's report (per-sentence rows and summary) for two bracketed files, as EVALB's current
    release in C prints it, computed directly (nothing is stored; see
    `evalhouse.reports.evalb.evalb_report_from_views` for a stored run). Where EVALB stops (more error
    sentences than MAX_ERROR allows, files with different line counts), the report is printed as far as
    EVALB prints it, then the error, and the exit code is 1.

    Example: evalhouse evalb sample.gld sample.tst --prm sample.prm
    """

    def action():
        notes: list[str] = []
        try:
            report = evalb.evalb_report(gold_file, test_file, parses.resolve_params(prm), notes=notes, layout=layout)
        except evalb.EvalbStopped as stopped:
            typer.echo(stopped.report, nl=False)
            _notes(notes)
            raise
        typer.echo(report, nl=False)
        _notes(notes)

    execute(action)


def _notes(notes: list[str]) -> None:
    for note in notes:
        typer.echo(f"evalhouse: note: {note}", err=True)


def _numbers(text: Optional[str], what: str) -> Optional[tuple[float, ...]]:
    if text is None:
        return None
    try:
        return tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise typer.BadParameter(f"{what} must be comma-separated numbers, got '{text}'") from None


@commands.command("apt")
def apt(
    config: Annotated[
        Optional[Path],
        typer.Option(
            "--config", help="An original APT configuration file (idiap/APT config_*): ingest its files and score them."
        ),
    ] = None,
    corpus: Annotated[
        Optional[str],
        typer.Option(
            "--corpus",
            help="Translation corpus (with --config: the name to ingest under, default the config file name).",
        ),
    ] = None,
    team: Annotated[
        Optional[str], typer.Option("--team", help="Only this team (with --run: print APT's report for it).")
    ] = None,
    run: Run = None,
    name: Annotated[
        Optional[str],
        typer.Option(
            "--name",
            help="Configuration to show (default: all; for one system's report: apt-b, Guillou & Hardmeier's (2018) APT-B; apt-config after --config).",
        ),
    ] = None,
    add: Annotated[
        Optional[str],
        typer.Option(
            "--add", help="Add a configuration of this name from the options below and score every system with it."
        ),
    ] = None,
    cases: Annotated[
        Optional[str],
        typer.Option(
            help="Cases counted, e.g. 1,2,3,4 (default 1,2,3,4,5,6: every pronoun, as Guillou & Hardmeier's (2018) APT-A and APT-B)."
        ),
    ] = None,
    weights: Annotated[
        Optional[str],
        typer.Option(
            help="One weight per case, e.g. 1,0,0,0,0,0 (APT-A); default APT-B's weight of each case (1 for case 1, 0.5 for case 2, 0 for the others)."
        ),
    ] = None,
    equivalence: Annotated[
        bool, typer.Option("--equivalence/--no-equivalence", help="Equivalent pronouns give case 2.")
    ] = True,
    alignment_correction: Annotated[
        bool,
        typer.Option(
            "--alignment-correction/--no-alignment-correction", help="Apply the alignment-correction heuristic."
        ),
    ] = True,
    target_list: Annotated[
        bool,
        typer.Option(
            "--target-list/--no-target-list",
            help="Map aligned words through the target pronoun list (others become OTHER).",
        ),
    ] = False,
    count_other_as_equal: Annotated[
        bool, typer.Option("--count-other-as-equal", help="OTHER in reference and output counts as identical.")
    ] = False,
    out: Annotated[
        Optional[Path],
        typer.Option("--out", "-o", help="Write APT's PREFIX.score and PREFIX.detail files (needs one system)."),
    ] = None,
    replace: Replace = False,
    drop_systems: DropSystems = False,
    drop_judgements: DropJudgements = False,
) -> None:
    """APT scores: run an original APT configuration file, or add/show a configuration of an ingested corpus.

    Example: evalhouse apt --config ../shared/data/mt/apt-es-en/config_1
    """

    def action():
        # showing a configuration only reads: read-only and confined, as every reader
        reads = config is None and add is None
        with open_warehouse(read_only=reads, sandbox=reads) as wh:
            if config is not None:
                report = wh.run_apt_config(
                    config,
                    corpus=corpus,
                    team=team or "system",
                    run=run,
                    replace=replace,
                    drop_systems=drop_systems,
                    drop_judgements=drop_judgements,
                )
            elif corpus is None:
                raise OptionError(
                    "give `config` (an APT configuration file), or `corpus` (an ingested translation corpus)"
                )
            else:
                if add is not None:
                    spec = translations.config_spec(
                        wh,
                        corpus,
                        add,
                        cases=_numbers(cases, "--cases"),
                        weights=_numbers(weights, "--weights"),
                        target_list=target_list,
                        equivalence=equivalence,
                        alignment_correction=alignment_correction,
                        count_other_as_equal=count_other_as_equal,
                    )
                    wh.add_apt_config(corpus, spec, replace=replace)
                elif cases or weights:
                    raise OptionError("`cases` and `weights` define a new configuration: name it with `add`")
                if team is None or run is None:
                    if out is not None:
                        raise OptionError("`out` needs one system: give `team` and `run`")
                    rel = apt_reports.apt_scores(wh, corpus, name or add, team)
                    typer.echo(text.render_table([d[0] for d in rel.description], rel.fetchall()))
                    return
                report = apt_reports.apt_report(
                    wh, corpus, name or add or apt_reports.default_config(wh, corpus), team, run
                )
            typer.echo(report.score_text, nl=False)
            if out is not None:
                Path(f"{out}.score").write_text(report.score_text, encoding="utf-8")
                Path(f"{out}.detail").write_text(report.detail_text, encoding="utf-8")
                typer.echo(f"wrote {out}.score and {out}.detail", err=True)

    execute(action)
