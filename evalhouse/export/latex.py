"""LaTeX tables for papers (booktabs): the one formatter behind ``evalhouse export --format latex`` and the
report's "LaTeX" toggles.

    $ evalhouse export dea_by_relation --out dea.tex --corpus en_ewt-test
    $ evalhouse export --query "select team, run, dea, mean_bleu from submission_scores" --out board.tex

    % evalhouse 0.1.0: needs \\usepackage{booktabs}
    \\begin{table}
    \\centering
    \\caption{submission\\_scores. Configuration: evalhouse:0.1.0\\textbar{}\\allowbreak{}...}
    \\label{tab:submission-scores}
    \\begin{tabular}{llrr}
    \\toprule
    team & run & dea & mean\\_bleu \\\\
    \\midrule
    adapt & augmented\\_and\\_ewt\\_test\\_set\\_13-Oct\\_12-07 & 0.931 & 0.863 \\\\
    \\bottomrule
    \\end{tabular}
    \\end{table}

Choices (README.md, "LaTeX tables"):

- Rules are booktabs' only (``\\toprule``, ``\\midrule``, ``\\bottomrule``), no vertical rules.
- A column whose values are all numbers (booleans are not) is right-aligned (``r``), every other ``l``.
  Floats get a fixed number of decimals per column (``digits``; 3 by default), so right alignment also
  aligns the decimal points; a float under 10^-digits is written in scientific notation
  (``$1.20\\times10^{-5}$``), as the report writes it; a negative number gets a true minus
  (``$-$``); integers have thousands separators; a missing value is an empty cell.
- Text is escaped: the ten LaTeX specials (``\\ & % $ # _ { } ~ ^``) and ``< > |`` (wrong glyphs in the
  OT1 font encoding), and the few non-ASCII signs evalhouse writes itself (ρ, ±, ≤, ...) become commands;
  other non-ASCII text is kept (pdflatex reads UTF-8; letters outside Latin need XeLaTeX or LuaLaTeX).
- Configuration columns (``configuration``, ``config``, ``signature``, ``*_signature``, ...) are not
  columns of the table: one configuration goes into the caption; several are numbered in a ``cfg``
  column and listed in the caption. A stored number thus still carries its configuration on paper. Past
  :data:`CAPTION_NOTE` characters they are set in small type under the table instead, and the caption
  says so (LaTeX cannot measure a caption that long).
- More than :data:`LONG` rows: a ``longtable`` (needs ``\\usepackage{longtable}``), which breaks across
  pages and repeats its header; more than :data:`WIDE` columns: ``\\small`` with narrower column gaps.
- Width: :func:`width` estimates a table's width in pt from its longest cell per column (a generous
  average glyph width, so that the estimate errs wide). A table wider than :data:`TEXT_WIDTH` (the text
  width of LaTeX's article class) says so in a ``%`` comment above it; :func:`fitted` splits it instead
  into tables of consecutive columns that fit, each repeating the leading key columns (team, run, ...),
  labelled ``LABEL``, ``LABEL-2``, ... (``export --format latex --fit``, and the report's toggles). No
  ``\\resizebox``: it would shrink the type below legibility.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Sequence

LONG = 40  # rows: more than this and the table is a longtable that breaks across pages
WIDE = 8  # columns: more than this and the table is set \small with 4pt column gaps
# characters: a longer note (the configurations) goes under the table, not into the caption, which LaTeX sets
# in one box first to measure it: three configurations of ~1,000 characters overflow that box (TeX's
# "Dimension too large" beyond 16,384 pt)
CAPTION_NOTE = 1500
TEXT_WIDTH = 345.0  # pt: \textwidth of the article class at 10 pt, on A4 and Letter alike
# pt per character of a cell (Computer Modern at 10 pt: digits are 5 pt, lower case about 4.5 to 5.5, capitals
# up to 7.5; 5.6 errs wide on the names and titles evalhouse writes) and at \small (9 pt)
GLYPH, GLYPH_SMALL = 5.6, 5.0

SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # signs evalhouse writes in its own titles and notes
    "ρ": r"$\rho$",
    "χ": r"$\chi$",
    "±": r"$\pm$",
    "×": r"$\times$",
    "≤": r"$\leq$",
    "≥": r"$\geq$",
    "−": r"$-$",
    "–": "--",
    "—": "---",
    "…": r"\dots{}",
    "·": r"$\cdot$",
    "§": r"\S{}",
    "\u00a0": "~",
    "\n": " ",
    "\r": " ",
    "\t": " ",
}
_SPECIAL = re.compile("|".join(re.escape(c) for c in SPECIALS))
CONFIGURATION = re.compile(r"^(configuration|config|signature|[a-z_]*_(configuration|config|signature))$")


def escape(text) -> str:
    """``text`` as LaTeX text: every special character replaced by the command that prints it."""
    return _SPECIAL.sub(lambda m: SPECIALS[m.group(0)], "" if text is None else str(text))


def breakable(text) -> str:
    """Escaped ``text`` that may break after ``|``, ``,`` and ``;`` (a configuration string has no space)."""
    return re.sub(r"(\\textbar\{\}|,|;)", r"\1\\allowbreak{}", escape(text))


def _is_number(v) -> bool:
    return (
        isinstance(v, (int, float, Decimal))
        and not isinstance(v, bool)
        or (type(v).__module__ == "numpy" and hasattr(v, "dtype") and v.dtype.kind in "iuf")
    )


def _missing(v) -> bool:
    if v is None:
        return True
    try:
        return bool(v != v)  # NaN, pandas' NA and NaT compare unequal to themselves (NA raises)
    except TypeError:
        return True


def number(v, digits: int = 3) -> str:
    """A number as a LaTeX cell: integers with thousands separators, floats with ``digits`` decimals (one under
    10^-digits in scientific notation), a true minus sign."""
    if isinstance(v, (float, Decimal)) or (hasattr(v, "dtype") and v.dtype.kind == "f"):
        v = float(v)
        if math.isinf(v):
            return r"$\infty$" if v > 0 else r"$-\infty$"
        if v != 0 and abs(v) < 10**-digits:  # as the report's pages write it
            mantissa, exponent = f"{v:.{max(digits - 1, 1)}e}".split("e")
            return f"${mantissa}\\times10^{{{int(exponent)}}}$"
        text = f"{v:.{digits}f}"
        if float(text) == 0:
            text = text.lstrip("-")  # -0.000 is 0.000
    else:
        text = f"{int(v):,}"
    return "$-$" + text[1:] if text.startswith("-") else text


def cell(v, digits: int = 3) -> str:
    if _missing(v):
        return ""
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return "yes" if v else "no"
    if _is_number(v):
        return number(v, digits)
    if isinstance(v, (list, tuple)):
        return escape(", ".join(str(x) for x in v))
    return escape(v)


@dataclass(frozen=True)
class Column:
    """A column of a LaTeX table: its title (plain text, escaped here) and the decimals of its floats."""

    title: str
    digits: int = 3


def label_of(name: str) -> str:
    """A ``\\label`` key for ``name``: ``tab:`` and the name's letters, digits and dashes."""
    return "tab:" + (re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "table")


