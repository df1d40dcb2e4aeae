"""Ingest: one module per kind of input, each reading its files with :mod:`evalhouse.loaders` and
storing them in one transaction through :class:`evalhouse.warehouse.Warehouse` (``transaction()``,
``insert()``, ``make_room()``). What needs Python is computed here, once, and stored with its
configuration; the views in ``sql/`` do the rest in SQL.
"""
