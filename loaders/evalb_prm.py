"""EVALB parameter files (``.prm``) and leaf-ancestor label-cost tables.

    $ evalhouse evalb gold.mrg test.mrg --prm ../shared/data/constituency/evalb/COLLINS.prm
    $ evalhouse ingest parses test.mrg --corpus wsj --team t --run r --cost costs.tsv

A .prm file holds one ``KEY value`` per line; a line starting with ``#`` is a comment (as in C EVALB,
only there: ``DELETE_LABEL #`` deletes the Penn Treebank's ``#`` tag).  Known keys: DEBUG (0 only: EVALB's
debugging display is not reproduced), MAX_ERROR, CUTOFF_LEN, LABELED, DELETE_LABEL,
DELETE_LABEL_FOR_LENGTH, EQ_LABEL (two labels), EQ_WORD (two words), QUOTE_LABEL.  Anything else is an
error naming the file and line, and listing the valid keys (C EVALB warns and goes on).  Without the
key, MAX_ERROR is C EVALB's default, 10.

A cost table is tab- or space-separated ``GOLD_LABEL CANDIDATE_LABEL COST`` lines (``#`` comments),
COST a number in [0, 2]; it is directional (list both orders for a symmetric table).
"""

from __future__ import annotations

import os

from evalhouse.analysis.leaf_ancestor import LabelCost, cost_table
from evalhouse.analysis.parse_eval import DEFAULT_MAX_ERROR, EvalbParams
from evalhouse.errors import InputError
from evalhouse.loaders.numbers import decimal, integer, shown
from evalhouse.loaders.source import open_source

PRM_KEYS = (
    "DEBUG",
    "MAX_ERROR",
    "CUTOFF_LEN",
    "LABELED",
    "DELETE_LABEL",
    "DELETE_LABEL_FOR_LENGTH",
    "EQ_LABEL",
    "EQ_WORD",
    "QUOTE_LABEL",
)


def _lines(path: str | os.PathLike, kind: str, comments_anywhere: bool):
    with open_source(path, kind=kind) as src, open(src.path, encoding="utf-8") as handle:
        for lineno, raw in enumerate(handle, start=1):
            text = raw.split("#", 1)[0] if comments_anywhere or raw.startswith("#") else raw
            text = text.strip()
            if text:
                yield lineno, text.split()


def read_prm(path: str | os.PathLike) -> EvalbParams:
    """Read an EVALB parameter file into :class:`EvalbParams` (strictly: unknown keys are errors)."""
    name = os.fspath(path)
    delete, delete_len, eq_labels, eq_words, quote = set(), set(), [], [], []
    cutoff, labeled, max_error = 40, True, DEFAULT_MAX_ERROR
    for lineno, parts in _lines(path, "EVALB parameter", comments_anywhere=False):
        key, args = parts[0], parts[1:]
        if key not in PRM_KEYS:
            raise InputError(name, lineno, f"unknown EVALB parameter '{key}' (valid: {', '.join(PRM_KEYS)})")
        want = 2 if key in ("EQ_LABEL", "EQ_WORD") else 1
        if len(args) != want:
            raise InputError(name, lineno, f"{key} takes {want} value{'s' if want > 1 else ''}, found {len(args)}")
        if key in ("DEBUG", "MAX_ERROR", "CUTOFF_LEN", "LABELED"):
            value = integer(args[0], signed=True)  # ASCII digits only (loaders/numbers.py)
            if value is None:
                raise InputError(name, lineno, f"{key} needs an integer, found {shown(args[0])}")
            if key == "CUTOFF_LEN":
                cutoff = value
            elif key == "LABELED":
                if value not in (0, 1):
                    raise InputError(name, lineno, f"LABELED must be 0 or 1, found {value}")
                labeled = value == 1
            elif key == "MAX_ERROR":
                max_error = value
            elif value != 0:
                raise InputError(
                    name,
                    lineno,
                    f"DEBUG {value} asks for EVALB's debugging display, which evalhouse does not print (DEBUG 0 does)",
                )
        elif key == "DELETE_LABEL":
            delete.add(args[0])
        elif key == "DELETE_LABEL_FOR_LENGTH":
            delete_len.add(args[0])
        elif key == "EQ_LABEL":
            eq_labels.append((args[0], args[1]))
        elif key == "EQ_WORD":
            eq_words.append((args[0], args[1]))
        else:
            quote.append(args[0])
    return EvalbParams(
        delete_labels=frozenset(delete),
        delete_labels_for_length=frozenset(delete_len),
        eq_labels=tuple(eq_labels),
        eq_words=tuple(eq_words),
        cutoff_len=cutoff,
        labeled=labeled,
        max_error=max_error,
        source=name,
        quote_labels=tuple(quote),
    )


def read_cost_table(path: str | os.PathLike) -> LabelCost:
    """Read a directional label-cost table (GOLD CANDIDATE COST per line, COST in [0, 2])."""
    name = os.fspath(path)
    rows, seen = [], {}
    for lineno, parts in _lines(path, "label-cost table", comments_anywhere=True):
        if len(parts) != 3:
            raise InputError(name, lineno, f"expected GOLD_LABEL CANDIDATE_LABEL COST, found {len(parts)} fields")
        g, c, v = parts
        cost = decimal(v)  # ASCII, finite (loaders/numbers.py)
        if cost is None:
            raise InputError(name, lineno, f"cost {shown(v)} is not a number")
        if not 0.0 <= cost <= 2.0:
            raise InputError(name, lineno, f"cost {v} is outside [0, 2]")
        if g == c and cost != 0.0:
            raise InputError(name, lineno, f"identical labels '{g}' must cost 0")
        if (g, c) in seen:
            raise InputError(name, lineno, f"pair ({g}, {c}) already given on line {seen[(g, c)]}")
        seen[(g, c)] = lineno
        rows.append((g, c, cost))
    return cost_table(rows)
