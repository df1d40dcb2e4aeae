"""evalhouse: a DuckDB warehouse that says which linguistic constructions systems get wrong."""

__version__ = "0.1.0"


def connect(path=None, read_only=False, memory_limit=None):
    """Open a warehouse; see :func:`evalhouse.warehouse.connect`."""
    from evalhouse.warehouse import connect as _connect

    return _connect(path, read_only=read_only, memory_limit=memory_limit)


__all__ = ["__version__", "connect"]
