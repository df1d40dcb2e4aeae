"""``evalhouse analyze``, ``augment`` and ``report`` (statistics over stored scores,
:mod:`evalhouse.statistics` and :mod:`evalhouse.reports.html`), and ``evalhouse evalb`` and ``apt``
(the reports of the reference scorers, :mod:`evalhouse.reports.evalb` and :mod:`evalhouse.reports.apt`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from evalhouse.cli.common import Corpus, DropJudgements, DropSystems, Replace, Run, Team, execute, open_warehouse
from evalhouse.errors import OptionError
from evalhouse.lazy import lazy_module

# the library modules behind these commands, executed when a command runs (see evalhouse.lazy)
analyze_module = lazy_module("evalhouse.statistics.analyze")
apt_configs = lazy_module("evalhouse.ingest.apt_configs")
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


@commands.command("analyze")
def analyze(
    team: Team = None,
    corpus: Corpus = None,
    alpha: Annotated[float, typer.Option("--alpha", help="Significance level (after Holm).")] = 0.05,
    nonprojective_threshold: Annotated[float, typer.Option("--nonprojective-threshold", help="Projectivity tests only on corpora with a larger share of non-projective sentences.")] = 0.05,
    min_relation_edges: Annotated[int, typer.Option("--min-relation-edges", help="Entropy-DEA correlation: relations with at least this many edges.")] = 1,
    failure_metric: Annotated[str, typer.Option("--failure-metric", help="Sentence metric defining failures (bleu, dea, fluency_z, adequacy_z).")] = "bleu",
    failure_share: Annotated[float, typer.Option("--failure-share", help="Share of lowest-scoring sentences that are failures.")] = 0.25,
    max_size: Annotated[int, typer.Option("--max-size", help="Largest subtree (nodes) mined.")] = 3,
    view: Annotated[Optional[list[str]], typer.Option("--view", help="Mining view (dep, pos, pos-dep, lemma); repeatable; default all.")] = None,
    score_form: Annotated[str, typer.Option("--score", help="Suspicion score: narayan-gardent or printed (seed 001).")] = "narayan-gardent",
    top_k: Annotated[int, typer.Option("--top-k", help="Forms ranked up to this are a submission's suspicious forms (coverage).")] = 10,
    keep: Annotated[int, typer.Option("--keep", help="Store the best KEEP forms per submission and view (0: all).")] = 100,
    resamples: Annotated[int, typer.Option("--resamples", help="Bootstrap / randomisation resamples.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the resampling.")] = 1,
) -> None:
    """(Re)compute correlations, tests, error mining, significance and the ensemble into tables, for the
    submissions of --team and --corpus (default: all).

    Example: evalhouse analyze --corpus en_ewt-test --resamples 1000
    """
    def action():
        config = analyze_module.AnalysisConfig(
            alpha=alpha, nonprojective_threshold=nonprojective_threshold, min_relation_edges=min_relation_edges,
            failure_metric=failure_metric, failure_share=failure_share, max_size=max_size,
            views=tuple(view or mining.VIEWS), score_form=score_form, top_k=top_k, keep=keep, resamples=resamples,
            seed=seed)
        with open_warehouse() as wh:
            summary = analyze_module.analyze(wh, config, team=team, corpus=corpus)
        typer.echo(f"analysed {summary.submissions} submission(s) on {summary.corpora} corpus(es): "
                   + ", ".join(f"{t} {n:,}" for t, n in summary.rows.items()))

    execute(action)


@commands.command("augment")
def augment(
    submission: Annotated[str, typer.Option("--submission", help="TEAM/RUN whose weaknesses to target.")],
    source: Annotated[str, typer.Option("--from", help="Treebank corpus (e.g. a training set) to select sentences from.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="CoNLL-U file to write.")],
    top: Annotated[int, typer.Option("--top", help="Number of sentences to select.")] = 100,
    corpus: Annotated[Optional[str], typer.Option("--corpus", help="Reference corpus of the submission (when it has several).")] = None,
    weak_relations: Annotated[int, typer.Option("--weak-relations", help="How many lowest-DEA relations to target.")] = 5,
    min_edges: Annotated[int, typer.Option("--min-edges", help="Weak relations need at least this many reference edges.")] = 5,
    forms: Annotated[int, typer.Option("--forms", help="How many of the most suspicious forms to target (needs analyze).")] = 10,
    view: Annotated[str, typer.Option("--view", help="Mining view of those forms (dep, pos, pos-dep, lemma).")] = "dep",
) -> None:
    """Select treebank sentences rich in a submission's weakest relations and most suspicious subtrees.

    Example: evalhouse augment --submission adapt/1 --from en_ewt-train --top 500 --out extra.conllu
    """
    def action():
        with open_warehouse(read_only=True) as wh:
            s = augment_module.augment(wh, submission, source, top, out, corpus=corpus, weak_relations=weak_relations,
                                       min_edges=min_edges, forms=forms, view=view)
        typer.echo(f"wrote {s.written} sentence(s) to {out}; weak relations: {', '.join(s.weak_relations) or 'none'}; "
                   f"suspicious forms: {len(s.forms)}")

    execute(action)


@commands.command("report")
def report(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for index.html and the PNG figures.")],
    submission: Submission = None,
    team: Team = None,
    corpus: Corpus = None,
) -> None:
    """Write a self-contained HTML report (PNG figures, no network) of the analysed submissions: one
    --submission, --team or --corpus, or all.

    Example: evalhouse report --corpus en_ewt-test --out report/
    """
    def action():
        selection.Selection.of(submission, team, corpus, exclusive=True)  # bad options before the warehouse
        with open_warehouse(read_only=True) as wh:
            path = html.write_report(wh, out, submission=submission, team=team, corpus=corpus)
        typer.echo(f"wrote {path}")

    execute(action)


@commands.command("evalb")
def evalb_command(
    gold_file: Annotated[str, typer.Argument(metavar="GOLD", help="Gold parses, one per line.")],
    test_file: Annotated[str, typer.Argument(metavar="TEST", help="Test parses, one per line (an empty line is a skipped sentence).")],
    prm: Annotated[Optional[str], typer.Option(
        "--prm", help="EVALB parameters: 'collins' (built-in COLLINS.prm, the default), 'none' (nothing deleted, "
                      "seed 002's setting) or a .prm file.")] = None,
) -> None:
    """Print EVALB's report (per-sentence rows and summary) for two bracketed files, computed through
    the warehouse views in memory.

    Example: evalhouse evalb sample.gld sample.tst --prm sample.prm
    """
    def action():
        notes: list[str] = []
        typer.echo(evalb.evalb_report(gold_file, test_file, parses.resolve_params(prm), notes=notes), nl=False)
        for note in notes:
            typer.echo(f"evalhouse: note: {note}", err=True)

    execute(action)


def _numbers(text: Optional[str], what: str) -> Optional[tuple[float, ...]]:
    if text is None:
        return None
    try:
        return tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise typer.BadParameter(f"{what} must be comma-separated numbers, got '{text}'") from None


@commands.command("apt")
def apt(
    config: Annotated[Optional[Path], typer.Option("--config", help="An original APT configuration file (idiap/APT config_*): ingest its files and score them.")] = None,
    corpus: Annotated[Optional[str], typer.Option("--corpus", help="Translation corpus (with --config: the name to ingest under, default the config file name).")] = None,
    team: Annotated[Optional[str], typer.Option("--team", help="Only this team (with --run: print APT's report for it).")] = None,
    run: Run = None,
    name: Annotated[Optional[str], typer.Option("--name", help="Configuration to show (default: all; for one system's report: default, or apt-config after --config).")] = None,
    add: Annotated[Optional[str], typer.Option("--add", help="Add a configuration of this name from the options below and score every system with it.")] = None,
    cases: Annotated[Optional[str], typer.Option(help="Cases counted, e.g. 1,2,3,4,5,6 (default 1,2,3,4).")] = None,
    weights: Annotated[Optional[str], typer.Option(help="One weight per case, e.g. 1,0.5,0,0 (APT-B; APT-A is 1,0,0,0).")] = None,
    equivalence: Annotated[bool, typer.Option("--equivalence/--no-equivalence", help="Equivalent pronouns give case 2.")] = True,
    alignment_correction: Annotated[bool, typer.Option("--alignment-correction/--no-alignment-correction", help="Apply the alignment-correction heuristic.")] = True,
    target_list: Annotated[bool, typer.Option("--target-list/--no-target-list", help="Map aligned words through the target pronoun list (others become OTHER).")] = False,
    count_other_as_equal: Annotated[bool, typer.Option("--count-other-as-equal", help="OTHER in reference and output counts as identical.")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write APT's PREFIX.score and PREFIX.detail files (needs one system).")] = None,
    replace: Replace = False,
    drop_systems: DropSystems = False,
    drop_judgements: DropJudgements = False,
) -> None:
    """APT scores: run an original APT configuration file, or add/show a configuration of an ingested corpus.

    Example: evalhouse apt --config ../shared/data/mt/apt-es-en/config_1
    """
    def action():
        with open_warehouse() as wh:
            if config is not None:
                report = apt_configs.run_apt_config(wh, config, corpus=corpus, team=team or "system", run=run,
                                                    replace=replace, drop_systems=drop_systems,
                                                    drop_judgements=drop_judgements)
            elif corpus is None:
                raise OptionError("give `config` (an APT configuration file), or `corpus` (an ingested translation corpus)")
            else:
                if add is not None:
                    spec = translations.config_spec(
                        wh, corpus, add, cases=_numbers(cases, "--cases"), weights=_numbers(weights, "--weights"),
                        target_list=target_list, equivalence=equivalence, alignment_correction=alignment_correction,
                        count_other_as_equal=count_other_as_equal)
                    translations.add_config(wh, corpus, spec, replace=replace)
                elif cases or weights:
                    raise OptionError("`cases` and `weights` define a new configuration: name it with `add`")
                if team is None or run is None:
                    if out is not None:
                        raise OptionError("`out` needs one system: give `team` and `run`")
                    rel = apt_reports.apt_scores(wh, corpus, name or add, team)
                    typer.echo(text.render_table([d[0] for d in rel.description], rel.fetchall()))
                    return
                report = apt_reports.apt_report(wh, corpus, name or add or apt_reports.default_config(wh, corpus),
                                                team, run)
            typer.echo(report.score_text, nl=False)
            if out is not None:
                Path(f"{out}.score").write_text(report.score_text, encoding="utf-8")
                Path(f"{out}.detail").write_text(report.detail_text, encoding="utf-8")
                typer.echo(f"wrote {out}.score and {out}.detail", err=True)

    execute(action)
