"""Checksums of every row a treebank ingest stores, for comparing two implementations of the ingest.

``table_checksums(wh, corpus)`` fetches each base table of a corpus in a total order (``ORDER BY ALL``)
and hashes the Python values of each row (``repr``): two ingests that store the same rows give the
same digests, whatever the engine version prints.  ``corpora.ingested_at`` (a clock) and
``corpora.source_files`` (where the checkout is) are left out; the file's SHA-256 and every count stay.
Columns added after the digests were taken (``edges.depth``, ``edges.dependent_key``/``head_key``,
``corpora.missing_lemmas``) are left out too; their own tests check them.

The digests in ``tests/data/real_treebank_checksums.json`` were taken with the ingest of main at
ccd02fd (SQL staging, recursive CTE for ``edges``), before the streaming rewrite (issue 18), by::

    python -m tests.treebank_snapshots --write
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

TABLES = {
    # missing_lemmas (issue 15) came after the digests; tests/test_lemmas_real.py checks it on every file
    "corpora": "* EXCLUDE (ingested_at, source_files, missing_lemmas)",
    "sentences": "*",
    "nodes": "*",
    "multiword_tokens": "*",
    "empty_nodes": "*",
    "edges": "corpus, position, dependent, head, deprel, relation, dependent_lemma, head_lemma, "
    "dependent_upos, head_upos, distance, dependent_id, head_id",
    "sentence_tree_metrics": "*",
}

# The 17 real treebanks (strict UD files) under ../shared/data, relative to it.
REAL_TREEBANKS = (
    [
        f"ud/{d}"
        for d in (
            "UD_Chinese-GSD/zh_gsd-ud-test.conllu",
            "UD_English-EWT/en_ewt-ud-test.conllu",
            "UD_English-GUM/en_gum-ud-test.conllu",
            "UD_French-GSD/fr_gsd-ud-test.conllu",
            "UD_Indonesian-GSD/id_gsd-ud-test.conllu",
            "UD_Japanese-GSD/ja_gsd-ud-test.conllu",
            "UD_Korean-GSD/ko_gsd-ud-test.conllu",
            "UD_Portuguese-GSD/pt_gsd-ud-test.conllu",
            "UD_Russian-GSD/ru_gsd-ud-test.conllu",
            "UD_Spanish-GSD/es_gsd-ud-test.conllu",
        )
    ]
    + ["ud-v2.3/en_ewt-ud-test.conllu"]
    + [f"sr19/T1-test/{t}-ud-test.conllu" for t in ("en_ewt", "fr_gsd", "zh_gsd")]
    + [f"parsing/conll2018/gold/{t}.conllu" for t in ("en_ewt", "fr_gsd", "zh_gsd")]
)


def table_checksums(wh, corpus: str) -> dict[str, list]:
    """table -> [row count, SHA-256 of its rows in total order] for one corpus."""
    out = {}
    for table, columns in TABLES.items():
        digest = hashlib.sha256()
        n = 0
        result = wh.con.execute(f"SELECT {columns} FROM {table} WHERE corpus = $c ORDER BY ALL", {"c": corpus})
        while True:
            rows = result.fetchmany(50_000)
            if not rows:
                break
            for row in rows:
                digest.update(repr(row).encode("utf-8"))
                digest.update(b"\n")
            n += len(rows)
        out[table] = [n, digest.hexdigest()]
    return out


def snapshot_file(path: Path, corpus: str = "c") -> dict[str, list]:
    import evalhouse

    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([str(path)], corpus=corpus)
        return table_checksums(wh, corpus)


CHECKSUMS = Path(__file__).resolve().parent / "data" / "real_treebank_checksums.json"


def main(argv: list[str]) -> None:
    from tests.conftest import SAMPLE, SHARED_DATA

    result = {"sample": snapshot_file(SAMPLE)}
    for rel in REAL_TREEBANKS:
        result[rel] = snapshot_file(SHARED_DATA / rel)
        print(rel, result[rel]["nodes"][0], file=sys.stderr)
    text = json.dumps(result, indent=1, sort_keys=True) + "\n"
    if "--write" in argv:
        CHECKSUMS.write_text(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
