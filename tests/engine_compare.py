"""Comparing an engine's rows with DuckDB's (the reference), for the engine tests.

Rows are compared as multisets, columns matched by name. Floating-point values (DOUBLE, DECIMAL) are
equal when ``math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)``: engines sum in different orders and
PostgreSQL computes some aggregates in NUMERIC, so the last bits may differ; 1e-9 is far below any
digit a report prints. Everything else (integers, strings, booleans, NULLs, lists) must be equal.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal

REL_TOL, ABS_TOL = 1e-9, 1e-12


def norm(v):
    if isinstance(v, Decimal):
        return float(v)
    if isinstance(v, (list, tuple)):
        return tuple(norm(x) for x in v)
    if isinstance(v, dt.datetime) and v.tzinfo is not None:
        return v.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return v


def _key(v):
    if v is None:
        return (0, "")
    if isinstance(v, bool):
        return (1, str(v))
    if isinstance(v, (int, float)):
        return (2, f"{round(float(v), 6):.6f}" if math.isfinite(float(v)) else str(v))
    return (3, repr(v))


def rows_by_name(columns, rows, order):
    idx = [list(columns).index(c) for c in order]
    out = [tuple(norm(r[i]) for i in idx) for r in rows]
    return sorted(out, key=lambda r: tuple(_key(v) for v in r))


def same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool):
            return a == b
        return math.isclose(float(a), float(b), rel_tol=REL_TOL, abs_tol=ABS_TOL)
    return a == b


def differences(name, ref_cols, ref_rows, cols, rows, limit=3) -> list[str]:
    """Empty when the engine's rows equal DuckDB's; otherwise a few readable differences."""
    if sorted(ref_cols) != sorted(cols):
        return [f"{name}: columns differ: duckdb {list(ref_cols)} vs {list(cols)}"]
    a, b = rows_by_name(ref_cols, ref_rows, ref_cols), rows_by_name(cols, rows, ref_cols)
    if len(a) != len(b):
        return [f"{name}: {len(a)} rows in duckdb, {len(b)} on the engine"]
    out = []
    for ra, rb in zip(a, b):
        if not same(ra, rb):
            out.append(f"{name}: duckdb {ra} vs engine {rb}")
            if len(out) >= limit:
                break
    return out
