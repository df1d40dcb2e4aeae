"""Text for people: tables for the terminal (``evalhouse sql --format table``, ``evalhouse apt``, the
``evalhouse demo`` report) and the Markdown data dictionary of ``evalhouse views --markdown``.

    $ evalhouse sql "select corpus, sentences from corpus_complexity"
    corpus       sentences
    -----------  ---------
    en_ewt-test  2077
    (1 row)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse


def render_table(columns: list[str], rows: list[tuple]) -> str:
    """Columns padded to their widest cell, a rule under the header, floats to 6 significant digits,
    NULL for missing values, and the row count."""

    def cell(v) -> str:
        if v is None:
            return "NULL"
        if isinstance(v, float):
            return f"{v:.6g}"
        return str(v)

    body = [[cell(v) for v in r] for r in rows]
    widths = [max([len(c)] + [len(r[i]) for r in body]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(), "  ".join("-" * w for w in widths)]
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip() for r in body]
    lines.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(lines)


def data_dictionary(wh: Warehouse) -> str:
    """Markdown: every view, then its columns with type and description (``evalhouse views --markdown``,
    committed as docs/data-dictionary.md)."""
    out = ["# evalhouse views", ""]
    for intermediate in (False, True):
        if intermediate:
            out += [
                "# Intermediate views",
                "",
                "Building blocks that the views above read: a user reads those instead.",
                "",
            ]
        for name, description in wh.views(intermediate=intermediate):
            out += [f"## `{name}`", "", description, "", "| column | type | description |", "|---|---|---|"]
            out += [f"| `{c}` | {t} | {d} |" for c, t, d in wh.columns(name)]
            out.append("")
    return "\n".join(out)
