"""APT's report (Miculicich Werlen & Popescu-Belis 2017) for one system under one pronoun configuration:
its ``.score`` text (APT, the cases, the confusion matrix) and its ``.detail`` text, as APT writes them.

    $ evalhouse apt --corpus discomt --team mt --run 1 --out mt-1
    Score: 0.4000 ...

The counts come from ``pronoun_analyses`` (stored by :mod:`evalhouse.ingest.translations`); the score
and the rendering are :func:`evalhouse.analysis.pronouns.apt_score` and ``render_score``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from evalhouse.analysis.pronouns import NONE, OTHER, AptScore, apt_score, render_score
from evalhouse.errors import WarehouseError

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse


@dataclass(frozen=True)
class AptReport:
    corpus: str
    config: str
    team: str
    run: str
    score: AptScore
    score_text: str
    detail_text: str


def apt_report(wh: Warehouse, corpus: str, config: str, team: str, run: str, max_labels: int = 10) -> AptReport:
    """APT of one system under one configuration, with APT's .score and .detail texts."""
    cfg = wh.sql(
        "SELECT cases, weights, pronoun_set, target_list FROM pronoun_configs WHERE corpus = $c AND config = $k",
        {"c": corpus, "k": config},
    ).fetchone()
    if cfg is None:
        raise WarehouseError(f"no configuration '{config}' for corpus '{corpus}'")
    cases, weights, pset, target_list = cfg
    rows = wh.sql(
        "SELECT position, source_index, source_pronoun, reference_item_indices, reference_items, output_item_indices, "
        "output_items, apt_case, matrix_reference, matrix_output FROM pronoun_analyses "
        "WHERE corpus = $c AND config = $k AND team = $t AND run = $r ORDER BY position, source_index",
        {"c": corpus, "k": config, "t": team, "r": run},
    ).fetchall()
    if (
        not rows
        and not wh.sql(
            "SELECT count(*) FROM translation_systems WHERE corpus = $c AND team = $t AND run = $r",
            {"c": corpus, "t": team, "r": run},
        ).fetchone()[0]
    ):
        raise WarehouseError(f"no system {team}/{run} for corpus '{corpus}'")
    score = apt_score(Counter(r[7] for r in rows), cases, weights)
    labels = None
    if target_list:
        labels = [
            p
            for (p,) in wh.sql(
                "SELECT DISTINCT pronoun FROM pronoun_lists WHERE pronoun_set = $s AND role = 'target'", {"s": pset}
            ).fetchall()
        ] + [OTHER, NONE]
    cells = [(r[8], r[9]) for r in rows if r[7] in cases]
    text = render_score(score, cells, max_labels, labels)
    detail = ["\t".join(["SENT.", "POS. SOURCE", "SOURCE", "POS. REF.", "REF.", "POS. TARGET", "TARGET", "CASE"])]
    for pos, si, sp, ri, rw, oi, ow, case, _, _ in rows:
        detail.append(
            "\t".join(
                [
                    str(pos - 1),
                    str(si - 1),
                    sp,
                    " ".join(str(i - 1) for i in ri) or "-",
                    " ".join(rw) or "-",
                    " ".join(str(i - 1) for i in oi) or "-",
                    " ".join(ow) or "-",
                    str(case),
                ]
            )
        )
    return AptReport(corpus, config, team, run, score, text, "\n".join(detail) + "\n")


def default_config(wh: Warehouse, corpus: str) -> str:
    """The configuration a report shows when none is named: ``apt-b`` (Guillou & Hardmeier's (2018) APT-B), else the first there is."""
    names = [
        r[0]
        for r in wh.sql("SELECT config FROM pronoun_configs WHERE corpus = $c ORDER BY 1", {"c": corpus}).fetchall()
    ]
    return "apt-b" if "apt-b" in names or not names else names[0]


def apt_scores(wh: Warehouse, corpus: str, config: str | None = None, team: str | None = None):
    """The ``apt_scores`` rows of a corpus (of one configuration, one team), rounded for reading."""
    return wh.sql(
        "SELECT config, team, run, pronouns, case_1, case_2, case_3, case_4, case_5, case_6, "
        "round(apt, 4) AS apt, round(apt_a, 4) AS apt_a, round(apt_b, 4) AS apt_b "
        "FROM apt_scores WHERE corpus = $c AND ($k IS NULL OR config = $k) "
        "AND ($t IS NULL OR team = $t) ORDER BY config, team, run",
        {"c": corpus, "k": config, "t": team},
    )
