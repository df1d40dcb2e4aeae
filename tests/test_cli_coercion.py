"""evalhouse.cli.coercion: on the typer releases it applies to, every parameter of every command gets the value
(or the error) typer's own coercion gives, and a command runs without importing pydantic."""

from __future__ import annotations

import os
import subprocess
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import pytest
import typer
import typer.main

from evalhouse.cli import app
from evalhouse.cli import coercion

HERE = Path(__file__).resolve().parent

applies = pytest.mark.skipif(not coercion.applies(), reason=f"typer {typer.__version__}: typer coerces alone")


def test_it_applies_only_to_the_releases_it_was_checked_against():
    assert coercion.applies("0.29.0") and coercion.applies("0.29.1") and coercion.applies("0.29.2")
    assert not coercion.applies("0.29.3") and not coercion.applies("0.29.2.post1")
    assert not coercion.applies("0.28.0") and not coercion.applies("0.30.0") and not coercion.applies("1.29.0")
    assert not coercion.applies("") and not coercion.applies("garbage")
    assert coercion.applies() == (typer.__version__ in coercion.CHECKED)


class Colour(str, Enum):
    red = "red"
    dark_blue = "Dark-Blue"


def _probe_app() -> typer.Typer:
    """Parameters evalhouse's commands do not have today, so that the comparison covers what a new one may."""
    probe = typer.Typer()

    @probe.command()
    def files(
        existing: Annotated[Path, typer.Argument(exists=True)],
        file_only: Annotated[Optional[Path], typer.Option(dir_okay=False)] = None,
        dir_only: Annotated[Optional[Path], typer.Option(file_okay=False, exists=True)] = None,
        resolved: Annotated[Optional[Path], typer.Option(resolve_path=True)] = None,
        dash: Annotated[Optional[Path], typer.Option(allow_dash=True)] = None,
        as_str: Annotated[Optional[str], typer.Option(path_type=str)] = None,
        path_as_str: Annotated[Optional[Path], typer.Option(path_type=str)] = None,
        paths: Annotated[Optional[list[Path]], typer.Option()] = None,
    ):
        pass

    @probe.command()
    def numbers(
        count: Annotated[int, typer.Option(min=1, max=9)] = 1,
        at_least: Annotated[int, typer.Option(min=-3)] = 1,
        share: Annotated[float, typer.Option(min=0, max=0.5)] = 0.5,
        clamped: Annotated[float, typer.Option(min=0, max=1, clamp=True)] = 0.5,
        ratio: float = 1,
        colour: Colour = Colour.red,
        loose: Annotated[Colour, typer.Option(case_sensitive=False)] = Colour.red,
        counts: Annotated[Optional[list[int]], typer.Option()] = None,
    ):
        pass

    return probe


def _parameters():
    """(command path, parameter) for every parameter of every command, --help options included, and of
    :func:`_probe_app`."""
    from typer._click import Context

    out = []

    def walk(command, path):
        ctx = Context(command)
        for p in command.params + [command.get_help_option(ctx)]:
            out.append((" ".join(path) or "evalhouse", p))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, path + [name])

    walk(typer.main.get_command(app), [])
    walk(typer.main.get_command(_probe_app()), ["probe"])
    return out


def _atoms(tmp: Path) -> list:
    a_file = tmp / "a file.txt"
    a_file.write_text("x\n")
    a_dir = tmp / "a dir"
    a_dir.mkdir()
    strings = [
        "",
        "x",
        " 5",
        "5 ",
        "5",
        "+5",
        "-5",
        "007",
        "0",
        "-0",
        "1_000",
        "5.0",
        "5.",
        ".5",
        "-.5",
        "+0.25",
        "1e3",
        "1E-2",
        "inf",
        "-inf",
        "nan",
        "NaN",
        "٥",
        "١٢",
        "１２",
        "12345678901234567",
        "123456789012345678",
        "1234567890123456789",
        "99999999999999999999",
        "0.1234567890123456",
        "0.12345678901234567",
        "a b",
        "täst",
        "/",
        "-",
        "~",
        "None",
        "true",
        "false",
        "yes",
        "no",
        "on",
        "off",
        "1",
        "YES",
        "True",
        "t",
        "0x10",
        "--",
        str(a_file),
        str(a_file) + "/",
        str(a_dir),
        str(a_dir) + "//",
        str(tmp / "missing" / "x"),
        "./" + a_file.name,
    ]
    return strings + [None, 0, 5, -1, 5.0, 0.5, True, False, Path("x"), a_file, ("a", "b")]


