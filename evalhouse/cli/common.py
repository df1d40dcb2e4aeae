"""What every ``evalhouse`` command shares: the root app and its global options (``--db``,
``--memory-limit``, ``--traceback``, ``--version``), the options several commands take (defined once
here), how a command opens the warehouse, and how errors become one line and an exit code.

Exit codes: 0 success; 1 bad input (the message names file and line); 2 bad usage; 3 the warehouse
refused (locked, corpus exists, unknown view or corpus, no such warehouse); 4 the system failed (disk
full, an I/O error) or an unexpected error; 5 the warehouse is torn (``evalhouse check``; ``evalhouse check
--repair`` mends it). Library messages name arguments as Python does
(```replace=True```, see :mod:`evalhouse.errors`); :func:`execute` writes them as this command's flags
(``--replace``). Set ``EVALHOUSE_TRACEBACK=1`` (or pass ``--traceback``) to see Python tracebacks.
"""

from __future__ import annotations

import copy
import inspect
import os
import sys
from enum import Enum
from pathlib import Path
from contextlib import contextmanager
from typing import Annotated, Callable, Iterator, Optional, Sequence

import typer
import typer.core
import typer.main

from evalhouse.cli import coercion
from evalhouse.errors import InputError, WarehouseError, name_arguments
from evalhouse.lazy import lazy_module, missing_dependency
from evalhouse.progress import Progress, Task
from evalhouse.version import __version__

warehouse = lazy_module("evalhouse.warehouse")  # executed by the first command that opens it: --help stays fast

EXIT_INPUT, EXIT_USAGE, EXIT_WAREHOUSE = 1, 2, 3
EXIT_UNEXPECTED = 4  # the system failed (disk full, I/O) or a bug: the message names the Python error
EXIT_SYSTEM = EXIT_UNEXPECTED
EXIT_TORN = 5  # rows that belong to nothing: `evalhouse check --repair`


class _Root(typer.core.TyperGroup):
    """The root command: the global options ``--db``, ``--memory-limit`` and ``--traceback`` may also come
    after the subcommand (``evalhouse views --db w.duckdb``, ``evalhouse sql "select 1" --traceback``); they
    are moved in front before click parses."""

    HOISTED = ("--db", "--memory-limit")
    FLAGS = ("--traceback",)  # global flags, also moved in front

    def parse_args(self, ctx, args):
        args = list(args)
        front, rest, i = [], [], 0
        seen_command = False
        while i < len(args):
            a = args[i]
            if a == "--":
                rest += args[i:]
                break
            name = a.split("=", 1)[0]
            if seen_command and a in self.FLAGS:
                front.append(a)
                i += 1
                continue
            if seen_command and name in self.HOISTED:
                if "=" in a:
                    front.append(a)
                    i += 1
                else:
                    front += args[i : i + 2]
                    i += 2
                continue
            if not a.startswith("-"):
                seen_command = True
            rest.append(a)
            i += 1
        return super().parse_args(ctx, front + rest)


