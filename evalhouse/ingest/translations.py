"""``evalhouse ingest translations``: a parallel corpus and system translations, with every source pronoun
scored (APT and AutoPRF, Guillou & Hardmeier 2018) at ingest, in one transaction.

Python API (the command is a thin layer over these functions, which are the bodies of
``Warehouse.ingest_translations`` and ``Warehouse.add_apt_config``)::

    import evalhouse

    with evalhouse.connect("warehouse.duckdb") as wh:
        wh.ingest_translations("discomt", source="mt-output.en", reference="pronoun-test.tok.fr",
                               source_reference_alignment="pronoun-test.tok.en-fr.alig",
                               documents="doc-boundaries", pronouns="en-fr")
        wh.ingest_translations("discomt", team="mt", run="1", output="mt-output.fr",
                               source_output_alignment="mt-output.en-fr.alig")
        wh.sql("select * from apt_scores where corpus = 'discomt'").df()

Files are read by :mod:`evalhouse.loaders.translations`. Every corpus gets three configurations when it
is ingested (``pronoun_configs``): ``apt-a`` and ``apt-b``, Guillou & Hardmeier's (2018) APT-A and APT-B (all six cases;
weights 1, 0, 0, 0, 0, 0 and 1, 0.5, 0, 0, 0, 0; no target list: aligned words are compared as they
are; equivalence classes and APT's alignment correction on), and ``plain`` (cases 1-4, no equivalence,
no correction; weights 1, 0, 0, 0), whose APT equals the restricted AutoPRF recall (Guillou & Hardmeier 2018, section
4); ``evalhouse apt --add`` adds more (:func:`add_config`). The per-pronoun facts are computed here by
:mod:`evalhouse.analysis.pronouns` and stored in ``pronoun_analyses``; the views (``sql/pronouns/``)
aggregate them. Human judgements: :mod:`evalhouse.ingest.pronoun_judgements`; APT's own configuration
files: :mod:`evalhouse.ingest.apt_configs`; APT's report: :mod:`evalhouse.reports.apt`.
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from evalhouse.analysis.pronouns import PronounSettings, analyse_segment
from evalhouse.names import check_names
from evalhouse.errors import InputError, OptionError, WarehouseError
from evalhouse.loaders import translations as L
from evalhouse.version import __version__

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    import duckdb
    from evalhouse.warehouse import Warehouse

APT_CASES = (1, 2, 3, 4, 5, 6)  # Guillou & Hardmeier (2018): every source pronoun is in the denominator
APT_A_WEIGHTS = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
APT_B_WEIGHTS = (1.0, 0.5, 0.0, 0.0, 0.0, 0.0)
APT_B_WEIGHT = dict(zip(APT_CASES, APT_B_WEIGHTS))  # the weight of each case under APT-B
# a configuration's defaults (evalhouse apt --add without --cases / --weights): APT-B
DEFAULT_CASES = APT_CASES
DEFAULT_WEIGHTS = APT_B_WEIGHTS
PLAIN_CASES = (1, 2, 3, 4)
PLAIN_WEIGHTS = (1.0, 0.0, 0.0, 0.0)


def bundled_pronoun_sets() -> dict[str, str]:
    """Pronoun sets shipped with evalhouse (name -> file): evalhouse/pronouns/<source>-<target>.tsv."""
    out = {}
    for entry in resources.files("evalhouse.pronouns").iterdir():
        if entry.name.endswith(".tsv"):
            out[entry.name[:-4]] = os.fspath(entry)
    return dict(sorted(out.items()))


@dataclass(frozen=True)
class TranslationSummary:
    corpus: str
    segments: int
    documents: int | None
    system: tuple[str, str] | None
    pronouns: int | None
    normalisations: tuple[str, ...]
    judgements_kept: int = 0  # pronoun judgements of a replaced corpus or system whose segment is still there
    judgements_dropped: int = 0  # ... and those deleted (``drop_judgements=True``)
    systems_dropped: int = 0  # systems of a replaced corpus not ingested again (``drop_systems=True``)


@dataclass(frozen=True)
class ConfigSpec:
    """A pronoun configuration (a row of ``pronoun_configs``)."""

    config: str
    pronoun_set: str
    target_list: bool = False
    equivalence: bool = True
    alignment_correction: bool = True
    count_other_as_equal: bool = False
    cases: tuple[int, ...] = DEFAULT_CASES
    weights: tuple[float, ...] = DEFAULT_WEIGHTS
    source_separator: str | None = None
    target_separator: str | None = None
    origin: str = "built-in default"


def default_configs(pset: str) -> list[ConfigSpec]:
    return [
        ConfigSpec(
            "apt-a",
            pset,
            cases=APT_CASES,
            weights=APT_A_WEIGHTS,
            origin="built-in: Guillou & Hardmeier's (2018) APT-A (all six cases, alignment correction)",
        ),
        ConfigSpec(
            "apt-b",
            pset,
            cases=APT_CASES,
            weights=APT_B_WEIGHTS,
            origin="built-in: Guillou & Hardmeier's (2018) APT-B (all six cases, alignment correction)",
        ),
        ConfigSpec(
            "plain",
            pset,
            equivalence=False,
            alignment_correction=False,
            cases=PLAIN_CASES,
            weights=PLAIN_WEIGHTS,
            origin="built-in: cases 1-4, no equivalence, no alignment correction (= restricted AutoPRF recall)",
        ),
    ]


# --- pronoun sets ---------------------------------------------------------------------------
def _resolve_pronoun_set(pronouns: str | None, source_language: str | None, target_language: str | None):
    """(set name, file, source language, target language)."""
    bundled = bundled_pronoun_sets()
    if pronouns is None:
        if not source_language or not target_language:
            raise OptionError(
                "say which pronouns to evaluate: `pronouns`, a bundled set "
                f"({', '.join(bundled)}) or a pronoun-set file, or `source_language` and `target_language`"
            )
        pronouns = f"{source_language}-{target_language}"
        if pronouns not in bundled:
            raise OptionError(
                f"no pronoun list for language pair {pronouns}: bundled sets are {', '.join(bundled)}; "
                "write your own (see docs/pronoun-evaluation.md) and pass it as `pronouns`"
            )
    if pronouns in bundled:
        src, tgt = pronouns.split("-", 1)
        return pronouns, bundled[pronouns], source_language or src, target_language or tgt
    if not os.path.exists(pronouns):
        raise OptionError(f"`pronouns` {pronouns}: neither a bundled pronoun set ({', '.join(bundled)}) nor a file")
    name = Path(pronouns).name.rsplit(".", 1)[0]
    parts = name.split("-")
    src = source_language or (parts[0] if len(parts) == 2 else None)
    tgt = target_language or (parts[1] if len(parts) == 2 else None)
    return name, pronouns, src, tgt


def _store_pronoun_set(wh: Warehouse, name: str, rows, file: str, src: str | None, tgt: str | None) -> None:
    existing = wh.sql(
        "SELECT role, pronoun, class, source_pronoun FROM pronoun_lists WHERE pronoun_set = $s ORDER BY ALL",
        {"s": name},
    ).fetchall()
    new = [(r[0], r[1], r[2], r[3]) for r in rows]

    def ordered(values):
        return sorted(values, key=lambda r: tuple("" if v is None else v for v in r))

    if existing and ordered(existing) == ordered(new):
        return
    if existing:
        used = wh.sql("SELECT count(*) FROM pronoun_configs WHERE pronoun_set = $s", {"s": name}).fetchone()[0]
        if used:
            raise WarehouseError(
                f"pronoun set '{name}' is already in the warehouse with other contents and "
                "scores use it; name your edited file differently"
            )
        wh.delete("pronoun set", [{"pronoun_set": name}])
    wh.insert(
        "pronoun_lists",
        [
            {
                "pronoun_set": name,
                "source_language": src,
                "target_language": tgt,
                "role": r[0],
                "pronoun": r[1],
                "class": r[2],
                "source_pronoun": r[3],
                "file": file,
                "line": r[4],
            }
            for r in rows
        ],
    )


def settings_for(con: duckdb.DuckDBPyConnection, corpus: str, config: str) -> PronounSettings:
    """The settings of configuration ``config`` of ``corpus``, as :mod:`evalhouse.analysis.pronouns` takes them."""
    rows = con.execute(
        "SELECT pronoun_set, target_list, equivalence, alignment_correction, count_other_as_equal, "
        "source_separator, target_separator FROM pronoun_configs WHERE corpus = $c AND config = $k",
        {"c": corpus, "k": config},
    ).fetchall()
    if not rows:
        raise WarehouseError(f"no configuration '{config}' for corpus '{corpus}'")
    ((pset, target_list, equivalence, correction, count_other, ssep, tsep),) = rows
    rows = con.execute(
        "SELECT role, pronoun, class, source_pronoun FROM pronoun_lists WHERE pronoun_set = $s ORDER BY line",
        {"s": pset},
    ).fetchall()
    by_role: dict[str, list] = {}
    for r in rows:
        by_role.setdefault(r[0], []).append(r)
    source = frozenset(r[1] for r in by_role.get("source", []))
    target = tuple(dict.fromkeys(r[1] for r in by_role.get("target", [])))

    def classes(role):
        groups: dict[tuple, list[str]] = {}
        for _, p, cls, sp in by_role.get(role, []):
            groups.setdefault((cls, sp), []).append(p)
        return groups

    identical = tuple(tuple(ws) for ws in classes("identical").values())
    equivalent = tuple((sp, tuple(ws)) for (cls, sp), ws in classes("equivalent").items())
    if target_list:  # as APT: classes only hold listed words
        listed = set(target)
        identical = tuple(c for c in (tuple(w for w in ws if w in listed) for ws in identical) if len(c) > 1)
        equivalent = tuple(
            (sp, c) for sp, c in ((sp, tuple(w for w in ws if w in listed)) for sp, ws in equivalent) if c
        )
    # The correction's word lists: a set that gives correction dictionaries (an APT configuration file's
    # [dictionary] source_pronouns / target_pronouns) uses them as APT does -- a missing one is empty, so
    # with only a target dictionary no source word blocks a candidate, and with only a source dictionary
    # nothing is ever corrected; a set without any (the bundled sets) uses its source and target lists.
    csrc = frozenset(r[1] for r in by_role.get("correction-source", []))
    ctgt = frozenset(r[1] for r in by_role.get("correction-target", []))
    if not csrc and not ctgt:
        csrc, ctgt = source, frozenset(target)
    return PronounSettings(
        source,
        target if target_list else None,
        identical,
        equivalent,
        bool(equivalence),
        bool(correction),
        csrc,
        ctgt,
        bool(count_other),
        ssep,
        tsep,
    )


# --- ingest ---------------------------------------------------------------------------------
def _links(corpus, team, run, pair, links) -> dict[str, list]:
    """Alignment links (per segment, 0-based source index -> target indices) as ``alignments`` columns."""
    cols = {k: [] for k in ("position", "from_index", "to_index")}
    for i, seg in enumerate(links):
        for s, ts in seg.items():
            for t in ts:
                cols["position"].append(i + 1)
                cols["from_index"].append(s + 1)
                cols["to_index"].append(t + 1)
    n = len(cols["position"])
    return {
        "corpus": [corpus] * n,
        "team": [team] * n,
        "run": [run] * n,
        "pair": [pair] * n,
        **cols,
        "method": ["given"] * n,
    }


def _aligned(path, alignment, src_tok: list[list[str]], what: str, skip_bad_lines: bool, source_name: str = ""):
    """A translation of the source (``what``: reference or output) and its alignment to the source: (text
    file, alignment file, links per segment, skipped alignment lines)."""
    text = L.read_segments(path)
    tok = [L.tokens(line) for line in text.lines]
    if len(tok) != len(src_tok):
        raise InputError(
            text.name,
            min(len(tok), len(src_tok)) + 1,
            f"{what} has {len(tok)} lines but the source{source_name} has {len(src_tok)}",
        )
    return (text,) + L.read_alignment(alignment, src_tok, tok, "source", what, skip_bad_lines)


def ingest_translations(
    wh: Warehouse,
    corpus: str,
    *,
    source: str | os.PathLike | None = None,
    reference: str | os.PathLike | None = None,
    source_reference_alignment: str | os.PathLike | None = None,
    documents: str | os.PathLike | None = None,
    pronouns: str | None = None,
    source_language: str | None = None,
    target_language: str | None = None,
    team: str | None = None,
    run: str | None = None,
    output: str | os.PathLike | None = None,
    source_output_alignment: str | os.PathLike | None = None,
    replace: bool = False,
    skip_bad_alignment_lines: bool = False,
    drop_systems: bool = False,
    drop_judgements: bool = False,
    _pronoun_rows=None,
    _configs=None,
) -> TranslationSummary:
    """Ingest a parallel corpus (source, reference, source-reference alignment, optional documents)
    and/or one system output (team, run, output, source-output alignment) in one transaction.

    ``replace`` replaces a corpus or system of the same name. Replacing a corpus deletes its systems
    (unless this call ingests them again) and is refused when any would go, unless ``drop_systems``;
    pronoun judgements are kept where the judged segment is still there (same position, source and
    output), and replacing is refused when one would be lost, unless ``drop_judgements``.

    Computes the pronoun analyses of every configuration of the corpus for the new system. Raises
    :class:`InputError` (bad input), :class:`OptionError` (bad usage) or :class:`WarehouseError`;
    nothing changes then.
    """
    check_names(corpus=corpus, team=team, run=run)
    corpus_part = any(x is not None for x in (source, reference, source_reference_alignment, documents))
    system_part = any(x is not None for x in (team, run, output, source_output_alignment))
    if not corpus_part and not system_part:
        raise OptionError(
            "nothing to ingest: give `source`, `reference` and `source_reference_alignment`, "
            "or `team`, `run`, `output` and `source_output_alignment`, or both"
        )
    if corpus_part and None in (source, reference, source_reference_alignment):
        raise OptionError("a corpus needs `source`, `reference` and `source_reference_alignment`")
    if system_part and None in (team, run, output, source_output_alignment):
        raise OptionError("a system output needs `team`, `run`, `output` and `source_output_alignment`")
    normalisations: list[str] = []
    # --- read and validate everything before touching the warehouse
    if corpus_part:
        src = L.read_segments(source)
        src_tok = [L.tokens(line) for line in src.lines]
        ref, sra, sr_links, sr_skipped = _aligned(
            reference, source_reference_alignment, src_tok, "reference", skip_bad_alignment_lines, f" {src.name}"
        )
        files = [src, ref, sra]
        doc_ids = [corpus] * len(src_tok)
        if documents is not None:
            docf, doc_ids = L.read_documents(documents, len(src_tok))
            files.append(docf)
        for f in files:
            normalisations += f.normalisations
        if _pronoun_rows is None:
            pset, pfile, slang, tlang = _resolve_pronoun_set(pronouns, source_language, target_language)
            prows = L.read_pronoun_set(pfile).rows
        else:
            pset, pfile, slang, tlang, prows = _pronoun_rows
    else:
        if not wh.has("translation corpus", {"corpus": corpus}):
            have = [r[0] for r in wh.sql("SELECT corpus FROM translation_corpora ORDER BY 1").fetchall()]
            raise WarehouseError(
                f"no translation corpus '{corpus}' in {wh.path} (have: {', '.join(have) or 'none'}); "
                "ingest its source and reference first"
            )
        rows = wh.sql("SELECT source FROM segments WHERE corpus = $c ORDER BY position", {"c": corpus}).fetchall()
        src_tok = [L.tokens(r[0]) for r in rows]
    if system_part:
        out, soa, so_links, so_skipped = _aligned(
            output, source_output_alignment, src_tok, "output", skip_bad_alignment_lines
        )
        sys_norm = out.normalisations + soa.normalisations
        normalisations += sys_norm
    now = _dt.datetime.now(_dt.timezone.utc)
    n = None
    rooms = []
    with wh.transaction():
        if corpus_part:
            # systems and pronoun judgements that still apply stay (evalhouse.stored); finished at commit
            rooms.append(
                wh.make_room(
                    "translation corpus",
                    {"corpus": corpus},
                    replace,
                    f"translation corpus '{corpus}'",
                    drop_systems=drop_systems,
                    drop_judgements=drop_judgements,
                )
            )
            _store_pronoun_set(wh, pset, prows, pfile, slang, tlang)
            wh.insert(
                "translation_corpora",
                [
                    {
                        "corpus": corpus,
                        "source_language": slang,
                        "target_language": tlang,
                        "pronoun_set": pset,
                        "segments": len(src_tok),
                        "documents": len(dict.fromkeys(doc_ids)),
                        "source_files": [f.name for f in files],
                        "sha256": [f.sha256 for f in files],
                        "normalisations": normalisations,
                        "skipped_positions": sr_skipped,
                        "evalhouse_version": __version__,
                        "ingested_at": now,
                    }
                ],
            )
            wh.insert(
                "segments",
                {
                    "corpus": [corpus] * len(src_tok),
                    "position": range(1, len(src_tok) + 1),
                    "document": doc_ids,
                    "source": src.lines,
                    "reference": ref.lines,
                },
            )
            wh.insert("alignments", _links(corpus, None, None, "source-reference", sr_links))
            for config in _configs if _configs is not None else default_configs(pset):
                insert_config(wh, corpus, config, now)
        if system_part:
            rooms.append(
                wh.make_room(
                    "translation system",
                    {"corpus": corpus, "team": team, "run": run},
                    replace,
                    f"system {team}/{run} of corpus '{corpus}'",
                    drop_judgements=drop_judgements,
                )
            )
            wh.insert(
                "translation_systems",
                [
                    {
                        "corpus": corpus,
                        "team": team,
                        "run": run,
                        "source_files": [out.name, soa.name],
                        "sha256": [out.sha256, soa.sha256],
                        "normalisations": sys_norm,
                        "skipped_positions": so_skipped,
                        "evalhouse_version": __version__,
                        "ingested_at": now,
                    }
                ],
            )
            n_out = len(out.lines)
            wh.insert(
                "translation_outputs",
                {
                    "corpus": [corpus] * n_out,
                    "team": [team] * n_out,
                    "run": [run] * n_out,
                    "position": range(1, n_out + 1),
                    "output": out.lines,
                },
            )
            wh.insert("alignments", _links(corpus, team, run, "source-output", so_links))
            configs = [
                r[0]
                for r in wh.sql(
                    "SELECT config FROM pronoun_configs WHERE corpus = $c ORDER BY config", {"c": corpus}
                ).fetchall()
            ]
            known = {("source-output", team, run): so_links}
            if corpus_part:
                known[("source-reference", None, None)] = sr_links
            n = compute_analyses(wh, corpus, configs, [(team, run)], known) // max(len(configs), 1)
    docs = len(dict.fromkeys(doc_ids)) if corpus_part else None
    return TranslationSummary(
        corpus,
        len(src_tok),
        docs,
        (team, run) if system_part else None,
        n,
        tuple(normalisations),
        sum(r.kept.get("pronoun judgements", 0) for r in rooms),
        sum(r.dropped.get("pronoun judgements", 0) for r in rooms),
        sum(r.dropped.get("systems", 0) for r in rooms),
    )


# --- configurations -------------------------------------------------------------------------
def insert_config(wh: Warehouse, corpus: str, spec: ConfigSpec, now) -> None:
    """Store a configuration of ``corpus`` (checked: one weight per case, cases 1-6, weights in [0, 1])."""
    if len(spec.weights) != len(spec.cases):
        raise OptionError(f"{len(spec.cases)} cases but {len(spec.weights)} weights; give one weight per case")
    bad = [c for c in spec.cases if c not in range(1, 7)]
    if bad or not spec.cases or len(set(spec.cases)) != len(spec.cases):
        raise OptionError(f"cases must be distinct numbers 1-6, got {list(spec.cases)}")
    if any(not 0 <= w <= 1 for w in spec.weights):
        raise OptionError(f"weights must lie in [0, 1], got {list(spec.weights)}")
    wh.insert(
        "pronoun_configs",
        [
            {
                "corpus": corpus,
                "config": spec.config,
                "pronoun_set": spec.pronoun_set,
                "target_list": spec.target_list,
                "equivalence": spec.equivalence,
                "alignment_correction": spec.alignment_correction,
                "count_other_as_equal": spec.count_other_as_equal,
                "cases": list(spec.cases),
                "weights": [float(w) for w in spec.weights],
                "source_separator": spec.source_separator,
                "target_separator": spec.target_separator,
                "origin": spec.origin,
                "evalhouse_version": __version__,
                "created_at": now,
            }
        ],
    )


def config_spec(
    wh: Warehouse,
    corpus: str,
    name: str,
    cases: Sequence[int] | None = None,
    weights: Sequence[float] | None = None,
    **switches,
) -> ConfigSpec:
    """A new configuration ``name`` of ``corpus`` (``evalhouse apt --add``): its pronoun set, ``cases``
    (default all six, as Guillou & Hardmeier's (2018) APT-A and APT-B) with one weight each (default: APT-B's weight of
    each case, 1 for case 1, 0.5 for case 2, 0 for the others), and the ``switches`` of
    :class:`ConfigSpec` (target_list, equivalence, alignment_correction, count_other_as_equal)."""
    row = wh.sql("SELECT pronoun_set FROM translation_corpora WHERE corpus = $c", {"c": corpus}).fetchone()
    if row is None:
        raise WarehouseError(f"no translation corpus '{corpus}' in {wh.path}")
    cases = tuple(int(c) for c in cases) if cases else DEFAULT_CASES
    if not weights:
        bad = [c for c in cases if c not in APT_B_WEIGHT]
        if bad:
            raise OptionError(f"cases must be distinct numbers 1-6, got {list(cases)}")
        weights = tuple(APT_B_WEIGHT[c] for c in cases)
    return ConfigSpec(name, row[0], cases=cases, weights=tuple(weights), origin="evalhouse apt options", **switches)


def add_config(wh: Warehouse, corpus: str, spec: ConfigSpec, replace: bool = False) -> int:
    """Add a configuration to a corpus and compute its analyses for every system (one transaction)."""
    if not wh.has("translation corpus", {"corpus": corpus}):
        raise WarehouseError(f"no translation corpus '{corpus}' in {wh.path}")
    with wh.transaction():
        wh.make_room(
            "pronoun configuration",
            {"corpus": corpus, "config": spec.config},
            replace,
            f"configuration '{spec.config}' of corpus '{corpus}'",
        )
        insert_config(wh, corpus, spec, _dt.datetime.now(_dt.timezone.utc))
        return compute_analyses(wh, corpus, spec.config)


def _links_from_db(
    con: duckdb.DuckDBPyConnection, corpus: str, pair: str, team, run, segments: int
) -> list[dict[int, list[int]]]:
    arrays = con.execute(
        "SELECT position, from_index, to_index FROM alignments "
        "WHERE corpus = $c AND pair = $p AND team IS NOT DISTINCT FROM $t AND run IS NOT DISTINCT FROM $r "
        "ORDER BY position, from_index, to_index",
        {"c": corpus, "p": pair, "t": team, "r": run},
    ).fetchnumpy()
    links: list[dict[int, list[int]]] = [dict() for _ in range(segments)]
    for pos, s, t in zip(arrays["position"].tolist(), arrays["from_index"].tolist(), arrays["to_index"].tolist()):
        links[pos - 1].setdefault(s - 1, []).append(t - 1)
    return links


ANALYSIS_COLUMNS = [
    "corpus",
    "config",
    "team",
    "run",
    "position",
    "source_index",
    "source_token",
    "source_pronoun",
    "reference_indices",
    "reference_words",
    "reference_items",
    "reference_item_indices",
    "output_indices",
    "output_words",
    "output_items",
    "output_item_indices",
    "reference_corrected",
    "output_corrected",
    "apt_case",
    "matrix_reference",
    "matrix_output",
    "autoprf_matches",
    "autoprf_reference",
    "autoprf_output",
    "restricted_match",
    "restricted_reference",
    "restricted_output",
]


def compute_analyses(
    wh: Warehouse,
    corpus: str,
    configs: str | Sequence[str],
    systems: Sequence[tuple[str, str]] | None = None,
    _links: dict | None = None,
) -> int:
    """(Re)compute ``pronoun_analyses`` of configurations for the given systems (default: all): the
    per-pronoun facts of :func:`evalhouse.analysis.pronouns.analyse_segment`, which the views aggregate."""
    con = wh.con
    if isinstance(configs, str):
        configs = [configs]
    all_settings = [(config, settings_for(con, corpus, config)) for config in configs]
    segs = con.execute(
        "SELECT source, reference FROM segments WHERE corpus = $c ORDER BY position", {"c": corpus}
    ).fetchall()
    src_tok = [L.tokens(s) for s, _ in segs]
    ref_tok = [L.tokens(r) for _, r in segs]
    _links = _links or {}  # links already in memory at ingest (the same values the alignments table holds)
    ref_links = _links.get(("source-reference", None, None)) or _links_from_db(
        con, corpus, "source-reference", None, None, len(segs)
    )
    corpus_skipped = set(
        con.execute("SELECT skipped_positions FROM translation_corpora WHERE corpus = $c", {"c": corpus}).fetchall()[0][
            0
        ]
    )
    if systems is None:
        systems = con.execute(
            "SELECT team, run FROM translation_systems WHERE corpus = $c ORDER BY team, run", {"c": corpus}
        ).fetchall()
    total = 0
    for team, run in systems:
        outs = con.execute(
            "SELECT output FROM translation_outputs WHERE corpus = $c AND team = $t AND run = $r ORDER BY position",
            {"c": corpus, "t": team, "r": run},
        ).fetchall()
        out_tok = [L.tokens(o) for (o,) in outs]
        out_links = _links.get(("source-output", team, run)) or _links_from_db(
            con, corpus, "source-output", team, run, len(segs)
        )
        skipped = corpus_skipped | set(
            con.execute(
                "SELECT skipped_positions FROM translation_systems WHERE corpus = $c AND team = $t AND run = $r",
                {"c": corpus, "t": team, "r": run},
            ).fetchall()[0][0]
        )
        rows = []
        inc = lambda xs: [x + 1 for x in xs]
        for config, settings in all_settings:
            for i in range(len(segs)):
                if i + 1 in skipped:
                    continue
                for a in analyse_segment(src_tok[i], ref_tok[i], out_tok[i], ref_links[i], out_links[i], settings):
                    rows.append(
                        (
                            corpus,
                            config,
                            team,
                            run,
                            i + 1,
                            a.source_index + 1,
                            a.source_token,
                            a.source_pronoun,
                            inc(a.ref_indices),
                            a.ref_words,
                            a.ref_items,
                            inc(a.ref_item_indices),
                            inc(a.out_indices),
                            a.out_words,
                            a.out_items,
                            inc(a.out_item_indices),
                            a.ref_corrected,
                            a.out_corrected,
                            a.case,
                            a.matrix_ref,
                            a.matrix_out,
                            a.autoprf_matches,
                            a.autoprf_ref,
                            a.autoprf_out,
                            a.restricted_match,
                            a.restricted_ref,
                            a.restricted_out,
                        )
                    )
        wh.delete("pronoun analyses", [{"corpus": corpus, "config": c, "team": team, "run": run} for c in configs])
        wh.insert("pronoun_analyses", [dict(zip(ANALYSIS_COLUMNS, r)) for r in rows])
        total += len(rows)
    return total