def _values(parameter, atoms: list) -> list:
    atoms = list(atoms)
    annotation = parameter.type_descriptor.annotation
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        for member in annotation:
            atoms += [member, str(member.value), str(member.value).upper(), str(member.value).title()]
    if parameter.multiple or parameter.nargs == -1:
        return [None, (), ("x",), ("a", "b", ""), ("5", "x"), ["a"], "a", (5,), (Path("x"),)] + [
            (a,) for a in atoms if isinstance(a, str)
        ]
    return atoms


def _outcome(runtime, value, parameter, ctx):
    try:
        got = runtime.coerce(value, param=parameter, ctx=ctx)
    except Exception as e:  # the kind of error and its message, which must be typer's
        return ("error", type(e).__name__, e.format_message() if hasattr(e, "format_message") else str(e))
    return ("value", type(got).__name__, repr(got))  # repr: nan equals nan


@pytest.mark.slow
@applies
def test_every_parameter_of_every_command_gets_typers_value_or_typers_error(tmp_path):
    from typer._click import Context
    from typer._coercion import build_runtime_param

    parameters = _parameters()
    kinds = {repr(p.type_descriptor.annotation) for _, p in parameters}
    assert {
        "<class 'str'>",
        "<class 'int'>",
        "<class 'float'>",
        "<class 'bool'>",
        "<class 'pathlib.Path'>",
        "list[str]",
    } <= kinds
    compared, answered = 0, {}
    atoms = _atoms(tmp_path)
    for path, p in parameters:
        ctx = Context(typer.main.get_command(app))
        d = p.type_descriptor
        theirs = build_runtime_param(d)
        mine = coercion.PlainRuntimeParam(annotation=d.annotation, parameter_info=d.parameter_info, descriptor=d)
        for value in _values(p, atoms):
            expected = _outcome(theirs, value, p, ctx)
            got = _outcome(mine, value, p, ctx)
            assert got == expected, (path, p.name, d.annotation, value)
            compared += 1
            if (
                value is not None
                and coercion._plain(value, d.annotation, d.parameter_info, p, ctx) is not coercion._ASK_TYPER
            ):
                answered[repr(d.annotation)] = answered.get(repr(d.annotation), 0) + 1
    assert compared > 5000
    # the fast path answered for every kind of parameter (else the comparison above proves nothing of it)
    for kind in (
        "<class 'str'>",
        "<class 'int'>",
        "<class 'float'>",
        "<class 'bool'>",
        "<class 'pathlib.Path'>",
        "list[str]",
    ):
        assert answered.get(kind, 0) > 0, kind
    assert any(k.startswith("<enum") for k in answered)


@applies
def test_values_typer_coerces_differently_from_python_go_to_typer(tmp_path):
    """The cases where ``int()``/``float()``/``Path()`` and pydantic might disagree are left to typer."""
    from typer._click import Context
    from typer.models import OptionInfo

    ctx = Context(typer.main.get_command(app))
    info = OptionInfo()
    ask = coercion._ASK_TYPER
    for value in (" 5", "1_000", "١٢", "1234567890123456789"):
        assert coercion._plain(value, int, info, None, ctx) is ask, value
    for value in ("1e3", "inf", "nan", "1_0.5", "0.12345678901234567"):
        assert coercion._plain(value, float, info, None, ctx) is ask, value
    assert coercion._plain("", Path, info, None, ctx) is ask
    assert coercion._plain(5, float, info, None, ctx) is ask  # pydantic makes 5.0
    assert coercion._plain("0", int, OptionInfo(min=1), None, ctx) is ask  # out of range: typer's message
    assert coercion._plain("2", int, OptionInfo(min=1, clamp=True), None, ctx) is ask
    assert coercion._plain("12", int, OptionInfo(min=1), None, ctx) == 12
    assert coercion._plain("12", int, info, None, ctx) == 12


