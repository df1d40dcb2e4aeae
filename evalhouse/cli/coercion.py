"""Coercing a command's parameters without importing pydantic, where pydantic has nothing to decide.

typer 0.29 coerces every parameter of the command it runs through a pydantic ``TypeAdapter``: a ``str`` that
is already a ``str``, a ``Path`` given as a file name. Importing pydantic and building the adapters costs
0.06-0.08 s of CPU per command on the development machine, whatever the command does (a sixth of
a one-sentence ingest into a new warehouse, a third of ``evalb`` on a small file;
``python -m benchmarks.fixed_cost``). :func:`install` gives each parameter of the command about to run a
coercion that answers by itself only when the answer is not in doubt, and otherwise asks typer's own:

* ``str``: a ``str``, unchanged (typer: ``str(value)``);
* ``int``: an ``int``, or up to 18 ASCII digits with an optional sign, by ``int()``;
* ``float``: a ``float``, or an ASCII decimal such as ``0.05`` or ``-3`` (no exponent, up to 18 characters),
  by ``float()``;
* a number with a ``min`` or ``max`` (and no ``clamp``): the same, when it lies within them;
* ``bool``: a ``bool``, or one of ``1 0 true false yes no on off`` (what ``EVALHOUSE_TRACEBACK=1`` gives);
* ``pathlib.Path``: a non-empty ``str``, as ``Path(value)`` (what pydantic's Path validator does) and then
  typer's own path checks (``coerce_cli_path``: exists, file or directory, resolve);
* an ``Enum``: typer's own ``coerce_cli_choice`` (case rules and token normalisation included);
* ``list[str]``: a list or tuple of ``str``, as a list.

Any other value (an empty path, ``1e3``, `` 5``, ``١٢``, a number out of its range), any other annotation
(custom parsers, clamped ranges, datetimes, tuples, files) and any value whose coercion here raises anything
go to typer's coercion, which then builds its adapter and gives its own value or its own error message. So
a command's values and messages are typer's; only the import is saved. ``tests/test_cli_coercion.py``
compares the two on every parameter of every command with valid, odd and invalid values.

The hooks are typer internals (``_TyperParameter._runtime_param``, ``typer._coercion.RuntimeParam``), so this
runs only on the typer releases it was checked against (:data:`CHECKED`); on any other release, older or
newer, or if those internals cannot be imported, :func:`install` does nothing and typer coerces as it always
does (0.28 and older import no pydantic). One difference remains on every release: a Python traceback
(``--traceback``) lacks the two frames of ``typer.Typer.__call__``, which ``main`` no longer goes through.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, get_args, get_origin

import typer

# the releases this was checked against: the suite ran on 0.29.2, whose typer/_coercion.py, _param_types.py,
# _adapters.py and core.py are byte for byte those of 0.29.0 and 0.29.1
CHECKED = ("0.29.0", "0.29.1", "0.29.2")

_INT = re.compile(r"[+-]?[0-9]{1,18}")
_FLOAT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_BOOL = {"1": True, "0": False, "true": True, "false": False, "yes": True, "no": False, "on": True, "off": False}
_ASK_TYPER = object()

try:
    import typer.core
    from typer._coercion import RuntimeParam, TypeDescriptor, build_runtime_param
    from typer._param_types import coerce_cli_choice, coerce_cli_path

    _HOOKS = hasattr(typer.core, "_TyperParameter")
except ImportError:  # another typer: it coerces alone
    _HOOKS = False


def applies(version: str | None = None) -> bool:
    """Whether :func:`install` does anything on this typer release (or would on release ``version``)."""
    if version is None:
        return _HOOKS and getattr(typer, "__version__", "") in CHECKED
    return version in CHECKED


if applies():

    @dataclass(frozen=True)
    class PlainRuntimeParam(RuntimeParam):
        """typer's coercion contract (``RuntimeParam.coerce``: missing values, multiple values) with a value
        coerced here when that is not in doubt, by typer's own coercion otherwise."""

        descriptor: TypeDescriptor | None = None

        def _coerce_value(self, value: Any, param, ctx) -> Any:
            plain = _plain(value, self.annotation, self.parameter_info, param, ctx)
            if plain is _ASK_TYPER:
                return build_runtime_param(self.descriptor)._coerce_value(value, param=param, ctx=ctx)
            return plain

    def _plain(value: Any, annotation: Any, info, param, ctx) -> Any:
        try:
            return _plain_or_raise(value, annotation, info, param, ctx)
        except Exception:  # noqa: BLE001 - whatever went wrong, typer says what, in its words
            return _ASK_TYPER

    def _number(value: Any, kind: type, number: type, info) -> Any:
        if kind is number:
            out = value
        elif kind is str and (_INT.fullmatch(value) if number is int else len(value) <= 18 and _FLOAT.fullmatch(value)):
            out = number(value)
        else:
            return _ASK_TYPER
        if (info.min is not None and not out >= info.min) or (info.max is not None and not out <= info.max):
            return _ASK_TYPER
        return out

    def _plain_or_raise(value: Any, annotation: Any, info, param, ctx) -> Any:
        if info.parser is not None or info.clamp:
            return _ASK_TYPER
        kind = type(value)
        if annotation is int or annotation is float:
            return _number(value, kind, annotation, info)
        if info.min is not None or info.max is not None:
            return _ASK_TYPER
        if annotation is str:
            return value if kind is str else _ASK_TYPER
        if annotation is bool:
            if kind is bool:
                return value
            return _BOOL.get(value, _ASK_TYPER) if kind is str else _ASK_TYPER
        if annotation is Path and info.path_type is None:
            if kind is str and value:
                value = Path(value)
            if not isinstance(value, Path):
                return _ASK_TYPER
            return coerce_cli_path(value, info, path_type=Path, param=param, ctx=ctx)
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            return coerce_cli_choice(value, choices=tuple(annotation), case_sensitive=info.case_sensitive, ctx=ctx)
        if get_origin(annotation) is list and get_args(annotation) == (str,):
            if kind in (list, tuple) and all(type(v) is str for v in value):
                return list(value)
        return _ASK_TYPER

    def _give(parameter) -> None:
        if isinstance(parameter, typer.core._TyperParameter) and parameter._runtime_param is None:
            d = parameter.type_descriptor
            parameter._runtime_param = PlainRuntimeParam(
                annotation=d.annotation, parameter_info=d.parameter_info, descriptor=d
            )

    def _install(command) -> None:
        for parameter in command.params:
            _give(parameter)
        # click makes the --help option when a context first asks for it (with that context's names)
        make_help = command.get_help_option

        def get_help_option(ctx):
            option = make_help(ctx)
            if option is not None:
                _give(option)
            return option

        command.get_help_option = get_help_option
        for sub in getattr(command, "commands", {}).values():
            _install(sub)


def install(command) -> Any:
    """Give every parameter of ``command`` (a click command built by ``typer.main.get_command``) and of its
    subcommands the coercion of this module; returns ``command``. Does nothing unless :func:`applies`."""
    if applies():
        _install(command)
    return command
