"""``evalhouse ingest dependency-run``: a dependency parser's CoNLL-U output scored against gold UD trees,
every CoNLL 2018 metric beside the dependency leaf-ancestor metric, per word, in one transaction.

    $ evalhouse ingest dependency-run UDPipe-Future/en_ewt.conllu --gold gold/en_ewt.conllu \\
          --corpus en_ewt --team UDPipe-Future --run 1
    en_ewt (UDPipe-Future/1): 25,096 gold words, 25,110 system words, 24,985 aligned; UAS 86.45, LAS 83.89, ...

The gold trees are the treebank corpus ``corpus``, read from ``nodes``: the gold file is ingested as that
corpus the first time (as ``evalhouse ingest treebank`` would, every UD rule checked) and must be the same
file (SHA-256) afterwards. The parser's file is read by :mod:`evalhouse.loaders.conllu_words`; the
alignment and the leaf-ancestor scores are :mod:`evalhouse.analysis.dependency_eval`. The words of both
sides go to ``dependency_gold_words`` (with the alignment and LA) and ``dependency_system_words``, each
with its CoNLL-U columns and structural facts; every CoNLL 2018 metric (``dependency_metrics``), MaltEval
breakdown and per-sentence score is a view over them (``sql/parses/``).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from typing import TYPE_CHECKING

import numpy as np

from evalhouse.analysis import conll18
from evalhouse.analysis.dependency_eval import AlignmentError, score, tree_facts, universal
from evalhouse.analysis.leaf_ancestor import STRICT, LabelCost
from evalhouse.names import check_names
from evalhouse.errors import InputError, OptionError, WarehouseError
from evalhouse.ingest.treebanks import store_corpus
from evalhouse.loaders import arrow_arrays
from evalhouse.loaders.conllu_words import COLUMNS, Tokens, Words, read_words, words_from_tokens
from evalhouse.loaders.source import open_source
from evalhouse.loaders.treebank import corpus_name_for
from evalhouse.version import __version__, signature

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

SCORES = (
    "team",
    "run",
    "corpus",
    "gold_words",
    "system_words",
    "aligned_words",
    "uas_f1",
    "las_f1",
    "clas_f1",
    "mlas_f1",
    "blex_f1",
    "la_gold_mean",
    "la_aligned_mean",
)
# what every run's configuration says of its metrics
METRICS_CONFIG = ("metrics:conll18_ud_eval-1.2", "alignment:conll2018", "relations:universal")


def ingest_dependency_run(
    wh: Warehouse,
    system_path: str | os.PathLike,
    gold_path: str | os.PathLike,
    corpus: str,
    team: str,
    run: str,
    cost: LabelCost | None = None,
    replace: bool = False,
) -> dict[str, object]:
    """Score a CoNLL-U parser output against the gold trees of ``corpus`` (CoNLL 2018 alignment, LAS/UAS,
    dependency LA) and store the per-word results in one transaction; the gold file is ingested as the
    treebank corpus ``corpus`` unless it is there already. Returns the run's ``dependency_scores`` row."""
    check_names(corpus=corpus, team=team, run=run)
    if not (team and run):
        raise OptionError("a dependency run needs `team` and `run`")
    cost = cost or STRICT
    key = {"corpus": corpus, "team": team, "run": run}
    system = read_words(system_path)  # read and checked before the warehouse is touched
    with wh.transaction():
        gold_sha = gold_corpus(wh, gold_path, corpus)
        gold = gold_words(wh, corpus, os.fspath(gold_path))
        try:
            ws = score(gold, system, cost)
        except AlignmentError as err:
            raise InputError(os.fspath(system_path), None, str(err)) from None
        wh.make_room("dependency run", key, replace, f"dependency run {team}/{run} of corpus '{corpus}'")
        aligned = np.asarray(ws.aligned, dtype=np.int64)
        g_columns, s_columns, flags = compare(gold, system, aligned)
        wh.insert(
            "dependency_gold_words",
            {
                **g_columns,
                **key_columns(key, len(gold.form)),
                **flags,
                "gold_index": np.arange(len(gold.form), dtype=np.int64),
                "system_index": arrow_arrays.numbers(aligned, mask=aligned < 0),
                "gold_lineage": ws.gold_lineage,
                "system_lineage": ws.system_lineage,
                "distance": ws.distance,
                "la": ws.la,
            },
        )
        wh.insert(
            "dependency_system_words",
            {
                **s_columns,
                **key_columns(key, len(system.form)),
                "system_index": np.arange(len(system.form), dtype=np.int64),
                "gold_sentence": gold_sentences(gold, system, aligned),
            },
        )
        wh.insert(
            "dependency_runs",
            [
                {
                    **key,
                    "gold_file": os.fspath(gold_path),
                    "gold_sha256": gold_sha,
                    "system_file": os.fspath(system_path),
                    "system_sha256": system.sha256,
                    "gold_sentences": gold.sentences,
                    "system_sentences": system.sentences,
                    "gold_words": len(gold.form),
                    "system_words": ws.system_words,
                    **span_counts(g_columns, s_columns),
                    "la_cost": json.dumps(cost.describe()),
                    "config": signature(
                        *METRICS_CONFIG,
                        f"la-cost:{cost.name}",
                        "lineage:dependency-path-with-subtree-boundaries",
                        "unaligned-la:0",
                    ),
                    "evalhouse_version": __version__,
                    "ingested_at": _dt.datetime.now(_dt.timezone.utc),
                }
            ],
        )
    row = wh.sql(
        f"SELECT {', '.join(SCORES)} FROM dependency_scores WHERE corpus = $corpus AND team = $team AND run = $run", key
    ).fetchone()
    return dict(zip(SCORES, row))


