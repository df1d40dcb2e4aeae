"""Shared fixtures: an in-memory warehouse with the schema applied, and the real-data location."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import duckdb
import pytest

# Bytecode caches (git-ignored __pycache__/) are written even where PYTHONDONTWRITEBYTECODE is set (as on the
# machines this suite was timed on): without them every xdist worker and every command a test runs parses and
# compiles the package and the rewritten test modules again, about 7 s of CPU per worker before the first test.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import evalhouse  # noqa: E402 (after the bytecode switch, so that the package is cached too)
from evalhouse.warehouse import schema_files  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
TEST_DATA = Path(__file__).resolve().parent / "data"
SAMPLE = REPO / "evalhouse" / "sample" / "sample.conllu"
# ../shared/data beside the checkout (CI has it there); EVALHOUSE_SHARED_DATA overrides.
SHARED_DATA = Path(os.environ.get("EVALHOUSE_SHARED_DATA", REPO.parent / "shared" / "data"))
# the reference tools our numbers must equal (../shared/tools: the official CoNLL 2018 script, EVALB in C), run as peers
SHARED_TOOLS = Path(os.environ.get("EVALHOUSE_SHARED_TOOLS", SHARED_DATA.parent / "tools"))
# the suite also runs on DuckDB 1.5.6 (the declared range), where writing is refused unless accepted
# explicitly (evalhouse.warehouse.refuse_tearing_duckdb; tests/test_sandbox.py tests the refusal)
if int(duckdb.__version__.split(".")[0]) < 2:
    os.environ.setdefault("EVALHOUSE_ALLOW_DUCKDB_1_5_WRITES", "1")
# a new warehouse file is a copy of a cached empty one (evalhouse.template): the tests, and the commands they
# run, keep that cache in a directory of their own, not in ~/.cache
if "EVALHOUSE_CACHE_DIR" not in os.environ:
    os.environ["EVALHOUSE_CACHE_DIR"] = tempfile.mkdtemp(prefix="evalhouse-test-cache-")
    atexit.register(shutil.rmtree, os.environ["EVALHOUSE_CACHE_DIR"], True)


# the fast loop, `python -m pytest -m fast`: every test needing nothing outside the repository (no ../shared data,
# no Java, no PostgreSQL) and not marked slow
NOT_FAST = ("realdata", "spark", "postgres", "slow")


def pytest_collection_modifyitems(items):
    for item in items:
        if not any(item.get_closest_marker(name) for name in NOT_FAST):
            item.add_marker(pytest.mark.fast)


def significant(value):
    """A float at 12 significant digits, anything else unchanged: for comparing the results of two
    queries, since DuckDB 2.0 sums doubles in parallel and a mean over many rows can differ in its last
    bit from one query to the next (docs/engines-and-bi.md#floats-from-one-run-to-the-next)."""
    return float(f"{value:.12g}") if isinstance(value, float) else value


# the 13 parsers of ../shared/data/constituency/parser-outputs-wsj-sample, scored by both EVALB tests
PTB_PARSERS = [
    "berkeley",
    "bikel",
    "bubs",
    "charniak_basic",
    "charniak_reranking",
    "charniak_selftrained_basic",
    "charniak_selftrained_reranking",
    "collins.1",
    "collins.2",
    "collins.3",
    "henderson",
    "stanford",
    "stanford_factored",
]


def shared(*parts: str) -> Path:
    """Path under ../shared/data, skipping the test loudly when it is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"REAL DATA MISSING: {path} is absent, so this real-data test cannot run")
    return path


def tool(*parts: str) -> Path:
    """Path under ../shared/tools, skipping the test loudly when it is absent."""
    path = SHARED_TOOLS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"REFERENCE TOOL MISSING: {path} is absent, so this comparison with the peer cannot run")
    return path


@pytest.fixture(scope="session")
def conll18_script():
    """The official CoNLL 2018 evaluation script (``conll18_ud_eval.py`` 1.2) as a module: its
    ``load_conllu_file`` and ``evaluate`` are the peer the dependency metrics are compared with."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("conll18_ud_eval", tool("conll18_ud_eval.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def evalb_c(tmp_path_factory) -> Path:
    """EVALB in C, built from ../shared/tools/evalb-c/evalb.c with gcc into a temporary directory, as its
    README says (`gcc -O2 -o evalb evalb.c`); the test is skipped loudly without the source or gcc."""
    import subprocess

    source = tool("evalb-c", "evalb.c")
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("REFERENCE TOOL MISSING: no gcc to build EVALB in C from ../shared/tools/evalb-c")
    program = tmp_path_factory.mktemp("evalb-c") / "evalb"
    subprocess.run([gcc, "-O2", "-o", str(program), str(source)], check=True, capture_output=True)
    return program


@pytest.fixture(scope="session")
def _session_warehouse():
    with evalhouse.connect(":memory:") as warehouse:
        yield warehouse


def empty(warehouse):
    """Delete every row of every base table, and the temporary tables: the warehouse is as new (creating a
    new one applies ~600 DDL statements, 0.2 s of CPU)."""
    for f in schema_files():
        warehouse.con.execute(f'DELETE FROM "{f.name}"')
    for (name,) in warehouse.sql("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall():
        warehouse.con.execute(f'DROP TABLE temp."{name}"')
    return warehouse


@pytest.fixture
def wh(_session_warehouse):
    """An empty in-memory warehouse (schema and views applied, UDFs registered), emptied for each test."""
    yield empty(_session_warehouse)


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    """Write a small test file (text is written as UTF-8 with LF line ends untouched)."""
    path = tmp_path / name
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path
