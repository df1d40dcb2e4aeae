"""One ingest shape: every input a user stores is a typed method of :class:`evalhouse.warehouse.Warehouse`,
whose body is the module function of :mod:`evalhouse.ingest` that does the work, and the CLI calls the
methods (a thin layer over the Python API)."""

from __future__ import annotations

import ast
import importlib
import inspect
import typing

import pytest

from evalhouse import warehouse
from evalhouse.warehouse import Warehouse
from tests.conftest import REPO

# method -> (module of evalhouse.ingest, the function that is its body)
METHODS = {
    "ingest_treebank": ("treebanks", "ingest_treebank"),
    "ingest_outputs": ("outputs", "ingest_outputs"),
    "ingest_judgements": ("judgements", "ingest_judgements"),
    "ingest_parses": ("parses", "ingest_parses"),
    "ingest_dependency_run": ("dependency_runs", "ingest_dependency_run"),
    "ingest_translations": ("translations", "ingest_translations"),
    "ingest_pronoun_judgements": ("pronoun_judgements", "ingest_pronoun_judgements"),
    "add_apt_config": ("translations", "add_config"),
    "run_apt_config": ("apt_configs", "run_apt_config"),
    "run_baseline": ("baselines", "run_baseline"),
}
# functions of evalhouse.ingest named like a user's write that are building blocks of a method, not inputs
BUILDING_BLOCKS = {"ingest_submissions"}  # a list of SubmissionFile: the body of ingest_outputs and run_baseline

INGEST = REPO / "evalhouse" / "ingest"
CLI = REPO / "evalhouse" / "cli"


def _function(method: str):
    module, name = METHODS[method]
    return getattr(importlib.import_module(f"evalhouse.ingest.{module}"), name)


def _type_checking_names(module) -> dict:
    """The module's globals plus what its ``if TYPE_CHECKING:`` block imports (the names its annotations use)."""
    names = dict(vars(module))
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            exec(compile(ast.Module(body=node.body, type_ignores=[]), module.__file__, "exec"), names)
    return names


def _hints(function) -> dict:
    return typing.get_type_hints(function, globalns=_type_checking_names(inspect.getmodule(function)))


def _public(function) -> list[inspect.Parameter]:
    """The parameters a user passes: without the warehouse (the first) and the private ones."""
    return [p for p in list(inspect.signature(function).parameters.values())[1:] if not p.name.startswith("_")]


@pytest.mark.parametrize("method", sorted(METHODS))
def test_each_ingest_is_a_typed_method_with_its_function_s_parameters(method):
    """Same names, kinds, defaults and (resolved) types as the function; every parameter and the result typed."""
    bound, function = getattr(Warehouse, method), _function(method)
    ours, theirs = _public(bound), _public(function)
    assert [(p.name, p.kind, p.default) for p in ours] == [(p.name, p.kind, p.default) for p in theirs]
    untyped = [p.name for p in ours if p.annotation is inspect.Parameter.empty]
    assert untyped == [] and inspect.signature(bound).return_annotation is not inspect.Signature.empty
    hints, their_hints = _hints(bound), _hints(function)
    assert {p.name: hints[p.name] for p in ours} == {p.name: their_hints[p.name] for p in theirs}
    assert hints["return"] == their_hints["return"]
    first = list(inspect.signature(function).parameters)[0]
    assert their_hints[first] is Warehouse  # the function takes the warehouse, typed
    assert f":func:`evalhouse.ingest.{METHODS[method][0]}.{METHODS[method][1]}`" in " ".join(bound.__doc__.split())


@pytest.mark.parametrize("method", sorted(METHODS))
def test_each_method_hands_every_argument_to_its_function(method, monkeypatch):
    module, name = METHODS[method]
    function = _function(method)
    seen = []
    monkeypatch.setattr(
        getattr(warehouse, module),
        name,
        lambda *a, **k: seen.append(inspect.signature(function).bind(*a, **k).arguments),
    )
    me, given = object(), {p.name: object() for p in _public(getattr(Warehouse, method))}
    getattr(Warehouse, method)(me, **given)
    assert seen == [{list(inspect.signature(function).parameters)[0]: me, **given}]


