"""Adversarial tree shapes end to end (issue 17, point 2), small enough for every test run: each shape of
``benchmarks/trees.py`` is ingested as CoNLL-U and ``sentence_complexity`` is compared with an
independent computation: punctuation stripped by climbing each word's heads one step at a time, depth by
walking up, mean dependency distance from the stripped heads, flux weight and projectivity by the
pre-issue-17 implementation (``tests/reference_trees.py``, itself tested against brute force).  Time and
memory at full size are measured by ``python -m benchmarks.adversarial`` (BENCHMARKS.md), not here."""

from __future__ import annotations

import pytest

import evalhouse
from benchmarks.adversarial import write_sentence
from benchmarks.trees import shape
from evalhouse.analysis.trees import TreeBatch

from . import reference_trees

SHAPES = ["chain", "star", "flat", "comb", "spiral", "rainbow", "random", "punct_chain"]


def _expected(heads: list[int], punct: list[bool]):
    """(length, depth, MDD, MFW, projective) of the stripped tree, computed naively."""
    kept = [i for i in range(1, len(heads) + 1) if not punct[i - 1]]
    new = {old: k for k, old in enumerate(kept, 1)}

    def anchor(i):
        h = heads[i - 1]
        while h and punct[h - 1]:
            h = heads[h - 1]
        return h

    stripped = [new[anchor(i)] if anchor(i) else 0 for i in kept]
    n = len(stripped)

    def depth(k):
        d = 0
        while stripped[k - 1]:
            k, d = stripped[k - 1], d + 1
        return d

    deps = [abs(k - h) for k, h in enumerate(stripped, 1) if h]
    metrics = reference_trees.tree_metrics(TreeBatch.from_lists([stripped]))
    mdd = sum(deps) / len(deps) if deps else 0.0
    mfw = float(metrics.flux_weight_sum[0]) / (n - 1) if n > 1 else 0.0
    return n, max(depth(k) for k in range(1, n + 1)), mdd, mfw, bool(metrics.projective[0])


@pytest.mark.slow
@pytest.mark.parametrize("name", SHAPES)
@pytest.mark.parametrize("n", [2, 3, 61, 200])
def test_shape_end_to_end(tmp_path, name, n):
    heads, punct = shape(name, n)
    path = tmp_path / f"{name}.conllu"
    write_sentence(path, heads, punct)
    with evalhouse.connect(":memory:", memory_limit="500MB") as wh:
        wh.ingest_treebank([str(path)], corpus="s")
        got = wh.sql(
            "SELECT length, depth, mean_dependency_distance, mean_flux_weight, projective FROM sentence_complexity"
        ).fetchone()
        edges = wh.sql("SELECT count(*) FROM edges").fetchone()[0]
    want = _expected(heads, punct)
    assert got[:2] == want[:2] and got[4] == want[4]
    assert got[2:4] == pytest.approx(want[2:4], abs=1e-12)
    assert edges == want[0]


# A 93,000-word rainbow has a flux-weight sum above 2**31 (about n**2 / 4): it was stored in an INTEGER
# column through int32 and came out negative (mean flux weight -17,949.85 at 100,000 words).  The
# stored sum must equal the one analysis.trees computes in int64.
@pytest.mark.slow
def test_flux_weight_sum_beyond_32_bits(tmp_path):
    from evalhouse.analysis.trees import tree_metrics

    heads, punct = shape("rainbow", 93_000)
    expected = int(tree_metrics(TreeBatch.from_lists([heads])).flux_weight_sum[0])
    assert expected > 2**31
    path = tmp_path / "rainbow.conllu"
    write_sentence(path, heads, punct)
    with evalhouse.connect(":memory:") as wh:
        wh.ingest_treebank([str(path)], corpus="r")
        stored, mfw = wh.sql(
            "SELECT flux_weight_sum, mean_flux_weight FROM sentence_tree_metrics "
            "JOIN sentence_complexity USING (corpus, position)"
        ).fetchone()
    assert stored == expected
    assert mfw == pytest.approx(expected / (93_000 - 1), rel=1e-12)
