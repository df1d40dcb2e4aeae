"""Modules loaded when first used: how ``import evalhouse`` and ``evalhouse --help`` stay fast.

Every module of the library imports what it needs at its top, so the dependency graph is in plain
sight; the algorithms in ``analysis/`` import numpy there, the warehouse duckdb. The two entry points
declare the library modules they hand over to with :func:`lazy_module`, also at their top:
``evalhouse`` itself (for :func:`evalhouse.connect`) and the command modules of :mod:`evalhouse.cli`.
Such a module is executed on first attribute access, so ``python -c "import evalhouse"`` and
``evalhouse --help`` import neither numpy nor duckdb (``tests/test_cli.py`` checks it).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module ``name``; unless it is already imported, it is executed when first used."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
