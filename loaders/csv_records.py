"""Header-checked CSV records: the one reader behind manifests and judgement files.

Every CSV evalhouse reads has a header naming its columns (any order). Rows are checked against it:
a missing or (when ``optional`` is given) unknown column is an error on line 1; a row with another
number of fields, or an empty value in a column that must have one, is an error on its own line.
Blank rows are skipped. Values come back stripped of surrounding white space.
"""

from __future__ import annotations

import csv
from typing import Iterable, Sequence

from evalhouse.errors import InputError


def csv_records(
    name: str,
    lines: Iterable[str],
    required: Sequence[str],
    optional: Sequence[str] | None = None,
    nonempty: Sequence[str] | None = None,
) -> list[tuple[int, dict[str, str]]]:
    """(line number, {column: value}) for each data row of a CSV given as text lines.

    ``optional`` None accepts any extra column; a sequence makes every other column an error.
    ``nonempty`` (default: ``required``) lists the columns whose value must not be empty.
    """
    reader = csv.reader(lines)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise InputError(name, None, "empty file") from None
    except csv.Error as err:
        raise _csv_problem(name, 1, err) from None
    need = ", ".join(required) + (f"[, {', '.join(optional)}]" if optional else "")
    missing = [c for c in required if c not in header]
    if missing:
        raise InputError(name, 1, f"header lacks {', '.join(missing)} (need {need})")
    if optional is not None:
        unknown = [c for c in header if c not in tuple(required) + tuple(optional)]
        if unknown:
            raise InputError(name, 1, f"unknown column {unknown[0]!r} (valid: {need})")
    nonempty = required if nonempty is None else nonempty
    out = []
    line = reader.line_num + 1  # where the next record starts (a quoted field may span lines)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            raise _csv_problem(name, line, err) from None
        start, line = line, reader.line_num + 1
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise InputError(name, start, f"{len(row)} fields, the header has {len(header)}")
        record = dict(zip(header, (cell.strip() for cell in row)))
        for column in nonempty:
            if not record[column]:
                raise InputError(name, start, f"empty {column}")
        out.append((start, record))
    return out


def _csv_problem(name: str, line: int, err: csv.Error) -> InputError:
    """Python's CSV errors in evalhouse's words: a field over the reader's limit, or broken quoting."""
    text = str(err)
    if "field larger than field limit" in text:
        return InputError(
            name,
            line,
            f"a field longer than {csv.field_size_limit():,} characters (is this a CSV file of judgements or runs?)",
        )
    return InputError(name, line, f"not valid CSV: {text}")
