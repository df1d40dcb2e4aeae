"""``evalhouse apt --config FILE``: an original APT configuration file (idiap/APT ``config_*``) ingested
as a translation corpus with one system and one configuration (``apt-config``), and APT's report of it.

    $ evalhouse apt --config ../shared/data/mt/apt-es-en/config_1
    Score: 0.4000 ...

The configuration file and the lists it names are read by :mod:`evalhouse.loaders.translations`; the
corpus goes in through :func:`evalhouse.ingest.translations.ingest_translations` (one transaction); the
report is :func:`evalhouse.reports.apt.apt_report`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from evalhouse.names import check_names
from evalhouse.ingest.translations import ConfigSpec, ingest_translations
from evalhouse.loaders import translations as L
from evalhouse.reports.apt import AptReport, apt_report

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse


def run_apt_config(
    wh: Warehouse,
    config_path: str | os.PathLike,
    corpus: str | None = None,
    team: str = "system",
    run: str | None = None,
    replace: bool = False,
    drop_systems: bool = False,
    drop_judgements: bool = False,
) -> AptReport:
    """Run an original APT configuration file: ingest its files as a corpus (default name: the config
    file's name) and one system, store the configuration, and return APT's report."""
    check_names(corpus=corpus, team=team, run=run)
    cfg = L.read_apt_config(config_path)
    corpus = corpus if corpus is not None else Path(cfg.path).name
    run = run if run is not None else Path(cfg.target).name
    name = f"apt:{corpus}"
    rows = []
    _, srcs = L.read_word_list(cfg.list_source_pronouns)
    rows += [("source", w, None, None, i + 1) for i, w in enumerate(srcs)]
    if cfg.list_target_pronouns:
        _, tgts = L.read_word_list(cfg.list_target_pronouns)
        rows += [("target", w, None, None, i + 1) for i, w in enumerate(tgts)]
    for role, path, label in (("identical", cfg.equal, "equal"), ("equivalent", cfg.similar, "similar")):
        if path:
            _, groups = L.read_group_list(path)
            for k, group in enumerate(groups):
                rows += [(role, w, f"{label}-{k + 1}", None, k + 1) for w in group]
    dictionary: dict[str, list[str]] = {}
    for role, path in (
        ("correction-source", cfg.dict_source_pronouns),
        ("correction-target", cfg.dict_target_pronouns),
    ):
        if path:
            _, words = L.read_word_list(path)
            dictionary[role] = words
            rows += [(role, w, None, None, i + 1) for i, w in enumerate(words)]
    # APT.py always calls improve_alignment with its two dictionaries (an absent file is an empty list).
    # A candidate must be in the target dictionary, so without target words nothing changes; the source
    # dictionary only blocks candidates aligned to a source pronoun, so with target words alone the
    # correction runs and nothing blocks (settings_for does not fall back to the source list then).
    correction = bool(dictionary.get("correction-target"))
    spec = ConfigSpec(
        "apt-config",
        name,
        target_list=bool(cfg.list_target_pronouns),
        equivalence=bool(cfg.similar),
        alignment_correction=correction,
        count_other_as_equal=cfg.count_other_as_equal,
        cases=tuple(cfg.cases),
        weights=tuple(cfg.weights),
        source_separator=cfg.source_separator,
        target_separator=cfg.target_separator,
        origin=f"APT configuration file {cfg.path}",
    )
    ingest_translations(
        wh,
        corpus,
        source=cfg.source,
        reference=cfg.reference,
        source_reference_alignment=cfg.alignment_source_reference,
        team=team,
        run=run,
        output=cfg.target,
        source_output_alignment=cfg.alignment_source_target,
        replace=replace,
        drop_systems=drop_systems,
        drop_judgements=drop_judgements,
        _pronoun_rows=(name, cfg.list_source_pronouns, cfg.source_language, cfg.target_language, rows),
        _configs=[spec],
    )
    return apt_report(wh, corpus, "apt-config", team, run, cfg.max_length_matrix)