app = typer.Typer(
    cls=_Root,
    name="evalhouse",
    help="A DuckDB warehouse of treebanks and system outputs: which constructions systems get wrong.\n\n"
    "Example: evalhouse ingest treebank en_ewt-ud-test.conllu && evalhouse sql 'select * from corpus_complexity'",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def whole_examples(text: str) -> str:
    """Help ``text`` with every paragraph that holds an ``Example:`` line marked for click to leave as written
    (``\\b``): click rewraps a paragraph to the terminal's width, which ran two examples together on one line
    and broke long ones; each example now prints on a line of its own, whole, to be copied."""
    paragraphs = text.split("\n\n")
    return "\n\n".join(
        "\b\n" + p if any(line.startswith("Example:") for line in p.splitlines()) else p for p in paragraphs
    )


def keep_examples_whole(root: typer.Typer) -> None:
    """Apply :func:`whole_examples` to the help of ``root`` and of every command and group added to it."""
    root.info.help = whole_examples(root.info.help)
    for group in root.registered_groups:
        for command in group.typer_instance.registered_commands:
            command.help = whole_examples(command.help or inspect.getdoc(command.callback) or "")


class _State:
    db: Optional[str] = None
    memory_limit: Optional[str] = None
    traceback: bool = False


state = _State()

# --- options several commands take -------------------------------------------------------------------
Replace = Annotated[
    bool, typer.Option("--replace", help="Replace what is already stored under the same name instead of refusing.")
]
DropJudgements = Annotated[
    bool,
    typer.Option(
        "--drop-judgements",
        help="With --replace: allow deleting the human judgements whose judged sentence or segment "
        "is not in the new version (the others are kept); without it such a replacement is "
        "refused.",
    ),
]
DropSystems = Annotated[
    bool,
    typer.Option(
        "--drop-systems",
        help="With --replace of a translation corpus: allow deleting its systems that this command "
        "does not ingest again; without it such a replacement is refused.",
    ),
]
NeutraliseFormulas = Annotated[
    bool,
    typer.Option(
        "--neutralise-formulas",
        help="CSV for a spreadsheet: write text values that start with =, +, -, @, tab or "
        "carriage return with a ' in front, so that no spreadsheet runs them as formulas "
        "(default: every value exactly as stored; numbers are never changed).",
    ),
]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="No progress or summary output.")]
Team = Annotated[Optional[str], typer.Option("--team", help="Team name.")]
Run = Annotated[Optional[str], typer.Option("--run", help="Run name.")]
Corpus = Annotated[Optional[str], typer.Option("--corpus", help="Corpus name.")]
Out = Annotated[Path, typer.Option("--out", "-o", help="Output file.")]


def choices(name: str, values: Sequence[str]) -> type[Enum]:
    """The type of an option that takes one of ``values`` (typer lists them in --help and refuses others)."""
    return Enum(name, [(v, v) for v in values], type=str)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"evalhouse {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    db: Annotated[
        Optional[str],
        typer.Option(
            "--db", envvar="EVALHOUSE_DB", help="Warehouse file (default ./warehouse.duckdb, or $EVALHOUSE_DB)."
        ),
    ] = None,
    traceback: Annotated[
        bool, typer.Option("--traceback", envvar="EVALHOUSE_TRACEBACK", help="Show Python tracebacks on errors.")
    ] = False,
    memory_limit: Annotated[
        Optional[str],
        typer.Option(
            "--memory-limit",
            envvar="EVALHOUSE_MEMORY_LIMIT",
            help="Cap DuckDB's memory, e.g. 2GB (default: DuckDB's, 80% of RAM); larger work spills to disk.",
        ),
    ] = None,
    version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", is_eager=True, callback=_print_version)
    ] = False,
) -> None:
    state.db = db
    state.memory_limit = memory_limit
    state.traceback = traceback


def open_warehouse(
    read_only: bool = False,
    verify: bool = True,
    functions: bool = True,
    sandbox: bool = False,
    writable: Sequence[str | os.PathLike] = (),
):
    """The warehouse of ``--db`` (with ``--memory-limit``); opened read-write it is checked first (a torn
    warehouse is refused, exit 5) unless ``verify`` is False. ``functions=False``, ``sandbox`` and ``writable``:
    see :func:`evalhouse.warehouse.connect`; every command that only reads opens it confined. Views or
    macros of the schema that the file defined otherwise, and that opening replaced, are named in a note."""
    wh = warehouse.connect(
        state.db,
        read_only=read_only,
        memory_limit=state.memory_limit,
        verify=verify,
        functions=functions,
        sandbox=sandbox,
        writable=writable,
    )
    if wh.replaced:
        typer.echo(f"evalhouse: note: {wh.replaced_note}", err=True)
    return wh


class _RichTask(Task):
    def __init__(self, bars, description: str, total, unit: str):
        self.bars, self.verb = bars, description
        self.id = bars.add_task(description, total=total, unit=unit)

    def advance(self, n: float = 1, description: str | None = None) -> None:
        if description is not None:
            self.describe(description)
        self.bars.advance(self.id, n)

    def describe(self, description: str) -> None:
        if len(description) > 40:  # a long path would push the bar off an 80-column terminal
            description = "…" + description[-39:]
        self.bars.update(self.id, description=f"{self.verb} {description}")

    def close(self) -> None:
        self.bars.update(self.id, description=self.verb)
        self.bars.stop_task(self.id)


