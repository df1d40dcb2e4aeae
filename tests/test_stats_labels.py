"""The Mann-Whitney method label reports the rule scipy actually used (issue 16, point 7).

scipy's documentation (1.17, ``mannwhitneyu``): "'auto': chooses 'exact' when the size of one of
the samples is less than or equal to 8 and there are no ties; chooses 'asymptotic' otherwise".
The expected labels below follow that sentence; the p-values are scipy's own with method="auto".
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from evalhouse.analysis.stats import mann_whitney, mann_whitney_method


@pytest.mark.parametrize(
    "n1, n2, ties, expected",
    [
        (5, 5, False, "exact"),
        (20, 5, False, "exact"),  # one sample of at most 8: exact (the old label said asymptotic)
        (5, 20, False, "exact"),
        (8, 9, False, "exact"),
        (9, 9, False, "asymptotic"),
        (5, 5, True, "asymptotic"),
        (30, 40, True, "asymptotic"),
    ],
)
def test_method_rule(n1, n2, ties, expected):
    assert mann_whitney_method(n1, n2, ties) == expected


def test_large_and_small_sample_without_ties_is_exact():
    x = np.arange(20, dtype=float) / 20
    y = np.array([0.02, 0.07, 0.11, 0.16, 0.33])
    u, p, method = mann_whitney(x, y)
    assert method == "exact"
    assert p == sps.mannwhitneyu(x, y, alternative="two-sided").pvalue
    assert p == sps.mannwhitneyu(x, y, alternative="two-sided", method="exact").pvalue
    assert p != sps.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic").pvalue


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(x=st.lists(st.integers(0, 40), min_size=1, max_size=14), y=st.lists(st.integers(0, 40), min_size=1, max_size=14))
def test_label_is_the_method_behind_scipys_auto_p(x, y):
    x = np.array(x, dtype=float) / 4
    y = np.array(y, dtype=float) / 4
    u, p, method = mann_whitney(x, y)
    auto = sps.mannwhitneyu(x, y, alternative="two-sided")
    assert u == auto.statistic
    assert p == auto.pvalue or (np.isnan(p) and np.isnan(auto.pvalue))
    assert p == sps.mannwhitneyu(x, y, alternative="two-sided", method=method).pvalue or np.isnan(p)
