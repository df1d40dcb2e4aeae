"""evalhouse: a DuckDB warehouse that says which linguistic constructions systems get wrong.

    import evalhouse

    with evalhouse.connect("warehouse.duckdb") as wh:
        wh.ingest_treebank(["en_ewt-ud-test.conllu"])
        wh.sql("select * from corpus_complexity").df()

The package follows the data: ``loaders/`` read files, :mod:`evalhouse.ingest` stores them through
:mod:`evalhouse.warehouse` into the tables of ``schema/``, the views of ``sql/`` compute the scores,
:mod:`evalhouse.statistics` and :mod:`evalhouse.reports` study them, :mod:`evalhouse.export` writes
them out, and :mod:`evalhouse.cli` is the ``evalhouse`` command over all of it (see the README's
Layout section).
"""

import os as _os
import sys as _sys

# numpy's OpenBLAS starts a thread per core at import, and after each call every thread spins about 2**28
# cycles (0.1 s on a 2-core machine) before it sleeps: CPU that every scorer paid (a whole-process
# sentence BLEU of 52k pairs took 0.36 s CPU for 0.26 s wall) though nothing on the scoring paths calls BLAS.
# Spinning 2**4 cycles leaves one thread busy at a time outside matrix products, and keeps the threads for
# those that use them (the bootstrap's, measured unchanged). Set before numpy is imported, only when the user
# has set neither this variable nor numpy (BENCHMARKS.md, "BLAS threads").
if "numpy" not in _sys.modules:
    _os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

from evalhouse.lazy import lazy_module
from evalhouse.version import __version__

warehouse = lazy_module("evalhouse.warehouse")  # executed by the first connect(): `import evalhouse` stays fast


def connect(path=None, read_only=False, memory_limit=None, verify=True, functions=True, sandbox=False):
    """Open a warehouse; see :func:`evalhouse.warehouse.connect`."""
    return warehouse.connect(
        path, read_only=read_only, memory_limit=memory_limit, verify=verify, functions=functions, sandbox=sandbox
    )


__all__ = ["__version__", "connect"]
