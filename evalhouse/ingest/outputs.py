"""``evalhouse ingest outputs``: system outputs (surface realisations) read, tokenised, aligned to the
reference tree and scored, in one transaction.

    import evalhouse
    with evalhouse.connect("warehouse.duckdb") as wh:
        wh.ingest_outputs("run1.txt", team="adapt", run="1", reference="en_ewt-test")
        wh.sql("select * from submission_scores").df()

Everything one call ingests is one transaction: a bad file anywhere leaves the warehouse unchanged.
What needs Python (tokenisation and alignment, :mod:`evalhouse.analysis.alignment`, with a lemma
lexicon learned here from the treebanks of the reference's language; the word keys,
:func:`evalhouse.analysis.text.word_key`; BLEU n-gram statistics, :mod:`evalhouse.analysis.bleu`; edit
counts, :mod:`evalhouse.analysis.accuracy`; the SR shared-task statistics,
:mod:`evalhouse.analysis.sr_metrics`; sacreBLEU, :mod:`evalhouse.analysis.sacrebleu_scores`) is
computed here and written to ``output_tokens``, ``alignments``, ``sentence_statistics`` and
``submission_sacrebleu``; DEA, BLEU, the accuracies and the SR metrics are then plain SQL views
(``sql/outputs/``: ``dea_edges``, ``sentence_scores``, ``sr_submission_scores``, ...).
Files are read by :mod:`evalhouse.loaders.outputs`.

Choices made here (docs/system-outputs.md explains each):

* The lemma lexicon comes from ``nodes`` of the reference corpus and of every other corpus of the
  same language (``corpora.language``; a reference without a language uses itself alone), training
  sets included, except corpora registered as generation inputs (``corpus_inputs``: their FORM holds
  lemmas). The reference itself is included: its form-lemma pairs are the treebank's annotation of
  forms, not information about an output's word order, and a user with only a test set still gets
  inflection links. Its signature (corpora, forms, pairs, min count, folding) is in the configuration.
* Scoring against a generation-input corpus, or a corpus in which no word has a lemma, is refused.
* The SR metrics need the reference's ``# text``: when a sentence of the reference has none, they are
  not computed for any submission against it (NULL, said in the summary and the configuration).
"""

from __future__ import annotations

import datetime as _dt
import gc
import multiprocessing
import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from evalhouse.analysis import accuracy, alignment, bleu, inflection, sacrebleu_scores, sr_metrics
from evalhouse.analysis.lexicon import LemmaLexicon
from evalhouse.analysis.text import KEY_SIGNATURE, fold, word_key
from evalhouse.errors import InputError, OptionError, WarehouseError
from evalhouse.names import check_names
from evalhouse.loaders import arrow_arrays
from evalhouse.loaders.numbers import integer, shown
from evalhouse.loaders.outputs import (
    OutputFile,
    OutputSentence,
    SubmissionFile,
    campaign_files,
    check_words,
    read_manifest,
)
from evalhouse.progress import ProgressLike, as_progress
from evalhouse.version import __version__, signature

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    import duckdb
    from evalhouse.warehouse import Warehouse

# how every submission is scored (submissions.configuration, built by scoring_configuration(); a
# baseline adds how it was made). The keys: evalhouse.analysis.text.KEY_SIGNATURE.
SCORING = (
    "tokenisation:reference-guided,fewest-breaks",
    alignment.ALIGNMENT_VERSION,
    "dea:keys,punct-stripped",
    "bleu:" + bleu.SIGNATURE + ",tokens:keys,punct:removed",
    "bleu_surface:tokens:forms,case:preserved,punct:kept",
    "accuracy:" + accuracy.SIGNATURE + ",tokens:words,case:folded,punct:kept,tree:whole-reference",
    "lemma-accuracy:" + accuracy.LEMMA_SIGNATURE + ",tokens:keys,punct:removed,tree:stripped-reference",
    "understandability/quality:STA+string-substitutions",
)
# the SR shared-task metrics as one field: sr_metrics.SIGNATURE with its own fields joined by ";"
SR_COMPUTED = "sr-eval:" + sr_metrics.SIGNATURE.split("|", 1)[1].replace("|", ";")
SR_NOT_COMPUTED = "sr-eval:not-computed,reference-without-text"
SR_TOKENISED = "sr-hypothesis:conllu-forms-joined-by-spaces"  # a CoNLL-U output has no detokenised text
LEXICON_NONE = "lexicon:none"


