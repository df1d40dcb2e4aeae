"""What a treebank ingest stores, and what it rejects, does not depend on how the file is cut into chunks
(``loaders.conllu.chunks``) or on when the rows held back per table are inserted (``loaders.treebank``,
``HELD_BYTES`` and ``ROW_GROUP``): both were lowered to bound the ingest's memory (issue 18)."""

from __future__ import annotations

import pytest

import evalhouse
from evalhouse.errors import InputError
from evalhouse.loaders import conllu, treebank
from evalhouse.loaders.conllu import chunks

from tests.conftest import shared, write

TABLES = ("corpora", "sentences", "nodes", "multiword_tokens", "empty_nodes", "edges", "sentence_tree_metrics")


def sentence_lengths(data: bytes) -> list[int]:
    """The byte length of each sentence block (its lines and the blank line ending it)."""
    return [len(block) + 2 for block in data[:-2].split(b"\n\n")]


@pytest.mark.parametrize("size", [1, 100, 4096, 50_000, 1 << 21])
@pytest.mark.parametrize("block", [1000, 65_536, None])
def test_chunks_are_the_longest_runs_of_whole_sentences_within_their_size(size, block):
    """On a real UD file read in blocks of any size: the chunks put together are the file; each ends with its
    last sentence's blank line; each is as long as it can be without passing ``size`` (a sentence longer than
    ``size`` is a chunk of its own); line and block numbers run on across chunks."""
    data = shared("ud", "UD_French-GSD", "fr_gsd-ud-test.conllu").read_bytes()
    step = block or len(data)
    cut = list(chunks(iter([data[i : i + step] for i in range(0, len(data), step)]), chunk_bytes=size))
    assert b"".join(c.data for c in cut) == data
    lengths = iter(sentence_lengths(data))
    line = block_no = 0
    for c in cut:
        assert c.data.endswith(b"\n\n")
        assert c.line_no[0] == line + 1 and c.block[0] == block_no
        line, block_no = int(c.line_no[-1]), int(c.block[-1]) + 1
        taken = 0
        while taken < len(c.data):
            taken += next(lengths)
        assert taken == len(c.data)  # whole sentences
        if len(c.data) > size:
            assert sentence_lengths(c.data) == [len(c.data)]  # one sentence, longer than size
    assert line == data.count(b"\n")
    for c, after in zip(cut, cut[1:]):
        assert len(c.data) + sentence_lengths(after.data)[0] > size  # the next sentence did not fit


def test_the_last_chunk_gets_its_line_feed():
    data = b"# sent_id = a\n1\tw\tw\tX\t_\t_\t0\troot\t_\t_\n\n# sent_id = b\n1\tv\tv\tX\t_\t_\t0\troot\t_\t_"
    for size in (1, 10, 60, 1000):
        cut = list(chunks(iter([data[:7], data[7:]]), chunk_bytes=size))
        assert b"".join(c.data for c in cut) == data + b"\n"


def stored(path, corpus="c") -> dict[str, list[tuple]]:
    rows = {}
    with evalhouse.connect(path) as wh:
        for table in TABLES:
            star = "* EXCLUDE (ingested_at)" if table == "corpora" else "*"
            rows[table] = wh.sql(f"SELECT {star} FROM {table} WHERE corpus = '{corpus}' ORDER BY ALL").fetchall()
    return rows


def ingest(path, files):
    with evalhouse.connect(path) as wh:
        wh.ingest_treebank(files, corpus="c")


@pytest.mark.slow
@pytest.mark.parametrize(
    "treebank_dir, name", [("UD_French-GSD", "fr_gsd-ud-test.conllu"), ("UD_English-EWT", "en_ewt-ud-test.conllu")]
)
def test_small_chunks_and_held_rows_store_the_same_rows(tmp_path, monkeypatch, treebank_dir, name):
    """Every table of a real treebank (multiword tokens, empty nodes, two files of one corpus) is the same
    when the file is cut into 3,000-byte chunks and rows are inserted every 2,000 bytes or 500 rows."""
    path = shared("ud", treebank_dir, name)
    text = path.read_text(encoding="utf-8")
    half = text.index("\n\n", len(text) // 2) + 2
    files = [write(tmp_path, "a.conllu", text[:half]), write(tmp_path, "b.conllu", text[half:])]
    ingest(tmp_path / "default.duckdb", files)
    monkeypatch.setattr(conllu, "CHUNK_BYTES", 3000)
    monkeypatch.setattr(treebank, "HELD_BYTES", 2000)
    monkeypatch.setattr(treebank, "ROW_GROUP", 500)
    ingest(tmp_path / "small.duckdb", files)
    default, small = stored(tmp_path / "default.duckdb"), stored(tmp_path / "small.duckdb")
    assert default["nodes"] and default["multiword_tokens" if "French" in treebank_dir else "empty_nodes"]
    assert small == default


def sentence(sent_id: str) -> str:
    return f"# sent_id = {sent_id}\n# text = a b\n1\ta\ta\tX\t_\t_\t2\tdep\t_\t_\n2\tb\tb\tX\t_\t_\t0\troot\t_\t_\n\n"


GOOD = "".join(sentence(f"s{i}") for i in range(12))
PROBLEMS = {
    "an empty sentence": GOOD + "\n" + sentence("x"),
    "a duplicate sent_id": GOOD + sentence("s3"),
    "nine columns": GOOD + sentence("x").replace("\t_\t_\n2", "\t_\n2"),
    "a cycle": GOOD + sentence("x").replace("\t2\tdep", "\t1\tdep"),
}


@pytest.mark.slow
@pytest.mark.parametrize("problem", list(PROBLEMS))
def test_the_same_problem_is_reported_whatever_the_chunk_size(tmp_path, monkeypatch, problem):
    """A problem near any chunk boundary (every size from one byte to the whole file, in steps of 11) is
    reported on the same line with the same message, and nothing is stored."""
    path = write(tmp_path, "bad.conllu", PROBLEMS[problem])
    with evalhouse.connect(tmp_path / "w.duckdb") as wh:
        with pytest.raises(InputError) as caught:
            wh.ingest_treebank([path], corpus="c")
        expected = (caught.value.line, caught.value.problem)
        for size in range(1, len(PROBLEMS[problem]) + 11, 11):
            monkeypatch.setattr(conllu, "CHUNK_BYTES", size)
            with pytest.raises(InputError) as caught:
                wh.ingest_treebank([path], corpus="c")
            assert (caught.value.line, caught.value.problem) == expected, size
        assert wh.corpora() == []