def key_columns(key: dict, n: int) -> dict:
    return {k: arrow_arrays.repeated(v, n) for k, v in key.items()}


def compare(gold: Words, system: Words, aligned: np.ndarray) -> tuple[dict, dict, dict]:
    """The columns that ``dependency_gold_words`` and ``dependency_system_words`` share, for each side
    (sentence, ID, token span, the CoNLL-U columns with the relation and universal features as CoNLL 2018
    compares them, whether the relation is a content one, and the structural facts of
    :func:`evalhouse.analysis.dependency_eval.tree_facts`), and the CoNLL 2018 flags of the gold words
    (:func:`evalhouse.analysis.conll18.word_flags`)."""
    columns = []
    for w in (gold, system):
        depth, projective = tree_facts(w)
        sentence = np.asarray(w.sentence, dtype=np.int64)
        columns.append(
            {
                "sentence": sentence,
                "word_id": np.asarray(w.word_id, dtype=np.int64),
                "sentence_length": np.bincount(sentence)[sentence],
                "token_start": np.asarray(w.start, dtype=np.int64),
                "token_end": np.asarray(w.end, dtype=np.int64),
                "form": w.form,
                **w.columns,
                "ufeats": arrow_arrays.map_distinct(w.columns["feats"], conll18.universal_feats),
                "head": w.head_ids(),
                "deprel": w.deprel,
                "relation": arrow_arrays.map_distinct(arrow_arrays.strings(w.deprel, has_nulls=False), universal),
                "depth": depth,
                "arc_projective": projective,
            }
        )
    g, s = columns
    coded = ("relation", "upos", "xpos", "ufeats", "lemma")  # conll18.Side's order
    g_codes, s_codes, names = {}, {}, {}
    for name in coded:
        (g_codes[name], s_codes[name]), names[name] = arrow_arrays.shared_codes(g[name], s[name])
    sides = [conll18.Side(w.head, *(c[name] for name in coded)) for w, c in ((gold, g_codes), (system, s_codes))]
    underscore = names["lemma"].index("_") if "_" in names["lemma"] else -1
    flags = conll18.word_flags(*sides, aligned, names["relation"], underscore)
    g["content"] = conll18.content(g_codes["relation"], names["relation"])
    s["content"] = conll18.content(s_codes["relation"], names["relation"])
    return g, s, flags


