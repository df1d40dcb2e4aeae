"""The scale tables in docs/engines-and-bi.md are what bench_scale prints for the committed raw JSON."""

from __future__ import annotations

import json

import pytest

from benchmarks.scale import report
from tests.conftest import REPO

DOC = REPO / "docs" / "engines-and-bi.md"


@pytest.mark.parametrize("raw", ["bench-scale-2026-11-23-memory-1gb.json"])
def test_documented_scale_tables_are_the_report_of_the_raw_json(raw):
    results = json.loads((REPO / "docs" / raw).read_text())["results"]
    doc_lines = set(DOC.read_text().splitlines())
    missing = [line for line in report(results).splitlines() if line and line not in doc_lines]
    assert not missing, f"docs/engines-and-bi.md differs from bench_scale's report of {raw}:\n" + "\n".join(missing)


def test_report_gives_per_million_word_growth_and_the_configuration():
    r = {
        "words": 2_000_000,
        "corpora": 2,
        "ingest_s": 50.0,
        "ingest_words_per_s": 40_000.0,
        "generated_runs": 1,
        "generated_run_words": 10,
        "generated_runs_s": 4.0,
        "run_every": 5,
        "peak_rss_after_ingest_mb": 100.0,
        "peak_rss_after_views_mb": 200.0,
        "peak_rss_mb": 300.0,
        "db_bytes": 2**20,
        "export_s": 6.0,
        "dataset_bytes": 2**20,
        "view_s": {"v": 1.0, "w": 3.0},
        "view_rows": {"v": 7, "w": 9},
        "duckdb_memory_limit": "1.0 GiB",
        "spark_view_s": {"v": 10.0, "w": 30.0},
        "spark_driver_memory": "4g",
    }
    out = report([r]).splitlines()
    assert out[0] == (
        "Configuration: DuckDB memory_limit 1.0 GiB; a generated run for every 5th corpus; Spark driver memory 4g."
    )
    # 50 s / 2M words = 25.0; runs 2.0; export 3.0; views (1 + 3) / 2 = 2.00; Spark (10 + 30) / 2 = 20.0
    assert "| 2,000,000 | 25.0 | 2.0 | 3.0 | 2.00 | 20.0 | 300 |" in out
    assert "| `w` | 9 | 3.00 / 30.00 |" in out
