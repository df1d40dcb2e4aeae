"""``evalhouse ingest judgements``: human scores of output sentences into ``judgements``, in one transaction.

    $ evalhouse ingest judgements sr19-human.csv
    1,200 judgements

A CSV with the header ``team,run,corpus,sent_id,annotator,criterion,score`` (read by
:func:`evalhouse.loaders.outputs.read_judgements`). ``sent_id`` is resolved to the reference sentence's
position (or taken as a position). The submission must be in the warehouse; a sentence scored twice by
one annotator on one criterion is refused, in the file or against what is stored. The view
``judgement_z`` (``sql/outputs/``) standardises the scores per annotator and criterion.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from evalhouse.errors import InputError, WarehouseError
from evalhouse.loaders.numbers import integer, shown
from evalhouse.loaders.outputs import read_judgements

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

COLUMNS = (
    "team",
    "run",
    "corpus",
    "position",
    "sent_id",
    "annotator",
    "criterion",
    "score",
    "source_file",
    "source_line",
)


def ingest_judgements(wh: Warehouse, path: str | os.PathLike) -> int:
    """Ingest a judgement CSV into warehouse ``wh`` (one transaction); returns the number of judgements."""
    name, _sha, rows = read_judgements(path)
    subs = set(wh.sql("SELECT team, run, corpus FROM submissions").fetchall())
    positions: dict[str, dict[str, int]] = {}
    cols: dict[str, list] = {k: [] for k in COLUMNS}
    seen: dict[tuple, int] = {}
    for j in rows:
        if (j.team, j.run, j.corpus) not in subs:
            raise InputError(
                name, j.line, f"no submission team {j.team} run {j.run} on corpus {j.corpus} in the warehouse"
            )
        if j.corpus not in positions:
            positions[j.corpus] = dict(
                wh.sql("SELECT sent_id, position FROM sentences WHERE corpus = $c", {"c": j.corpus}).fetchall()
            )
        index = positions[j.corpus]
        pos = index.get(j.sent_id)
        if pos is None:
            number = integer(j.sent_id)  # ASCII digits only: '١' is no position (loaders/numbers.py)
            if number is not None and 1 <= number <= len(index):
                pos = number
            else:
                raise InputError(name, j.line, f"unknown sent_id {shown(j.sent_id)} in corpus {j.corpus}")
        key = (j.team, j.run, j.corpus, pos, j.annotator, j.criterion.lower())
        if key in seen:
            raise InputError(
                name,
                j.line,
                f"annotator {j.annotator} already scored {j.criterion} of this sentence (line {seen[key]})",
            )
        seen[key] = j.line
        for col, v in zip(
            cols, (j.team, j.run, j.corpus, pos, j.sent_id, j.annotator, j.criterion.lower(), j.score, name, j.line)
        ):
            cols[col].append(v)
    with wh.transaction():
        stored = set(wh.sql("SELECT team, run, corpus, position, annotator, criterion FROM judgements").fetchall())
        existing = len(stored & seen.keys())
        if existing:
            raise WarehouseError(
                f"{name}: {existing} judgements are already in {wh.path} (same sentence, annotator "
                "and criterion); nothing ingested"
            )
        wh.insert("judgements", cols)
    return len(rows)
