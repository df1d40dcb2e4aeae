"""Arrow arrays built from buffers (:mod:`evalhouse.loaders.arrow_arrays`) are the arrays ``pa.array`` makes of
the same values, and the ingest commands that use them no longer import pandas (issue 18, fixed cost).

The reference is pyarrow itself: every case is compared with ``pa.array`` (or ``pa.Table.from_pylist``), type
and values, including the nulls."""

from __future__ import annotations

import datetime as dt
import random
import re
import subprocess
import sys
import textwrap
import zoneinfo

import duckdb
import numpy as np
import pyarrow as pa
import pytest

from evalhouse.loaders import arrow_arrays
from evalhouse.loaders.conllu import chunks
from evalhouse.demo import sample_path

from tests.conftest import shared

UTC = dt.timezone.utc


def same(built, values, *args, **kwargs):
    want = pa.array(values, *args, **kwargs)
    assert built.type == want.type
    assert built.null_count == want.null_count
    assert built.equals(want), (built, want)
    built.validate(full=True)


def random_strings(rng: random.Random, n: int, alphabet: str) -> list[str | None]:
    return [None if rng.random() < 0.1 else "".join(rng.choices(alphabet, k=rng.randint(0, 8))) for _ in range(n)]


# ASCII, other text, and other text with line feeds and carriage returns in it
@pytest.mark.parametrize("alphabet", ["abc xyz", "aé漢\u00a0\U0001f600\t", "aé\n漢\r\U0001f600"])
@pytest.mark.parametrize("n", [0, 1, 2, 7, 8, 9, 1000])
def test_strings_are_pa_array_of_the_same_strings(alphabet, n):
    rng = random.Random(n)
    values = random_strings(rng, n, alphabet)
    same(arrow_arrays.column(values), values)
    same(arrow_arrays.strings(values), values, pa.string())
    no_nulls = ["" if v is None else v for v in values]
    same(arrow_arrays.strings(no_nulls, has_nulls=False), no_nulls, pa.string())


@pytest.mark.parametrize(
    "values",
    [
        [1, 2, None, -3, 2**63 - 1, -(2**63)],
        [0.5, None, float("inf"), -0.0, 1e300],
        [1, 2.5, None],  # ints and floats: double, as pyarrow infers it
        [True, None, False, True, True, False, False, False, True],
        [None, None, None],
        [
            dt.datetime(2026, 11, 24, 22, 1, 2, 345678, tzinfo=UTC),
            None,
            dt.datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=UTC),
        ],
        [dt.datetime(2026, 11, 24, 22, 1, 2, 345678), None, dt.datetime(1900, 1, 1)],
        [["a", "é"], None, [], ["x"]],
        [[], []],
        [[], None],
        # not built here, handed to pa.array: the same array or the same error
        [dt.datetime(2026, 1, 1, tzinfo=zoneinfo.ZoneInfo("Europe/Paris"))],
        [dt.datetime(2026, 1, 1, tzinfo=dt.timezone(dt.timedelta(0), "Z"))],  # equal to UTC, named otherwise
        [0.5, 2**53, -(2**53)],
        [{"a": 1}, None],
        [[1, 2], [3]],
        [b"bytes", None],
        [np.int64(3), 4],
    ],
)
def test_python_lists_are_pa_array_of_the_same_values(values):
    same(arrow_arrays.column(values), values)


@pytest.mark.parametrize("values", [[1, "a"], [True, 1], ["x", "\ud800"], [2**64], [0.5, 2**53 + 1], [2**63, 0.5]])
def test_what_pa_array_refuses_is_refused(values):
    with pytest.raises(Exception) as theirs:
        pa.array(values)
    with pytest.raises(Exception) as ours:
        arrow_arrays.column(values)
    assert isinstance(ours.value, (type(theirs.value), UnicodeEncodeError))


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64, np.float32, np.float64, np.bool_]
)
def test_numpy_numbers_with_and_without_a_mask(dtype):
    rng = np.random.default_rng(7)
    values = (rng.integers(0, 100, 1001) % 2 == 0) if dtype is np.bool_ else rng.integers(0, 100, 1001).astype(dtype)
    mask = rng.random(1001) < 0.2
    same(arrow_arrays.numbers(values), values)
    same(arrow_arrays.numbers(values, mask=mask), values, mask=mask)
    same(arrow_arrays.numbers(values[::3], mask=mask[::3]), values[::3], mask=mask[::3])  # not contiguous
    same(arrow_arrays.column(values), values)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64, np.bool_])
