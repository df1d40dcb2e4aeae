"""The report's "LaTeX" toggles: a table of the page as booktabs LaTeX, shown on demand under the table with a
Copy button, written by :mod:`evalhouse.export.latex` (the formatter of ``evalhouse export --format latex``).

    from evalhouse.reports import tex
    code = tex.frame_table(board, cols, "Leaderboard on en_ewt-test", "tab:leaderboard", configurations)
    html = tex.toggle(code)    # <details class="latex"><summary>LaTeX</summary>...</details>

``cols`` are the page's column descriptions (``key``, ``title``, ``digits``): the LaTeX table has the columns
and the decimals the page shows. :func:`pivot` turns a long table (one row per relation and system) into the
table a paper prints (one row per relation, one column per system).
"""

from __future__ import annotations

import html
from typing import Iterable, Sequence

import pandas as pd

from evalhouse.export import latex

LONG_NAME = 20  # system names longer than this become S1, S2, ... in a pivot's header, named in the caption


def frame_table(
    frame: pd.DataFrame, cols: Sequence, caption: str, label: str, configurations: Iterable[str] = ()
) -> str:
    """``frame``'s columns ``cols`` as LaTeX tables that fit an article's text width; ``configurations`` (the
    strings stored with the numbers) are listed in the caption.

    When some team/run is longer than :data:`LONG_NAME` characters, the ``team`` and ``run`` columns become one
    ``system`` column of S1, S2, ..., named in the caption (as a pivot's header). A table still wider than
    the page is split into tables of consecutive columns, each repeating the leading text columns
    (:func:`evalhouse.export.latex.fitted`; the leaderboard's 20 columns were 900 pt too wide as one)."""
    columns = [latex.Column(c.title, c.digits) for c in cols]
    rows = [[row.get(c.key) for c in cols] for row in frame.to_dict("records")]
    keys = [c.key for c in cols]
    if "team" in keys and "run" in keys and rows:
        t, r = keys.index("team"), keys.index("run")
        systems = list(dict.fromkeys((row[t], row[r]) for row in rows))
        names = [f"{team}/{run}" for team, run in systems]
        if any(len(n) > LONG_NAME for n in names):
            number = {s: f"S{k}" for k, s in enumerate(systems, 1)}
            rows = [[number[(row[t], row[r])] if i == t else v for i, v in enumerate(row) if i != r] for row in rows]
            columns = [latex.Column("system") if i == t else c for i, c in enumerate(columns) if i != r]
            caption = f"{caption.rstrip()} Systems: " + "; ".join(f"S{k}: {n}" for k, n in enumerate(names, 1)) + "."
    return latex.fitted(
        columns, rows, caption, label, _configurations(configurations), keys=latex.leading_text(rows, len(columns))
    )


def _configurations(configurations: Iterable[str]) -> str:
    found = sorted({c for c in configurations if isinstance(c, str) and c})
    if not found:
        return ""
    if len(found) == 1:
        return f"Configuration: {latex.breakable(found[0])}."
    return "Configurations: " + " ".join(f"({k}) {latex.breakable(c)}." for k, c in enumerate(found, 1))


def pivot(
    frame: pd.DataFrame,
    rows: Sequence,
    systems: Sequence[tuple[str, str]],
    value: str,
    title: str,
    digits: int,
    caption: str,
    label: str,
    configurations: Iterable[str] = (),
) -> str:
    """One row per distinct ``rows`` (the page's columns that name a row, e.g. relation and edges) and one
    column per system: ``systems`` are (key in ``frame["system"]``, name). Long names are numbered S1, S2, ...
    and named in the caption."""
    names = [name for _, name in systems]
    short = all(len(n) <= LONG_NAME for n in names)
    heads = names if short else [f"S{k}" for k in range(1, len(names) + 1)]
    keys = [c.key for c in rows]
    cells: dict[tuple, dict] = {}  # a row's key -> system -> value, rows in the frame's order (every row kept,
    for record in frame[keys + ["system", value]].itertuples(index=False):  # even one with no value at all)
        cells.setdefault(tuple(record[: len(keys)]), {})[record[-2]] = record[-1]
    body = [list(key) + [values.get(k) for k, _ in systems] for key, values in cells.items()]
    columns = [latex.Column(c.title, c.digits) for c in rows] + [latex.Column(h, digits) for h in heads]
    legend = "" if short else " " + "; ".join(f"S{k}: {n}" for k, n in enumerate(names, 1)) + "."
    caption = f"{caption} Columns: {title} of each system.{legend}"
    return latex.table(columns, body, caption, label, _configurations(configurations))


def toggle(code: str) -> str:
    """The HTML of a closed "LaTeX" toggle holding ``code`` (escaped), with a Copy button (report.js)."""
    return (
        f"<details class='latex'><summary>LaTeX</summary><button type='button' class='copy'>Copy</button>"
        f"<pre><code>{html.escape(code, quote=False)}</code></pre></details>"
    )
