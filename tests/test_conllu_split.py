"""A chunk's arrays from the C kernel (``loaders/_conllu.c``) equal those of its definition in numpy
(``loaders/conllu.py``, ``_split_numpy``) on every real CoNLL-U file and on random lines, IDs and HEADs
(issue 18: the kernel only makes the treebank ingest faster)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from evalhouse.demo import sample_path
from evalhouse.loaders import conllu
from evalhouse.loaders.conllu import chunks

from tests.conftest import shared

NAMES = ("start", "end", "kind", "line", "n_fields", "first_tab", "id_kind", "major", "minor", "head", "fields")


def _kernel():
    if conllu._conllu is None:
        pytest.fail("the C kernel loaders/_conllu.c is not built (pip install -e . builds it where a C compiler is)")
    return conllu._conllu


def assert_same_arrays(data: bytes) -> None:
    """The kernel's arrays of ``data`` (whole lines) are the numpy definition's, value and type."""
    want = conllu._split_numpy(np.frombuffer(data, dtype=np.uint8))
    got = list(_kernel().split_lines(data))
    for k, (name, w) in enumerate(zip(NAMES, want)):
        g = np.frombuffer(got[k], dtype=np.int8 if k in (2, 6) else np.int64)
        if name == "fields":
            g = g.reshape(-1, 10, 2)
        assert g.dtype == w.dtype and g.shape == w.shape, (name, g.dtype, w.dtype, g.shape, w.shape)
        assert np.array_equal(g, w), (name, np.flatnonzero((g != w).reshape(len(g), -1).any(axis=1))[:5])


def test_the_sample_and_its_chunks():
    data = sample_path().read_bytes()
    assert_same_arrays(data)
    for c in chunks(iter([data]), chunk_bytes=2_000):  # through split(), kernel and the arrays after it
        assert_same_arrays(c.data)


@pytest.mark.realdata
def test_every_real_conllu_file():
    root = shared()
    files = sorted(root.rglob("*.conllu"))
    assert len(files) >= 20, files
    for path in files:
        data = path.read_bytes().replace(b"\r\n", b"\n").removeprefix(b"\xef\xbb\xbf")
        if not data.endswith(b"\n"):
            data += b"\n"
        assert_same_arrays(data)


ID = st.one_of(
    st.integers(0, 10**10).map(str),
    st.tuples(st.integers(0, 10**10), st.sampled_from("-.:x"), st.integers(0, 10**10)).map(
        lambda t: f"{t[0]}{t[1]}{t[2]}"
    ),
    st.sampled_from(
        [
            "",
            "0",
            "01",
            "1-",
            "-1",
            "1.0",
            "0.1",
            "00.1",
            "1..2",
            "1-2-3",
            "1-02",
            "9" * 19,
            "9" * 20,
            "123456789.123456789",
            "1234567890.1",
            "1 ",
            "१",
        ]
    ),
    st.text(alphabet="0123456789-.a", max_size=22),
)
HEAD = st.one_of(
    st.integers(0, 10**10).map(str),
    st.sampled_from(["", "0", "00", "07", "-1", "1a", "_", "1.5"]),
    st.text(alphabet="0123456789a", max_size=11),
)
FIELD = st.text(alphabet="ab_=|\x00\x0b\t é", max_size=4)


@st.composite
def lines(draw):
    out = []
    for _ in range(draw(st.integers(0, 30))):
        shape = draw(st.sampled_from(["token", "token", "token", "short", "long", "comment", "blank", "space"]))
        if shape == "comment":
            out.append("#" + draw(FIELD))
        elif shape == "blank":
            out.append("")
        elif shape == "space":
            out.append(draw(st.sampled_from([" ", "\t", " \t "])))
        else:
            n = {"token": 10, "short": draw(st.integers(1, 9)), "long": draw(st.integers(11, 13))}[shape]
            cols = [draw(ID)] + [draw(FIELD) for _ in range(n - 1)]
            if n >= 7:
                cols[6] = draw(HEAD)
            out.append("\t".join(cols))
    return ("\n".join(out) + "\n").encode("utf-8") if out else b""


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(data=lines())
@example(data=b"")
@example(data=b"\n\n\n")
@example(data=b"1\ta\n")
@example(data=b"1\ta\tb\tc\td\te\t0\tf\tg\th\n#c\n\n2-3\t\t\t\t\t\t\t\t\t\n1.1\tx\n")
def test_random_lines(data):
    assert_same_arrays(data)


def test_text_after_the_last_line_feed_is_not_a_line():
    assert_same_arrays(b"1\ta\tb\tc\td\te\t0\tf\tg\th\n2\tb")
    start = np.frombuffer(_kernel().split_lines(b"1\tx\n2\ty")[0], dtype=np.int64)
    assert start.tolist() == [0]


def test_split_without_the_kernel_gives_the_same_chunks(monkeypatch):
    """split() itself, with and without the kernel (installed without a C compiler): the same chunk arrays."""
    data = sample_path().read_bytes()
    with_kernel = list(chunks(iter([data]), chunk_bytes=3_000))
    monkeypatch.setattr(conllu, "_conllu", None)
    without = list(chunks(iter([data]), chunk_bytes=3_000))
    assert len(with_kernel) == len(without) > 3
    for a, b in zip(with_kernel, without):
        for name in (
            "start",
            "end",
            "kind",
            "block",
            "line_no",
            "line",
            "n_fields",
            "id_kind",
            "major",
            "minor",
            "head",
            "ordinal",
            "fields",
            "first_tab",
        ):
            x, y = getattr(a, name), getattr(b, name)
            assert x.dtype == y.dtype and np.array_equal(x, y), name
