"""Arrow arrays and tables built from numpy arrays and Python lists, without ``pa.array``.

Why: pyarrow imports pandas (about 0.2 s of CPU, more than a one-sentence ingest's own work) the first
time ``pa.array``, ``pa.scalar``, ``pa.table`` of anything but Arrow arrays, ``Array.to_numpy`` or
``np.asarray(array)`` runs, to check whether its argument is a pandas object.  With DuckDB 2.0, which
scans Arrow tables and binds parameters without pandas, that import is the largest part of the fixed cost
of an ingest command.  ``Array.from_buffers`` over numpy memory imports nothing, so the common
column types are built here from their buffers:

* numpy arrays of booleans, integers and floats (zero copy for numbers), with an optional null mask, and
  two-dimensional ones as fixed-size lists (a row each);
* Python lists of ``str``, ``bool``, ``int``, ``float`` (or ints and floats: double), UTC or naive
  ``datetime`` and lists of ``str``, each with ``None`` as null.

Anything else (mixed types, dicts, ``Decimal``, other time zones, ints beyond 64 bits, ...) goes to
``pa.array``, so values and types are pyarrow's own (but for text beyond 2 GiB in one column: ``large_string``
here, a chunked ``string`` array there; and a numpy unicode array keeps an embedded NUL that ``pa.array`` cuts): ``tests/test_arrow_arrays.py`` compares every builder with
``pa.array`` on the same values.  Code that must not import pandas also reads arrays back through their
buffers, not ``to_numpy``, and calls Arrow's compute functions through :func:`kernel` (:func:`take`,
:func:`valid`), which does not import ``pyarrow.compute`` (0.045 s).
"""

from __future__ import annotations

import datetime as _dt
import sys
from typing import Iterable, Mapping, Sequence

import numpy as np

_EPOCH_UTC = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
_EPOCH = _dt.datetime(1970, 1, 1)
_MICROSECOND = _dt.timedelta(microseconds=1)
_INT32_MAX = 2**31 - 1
_NONE = type(None)
_EXACT = 2**53  # the largest ints a double holds exactly


def _pa():
    import pyarrow as pa  # late: pyarrow costs start-up to commands that do not write

    return pa


def _validity(valid: np.ndarray | None):
    """Arrow's validity bitmap of a boolean array (None when every value is valid) and the null count."""
    if valid is None:
        return None, 0
    nulls = len(valid) - int(np.count_nonzero(valid))
    if not nulls:
        return None, 0
    return _pa().py_buffer(np.packbits(valid, bitorder="little")), nulls


def _numpy_type(dtype: np.dtype):
    pa = _pa()
    if dtype.kind == "b":
        return pa.bool_()
    return pa.from_numpy_dtype(dtype)


def _is_masked(values) -> bool:
    """Whether ``values`` is a numpy masked array, without importing ``numpy.ma`` (0.008-0.015 s, a
    twenty-fifth of a one-sentence ingest): when nothing has imported it, nothing can be one."""
    ma = sys.modules.get("numpy.ma")
    return ma is not None and isinstance(values, ma.MaskedArray)


def numbers(values: np.ndarray, mask: np.ndarray | None = None):
    """An Arrow array over a one-dimensional numpy array of booleans, integers or floats (no copy for
    numbers); where ``mask`` is true the value is null (as ``pa.array(values, mask=mask)``)."""
    pa = _pa()
    if _is_masked(values):  # its masked values are nulls too, as pa.array has them
        masked = np.ma.getmaskarray(values)
        mask = masked if mask is None else masked | np.asarray(mask, dtype=bool)
        values = values.data
    values = np.asarray(values)
    if values.ndim != 1 or values.dtype.kind not in "biuf":
        raise TypeError(f"numbers() takes a one-dimensional numpy array of numbers or booleans, not {values.dtype}")
    if not values.dtype.isnative:
        values = values.astype(values.dtype.newbyteorder("="))
    values = np.ascontiguousarray(values)
    bitmap, nulls = _validity(None if mask is None else ~np.asarray(mask, dtype=bool))
    if values.dtype.kind == "b":
        data = pa.py_buffer(np.packbits(values, bitorder="little"))
    else:
        data = pa.py_buffer(values)
    return pa.Array.from_buffers(_numpy_type(values.dtype), len(values), [bitmap, data], null_count=nulls)