class _RichProgress(Progress):
    def __init__(self, bars):
        self.bars = bars

    def task(self, description: str, total=None, unit: str = "") -> Task:
        return _RichTask(self.bars, description, total, unit)


@contextmanager
def progress(quiet: bool = False, stream=None) -> Iterator[Progress]:
    """Progress bars (rich) on ``stream`` (default stderr) while the block runs, when it is a terminal and
    not ``quiet``; otherwise a progress that shows nothing."""
    stream = sys.stderr if stream is None else stream
    if quiet or not stream.isatty():
        yield Progress()
        return
    # rich (~0.05 s to import) only when bars are drawn: `evalhouse --help` and piped runs do not pay for it
    from rich import console as rc, progress as rp

    bars = rp.Progress(
        rp.SpinnerColumn(),
        rp.TextColumn("{task.description}"),
        rp.BarColumn(),
        rp.MofNCompleteColumn(),
        rp.TextColumn("{task.fields[unit]}"),
        rp.TimeElapsedColumn(),
        rp.TextColumn("eta"),
        rp.TimeRemainingColumn(),
        console=rc.Console(file=stream),
        transient=False,
    )
    with bars:
        yield _RichProgress(bars)


def flag(name: str) -> str | None:
    """How the running command spells the argument ``name`` of the library: its option (``--replace``)."""
    ctx = typer.main.get_current_context(silent=True)
    while ctx is not None:
        for param in ctx.command.params:
            if param.name == name and param.opts:
                return max(param.opts, key=len)
        ctx = ctx.parent
    return None


def _fail(message: str, code: int) -> None:
    typer.echo(f"evalhouse: {name_arguments(message, flag)}", err=True)
    raise typer.Exit(code)


# DuckDB errors that are the machine's, not the user's: exit 4. A failed COMMIT on a full disk is a
# TransactionException whose message carries the operating system's reason.
SYSTEM_ERRORS = ("IOException", "OutOfMemoryException", "FatalException", "InternalException")
SYSTEM_MESSAGES = (
    "No space left on device",
    "Disk quota exceeded",
    "Input/output error",
    "Could not write file",
    "Read-only file system",
)


# the lines of a DuckDB error after its first that say what to do: "Did you mean "dea_by_relation"?"
HINTS = ("Did you mean", "Candidate bindings")


def _headline(err: BaseException) -> str:
    """The first line of ``err``'s message, with DuckDB's suggestion when it makes one (on its own line)."""
    lines = str(err).splitlines()
    return "\n".join(lines[:1] + [line for line in lines[1:] if line.startswith(HINTS)])


def execute(action: Callable[[], object]):
    """Call ``action``; turn known errors into one line on stderr and a meaningful exit code."""
    try:
        return action()
    except typer.Exit:
        raise
    except BrokenPipeError:
        # the reader went away (`evalhouse views | head`): stop quietly, as a process killed by SIGPIPE would
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(141) from None
    except Exception as err:
        if state.traceback:
            raise
        if isinstance(err, InputError):
            _fail(str(err), EXIT_INPUT)
        if isinstance(err, WarehouseError):
            _fail(str(err), EXIT_TORN if type(err).__name__ == "TornWarehouseError" else EXIT_WAREHOUSE)
        if isinstance(err, ValueError):
            _fail(str(err), EXIT_USAGE)
        if isinstance(err, ImportError):  # a dependency missing or a broken install: name it and the install command
            _fail(str(missing_dependency(err)), EXIT_SYSTEM)
        name = type(err).__name__  # duckdb errors in user SQL, for instance
        if (
            "duckdb" in type(err).__module__
            and sys.modules.get("evalhouse.warehouse") is not None
            and warehouse.is_sandbox_refusal(err)
        ):
            # a reader is confined: what tried to reach outside is a view or macro stored in the warehouse file
            _fail(
                f"refused: the warehouse tried to reach a file, URL or setting outside it (a view or macro "
                f"stored in the file?); commands that read run sandboxed: {str(err).splitlines()[0]}",
                EXIT_WAREHOUSE,
            )
        # a full disk or another I/O failure is the system's, not the input's: exit 4
        system = isinstance(err, OSError) or name in SYSTEM_ERRORS or any(m in str(err) for m in SYSTEM_MESSAGES)
        _fail(
            f"{name}: {_headline(err) if str(err) else name}",
            EXIT_SYSTEM if system or "duckdb" not in type(err).__module__ else EXIT_INPUT,
        )