def table(
    columns: Sequence[Column], rows: Iterable[Sequence], caption: str, label: str | None = None, note: str = ""
) -> str:
    """A booktabs table of ``rows`` (sequences of values in the order of ``columns``) with ``caption``
    (plain text, escaped here) and ``note`` (already LaTeX, e.g. configurations): appended to the caption
    when it is short, else set in small type under the table (see :data:`CAPTION_NOTE`)."""
    rows = [list(r) for r in rows]
    numeric = [
        all(_is_number(r[i]) for r in rows if not _missing(r[i])) and any(not _missing(r[i]) for r in rows)
        for i in range(len(columns))
    ]
    spec = "".join("r" if n else "l" for n in numeric)
    head = " & ".join(escape(c.title) for c in columns) + r" \\"
    body = [" & ".join(cell(v, c.digits) for v, c in zip(r, columns)) + r" \\" for r in rows]
    caption_tex = escape(caption)
    below = []
    if note:
        caption_tex += "" if caption.rstrip().endswith((".", ":", ";", "!", "?")) else "."
        if len(note) <= CAPTION_NOTE:
            caption_tex += " " + note
        else:
            caption_tex += " The configuration is under the table."
            below = [r"\par\smallskip{\footnotesize\raggedright " + note + r"\par}"]
    label_tex = f"\\label{{{label}}}" if label else ""
    wide = len(columns) > WIDE
    out = ["% evalhouse: needs \\usepackage{booktabs}" + ("" if len(rows) <= LONG else " and \\usepackage{longtable}")]
    estimate = width(columns, rows)
    if estimate > TEXT_WIDTH:
        out.append(
            f"% evalhouse: about {estimate:.0f} pt wide, wider than an article's {TEXT_WIDTH:.0f} pt text width: "
            "choose fewer columns, or split it (evalhouse export --format latex --fit)"
        )
    if len(rows) <= LONG:
        out += ["\\begin{table}", "\\centering"]
        if wide:
            out += ["\\small", "\\setlength{\\tabcolsep}{4pt}"]
        out += [f"\\caption{{{caption_tex}}}"] + ([label_tex] if label_tex else [])
        out += [
            f"\\begin{{tabular}}{{{spec}}}",
            "\\toprule",
            head,
            "\\midrule",
            *body,
            "\\bottomrule",
            "\\end{tabular}",
            *below,
            "\\end{table}",
        ]
    else:
        out += ["\\begingroup"] + (["\\small", "\\setlength{\\tabcolsep}{4pt}"] if wide else [])
        out += [
            f"\\begin{{longtable}}{{{spec}}}",
            f"\\caption{{{caption_tex}}}{label_tex} \\\\",
            "\\toprule",
            head,
            "\\midrule",
            "\\endfirsthead",
            "\\toprule",
            head,
            "\\midrule",
            "\\endhead",
            "\\midrule",
            f"\\multicolumn{{{len(columns)}}}{{r}}{{\\emph{{continued on the next page}}}} \\\\",
            "\\endfoot",
            "\\bottomrule",
            "\\endlastfoot",
            *body,
            "\\end{longtable}",
            *below,
            "\\endgroup",
        ]
    return "\n".join(out) + "\n"