def scoring_configuration(
    lexicon: LemmaLexicon | None,
    sr: bool = True,
    tokenised: bool = False,
    note: str | None = None,
    rules: inflection.EnglishInflection | None = None,
) -> str:
    """The configuration of a submission's scores (``submissions.configuration``), through the one builder
    :func:`evalhouse.version.signature`: tokenisation, alignment with its lexicon and inflection rules, the
    word keys (case folding, missing lemmas), DEA, the BLEUs, the accuracies and the SR shared-task metrics."""
    return signature(
        SCORING[0],
        SCORING[1],
        lexicon.signature if lexicon is not None else LEXICON_NONE,
        inflection.signature(rules),
        KEY_SIGNATURE,
        *SCORING[2:],
        SR_COMPUTED if sr else SR_NOT_COMPUTED,
        SR_TOKENISED if sr and tokenised else "",
        note or "",
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
    configuration: str = ""
    notes: tuple[str, ...] = ()  # what the CLI says beside the counts (missing lemmas, SR metrics not computed)
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
    stripped_keys: list[list[str]]  # edges.dependent_key of those words (the DEA, BLEU and accuracy tokens)
    texts: list[str | None] | None = None  # sentences.text (# text), for the SR metrics and sacreBLEU
    lexicon: LemmaLexicon | None = None
    sr: sr_metrics.SrReference | None = None  # None when a sentence has no # text
    rules: inflection.EnglishInflection | None = None  # the inflection rules of the reference's language
    heads: list[list[int]] | None = None  # each sentence's whole tree: head positions (1-based, 0 root)
    sacrebleu: sacrebleu_scores.SacrebleuReference | None = None  # None: not computed

    @property
    def size(self) -> int:
        return len(self.sentences)

    @property
    def without_text(self) -> int | None:
        """The first position whose sentence has no ``# text``, or None."""
        return next((k for k, t in enumerate(self.texts or [], start=1) if t is None), None)


def learn_lexicon(con: duckdb.DuckDBPyConnection, reference: str, min_count: int = 1) -> LemmaLexicon:
    """The lemma lexicon of ``reference``'s language from ``nodes``: the reference and every corpus with
    the same ``corpora.language`` (only the reference when it has none), generation inputs
    (``corpus_inputs``) excluded; pairs with a missing lemma are not learned."""
    corpora = [
        c
        for (c,) in con.execute(
            """SELECT c.corpus FROM corpora AS c JOIN corpora AS r ON r.corpus = $r
           WHERE (c.corpus = r.corpus OR c.language = r.language)
             AND c.corpus NOT IN (SELECT corpus FROM corpus_inputs)
           ORDER BY c.corpus""",
            {"r": reference},
        ).fetchall()
    ]
    triples = con.execute(
        "SELECT form, lemma, count(*) FROM nodes WHERE list_contains($corpora, corpus) AND lemma <> '_' "
        "GROUP BY form, lemma",
        {"corpora": corpora},
    ).fetchall()
    return LemmaLexicon.from_pairs(triples, corpora=corpora, min_count=min_count)


def check_scorable(wh: Warehouse, reference: str) -> None:
    """Refuse a reference that would score every output wrongly: a generation input (lemmas in FORM, as
    the SR shallow-track inputs), or a corpus where no word has a lemma (every pair of words would be
    compared by form alone, which is not DEA)."""
    wh.require_corpus(reference, "reference corpus")
    encodes = wh.sql("SELECT reference FROM corpus_inputs WHERE corpus = $c", {"c": reference}).fetchone()
    if encodes:
        raise WarehouseError(
            f"corpus '{reference}' is the generation input of '{encodes[0]}' (ingested with `input_of`): its "
            f"words are the input lemmas, not a reference realisation; score outputs against '{encodes[0]}'"
        )
    words, with_lemma = wh.sql(
        "SELECT count(*), count(*) FILTER (WHERE lemma <> '_') FROM nodes WHERE corpus = $c", {"c": reference}
    ).fetchone()
    if words and not with_lemma:
        raise WarehouseError(
            f"reference corpus '{reference}' has no lemmas (LEMMA is _ for all {words:,} words): DEA and lemma BLEU "
            "compare lemmas, so outputs cannot be scored against it; use a treebank with lemmas (an SR "
            "shallow-track input is ingested with `input_of` its reference, and outputs are scored against that)"
        )


def load_reference(
    con: duckdb.DuckDBPyConnection,
    corpus: str,
    lexicon: LemmaLexicon | None = None,
    sacrebleu: bool = True,
    inflection_rules: bool = True,
) -> Reference:
    """The reference corpus as the scorer needs it; ``inflection_rules``: align with the inflection rules of
    its language (``corpora.language``; :func:`evalhouse.analysis.inflection.for_language`), if evalhouse
    has any."""
    sent = con.execute(
        "SELECT position, sent_id, text FROM sentences WHERE corpus = $c ORDER BY position", {"c": corpus}
    ).fetchall()
    nodes = con.execute(
        "SELECT position, id, form, lemma, deprel, NOT list_contains(string_split(misc, '|'), 'SpaceAfter=No'), "
        "upos, head FROM nodes WHERE corpus = $c ORDER BY position, id",
        {"c": corpus},
    ).fetchall()
    mwts = con.execute(
        "SELECT position, first_id, last_id, form, NOT list_contains(string_split(misc, '|'), 'SpaceAfter=No') "
        "FROM multiword_tokens WHERE corpus = $c ORDER BY position, first_id",
        {"c": corpus},
    ).fetchall()
    edges = con.execute(
        "SELECT position, dependent_id, head, dependent_key FROM edges WHERE corpus = $c ORDER BY position, dependent",
        {"c": corpus},
    ).fetchall()
    n = len(sent)
    cols: list[tuple[list, list, list, list, list]] = [([], [], [], [], []) for _ in range(n)]
    upos: list[list[str]] = [[] for _ in range(n)]
    node_heads: list[list[int]] = [[] for _ in range(n)]
    for pos, i, form, lemma, deprel, space, tag, head in nodes:
        c = cols[pos - 1]
        c[0].append(i)
        c[1].append(form)
        c[2].append(lemma)
        c[3].append(deprel)
        c[4].append(bool(space))
        upos[pos - 1].append(tag)
        node_heads[pos - 1].append(head)
    mw: list[list] = [[] for _ in range(n)]
    for pos, first, last, form, space in mwts:
        mw[pos - 1].append((first, last, form, bool(space)))
    s_ids: list[list[int]] = [[] for _ in range(n)]
    s_heads: list[list[int]] = [[] for _ in range(n)]
    keys: list[list[str]] = [[] for _ in range(n)]
    for pos, dep_id, head, key in edges:
        s_ids[pos - 1].append(dep_id)
        s_heads[pos - 1].append(head)
        keys[pos - 1].append(key)
    sentences = [alignment.ReferenceSentence(*cols[k], multiword=mw[k], upos=upos[k]) for k in range(n)]
    heads = []  # the whole tree (punctuation included) by 1-based word position, 0 = root
    for c, hs in zip(cols, node_heads):
        place = {node_id: p for p, node_id in enumerate(c[0], start=1)}
        heads.append([place[h] if h else 0 for h in hs])
    texts = [t for _, _, t in sent]
    sr = sr_metrics.sr_reference(texts) if all(t is not None for t in texts) else None
    sacre = sacrebleu_scores.sacrebleu_reference(texts) if sacrebleu and sr is not None else None
    rules = None
    if inflection_rules:
        rows = con.execute("SELECT language FROM corpora WHERE corpus = $c", {"c": corpus}).fetchall()
        rules = inflection.for_language(rows[0][0] if rows else None)
    return Reference(
        corpus,
        [s for _, s, _ in sent],
        sentences,
        s_ids,
        s_heads,
        keys,
        texts=texts,
        lexicon=lexicon,
        sr=sr,
        sacrebleu=sacre,
        rules=rules,
        heads=heads,
    )


def match_sentences(out: OutputFile, ref: Reference) -> dict[int, OutputSentence]:
    """Reference position -> output sentence, validating sent_ids and counts."""
    by_pos: dict[int, OutputSentence] = {}
    if out.format == "lines":
        if len(out.sentences) != ref.size:
            raise InputError(
                out.name,
                len(out.sentences) or None,
                f"{len(out.sentences)} lines, but reference corpus {ref.corpus} has {ref.size} sentences "
                "(format lines needs one line per reference sentence)",
            )
        return {k: s for k, s in enumerate(out.sentences, start=1)}
    if out.format == "conllu":
        index = {sid: k for k, sid in enumerate(ref.sent_ids, start=1)}
        with_id = [s for s in out.sentences if s.key]
        if not with_id:  # no sent_ids at all: sentence i realises reference sentence i
            if len(out.sentences) != ref.size:
                raise InputError(
                    out.name,
                    None,
                    f"{len(out.sentences)} sentences without '# sent_id', but reference corpus "
                    f"{ref.corpus} has {ref.size}; give '# sent_id' comments or one sentence per "
                    "reference sentence",
                )
            return {k: s for k, s in enumerate(out.sentences, start=1)}
        for s in out.sentences:
            if not s.key:
                raise InputError(
                    out.name, s.line, "sentence without '# sent_id' in a file whose other sentences have one"
                )
            pos = index.get(s.key)
            number = integer(s.key)  # ASCII digits only: '١' is no position (loaders/numbers.py)
            if pos is None and number is not None and 1 <= number <= ref.size:
                pos = number
            if pos is None:
                raise InputError(
                    out.name,
                    s.line,
                    f"unknown sent_id {shown(s.key)}: not a sent_id or position of reference corpus {ref.corpus}",
                )
            if pos in by_pos:
                raise InputError(out.name, s.line, f"duplicate sent_id {s.key} (first at line {by_pos[pos].line})")
            by_pos[pos] = s
        return by_pos
    # sr: N is the reference position (the SR shared tasks) or a reference sent_id, decided per file
    index = {sid: k for k, sid in enumerate(ref.sent_ids, start=1)}
    positions = {str(k): k for k in range(1, ref.size + 1)}  # ASCII digits only: '١' is no position
    as_ids = all(s.key in index for s in out.sentences)
    as_positions = all(s.key in positions for s in out.sentences)
    if as_ids and as_positions and any(index[s.key] != positions[s.key] for s in out.sentences):
        s = next(s for s in out.sentences if index[s.key] != positions[s.key])
        raise InputError(
            out.name,
            s.line,
            f"sent_id {shown(s.key)} is ambiguous: it is the sent_id of reference sentence {index[s.key]} "
            f"and the position of reference sentence {positions[s.key]} (every sent_id of the file "
            f"reads both ways); rewrite the file with the reference's sent_ids or its positions",
        )
    if not as_ids and not as_positions:  # the reading most keys follow names the first that does not
        as_ids = sum(s.key in index for s in out.sentences) > sum(s.key in positions for s in out.sentences)
    lookup = index if as_ids else positions
    for s in out.sentences:
        pos = lookup.get(s.key)
        if pos is None:
            if as_ids:
                problem = (
                    f"unknown sent_id {shown(s.key)}: the file's sent_ids are reference sent_ids, and this "
                    f"is not one of reference corpus {ref.corpus} (a file uses sent_ids or positions "
                    f"throughout)"
                )
            else:
                problem = (
                    f"unknown sent_id {shown(s.key)}: the file's sent_ids are reference positions, and "
                    f"reference corpus {ref.corpus} has positions 1..{ref.size} (or give its sent_ids "
                    "throughout)"
                )
            raise InputError(out.name, s.line, problem)
        if pos in by_pos:
            raise InputError(out.name, s.line, f"duplicate sent_id {s.key} (first at line {by_pos[pos].line})")
        by_pos[pos] = s
    return by_pos


@contextmanager
def _alignment_limit(name: str, line: int | None):
    """Refuse, by file and line, an output sentence whose most-moves edit alignment reaches the node limit of its
    integer programme (:class:`evalhouse.analysis.accuracy.AlignmentTooHard`): its accuracies cannot be computed
    exactly in bounded time, and an alignment that is not the one the paper's counts need is never stored."""
    try:
        yield
    except accuracy.AlignmentTooHard as err:
        raise InputError(name, line, f"output sentence too hard to align: {err}") from None


def score_submission(out: OutputFile, ref: Reference, team: str, run: str, tick=None):
    """Tokenise, align and compute per-sentence statistics; returns column dicts for each table.
    ``tick(k)``, when given, is called after every 100 sentences (and the rest at the end)."""
    by_pos = match_sentences(out, ref)
    n = ref.size
    texts, missing_flags, lines = [], [], []
    tok_pos, tok_index, forms, lemmas, sources, puncts, stripped_pos, ref_ids_out, methods, lemma_keys = (
        [] for _ in range(10)
    )
    lexicon = ref.lexicon
    lemma_h, lemma_r, surf_h, surf_r = [], [], [], []
    string_counts, tree_counts = [], []  # the accuracies as Bangalore, Rambow & Whittaker (2000) define them
    lemma_string_counts, lemma_tree_counts = [], []  # the lemma-key variant
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
            toks = alignment.align(o.forms, rs, lemmas=o.lemmas, lexicon=lexicon, rules=ref.rules)
            texts.append(" ".join(o.forms))
            lines.append(o.line)
        else:
            tokens = alignment.tokenise(o.text, rs, ref.rules)
            check_words(out.name, o.line, len(tokens))  # a text without spaces: the tokeniser's words count
            toks = alignment.align(tokens, rs, lexicon=lexicon, rules=ref.rules)
            texts.append(o.text)
            lines.append(o.line)
        missing_flags.append(o is None)
        stripped = 0
        where: dict[int, int] = {}  # reference node id -> stripped output position
        hyp_keys = []
        sp_list = []
        for t in toks:
            # the key of the reference word the token realises (its folded lemma, or its folded form when
            # it has none); a lemma the output gave, or an unlinked token, keys by the token itself
            if t.lemma_source == "reference":
                key = word_key(t.lemma, rs.forms[rs.position(t.reference_id)])
            else:
                key = word_key(t.lemma, t.form)
            lemma_keys.append(key)
            if t.punct:
                sp_list.append(None)
                continue
            stripped += 1
            sp_list.append(stripped)
            hyp_keys.append(key)
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
        surf_h.append(forms[len(forms) - k :])
        surf_r.append(rs.forms)
        # Bangalore, Rambow & Whittaker (2000): the words of the output and of the reference (folded; punctuation kept); in the tree, a
        # reference word is realised by the output word linked to it when that word is the same token
        words = [fold(t.form) for t in toks]
        placed = {
            t.reference_id: n
            for n, (t, w) in enumerate(zip(toks, words))
            if t.reference_id is not None and w == rs.keys[rs.position(t.reference_id)]
        }
        with _alignment_limit(out.name, lines[-1]):
            string_counts.append(accuracy.edit_counts(rs.keys, words))
            tree_counts.append(accuracy.tree_counts(ref.heads[pos - 1], [placed.get(i) for i in rs.ids]))
            # the variant: keys (lemmas) without punctuation, unlinked output words as tree insertions
            lemma_string_counts.append(accuracy.edit_counts(ref_keys, hyp_keys))
            lemma_tree_counts.append(
                accuracy.tree_counts(
                    ref.stripped_heads[pos - 1], [where.get(i) for i in ref_ids], output_length=stripped
                )
            )
    lemma_stats = bleu.bleu_statistics(lemma_h, lemma_r)
    surf_stats = bleu.bleu_statistics(surf_h, surf_r)
    m = len(tok_pos)
    positions = list(range(1, n + 1))
    same = arrow_arrays.repeated  # one value in every row: a one-entry dictionary, not n copies of the string
    sentences = {
        "team": same(team, n),
        "run": same(run, n),
        "corpus": same(ref.corpus, n),
        "position": positions,
        "text": texts,
        "missing": missing_flags,
        "source_line": lines,
    }
    tokens = {
        "team": same(team, m),
        "run": same(run, m),
        "corpus": same(ref.corpus, m),
        "position": tok_pos,
        "token": tok_index,
        "form": forms,
        "lemma": lemmas,
        "lemma_source": sources,
        "punct": puncts,
        "stripped_position": stripped_pos,
        "lemma_key": lemma_keys,
    }
    links = {
        "corpus": same(ref.corpus, m),
        "team": same(team, m),
        "run": same(run, m),
        "position": tok_pos,
        "pair": same("output-reference", m),
        "from_index": tok_index,
        "to_index": ref_ids_out,
        "method": methods,
    }
    stats = {
        "team": same(team, n),
        "run": same(run, n),
        "corpus": same(ref.corpus, n),
        "position": positions,
        "bleu_hypothesis_length": lemma_stats.hyp_len,
        "bleu_reference_length": lemma_stats.ref_len,
        "bleu_matches": lemma_stats.matches,
        "bleu_totals": lemma_stats.totals,
        "surface_hypothesis_length": surf_stats.hyp_len,
        "surface_reference_length": surf_stats.ref_len,
        "surface_matches": surf_stats.matches,
        "surface_totals": surf_stats.totals,
    }
    for prefix, counts in (
        ("string", string_counts),
        ("tree", tree_counts),
        ("lemma_string", lemma_string_counts),
        ("lemma_tree", lemma_tree_counts),
    ):
        stats[f"{prefix}_insertions"] = [c.insertions for c in counts]
        stats[f"{prefix}_deletions"] = [c.deletions for c in counts]
        stats[f"{prefix}_substitutions"] = [c.substitutions for c in counts]
        stats[f"{prefix}_moves"] = [c.moves for c in counts]
        stats[f"{prefix}_reference_length"] = [c.reference_length for c in counts]
    stats.update(_sr_columns(texts, ref))
    return sentences, tokens, links, stats, missing, len(by_pos), _sacrebleu_rows(texts, ref, team, run)


_SR_COLUMNS = (
    "sr_hypothesis_length",
    "sr_reference_length",
    "sr_matches",
    "sr_totals",
    "sr_nist_matches",
    "sr_sentence_nist",
    "sr_word_edits",
    "sr_word_length",
    "sr_char_edits",
    "sr_char_length",
)


def _sr_columns(texts: list[str | None], ref: Reference) -> dict:
    """The SR shared-task statistics of each sentence (``sentence_statistics.sr_*``); NULL when the
    reference lacks ``# text``."""
    if ref.sr is None:
        return {c: [None] * len(texts) for c in _SR_COLUMNS}
    s = sr_metrics.sr_statistics(texts, ref.sr)
    return {
        "sr_hypothesis_length": s.hyp_len,
        "sr_reference_length": s.ref_len,
        "sr_matches": s.bleu_matches,
        "sr_totals": s.nist_totals,
        "sr_nist_matches": s.nist_matches,
        "sr_sentence_nist": [None if v != v else float(v) for v in s.sentence_nist.tolist()],
        "sr_word_edits": s.word_edits,
        "sr_word_length": s.word_lengths,
        "sr_char_edits": s.char_edits,
        "sr_char_length": s.char_lengths,
    }


def _sacrebleu_rows(texts: list[str | None], ref: Reference, team: str, run: str) -> list[dict]:
    """sacreBLEU BLEU and chrF of the submission (rows of ``submission_sacrebleu``), when computed."""
    if ref.sacrebleu is None:
        return []
    r = sacrebleu_scores.sacrebleu_scores(texts, ref.sacrebleu)
    configuration = signature(
        f"sacrebleu:{sacrebleu_scores.version()}",
        "hypothesis:output-text",
        "reference:sentences.text",
        "lowercase:false",
        "tokenize:13a",
    )
    key = {"team": team, "run": run, "corpus": ref.corpus}
    return [
        {
            **key,
            "metric": "bleu",
            "score": r.bleu,
            "signature": r.bleu_signature,
            "report": r.bleu_text,
            "configuration": configuration,
        },
        {
            **key,
            "metric": "chrf",
            "score": r.chrf,
            "signature": r.chrf_signature,
            "report": r.chrf_text,
            "configuration": configuration,
        },
    ]


def _arrow(columns: dict):
    """Columns as an Arrow table: how a worker process hands its results back (as buffers). Built from buffers
    (:mod:`evalhouse.loaders.arrow_arrays`): ``pa.table`` of Python lists imports pandas, 0.2 s of CPU and
    30 MB in every scoring process."""
    return arrow_arrays.table(columns)


_WORKER_REFERENCE: Reference | None = None
_WORKER_ITEMS: Sequence[tuple[SubmissionFile, OutputFile]] = ()  # the files read, inherited by fork like the reference


def _score_file(item: tuple[SubmissionFile, OutputFile], tick=None):
    """Score one file (runs in a worker process; the reference comes from the parent by fork).

    The columns go back as Arrow tables, which cross the process boundary as buffers. ``tick``: per-sentence
    progress, in this process only (see :func:`score_submission`)."""
    f, out = item
    try:
        sentences, tokens, links, stats, missing, given, sacre = score_submission(
            out, _WORKER_REFERENCE, f.team, f.run, tick=tick
        )
        return _arrow(sentences), _arrow(tokens), _arrow(links), _arrow(stats), missing, given, sacre
    except Exception as err:  # handed back as a value: the parent re-raises it, no pool machinery involved
        return err


def _score_item(k: int):
    """:func:`_score_file` of the ``k``-th file read (in a worker process, which has the files by fork: only ``k``
    is sent to it, not the file's sentences, whose pickling and unpickling cost 0.8 s of CPU in a 50-run
    campaign)."""
    return _score_file(_WORKER_ITEMS[k])


def _scored(items: Sequence[tuple[SubmissionFile, OutputFile]], ref: Reference, workers: int, task=None):
    """Yield (file, output, scores) in order for the files already read (:func:`read_output_file`, in this
    process, before any worker starts); several are scored in parallel processes.
    ``task`` (a progress task counting sentences) moves on per sentence when one process scores, else per file."""
    global _WORKER_REFERENCE, _WORKER_ITEMS
    if workers <= 0:
        workers = os.cpu_count() or 1
    workers = min(workers, len(items))
    _WORKER_REFERENCE, _WORKER_ITEMS = ref, items
    try:
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            accuracy.import_solver()  # shared by the workers, not imported by each (analysis/accuracy.py)
            # the workers inherit the reference and the files by fork; frozen, their objects are not visited by
            # the workers' garbage collector, so fewer of their pages are copied (about 50 MB less for 50 runs
            # against en_ewt test, BENCHMARKS.md); unfrozen again in this process at once, unless the program had
            # frozen objects itself (then it is left as it was)
            ours = gc.get_freeze_count() == 0
            if ours:
                gc.freeze()
            try:
                pool = multiprocessing.get_context("fork").Pool(workers)
            finally:
                if ours:
                    gc.unfreeze()
            with pool:
                for (f, out), scores in zip(items, pool.imap(_score_item, range(len(items)))):
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
        _WORKER_REFERENCE, _WORKER_ITEMS = None, ()


def ingest_outputs(
    wh: Warehouse,
    path: str | os.PathLike | None = None,
    reference: str | None = None,
    team: str | None = None,
    run: str | None = None,
    format: str = "auto",
    manifest: str | os.PathLike | None = None,
    replace: bool = False,
    progress: ProgressLike | None = None,
    drop_judgements: bool = False,
    lexicon: bool = True,
    lexicon_min_count: int = 1,
    sacrebleu: bool = True,
    inflection: bool = True,
) -> list[SubmissionSummary]:
    """Ingest system outputs against a reference corpus, all in one transaction.

    ``path`` is one output file (``team`` and ``run`` required) or a campaign directory laid out as
    ``DIR/<team>/<run>/<file>``; or give ``manifest``, a CSV of path, team, run[, format].
    ``lexicon``: align with the lemma lexicon of the reference's language (:func:`learn_lexicon`;
    pairs attested at least ``lexicon_min_count`` times); ``inflection``: also link with the inflection
    rules of the reference's language (:mod:`evalhouse.analysis.inflection`; English only);
    ``sacrebleu``: also store sacreBLEU BLEU and chrF (``submission_sacrebleu``). Returns a
    :class:`SubmissionSummary` per file.

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
            raise WarehouseError(
                "`team` and `run` come from the directory layout DIR/<team>/<run>/<file>; "
                "do not give them with a directory"
            )
        files = campaign_files(path)
        for f in files:
            f.format = format
    else:
        if team is None or run is None:
            raise WarehouseError("an output file needs `team` and `run`")
        check_names(team=team, run=run)
        files = [SubmissionFile(os.fspath(path), team, run, format)]
    return ingest_submissions(
        wh,
        files,
        reference,
        replace=replace,
        progress=progress,
        drop_judgements=drop_judgements,
        lexicon=lexicon,
        lexicon_min_count=lexicon_min_count,
        sacrebleu=sacrebleu,
        inflection=inflection,
    )


def ingest_submissions(
    wh: Warehouse,
    files: Sequence[SubmissionFile],
    reference: str,
    replace: bool = False,
    progress: ProgressLike | None = None,
    configuration_note: str | None = None,
    workers: int = 0,
    names: Sequence[str] | None = None,
    drop_judgements: bool = False,
    lexicon: bool = True,
    lexicon_min_count: int = 1,
    sacrebleu: bool = True,
    inflection: bool = True,
) -> list[SubmissionSummary]:
    """Ingest output files against one reference corpus, all in one transaction.

    Files are read and scored in ``workers`` processes (0: one per core); the warehouse is written
    by this process only, in file order. ``names``: what ``submissions.source_file`` records for each
    file (default: its path), for outputs evalhouse wrote itself (:mod:`evalhouse.ingest.baselines`).
    ``lexicon``, ``lexicon_min_count``, ``sacrebleu``, ``inflection``: as in :func:`ingest_outputs`.
    """
    if not isinstance(lexicon_min_count, int) or lexicon_min_count < 1:
        raise OptionError(f"`lexicon_min_count` must be a whole number of at least 1, not {lexicon_min_count!r}")
    check_scorable(wh, reference)
    seen = set()
    for f in files:
        if (f.team, f.run) in seen:
            raise WarehouseError(f"team {f.team} run {f.run} is given twice for corpus {reference}")
        seen.add((f.team, f.run))
    keys = [{"team": f.team, "run": f.run, "corpus": reference} for f in files]
    for f, key in zip(files, keys):  # refused before anything is scored
        wh.check_room("submission", key, replace, f"team {f.team} run {f.run} on {reference}")
    lex = learn_lexicon(wh.con, reference, lexicon_min_count) if lexicon else None
    ref = load_reference(wh.con, reference, lexicon=lex, sacrebleu=sacrebleu, inflection_rules=inflection)
    notes = _reference_notes(wh, ref)
    summaries = []
    task = as_progress(progress).task("scoring", total=len(files) * ref.size, unit="sentences")
    with task, wh.transaction():
        now = _dt.datetime.now(_dt.timezone.utc)
        items = [(f, f.read()) for f in files]
        # the rows are inserted under the streaming memory limit, as a treebank's chunks are (evalhouse/memory.py):
        # DuckDB otherwise keeps every block the ingest writes in its buffer pool (lowered once: each lowering
        # makes DuckDB spill what it holds, so lowering it per file cost 0.8 s of CPU for 50 runs)
        with wh.streaming_memory():
            for i, (f, out, scores) in enumerate(_scored(items, ref, workers, task)):
                if isinstance(scores, Exception):
                    raise scores
                key = keys[i]
                sentences, tokens, links, stats, missing, given, sacre = scores
                tokenised = out.format == "conllu"
                configuration = scoring_configuration(
                    lex, sr=ref.sr is not None, tokenised=tokenised, note=configuration_note, rules=ref.rules
                )
                # the submission's judgements stay where the judged sentence is still there (evalhouse.stored)
                with wh.make_room(
                    "submission",
                    key,
                    replace,
                    f"team {f.team} run {f.run} on {reference}",
                    drop_judgements=drop_judgements,
                ) as room:
                    wh.insert("output_sentences", sentences)
                    wh.insert("output_tokens", tokens)
                    wh.insert("alignments", links)
                    wh.insert("sentence_statistics", stats)
                    if sacre:
                        wh.insert("submission_sacrebleu", sacre)
                    wh.insert(
                        "submissions",
                        [
                            {
                                **key,
                                "format": out.format,
                                "source_file": names[i] if names else out.name,
                                "sha256": out.sha256,
                                "sentences": ref.size,
                                "given_sentences": given,
                                "missing_sentences": len(missing),
                                "missing_positions": missing,
                                "normalisations": out.normalisations,
                                "configuration": configuration,
                                "evalhouse_version": __version__,
                                "ingested_at": now,
                            }
                        ],
                    )
                file_notes = notes + ((_CONLLU_NOTE,) if tokenised and ref.sr is not None else ())
                periods = sum(1 for o in out.sentences if o.text and o.text.endswith(" ."))
                if periods >= 100 and ref.sr is not None:  # sacrebleu's own criterion for its warning
                    file_notes += (
                        f"{periods:,} output sentences end in a tokenised period (' .'): the output "
                        "looks tokenised, which SR BLEU and sacreBLEU punish (they compare detokenised "
                        "text)",
                    )
                summaries.append(
                    SubmissionSummary(
                        f.team,
                        f.run,
                        reference,
                        names[i] if names else out.name,
                        out.format,
                        ref.size,
                        given,
                        tuple(missing),
                        configuration,
                        file_notes,
                        room.kept.get("judgements", 0),
                        room.dropped.get("judgements", 0),
                    )
                )
    return summaries


_CONLLU_NOTE = (
    "SR metrics and sacreBLEU are computed on the CoNLL-U FORMs joined by spaces (tokenised text), "
    "which the SR evaluation punishes: not comparable with an SR results table"
)


def _reference_notes(wh: Warehouse, ref: Reference) -> tuple[str, ...]:
    """What the summary of every submission against ``ref`` says about the reference."""
    notes = []
    words, missing = wh.sql("SELECT words, missing_lemmas FROM corpora WHERE corpus = $c", {"c": ref.corpus}).fetchone()
    if missing:
        notes.append(
            f"reference {ref.corpus}: {missing:,} of {words:,} words have no lemma; DEA and lemma BLEU "
            "compare them by their case-folded form"
        )
    if ref.sr is None:
        pos = ref.without_text
        notes.append(
            f"SR metrics and sacreBLEU not computed: reference sentence {pos} (sent_id "
            f"{ref.sent_ids[pos - 1]}) has no '# text' comment, and they compare texts"
        )
    return tuple(notes)
