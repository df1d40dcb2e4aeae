"""Translations and pronoun evaluation in the warehouse: ingest, APT/AutoPRF configurations, reports.

Python API (the ``evalhouse ingest translations``, ``ingest pronoun-judgements`` and ``apt`` commands
are thin layers over these functions)::

    import evalhouse
    from evalhouse import translations as tr

    with evalhouse.connect("warehouse.duckdb") as wh:
        tr.ingest_translations(wh, "discomt", source="mt-output.en", reference="pronoun-test.tok.fr",
                               source_reference_alignment="pronoun-test.tok.en-fr.alig",
                               documents="doc-boundaries", pronouns="en-fr")
        tr.ingest_translations(wh, "discomt", team="mt", run="1", output="mt-output.fr",
                               source_output_alignment="mt-output.en-fr.alig")
        wh.sql("select * from apt_scores where corpus = 'discomt'").df()
        report = tr.run_apt_config(wh, "apt-es-en/config_1")   # the original APT configuration files
        print(report.score_text)                                # Score: 0.4000 ...

Every corpus gets three configurations when it is ingested (``pronoun_configs``): ``apt-a`` and
``apt-b``, seed 004's APT-A and APT-B (all six cases; weights 1, 0, 0, 0, 0, 0 and 1, 0.5, 0, 0, 0, 0;
no target list: aligned words are compared as they are; equivalence classes and APT's alignment
correction on), and ``plain`` (cases 1-4, no equivalence, no correction; weights 1, 0, 0, 0), whose APT
equals the restricted AutoPRF recall (seed 004 section 4). ``evalhouse apt`` adds more. All per-pronoun facts are
computed here in Python and stored in ``pronoun_analyses``; the views aggregate them in SQL.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Sequence

from evalhouse import __version__
from evalhouse.analysis.pronouns import (PronounSettings, analyse_segment, apt_score, render_score, AptScore,
                                         OTHER, NONE)
from evalhouse.loaders import translations as L
from evalhouse.loaders.errors import InputError

DEFAULT_CASES = (1, 2, 3, 4)
DEFAULT_WEIGHTS = (1.0, 0.5, 0.0, 0.0)
PLAIN_WEIGHTS = (1.0, 0.0, 0.0, 0.0)
APT_CASES = (1, 2, 3, 4, 5, 6)  # seed 004: every source pronoun is in the denominator
APT_A_WEIGHTS = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
APT_B_WEIGHTS = (1.0, 0.5, 0.0, 0.0, 0.0, 0.0)


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


def _warehouse_error():
    from evalhouse.warehouse import WarehouseError

    return WarehouseError


# --- pronoun sets ---------------------------------------------------------------------------
def _resolve_pronoun_set(pronouns: str | None, source_language: str | None, target_language: str | None):
    """(set name, file, source language, target language)."""
    bundled = bundled_pronoun_sets()
    if pronouns is None:
        if not source_language or not target_language:
            raise ValueError("say which pronouns to evaluate: --pronouns with a bundled set "
                             f"({', '.join(bundled)}) or a pronoun-set file, or --source-language and --target-language")
        pronouns = f"{source_language}-{target_language}"
        if pronouns not in bundled:
            raise ValueError(f"no pronoun list for language pair {pronouns}: bundled sets are {', '.join(bundled)}; "
                             "write your own (see docs/pronoun-evaluation.md) and pass it with --pronouns FILE")
    if pronouns in bundled:
        src, tgt = pronouns.split("-", 1)
        return pronouns, bundled[pronouns], source_language or src, target_language or tgt
    if not os.path.exists(pronouns):
        raise ValueError(f"--pronouns {pronouns}: neither a bundled pronoun set ({', '.join(bundled)}) nor a file")
    name = Path(pronouns).name.rsplit(".", 1)[0]
    parts = name.split("-")
    src = source_language or (parts[0] if len(parts) == 2 else None)
    tgt = target_language or (parts[1] if len(parts) == 2 else None)
    return name, pronouns, src, tgt


def _store_pronoun_set(con, name: str, rows, file: str, src: str | None, tgt: str | None) -> None:
    existing = con.execute(
        "SELECT role, pronoun, class, source_pronoun FROM pronoun_lists WHERE pronoun_set = $s ORDER BY ALL",
        {"s": name}).fetchall()
    new = sorted((r[0], r[1], r[2], r[3]) for r in rows)
    if existing and sorted(existing, key=lambda r: tuple("" if v is None else v for v in r)) == \
            sorted(new, key=lambda r: tuple("" if v is None else v for v in r)):
        return
    if existing:
        used = con.execute("SELECT count(*) FROM pronoun_configs WHERE pronoun_set = $s", {"s": name}).fetchone()[0]
        if used:
            raise _warehouse_error()(f"pronoun set '{name}' is already in the warehouse with other contents and "
                                     "scores use it; name your edited file differently")
        con.execute("DELETE FROM pronoun_lists WHERE pronoun_set = $s", {"s": name})
    import pandas as pd

    df = pd.DataFrame([(name, src, tgt, r[0], r[1], r[2], r[3], file, r[4]) for r in rows],
                      columns=["pronoun_set", "source_language", "target_language", "role", "pronoun", "class",
                               "source_pronoun", "file", "line"])
    con.register("_pl", df)
    try:
        con.execute("INSERT INTO pronoun_lists SELECT * FROM _pl")
    finally:
        con.unregister("_pl")


def settings_for(con, corpus: str, config: str) -> PronounSettings:
    row = con.execute(
        "SELECT pronoun_set, target_list, equivalence, alignment_correction, count_other_as_equal, "
        "source_separator, target_separator FROM pronoun_configs WHERE corpus = $c AND config = $k",
        {"c": corpus, "k": config}).fetchone()
    if row is None:
        raise _warehouse_error()(f"no configuration '{config}' for corpus '{corpus}'")
    pset, target_list, equivalence, correction, count_other, ssep, tsep = row
    rows = con.execute("SELECT role, pronoun, class, source_pronoun FROM pronoun_lists WHERE pronoun_set = $s "
                       "ORDER BY line", {"s": pset}).fetchall()
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
        equivalent = tuple((sp, c) for sp, c in ((sp, tuple(w for w in ws if w in listed)) for sp, ws in equivalent) if c)
    csrc = frozenset(r[1] for r in by_role.get("correction-source", [])) or source
    ctgt = frozenset(r[1] for r in by_role.get("correction-target", [])) or frozenset(target)
    return PronounSettings(source, target if target_list else None, identical, equivalent, bool(equivalence),
                           bool(correction), csrc, ctgt, bool(count_other), ssep, tsep)


# --- ingest ---------------------------------------------------------------------------------
def _links_rows(corpus, team, run, pair, links):
    rows = []
    for i, seg in enumerate(links):
        for s, ts in seg.items():
            for t in ts:
                rows.append((corpus, team, run, i + 1, pair, s + 1, t + 1, "given"))
    return rows


def _insert_links(con, rows) -> None:
    import pandas as pd

    df = pd.DataFrame(rows, columns=["corpus", "team", "run", "position", "pair", "from_index", "to_index", "method"])
    df["team"] = df["team"].astype(object)
    df["run"] = df["run"].astype(object)
    con.register("_al", df)
    try:
        con.execute("INSERT INTO alignments SELECT corpus, team, run, position::INTEGER, pair, from_index::INTEGER, "
                    "to_index::INTEGER, method FROM _al")
    finally:
        con.unregister("_al")


def ingest_translations(wh, corpus: str, *, source=None, reference=None, source_reference_alignment=None,
                        documents=None, pronouns: str | None = None, source_language: str | None = None,
                        target_language: str | None = None, team: str | None = None, run: str | None = None,
                        output=None, source_output_alignment=None, replace: bool = False,
                        skip_bad_alignment_lines: bool = False, _pronoun_rows=None, _configs=None) -> TranslationSummary:
    """Ingest a parallel corpus (source, reference, source-reference alignment, optional documents)
    and/or one system output (team, run, output, source-output alignment) in one transaction.

    Computes the pronoun analyses of every configuration of the corpus for the new system. Raises
    :class:`InputError` (bad input), ``ValueError`` (bad usage) or ``WarehouseError``; nothing changes then.
    """
    WarehouseError = _warehouse_error()
    corpus_part = any(x is not None for x in (source, reference, source_reference_alignment, documents))
    system_part = any(x is not None for x in (team, run, output, source_output_alignment))
    if not corpus_part and not system_part:
        raise ValueError("nothing to ingest: give --source/--reference/--source-reference-alignment, "
                         "or --team/--run/--output/--source-output-alignment, or both")
    if corpus_part and None in (source, reference, source_reference_alignment):
        raise ValueError("a corpus needs --source, --reference and --source-reference-alignment")
    if system_part and None in (team, run, output, source_output_alignment):
        raise ValueError("a system output needs --team, --run, --output and --source-output-alignment")
    con = wh.con
    normalisations: list[str] = []
    # --- read and validate everything before touching the warehouse
    if corpus_part:
        src = L.read_segments(source)
        ref = L.read_segments(reference)
        src_tok = [L.tokens(l) for l in src.lines]
        ref_tok = [L.tokens(l) for l in ref.lines]
        if len(ref_tok) != len(src_tok):
            raise InputError(ref.name, min(len(ref_tok), len(src_tok)) + 1,
                             f"reference has {len(ref_tok)} lines but the source {src.name} has {len(src_tok)}")
        sra, sr_links, sr_skipped = L.read_alignment(source_reference_alignment, src_tok, ref_tok, "source", "reference",
                                                     skip_bad_alignment_lines)
        files = [src, ref, sra]
        doc_ids = [corpus] * len(src_tok)
        if documents is not None:
            docf, doc_ids = L.read_documents(documents, len(src_tok))
            files.append(docf)
        for f in files:
            normalisations += f.normalisations
        if _pronoun_rows is None:
            pset, pfile, slang, tlang = _resolve_pronoun_set(pronouns, source_language, target_language)
            pf = L.read_pronoun_set(pfile)
            prows = pf.rows
        else:
            pset, pfile, slang, tlang, prows = _pronoun_rows
    else:
        exists = con.execute("SELECT segments FROM translation_corpora WHERE corpus = $c", {"c": corpus}).fetchone()
        if exists is None:
            have = [r[0] for r in con.execute("SELECT corpus FROM translation_corpora ORDER BY 1").fetchall()]
            raise WarehouseError(f"no translation corpus '{corpus}' in {wh.path} (have: {', '.join(have) or 'none'}); "
                                 "ingest its source and reference first")
        rows = con.execute("SELECT source FROM segments WHERE corpus = $c ORDER BY position", {"c": corpus}).fetchall()
        src_tok = [L.tokens(r[0]) for r in rows]
        src = None
    if system_part:
        out = L.read_segments(output)
        out_tok = [L.tokens(l) for l in out.lines]
        if len(out_tok) != len(src_tok):
            raise InputError(out.name, min(len(out_tok), len(src_tok)) + 1,
                             f"output has {len(out_tok)} lines but the source has {len(src_tok)}")
        soa, so_links, so_skipped = L.read_alignment(source_output_alignment, src_tok, out_tok, "source", "output",
                                                     skip_bad_alignment_lines)
        sys_norm = out.normalisations + soa.normalisations
        normalisations += sys_norm
    now = _dt.datetime.now(_dt.timezone.utc)
    con.execute("BEGIN")
    try:
        import pandas as pd

        if corpus_part:
            if con.execute("SELECT count(*) FROM translation_corpora WHERE corpus = $c", {"c": corpus}).fetchone()[0]:
                if not replace:
                    raise WarehouseError(f"translation corpus '{corpus}' is already in {wh.path}; use --replace to replace it")
                delete_translation_corpus(con, corpus)
            _store_pronoun_set(con, pset, prows, pfile, slang, tlang)
            con.execute("INSERT INTO translation_corpora VALUES ($c, $sl, $tl, $ps, $n, $d, $files, $sha, $norm, $sk, $v, $now)",
                        {"c": corpus, "sl": slang, "tl": tlang, "ps": pset, "n": len(src_tok),
                         "d": len(dict.fromkeys(doc_ids)), "files": [f.name for f in files],
                         "sha": [f.sha256 for f in files], "norm": normalisations, "sk": sr_skipped,
                         "v": __version__, "now": now})
            df = pd.DataFrame({"corpus": corpus, "position": range(1, len(src_tok) + 1), "document": doc_ids,
                               "source": src.lines, "reference": ref.lines})
            con.register("_seg", df)
            con.execute("INSERT INTO segments SELECT corpus, position::INTEGER, document, source, reference FROM _seg")
            con.unregister("_seg")
            _insert_links(con, _links_rows(corpus, None, None, "source-reference", sr_links))
            for config in (_configs if _configs is not None else _default_configs(pset)):
                _insert_config(con, corpus, config, now)
        if system_part:
            if con.execute("SELECT count(*) FROM translation_systems WHERE corpus = $c AND team = $t AND run = $r",
                           {"c": corpus, "t": team, "r": run}).fetchone()[0]:
                if not replace:
                    raise WarehouseError(f"system {team}/{run} of corpus '{corpus}' is already in {wh.path}; "
                                         "use --replace to replace it")
                delete_translation_system(con, corpus, team, run)
            con.execute("INSERT INTO translation_systems VALUES ($c, $t, $r, $files, $sha, $norm, $sk, $v, $now)",
                        {"c": corpus, "t": team, "r": run, "files": [out.name, soa.name],
                         "sha": [out.sha256, soa.sha256], "norm": sys_norm, "sk": so_skipped,
                         "v": __version__, "now": now})
            df = pd.DataFrame({"corpus": corpus, "team": team, "run": run, "position": range(1, len(out_tok) + 1),
                               "output": out.lines})
            con.register("_out", df)
            con.execute("INSERT INTO translation_outputs SELECT corpus, team, run, position::INTEGER, output FROM _out")
            con.unregister("_out")
            _insert_links(con, _links_rows(corpus, team, run, "source-output", so_links))
        n = None
        if system_part:
            configs = [r[0] for r in con.execute("SELECT config FROM pronoun_configs WHERE corpus = $c ORDER BY config",
                                                 {"c": corpus}).fetchall()]
            known = {("source-output", team, run): so_links}
            if corpus_part:
                known[("source-reference", None, None)] = sr_links
            n = compute_analyses(con, corpus, configs, [(team, run)], known) // max(len(configs), 1)
        elif replace:
            pass
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    docs = len(dict.fromkeys(doc_ids)) if corpus_part else None
    return TranslationSummary(corpus, len(src_tok), docs, (team, run) if system_part else None, n, tuple(normalisations))


def delete_translation_corpus(con, corpus: str) -> None:
    for table in ("pronoun_judgements", "pronoun_analyses", "pronoun_configs", "translation_outputs",
                  "translation_systems", "segments", "translation_corpora"):
        con.execute(f"DELETE FROM {table} WHERE corpus = $c", {"c": corpus})
    con.execute("DELETE FROM alignments WHERE corpus = $c AND pair IN ('source-reference', 'source-output')",
                {"c": corpus})


def delete_translation_system(con, corpus: str, team: str, run: str) -> None:
    for table in ("pronoun_analyses", "translation_outputs", "translation_systems"):
        con.execute(f"DELETE FROM {table} WHERE corpus = $c AND team = $t AND run = $r", {"c": corpus, "t": team, "r": run})
    con.execute("DELETE FROM alignments WHERE corpus = $c AND team = $t AND run = $r AND pair = 'source-output'",
                {"c": corpus, "t": team, "r": run})


@dataclass(frozen=True)
class ConfigSpec:
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


def _default_configs(pset: str) -> list[ConfigSpec]:
    return [ConfigSpec("apt-a", pset, cases=APT_CASES, weights=APT_A_WEIGHTS,
                       origin="built-in: APT-A of seed 004 (all six cases, alignment correction)"),
            ConfigSpec("apt-b", pset, cases=APT_CASES, weights=APT_B_WEIGHTS,
                       origin="built-in: APT-B of seed 004 (all six cases, alignment correction)"),
            ConfigSpec("plain", pset, equivalence=False, alignment_correction=False, weights=PLAIN_WEIGHTS,
                       origin="built-in: cases 1-4, no equivalence, no alignment correction (= restricted AutoPRF recall)")]


def _insert_config(con, corpus: str, spec: ConfigSpec, now) -> None:
    if len(spec.weights) != len(spec.cases):
        raise ValueError(f"{len(spec.cases)} cases but {len(spec.weights)} weights; give one weight per case")
    bad = [c for c in spec.cases if c not in range(1, 7)]
    if bad or not spec.cases or len(set(spec.cases)) != len(spec.cases):
        raise ValueError(f"cases must be distinct numbers 1-6, got {list(spec.cases)}")
    if any(not 0 <= w <= 1 for w in spec.weights):
        raise ValueError(f"weights must lie in [0, 1], got {list(spec.weights)}")
    con.execute("INSERT INTO pronoun_configs VALUES ($c, $k, $ps, $tl, $eq, $ac, $co, $cases, $w, $ss, $ts, $o, $v, $now)",
                {"c": corpus, "k": spec.config, "ps": spec.pronoun_set, "tl": spec.target_list, "eq": spec.equivalence,
                 "ac": spec.alignment_correction, "co": spec.count_other_as_equal, "cases": list(spec.cases),
                 "w": [float(w) for w in spec.weights], "ss": spec.source_separator, "ts": spec.target_separator,
                 "o": spec.origin, "v": __version__, "now": now})


def _links_from_db(con, corpus: str, pair: str, team, run, segments: int) -> list[dict[int, list[int]]]:
    arrays = con.execute(
        "SELECT position, from_index, to_index FROM alignments "
        "WHERE corpus = $c AND pair = $p AND team IS NOT DISTINCT FROM $t AND run IS NOT DISTINCT FROM $r "
        "ORDER BY position, from_index, to_index", {"c": corpus, "p": pair, "t": team, "r": run}).fetchnumpy()
    links: list[dict[int, list[int]]] = [dict() for _ in range(segments)]
    for pos, s, t in zip(arrays["position"].tolist(), arrays["from_index"].tolist(), arrays["to_index"].tolist()):
        links[pos - 1].setdefault(s - 1, []).append(t - 1)
    return links


ANALYSIS_COLUMNS = ["corpus", "config", "team", "run", "position", "source_index", "source_token", "source_pronoun",
                    "reference_indices", "reference_words", "reference_items", "reference_item_indices",
                    "output_indices", "output_words", "output_items", "output_item_indices",
                    "reference_corrected", "output_corrected", "apt_case", "matrix_reference", "matrix_output",
                    "autoprf_matches", "autoprf_reference", "autoprf_output", "restricted_match",
                    "restricted_reference", "restricted_output"]


def compute_analyses(con, corpus: str, configs: str | Sequence[str],
                     systems: Sequence[tuple[str, str]] | None = None, _links: dict | None = None) -> int:
    """(Re)compute ``pronoun_analyses`` of configurations for the given systems (default: all)."""
    import pandas as pd

    if isinstance(configs, str):
        configs = [configs]
    all_settings = [(config, settings_for(con, corpus, config)) for config in configs]
    segs = con.execute("SELECT source, reference FROM segments WHERE corpus = $c ORDER BY position", {"c": corpus}).fetchall()
    src_tok = [L.tokens(s) for s, _ in segs]
    ref_tok = [L.tokens(r) for _, r in segs]
    _links = _links or {}  # links already in memory at ingest (the same values the alignments table holds)
    ref_links = _links.get(("source-reference", None, None)) or _links_from_db(
        con, corpus, "source-reference", None, None, len(segs))
    corpus_skipped = set(con.execute("SELECT skipped_positions FROM translation_corpora WHERE corpus = $c",
                                     {"c": corpus}).fetchone()[0])
    if systems is None:
        systems = con.execute("SELECT team, run FROM translation_systems WHERE corpus = $c ORDER BY team, run",
                              {"c": corpus}).fetchall()
    total = 0
    for team, run in systems:
        outs = con.execute("SELECT output FROM translation_outputs WHERE corpus = $c AND team = $t AND run = $r "
                           "ORDER BY position", {"c": corpus, "t": team, "r": run}).fetchall()
        out_tok = [L.tokens(o) for (o,) in outs]
        out_links = _links.get(("source-output", team, run)) or _links_from_db(
            con, corpus, "source-output", team, run, len(segs))
        skipped = corpus_skipped | set(con.execute(
            "SELECT skipped_positions FROM translation_systems WHERE corpus = $c AND team = $t AND run = $r",
            {"c": corpus, "t": team, "r": run}).fetchone()[0])
        rows = []
        inc = lambda xs: [x + 1 for x in xs]
        for config, settings in all_settings:
            for i in range(len(segs)):
                if i + 1 in skipped:
                    continue
                for a in analyse_segment(src_tok[i], ref_tok[i], out_tok[i], ref_links[i], out_links[i], settings):
                    rows.append((corpus, config, team, run, i + 1, a.source_index + 1, a.source_token,
                                 a.source_pronoun, inc(a.ref_indices), a.ref_words, a.ref_items,
                                 inc(a.ref_item_indices), inc(a.out_indices), a.out_words, a.out_items,
                                 inc(a.out_item_indices), a.ref_corrected, a.out_corrected, a.case, a.matrix_ref,
                                 a.matrix_out, a.autoprf_matches, a.autoprf_ref, a.autoprf_out,
                                 a.restricted_match, a.restricted_ref, a.restricted_out))
        con.execute("DELETE FROM pronoun_analyses WHERE corpus = $c AND list_contains($k, config) AND team = $t "
                    "AND run = $r", {"c": corpus, "k": list(configs), "t": team, "r": run})
        if rows:
            df = pd.DataFrame(rows, columns=ANALYSIS_COLUMNS)
            con.register("_pa", df)
            try:
                con.execute(
                    "INSERT INTO pronoun_analyses SELECT corpus, config, team, run, position::INTEGER, source_index::INTEGER, "
                    "source_token, source_pronoun, reference_indices::INTEGER[], reference_words::VARCHAR[], "
                    "reference_items::VARCHAR[], reference_item_indices::INTEGER[], output_indices::INTEGER[], "
                    "output_words::VARCHAR[], output_items::VARCHAR[], output_item_indices::INTEGER[], "
                    "reference_corrected, output_corrected, apt_case::INTEGER, matrix_reference, matrix_output, "
                    "autoprf_matches::INTEGER, autoprf_reference::INTEGER, autoprf_output::INTEGER, "
                    "restricted_match::INTEGER, restricted_reference::INTEGER, restricted_output::INTEGER FROM _pa")
            finally:
                con.unregister("_pa")
        total += len(rows)
    return total


def add_config(wh, corpus: str, spec: ConfigSpec, replace: bool = False) -> int:
    """Add a configuration to a corpus and compute its analyses for every system (one transaction)."""
    con = wh.con
    if con.execute("SELECT count(*) FROM translation_corpora WHERE corpus = $c", {"c": corpus}).fetchone()[0] == 0:
        raise _warehouse_error()(f"no translation corpus '{corpus}' in {wh.path}")
    con.execute("BEGIN")
    try:
        if con.execute("SELECT count(*) FROM pronoun_configs WHERE corpus = $c AND config = $k",
                       {"c": corpus, "k": spec.config}).fetchone()[0]:
            if not replace:
                raise _warehouse_error()(f"configuration '{spec.config}' of corpus '{corpus}' exists; use --replace")
            con.execute("DELETE FROM pronoun_analyses WHERE corpus = $c AND config = $k", {"c": corpus, "k": spec.config})
            con.execute("DELETE FROM pronoun_configs WHERE corpus = $c AND config = $k", {"c": corpus, "k": spec.config})
        _insert_config(con, corpus, spec, _dt.datetime.now(_dt.timezone.utc))
        n = compute_analyses(con, corpus, spec.config)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return n


# --- reports --------------------------------------------------------------------------------
@dataclass(frozen=True)
class AptReport:
    corpus: str
    config: str
    team: str
    run: str
    score: AptScore
    score_text: str
    detail_text: str


def apt_report(wh, corpus: str, config: str, team: str, run: str, max_labels: int = 10) -> AptReport:
    """APT of one system under one configuration, with APT's .score and .detail texts."""
    con = wh.con
    cfg = con.execute("SELECT cases, weights, pronoun_set, target_list FROM pronoun_configs WHERE corpus = $c AND config = $k",
                      {"c": corpus, "k": config}).fetchone()
    if cfg is None:
        raise _warehouse_error()(f"no configuration '{config}' for corpus '{corpus}'")
    cases, weights, pset, target_list = cfg
    rows = con.execute(
        "SELECT position, source_index, source_pronoun, reference_item_indices, reference_items, output_item_indices, "
        "output_items, apt_case, matrix_reference, matrix_output FROM pronoun_analyses "
        "WHERE corpus = $c AND config = $k AND team = $t AND run = $r ORDER BY position, source_index",
        {"c": corpus, "k": config, "t": team, "r": run}).fetchall()
    if not rows and not con.execute("SELECT count(*) FROM translation_systems WHERE corpus = $c AND team = $t AND run = $r",
                                    {"c": corpus, "t": team, "r": run}).fetchone()[0]:
        raise _warehouse_error()(f"no system {team}/{run} for corpus '{corpus}'")
    score = apt_score(Counter(r[7] for r in rows), cases, weights)
    labels = None
    if target_list:
        labels = [p for (p,) in con.execute("SELECT DISTINCT pronoun FROM pronoun_lists WHERE pronoun_set = $s "
                                            "AND role = 'target'", {"s": pset}).fetchall()] + [OTHER, NONE]
    cells = [(r[8], r[9]) for r in rows if r[7] in cases]
    text = render_score(score, cells, max_labels, labels)
    detail = ["\t".join(["SENT.", "POS. SOURCE", "SOURCE", "POS. REF.", "REF.", "POS. TARGET", "TARGET", "CASE"])]
    for pos, si, sp, ri, rw, oi, ow, case, _, _ in rows:
        detail.append("\t".join([str(pos - 1), str(si - 1), sp,
                                 " ".join(str(i - 1) for i in ri) or "-", " ".join(rw) or "-",
                                 " ".join(str(i - 1) for i in oi) or "-", " ".join(ow) or "-", str(case)]))
    return AptReport(corpus, config, team, run, score, text, "\n".join(detail) + "\n")


