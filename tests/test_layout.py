"""The house plan: every ``evalhouse.*`` package comes from this checkout, the import graph has no circle
and is visible at module top, and the import paths the README documented before the restructure work."""

from __future__ import annotations

import ast
import re
import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def package_dirs() -> dict[str, Path]:
    """Every package of pyproject.toml -> its directory in this checkout (through the package-dir mapping)."""
    mapping = PYPROJECT["package-dir"]
    out = {}
    for package in PYPROJECT["packages"]:
        base = max((p for p in mapping if package == p or package.startswith(p + ".")), key=len)
        out[package] = (
            REPO / mapping[base] / Path(*package[len(base) :].lstrip(".").split(".") if package != base else ())
        )
    return out


def modules() -> dict[str, Path]:
    """Every module of the package (name -> file)."""
    out = {}
    for package, directory in package_dirs().items():
        for path in sorted(directory.glob("*.py")):
            out[package if path.stem == "__init__" else f"{package}.{path.stem}"] = path
    return out


MODULES = modules()


def _imports(name: str, path: Path):
    """(imported module, line, inside a function) for every import of one of our modules in ``name``,
    and every module declared with lazy_module(...). Imports under ``if TYPE_CHECKING:`` are left out: they
    name the types of annotations (``wh: Warehouse``) and never run, so they make no import order."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    in_function, type_only = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            in_function |= {id(n) for n in ast.walk(node) if n is not node}
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            type_only |= {id(n) for n in ast.walk(node) if n is not node}
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "lazy_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            targets = [node.args[0].value]
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node.lineno, id(node) in in_function


def test_every_package_is_served_from_this_checkout():
    """An editable install of another checkout (several worktrees live side by side) would silently serve
    its code, and through the package-dir mapping even a mix of two checkouts."""
    for package, directory in package_dirs().items():
        module = importlib.import_module(package)
        assert Path(module.__file__).resolve() == (directory / "__init__.py").resolve(), (
            f"{package} is imported from {module.__file__}, not from this checkout ({directory}): "
            f"run pip install -e . from {REPO}"
        )


@pytest.mark.slow
def test_the_import_graph_has_no_circle():
    graph = {name: sorted({t for t, _, _ in _imports(name, path)}) for name, path in MODULES.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        stack.append(name)
        for target in graph[name]:
            if state.get(target) == 1:
                pytest.fail("import circle: " + " -> ".join(stack[stack.index(target) :] + [target]))
            if target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)


@pytest.mark.slow
def test_our_modules_are_imported_at_module_top():
    inside = [
        f"{MODULES[name].relative_to(REPO)}:{line} imports {target}"
        for name in MODULES
        for target, line, in_function in _imports(name, MODULES[name])
        if in_function
    ]
    assert inside == []


@pytest.mark.slow
def test_an_import_inside_a_function_says_why():
    """Only heavy third-party libraries may be imported late, where that keeps a command's start-up fast,
    and a comment says so. (analysis/bleu.py and analysis/stats.py are left to their owners.)"""
    unexplained = []
    for name, path in MODULES.items():
        if name.startswith("evalhouse.analysis."):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)) and sub is not node:
                        here, above = lines[sub.lineno - 1], lines[sub.lineno - 2]
                        if "#" not in here and not above.strip().startswith("#"):
                            unexplained.append(f"{path.relative_to(REPO)}:{sub.lineno}: {here.strip()}")
    assert unexplained == []


@pytest.mark.slow
def test_import_paths_documented_before_the_restructure_still_work():
    import evalhouse
    from evalhouse.analysis.trees import tree_metrics
    from evalhouse.errors import InputError, WarehouseError
    from evalhouse.ingest.dependency_runs import ingest_dependency_run
    from evalhouse.ingest.parses import ingest_parses
    from evalhouse.loaders.errors import InputError as LoaderInputError
    from evalhouse.parses import evalb_report, ingest_dependency_run as old_dependency_run, ingest_parses as old_parses
    from evalhouse.reports.evalb import evalb_report as new_evalb_report
    from evalhouse.warehouse import InputError as WarehouseInputError, Warehouse, WarehouseError as OldWarehouseError

    assert LoaderInputError is InputError is WarehouseInputError and OldWarehouseError is WarehouseError
    assert (old_parses, old_dependency_run, evalb_report) == (ingest_parses, ingest_dependency_run, new_evalb_report)
    assert callable(tree_metrics)
    with evalhouse.connect(":memory:") as wh:
        assert isinstance(wh, Warehouse)
        for method in (
            "ingest_treebank",
            "ingest_outputs",
            "ingest_judgements",
            "sql",
            "views",
            "columns",
            "export_view",
            "export_conllu",
        ):
            assert callable(getattr(wh, method))


def test_importing_evalhouse_loads_no_heavy_library():
    code = (
        "import sys, evalhouse; "
        "print(sorted(m for m in ('duckdb', 'pandas', 'numpy', 'sqlglot', 'scipy', 'pyarrow') if m in sys.modules))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "[]"


def test_the_command_line_offers_the_library_s_choices():
    """The CLI spells its option choices out (so that --help needs no library module): they must stay the
    library's."""
    from evalhouse.analysis import mining
    from evalhouse.analysis.baselines import KINDS
    from evalhouse.cli import evaluate, export, ingest
    from evalhouse.export import dataset, relation, transpile
    from evalhouse.loaders.outputs import FORMATS

    for choice, values in (
        (ingest.OutputFormat, FORMATS),
        (ingest.BaselineKind, KINDS),
        (export.ExportFormat, relation.FORMATS),
        (export.PartitionBy, dataset.PARTITION_COLUMNS),
        (export.DatasetFormat, dataset.FORMATS),
        (export.Dialect, transpile.DIALECTS),
        (evaluate.Score, mining.SCORES),
        (evaluate.Representatives, mining.REPRESENTATIVES),
        (evaluate.Suspicious, mining.SUSPICIOUS),
    ):
        assert [c.value for c in choice] == list(values)