def rows_of_numbers(values: np.ndarray):
    """A fixed-size list array over a two-dimensional numpy array of numbers or booleans: row i is value i
    (``pa.array(values.tolist(), pa.list_(type, width))``, which imports pandas; ``pa.array`` refuses the
    numpy array itself). DuckDB reads it as an ``ARRAY`` column (``INTEGER[4]``)."""
    pa = _pa()
    values = np.asarray(values)
    if values.ndim != 2 or values.dtype.kind not in "biuf":
        raise TypeError(
            f"rows_of_numbers() takes a two-dimensional numpy array of numbers, not {values.dtype} "
            f"of {values.ndim} dimensions"
        )
    flat = numbers(np.ascontiguousarray(values).reshape(-1))
    return pa.FixedSizeListArray.from_arrays(flat, values.shape[1])


def string_array(offsets: np.ndarray, data: bytes, valid: np.ndarray | None = None):
    """The string array whose value i is ``data[offsets[i]:offsets[i + 1]]`` (no copy of ``data``), null where
    ``valid`` is false: ``string`` with 32-bit offsets, ``large_string`` when ``data`` is beyond 2 GiB (where
    ``pa.array`` would make a chunked array instead)."""
    pa = _pa()
    bitmap, nulls = _validity(valid)
    large = len(data) > _INT32_MAX
    offsets = np.ascontiguousarray(offsets, dtype=np.int64 if large else np.int32)
    kind = pa.large_string() if large else pa.string()
    return pa.Array.from_buffers(
        kind, len(offsets) - 1, [bitmap, pa.py_buffer(offsets), pa.py_buffer(data)], null_count=nulls
    )


def strings(values: Sequence[str | None], has_nulls: bool = True):
    """An Arrow string array of Python strings, ``None`` as null (as ``pa.array(values, pa.string())``);
    ``has_nulls=False`` says there is no ``None`` (not looked for then)."""
    n = len(values)
    nulls = [i for i, v in enumerate(values) if v is None] if has_nulls else []
    if nulls:
        values = ["" if v is None else v for v in values]
    text = "".join(values)
    data = text.encode("utf-8")  # a lone surrogate raises UnicodeEncodeError, as pa.array raises its own error
    if len(data) == len(text):  # ASCII: a string's length in bytes is its length
        lengths = np.fromiter(map(len, values), dtype=np.int64, count=n)
    else:
        lengths = np.fromiter((len(v.encode("utf-8")) for v in values), dtype=np.int64, count=n)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    valid = None
    if nulls:
        valid = np.ones(n, dtype=bool)
        valid[nulls] = False
    return string_array(offsets, data, valid)


def _valid_and_filled(values: Sequence, fill) -> tuple[np.ndarray | None, list]:
    valid = np.fromiter((v is not None for v in values), dtype=bool, count=len(values))
    if valid.all():
        return None, list(values)
    return valid, [fill if v is None else v for v in values]


