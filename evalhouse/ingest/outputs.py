"""``evalhouse ingest outputs``: system outputs (surface realisations) read, tokenised, aligned to the
reference tree and scored, in one transaction.

    import evalhouse
    with evalhouse.connect("warehouse.duckdb") as wh:
        wh.ingest_outputs("run1.txt", team="adapt", run="1", reference="en_ewt-test")
        wh.sql("select * from submission_scores").df()

Everything one call ingests is one transaction: a bad file anywhere leaves the warehouse unchanged.
What needs Python (tokenisation and alignment, :mod:`evalhouse.analysis.alignment`; BLEU n-gram
statistics, :mod:`evalhouse.analysis.bleu`; edit counts, :mod:`evalhouse.analysis.accuracy`) is
computed here and written to ``output_tokens``, ``alignments`` and ``sentence_statistics``; DEA, BLEU
and the accuracies are then plain SQL views (``sql/outputs/``: ``dea_edges``, ``sentence_scores``, ...).
Files are read by :mod:`evalhouse.loaders.outputs`.
"""

from __future__ import annotations

import datetime as _dt
import multiprocessing
import os
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from evalhouse.analysis import accuracy, alignment, bleu
from evalhouse.names import check_names
from evalhouse.errors import InputError, WarehouseError
from evalhouse.loaders.numbers import integer, shown
from evalhouse.loaders.outputs import (OutputFile, OutputSentence, SubmissionFile, campaign_files,
                                       read_manifest, read_output_file)
from evalhouse.progress import as_progress
from evalhouse.version import __version__, signature

# how every submission is scored (submissions.configuration; a baseline adds how it was made)
SCORING = (
    "tokenisation:reference-guided", alignment.ALIGNMENT_VERSION,
    "dea:case-folded-lemmas,punct-stripped",
    "bleu:" + bleu.SIGNATURE + ",tokens:case-folded-lemmas,punct:removed",
    "bleu_surface:tokens:forms,case:preserved,punct:kept",
    "accuracy:" + accuracy.SIGNATURE + ",tokens:case-folded-lemmas,punct:removed,tree:stripped-reference",
    "understandability/quality:STA+string-substitutions",
)


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
    judgements_kept: int = 0  # of a replaced submission: judgements whose sentence is still there
    judgements_dropped: int = 0  # ... and those deleted (``drop_judgements=True``)


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
            number = integer(s.key)  # ASCII digits only: '١' is no position (loaders/numbers.py)
            if pos is None and number is not None and 1 <= number <= ref.size:
                pos = number
            if pos is None:
                raise InputError(out.name, s.line, f"unknown sent_id {shown(s.key)}: not a sent_id or position of "
                                 f"reference corpus {ref.corpus}")
            if pos in by_pos:
                raise InputError(out.name, s.line, f"duplicate sent_id {s.key} (first at line {by_pos[pos].line})")
            by_pos[pos] = s
        return by_pos
    for s in out.sentences:  # sr: sent_id is the reference position
        key = s.key
        pos = integer(key)  # ASCII digits only: '١' is no position (loaders/numbers.py)
        if pos is None or not 1 <= pos <= ref.size:
            raise InputError(out.name, s.line,
                             f"unknown sent_id {shown(key)}: reference corpus {ref.corpus} has positions 1..{ref.size}")
        if pos in by_pos:
            raise InputError(out.name, s.line, f"duplicate sent_id {key} (first at line {by_pos[pos].line})")
        by_pos[pos] = s
    return by_pos


def score_submission(out: OutputFile, ref: Reference, team: str, run: str, tick=None):
    """Tokenise, align and compute per-sentence statistics; returns column dicts for each table.
    ``tick(k)``, when given, is called after every 100 sentences (and the rest at the end)."""
    by_pos = match_sentences(out, ref)
    n = ref.size
    texts, missing_flags, lines = [], [], []
    tok_pos, tok_index, forms, lemmas, sources, puncts, stripped_pos, ref_ids_out, methods = ([] for _ in range(9))
    lemma_h, lemma_r, surf_h, surf_r = [], [], [], []
    string_counts, tree_counts = [], []
    missing = []
    for pos in range(1, n + 1):
        if tick is not None and pos % 100 == 0:
            tick(100)
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
    """Columns as an Arrow table: how a worker process hands its results back (as buffers)."""
    # pyarrow (~0.1 s to import) only when outputs are scored: `import evalhouse.warehouse` does not pay for it
    import pyarrow as pa

    return pa.table({k: (v if not isinstance(v, np.ndarray) else pa.array(v)) for k, v in columns.items()})


_WORKER_REFERENCE: Reference | None = None


def _score_file(item: tuple[SubmissionFile, OutputFile], tick=None):
    """Score one file (runs in a worker process; the reference comes from the parent by fork).

    The columns go back as Arrow tables, which cross the process boundary as buffers. ``tick``: per-sentence
    progress, in this process only (see :func:`score_submission`)."""
    f, out = item
    try:
        sentences, tokens, links, stats, missing, given = score_submission(out, _WORKER_REFERENCE, f.team, f.run,
                                                                           tick=tick)
        return _arrow(sentences), _arrow(tokens), _arrow(links), _arrow(stats), missing, given
    except Exception as err:  # handed back as a value: the parent re-raises it, no pool machinery involved
        return err


