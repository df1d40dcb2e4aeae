"""The command reference, docs/commands.md, written from the CLI itself: every command of the ``evalhouse``
click tree with its help text, usage, arguments and options (names, choices, defaults, help).

    python -m evalhouse.cli.reference > docs/commands.md

``tests/test_docs.py`` checks that the committed page equals what this prints, as ``tests/test_dataset.py``
does for docs/data-dictionary.md, so the reference cannot drift from the options the commands take. What
the options mean at length, and why, is written by hand in docs/usage.md.
"""

from __future__ import annotations

import enum
import inspect
import os
import typing
from pathlib import Path

import typer.main

from evalhouse.cli import app as evalhouse_app

HEADER = """# Command reference

Generated from the command line by `python -m evalhouse.cli.reference > docs/commands.md` (do not edit by
hand: `tests/test_docs.py` checks that this page equals what the CLI declares). What each command does and
why, with examples: [usage.md](usage.md).
"""


def _commands(group, prefix: tuple[str, ...] = ()):
    """(path, command) for every command below ``group``, in the order of their names (typer vendors
    click: groups are recognised by their ``commands``)."""
    for name in sorted(group.commands):
        cmd = group.commands[name]
        if getattr(cmd, "hidden", False):
            continue
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, prefix + (name,))
        else:
            yield prefix + (name,), cmd


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|").replace("<", "&lt;")


def _default(param) -> str:
    default = param.default
    if callable(default) or default is None or default == () or default == []:
        return ""
    if getattr(param, "is_flag", False) and getattr(param, "secondary_opts", None):
        return f"`{(param.opts if default else param.secondary_opts)[0]}`"
    if getattr(param, "is_flag", False):
        return "" if default is False else "`on`"
    if isinstance(default, enum.Enum):
        default = default.value
    if isinstance(default, (list, tuple)):
        return ", ".join(f"`{d.value if isinstance(d, enum.Enum) else d}`" for d in default)
    if isinstance(default, os.PathLike):
        default = os.fspath(default)
    return f"`{default}`"


def _annotation_kind(annotation) -> str:
    """What a value of the annotation is, in words: Optional unwrapped, a list marked repeatable."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if origin in (list, tuple) and args:
        return _annotation_kind(args[0]) + ", repeatable"
    if origin is not None and len(args) == 1:  # Optional[X], Annotated[X, ...]
        return _annotation_kind(args[0])
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return "one of " + ", ".join(f"`{member.value}`" for member in annotation)
    return {bool: "flag", int: "integer", float: "number", str: "text", Path: "path"}.get(annotation, "text")


def _kind(param) -> str:
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None:  # typer >= 0.29 declares the annotation itself
        return _annotation_kind(descriptor.annotation)
    if getattr(param, "is_flag", False):  # older typer: click's parameter types
        return "flag"
    choices = getattr(param.type, "choices", None)
    kind = (
        ("one of " + ", ".join(f"`{getattr(c, 'value', c)}`" for c in choices))
        if choices
        else {"integer": "integer", "float": "number", "path": "path"}.get(param.type.name.lower(), "text")
    )
    return kind + (", repeatable" if getattr(param, "multiple", False) or param.nargs == -1 else "")


def _usage(path: tuple[str, ...], cmd) -> str:
    pieces = []
    for param in cmd.params:
        if param.param_type_name == "argument":
            name = (param.metavar or param.name).upper()
            name += "..." if param.nargs == -1 else ""
            pieces.append(name if param.required else f"[{name}]")
    return " ".join(["evalhouse", *path, "[OPTIONS]", *pieces])


def _section(path: tuple[str, ...], cmd) -> list[str]:
    out = [f"## `evalhouse {' '.join(path)}`", "", "```console", _usage(path, cmd), "```", ""]
    help_text = inspect.cleandoc(cmd.help or "").strip()
    if help_text:  # as --help prints it, not read as Markdown
        out += ["```text", help_text, "```", ""]
    arguments = [p for p in cmd.params if p.param_type_name == "argument"]
    options = [p for p in cmd.params if p.param_type_name == "option" and "--help" not in p.opts]
    if arguments:
        out += ["| argument | kind | required | help |", "|---|---|---|---|"]
        for p in arguments:
            out.append(
                f"| `{(p.metavar or p.name).upper()}` | {_kind(p)} | {'yes' if p.required else 'no'} "
                f"| {_cell(getattr(p, 'help', '') or '')} |"
            )
        out.append("")
    if options:
        out += ["| option | kind | default | help |", "|---|---|---|---|"]
        for p in options:
            names = " / ".join(f"`{o}`" for o in [*p.opts, *getattr(p, "secondary_opts", [])])
            required = " (required)" if p.required else ""
            out.append(f"| {names}{required} | {_kind(p)} | {_default(p)} | {_cell(p.help or '')} |")
        out.append("")
    return out


def command_reference(app=None) -> str:
    """The Markdown reference of every command of ``app`` (default: the ``evalhouse`` command)."""
    root = typer.main.get_command(evalhouse_app if app is None else app)
    lines = [
        HEADER,
        "## Global options",
        "",
        "Given before or after the command's name (`evalhouse --db w.duckdb views` = `evalhouse views --db w.duckdb`).",
        "",
        "| option | kind | default | help |",
        "|---|---|---|---|",
    ]
    for p in root.params:
        if p.param_type_name == "option" and "--help" not in p.opts and not getattr(p, "hidden", False):
            names = " / ".join(f"`{o}`" for o in [*p.opts, *getattr(p, "secondary_opts", [])])
            lines.append(f"| {names} | {_kind(p)} | {_default(p)} | {_cell(p.help or '')} |")
    lines.append("")
    index = [f"- [`evalhouse {' '.join(path)}`](#evalhouse-{'-'.join(path)})" for path, _ in _commands(root)]
    lines += ["## Commands", "", *index, ""]
    for path, cmd in _commands(root):
        lines += _section(path, cmd)
    return "\n".join(lines).rstrip("\n") + "\n"


if __name__ == "__main__":
    import sys

    sys.stdout.write(command_reference())