def span_counts(gold: dict, system: dict) -> dict:
    """The counts of CoNLL 2018's Tokens and Sentences (:func:`evalhouse.analysis.conll18.span_counts`), from
    the two sides' columns."""
    tokens = conll18.span_counts(*((c["token_start"], c["token_end"]) for c in (gold, system)))
    sentences = conll18.span_counts(
        *(conll18.sentence_spans(c["sentence"], c["token_start"], c["token_end"]) for c in (gold, system))
    )
    return {
        "gold_tokens": tokens[0],
        "system_tokens": tokens[1],
        "matched_tokens": tokens[2],
        "matched_sentences": sentences[2],
    }


def gold_sentences(gold: Words, system: Words, aligned: np.ndarray) -> np.ndarray:
    """The gold sentence each system word counts in: its aligned gold word's, else the gold sentence in which
    its token starts (the two files spell the same characters)."""
    sentence = np.asarray(gold.sentence, dtype=np.int64)
    starts = np.asarray(gold.start, dtype=np.int64)
    first = np.r_[True, sentence[1:] != sentence[:-1]] if len(sentence) else np.zeros(0, dtype=bool)
    by_span = np.searchsorted(starts[first], np.asarray(system.start, dtype=np.int64), side="right")
    out = np.maximum(by_span, 1)
    matched = np.flatnonzero(aligned >= 0)
    out[aligned[matched]] = sentence[matched]
    return out


def gold_corpus(wh: Warehouse, gold_path: str | os.PathLike, corpus: str) -> str:
    """Make sure treebank corpus ``corpus`` holds the trees of the gold file (ingesting it when absent);
    returns the file's SHA-256."""
    with open_source(gold_path) as source:
        sha = source.sha256
    stored = wh.sql("SELECT sha256, source_files FROM corpora WHERE corpus = $c", {"c": corpus}).fetchone()
    if stored is None:
        name = corpus_name_for(gold_path)
        wh.make_room("corpus", {"corpus": corpus}, False, f"corpus '{corpus}'")
        store_corpus(wh, corpus, [os.fspath(gold_path)], name.language, name.split)
    elif stored[0] != [sha]:
        raise WarehouseError(
            f"corpus '{corpus}' in {wh.path} holds other trees than {os.fspath(gold_path)} "
            f"(it was ingested from {', '.join(stored[1])}); give the run another corpus name"
        )
    return sha


def gold_words(wh: Warehouse, corpus: str, name: str) -> Words:
    """The words of treebank corpus ``corpus`` (from ``nodes`` and ``multiword_tokens``), as the CoNLL 2018
    evaluation reads them; ``name`` is the file named in errors."""
    c = wh.sql(
        """
        SELECT position, false AS is_range, id AS first_id, id AS last_id, form, head, deprel
        FROM nodes WHERE corpus = $c
        UNION ALL
        SELECT position, true, first_id, last_id, form, 0, '' FROM multiword_tokens WHERE corpus = $c
        ORDER BY position, first_id, is_range DESC""",
        {"c": corpus},
    ).fetchnumpy()  # a range before its first word
    # no NULL in any column: fetchnumpy would return masked arrays, and importing numpy.ma costs 0.01 s
    rows = Tokens(
        *(np.asarray(c[k]) for k in ("position", "is_range", "first_id", "last_id")),
        c["form"].tolist(),
        np.asarray(c["head"]),
        c["deprel"].tolist(),
    )
    words = words_from_tokens(rows, name)
    columns = wh.sql(
        f"SELECT {', '.join(COLUMNS)} FROM nodes WHERE corpus = $c ORDER BY position, id", {"c": corpus}
    ).arrow()
    columns = columns.read_all() if hasattr(columns, "read_all") else columns  # duckdb 2.0: a reader
    words.columns = {name: columns.column(name).combine_chunks() for name in COLUMNS}
    return words