def _scored(files: Sequence[SubmissionFile], ref: Reference, workers: int, con, task=None):
    """Yield (file, output, scores) in order. Files are read here (a CoNLL-U file is staged on ``con``; the
    workers never touch DuckDB), then several are scored in parallel processes. ``task`` (a progress
    task counting sentences) moves on per sentence when one process scores, else per file."""
    global _WORKER_REFERENCE
    items = [(f, read_output_file(f.path, f.format, con)) for f in files]
    if workers <= 0:
        workers = os.cpu_count() or 1
    workers = min(workers, len(files))
    _WORKER_REFERENCE = ref
    try:
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                for (f, out), scores in zip(items, pool.imap(_score_file, items)):
                    if task is not None:
                        task.advance(ref.size, description=f.path)
                    yield f, out, scores
        else:
            for f, out in items:
                if task is not None:
                    task.describe(f.path)
                done = []

                def tick(k, done=done):
                    done.append(k)
                    task.advance(k)

                scores = _score_file((f, out), tick=tick if task is not None else None)
                if task is not None:
                    task.advance(ref.size - sum(done))
                yield f, out, scores
    finally:
        _WORKER_REFERENCE = None


def ingest_outputs(wh, path: str | os.PathLike | None = None, reference: str | None = None,
                   team: str | None = None, run: str | None = None, format: str = "auto",
                   manifest: str | os.PathLike | None = None, replace: bool = False,
                   progress=None, drop_judgements: bool = False) -> list[SubmissionSummary]:
    """Ingest system outputs against a reference corpus, all in one transaction.

    ``path`` is one output file (``team`` and ``run`` required) or a campaign directory laid out as
    ``DIR/<team>/<run>/<file>``; or give ``manifest``, a CSV of path, team, run[, format].
    Returns a :class:`SubmissionSummary` per file.

    ``replace`` replaces submissions already stored; their human judgements are kept where the judged
    sentence is still there (same reference corpus, position and output text). Replacing is refused
    when a judgement would be lost, unless ``drop_judgements``.
    """
    if reference is None:
        raise WarehouseError("outputs need a reference corpus (`reference`)")
    if (path is None) == (manifest is None):
        raise WarehouseError("give either an output file or directory, or `manifest`")
    if manifest is not None:
        if team or run:
            raise WarehouseError("`team` and `run` come from the manifest; do not give them with `manifest`")
        files = read_manifest(manifest)
    elif os.path.isdir(path):
        if team or run:
            raise WarehouseError("`team` and `run` come from the directory layout DIR/<team>/<run>/<file>; "
                                 "do not give them with a directory")
        files = campaign_files(path)
        for f in files:
            f.format = format
    else:
        if team is None or run is None:
            raise WarehouseError("an output file needs `team` and `run`")
        check_names(team=team, run=run)
        files = [SubmissionFile(os.fspath(path), team, run, format)]
    return ingest_submissions(wh, files, reference, replace=replace, progress=progress,
                              drop_judgements=drop_judgements)


def ingest_submissions(wh, files: Sequence[SubmissionFile], reference: str, replace: bool = False,
                       progress=None, configuration_note: str | None = None, workers: int = 0,
                       names: Sequence[str] | None = None, drop_judgements: bool = False) -> list[SubmissionSummary]:
    """Ingest output files against one reference corpus, all in one transaction.

    Files are read and scored in ``workers`` processes (0: one per core); the warehouse is written
    by this process only, in file order. ``names``: what ``submissions.source_file`` records for each
    file (default: its path), for outputs evalhouse wrote itself (:mod:`evalhouse.ingest.baselines`).
    """
    wh.require_corpus(reference, "reference corpus")
    seen = set()
    for f in files:
        if (f.team, f.run) in seen:
            raise WarehouseError(f"team {f.team} run {f.run} is given twice for corpus {reference}")
        seen.add((f.team, f.run))
    keys = [{"team": f.team, "run": f.run, "corpus": reference} for f in files]
    for f, key in zip(files, keys):  # refused before anything is scored
        wh.check_room("submission", key, replace, f"team {f.team} run {f.run} on {reference}")
    ref = load_reference(wh.con, reference)
    summaries = []
    task = as_progress(progress).task("scoring", total=len(files) * ref.size, unit="sentences")
    with task, wh.transaction():
        now = _dt.datetime.now(_dt.timezone.utc)
        for i, (f, out, scores) in enumerate(_scored(files, ref, workers, wh.con, task)):
            if isinstance(scores, Exception):
                raise scores
            key = keys[i]
            sentences, tokens, links, stats, missing, given = scores
            # the submission's judgements stay where the judged sentence is still there (evalhouse.stored)
            with wh.make_room("submission", key, replace, f"team {f.team} run {f.run} on {reference}",
                              drop_judgements=drop_judgements) as room:
                wh.insert("output_sentences", sentences)
                wh.insert("output_tokens", tokens)
                wh.insert("alignments", links)
                wh.insert("sentence_statistics", stats)
                wh.insert("submissions", [{
                    **key, "format": out.format, "source_file": names[i] if names else out.name,
                    "sha256": out.sha256, "sentences": ref.size, "given_sentences": given,
                    "missing_sentences": len(missing), "missing_positions": missing,
                    "normalisations": out.normalisations,
                    "configuration": signature(*SCORING, configuration_note or ""),
                    "evalhouse_version": __version__, "ingested_at": now}])
            summaries.append(SubmissionSummary(f.team, f.run, reference, names[i] if names else out.name,
                                               out.format, ref.size, given, tuple(missing),
                                               room.kept.get("judgements", 0), room.dropped.get("judgements", 0)))
    return summaries