def _shown(v, c: Column) -> str:
    """The characters a cell prints (its LaTeX with the commands of single glyphs counted as one)."""
    text = cell(v, c.digits) if not isinstance(v, str) else v
    text = re.sub(r"\\times10\^\{(-?\d+)\}", r"e\1", text)
    return re.sub(r"\\[a-zA-Z]+\{\}|\\.|\$", lambda m: "" if m.group(0) == "$" else "x", text)


def column_widths(columns: Sequence[Column], rows: Sequence[Sequence]) -> list[float]:
    """Estimated width in pt of each column, its gaps included, as :func:`table` sets it."""
    small = len(columns) > WIDE
    glyph, gap = (GLYPH_SMALL, 8.0) if small else (GLYPH, 12.0)
    return [
        gap + glyph * max([len(c.title)] + [len(_shown(r[i], c)) for r in rows if not _missing(r[i])])
        for i, c in enumerate(columns)
    ]


def width(columns: Sequence[Column], rows: Sequence[Sequence]) -> float:
    """The estimated width in pt of the table :func:`table` writes (see :data:`GLYPH`)."""
    return sum(column_widths(columns, rows))


def fitted(
    columns: Sequence[Column],
    rows: Iterable[Sequence],
    caption: str,
    label: str | None = None,
    note: str = "",
    keys: int = 0,
    limit: float = TEXT_WIDTH,
) -> str:
    """:func:`table`, split into tables of consecutive columns no wider than ``limit`` pt, each repeating the
    first ``keys`` columns; one table when it fits. A column too wide even alone with the keys gets a table of
    its own (and the comment that it is too wide). The first part carries ``note`` (the configurations), the
    others refer to it."""
    rows = [list(r) for r in rows]
    if width(columns, rows) <= limit or len(columns) <= keys + 1:
        return table(columns, rows, caption, label, note)
    parts: list[list[int]] = []
    for i in range(keys, len(columns)):
        if parts:
            trial = list(range(keys)) + parts[-1] + [i]
            if width([columns[j] for j in trial], [[r[j] for j in trial] for r in rows]) <= limit:
                parts[-1].append(i)
                continue
        parts.append([i])
    out = []
    for k, part in enumerate(parts, 1):
        chosen = list(range(keys)) + part
        first = k == 1
        part_label = label if first or not label else f"{label}-{k}"
        titles = ", ".join(columns[j].title for j in part)
        stop = "" if caption.rstrip().endswith((".", ":", ";", "!", "?")) else "."
        part_caption = f"{caption.rstrip()}{stop} Part {k} of {len(parts)}: {titles}."
        part_note = note if first else (f"Configuration as in Table~\\ref{{{label}}}." if note and label else note)
        out.append(
            table(
                [columns[j] for j in chosen],
                [[r[j] for j in chosen] for r in rows],
                part_caption,
                part_label,
                part_note,
            )
        )
    return "\n".join(out)