def _from_list(values: Sequence):
    """The Arrow array ``pa.array(values)`` would give, built from buffers for the common types."""
    pa = _pa()
    kinds = set(map(type, values))
    has_nulls = _NONE in kinds
    kinds.discard(_NONE)
    if not kinds:
        return pa.nulls(len(values))
    if kinds == {str}:
        return strings(values, has_nulls)
    if kinds <= {int, float, bool} and (kinds == {bool} or bool not in kinds):
        dtype = np.bool_ if kinds == {bool} else np.float64 if float in kinds else np.int64
        if kinds == {int, float} and any(type(v) is int and not -_EXACT <= v <= _EXACT for v in values):
            return pa.array(values)  # an int a double cannot hold exactly: pyarrow's error, not a rounding
        valid, filled = _valid_and_filled(values, 0)
        try:
            array = np.array(filled, dtype=dtype)
        except OverflowError:  # beyond 64 bits: pyarrow's own error or type
            return pa.array(values)
        return numbers(array, None if valid is None else ~valid)
    if kinds == {_dt.datetime}:
        zones = {v.tzinfo for v in values if v is not None}
        # the utc object itself: another zero-offset zone (compared equal) keeps its own name in pyarrow's type
        if zones == {None} or (len(zones) == 1 and next(iter(zones)) is _dt.timezone.utc):
            epoch = _EPOCH if zones == {None} else _EPOCH_UTC
            valid, filled = _valid_and_filled(values, epoch)
            micros = np.array([(v - epoch) // _MICROSECOND for v in filled], dtype=np.int64)
            bitmap, nulls = _validity(valid)
            kind = pa.timestamp("us") if zones == {None} else pa.timestamp("us", tz="UTC")
            return pa.Array.from_buffers(kind, len(values), [bitmap, pa.py_buffer(micros)], null_count=nulls)
    if kinds == {list} and all(type(s) is str for v in values if v is not None for s in v):
        valid, filled = _valid_and_filled(values, [])
        offsets = np.zeros(len(values) + 1, dtype=np.int32)
        np.cumsum(np.fromiter(map(len, filled), dtype=np.int64, count=len(values)), out=offsets[1:])
        flat = [s for v in filled for s in v]
        child = strings(flat, has_nulls=False) if flat else pa.nulls(0)  # no strings at all: list<null>
        bitmap, nulls = _validity(valid)
        return pa.ListArray.from_buffers(
            pa.list_(child.type), len(values), [bitmap, pa.py_buffer(offsets)], null_count=nulls, children=[child]
        )
    return pa.array(values)


def column(values):
    """An Arrow array (or chunked array) of a column given as Arrow, numpy, a range or a Python sequence."""
    pa = _pa()
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    if isinstance(values, np.ndarray):
        if values.ndim == 1 and values.dtype.kind in "biuf":
            return numbers(values)
        if values.ndim == 2 and values.dtype.kind in "biuf":
            return rows_of_numbers(values)
        if values.ndim == 1 and values.dtype.kind == "U":
            return strings(values.tolist())
        return pa.array(values)
    if isinstance(values, range):
        return numbers(np.arange(values.start, values.stop, values.step, dtype=np.int64))
    if isinstance(values, (list, tuple)):
        return _from_list(values)
    return pa.array(values)


def table(columns: Mapping[str, object]):
    """An Arrow table of named columns, each as :func:`column` takes it (as ``pa.table(columns)``)."""
    pa = _pa()
    arrays = {name: column(values) for name, values in columns.items()}
    return pa.table(arrays) if arrays else pa.table({})


def table_of_rows(rows: Iterable[Mapping[str, object]]):
    """An Arrow table of row mappings; a column is every key any row has, in order of first appearance,
    null where a row lacks it (``pa.Table.from_pylist`` takes the first row's keys and drops the others)."""
    rows = list(rows)
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    return table({name: [row.get(name) for row in rows] for name in names})


def dictionary(codes: np.ndarray, names: Sequence[str]):
    """A dictionary-encoded string array: value i is ``names[codes[i]]`` (codes: a numpy integer array)."""
    return _pa().DictionaryArray.from_arrays(numbers(np.asarray(codes)), strings(list(names)))


def concatenate(arrays: Sequence):
    """One Arrow array of the values of ``arrays`` (Arrow arrays of one type) in order; no arrays: an empty
    string array."""
    if not arrays:
        return strings([], has_nulls=False)
    return _pa().concat_arrays(list(arrays))


def map_distinct(array, fn):
    """``fn`` applied to each string of the Arrow string array ``array`` (no nulls), as an Arrow string array,
    calling ``fn`` once per distinct value (a column of few distinct values such as FEATS)."""
    encoded = kernel("dictionary_encode", array)
    if isinstance(encoded, _pa().ChunkedArray):
        encoded = encoded.combine_chunks()
    values = [fn(v) for v in encoded.dictionary.to_pylist()]
    return take(strings(values, has_nulls=False), encoded.indices)


def shared_codes(*arrays) -> tuple[list[np.ndarray], list[str]]:
    """Integer codes of the strings of ``arrays`` (Arrow string arrays without nulls) shared by all of them,
    equal strings having equal codes: (one numpy int64 array per input, the strings in code order)."""
    encoded = kernel("dictionary_encode", concatenate(list(arrays)))
    indices = encoded.indices
    flat = np.frombuffer(indices.buffers()[1], dtype=np.int32)[indices.offset : indices.offset + len(indices)]
    bounds = np.cumsum([0] + [len(a) for a in arrays])
    return [flat[a:b].astype(np.int64) for a, b in zip(bounds[:-1], bounds[1:])], encoded.dictionary.to_pylist()


def repeated(value: str, n: int):
    """``n`` rows of the string ``value``, as a one-entry dictionary (what ``strings([value] * n)`` holds, without
    ``n`` copies of its bytes; DuckDB reads it as VARCHAR)."""
    return dictionary(np.zeros(n, dtype=np.int8), [value])


def empty_table(schema):
    """A table of ``schema`` without rows (``schema.empty_table()`` imports pandas)."""
    return _pa().Table.from_batches([], schema)


def booleans_of(array) -> np.ndarray:
    """An Arrow boolean array without nulls (``pc.is_valid``, a comparison) as a numpy boolean array, read
    from its bitmap (``np.asarray(array)`` imports pandas)."""
    pa = _pa()
    if isinstance(array, pa.ChunkedArray):
        parts = [booleans_of(chunk) for chunk in array.chunks]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=bool)
    if array.type != pa.bool_() or array.null_count:
        raise TypeError(
            f"booleans_of() takes a boolean array without nulls, not {array.type} with {array.null_count} nulls"
        )
    n, offset = len(array), array.offset
    if not n:
        return np.zeros(0, dtype=bool)
    bits = np.frombuffer(array.buffers()[1], dtype=np.uint8)
    return np.unpackbits(bits, count=offset + n, bitorder="little")[offset:].astype(bool)


def kernel(name: str, *args, options=None):
    """Arrow's compute function ``name`` on ``args`` (arrays or scalars), with its options object (from
    :func:`kernel_options`): ``pc.<name>(*args, ...)`` without importing ``pyarrow.compute``, which builds a
    Python wrapper for each of its ~300 functions on import (0.045 s of CPU, a tenth of a one-sentence ingest;
    ``Array.take``, ``Array.dictionary_encode`` and the like import it too). The kernels themselves live in
    ``pyarrow._compute``, which ``pyarrow.compute`` re-exports; should a pyarrow release move it, the public
    module is used instead."""
    return _compute().call_function(name, list(args), options)


def valid(array) -> np.ndarray:
    """Which values of ``array`` are not null, as a numpy boolean array (``array.is_valid()`` imports
    ``pyarrow.compute``: see :func:`kernel`)."""
    return booleans_of(kernel("is_valid", array))


def take(values, indices):
    """``values.take(indices)`` (nulls where an index is null) without importing ``pyarrow.compute``: see
    :func:`kernel`."""
    return kernel("take", values, indices)


def kernel_options(kind: str, *args, **kwargs):
    """An options object of Arrow's compute functions (``kernel_options("ExtractRegexOptions", pattern)``)."""
    return getattr(_compute(), kind)(*args, **kwargs)


def _compute():
    try:
        import pyarrow._compute as compute  # late, and not pyarrow.compute: see kernel()
    except ImportError:  # pragma: no cover - a pyarrow without the private module
        import pyarrow.compute as compute  # the public module: the same kernels, slower to import
    return compute
