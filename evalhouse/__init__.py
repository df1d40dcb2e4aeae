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

from evalhouse.lazy import lazy_module
from evalhouse.version import __version__

warehouse = lazy_module("evalhouse.warehouse")  # executed by the first connect(): `import evalhouse` stays fast


def connect(path=None, read_only=False, memory_limit=None, verify=True, functions=True, sandbox=False):
    """Open a warehouse; see :func:`evalhouse.warehouse.connect`."""
    return warehouse.connect(path, read_only=read_only, memory_limit=memory_limit, verify=verify,
                             functions=functions, sandbox=sandbox)


__all__ = ["__version__", "connect"]