@pytest.mark.parametrize("shape", [(0, 4), (1, 4), (1001, 4), (5, 1)])
def test_two_dimensional_numpy_numbers_are_fixed_size_lists(dtype, shape):
    rng = np.random.default_rng(11)
    values = rng.integers(0, 100, shape).astype(dtype)
    kind = pa.list_(pa.bool_() if dtype is np.bool_ else pa.from_numpy_dtype(np.dtype(dtype)), shape[1])
    same(arrow_arrays.rows_of_numbers(values), values.tolist(), kind)
    same(arrow_arrays.column(values), values.tolist(), kind)
    same(arrow_arrays.column(values[:, ::-1]), values[:, ::-1].tolist(), kind)  # not contiguous
    with pytest.raises(TypeError):
        arrow_arrays.rows_of_numbers(values.reshape(-1))


def test_masked_numpy_arrays_keep_their_nulls():
    values = np.ma.masked_array([1, 2, 3, 4], mask=[0, 1, 0, 0])
    same(arrow_arrays.column(values), values)
    assert arrow_arrays.numbers(values, mask=np.array([0, 0, 1, 0], dtype=bool)).to_pylist() == [1, None, None, 4]


def test_numpy_numbers_in_the_other_byte_order():
    values = np.arange(10, dtype=">i4")
    same(arrow_arrays.numbers(values), values.astype("<i4"))


def test_ranges_tuples_and_unicode_numpy_arrays():
    same(arrow_arrays.column(range(3, 30, 4)), list(range(3, 30, 4)))
    same(arrow_arrays.column(("a", None)), ["a", None])
    same(arrow_arrays.column(np.array(["word", "range", "é"])), ["word", "range", "é"])


def test_tables_of_columns_and_of_rows():
    columns = {"a": [1, None], "b": np.array([1.5, 2.5]), "c": ("x", "y"), "d": range(2)}
    assert arrow_arrays.table(columns).equals(
        pa.table({k: list(v) if isinstance(v, (tuple, range)) else v for k, v in columns.items()})
    )
    rows = [
        {"a": 1, "b": "x"},
        {"b": None, "c": ["l"]},
        {"a": None, "c": None, "d": dt.datetime(2026, 1, 1, tzinfo=UTC)},
    ]
    # every key of every row (pa.Table.from_pylist alone would keep only the first row's keys)
    assert arrow_arrays.table_of_rows(rows).equals(pa.Table.from_pylist([{k: r.get(k) for k in "abcd"} for r in rows]))
    assert arrow_arrays.table_of_rows([]).num_rows == 0


@pytest.mark.parametrize("n", [0, 1, 1000])
def test_a_repeated_string_is_a_one_entry_dictionary(n):
    built = arrow_arrays.repeated("team é", n)
    built.validate(full=True)
    assert built.type == pa.dictionary(pa.int8(), pa.string())
    assert built.dictionary.to_pylist() == ["team é"] and built.to_pylist() == ["team é"] * n
    con = duckdb.connect()  # DuckDB reads it as the strings themselves
    con.register("t", pa.table({"v": built}))
    assert con.execute("SELECT count(*), min(v), typeof(min(v)) FROM t").fetchall() == [
        (n, "team é" if n else None, "VARCHAR")
    ]


def test_dictionaries_and_string_arrays():
    codes = np.array([2, 0, 1, 2], dtype=np.int8)
    got = arrow_arrays.dictionary(codes, ["blank", "comment", "token"])
    assert got.to_pylist() == ["token", "blank", "comment", "token"]
    assert got.type == pa.dictionary(pa.int8(), pa.string())
    text = "abécd".encode()
    got = arrow_arrays.string_array(np.array([0, 1, 4, 4, 6]), text, np.array([True, True, False, True]))
    assert got.to_pylist() == ["a", "bé", None, "cd"]
    got.validate(full=True)