@applies
def test_whatever_the_fast_path_raises_typer_answers(tmp_path):
    """A value whose coercion raises here (a NUL byte in a path makes os.stat raise ValueError; a context's
    token_normalize_func may raise anything) gets typer's answer: its usage error, not a traceback."""
    from typer._click import Context
    from typer._coercion import build_runtime_param

    def normalise(token):
        assert token != "boom", "no boom"
        return token

    command = typer.main.get_command(_probe_app())
    cases = [
        ("files", "file_only", "a\x00b", None),
        ("numbers", "colour", "boom", normalise),
        ("numbers", "colour", "red", normalise),
    ]
    outcomes = []
    for sub, name, value, normalise_token in cases:
        p = next(q for q in command.commands[sub].params if q.name == name)
        ctx = Context(command, token_normalize_func=normalise_token)
        d = p.type_descriptor
        mine = coercion.PlainRuntimeParam(annotation=d.annotation, parameter_info=d.parameter_info, descriptor=d)
        outcomes.append(_outcome(mine, value, p, ctx))
        assert outcomes[-1] == _outcome(build_runtime_param(d), value, p, ctx), (name, value)
    assert [o[0] for o in outcomes] == ["error", "error", "value"]


COMMAND = """
import sys
from evalhouse.cli import main
sys.argv = ["evalhouse"] + sys.argv[1:]
try:
    main()
except SystemExit as e:
    code = e.code
else:
    code = 0
print("pydantic" in sys.modules, code, file=sys.stderr)
"""


def _run(*args: str, cwd: Path, **env: str) -> tuple[str, str, str]:
    out = subprocess.run(
        [sys.executable, "-c", COMMAND, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "EVALHOUSE_TRACEBACK": "", **env},
    )
    *_, last = out.stderr.strip().splitlines()
    imported, code = last.split()
    return imported, code, out.stdout


@pytest.mark.slow
def test_commands_run_without_pydantic_where_it_applies(tmp_path):
    sample = HERE.parent / "evalhouse" / "sample"
    treebank = next(sample.glob("*.conllu"))
    db = str(tmp_path / "w.duckdb")
    # where it does not apply, typer decides (0.28 imports no pydantic, a future release may)
    expected = "False" if coercion.applies() else None
    imported, code, _ = _run("--db", db, "ingest", "treebank", str(treebank), "--corpus", "c", cwd=tmp_path)
    assert code == "0" and imported == (expected or imported)
    imported, code, out = _run("--db", db, "sql", "select count(*) as n from corpora", "--format", "csv", cwd=tmp_path)
    assert (code, out.split()) == ("0", ["n", "1"]) and imported == (expected or imported)
    # a number with a range (--lexicon-min-count, default 1), and a flag from the environment
    lines = tmp_path / "out.txt"
    lines.write_text(
        "".join(
            line[len("# text = ") :] + "\n"
            for line in treebank.read_text().splitlines()
            if line.startswith("# text = ")
        ),
        encoding="utf-8",
    )
    imported, code, out = _run(
        "--db",
        db,
        "ingest",
        "outputs",
        str(lines),
        "--format",
        "lines",
        "--reference",
        "c",
        "--team",
        "t",
        "--run",
        "1",
        "--no-sacrebleu",
        cwd=tmp_path,
        EVALHOUSE_TRACEBACK="1",
    )
    assert code == "0" and imported == (expected or imported)
    imported, code, out = _run("--db", db, "sql", "select 1", "--format", "yaml", cwd=tmp_path)
    assert code == "2"  # a bad choice: typer's own message, through typer's coercion


def test_the_benchmarks_say_whether_it_applies():
    """benchmarks.fixed_cost and benchmarks.parses print the typer they ran on and whether this module applied
    (on a typer release it was not checked against, every command is 0.06-0.08 s slower)."""
    from benchmarks.process import typer_coercion

    assert typer_coercion() == (
        f"typer {typer.__version__}, evalhouse's own coercion of plain option values "
        f"{'on' if coercion.applies() else 'off'}"
    )