def relation_table(
    names: Sequence[str],
    rows: Iterable[Sequence],
    caption: str,
    label: str | None = None,
    titles: dict[str, str] | None = None,
    digits: dict[str, int] | int = 3,
    fit: bool = False,
) -> str:
    """A table of a relation's rows (``names``: its columns) with the configuration columns moved to the
    caption (see the module docstring). ``titles`` renames columns; ``digits`` is one number for every
    column or a mapping (default 3). ``fit``: split into tables that fit :data:`TEXT_WIDTH`
    (:func:`fitted`), each repeating the leading text columns (team, run, corpus, ...)."""
    rows = [list(r) for r in rows]
    keep = [i for i, n in enumerate(names) if not CONFIGURATION.match(n)]
    moved = [i for i, n in enumerate(names) if CONFIGURATION.match(n)]
    configurations = []  # distinct tuples of the configuration columns, in order of appearance
    numbered = []
    for r in rows:
        key = tuple(r[i] for i in moved)
        if moved and not all(_missing(v) for v in key):
            if key not in configurations:
                configurations.append(key)
            numbered.append(configurations.index(key) + 1)
        else:
            numbered.append(None)
    titles = titles or {}
    columns = [
        Column(titles.get(names[i], names[i]), digits if isinstance(digits, int) else digits.get(names[i], 3))
        for i in keep
    ]
    body = [[r[i] for i in keep] for r in rows]
    note = ""
    if configurations:

        def describe(key):  # a column's name only when there are several
            return "; ".join(
                (f"{escape(names[i])}: " if len(moved) > 1 else "") + breakable(v)
                for i, v in zip(moved, key)
                if not _missing(v)
            )

        if len(configurations) == 1:
            note = "Configuration: " + describe(configurations[0]) + "."
        else:
            columns.append(Column("cfg"))
            body = [b + [n] for b, n in zip(body, numbered)]
            note = "Configurations (column cfg): " + " ".join(
                f"({k}) {describe(key)}." for k, key in enumerate(configurations, 1)
            )
    if fit:
        return fitted(columns, body, caption, label, note, keys=leading_text(body, len(columns)))
    return table(columns, body, caption, label, note)


def leading_text(rows: Sequence[Sequence], n: int) -> int:
    """How many of the first columns hold text (the keys a split table repeats: team, run, corpus, ...)."""
    keys = 0
    while keys < n - 1 and any(isinstance(r[keys], str) for r in rows):
        keys += 1
    return keys