def test_text_beyond_32_bit_offsets_becomes_large_string(monkeypatch):
    """Past 2 GiB of text a column needs 64-bit offsets (the limit is lowered here instead of writing 2 GiB)."""
    monkeypatch.setattr(arrow_arrays, "_INT32_MAX", 10)
    got = arrow_arrays.strings(["abcdef", None, "ghijkl", "é"])
    got.validate(full=True)
    assert got.type == pa.large_string()
    assert got.to_pylist() == ["abcdef", None, "ghijkl", "é"]
    assert arrow_arrays.strings(["abc"]).type == pa.string()


def test_booleans_read_back_from_their_bitmap():
    rng = np.random.default_rng(3)
    values = rng.random(1000) < 0.5
    array = pa.array(values)
    for piece in (array, array.slice(3), array.slice(5, 17), array.slice(0, 0)):
        assert arrow_arrays.booleans_of(piece).tolist() == piece.to_pylist()
    chunked = pa.chunked_array([array.slice(1, 9), array.slice(100, 3)])
    assert arrow_arrays.booleans_of(chunked).tolist() == chunked.to_pylist()
    with pytest.raises(TypeError):
        arrow_arrays.booleans_of(pa.array([True, None]))


def test_empty_table_has_the_schema():
    schema = pa.schema([("a", pa.int64()), ("b", pa.dictionary(pa.int8(), pa.string()))])
    empty = arrow_arrays.empty_table(schema)
    assert empty.schema == schema and empty.num_rows == 0


def test_chunk_lines_are_the_lines_of_the_text():
    """Chunk.lines of every line of every chunk, against the text itself, on the bundled sample and a real UD
    file with multiword tokens."""
    for path in (sample_path(), shared("ud", "UD_French-GSD", "fr_gsd-ud-test.conllu")):
        data = path.read_bytes()
        seen = []
        for c in chunks(iter([data]), chunk_bytes=50_000):
            got = c.lines(np.arange(c.n_lines))
            got.validate(full=True)
            seen.extend(got.to_pylist())
        assert seen == data.decode("utf-8").split("\n")[:-1]


NO_PANDAS = textwrap.dedent("""
    import sys
    import evalhouse
    from evalhouse.ingest.dependency_runs import ingest_dependency_run
    db, treebank, gold, system = sys.argv[1:]
    with evalhouse.connect(db) as wh:
        wh.ingest_treebank([treebank], corpus="one")
        ingest_dependency_run(wh, system, gold, corpus="gold", team="t", run="1")
        ingest_dependency_run(wh, system, gold, corpus="gold", team="t", run="2")
        with open(db + ".txt", "w", encoding="utf-8") as out:  # the sentence's own text, as a one-line output
            out.write(wh.sql("SELECT text FROM sentences WHERE corpus = 'one'").fetchone()[0] + "\\n")
        wh.ingest_outputs(db + ".txt", reference="one", team="t", run="1")  # scored in this process
    print(sorted(m for m in ("pandas", "pyarrow.compute", "numpy.ma") if m in sys.modules))
""")


