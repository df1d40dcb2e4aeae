"""The checks of CoNLL-U system outputs, computed on numpy arrays since issue 18, against what the SQL
queries they replaced gave: a parser's output (``evalhouse ingest dependency-run``, twelve queries) and a
realiser's (``evalhouse ingest outputs --format conllu``, two). 800 seeded cases
(tests/conllu_output_fuzz.py), each the same message, line and count of further problems, or the same
words or sentences read; and every real CoNLL 2018 output read as the words of its file."""

from __future__ import annotations

import json
import unicodedata

import numpy as np
import pytest

from evalhouse.errors import InputError
from evalhouse.loaders import conllu
from evalhouse.loaders.conllu_words import _starts_with_space, read_words
from tests.conftest import shared, write

from .conllu_output_fuzz import CASES, OUTCOMES, make_output_case, outcome, realiser_outcome

CYCLE = "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n2\tb\t_\t_\t_\t_\t3\tdep\t_\t_\n3\tc\t_\t_\t_\t_\t2\tdep\t_\t_\n\n"
RECORDED = json.loads(OUTCOMES.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("reader, read", [("parser", outcome), ("realiser", realiser_outcome)])
@pytest.mark.parametrize("chunk_bytes", [None, 200, 1500])
def test_every_case_as_the_sql_checks_gave_it(tmp_path, monkeypatch, reader, read, chunk_bytes):
    """Each case as the SQL checks gave it, in one chunk and cut into many (whole sentences of about
    ``chunk_bytes``): problems, counts, cycles and sentences across the cuts."""
    if chunk_bytes:
        monkeypatch.setattr(conllu, "CHUNK_BYTES", chunk_bytes)
    recorded = RECORDED[reader]
    assert len(recorded) == CASES
    differ = []
    for i in range(CASES):
        path = tmp_path / f"case{i}.conllu"
        path.write_bytes(make_output_case(i))
        if read(path) != recorded[str(i)]:
            differ.append((i, read(path), recorded[str(i)]))
    assert differ == []


@pytest.mark.parametrize(
    "text, line, problem, more",
    [
        # a space-only FORM in each of the encodings whose first byte the check looks at
        ("1\t\u3000\t_\t_\t_\t_\t0\troot\t_\t_\n\n", 1, "empty FORM", 0),
        ("1\t\u00a0 \u2009\t_\t_\t_\t_\t0\troot\t_\t_\n\n", 1, "empty FORM", 0),
        ("1\t\u1680\t_\t_\t_\t_\t0\troot\t_\t_\n\n", 1, "empty FORM", 0),
        # a cycle (words 2 and 3) in the first sentence, a problem in the second: the cycle, and one more problem
        (CYCLE + "1\tc\t_\t_\t_\t_\t5\troot\t_\t_\n\n", 2, "the heads form a cycle", 1),
        # a cycle after the first problem is not walked: the problem, and no more
        ("1\tc\t_\t_\t_\t_\t5\troot\t_\t_\n\n" + CYCLE, 1, "HEAD 5 points outside the sentence of 1 words", 0),
        # a cycle alone
        (CYCLE, 2, "the heads form a cycle", 0),
    ],
)
def test_problems_by_hand(tmp_path, text, line, problem, more):
    with pytest.raises(InputError) as err:
        read_words(write(tmp_path, "bad.conllu", text))
    assert (err.value.line, err.value.problem, err.value.more) == (line, problem, more)


@pytest.mark.slow
def test_a_space_separator_is_told_by_its_bytes():
    """Every code point but the surrogates, each followed by 'x': the check's test of the first bytes
    is True exactly where the character's Unicode category is Zs."""
    chars = [chr(i) for i in range(0x110000) if not 0xD800 <= i < 0xE000]
    encoded = [(c + "x").encode("utf-8") for c in chars]
    starts = np.cumsum([0] + [len(e) for e in encoded[:-1]])
    got = _starts_with_space(np.frombuffer(b"".join(encoded), dtype=np.uint8), starts)
    assert [c for c, yes in zip(chars, got.tolist()) if yes] == [c for c in chars if unicodedata.category(c) == "Zs"]


def test_forms_keep_what_is_not_a_space(tmp_path):
    """Spaces go from the FORM of tokens; the words of a multiword token keep theirs, as the official script
    keeps them (it compares them, lower-cased, when it aligns a multiword span)."""
    text = (
        "1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\t_\t_\t_\t_\t0\troot\t_\t_\n"
        "2\tle 1\u00a0000\t_\t_\t_\t_\t1\tdet:x\t_\t_\n2.1\te\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "3\tun\u00a0peu\t_\t_\t_\t_\t1\tdep\t_\t_\n\n"
    )
    w = read_words(write(tmp_path, "ok.conllu", text))
    assert (w.form, w.deprel, w.head, w.multiword, w.characters) == (
        ["de", "le 1\u00a0000", "unpeu"],
        ["root", "det:x", "dep"],
        [-1, 0, 0],
        [True, True, False],
        list("duunpeu"),
    )


def test_a_word_belongs_to_the_latest_range_of_its_sentence(tmp_path):
    """Ranges are not checked for their place in a parser's output: word 4 comes after range 1-2, which
    follows range 3-6, so it is outside (as the CoNLL 2018 script reads it: the latest range counts)."""
    lines = [
        "1\ta\t0\troot",
        "2\tb\t1\tdep",
        "3-6\tcdef",
        "3\tc\t1\tdep",
        "1-2\tab",
        "4\td\t1\tdep",
        "5\te\t1\tdep",
        "6\tf\t1\tdep",
    ]
    text = (
        "".join(
            "\t".join(f[:2] + ["_"] * 4 + f[2:] + ["_"] * 2 if len(f) == 4 else f + ["_"] * 8) + "\n"
            for f in (line.split("\t") for line in lines)
        )
        + "\n"
    )
    w = read_words(write(tmp_path, "ranges.conllu", text))
    assert w.multiword == [False, False, True, False, False, False]
    assert "".join(w.characters) == "abcdefabdef"
    assert list(zip(w.start, w.end)) == [(0, 1), (1, 2), (2, 6), (8, 9), (9, 10), (10, 11)]


@pytest.mark.realdata
def test_real_outputs_read_the_same_in_small_chunks(monkeypatch):
    """A real parser output read in chunks of about 20 KB (some 80 of them) gives the words of one chunk."""
    from dataclasses import asdict

    path = shared("parsing", "conll2018", "UDPipe-Future", "fr_gsd.conllu")
    whole = asdict(read_words(path))
    monkeypatch.setattr(conllu, "CHUNK_BYTES", 20_000)
    assert asdict(read_words(path)) == whole


@pytest.mark.realdata
@pytest.mark.parametrize("system", ["gold", "HIT-SCIR-18", "Stanford-18", "UDPipe-Future"])
def test_real_outputs_read_whole(system):
    """Every word line of the real files is read, in order, with its FORM (spaces removed) and DEPREL."""
    for treebank in ("en_ewt", "fr_gsd", "zh_gsd"):
        path = shared("parsing", "conll2018", system, f"{treebank}.conllu")
        w = read_words(path)
        rows = [
            line.split("\t")
            for line in path.read_text(encoding="utf-8").splitlines()
            if line and not line.startswith("#")
        ]
        words = [r for r in rows if r[0].isdigit()]
        assert w.form == ["".join(c for c in r[1] if not c.isspace()) for r in words]
        assert w.deprel == [r[7] for r in words] and w.word_id == [int(r[0]) for r in words]
        assert w.sentences == sum(1 for r in words if r[0] == "1")
        tokens = []  # the forms of the tokens: a multiword token's, or a word's outside one
        for block in path.read_text(encoding="utf-8").split("\n\n"):
            covered = 0
            for r in (line.split("\t") for line in block.splitlines() if line and not line.startswith("#")):
                if "-" in r[0]:
                    tokens.append(r[1])
                    covered = int(r[0].split("-")[1])
                elif r[0].isdigit() and int(r[0]) > covered:
                    tokens.append(r[1])
        assert w.characters == list("".join("".join(t.split()) for t in tokens))


def test_a_realisers_sentences_by_hand(tmp_path):
    """The first ``# sent_id`` of a sentence, trimmed ('' when it has none); the line it starts on (its
    sent_id line, else its first word); FORM and LEMMA of its words (LEMMA None for ``_`` or empty), the
    multiword tokens and empty nodes left out."""
    from evalhouse.loaders.outputs import read_output_file

    def word(i, form, lemma):
        return "\t".join([str(i), form, lemma] + ["_"] * 7)

    text = (
        "\n".join(
            [
                "# newdoc",
                "#sent_id=  a 1  ",
                "# sent_id = second",
                word(1, "The", ""),
                word(2, "cat", "_"),
                "1-2\tab\t_\t_",
                word(3, "sat", "sit"),
                "3.1\te\t_\t_\t_\t_\t_\t_\t_\t_",
                "",
                "# text = no id",
                word(1, "Dogs", "dog"),
                "",
                "2.1\tonly\t_\t_\t_\t_\t_\t_\t_\t_",
                "",
            ]
        )
        + "\n"
    )
    out = read_output_file(write(tmp_path, "r.conllu", text), format="conllu")
    got = [(s.key, s.line, s.forms, s.lemmas) for s in out.sentences]
    assert got == [("a 1", 2, ["The", "cat", "sat"], [None, None, "sit"]), ("", 11, ["Dogs"], ["dog"])]