# --- which commands a run builds -----------------------------------------------------------------------
# typer turns every registered function into a click command (reading its signature and annotations) each
# time the program starts: for evalhouse's 21 commands about 0.03 s, 15% of a small `evalhouse evalb`. A run
# that names its command builds only that one (of the `ingest` group, only the subcommand it names: the
# whole group took 0.012 s, a twentieth of an `ingest dependency-run` of 20 sentences); help, a mistyped
# command and anything this reading does not recognise build the whole app (or group), so click's messages
# list every command.
_VALUED = _Root.HOISTED  # the global options that take a value; the others are flags


def command_name(args: Sequence[str]) -> Optional[str]:
    """The command ``args`` (the program's arguments) run, or None if that is not plain: a help or version
    request, an unknown global option, no command."""
    i = _command_index(args)
    return None if i is None else args[i]


def subcommand_name(args: Sequence[str]) -> Optional[str]:
    """The word after the command in ``args`` (``dependency-run`` of ``ingest dependency-run``), or None when
    there is none or it is an option (``ingest --help``)."""
    i = _command_index(args)
    if i is None or i + 1 >= len(args) or args[i + 1].startswith("-"):
        return None
    return args[i + 1]


def _command_index(args: Sequence[str]) -> Optional[int]:
    flags = set(_Root.FLAGS)
    i = 0
    while i < len(args):
        a = args[i]
        name = a.split("=", 1)[0]
        if name in _VALUED:
            i += 1 if "=" in a else 2
        elif a in flags:
            i += 1
        elif a.startswith("-"):
            return None
        else:
            return i
    return None


def _named(commands: Sequence, name: Optional[str]) -> list:
    """The commands among ``commands`` (typer's registered command infos) called ``name``."""
    return [c for c in commands if typer.main.get_command_name(c.name or c.callback.__name__) == name]


def app_for(args: Sequence[str]) -> typer.Typer:
    """The app to run for ``args``: :data:`app` with only the command they name, or :data:`app` itself."""
    name = command_name(args)
    if name is None:
        return app
    groups = []
    for group in app.registered_groups:
        if isinstance(group.name, str):  # a named group (`ingest`): the subcommand named, else the whole group
            if group.name == name:
                commands = _named(group.typer_instance.registered_commands, subcommand_name(args))
                groups.append(_with_commands(group, commands) if commands else group)
            continue
        commands = _named(group.typer_instance.registered_commands, name)
        if commands:
            groups.append(_with_commands(group, commands))
    if not groups:
        return app  # unknown: click says so and lists the commands
    pruned = copy.copy(app)
    pruned.registered_groups = groups
    return pruned


def _with_commands(group, commands: list):
    """A copy of ``group`` (typer's registered group info) that holds only ``commands``."""
    part = copy.copy(group.typer_instance)
    part.registered_commands = commands
    group = copy.copy(group)
    group.typer_instance = part
    return group


def main() -> None:
    # idle OpenBLAS threads sleep at once: `import evalhouse` (above) set OPENBLAS_THREAD_TIMEOUT
    # typer 0.29 would import pydantic to coerce parameters that need no coercing (evalhouse.cli.coercion)
    try:
        coercion.install(typer.main.get_command(app_for(sys.argv[1:])))()
    except KeyboardInterrupt:
        typer.echo("evalhouse: interrupted", err=True)
        sys.exit(130)