@pytest.mark.slow
@pytest.mark.skipif(
    int(duckdb.__version__.split(".")[0]) < 2, reason="duckdb 1.x imports pandas to bind any query parameter"
)
def test_a_treebank_ingest_a_dependency_run_and_an_output_do_not_import_pandas(tmp_path):
    """The 0.2 s pandas import is no longer part of these commands (issue 18's fixed cost; for an output, of every
    process that scores one, which held 30 MB in each of a campaign's workers): the test fails when a
    pa.array, pa.scalar, Table.cast or to_numpy comes back into their path; nor pyarrow.compute (0.045 s: the
    loaders call its kernels through arrow_arrays.kernel; Array.take, is_valid and dictionary_encode import it)
    or numpy.ma (0.01 s)."""
    one = tmp_path / "one.conllu"  # a sentence with a multiword token (the gold words read them too)
    with_range = next(
        b for b in sample_path().read_text(encoding="utf-8").split("\n\n") if re.search(r"^[0-9]+-[0-9]+\t", b, re.M)
    )
    one.write_text(with_range + "\n\n", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", NO_PANDAS, str(tmp_path / "w.duckdb"), str(one), str(one), str(one)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.split("\n")[-2] == "[]"


def test_kernels_equal_pyarrow_compute():
    """arrow_arrays.kernel / take / valid (pyarrow._compute, without the pyarrow.compute module) give what
    pyarrow.compute's own functions give, for each call the treebank loader makes."""
    import pyarrow.compute as pc

    lines = pa.array(["# sent_id = a-1 ", "# text = Hello  world", "#sent_id=b", None, "# text =", "# other"])
    for pattern in (r"^#\s*sent_id\s*=\s*(?P<v>.*?)\s*$", r"^#\s*text\s*=\s?(?P<v>.*)$"):
        got = arrow_arrays.kernel(
            "struct_field",
            arrow_arrays.kernel(
                "extract_regex", lines, options=arrow_arrays.kernel_options("ExtractRegexOptions", pattern)
            ),
            options=arrow_arrays.kernel_options("StructFieldOptions", [0]),
        )
        assert got.equals(pc.struct_field(pc.extract_regex(lines, pattern), [0]))
        assert got.to_pylist() != [None] * len(lines)
    values = pa.array(["x", None, "y", "z"])
    indices = pa.array([3, None, 0, 1, 3], type=pa.int64())
    assert arrow_arrays.take(values, indices).equals(pc.take(values, indices))
    assert arrow_arrays.take(values, indices).to_pylist() == ["z", None, "x", None, "z"]
    assert arrow_arrays.valid(values).tolist() == [True, False, True, True]
    lemmas, forms = pa.array(["_", "go", "_", "Ø"]), pa.array(["_", "went", "runs", "x"])
    lacking = arrow_arrays.kernel(
        "is_in", lemmas, options=arrow_arrays.kernel_options("SetLookupOptions", pa.array(["_", "Ø"]))
    )
    assert lacking.equals(pc.is_in(lemmas, value_set=pa.array(["_", "Ø"])))
    chosen = arrow_arrays.kernel("dictionary_encode", arrow_arrays.kernel("if_else", lacking, forms, lemmas))
    assert chosen.equals(pc.if_else(lacking, forms, lemmas).dictionary_encode())
    missing = arrow_arrays.kernel(
        "sum",
        arrow_arrays.kernel(
            "and", lacking, arrow_arrays.kernel("invert", arrow_arrays.kernel("equal", forms, pa.scalar("_")))
        ),
    )
    assert missing.as_py() == 2 == pc.sum(pc.and_(lacking, pc.invert(pc.equal(forms, "_")))).as_py()


def test_concatenate_map_distinct_and_shared_codes():
    a, b = pa.array(["Number=Sing", "_", "Foo=1|Case=Nom"]), pa.array(["_", "Case=Nom", "Number=Sing"])
    assert arrow_arrays.concatenate([a, b]).to_pylist() == a.to_pylist() + b.to_pylist()
    assert arrow_arrays.concatenate([]).to_pylist() == []
    calls = []

    def upper(x):
        calls.append(x)
        return x.upper()

    assert arrow_arrays.map_distinct(arrow_arrays.concatenate([a, b]), upper).to_pylist() == [
        x.upper() for x in a.to_pylist() + b.to_pylist()
    ]
    assert sorted(calls) == sorted(set(a.to_pylist() + b.to_pylist()))  # once per distinct value
    (ca, cb), names = arrow_arrays.shared_codes(a, b)
    assert [names[c] for c in ca] == a.to_pylist() and [names[c] for c in cb] == b.to_pylist()
    assert len(names) == len(set(names)) == 4 and ca.dtype == cb.dtype == np.int64
