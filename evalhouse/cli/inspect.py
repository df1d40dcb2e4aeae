"""``evalhouse sql``, ``evalhouse views``, ``evalhouse check`` and ``evalhouse demo``: look into a warehouse,
check it is whole (and repair it), or build the demo one.

The rendering is :mod:`evalhouse.reports.text`; the demo is :mod:`evalhouse.demo`; the check is
:mod:`evalhouse.stored`.
"""

from __future__ import annotations

import csv
import json
import math
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from evalhouse.cli.common import EXIT_TORN, NeutraliseFormulas, choices, execute, open_warehouse, state, warehouse
from evalhouse.errors import OptionError, WarehouseError
from evalhouse.lazy import lazy_module

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

demo_module = lazy_module("evalhouse.demo")  # executed when `evalhouse demo` runs (see evalhouse.lazy)
text = lazy_module("evalhouse.reports.text")
relation = lazy_module("evalhouse.export.relation")  # neutralise()

commands = typer.Typer()

TableFormat = choices("TableFormat", ("table", "csv", "json"))


@commands.command("sql")
def sql(
    query: Annotated[str, typer.Argument(help="SQL to run; every evalhouse view and SQL function is available.")],
    format: Annotated[TableFormat, typer.Option("--format", "-f", help="Output format.")] = TableFormat.table,
    write: Annotated[
        bool,
        typer.Option(
            "--write",
            help="Open the warehouse read-write and without the sandbox: "
            "DuckDB may then also read and write other files, ATTACH, "
            "INSTALL and LOAD.",
        ),
    ] = False,
    neutralise_formulas: NeutraliseFormulas = False,
) -> None:
    """Run a SQL query against the warehouse. Without --write the warehouse is read-only and sandboxed: a
    query reads only the warehouse (no other file or URL, no COPY ... TO, ATTACH, INSTALL/LOAD or SET;
    exit 3 when it tries).

    Example: evalhouse sql "select corpus, depth_mean, depth_sd from corpus_complexity" --format csv
    """

    def action():
        if neutralise_formulas and format is not TableFormat.csv:
            raise OptionError("`neutralise_formulas` is for `format` csv")
        # SQL functions registered when the query needs them (Warehouse.sql): numpy's import is 0.1 s
        with open_warehouse(read_only=not write, functions=write, sandbox=not write) as wh:
            try:
                rel = wh.sql(query)
                if rel is not None:
                    _print_relation(rel, format, neutralise_formulas)
                if write and _changes_rows(wh, query):
                    # the user changed tables on purpose: the check takes them as they now are (stored_counts)
                    wh.recount()
            except Exception as err:
                if write or not warehouse.is_sandbox_refusal(err):
                    raise
                raise WarehouseError(
                    f"refused: without --write, sql reads only the warehouse (no other file or URL, COPY ... TO, "
                    f"ATTACH, INSTALL/LOAD or SET; write files with evalhouse export): "
                    f"{str(err).splitlines()[0]}"
                ) from None

    execute(action)


def _changes_rows(wh: Warehouse, query: str) -> bool:
    """Whether ``query`` has a statement that may change rows (anything but a query)."""
    return any(st.type.name not in ("SELECT", "EXPLAIN", "PRAGMA", "CALL") for st in wh.con.extract_statements(query))


def _print_relation(rel, format: TableFormat, neutralise_formulas: bool = False) -> None:
    columns = list(rel.columns)
    rows = rel.fetchall()
    if format is TableFormat.table:
        typer.echo(text.render_table(columns, rows))
    elif format is TableFormat.csv:
        writer = csv.writer(sys.stdout, lineterminator="\n")
        # csv quotes a field holding the line terminator ("\n") but not a bare "\r", which readers take as a
        # line break: a row with one is written with every field quoted (still one CSV record)
        quoted = csv.writer(sys.stdout, lineterminator="\n", quoting=csv.QUOTE_ALL)
        writer.writerow(columns)
        if neutralise_formulas:  # text only: a number such as -0.5 is never a formula (evalhouse.export.relation)
            rows = ([relation.neutralise(v) for v in row] for row in rows)
        for row in rows:
            (quoted if any(isinstance(v, str) and "\r" in v for v in row) else writer).writerow(row)
    else:
        # JSON has no NaN or infinity: they are written as null (json.dumps would write bare NaN, which parsers reject)
        def value(v):
            return None if isinstance(v, float) and not math.isfinite(v) else v

        typer.echo(
            json.dumps(
                [{c: value(v) for c, v in zip(columns, r)} for r in rows],
                default=str,
                ensure_ascii=False,
                indent=1,
                allow_nan=False,
            )
        )


@commands.command("views")
def views(
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print a Markdown data dictionary (views, columns, types, descriptions).")
    ] = False,
) -> None:
    """List every view with its description (from COMMENT ON). A warehouse that does not exist is an error
    (exit 3); `--db :memory:` lists the views of a new, empty warehouse.

    Example: evalhouse views --markdown > VIEWS.md
    Example: evalhouse --db :memory: views --markdown
    """

    def action():
        path = state.db or os.environ.get("EVALHOUSE_DB") or warehouse.DEFAULT_DB
        with (
            warehouse.connect(":memory:") if path == ":memory:" else open_warehouse(read_only=True, sandbox=True)
        ) as wh:
            if markdown:
                typer.echo(text.data_dictionary(wh))
            else:
                for name, description in wh.views(intermediate=False):
                    typer.echo(f"{name}\n    {description}")
                typer.echo("\nIntermediate views (building blocks of the views above, which read them for you):")
                for name, description in wh.views(intermediate=True):
                    typer.echo(f"{name}\n    {description}")

    execute(action)


@commands.command("check")
def check(
    repair: Annotated[
        bool, typer.Option("--repair", help="Remove the rows that belong to nothing stored (one transaction).")
    ] = False,
    drop_judgements: Annotated[
        bool,
        typer.Option(
            "--drop-judgements",
            help="With --repair: allow deleting human judgements and pronoun judgements of what "
            "is removed; without it such a repair is refused and changes nothing.",
        ),
    ] = False,
) -> None:
    """Check that every row belongs to a stored corpus, submission, run, system or analysis (a write killed
    during COMMIT can leave rows that do not, or counts that disagree with what the write recorded); exit 5
    when the warehouse is torn. --repair removes them and reports every table and row count it removed; it
    never deletes judgements without --drop-judgements. Every write command runs this check first and
    refuses a torn warehouse.

    Example: evalhouse check && evalhouse check --repair
    """

    def action():
        if drop_judgements and not repair:
            raise OptionError("`drop_judgements` goes with `repair`: it allows the repair to delete judgements")
        # confined as every reader: what the check reads (base tables, stored_counts) is the warehouse's
        # own, and a repair deletes rows of its own tables; nothing the file brought reaches outside it
        with open_warehouse(read_only=not repair, verify=False, functions=False, sandbox=True) as wh:
            if not repair:
                report = wh.check()
                typer.echo(report.summary())
                if report.torn:
                    raise typer.Exit(EXIT_TORN)
                return
            removed = wh.repair(drop_judgements=drop_judgements)
        typer.echo(removed.summary())

    execute(action)


@commands.command("demo")
def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="Directory for the demo warehouse and exports.")] = Path(
        "evalhouse-demo"
    ),
) -> None:
    """Build a warehouse from the bundled sample treebank and print a short report.

    Example: evalhouse demo --out /tmp/evalhouse-demo
    """
    execute(lambda: typer.echo(demo_module.run_demo(out)))
