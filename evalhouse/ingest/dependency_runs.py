"""``evalhouse ingest dependency-run``: a dependency parser's CoNLL-U output scored against gold UD trees,
CoNLL 2018 LAS/UAS beside the dependency leaf-ancestor metric, per word, in one transaction.

    $ evalhouse ingest dependency-run UDPipe-Future/en_ewt.conllu --gold gold/en_ewt.conllu \\
          --corpus en_ewt --team UDPipe-Future --run 1
    en_ewt (UDPipe-Future/1): 25,096 gold words, 25,110 system words, 24,985 aligned; UAS 86.45, LAS 83.89, ...

The gold trees are the treebank corpus ``corpus``, read from ``nodes``: the gold file is ingested as that
corpus the first time (as ``evalhouse ingest treebank`` would, every UD rule checked) and must be the same
file (SHA-256) afterwards. The parser's file is read by :mod:`evalhouse.loaders.conllu_words`; the
alignment and scores are :mod:`evalhouse.analysis.dependency_eval`. Per-word results go to
``dependency_word_scores``; the views ``dependency_scores`` and ``dependency_scores_by_relation``
(``sql/parses/``) aggregate them.
"""

from __future__ import annotations

import datetime as _dt
import json
import os

import numpy as np

from evalhouse.analysis.dependency_eval import AlignmentError, score, universal
from evalhouse.analysis.leaf_ancestor import STRICT, LabelCost
from evalhouse.names import check_names
from evalhouse.errors import InputError, OptionError, WarehouseError
from evalhouse.ingest.treebanks import store_corpus
from evalhouse.loaders.conllu_words import Tokens, Words, read_words, words_from_tokens
from evalhouse.loaders.source import open_source
from evalhouse.loaders.treebank import corpus_name_for
from evalhouse.version import __version__, signature

SCORES = ("team", "run", "corpus", "gold_words", "system_words", "aligned_words", "uas_f1", "las_f1",
          "la_gold_mean", "la_aligned_mean")


def ingest_dependency_run(wh, system_path: str | os.PathLike, gold_path: str | os.PathLike, corpus: str,
                          team: str, run: str, cost: LabelCost | None = None, replace: bool = False) -> dict:
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
        n = len(gold.form)
        wh.insert("dependency_word_scores", {
            "corpus": [corpus] * n, "team": [team] * n, "run": [run] * n, "gold_index": list(range(n)),
            "sentence": gold.sentence, "word_id": gold.word_id, "form": gold.form,
            "relation": [universal(d) for d in gold.deprel], "aligned": [a >= 0 for a in ws.aligned],
            "head_correct": ws.uas, "label_correct": ws.las, "gold_lineage": ws.gold_lineage,
            "system_lineage": ws.system_lineage, "distance": ws.distance, "la": ws.la})
        wh.insert("dependency_runs", [{
            **key, "gold_file": os.fspath(gold_path), "gold_sha256": gold_sha,
            "system_file": os.fspath(system_path), "system_sha256": system.sha256,
            "gold_sentences": gold.sentences, "system_sentences": system.sentences, "gold_words": n,
            "system_words": ws.system_words, "la_cost": json.dumps(cost.describe()),
            "config": signature("alignment:conll2018", "relations:universal", f"la-cost:{cost.name}",
                                "lineage:dependency-path-with-subtree-boundaries", "unaligned-la:0"),
            "evalhouse_version": __version__, "ingested_at": _dt.datetime.now(_dt.timezone.utc)}])
    row = wh.sql(f"SELECT {', '.join(SCORES)} FROM dependency_scores WHERE corpus = $corpus AND team = $team "
                 "AND run = $run", key).fetchone()
    return dict(zip(SCORES, row))


def gold_corpus(wh, gold_path: str | os.PathLike, corpus: str) -> str:
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
        raise WarehouseError(f"corpus '{corpus}' in {wh.path} holds other trees than {os.fspath(gold_path)} "
                             f"(it was ingested from {', '.join(stored[1])}); give the run another corpus name")
    return sha


def gold_words(wh, corpus: str, name: str) -> Words:
    """The words of treebank corpus ``corpus`` (from ``nodes`` and ``multiword_tokens``), as the CoNLL 2018
    evaluation reads them; ``name`` is the file named in errors."""
    c = wh.sql("""
        SELECT position, false AS is_range, id AS first_id, id AS last_id, form, head, deprel
        FROM nodes WHERE corpus = $c
        UNION ALL
        SELECT position, true, first_id, last_id, form, 0, '' FROM multiword_tokens WHERE corpus = $c
        ORDER BY position, first_id, is_range DESC""", {"c": corpus}).fetchnumpy()  # a range before its first word
    # no NULL in any column: fetchnumpy would return masked arrays, and importing numpy.ma costs 0.01 s
    rows = Tokens(*(np.asarray(c[k]) for k in ("position", "is_range", "first_id", "last_id")),
                  c["form"].tolist(), np.asarray(c["head"]), c["deprel"].tolist())
    return words_from_tokens(rows, name)
