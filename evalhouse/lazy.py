"""Modules loaded when first used: how ``import evalhouse`` and ``evalhouse --help`` stay fast.

Every module of the library imports what it needs at its top, so the dependency graph is in plain
sight; the algorithms in ``analysis/`` import numpy there, the warehouse duckdb. The two entry points
declare the library modules they hand over to with :func:`lazy_module`, also at their top:
``evalhouse`` itself (for :func:`evalhouse.connect`) and the command modules of :mod:`evalhouse.cli`.
Such a module is executed on first attribute access, so ``python -c "import evalhouse"`` and
``evalhouse --help`` import neither numpy nor duckdb (``tests/test_cli.py`` checks it).

A module that cannot be executed because a dependency is missing says so, naming the module and the
install command (:class:`MissingDependencyError`), on its first use and on every later one. Without this
care Python hides it: the first use is often the import machinery itself (``from evalhouse.warehouse import
schema_files`` reads the lazy module's ``__spec__``, and CPython discards an error raised there), and the
half-executed module would then answer "cannot import name 'schema_files'" (``tests/test_missing_dependency.py``).
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from types import ModuleType

INSTALL = 'python -m pip install -e . (in a clone of evalhouse; ".[test]" for the tests) or pip install evalhouse'


class MissingDependencyError(ModuleNotFoundError):
    """A module of evalhouse cannot be imported: a dependency is not installed, or the install is broken."""


def missing_dependency(error: ImportError, needed_by: str | None = None) -> MissingDependencyError:
    """``error`` (an ImportError) said again with the missing module's name and the command that installs it."""
    if isinstance(error, MissingDependencyError):
        return error
    missing = error.name or "?"
    by = f"{needed_by} cannot be imported: " if needed_by and needed_by != missing else ""
    failure = MissingDependencyError(
        f"{by}module {missing!r} is missing or broken ({error}); install evalhouse with its dependencies: {INSTALL}",
        name=missing,
    )
    failure.__cause__ = error
    return failure


class _Broken(ModuleType):
    """A lazy module whose execution failed: any name it lacks raises the failure again."""

    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)  # what copy, pickle and the import system probe for
        raise self.__dict__["_evalhouse_import_error"]


class _Reporting(importlib.abc.Loader):
    """The module's own loader, whose ImportError becomes a :class:`MissingDependencyError` that stays."""

    def __init__(self, loader):
        self.loader = loader

    def __getattr__(self, name: str):  # get_source, get_filename, ... for inspect and linecache
        return getattr(self.loader, name)

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        try:
            self.loader.exec_module(module)
        except ImportError as error:
            failure = missing_dependency(error, module.__name__)
            module.__dict__["_evalhouse_import_error"] = failure
            module.__class__ = _Broken
            raise failure from error


def lazy_module(name: str) -> ModuleType:
    """The module ``name``; unless it is already imported, it is executed when first used."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:  # a broken install: a subpackage left out of the wheel, say
        raise missing_dependency(ModuleNotFoundError(f"No module named {name!r}", name=name))
    loader = importlib.util.LazyLoader(_Reporting(spec.loader))
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
