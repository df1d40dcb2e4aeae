"""The ``evalhouse`` command: a thin typer layer over :mod:`evalhouse.warehouse`.

Exit codes: 0 success; 1 bad input (the message names file and line); 2 bad usage;
3 the warehouse refused (locked, corpus exists, unknown view or corpus).
Set ``EVALHOUSE_TRACEBACK=1`` (or pass ``--traceback``) to see Python tracebacks.
Heavy libraries (duckdb, pandas, numpy, sqlglot) are imported only inside commands, so
``evalhouse --help`` answers at once.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

EXIT_INPUT, EXIT_USAGE, EXIT_WAREHOUSE = 1, 2, 3

app = typer.Typer(
    name="evalhouse",
    help="A DuckDB warehouse of treebanks and system outputs: which constructions systems get wrong.\n\n"
         "Example: evalhouse ingest treebank en_ewt-ud-test.conllu && evalhouse sql 'select * from corpus_complexity'",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
ingest_app = typer.Typer(help="Load files into the warehouse (one transaction per command).", no_args_is_help=True)
app.add_typer(ingest_app, name="ingest")


class _State:
    db: Optional[str] = None
    memory_limit: Optional[str] = None
    traceback: bool = False


state = _State()


DbOption = Annotated[Optional[str], typer.Option(
    "--db", envvar="EVALHOUSE_DB", help="Warehouse file (default ./warehouse.duckdb, or $EVALHOUSE_DB).")]


class TableFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


class ExportFormat(str, Enum):
    parquet = "parquet"
    csv = "csv"
    json = "json"


def _print_version(value: bool) -> None:
    if value:
        from evalhouse import __version__

        typer.echo(f"evalhouse {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    db: DbOption = None,
    traceback: Annotated[bool, typer.Option("--traceback", envvar="EVALHOUSE_TRACEBACK",
                                            help="Show Python tracebacks on errors.")] = False,
    memory_limit: Annotated[Optional[str], typer.Option(
        "--memory-limit", envvar="EVALHOUSE_MEMORY_LIMIT",
        help="Cap DuckDB's memory, e.g. 2GB (default: DuckDB's, 80% of RAM); larger work spills to disk.")] = None,
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.", is_eager=True,
                                          callback=_print_version)] = False,
) -> None:
    state.db = db
    state.memory_limit = memory_limit
    state.traceback = traceback


def _fail(message: str, code: int) -> None:
    typer.echo(f"evalhouse: {message}", err=True)
    raise typer.Exit(code)


def _run(action):
    """Call ``action``; turn known errors into one line on stderr and a meaningful exit code."""
    from evalhouse.loaders.errors import InputError
    from evalhouse.warehouse import WarehouseError

    try:
        return action()
    except typer.Exit:
        raise
    except InputError as err:
        if state.traceback:
            raise
        _fail(str(err), EXIT_INPUT)
    except WarehouseError as err:
        if state.traceback:
            raise
        _fail(str(err), EXIT_WAREHOUSE)
    except ValueError as err:
        if state.traceback:
            raise
        _fail(str(err), EXIT_USAGE)
    except Exception as err:  # duckdb errors in user SQL, for instance
        if state.traceback:
            raise
        name = type(err).__name__
        _fail(f"{name}: {str(err).splitlines()[0] if str(err) else name}", EXIT_INPUT if "duckdb" in type(err).__module__ else 4)


def _open(read_only: bool = False):
    from evalhouse.warehouse import connect

    return connect(state.db, read_only=read_only, memory_limit=state.memory_limit)


@ingest_app.command("treebank")
def ingest_treebank(
    paths: Annotated[list[str], typer.Argument(metavar="FILE_OR_DIR...",
                                              help="CoNLL-U files, directories of *.conllu files, or - for standard input.")],
    corpus: Annotated[Optional[str], typer.Option(help="Corpus name (default from UD file names: en_ewt-ud-test.conllu -> en_ewt-test); with several files, all go into this one corpus.")] = None,
    language: Annotated[Optional[str], typer.Option(help="Language code (default from the UD file name).")] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace a corpus of the same name instead of refusing.")] = False,
    input_of: Annotated[Optional[str], typer.Option("--input-of", help="Record the corpus as the generation input (e.g. SR shallow-track trees) of this reference corpus, sentence by sentence.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary output.")] = False,
) -> None:
    """Ingest CoNLL-U treebanks: validate, shred into nodes/edges, compute complexity.

    Example: evalhouse ingest treebank ../shared/data/ud-v2.3/en_ewt-ud-test.conllu
    """

    show_progress = not quiet and sys.stderr.isatty()

    def progress(path: str, i: int, n: int) -> None:
        if show_progress:
            typer.echo(f"[{i + 1}/{n}] reading {path}", err=True)

    def action():
        with _open() as wh:
            summaries = wh.ingest_treebank(paths, corpus=corpus, language=language, replace=replace, progress=progress,
                                           input_of=input_of)
        if not quiet:
            for s in summaries:
                typer.echo(f"{s.corpus}: {s.sentences:,} sentences, {s.words:,} words, {s.edges:,} edges")
                for note in s.normalisations:
                    typer.echo(f"  normalised: {note}")

    _run(action)


class OutputFormat(str, Enum):
    auto = "auto"
    sr = "sr"
    lines = "lines"
    conllu = "conllu"


@ingest_app.command("outputs")
def ingest_outputs(
    path: Annotated[Optional[str], typer.Argument(metavar="FILE_OR_DIR",
                                                  help="An output file, or a campaign directory DIR/<team>/<run>/<file>.")] = None,
    reference: Annotated[str, typer.Option("--reference", help="Reference corpus the outputs realise (already ingested).")] = ...,
    team: Annotated[Optional[str], typer.Option(help="Team name (for a single file).")] = None,
    run: Annotated[Optional[str], typer.Option(help="Run name (for a single file).")] = None,
    format: Annotated[OutputFormat, typer.Option("--format", help="Output format: sr (# sent_id/# text blocks), lines (one sentence per line), conllu, or auto.")] = OutputFormat.auto,
    manifest: Annotated[Optional[str], typer.Option(help="CSV with columns path, team, run[, format]: several files in one transaction.")] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace a submission with the same team, run and corpus instead of refusing.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary output.")] = False,
) -> None:
    """Ingest system outputs: align every output sentence to its reference tree and score it.

    Example: evalhouse ingest outputs en_out.txt --team adapt --run 1 --reference en_ewt-test
    """
    show_progress = not quiet and sys.stderr.isatty()

    def progress(p: str, i: int, n: int) -> None:
        if show_progress:
            typer.echo(f"[{i + 1}/{n}] scoring {p}", err=True)

    def action():
        with _open() as wh:
            summaries = wh.ingest_outputs(path, reference=reference, team=team, run=run, format=format.value,
                                          manifest=manifest, replace=replace, progress=progress)
        if not quiet:
            for s in summaries:
                typer.echo(f"{s.team}/{s.run} on {s.corpus}: {s.given_sentences:,} of {s.sentences:,} sentences "
                           f"({s.format})")
                if s.missing_positions:
                    shown = ", ".join(map(str, s.missing_positions[:10]))
                    more = f" and {len(s.missing_positions) - 10} more" if len(s.missing_positions) > 10 else ""
                    typer.echo(f"  missing (scored as empty outputs): positions {shown}{more}")

    _run(action)


@ingest_app.command("judgements")
def ingest_judgements(
    path: Annotated[str, typer.Argument(metavar="FILE.csv", help="CSV: team, run, corpus, sent_id, annotator, criterion, score.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary output.")] = False,
) -> None:
    """Ingest human judgements of output sentences (z-scores in the view judgement_z).

    Example: evalhouse ingest judgements sr19-human.csv
    """
    def action():
        with _open() as wh:
            n = wh.ingest_judgements(path)
        if not quiet:
            typer.echo(f"{n:,} judgements")

    _run(action)


class BaselineKind(str, Enum):
    random = "random"
    lr = "lr"


@app.command("baseline")
def baseline(
    kind: Annotated[BaselineKind, typer.Argument(help="random (seeded random order) or lr (Bangalore et al.'s left-right model).")],
    corpus: Annotated[str, typer.Option("--corpus", help="Reference corpus to realise (already ingested).")],
    team: Annotated[str, typer.Option(help="Team name of the baseline run.")] = "baseline",
    run: Annotated[Optional[str], typer.Option(help="Run name (default: the baseline kind).")] = None,
    train: Annotated[Optional[str], typer.Option(help="lr: corpus to learn directions from (default: the reference corpus itself, optimistic).")] = None,
    seed: Annotated[int, typer.Option(help="random: seed of the generator.")] = 1,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Also write the output (SR format) to this file.")] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace an existing run with the same team and run name.")] = False,
) -> None:
    """Realise a corpus with a baseline, then ingest and score it like any submission.

    Example: evalhouse baseline lr --corpus en_ewt-test --train en_ewt-train --run lr
    """
    def action():
        from evalhouse.outputs import run_baseline

        with _open() as wh:
            s = run_baseline(wh, kind.value, corpus, team=team, run=run, train=train, seed=seed, out=out,
                             replace=replace)
            dea, bleu = wh.sql("SELECT dea, mean_bleu FROM submission_scores WHERE team = $t AND run = $r AND corpus = $c",
                               {"t": s.team, "r": s.run, "c": s.corpus}).fetchone()
        typer.echo(f"{s.team}/{s.run} on {s.corpus}: {s.sentences:,} sentences, DEA {dea:.4f}, mean BLEU {bleu:.4f}")

    _run(action)


@app.command("sql")
def sql(
    query: Annotated[str, typer.Argument(help="SQL to run; every evalhouse view and SQL function is available.")],
    format: Annotated[TableFormat, typer.Option("--format", "-f", help="Output format.")] = TableFormat.table,
    write: Annotated[bool, typer.Option("--write", help="Open the warehouse read-write (default read-only).")] = False,
) -> None:
    """Run a SQL query against the warehouse.

    Example: evalhouse sql "select corpus, depth_mean, depth_sd from corpus_complexity" --format csv
    """

    def action():
        with _open(read_only=not write) as wh:
            rel = wh.sql(query)
            if rel is None:
                return
            _print_relation(rel, format)

    _run(action)


def _print_relation(rel, format: TableFormat) -> None:
    import csv
    import json

    columns = [c for c in rel.columns]
    rows = rel.fetchall()
    if format is TableFormat.table:
        typer.echo(_render_table(columns, rows))
    elif format is TableFormat.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
    else:
        typer.echo(json.dumps([dict(zip(columns, r)) for r in rows], default=str, ensure_ascii=False, indent=1))


def _render_table(columns: list[str], rows: list[tuple]) -> str:
    def cell(v) -> str:
        if v is None:
            return "NULL"
        if isinstance(v, float):
            return f"{v:.6g}"
        return str(v)

    body = [[cell(v) for v in r] for r in rows]
    widths = [max([len(c)] + [len(r[i]) for r in body]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(),
             "  ".join("-" * w for w in widths)]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in body]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


@app.command("export")
def export(
    view: Annotated[str, typer.Argument(help="View or table name (see 'evalhouse views').")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output file.")],
    format: Annotated[Optional[ExportFormat], typer.Option("--format", "-f", help="Default: from the file extension.")] = None,
    corpus: Annotated[Optional[list[str]], typer.Option("--corpus", help="Keep only this corpus (repeatable).")] = None,
) -> None:
    """Export a view or table to Parquet, CSV or JSON (an array of row objects).

    Example: evalhouse export corpus_complexity --out table2.parquet --corpus en_ewt-test
    """

    def action():
        with _open(read_only=True) as wh:
            n = wh.export_view(view, out, format=format.value if format else None, corpus=corpus)
        typer.echo(f"wrote {n:,} rows of {view} to {out}", err=True)

    _run(action)


@app.command("export-conllu")
def export_conllu(
    corpus: Annotated[str, typer.Argument(help="Corpus name.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output .conllu file.")],
) -> None:
    """Write a corpus back as CoNLL-U (byte-identical to a canonical input file).

    Example: evalhouse export-conllu en_ewt-test --out en_ewt-test.conllu
    """

    def action():
        with _open(read_only=True) as wh:
            n = wh.export_conllu(corpus, out)
        typer.echo(f"wrote {n:,} sentences of {corpus} to {out}", err=True)

    _run(action)


@app.command("views")
def views(
    markdown: Annotated[bool, typer.Option("--markdown", help="Print a Markdown data dictionary (views, columns, types, descriptions).")] = False,
) -> None:
    """List every view with its description (from COMMENT ON).

    Example: evalhouse views --markdown > VIEWS.md
    """

    def action():
        from evalhouse.warehouse import Warehouse

        path = state.db or os.environ.get("EVALHOUSE_DB") or "warehouse.duckdb"
        wh = Warehouse(path, read_only=True) if os.path.exists(path) else Warehouse(":memory:")
        with wh:
            if markdown:
                typer.echo(data_dictionary(wh))
            else:
                for name, description in wh.views():
                    typer.echo(f"{name}\n    {description}")

    _run(action)


def data_dictionary(wh) -> str:
    """Markdown: every view, then its columns with type and description."""
    out = ["# evalhouse views", ""]
    for name, description in wh.views():
        out += [f"## `{name}`", "", description, "", "| column | type | description |", "|---|---|---|"]
        out += [f"| `{c}` | {t} | {d} |" for c, t, d in wh.columns(name)]
        out.append("")
    return "\n".join(out)


@app.command("demo")
def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the demo warehouse and exports.")] = Path("evalhouse-demo"),
) -> None:
    """Build a warehouse from the bundled sample treebank and print a short report.

    Example: evalhouse demo --out /tmp/evalhouse-demo
    """
    from evalhouse.demo import run_demo

    _run(lambda: typer.echo(run_demo(out)))


# --- translations and pronoun evaluation (issue 6) ---------------------------------------------
# Library: evalhouse/translations.py. Commands: ingest translations, ingest pronoun-judgements, apt.

def _floats(text: Optional[str], what: str) -> Optional[tuple]:
    if text is None:
        return None
    try:
        return tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise typer.BadParameter(f"{what} must be comma-separated numbers, got '{text}'") from None


@ingest_app.command("translations")
def ingest_translations(
    corpus: Annotated[str, typer.Option(help="Corpus name (key of segments, systems and scores).")],
    source: Annotated[Optional[Path], typer.Option(help="Source text, one tokenised segment per line.")] = None,
    reference: Annotated[Optional[Path], typer.Option(help="Reference translation, line by line.")] = None,
    source_reference_alignment: Annotated[Optional[Path], typer.Option(help="Pharaoh i-j (0-based) or APT .symal alignment of source and reference.")] = None,
    documents: Annotated[Optional[Path], typer.Option(help="Document boundaries: per line the 0-based first segment of a document and an optional id.")] = None,
    pronouns: Annotated[Optional[str], typer.Option(help="Pronoun set: a bundled one (es-en, en-fr) or a pronoun-set file (default: from the languages).")] = None,
    source_language: Annotated[Optional[str], typer.Option(help="Source language code (picks the bundled pronoun set with --target-language).")] = None,
    target_language: Annotated[Optional[str], typer.Option(help="Target language code.")] = None,
    team: Annotated[Optional[str], typer.Option(help="Team of a system output to ingest.")] = None,
    run: Annotated[Optional[str], typer.Option(help="Run of that team.")] = None,
    output: Annotated[Optional[Path], typer.Option(help="System translation, line by line.")] = None,
    source_output_alignment: Annotated[Optional[Path], typer.Option(help="Alignment of source and system output.")] = None,
    skip_bad_alignment_lines: Annotated[bool, typer.Option("--skip-bad-alignment-lines", help="Drop alignment lines with indices beyond their segment (recorded; their pronouns are not scored) instead of refusing the input.")] = False,
    replace: Annotated[bool, typer.Option("--replace", help="Replace an existing corpus or system of the same name.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary output.")] = False,
) -> None:
    """Ingest a parallel corpus (source, reference, alignment) and/or a system translation; scores its pronouns.

    Example: evalhouse ingest translations --corpus discomt --source mt-output.en --reference pronoun-test.tok.fr --source-reference-alignment pronoun-test.tok.en-fr.alig --documents doc-boundaries --pronouns en-fr
    """

    def action():
        from evalhouse.translations import ingest_translations as ingest

        with _open() as wh:
            s = ingest(wh, corpus, source=source, reference=reference,
                       source_reference_alignment=source_reference_alignment, documents=documents, pronouns=pronouns,
                       source_language=source_language, target_language=target_language, team=team, run=run,
                       output=output, source_output_alignment=source_output_alignment, replace=replace,
                       skip_bad_alignment_lines=skip_bad_alignment_lines)
        if not quiet:
            what = f"{s.segments:,} segments" + (f", {s.documents:,} documents" if s.documents is not None else "")
            if s.system:
                what += f"; system {s.system[0]}/{s.system[1]}: {s.pronouns:,} source pronouns scored"
            typer.echo(f"{s.corpus}: {what}")
            for note in s.normalisations:
                typer.echo(f"  normalised: {note}")

    _run(action)


@ingest_app.command("pronoun-judgements")
def ingest_pronoun_judgements(
    path: Annotated[Path, typer.Argument(metavar="FILE.csv", help="CSV: team,run,position,source_index,category,judgement (1-based; correct/incorrect/unjudgeable).")],
    corpus: Annotated[str, typer.Option(help="Translation corpus the judgements belong to.")],
    replace: Annotated[bool, typer.Option("--replace", help="Replace the corpus's existing judgements.")] = False,
) -> None:
    """Ingest human judgements of pronoun translations (for apt_human_agreement and apt_human_correlation).

    Example: evalhouse ingest pronoun-judgements protest.csv --corpus discomt
    """

    def action():
        from evalhouse.translations import ingest_pronoun_judgements as ingest

        with _open() as wh:
            n = ingest(wh, path, corpus, replace=replace)
        typer.echo(f"{corpus}: {n:,} pronoun judgements")

    _run(action)


@app.command("apt")
def apt(
    config: Annotated[Optional[Path], typer.Option("--config", help="An original APT configuration file (idiap/APT config_*): ingest its files and score them.")] = None,
    corpus: Annotated[Optional[str], typer.Option(help="Translation corpus (with --config: the name to ingest under, default the config file name).")] = None,
    team: Annotated[Optional[str], typer.Option(help="Only this team (with --run: print APT's report for it).")] = None,
    run: Annotated[Optional[str], typer.Option(help="Only this run.")] = None,
    name: Annotated[Optional[str], typer.Option("--name", help="Configuration to show (default: all; for one system's report: default, or apt-config after --config).")] = None,
    add: Annotated[Optional[str], typer.Option("--add", help="Add a configuration of this name from the options below and score every system with it.")] = None,
    cases: Annotated[Optional[str], typer.Option(help="Cases counted, e.g. 1,2,3,4,5,6 (default 1,2,3,4).")] = None,
    weights: Annotated[Optional[str], typer.Option(help="One weight per case, e.g. 1,0.5,0,0 (APT-B; APT-A is 1,0,0,0).")] = None,
    equivalence: Annotated[bool, typer.Option("--equivalence/--no-equivalence", help="Equivalent pronouns give case 2.")] = True,
    alignment_correction: Annotated[bool, typer.Option("--alignment-correction/--no-alignment-correction", help="Apply the alignment-correction heuristic.")] = True,
    target_list: Annotated[bool, typer.Option("--target-list/--no-target-list", help="Map aligned words through the target pronoun list (others become OTHER).")] = False,
    count_other_as_equal: Annotated[bool, typer.Option("--count-other-as-equal", help="OTHER in reference and output counts as identical.")] = False,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Write APT's PREFIX.score and PREFIX.detail files (needs one system).")] = None,
    replace: Annotated[bool, typer.Option("--replace", help="Replace an existing corpus (with --config) or configuration of that name.")] = False,
) -> None:
    """APT scores: run an original APT configuration file, or add/show a configuration of an ingested corpus.

    Example: evalhouse apt --config ../shared/data/mt/apt-es-en/config_1
    """

    def action():
        from evalhouse import translations as tr

        with _open() as wh:
            if config is not None:
                report = tr.run_apt_config(wh, config, corpus=corpus, team=team or "system", run=run, replace=replace)
            else:
                if corpus is None:
                    raise ValueError("give --config FILE, or --corpus NAME of an ingested translation corpus")
                if add is not None:
                    pset = wh.sql("SELECT pronoun_set FROM translation_corpora WHERE corpus = $c", {"c": corpus}).fetchone()
                    if pset is None:
                        raise ValueError(f"no translation corpus '{corpus}'")
                    c = tuple(int(x) for x in _floats(cases, "--cases")) if cases else tr.DEFAULT_CASES
                    w = _floats(weights, "--weights") or (tr.DEFAULT_WEIGHTS if len(c) == 4 else None)
                    if w is None:
                        raise ValueError("give --weights, one per case")
                    spec = tr.ConfigSpec(add, pset[0], target_list=target_list, equivalence=equivalence,
                                         alignment_correction=alignment_correction,
                                         count_other_as_equal=count_other_as_equal, cases=c, weights=w,
                                         origin="evalhouse apt options")
                    tr.add_config(wh, corpus, spec, replace=replace)
                elif cases or weights:
                    raise ValueError("--cases/--weights define a new configuration: name it with --add NAME")
                config_name = name or add
                if team is not None and run is not None:
                    if config_name is None:
                        names = [r[0] for r in wh.sql("SELECT config FROM pronoun_configs WHERE corpus = $c ORDER BY 1",
                                                      {"c": corpus}).fetchall()]
                        config_name = "default" if "default" in names or not names else names[0]
                    report = tr.apt_report(wh, corpus, config_name, team, run)
                else:
                    if out is not None:
                        raise ValueError("--out needs one system: give --team and --run")
                    rel = wh.sql("SELECT config, team, run, pronouns, case_1, case_2, case_3, case_4, case_5, case_6, "
                                 "round(apt, 4) AS apt, round(apt_a, 4) AS apt_a, round(apt_b, 4) AS apt_b "
                                 "FROM apt_scores WHERE corpus = $c AND ($k IS NULL OR config = $k) "
                                 "AND ($t IS NULL OR team = $t) ORDER BY config, team, run",
                                 {"c": corpus, "k": config_name, "t": team})
                    typer.echo(_render_table([d[0] for d in rel.description], rel.fetchall()))
                    return
            typer.echo(report.score_text, nl=False)
            if out is not None:
                Path(f"{out}.score").write_text(report.score_text, encoding="utf-8")
                Path(f"{out}.detail").write_text(report.detail_text, encoding="utf-8")
                typer.echo(f"wrote {out}.score and {out}.detail", err=True)

    _run(action)

# --- end of translations and pronoun evaluation --------------------------------------------------


# --- parse evaluation (issue 5): ingest parses, evalb -------------------------------------------------

PrmOption = Annotated[Optional[str], typer.Option(
    "--prm", help="EVALB parameters: 'collins' (built-in COLLINS.prm, the default), 'none' (nothing deleted, "
                  "seed 002's setting) or a .prm file.")]
DeleteLabelOption = Annotated[Optional[list[str]], typer.Option(
    "--delete-label", help="Add an EVALB DELETE_LABEL (repeatable): a preterminal goes with its word, a "
                           "nonterminal loses its brackets.")]
EqLabelOption = Annotated[Optional[list[str]], typer.Option(
    "--eq-label", help="Add an EVALB EQ_LABEL pair written A=B (repeatable).")]
CostOption = Annotated[str, typer.Option(
    "--cost", help="Leaf-ancestor label-cost function: default (seed 002: 0.5 for labels sharing their first "
                   "character, else 2), strict (2 for any different label) or a cost-table file.")]


def _eq_pairs(values: list[str] | None) -> list[tuple[str, str]]:
    pairs = []
    for v in values or []:
        a, sep, b = v.partition("=")
        if not sep or not a or not b:
            raise ValueError(f"--eq-label needs A=B, found '{v}'")
        pairs.append((a, b))
    return pairs


@ingest_app.command("parses")
def ingest_parses_command(
    path: Annotated[str, typer.Argument(metavar="FILE", help="Bracketed parses (Penn Treebank or seed 002 square notation), or - for standard input.")],
    corpus: Annotated[str, typer.Option("--corpus", help="Corpus name shared by the gold parses and the candidate runs scored against them.")],
    gold: Annotated[bool, typer.Option("--gold", help="These are the gold parses of the corpus.")] = False,
    team: Annotated[Optional[str], typer.Option("--team", help="Team of a candidate run (with --run).")] = None,
    run: Annotated[Optional[str], typer.Option("--run", help="Run name of a candidate run (with --team).")] = None,
    prm: PrmOption = None,
    delete_label: DeleteLabelOption = None,
    eq_label: EqLabelOption = None,
    cost: CostOption = "default",
    one_per_line: Annotated[bool, typer.Option("--one-per-line", help="Each line is one sentence (EVALB's convention; an empty line is an empty parse).")] = False,
    allow_mismatch: Annotated[bool, typer.Option("--allow-mismatch", help="Record a candidate sentence whose words differ from the gold's with EVALB's error status instead of refusing the file.")] = False,
    replace: Annotated[bool, typer.Option("--replace", help="Replace the gold parses or the run if already there.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary output.")] = False,
) -> None:
    """Ingest constituency parses: the gold parses of a corpus, or a candidate run scored against them
    (GEIG/PARSEVAL as EVALB does it, and the leaf-ancestor metric).

    Example: evalhouse ingest parses wsj01.mrg --corpus wsj01 --gold && evalhouse ingest parses berkeley.mrg --corpus wsj01 --team berkeley --run 1
    """

    def action():
        from evalhouse.parses import ingest_parses, resolve_cost, resolve_params

        params = resolve_params(prm, delete_labels=delete_label or (), eq_labels=_eq_pairs(eq_label))
        with _open() as wh:
            s = ingest_parses(wh, path, corpus, gold=gold, team=team, run=run, params=params,
                              cost=resolve_cost(cost), replace=replace, one_per_line=one_per_line,
                              allow_mismatch=allow_mismatch)
        if not quiet:
            who = "gold" if gold else f"{team}/{run}"
            typer.echo(f"{s.corpus} ({who}): {s.sentences:,} sentences, {s.leaves:,} leaves, {s.constituents:,} constituents")
            if not gold:
                typer.echo(f"  scored: {s.ok:,} ok, {s.errors:,} error, {s.skipped:,} skip; {s.config}")

    _run(action)


@app.command("evalb")
def evalb_command(
    gold_file: Annotated[str, typer.Argument(metavar="GOLD", help="Gold parses, one per line.")],
    test_file: Annotated[str, typer.Argument(metavar="TEST", help="Test parses, one per line (an empty line is a skipped sentence).")],
    prm: PrmOption = None,
) -> None:
    """Print EVALB's report (per-sentence rows and summary) for two bracketed files, computed through
    the warehouse views in memory.

    Example: evalhouse evalb sample.gld sample.tst --prm sample.prm
    """

    def action():
        from evalhouse.parses import evalb_report, resolve_params

        typer.echo(evalb_report(gold_file, test_file, resolve_params(prm)), nl=False)

    _run(action)

@ingest_app.command("dependency-run")
def ingest_dependency_run_command(
    path: Annotated[str, typer.Argument(metavar="SYSTEM", help="CoNLL-U output of a dependency parser.")],
    gold: Annotated[str, typer.Option("--gold", help="Gold CoNLL-U file of the same text.")],
    corpus: Annotated[str, typer.Option("--corpus", help="Corpus name (e.g. en_ewt).")],
    team: Annotated[str, typer.Option("--team", help="Team (parser) name.")],
    run: Annotated[str, typer.Option("--run", help="Run name.")],
    cost: Annotated[str, typer.Option("--cost", help="Label-cost function of the dependency LA over relations: strict (the default here), default (seed 002's first-character rule) or a cost-table file.")] = "strict",
    replace: Annotated[bool, typer.Option("--replace", help="Replace the run if already there.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary output.")] = False,
) -> None:
    """Score a dependency parser's CoNLL-U output against gold UD trees: CoNLL 2018 LAS/UAS beside the
    dependency leaf-ancestor metric, per word, relation and run.

    Example: evalhouse ingest dependency-run UDPipe-Future/en_ewt.conllu --gold gold/en_ewt.conllu --corpus en_ewt --team UDPipe-Future --run 1
    """

    def action():
        from evalhouse.parses import ingest_dependency_run, resolve_cost

        with _open() as wh:
            r = ingest_dependency_run(wh, path, gold, corpus, team, run, cost=resolve_cost(cost), replace=replace)
        if not quiet:
            typer.echo(f"{corpus} ({team}/{run}): {r['gold_words']:,} gold words, {r['system_words']:,} system words, "
                       f"{r['aligned_words']:,} aligned; UAS {100 * r['uas_f1']:.2f}, LAS {100 * r['las_f1']:.2f}, "
                       f"dependency LA {r['la_gold_mean']:.4f}")

    _run(action)

# --- end of parse evaluation ----------------------------------------------------------------------------


# === issue 4: analyze, augment, report (statistics and error mining) ================================

@app.command("analyze")
def analyze_command(
    team: Annotated[Optional[str], typer.Option("--team", help="Only this team's submissions.")] = None,
    corpus: Annotated[Optional[str], typer.Option("--corpus", help="Only submissions on this corpus.")] = None,
    alpha: Annotated[float, typer.Option("--alpha", help="Significance level (after Holm).")] = 0.05,
    nonprojective_threshold: Annotated[float, typer.Option("--nonprojective-threshold", help="Projectivity tests only on corpora with a larger share of non-projective sentences.")] = 0.05,
    min_relation_edges: Annotated[int, typer.Option("--min-relation-edges", help="Entropy-DEA correlation: relations with at least this many edges.")] = 1,
    failure_metric: Annotated[str, typer.Option("--failure-metric", help="Sentence metric defining failures (bleu, dea, fluency_z, adequacy_z).")] = "bleu",
    failure_share: Annotated[float, typer.Option("--failure-share", help="Share of lowest-scoring sentences that are failures.")] = 0.25,
    max_size: Annotated[int, typer.Option("--max-size", help="Largest subtree (nodes) mined.")] = 3,
    view: Annotated[Optional[list[str]], typer.Option("--view", help="Mining view (dep, pos, pos-dep, lemma); repeatable; default all.")] = None,
    score: Annotated[str, typer.Option("--score", help="Suspicion score: narayan-gardent or printed (seed 001).")] = "narayan-gardent",
    top_k: Annotated[int, typer.Option("--top-k", help="Forms ranked up to this are a submission's suspicious forms (coverage).")] = 10,
    keep: Annotated[int, typer.Option("--keep", help="Store the best KEEP forms per submission and view (0: all).")] = 100,
    resamples: Annotated[int, typer.Option("--resamples", help="Bootstrap / randomisation resamples.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the resampling.")] = 1,
) -> None:
    """(Re)compute correlations, tests, error mining, significance and the ensemble into tables.

    Example: evalhouse analyze --corpus en_ewt-test --resamples 1000
    """
    def action():
        from evalhouse.analysis.mining import VIEWS
        from evalhouse.analyze import AnalysisConfig, analyze

        config = AnalysisConfig(alpha=alpha, nonprojective_threshold=nonprojective_threshold,
                                min_relation_edges=min_relation_edges, failure_metric=failure_metric,
                                failure_share=failure_share, max_size=max_size, views=tuple(view or VIEWS),
                                score_form=score, top_k=top_k, keep=keep, resamples=resamples, seed=seed)
        with _open() as wh:
            summary = analyze(wh, config, team=team, corpus=corpus)
        typer.echo(f"analysed {summary.submissions} submission(s) on {summary.corpora} corpus(es): "
                   + ", ".join(f"{t} {n:,}" for t, n in summary.rows.items()))

    _run(action)


@app.command("augment")
def augment_command(
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
        from evalhouse.analyze import augment

        with _open(read_only=True) as wh:
            s = augment(wh, submission, source, top, out, corpus=corpus, weak_relations=weak_relations,
                        min_edges=min_edges, forms=forms, view=view)
        typer.echo(f"wrote {s.written} sentence(s) to {out}; weak relations: {', '.join(s.weak_relations) or 'none'}; "
                   f"suspicious forms: {len(s.forms)}")

    _run(action)


@app.command("report")
def report_command(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for index.html and the PNG figures.")],
    submission: Annotated[Optional[str], typer.Option("--submission", help="Only this TEAM/RUN.")] = None,
    team: Annotated[Optional[str], typer.Option("--team", help="Only this team's submissions.")] = None,
    corpus: Annotated[Optional[str], typer.Option("--corpus", help="Only submissions on this corpus.")] = None,
) -> None:
    """Write a self-contained HTML report (PNG figures, no network) of the analysed submissions.

    Example: evalhouse report --corpus en_ewt-test --out report/
    """
    def action():
        from evalhouse.report import write_report

        if sum(x is not None for x in (submission, team, corpus)) > 1:
            raise ValueError("give at most one of --submission, --team, --corpus")
        with _open(read_only=True) as wh:
            path = write_report(wh, out, submission=submission, team=team, corpus=corpus)
        typer.echo(f"wrote {path}")

    _run(action)


# === end of issue 4 block ===========================================================================


# --- engines and BI (issue 7) -------------------------------------------------------------------------
# Library: evalhouse/dataset.py (Parquet dataset), evalhouse/transpile.py (sqlglot). Commands:
# export-dataset, export-sql.

class PartitionBy(str, Enum):
    corpus = "corpus"
    team = "team"


class DatasetFormat(str, Enum):
    parquet = "parquet"
    postgres = "postgres"


class Dialect(str, Enum):
    duckdb = "duckdb"
    postgres = "postgres"
    spark = "spark"
    trino = "trino"
    bigquery = "bigquery"


@app.command("export-dataset")
def export_dataset_command(
    out_dir: Annotated[Path, typer.Argument(metavar="DIR", help="Dataset directory (replaced atomically if it is an evalhouse dataset).")],
    views: Annotated[Optional[list[str]], typer.Option("--views", help="Export only these views (repeatable; default all). Base tables are always exported.")] = None,
    partition_by: Annotated[Optional[PartitionBy], typer.Option("--partition-by", help="Hive-partition relations that have this column.")] = None,
    format: Annotated[DatasetFormat, typer.Option("--format", help="parquet; or postgres: the base tables as CSV, with schema.sql and load.psql for psql.")] = DatasetFormat.parquet,
) -> None:
    """Write every base table and view as a Parquet dataset with a manifest (row counts, version, descriptions).

    Example: evalhouse export-dataset dataset/ --partition-by corpus
    Example: evalhouse export-dataset pg/ --format postgres && cd pg && psql -v ON_ERROR_STOP=1 -1 -d mydb -f load.psql
    """

    def action():
        from evalhouse.dataset import export_dataset

        with _open(read_only=True) as wh:
            manifest = export_dataset(wh, out_dir, views=views, partition_by=partition_by.value if partition_by else None,
                                      format=format.value)
        rows = sum(e["rows"] for e in manifest["relations"].values())
        typer.echo(f"wrote {len(manifest['relations'])} relations ({rows:,} rows) to {out_dir}", err=True)

    _run(action)


@app.command("export-sql")
def export_sql_command(
    dialect: Annotated[Dialect, typer.Option("--dialect", help="Target SQL dialect.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output .sql file.")],
    dataset: Annotated[Optional[Path], typer.Option("--dataset", help="Read base tables from this Parquet dataset (duckdb and spark) instead of creating tables.")] = None,
) -> None:
    """Write the schema and every view transpiled by sqlglot; views that cannot be transpiled are named, with the reason.

    Example: evalhouse export-sql --dialect postgres --out evalhouse-postgres.sql
    """

    def action():
        from evalhouse.transpile import export_sql, verification

        results = export_sql(dialect.value, out, dataset=dataset)
        views = [r for r in results if r.kind == "view"]
        tables = [r for r in results if r.kind == "table" and r.ok]
        typer.echo(f"wrote {len(tables)} tables and {sum(r.ok for r in views)} of {len(views)} views "
                   f"({dialect.value}) to {out}", err=True)
        typer.echo(verification(dialect.value), err=True)
        for r in results:
            if not r.ok:
                typer.echo(f"not transpiled: {r.name}: {r.reason}", err=True)

    _run(action)

# --- end of engines and BI ------------------------------------------------------------------------------


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("evalhouse: interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
