"""``evalhouse ingest ...`` and ``evalhouse baseline``: files into the warehouse, one transaction per command.

Each command parses its options, calls one method of :class:`evalhouse.warehouse.Warehouse` (whose body is a
function of :mod:`evalhouse.ingest`), then prints a summary.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from evalhouse.cli.common import (
    DropJudgements,
    DropSystems,
    Quiet,
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

# the EVALB parameter and label-cost resolvers of the parse options, executed when a command runs (see evalhouse.lazy)
parses = lazy_module("evalhouse.ingest.parses")
label_costs = lazy_module("evalhouse.ingest.label_costs")  # dependency-run's: not the constituency ingest

group = typer.Typer(help="Load files into the warehouse (one transaction per command).", no_args_is_help=True)
commands = typer.Typer()

OutputFormat = choices("OutputFormat", ("auto", "sr", "lines", "conllu"))  # evalhouse.loaders.outputs.FORMATS
BaselineKind = choices("BaselineKind", ("random", "lr"))  # evalhouse.analysis.baselines.KINDS


PrmOption = Annotated[
    Optional[str],
    typer.Option(
        "--prm",
        help="EVALB parameters: 'collins' (built-in COLLINS.prm, the default), 'none' (nothing deleted, "
        "Sampson & Babarczy's (2003) setting) or a .prm file.",
    ),
]
CostOption = Annotated[
    str,
    typer.Option(
        "--cost",
        help="Leaf-ancestor label-cost function: default (Sampson & Babarczy 2003: 0.5 for labels sharing their first "
        "character, else 2), strict (2 for any different label) or a cost-table file.",
    ),
]


@group.command("treebank")
def ingest_treebank(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="FILE_OR_DIR...", help="CoNLL-U files, directories of *.conllu files, or - for standard input."
        ),
    ],
    corpus: Annotated[
        Optional[str],
        typer.Option(
            "--corpus",
            help="Corpus name (default from UD file names: en_ewt-ud-test.conllu -> en_ewt-test); with several files, all go into this one corpus.",
        ),
    ] = None,
    language: Annotated[Optional[str], typer.Option(help="Language code (default from the UD file name).")] = None,
    replace: Replace = False,
    input_of: Annotated[
        Optional[str],
        typer.Option(
            "--input-of",
            help="Record the corpus as the generation input (e.g. SR shallow-track trees) of this reference corpus, sentence by sentence.",
        ),
    ] = None,
    quiet: Quiet = False,
) -> None:
    """Ingest CoNLL-U treebanks: validate, shred into nodes/edges, compute complexity.

    Example: evalhouse ingest treebank ../shared/data/ud-v2.3/en_ewt-ud-test.conllu
    """

    def action():
        with open_warehouse() as wh, progress(quiet) as bars:
            summaries = wh.ingest_treebank(
                paths, corpus=corpus, language=language, replace=replace, progress=bars, input_of=input_of
            )
        for s in summaries:  # a warning is not a summary: shown with --quiet too
            for note in s.same_files:
                typer.echo(f"evalhouse: warning: {note}: stored again as corpus '{s.corpus}'", err=True)
        if not quiet:
            for s in summaries:
                typer.echo(f"{s.corpus}: {s.sentences:,} sentences, {s.words:,} words, {s.edges:,} edges")
                if s.missing_lemmas:
                    typer.echo(f"  {s.missing_lemmas_note}")
                for note in s.normalisations:
                    typer.echo(f"  normalised: {note}")
                for note in s.links_dropped:
                    typer.echo(f"  no longer its input (link in corpus_inputs deleted): {note}")

    execute(action)


@group.command("outputs")
def ingest_outputs(
    path: Annotated[
        Optional[str],
        typer.Argument(metavar="FILE_OR_DIR", help="An output file, or a campaign directory DIR/<team>/<run>/<file>."),
    ] = None,
    reference: Annotated[
        str, typer.Option("--reference", help="Reference corpus the outputs realise (already ingested).")
    ] = ...,
    team: Team = None,
    run: Run = None,
    format: Annotated[
        OutputFormat,
        typer.Option(
            "--format",
            help="Output format: sr (# sent_id/# text blocks), lines (one sentence per line), conllu, or auto.",
        ),
    ] = OutputFormat.auto,
    manifest: Annotated[
        Optional[str],
        typer.Option(help="CSV with columns path, team, run[, format]: several files in one transaction."),
    ] = None,
    lexicon: Annotated[
        bool,
        typer.Option(
            "--lexicon/--no-lexicon",
            help="Link inflected forms to their reference word through a lemma lexicon learned from the treebanks of the reference's language (link method lexicon).",
        ),
    ] = True,
    lexicon_min_count: Annotated[
        int,
        typer.Option(
            "--lexicon-min-count", min=1, help="Learn only form-lemma pairs attested at least this many times."
        ),
    ] = 1,
    sacrebleu: Annotated[
        bool,
        typer.Option(
            "--sacrebleu/--no-sacrebleu",
            help="Also store sacreBLEU BLEU and chrF with their signatures (view sacrebleu_scores).",
        ),
    ] = True,
    inflection: Annotated[
        bool,
        typer.Option(
            "--inflection/--no-inflection",
            help="Also link regular inflections and negative contractions by the rules of the reference's language, English only (link methods inflection and contraction).",
        ),
    ] = True,
    replace: Replace = False,
    drop_judgements: DropJudgements = False,
    quiet: Quiet = False,
) -> None:
    """Ingest system outputs: align every output sentence to its reference tree and score it.
    A single file needs --team and --run; a directory or a manifest names them.

    Example: evalhouse ingest outputs en_out.txt --team adapt --run 1 --reference en_ewt-test
    """

    def action():
        with open_warehouse() as wh, progress(quiet) as bars:
            summaries = wh.ingest_outputs(
                path,
                reference=reference,
                team=team,
                run=run,
                format=format.value,
                manifest=manifest,
                replace=replace,
                progress=bars,
                drop_judgements=drop_judgements,
                lexicon=lexicon,
                lexicon_min_count=lexicon_min_count,
                sacrebleu=sacrebleu,
                inflection=inflection,
            )
        if not quiet:
            for s in summaries:
                typer.echo(
                    f"{s.team}/{s.run} on {s.corpus}: {s.given_sentences:,} of {s.sentences:,} sentences ({s.format})"
                )
                if s.missing_positions:
                    shown = ", ".join(map(str, s.missing_positions[:10]))
                    more = f" and {len(s.missing_positions) - 10} more" if len(s.missing_positions) > 10 else ""
                    typer.echo(f"  missing (scored as empty outputs): positions {shown}{more}")
                if s.judgements_kept or s.judgements_dropped:
                    typer.echo(
                        f"  judgements: {s.judgements_kept:,} kept (their sentence is unchanged), "
                        f"{s.judgements_dropped:,} deleted"
                    )
                for note in s.notes:
                    typer.echo(f"  {note}")

    execute(action)


@group.command("judgements")
def ingest_judgements(
    path: Annotated[
        str, typer.Argument(metavar="FILE.csv", help="CSV: team, run, corpus, sent_id, annotator, criterion, score.")
    ],
    quiet: Quiet = False,
) -> None:
    """Ingest human judgements of output sentences (z-scores in the view judgement_z).

    Example: evalhouse ingest judgements sr19-human.csv
    """

    def action():
        with open_warehouse() as wh:
            n = wh.ingest_judgements(path)
        if not quiet:
            typer.echo(f"{n:,} judgements")

    execute(action)


def _eq_pairs(values: list[str] | None) -> list[tuple[str, str]]:
    pairs = []
    for v in values or []:
        a, sep, b = v.partition("=")
        if not sep or not a or not b:
            raise OptionError(f"`eq_label` needs A=B, found '{v}'")
        pairs.append((a, b))
    return pairs


@group.command("parses")
def ingest_parses(
    path: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="Bracketed parses (Penn Treebank or Sampson & Babarczy (2003) square notation), or - for standard input.",
        ),
    ],
    corpus: Annotated[
        str,
        typer.Option(
            "--corpus", help="Corpus name shared by the gold parses and the candidate runs scored against them."
        ),
    ],
    gold: Annotated[bool, typer.Option("--gold", help="These are the gold parses of the corpus.")] = False,
    team: Team = None,
    run: Run = None,
    prm: PrmOption = None,
    delete_label: Annotated[
        Optional[list[str]],
        typer.Option(
            "--delete-label",
            help="Add an EVALB DELETE_LABEL (repeatable): a preterminal goes with its word, a "
            "nonterminal loses its brackets.",
        ),
    ] = None,
    eq_label: Annotated[
        Optional[list[str]], typer.Option("--eq-label", help="Add an EVALB EQ_LABEL pair written A=B (repeatable).")
    ] = None,
    cost: CostOption = "default",
    one_per_line: Annotated[
        bool,
        typer.Option(
            "--one-per-line", help="Each line is one sentence (EVALB's convention; an empty line is an empty parse)."
        ),
    ] = False,
    allow_mismatch: Annotated[
        bool,
        typer.Option(
            "--allow-mismatch",
            help="Record a candidate sentence whose words differ from the gold's with EVALB's error status instead of refusing the file.",
        ),
    ] = False,
    replace: Replace = False,
    quiet: Quiet = False,
) -> None:
    """Ingest constituency parses: the gold parses of a corpus (--gold), or a candidate run (--team, --run)
    scored against them (GEIG/PARSEVAL as EVALB does it, and the leaf-ancestor metric).

    Example: evalhouse ingest parses wsj01.mrg --corpus wsj01 --gold && evalhouse ingest parses berkeley.mrg --corpus wsj01 --team berkeley --run 1
    """

    def action():
        params = parses.resolve_params(prm, delete_labels=delete_label or (), eq_labels=_eq_pairs(eq_label))
        with open_warehouse() as wh:
            s = wh.ingest_parses(
                path,
                corpus,
                gold=gold,
                team=team,
                run=run,
                params=params,
                cost=parses.resolve_cost(cost),
                replace=replace,
                one_per_line=one_per_line,
                allow_mismatch=allow_mismatch,
            )
        if not quiet:
            who = "gold" if gold else f"{team}/{run}"
            typer.echo(
                f"{s.corpus} ({who}): {s.sentences:,} sentences, {s.leaves:,} leaves, {s.constituents:,} constituents"
            )
            if not gold:
                typer.echo(f"  scored: {s.ok:,} ok, {s.errors:,} error, {s.skipped:,} skip; {s.config}")

    execute(action)


@group.command("dependency-run")
def ingest_dependency_run(
    path: Annotated[str, typer.Argument(metavar="SYSTEM", help="CoNLL-U output of a dependency parser.")],
    gold: Annotated[
        str,
        typer.Option(
            "--gold", help="Gold CoNLL-U file of the same text (ingested as the treebank --corpus the first time)."
        ),
    ],
    corpus: Annotated[
        str, typer.Option("--corpus", help="Corpus name (e.g. en_ewt): the treebank holding the gold trees.")
    ],
    team: Annotated[str, typer.Option("--team", help="Team (parser) name.")],
    run: Annotated[str, typer.Option("--run", help="Run name.")],
    cost: Annotated[
        str,
        typer.Option(
            "--cost",
            help="Label-cost function of the dependency LA over relations: strict (the default here), default (Sampson & Babarczy's (2003) first-character rule) or a cost-table file.",
        ),
    ] = "strict",
    replace: Replace = False,
    quiet: Quiet = False,
) -> None:
    """Score a dependency parser's CoNLL-U output against gold UD trees: every CoNLL 2018 metric (Tokens ...
    LAS, CLAS, MLAS, BLEX) beside the dependency leaf-ancestor metric, per word, sentence, relation and run.

    Example: evalhouse ingest dependency-run UDPipe-Future/en_ewt.conllu --gold gold/en_ewt.conllu --corpus en_ewt --team UDPipe-Future --run 1
    """

    def action():
        with open_warehouse() as wh:
            r = wh.ingest_dependency_run(
                path, gold, corpus, team, run, cost=label_costs.resolve_cost(cost), replace=replace
            )
        if not quiet:
            typer.echo(
                f"{corpus} ({team}/{run}): {r['gold_words']:,} gold words, {r['system_words']:,} system words, "
                f"{r['aligned_words']:,} aligned; UAS {100 * r['uas_f1']:.2f}, LAS {100 * r['las_f1']:.2f}, "
                f"CLAS {100 * r['clas_f1']:.2f}, MLAS {100 * r['mlas_f1']:.2f}, BLEX {100 * r['blex_f1']:.2f}, "
                f"dependency LA {r['la_gold_mean']:.4f}"
            )

    execute(action)


@group.command("translations")
def ingest_translations(
    corpus: Annotated[str, typer.Option("--corpus", help="Corpus name (key of segments, systems and scores).")],
    source: Annotated[Optional[Path], typer.Option(help="Source text, one tokenised segment per line.")] = None,
    reference: Annotated[Optional[Path], typer.Option(help="Reference translation, line by line.")] = None,
    source_reference_alignment: Annotated[
        Optional[Path], typer.Option(help="Pharaoh i-j (0-based) or APT .symal alignment of source and reference.")
    ] = None,
    documents: Annotated[
        Optional[Path],
        typer.Option(help="Document boundaries: per line the 0-based first segment of a document and an optional id."),
    ] = None,
    pronouns: Annotated[
        Optional[str],
        typer.Option(
            help="Pronoun set: a bundled one (es-en, en-fr) or a pronoun-set file (default: from the languages)."
        ),
    ] = None,
    source_language: Annotated[
        Optional[str], typer.Option(help="Source language code (picks the bundled pronoun set with --target-language).")
    ] = None,
    target_language: Annotated[Optional[str], typer.Option(help="Target language code.")] = None,
    team: Team = None,
    run: Run = None,
    output: Annotated[Optional[Path], typer.Option(help="System translation, line by line.")] = None,
    source_output_alignment: Annotated[
        Optional[Path], typer.Option(help="Alignment of source and system output.")
    ] = None,
    skip_bad_alignment_lines: Annotated[
        bool,
        typer.Option(
            "--skip-bad-alignment-lines",
            help="Drop alignment lines with indices beyond their segment (recorded; their pronouns are not scored) instead of refusing the input.",
        ),
    ] = False,
    replace: Replace = False,
    drop_systems: DropSystems = False,
    drop_judgements: DropJudgements = False,
    quiet: Quiet = False,
) -> None:
    """Ingest a parallel corpus (source, reference, alignment) and/or a system translation (--team, --run,
    --output, alignment); scores its pronouns.

    Example: evalhouse ingest translations --corpus discomt --source mt-output.en --reference pronoun-test.tok.fr --source-reference-alignment pronoun-test.tok.en-fr.alig --documents doc-boundaries --pronouns en-fr
    """

    def action():
        with open_warehouse() as wh:
            s = wh.ingest_translations(
                corpus,
                source=source,
                reference=reference,
                source_reference_alignment=source_reference_alignment,
                documents=documents,
                pronouns=pronouns,
                source_language=source_language,
                target_language=target_language,
                team=team,
                run=run,
                output=output,
                source_output_alignment=source_output_alignment,
                replace=replace,
                skip_bad_alignment_lines=skip_bad_alignment_lines,
                drop_systems=drop_systems,
                drop_judgements=drop_judgements,
            )
        if not quiet:
            what = f"{s.segments:,} segments" + (f", {s.documents:,} documents" if s.documents is not None else "")
            if s.system:
                what += f"; system {s.system[0]}/{s.system[1]}: {s.pronouns:,} source pronouns scored"
            typer.echo(f"{s.corpus}: {what}")
            for note in s.normalisations:
                typer.echo(f"  normalised: {note}")
            if s.systems_dropped:
                typer.echo(f"  systems deleted: {s.systems_dropped:,}")
            if s.judgements_kept or s.judgements_dropped:
                typer.echo(
                    f"  pronoun judgements: {s.judgements_kept:,} kept (their segment is unchanged), "
                    f"{s.judgements_dropped:,} deleted"
                )

    execute(action)


@group.command("pronoun-judgements")
def ingest_pronoun_judgements(
    path: Annotated[
        Path,
        typer.Argument(
            metavar="FILE.csv",
            help="CSV: team,run,position,source_index,category,judgement (1-based; correct/incorrect/unjudgeable).",
        ),
    ],
    corpus: Annotated[str, typer.Option("--corpus", help="Translation corpus the judgements belong to.")],
    replace: Replace = False,
) -> None:
    """Ingest human judgements of pronoun translations (for apt_human_agreement and apt_human_correlation).

    Example: evalhouse ingest pronoun-judgements protest.csv --corpus discomt
    """

    def action():
        with open_warehouse() as wh:
            n = wh.ingest_pronoun_judgements(path, corpus, replace=replace)
        typer.echo(f"{corpus}: {n:,} pronoun judgements")

    execute(action)


@commands.command("baseline")
def baseline(
    kind: Annotated[
        BaselineKind, typer.Argument(help="random (seeded random order) or lr (Bangalore et al.'s left-right model).")
    ],
    corpus: Annotated[str, typer.Option("--corpus", help="Reference corpus to realise (already ingested).")],
    team: Team = "baseline",
    run: Annotated[Optional[str], typer.Option("--run", help="Run name (default: the baseline kind).")] = None,
    train: Annotated[
        Optional[str],
        typer.Option(help="lr: corpus to learn directions from (default: the reference corpus itself, optimistic)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="random: seed of the generator.")] = 1,
    out: Annotated[
        Optional[Path], typer.Option("--out", "-o", help="Also write the output (SR format) to this file.")
    ] = None,
    replace: Replace = False,
    drop_judgements: DropJudgements = False,
) -> None:
    """Realise a corpus with a baseline, then ingest and score it like any submission (team 'baseline'
    unless --team).

    Example: evalhouse baseline lr --corpus en_ewt-test --train en_ewt-train --run lr
    """

    def action():
        with open_warehouse() as wh:
            s = wh.run_baseline(
                kind.value,
                corpus,
                team=team,
                run=run,
                train=train,
                seed=seed,
                out=out,
                replace=replace,
                drop_judgements=drop_judgements,
            )
            dea, bleu = wh.sql(
                "SELECT dea, mean_bleu FROM submission_scores WHERE team = $t AND run = $r AND corpus = $c",
                {"t": s.team, "r": s.run, "c": s.corpus},
            ).fetchone()
        typer.echo(f"{s.team}/{s.run} on {s.corpus}: {s.sentences:,} sentences, DEA {dea:.4f}, mean BLEU {bleu:.4f}")

    execute(action)
