"""The ``evalhouse`` command: a thin typer layer over the library, one module per command group.

    evalhouse ingest treebank|outputs|judgements|parses|dependency-run|translations|pronoun-judgements
    evalhouse baseline                                          (evalhouse.cli.ingest)
    evalhouse sql | views | demo                                (evalhouse.cli.inspect)
    evalhouse export | export-conllu | export-dataset | export-sql   (evalhouse.cli.export)
    evalhouse analyze | augment | report | evalb | apt         (evalhouse.cli.evaluate)

Global options, the options several commands share, errors and exit codes: :mod:`evalhouse.cli.common`;
option values coerced without importing pydantic on typer 0.29: :mod:`evalhouse.cli.coercion`.
The library modules a command calls are loaded when it runs (:mod:`evalhouse.lazy`), so
``evalhouse --help`` answers without importing duckdb, numpy or pandas.
"""

from evalhouse.cli import evaluate, export, ingest, inspect
from evalhouse.cli.common import app, keep_examples_whole, main

app.add_typer(ingest.group, name="ingest")
app.add_typer(ingest.commands)
app.add_typer(inspect.commands)
app.add_typer(export.commands)
app.add_typer(evaluate.commands)
keep_examples_whole(app)  # each example on a line of its own in --help

__all__ = ["app", "main"]