def run_apt_config(wh, config_path, corpus: str | None = None, team: str = "system", run: str | None = None,
                   replace: bool = False) -> AptReport:
    """Run an original APT configuration file: ingest its files as a corpus (default name: the config
    file's name) and one system, store the configuration, and return APT's report."""
    cfg = L.read_apt_config(config_path)
    corpus = corpus or Path(cfg.path).name
    run = run or Path(cfg.target).name
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
    for role, path in (("correction-source", cfg.dict_source_pronouns), ("correction-target", cfg.dict_target_pronouns)):
        if path:
            _, words = L.read_word_list(path)
            rows += [(role, w, None, None, i + 1) for i, w in enumerate(words)]
    # APT runs its correction with these dictionaries; with neither given it changes nothing
    correction = bool(cfg.dict_source_pronouns and cfg.dict_target_pronouns)
    spec = ConfigSpec("apt-config", name, target_list=bool(cfg.list_target_pronouns), equivalence=bool(cfg.similar),
                      alignment_correction=correction, count_other_as_equal=cfg.count_other_as_equal,
                      cases=tuple(cfg.cases), weights=tuple(cfg.weights), source_separator=cfg.source_separator,
                      target_separator=cfg.target_separator, origin=f"APT configuration file {cfg.path}")
    ingest_translations(wh, corpus, source=cfg.source, reference=cfg.reference,
                        source_reference_alignment=cfg.alignment_source_reference, team=team, run=run,
                        output=cfg.target, source_output_alignment=cfg.alignment_source_target, replace=replace,
                        _pronoun_rows=(name, cfg.list_source_pronouns, cfg.source_language, cfg.target_language, rows),
                        _configs=[spec])
    return apt_report(wh, corpus, "apt-config", team, run, cfg.max_length_matrix)


