"""The manifest of a dataset written by ``evalhouse export-dataset``, and how other engines read the dataset.

    $ evalhouse export-sql --dialect spark --out evalhouse-spark.sql --dataset dataset/

``DIR/manifest.json`` records the evalhouse version, the format, the partitioning and, per relation, its
kind, description, row count and columns. :func:`attach_dataset` maps a Parquet dataset's base tables
as DuckDB views (how a DuckDB-backed BI tool reads it); :mod:`evalhouse.export.transpile` reads the
same manifest to write views over the dataset for DuckDB and Spark. Written by
:mod:`evalhouse.export.dataset`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from sqlglot import exp

from evalhouse.errors import WarehouseError

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    import duckdb

MANIFEST = "manifest.json"


def read_manifest(dataset_dir: str | os.PathLike, format: str = "parquet") -> dict:
    """The dataset's manifest; refused unless the dataset is in ``format``."""
    path = Path(dataset_dir) / MANIFEST
    if not path.exists():
        raise WarehouseError(f"{dataset_dir}: not an evalhouse dataset (no {MANIFEST})")
    manifest = json.loads(path.read_text(encoding="utf-8"))
    if manifest.get("format") != format:
        raise WarehouseError(f"{dataset_dir}: a {manifest.get('format')} dataset, not a {format} one")
    return manifest


def parquet_glob(dataset_dir: str | os.PathLike, name: str) -> str:
    """Glob of a relation's Parquet files (partitioned or not)."""
    return str(Path(dataset_dir).resolve() / name / "**" / "*.parquet")


def full_partition_value(entry: dict, column: str) -> str:
    """DuckDB SQL for ``column`` of a relation read from the dataset: the column itself, or, for the partition
    column of a relation with shortened partition names (``shortened_partitions`` of its manifest entry),
    the full value in place of each shortened one."""
    ident = exp.to_identifier(column, quoted=True).sql("duckdb")
    mapping = entry.get("shortened_partitions") or {}
    if column != entry.get("partition_by") or not mapping:
        return ident
    whens = " ".join(
        f"WHEN {exp.Literal.string(short).sql('duckdb')} THEN {exp.Literal.string(full).sql('duckdb')}"
        for short, full in sorted(mapping.items())
    )
    return f"CASE {ident} {whens} ELSE {ident} END"


def attach_dataset(
    con: duckdb.DuckDBPyConnection, dataset_dir: str | os.PathLike, schema: str | None = None
) -> list[str]:
    """Create DuckDB views over a dataset's base tables (columns in the manifest's order and types) on
    connection ``con``; returns their names. This is how a DuckDB-backed BI tool can read the dataset."""
    manifest = read_manifest(dataset_dir)
    names = []
    for name, entry in manifest["relations"].items():
        if entry["kind"] != "table":
            continue
        cols = ", ".join(
            f"CAST({full_partition_value(entry, c['name'])} AS {c['type']}) "
            f"AS {exp.to_identifier(c['name'], quoted=True).sql('duckdb')}"
            for c in entry["columns"]
        )
        src = exp.Literal.string(parquet_glob(dataset_dir, name)).sql("duckdb")
        hive = "true" if entry["partition_by"] else "false"
        target = exp.to_identifier(name, quoted=True).sql("duckdb")
        if schema:
            target = f"{exp.to_identifier(schema, quoted=True).sql('duckdb')}.{target}"
        con.execute(
            f"CREATE OR REPLACE VIEW {target} AS SELECT {cols} FROM read_parquet({src}, "
            f"hive_partitioning = {hive}, hive_types_autocast = false)"
        )
        names.append(name)
    return names
