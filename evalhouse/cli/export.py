"""``evalhouse export``, ``export-conllu``, ``export-dataset`` and ``export-sql``: the warehouse written out
for other tools, by :mod:`evalhouse.export`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from evalhouse.cli.common import NeutraliseFormulas, Out, choices, execute, open_warehouse, progress
from evalhouse.errors import OptionError
from evalhouse.lazy import lazy_module

# the library modules behind these commands, executed when a command runs (see evalhouse.lazy)
dataset = lazy_module("evalhouse.export.dataset")
relation = lazy_module("evalhouse.export.relation")
transpile = lazy_module("evalhouse.export.transpile")

commands = typer.Typer()

ExportFormat = choices("ExportFormat", ("parquet", "csv", "json", "latex"))  # evalhouse.export.relation.FORMATS
PartitionBy = choices("PartitionBy", ("corpus", "team"))  # evalhouse.export.dataset.PARTITION_COLUMNS
DatasetFormat = choices("DatasetFormat", ("parquet", "postgres"))  # evalhouse.export.dataset.FORMATS
Dialect = choices(
    "Dialect", ("duckdb", "postgres", "spark", "trino", "bigquery")
)  # evalhouse.export.transpile.DIALECTS


@commands.command("export")
def export(
    view: Annotated[Optional[str], typer.Argument(help="View or table name (see 'evalhouse views').")] = None,
    out: Out = ...,
    query: Annotated[
        Optional[str],
        typer.Option(
            "--query",
            "-q",
            help="Export the rows of this SQL query instead of a view (run as `evalhouse sql` runs it: reading only the warehouse).",
        ),
    ] = None,
    format: Annotated[
        Optional[ExportFormat],
        typer.Option("--format", "-f", help="Default: from the file extension (.parquet, .csv, .json, .tex)."),
    ] = None,
    corpus: Annotated[
        Optional[list[str]], typer.Option("--corpus", help="Keep only this corpus (repeatable; with a view).")
    ] = None,
    neutralise_formulas: NeutraliseFormulas = False,
    caption: Annotated[
        Optional[str],
        typer.Option(
            "--caption",
            help="LaTeX: the table's caption (default: the view and its corpora, or the query; configurations are added).",
        ),
    ] = None,
    digits: Annotated[
        Optional[int], typer.Option("--digits", help="LaTeX: decimals of every float column (default 3).")
    ] = None,
    fit: Annotated[
        bool,
        typer.Option(
            "--fit",
            help="LaTeX: split a table wider than an article's text width (345 pt) into tables that fit, each repeating the leading text columns (team, run, ...). Without it a wide table stays one and says so in a % comment and on stderr.",
        ),
    ] = False,
) -> None:
    """Export a view, a table or a query's rows to Parquet, CSV, JSON (an array of row objects) or LaTeX
    (a booktabs table; its configuration in the caption).

    Example: evalhouse export corpus_complexity --out table2.parquet --corpus en_ewt-test

    Example: evalhouse export submission_scores --out scores.csv --neutralise-formulas

    Example: evalhouse export dea_by_relation --out dea.tex --corpus en_ewt-test

    Example: evalhouse export --query "select team, run, dea, mean_bleu from submission_scores" --out board.tex

    Example: evalhouse export submission_scores --out scores.tex --fit
    """

    def action():
        if (view is None) == (query is None):
            raise OptionError(
                "give a VIEW or --query, not both" if view else "give a VIEW (see `evalhouse views`) or --query SQL"
            )
        if query is not None and corpus:
            raise OptionError("`--corpus` filters a view; with --query, write the filter in the query")
        options = dict(
            format=format.value if format else None,
            neutralise_formulas=neutralise_formulas,
            caption=caption,
            digits=digits,
            fit=fit,
        )
        # confined (as `sql`): a query, or a view the file brought, reads no other file and writes only the output
        with open_warehouse(read_only=True, sandbox=True, writable=relation.written_paths(out)) as wh:
            if query is not None:
                n = wh.export_query(query, out, **options)
            else:
                n = wh.export_view(view, out, corpus=corpus, **options)
        typer.echo(f"wrote {n:,} rows of {view or 'the query'} to {out}", err=True)
        wide = relation.too_wide(out) if relation._format_for(str(out), options["format"]) == "latex" else ""
        if wide:
            typer.echo(f"note: {out}: {wide}", err=True)

    execute(action)


@commands.command("export-conllu")
def export_conllu(
    corpus: Annotated[str, typer.Argument(help="Corpus name.")],
    out: Out,
) -> None:
    """Write a corpus back as CoNLL-U (byte-identical to a canonical input file).

    Example: evalhouse export-conllu en_ewt-test --out en_ewt-test.conllu
    """

    def action():
        with open_warehouse(read_only=True, sandbox=True) as wh:  # the CoNLL-U is written by Python
            n = wh.export_conllu(corpus, out)
        typer.echo(f"wrote {n:,} sentences of {corpus} to {out}", err=True)

    execute(action)


@commands.command("export-dataset")
def export_dataset(
    out_dir: Annotated[
        Path,
        typer.Argument(metavar="DIR", help="Dataset directory (replaced atomically if it is an evalhouse dataset)."),
    ],
    views: Annotated[
        Optional[list[str]],
        typer.Option(
            "--views", help="Export only these views (repeatable; default all). Base tables are always exported."
        ),
    ] = None,
    partition_by: Annotated[
        Optional[PartitionBy], typer.Option("--partition-by", help="Hive-partition relations that have this column.")
    ] = None,
    format: Annotated[
        DatasetFormat,
        typer.Option(
            "--format", help="parquet; or postgres: the base tables as CSV, with schema.sql and load.psql for psql."
        ),
    ] = DatasetFormat.parquet,
) -> None:
    """Write every base table and view as a Parquet dataset with a manifest (row counts, version, descriptions).

    Example: evalhouse export-dataset dataset/ --partition-by corpus
    Example: evalhouse export-dataset pg/ --format postgres && cd pg && psql -v ON_ERROR_STOP=1 -1 -d mydb -f load.psql
    """

    def action():
        # confined (as `sql`): the warehouse may write only into the dataset's temporary directory
        with (
            dataset.stage(out_dir) as staging,
            open_warehouse(read_only=True, sandbox=True, writable=[staging.path]) as wh,
            progress() as bars,
        ):
            manifest = dataset.export_dataset(
                wh,
                out_dir,
                views=views,
                format=format.value,
                partition_by=partition_by.value if partition_by else None,
                progress=bars,
                staging=staging,
            )
        rows = sum(e["rows"] for e in manifest["relations"].values())
        typer.echo(f"wrote {len(manifest['relations'])} relations ({rows:,} rows) to {out_dir}", err=True)

    execute(action)


@commands.command("export-sql")
def export_sql(
    dialect: Annotated[Dialect, typer.Option("--dialect", help="Target SQL dialect.")],
    out: Out,
    dataset: Annotated[
        Optional[Path],
        typer.Option(
            "--dataset",
            help="Read base tables from this Parquet dataset (duckdb and spark) instead of creating tables.",
        ),
    ] = None,
) -> None:
    """Write the schema and every view transpiled by sqlglot; views that cannot be transpiled are named, with the reason.

    Example: evalhouse export-sql --dialect postgres --out evalhouse-postgres.sql
    """

    def action():
        results = transpile.export_sql(dialect.value, out, dataset=dataset)
        views = [r for r in results if r.kind == "view"]
        tables = [r for r in results if r.kind == "table" and r.ok]
        typer.echo(
            f"wrote {len(tables)} tables and {sum(r.ok for r in views)} of {len(views)} views "
            f"({dialect.value}) to {out}",
            err=True,
        )
        typer.echo(transpile.verification(dialect.value), err=True)
        for r in results:
            if not r.ok:
                typer.echo(f"not transpiled: {r.name}: {r.reason}", err=True)

    execute(action)
