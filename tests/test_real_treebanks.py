"""Real treebanks from ../shared/data: Table 2 of Shimorina et al. (2021) and byte-exact round trips.

Skipped loudly (``REAL DATA MISSING``) when ../shared/data is absent; run only these with
``python -m pytest -m realdata``.  Every file is ingested once per module.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import evalhouse
from tests.conftest import SAMPLE, shared

# --- Table 2, SR'19 en_ewt row (UD v2.3 English-EWT test) -------------------------------------

# count 2,077; depth 2.72±1.88; length 10.6±9.62; MDD 1.87±0.95; MFS 1.87±0.95; MFW 1.02±0.42;
# MA 0.75±0.3; NP 1.54
TABLE2_EN_EWT = {
    "depth": (2.72, 1.88),
    # The sample sd of length is 9.6257; the issue reads the printed 9.62 as 9.626 truncated (rounding
    # would print 9.63), so the sd is checked against 9.626.
    "length": (10.6, 9.626),
    "mean_dependency_distance": (1.87, 0.95),
    "mean_flux_size": (1.87, 0.95),
    "mean_arity": (0.75, 0.3),
}
# Not asserted: the paper's MFW 1.02±0.42 and NP 1.54 % do not follow from its own definitions.
# Measured here on the same file (maximum-matching flux weight, projectivity of the stripped tree):
#   MFW 1.0442±0.4320 (paper 1.02±0.42); a greedy pick in surface order would give 0.9809±0.3897,
#   so no simple greedy reproduces 1.02 either.
#   NP 2.1184 % = 44 of 2,077 sentences (paper 1.54 %, which would be 32 sentences).


@pytest.fixture(scope="module")
def ewt23():
    path = shared("ud-v2.3", "en_ewt-ud-test.conllu")
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([path], corpus="en_ewt-v2.3")
        yield wh


@pytest.mark.realdata
def test_table2_en_ewt(ewt23):
    row = ewt23.sql("select * from corpus_complexity where corpus = 'en_ewt-v2.3'").df().iloc[0]
    assert row["sentences"] == 2077
    for metric, (mean, sd) in TABLE2_EN_EWT.items():
        assert abs(row[f"{metric}_mean"] - mean) <= 0.01, (metric, row[f"{metric}_mean"], mean)
        assert abs(row[f"{metric}_sd"] - sd) <= 0.01, (metric, row[f"{metric}_sd"], sd)
    # MDD and MFS agree exactly on trees (every sentence of this file has a word root)
    assert row["mean_dependency_distance_mean"] == pytest.approx(row["mean_flux_size_mean"], rel=1e-12)
    assert row["mean_dependency_distance_sd"] == pytest.approx(row["mean_flux_size_sd"], rel=1e-12)


@pytest.mark.realdata
def test_en_ewt_flux_weight_and_projectivity_are_consistent(ewt23):
    """MFW and %NP are not compared with the paper (see the comment above TABLE2_EN_EWT); instead:
    %NP agrees with an independent brute-force projectivity test of every stripped tree, and each
    sentence's flux weight lies between 1 and its flux size."""
    from tests.test_trees import brute_projective

    trees = ewt23.sql("""select position, list(head order by dependent) from edges
                         where corpus = 'en_ewt-v2.3' group by position""").fetchall()
    non_projective = sum(not brute_projective(heads) for _, heads in trees)
    np_pct = ewt23.sql("select nonprojective_pct from corpus_complexity where corpus = 'en_ewt-v2.3'").fetchone()[0]
    assert np_pct == pytest.approx(100 * non_projective / 2077, rel=1e-12)
    assert (
        ewt23.sql("""select count(*) from sentence_complexity where corpus = 'en_ewt-v2.3'
                        and (mean_flux_weight > mean_flux_size + 1e-12
                             or (length > 1 and mean_flux_weight < 1))""").fetchone()[0]
        == 0
    )


# --- byte-exact round trips ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def ud_files() -> list[Path]:
    files = sorted(shared("ud").rglob("*.conllu"))
    if not files:
        pytest.skip(f"REAL DATA MISSING: no *.conllu under {shared('ud')}")
    return files


@pytest.fixture(scope="module")
def ud_wh(ud_files):
    """Every UD file ingested once, each as its own corpus (named after the file)."""
    with evalhouse.connect(":memory:") as wh:
        summaries = wh.ingest_treebank(ud_files)
        yield wh, {Path(s.files[0]): s for s in summaries}


@pytest.mark.realdata
def test_every_ud_file_ingests(ud_files, ud_wh):
    wh, by_file = ud_wh
    assert sorted(by_file) == ud_files
    for path, summary in by_file.items():
        assert len(summary.files) == 1
        assert summary.normalisations == (), (path, summary.normalisations)
        assert summary.sentences > 0 and summary.edges > 0
        # one root per sentence in the stripped tree (no UD sentence has a punct root)
        assert (
            wh.sql(
                """select count(*) from (select position, count(*) filter (where head = 0) r
                                               from edges where corpus = $c group by position) where r <> 1""",
                {"c": summary.corpus},
            ).fetchone()[0]
            == 0
        )


@pytest.mark.realdata
def test_every_ud_file_round_trips_byte_for_byte(ud_wh, tmp_path_factory):
    wh, by_file = ud_wh
    out_dir = tmp_path_factory.mktemp("ud-roundtrip")
    for path, summary in by_file.items():
        out = out_dir / path.name
        assert wh.export_conllu(summary.corpus, out) == summary.sentences
        assert out.read_bytes() == path.read_bytes(), f"{path}: export differs from the input"


def test_sample_round_trips_byte_for_byte(wh, tmp_path):
    (summary,) = wh.ingest_treebank([SAMPLE], corpus="sample")
    assert summary.normalisations == ()
    out = tmp_path / "sample.conllu"
    assert wh.export_conllu("sample", out) == 42
    assert out.read_bytes() == SAMPLE.read_bytes()
