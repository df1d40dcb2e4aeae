"""The rows of BENCHMARKS.md's current table, as the benchmark modules measure them.

Each module calls :func:`record` once a row is measured (medians of whole processes); ``python -m
benchmarks`` runs each module as a process of its own (so that no module's imports weigh on another's
peak memory figures), with ``BENCHMARK_ROWS`` naming a file where :func:`record` appends the row as one
JSON line, and prints :func:`markdown` of what they recorded. A row carries its
peer, both CPU and wall time, what it assumes (gold stored or not, warm or cold cache, distinct inputs),
the command that measures it, the 1-minute load average when it ended and the date; the machine is
printed once above the table.
"""

from __future__ import annotations

import datetime
import json
import os
import platform

ROWS: list[dict] = []


def record(
    row: str,
    command: str,
    assumes: str,
    evalhouse: dict,
    peer: str = "",
    peer_result: dict | None = None,
    note: str = "",
) -> dict:
    """Add one measured row. ``evalhouse`` and ``peer_result`` hold the medians ``cpu`` and ``wall`` (seconds)."""
    entry = {
        "row": row,
        "command": command,
        "assumes": assumes,
        "cpu": evalhouse["cpu"],
        "wall": evalhouse["wall"],
        "peer": peer,
        "peer_cpu": peer_result["cpu"] if peer_result else None,
        "peer_wall": peer_result["wall"] if peer_result else None,
        "note": note,
        "load": os.getloadavg()[0],
        "date": f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
    }
    ROWS.append(entry)
    if os.environ.get("BENCHMARK_ROWS"):
        with open(os.environ["BENCHMARK_ROWS"], "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
    return entry


def machine() -> str:
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def _ratio(mine: float, peer: float | None) -> str:
    return "–" if not peer else f"{mine / peer:.2f}×"


def markdown(rows: list[dict]) -> str:
    """The table: ratio = evalhouse ÷ peer (below 1: evalhouse faster), CPU (user + system, children
    included) then wall."""
    lines = [
        (
            "| row | assumes | evalhouse CPU / wall s | peer | peer CPU / wall s | ratio CPU / wall | note "
            "| command | load (1 min) | date |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        peer = f"{r['peer_cpu']:.3f} / {r['peer_wall']:.3f}" if r["peer_cpu"] is not None else "–"
        ratio = (
            f"{_ratio(r['cpu'], r['peer_cpu'])} / {_ratio(r['wall'], r['peer_wall'])}"
            if r["peer_cpu"] is not None
            else "–"
        )
        lines.append(
            f"| {r['row']} | {r['assumes']} | {r['cpu']:.3f} / {r['wall']:.3f} | {r['peer'] or '–'} "
            f"| {peer} | {ratio} | {r['note']} | `{r['command']}` | {r['load']:.2f} | {r['date']} |"
        )
    return "\n".join(lines)
