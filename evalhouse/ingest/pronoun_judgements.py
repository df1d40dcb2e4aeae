"""``evalhouse ingest pronoun-judgements``: human judgements of pronoun translations into
``pronoun_judgements``, in one transaction.

    $ evalhouse ingest pronoun-judgements protest.csv --corpus discomt
    discomt: 1,201 pronoun judgements

A CSV ``team,run,position,source_index,category,judgement`` (read by
:func:`evalhouse.loaders.translations.read_judgements`); every judged pronoun must be a source pronoun of
an ingested system. The views ``pronoun_cases``, ``apt_human_agreement`` and ``apt_human_correlation``
(``sql/pronouns/``) compare them with APT.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from evalhouse.errors import InputError, WarehouseError
from evalhouse.loaders import translations as L

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse


def ingest_pronoun_judgements(wh: Warehouse, path: str | os.PathLike, corpus: str, replace: bool = False) -> int:
    """Ingest a judgements CSV (team,run,position,source_index,category,judgement) for a corpus.

    Every judged pronoun must be a source pronoun of an ingested system (found in pronoun_analyses).
    """
    f, judgements = L.read_judgements(path)
    if not wh.has("translation corpus", {"corpus": corpus}):
        raise WarehouseError(f"no translation corpus '{corpus}' in {wh.path}")
    known = {
        tuple(r)
        for r in wh.sql(
            "SELECT DISTINCT team, run, position, source_index FROM pronoun_analyses WHERE corpus = $c", {"c": corpus}
        ).fetchall()
    }
    for j in judgements:
        if (j.team, j.run, j.position, j.source_index) not in known:
            raise InputError(
                f.name,
                j.line,
                f"system {j.team}/{j.run} has no source pronoun at segment {j.position}, "
                f"token {j.source_index} in corpus '{corpus}'",
            )
    with wh.transaction():
        wh.make_room(
            "pronoun judgements", {"corpus": corpus}, replace, f"the pronoun-judgement set of corpus '{corpus}'"
        )
        wh.insert(
            "pronoun_judgements",
            [
                {
                    "corpus": corpus,
                    "team": j.team,
                    "run": j.run,
                    "position": j.position,
                    "source_index": j.source_index,
                    "category": j.category,
                    "judgement": j.judgement,
                    "file": f.name,
                    "line": j.line,
                }
                for j in judgements
            ],
        )
    return len(judgements)