def test_licence_and_citation_files():
    """LICENSE is the MIT licence pyproject declares; CITATION.cff cites the tool and the four papers of
    ../shared/seeds (a light reader: no YAML library is a dependency)."""
    import re

    from tests.conftest import REPO

    licence = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Copyright (c) 2026 the evalhouse authors" in licence
    assert 'license = { text = "MIT" }' in (REPO / "pyproject.toml").read_text(encoding="utf-8")
    cff = (REPO / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M) and re.search(r"^license: MIT$", cff, re.M)
    from evalhouse.version import __version__

    assert re.search(rf"^version: {re.escape(__version__)}$", cff, re.M)
    titles = re.findall(r'^  - type: \S+\n    title: "(.*)"$', cff, re.M)
    assert titles == [
        "An Error Analysis Framework for Shallow Surface Realization",
        "A test of the leaf-ancestor metric for parse accuracy",
        "Evaluation Metrics for Generation",
        "Automatic Reference-Based Evaluation of Pronoun Translation Misses the Point",
    ]
    assert "doi: 10.1162/tacl_a_00376" in cff
    assert "\t" not in cff


# "seed 002" names a file of ../shared/seeds, which a clone does not have; "issue 17" and "#18" name a tracker
# a reader may not see: the papers are cited by author and year, and a comment says what it says without them
SEED = re.compile(r"\bseeds? ?0\d\d", re.IGNORECASE)
ISSUE = re.compile(r"\bissues? #?\d+|(?<![\w&#])#\d{1,2}\b", re.IGNORECASE)  # not a colour (#555) nor PR #25931


def _texts(directories):
    for directory in directories:
        for path in sorted(directory.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".so", ".pyc"):
                try:
                    yield path, path.read_text(encoding="utf-8")
                except UnicodeDecodeError:  # a binary file: nothing a reader reads
                    continue


def test_no_seed_numbers_or_issue_numbers_in_the_package_sql_or_schema():
    folders = sorted(set(package_dirs().values()) | {REPO / "sql", REPO / "schema"})
    found = [
        f"{path.relative_to(REPO)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
        for path, text in _texts(folders)
        for pattern in (SEED, ISSUE)
        for m in pattern.finditer(text)
    ]
    assert found == []


def test_the_docs_cite_papers_by_author_and_year():
    pages = [p for p in sorted((REPO / "docs").glob("*.md")) if p.name != "README.md"]
    found = [f"{p.name}: {m.group(0)}" for p in pages for m in SEED.finditer(p.read_text(encoding="utf-8"))]
    assert pages and found == []


def test_the_patterns_find_what_they_are_for():
    assert SEED.search("as seed 003 defines") and SEED.search("Seeds 000/001") and not SEED.search("--seed 1")
    assert ISSUE.search("(issue 17)") and ISSUE.search("see #18.") and ISSUE.search("Issues 5 and 35")
    assert not ISSUE.search("color:#555") and not ISSUE.search("duckdb PR #25931") and not ISSUE.search("&#39;")


def test_loaders_only_read_files():
    """`loaders/` reads and checks files and returns rows; `evalhouse/ingest/` writes them: no loader imports
    duckdb or runs a statement (ast, so that a docstring naming them does not count)."""
    offenders = []
    for path in sorted((REPO / "loaders").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "duckdb" for a in node.names):
                offenders.append(f"{path.name}:{node.lineno}: import duckdb")
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "duckdb":
                offenders.append(f"{path.name}:{node.lineno}: from duckdb import")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("execute", "executemany", "sql")
            ):
                offenders.append(f"{path.name}:{node.lineno}: .{node.func.attr}(...)")
    assert offenders == []