# --- human judgements -----------------------------------------------------------------------
def ingest_pronoun_judgements(wh, path, corpus: str, replace: bool = False) -> int:
    """Ingest a judgements CSV (team,run,position,source_index,category,judgement) for a corpus.

    Every judged pronoun must be a source pronoun of an ingested system (found in pronoun_analyses).
    """
    con = wh.con
    f, judgements = L.read_judgements(path)
    if con.execute("SELECT count(*) FROM translation_corpora WHERE corpus = $c", {"c": corpus}).fetchone()[0] == 0:
        raise _warehouse_error()(f"no translation corpus '{corpus}' in {wh.path}")
    known = {tuple(r) for r in con.execute(
        "SELECT DISTINCT team, run, position, source_index FROM pronoun_analyses WHERE corpus = $c", {"c": corpus}).fetchall()}
    for j in judgements:
        if (j.team, j.run, j.position, j.source_index) not in known:
            raise InputError(f.name, j.line, f"system {j.team}/{j.run} has no source pronoun at segment {j.position}, "
                                             f"token {j.source_index} in corpus '{corpus}'")
    con.execute("BEGIN")
    try:
        if con.execute("SELECT count(*) FROM pronoun_judgements WHERE corpus = $c", {"c": corpus}).fetchone()[0]:
            if not replace:
                raise _warehouse_error()(f"corpus '{corpus}' already has pronoun judgements; use --replace to replace them")
            con.execute("DELETE FROM pronoun_judgements WHERE corpus = $c", {"c": corpus})
        con.executemany("INSERT INTO pronoun_judgements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [(corpus, j.team, j.run, j.position, j.source_index, j.category, j.judgement, f.name, j.line)
                         for j in judgements])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return len(judgements)
