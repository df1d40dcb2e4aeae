"""Ingesting system outputs: read, tokenise, align to the reference, materialise statistics.

    import evalhouse
    with evalhouse.connect("warehouse.duckdb") as wh:
        wh.ingest_outputs("run1.txt", team="adapt", run="1", reference="en_ewt-test")
        wh.sql("select * from submission_scores").df()

Everything one call ingests is one transaction: a bad file anywhere leaves the warehouse unchanged.
What needs Python (tokenisation, alignment, BLEU n-gram statistics, edit counts) is computed here and
written to ``output_tokens``, ``alignments`` and ``sentence_statistics``; DEA, BLEU and the
accuracies are then plain SQL views (``dea_edges``, ``sentence_scores``, ...).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from evalhouse import __version__
from evalhouse.analysis import accuracy, alignment, bleu
from evalhouse.loaders.errors import InputError
from evalhouse.loaders.outputs import OutputFile, OutputSentence, SubmissionFile, read_output_file

CONFIGURATION = "|".join([
    "tokenisation:reference-guided", alignment.ALIGNMENT_VERSION,
    "dea:case-folded-lemmas,punct-stripped",
    "bleu:" + bleu.SIGNATURE + ",tokens:case-folded-lemmas,punct:removed",
    "bleu_surface:tokens:forms,case:preserved,punct:kept",
    "accuracy:" + accuracy.SIGNATURE + ",tokens:case-folded-lemmas,punct:removed,tree:stripped-reference",
    "understandability/quality:STA+string-substitutions",
    f"evalhouse:{__version__}",
])


@dataclass(frozen=True)
class SubmissionSummary:
    team: str
    run: str
    corpus: str
    source_file: str
    format: str
    sentences: int
    given_sentences: int
    missing_positions: tuple[int, ...]


@dataclass
class Reference:
    """The reference corpus as the scorer needs it, read once per corpus."""

    corpus: str
    sent_ids: list[str]
    sentences: list[alignment.ReferenceSentence]
    stripped_ids: list[list[int]]  # node ids of the non-punct words, in order
    stripped_heads: list[list[int]]  # stripped head positions (0 root), same order
    stripped_keys: list[list[str]]  # case-folded lemmas of those words (the BLEU and accuracy tokens)

    @property
    def size(self) -> int:
        return len(self.sentences)


def load_reference(con, corpus: str) -> Reference:
    sent = con.execute("SELECT position, sent_id FROM sentences WHERE corpus = $c ORDER BY position",
                       {"c": corpus}).fetchall()
    nodes = con.execute(
        "SELECT position, id, form, lemma, deprel, NOT list_contains(string_split(misc, '|'), 'SpaceAfter=No') "
        "FROM nodes WHERE corpus = $c ORDER BY position, id", {"c": corpus}).fetchall()
    mwts = con.execute(
        "SELECT position, first_id, last_id, form, NOT list_contains(string_split(misc, '|'), 'SpaceAfter=No') "
        "FROM multiword_tokens WHERE corpus = $c ORDER BY position, first_id", {"c": corpus}).fetchall()
    edges = con.execute("SELECT position, dependent_id, head FROM edges WHERE corpus = $c ORDER BY position, dependent",
                        {"c": corpus}).fetchall()
    n = len(sent)
    cols: list[tuple[list, list, list, list, list]] = [([], [], [], [], []) for _ in range(n)]
    for pos, i, form, lemma, deprel, space in nodes:
        c = cols[pos - 1]
        c[0].append(i); c[1].append(form); c[2].append(lemma); c[3].append(deprel); c[4].append(bool(space))
    mw: list[list] = [[] for _ in range(n)]
    for pos, first, last, form, space in mwts:
        mw[pos - 1].append((first, last, form, bool(space)))
    s_ids: list[list[int]] = [[] for _ in range(n)]
    s_heads: list[list[int]] = [[] for _ in range(n)]
    for pos, dep_id, head in edges:
        s_ids[pos - 1].append(dep_id)
        s_heads[pos - 1].append(head)
    sentences = [alignment.ReferenceSentence(*cols[k], multiword=mw[k]) for k in range(n)]
    keys = []
    for rs, ids in zip(sentences, s_ids):
        folded = dict(zip(rs.ids, rs.folded_lemmas))
        keys.append([folded[i] for i in ids])
    return Reference(corpus, [s for _, s in sent], sentences, s_ids, s_heads, keys)


def match_sentences(out: OutputFile, ref: Reference) -> dict[int, OutputSentence]:
    """Reference position -> output sentence, validating sent_ids and counts."""
    by_pos: dict[int, OutputSentence] = {}
    if out.format == "lines":
        if len(out.sentences) != ref.size:
            raise InputError(out.name, len(out.sentences) or None,
                             f"{len(out.sentences)} lines, but reference corpus {ref.corpus} has {ref.size} sentences "
                             "(format lines needs one line per reference sentence)")
        return {k: s for k, s in enumerate(out.sentences, start=1)}
    if out.format == "conllu":
        index = {sid: k for k, sid in enumerate(ref.sent_ids, start=1)}
        with_id = [s for s in out.sentences if s.key]
        if not with_id:  # no sent_ids at all: sentence i realises reference sentence i
            if len(out.sentences) != ref.size:
                raise InputError(out.name, None,
                                 f"{len(out.sentences)} sentences without '# sent_id', but reference corpus "
                                 f"{ref.corpus} has {ref.size}; give '# sent_id' comments or one sentence per "
                                 "reference sentence")
            return {k: s for k, s in enumerate(out.sentences, start=1)}
        for s in out.sentences:
            if not s.key:
                raise InputError(out.name, s.line, "sentence without '# sent_id' in a file whose other sentences "
                                 "have one")
            pos = index.get(s.key)
            if pos is None and s.key.isdigit() and 1 <= int(s.key) <= ref.size:
                pos = int(s.key)
            if pos is None:
                raise InputError(out.name, s.line, f"unknown sent_id {s.key!r}: not a sent_id or position of "
                                 f"reference corpus {ref.corpus}")
            if pos in by_pos:
                raise InputError(out.name, s.line, f"duplicate sent_id {s.key} (first at line {by_pos[pos].line})")
            by_pos[pos] = s
        return by_pos
    for s in out.sentences:  # sr: sent_id is the reference position
        key = s.key
        if not key.isdigit() or not 1 <= int(key) <= ref.size:
            raise InputError(out.name, s.line,
                             f"unknown sent_id {key!r}: reference corpus {ref.corpus} has positions 1..{ref.size}")
        pos = int(key)
        if pos in by_pos:
            raise InputError(out.name, s.line, f"duplicate sent_id {key} (first at line {by_pos[pos].line})")
        by_pos[pos] = s
    return by_pos


def score_submission(out: OutputFile, ref: Reference, team: str, run: str):
    """Tokenise, align and compute per-sentence statistics; returns column dicts for each table."""
    by_pos = match_sentences(out, ref)
    n = ref.size
    texts, missing_flags, lines = [], [], []
    tok_pos, tok_index, forms, lemmas, sources, puncts, stripped_pos, ref_ids_out, methods = ([] for _ in range(9))
    lemma_h, lemma_r, surf_h, surf_r = [], [], [], []
    string_counts, tree_counts = [], []
    missing = []
    for pos in range(1, n + 1):
        rs = ref.sentences[pos - 1]
        o = by_pos.get(pos)
        if o is None:
            missing.append(pos)
            toks: list[alignment.OutputToken] = []
            texts.append(None)
            lines.append(None)
        elif o.forms is not None:
            toks = alignment.align(o.forms, rs, lemmas=o.lemmas)
            texts.append(" ".join(o.forms))
            lines.append(o.line)
        else:
            toks = alignment.align(alignment.tokenise(o.text, rs), rs)
            texts.append(o.text)
            lines.append(o.line)
        missing_flags.append(o is None)
        stripped = 0
        where: dict[int, int] = {}  # reference node id -> stripped output position
        hyp_keys = []
        sp_list = []
        for t in toks:
            if t.punct:
                sp_list.append(None)
                continue
            stripped += 1
            sp_list.append(stripped)
            hyp_keys.append(t.lemma.casefold())
            if t.reference_id is not None:
                where[t.reference_id] = stripped
        k = len(toks)
        tok_pos.extend([pos] * k)
        tok_index.extend(range(1, k + 1))
        forms.extend([t.form for t in toks])
        lemmas.extend([t.lemma for t in toks])
        sources.extend([t.lemma_source for t in toks])
        puncts.extend([t.punct for t in toks])
        stripped_pos.extend(sp_list)
        ref_ids_out.extend([t.reference_id for t in toks])
        methods.extend([t.method for t in toks])
        ref_ids = ref.stripped_ids[pos - 1]
        ref_keys = ref.stripped_keys[pos - 1]
        lemma_h.append(hyp_keys)
        lemma_r.append(ref_keys)
        surf_h.append(forms[len(forms) - k:])
        surf_r.append(rs.forms)
        string_counts.append(accuracy.edit_counts(ref_keys, hyp_keys))
        tree_counts.append(accuracy.tree_counts(ref.stripped_heads[pos - 1], [where.get(i) for i in ref_ids],
                                                output_length=stripped))
    lemma_stats = bleu.bleu_statistics(lemma_h, lemma_r)
    surf_stats = bleu.bleu_statistics(surf_h, surf_r)
    m = len(tok_pos)
    positions = list(range(1, n + 1))
    sentences = {"team": [team] * n, "run": [run] * n, "corpus": [ref.corpus] * n, "position": positions,
                 "text": texts, "missing": missing_flags, "source_line": lines}
    tokens = {"team": [team] * m, "run": [run] * m, "corpus": [ref.corpus] * m, "position": tok_pos,
              "token": tok_index, "form": forms, "lemma": lemmas, "lemma_source": sources, "punct": puncts,
              "stripped_position": stripped_pos}
    links = {"corpus": [ref.corpus] * m, "team": [team] * m, "run": [run] * m, "position": tok_pos,
             "pair": ["output-reference"] * m, "from_index": tok_index, "to_index": ref_ids_out, "method": methods}
    stats = {
        "team": [team] * n, "run": [run] * n, "corpus": [ref.corpus] * n, "position": positions,
        "bleu_hypothesis_length": lemma_stats.hyp_len, "bleu_reference_length": lemma_stats.ref_len,
        "bleu_matches": lemma_stats.matches.tolist(), "bleu_totals": lemma_stats.totals.tolist(),
        "surface_hypothesis_length": surf_stats.hyp_len, "surface_reference_length": surf_stats.ref_len,
        "surface_matches": surf_stats.matches.tolist(), "surface_totals": surf_stats.totals.tolist(),
    }
    for prefix, counts in (("string", string_counts), ("tree", tree_counts)):
        stats[f"{prefix}_insertions"] = [c.insertions for c in counts]
        stats[f"{prefix}_deletions"] = [c.deletions for c in counts]
        stats[f"{prefix}_substitutions"] = [c.substitutions for c in counts]
        stats[f"{prefix}_moves"] = [c.moves for c in counts]
        stats[f"{prefix}_reference_length"] = [c.reference_length for c in counts]
    return sentences, tokens, links, stats, missing, len(by_pos)


def _arrow(columns: dict):
    import pyarrow as pa

    return pa.table({k: (v if not isinstance(v, np.ndarray) else pa.array(v)) for k, v in columns.items()})


def _insert(con, table: str, columns) -> None:
    frame = columns if not isinstance(columns, dict) else _arrow(columns)
    names = ", ".join(frame.column_names)
    con.register("_eh_frame", frame)
    try:
        con.execute(f"INSERT INTO {table} ({names}) SELECT {names} FROM _eh_frame")
    finally:
        con.unregister("_eh_frame")


SUBMISSION_TABLES = ("output_sentences", "output_tokens", "sentence_statistics", "judgements", "submissions")


def delete_submission(con, team: str, run: str, corpus: str) -> None:
    for table in SUBMISSION_TABLES:
        con.execute(f"DELETE FROM {table} WHERE team = $t AND run = $r AND corpus = $c",
                    {"t": team, "r": run, "c": corpus})
    con.execute("DELETE FROM alignments WHERE pair = 'output-reference' AND team = $t AND run = $r AND corpus = $c",
                {"t": team, "r": run, "c": corpus})


_WORKER_REFERENCE: Reference | None = None


def _score_file(f: SubmissionFile):
    """Read and score one file (runs in a worker process; the reference comes from the parent by fork).

    The columns go back as Arrow tables, which cross the process boundary as buffers."""
    try:
        out = read_output_file(f.path, f.format)
        sentences, tokens, links, stats, missing, given = score_submission(out, _WORKER_REFERENCE, f.team, f.run)
        return out, (_arrow(sentences), _arrow(tokens), _arrow(links), _arrow(stats), missing, given)
    except Exception as err:  # handed back as a value: the parent re-raises it, no pool machinery involved
        return err, None


def _scored(files: Sequence[SubmissionFile], ref: Reference, workers: int):
    """Yield (file, output, scores) in order; several files are scored in parallel processes."""
    global _WORKER_REFERENCE
    import multiprocessing
    import os

    if workers <= 0:
        workers = os.cpu_count() or 1
    workers = min(workers, len(files))
    _WORKER_REFERENCE = ref
    try:
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                yield from zip(files, pool.imap(_score_file, files))
        else:
            for f in files:
                yield f, _score_file(f)
    finally:
        _WORKER_REFERENCE = None


def ingest_submissions(wh, files: Sequence[SubmissionFile], reference: str, replace: bool = False,
                       progress=None, configuration_note: str | None = None, workers: int = 0) -> list[SubmissionSummary]:
    """Ingest output files against one reference corpus, all in one transaction.

    Files are read and scored in ``workers`` processes (0: one per core); the warehouse is written
    by this process only, in file order.
    """
    from evalhouse.warehouse import WarehouseError

    con = wh.con
    if reference not in wh.corpora():
        raise WarehouseError(f"no reference corpus '{reference}' in {wh.path} "
                             f"(have: {', '.join(wh.corpora()) or 'none'}); ingest it with 'evalhouse ingest treebank'")
    seen = set()
    for f in files:
        if (f.team, f.run) in seen:
            raise WarehouseError(f"team {f.team} run {f.run} is given twice for corpus {reference}")
        seen.add((f.team, f.run))
    existing = {(t, r) for t, r in con.execute("SELECT team, run FROM submissions WHERE corpus = $c",
                                                 {"c": reference}).fetchall()}
    clash = [f for f in files if (f.team, f.run) in existing]
    if clash and not replace:
        raise WarehouseError(f"team {clash[0].team} run {clash[0].run} on {reference} is already in {wh.path}; "
                             "use --replace to replace it")
    ref = load_reference(con, reference)
    summaries = []
    con.execute("BEGIN")
    try:
        now = _dt.datetime.now(_dt.timezone.utc)
        for i, (f, (out, scores)) in enumerate(_scored(files, ref, workers)):
            if isinstance(out, Exception):
                raise out
            if progress:
                progress(f.path, i, len(files))
            if (f.team, f.run) in existing:
                delete_submission(con, f.team, f.run, reference)
            sentences, tokens, links, stats, missing, given = scores
            _insert(con, "output_sentences", sentences)
            _insert(con, "output_tokens", tokens)
            _insert(con, "alignments", links)
            _insert(con, "sentence_statistics", stats)
            con.execute(
                "INSERT INTO submissions VALUES ($team, $run, $corpus, $format, $file, $sha, $n, $given, $missing, "
                "$positions, $norm, $config, $version, $now)",
                {"team": f.team, "run": f.run, "corpus": reference, "format": out.format, "file": out.name,
                 "sha": out.sha256, "n": ref.size, "given": given, "missing": len(missing), "positions": missing,
                 "norm": out.normalisations,
                 "config": CONFIGURATION + (f"|{configuration_note}" if configuration_note else ""),
                 "version": __version__, "now": now})
            summaries.append(SubmissionSummary(f.team, f.run, reference, out.name, out.format, ref.size, given,
                                               tuple(missing)))
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return summaries


def ingest_judgements(wh, path) -> int:
    """Ingest a judgement CSV (one transaction); sent_ids are resolved to reference positions."""
    from evalhouse.loaders.outputs import read_judgements
    from evalhouse.warehouse import WarehouseError

    con = wh.con
    name, _sha, rows = read_judgements(path)
    subs = set(con.execute("SELECT team, run, corpus FROM submissions").fetchall())
    positions: dict[str, dict[str, int]] = {}
    cols = {k: [] for k in ("team", "run", "corpus", "position", "sent_id", "annotator", "criterion", "score",
                            "source_file", "source_line")}
    seen: dict[tuple, int] = {}
    for j in rows:
        if (j.team, j.run, j.corpus) not in subs:
            raise InputError(name, j.line, f"no submission team {j.team} run {j.run} on corpus {j.corpus} in the warehouse")
        if j.corpus not in positions:
            positions[j.corpus] = dict(con.execute("SELECT sent_id, position FROM sentences WHERE corpus = $c",
                                                   {"c": j.corpus}).fetchall())
        index = positions[j.corpus]
        pos = index.get(j.sent_id)
        if pos is None:
            if j.sent_id.isdigit() and 1 <= int(j.sent_id) <= len(index):
                pos = int(j.sent_id)
            else:
                raise InputError(name, j.line, f"unknown sent_id {j.sent_id!r} in corpus {j.corpus}")
        key = (j.team, j.run, j.corpus, pos, j.annotator, j.criterion.lower())
        if key in seen:
            raise InputError(name, j.line, f"annotator {j.annotator} already scored {j.criterion} of this sentence "
                             f"(line {seen[key]})")
        seen[key] = j.line
        for col, v in zip(cols, (j.team, j.run, j.corpus, pos, j.sent_id, j.annotator, j.criterion.lower(), j.score,
                                 name, j.line)):
            cols[col].append(v)
    con.execute("BEGIN")
    try:
        existing = 0
        if rows:
            import pandas as pd

            con.register("_eh_j", pd.DataFrame(cols))
            existing = con.execute(
                "SELECT count(*) FROM judgements j JOIN _eh_j n USING (team, run, corpus, position, annotator, criterion)"
            ).fetchone()[0]
            con.unregister("_eh_j")
        if existing:
            raise WarehouseError(f"{name}: {existing} judgements are already in {wh.path} (same sentence, annotator "
                                 "and criterion); nothing ingested")
        if rows:
            _insert(con, "judgements", cols)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return len(rows)


def run_baseline(wh, kind: str, corpus: str, team: str = "baseline", run: str | None = None,
                 train: str | None = None, seed: int = 1, out=None, replace: bool = False) -> SubmissionSummary:
    """Realise ``corpus`` with a baseline (see :mod:`evalhouse.analysis.baselines`), write the output in
    the SR format (to ``out``, or a temporary file) and ingest it as team/run."""
    import os
    import tempfile

    from evalhouse.analysis import baselines
    from evalhouse.warehouse import WarehouseError

    if kind not in baselines.KINDS:
        raise ValueError(f"unknown baseline '{kind}' (valid: {', '.join(baselines.KINDS)})")
    have = wh.corpora()
    for name in (corpus, train):
        if name is not None and name not in have:
            raise WarehouseError(f"no corpus '{name}' in {wh.path} (have: {', '.join(have) or 'none'})")
    run = run or kind
    sentences = _words(wh.con, corpus)
    if kind == "lr":
        model = baselines.train_direction_model(sentences if train in (None, corpus) else _words(wh.con, train))
        orders = [baselines.linearise_lr(ws, model) for ws in sentences]
        note = f"baseline:lr,train:{train or corpus}"
    else:
        rng = np.random.Generator(np.random.PCG64(seed))
        orders = [baselines.linearise_random(ws, rng) for ws in sentences]
        note = f"baseline:random,seed:{seed}"
    text = "".join(f"# sent_id = {k}\n# text = {' '.join(w.form for w in ws)}\n\n"
                   for k, ws in enumerate(orders, start=1))
    if out is not None:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)
        path, cleanup = os.fspath(out), None
    else:
        fd, path = tempfile.mkstemp(prefix=f"evalhouse-{kind}-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        cleanup = path
    try:
        summary = ingest_submissions(wh, [SubmissionFile(path, team, run, "sr")], corpus, replace=replace,
                                     configuration_note=note)[0]
        if cleanup:
            wh.con.execute("UPDATE submissions SET source_file = $f WHERE team = $t AND run = $r AND corpus = $c",
                           {"f": f"<generated by evalhouse baseline {kind}>", "t": team, "r": run, "c": corpus})
        return summary
    finally:
        if cleanup:
            os.unlink(cleanup)


def _words(con, corpus: str):
    from evalhouse.analysis.baselines import Word

    rows = con.execute("SELECT position, id, form, lemma, upos, head, split_part(deprel, ':', 1) FROM nodes "
                       "WHERE corpus = $c ORDER BY position, id", {"c": corpus}).fetchall()
    n = con.execute("SELECT count(*) FROM sentences WHERE corpus = $c", {"c": corpus}).fetchone()[0]
    out: list[list] = [[] for _ in range(n)]
    for pos, i, form, lemma, upos, head, rel in rows:
        out[pos - 1].append(Word(i, form, lemma, upos, head, rel))
    return out