def test_every_ingest_function_has_a_method():
    """A new input (a function ``ingest_*``, ``run_*`` or ``add_*`` of evalhouse.ingest taking the warehouse)
    gets its method, or is named a building block above."""
    wrapped = {(module, name) for module, name in METHODS.values()}
    missing = []
    for path in sorted(INGEST.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if (
                isinstance(node, ast.FunctionDef)
                and node.name.startswith(("ingest_", "run_", "add_"))
                and node.args.args
                and node.args.args[0].arg == "wh"
                and (path.stem, node.name) not in wrapped
                and node.name not in BUILDING_BLOCKS
            ):
                missing.append(f"{path.stem}.{node.name}")
    assert missing == []


def _cli_uses():
    """(file, module of evalhouse.ingest, attribute) for every ``name.attr`` in evalhouse/cli whose name is bound
    to an evalhouse.ingest module (imported or lazy_module), and every ``from evalhouse.ingest.m import f``;
    and the names of the methods the CLI calls on an object."""
    uses, calls = [], set()
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = {}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "lazy_module"
                and str(node.value.args[0].value).startswith("evalhouse.ingest.")
            ):
                bound[node.targets[0].id] = node.value.args[0].value.rpartition(".")[2]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("evalhouse.ingest"):
                for alias in node.names:
                    if node.module == "evalhouse.ingest":
                        bound[alias.asname or alias.name] = alias.name
                    else:
                        uses.append((path.name, node.module.rpartition(".")[2], alias.name))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("evalhouse.ingest."):
                        bound[alias.asname or alias.name] = alias.name.rpartition(".")[2]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
                uses.append((path.name, bound[node.value.id], node.attr))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                calls.add(node.func.attr)
    return uses, calls


def test_the_cli_calls_the_methods_not_the_ingest_functions():
    uses, calls = _cli_uses()
    assert uses, "the pattern finds nothing: evalhouse/cli uses evalhouse.ingest.parses' resolvers"
    wrapped = set(METHODS.values())
    assert [u for u in uses if (u[1], u[2]) in wrapped] == []
    assert sorted(set(METHODS) - calls) == []


def test_the_python_api_page_shows_every_ingest_method():
    page = (REPO / "docs" / "python-api.md").read_text(encoding="utf-8")
    assert [m for m in sorted(METHODS) if f"wh.{m}(" not in page] == []


def _takers():
    """(module name, file, function or class node, parameter or field) for every ``wh`` or ``con`` parameter
    of the package, and every annotated field of that name (``wh: Warehouse`` of a dataclass)."""
    for folder, package in (
        ("evalhouse", "evalhouse"),
        ("analysis", "evalhouse.analysis"),
        ("loaders", "evalhouse.loaders"),
    ):
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = path.relative_to(REPO / folder).with_suffix("").parts
            module = ".".join((package, *parts[:-1], *([] if parts[-1] == "__init__" else [parts[-1]])))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for arg in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
                        if arg.arg in ("wh", "con"):
                            yield module, path, node, arg
                if isinstance(node, ast.ClassDef):
                    for field in node.body:
                        if isinstance(field, ast.AnnAssign) and getattr(field.target, "id", None) in ("wh", "con"):
                            yield module, path, node, ast.arg(field.target.id, field.annotation, lineno=field.lineno)


def test_every_warehouse_and_connection_parameter_is_typed():
    """``wh`` is a :class:`Warehouse` and ``con`` a ``duckdb.DuckDBPyConnection`` wherever the package takes
    one (imported under ``if TYPE_CHECKING:`` where the module does not import them at run time)."""
    expected = {"wh": "Warehouse", "con": "duckdb.DuckDBPyConnection"}
    takers = list(_takers())
    assert len(takers) > 90  # the pattern finds them
    wrong = [
        f"{path.relative_to(REPO)}:{arg.lineno} {node.name}({arg.arg})"
        for _, path, node, arg in takers
        if arg.annotation is None or ast.unparse(arg.annotation) != expected[arg.arg]
    ]
    assert wrong == []


def test_the_annotations_of_the_package_resolve():
    """Every annotation of a module-level function that takes the warehouse or a connection names something
    that exists (its module's globals plus its ``if TYPE_CHECKING:`` imports) and is the expected type."""
    import duckdb

    for name in sorted({module for module, *_ in _takers()}):
        module = importlib.import_module(name)
        names = _type_checking_names(module)
        for _, obj in inspect.getmembers(module, inspect.isfunction):
            if obj.__module__ == name:
                hints = typing.get_type_hints(obj, globalns=names)
                assert hints.get("wh", Warehouse) is Warehouse
                assert hints.get("con", duckdb.DuckDBPyConnection) is duckdb.DuckDBPyConnection
