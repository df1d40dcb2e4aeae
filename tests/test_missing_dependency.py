"""A missing dependency or a broken install says which module is missing and how to install it, not
"cannot import name": each case runs in a fresh interpreter where the dependency is made unimportable
(``sys.modules[name] = None``, what Python does for a module that is not there)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from evalhouse.lazy import MissingDependencyError, lazy_module
from tests.conftest import REPO

INSTALL = "python -m pip install -e ."


def run_without(module: str, code: str) -> subprocess.CompletedProcess:
    program = f"import sys\nsys.modules[{module!r}] = None\n" + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", program], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_importing_a_name_from_the_warehouse_without_duckdb_names_duckdb_and_the_install_command():
    result = run_without(
        "duckdb",
        """
        import evalhouse
        for attempt in range(2):  # the first use and any later one say the same
            try:
                from evalhouse.warehouse import schema_files
            except ImportError as error:
                print(type(error).__name__, error.name, "|", error)
        """,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        assert line.startswith("MissingDependencyError duckdb |")
        assert "module 'duckdb' is missing" in line and "evalhouse.warehouse" in line
        assert INSTALL in line and "pip install evalhouse" in line
        assert "cannot import name" not in line


def test_connect_without_duckdb_names_duckdb():
    result = run_without(
        "duckdb",
        """
        import evalhouse
        evalhouse.connect(":memory:")
        """,
    )
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("evalhouse.lazy.MissingDependencyError:") and "'duckdb'" in last and INSTALL in last


def test_the_command_without_duckdb_says_what_is_missing_in_one_line_with_exit_4():
    result = run_without(
        "duckdb",
        """
        sys.argv = ["evalhouse", "sql", "select 42"]
        from evalhouse.cli import main
        main()
        """,
    )
    assert result.returncode == 4
    assert result.stderr.count("\n") == 1, result.stderr  # one line, no traceback
    assert result.stderr.startswith("evalhouse: ") and "'duckdb'" in result.stderr and INSTALL in result.stderr


@pytest.mark.slow
def test_a_command_whose_library_imports_a_missing_dependency_directly_names_it():
    # analysis/bleu.py imports numpy at its top, not through a lazy module: the command's error handler says it
    result = run_without(
        "numpy",
        """
        import importlib
        import typer
        from evalhouse.cli.common import execute
        try:
            execute(lambda: importlib.import_module("evalhouse.analysis.bleu"))
        except typer.Exit as exit:
            sys.exit(exit.exit_code)
        """,
    )
    assert result.returncode == 4
    assert result.stderr.count("\n") == 1, result.stderr
    assert "module 'numpy' is missing" in result.stderr and INSTALL in result.stderr


def test_a_module_missing_from_the_install_is_named():
    with pytest.raises(MissingDependencyError, match=r"'evalhouse\.no_such_module' is missing.*pip install -e \."):
        lazy_module("evalhouse.no_such_module")
