"""Statistics behind ``evalhouse analyze`` (pure functions over numpy arrays; no database).

* :func:`spearman` -- Spearman's rho and its two-sided p (scipy.stats.spearmanr) with missing values
  ignored pairwise.
* :func:`pearson` -- Pearson's r and its two-sided p (scipy.stats.pearsonr), missing values ignored
  pairwise, as Bangalore, Rambow & Whittaker (2000, section 4) report their correlations with human judgements.
* :func:`holm` -- Holm-Bonferroni step-down adjusted p-values.
* :func:`mann_whitney` -- two-sided Mann-Whitney U; the U returned is the one of the *first* sample
  (U1 = R1 - n1 (n1 + 1) / 2, scipy's convention).
* :func:`failure_mask` -- the failure share of a submission's sentences (lowest scores, ties broken by
  position: the earlier sentence fails first).
* :func:`paired_bootstrap`, :func:`approximate_randomisation` -- paired tests between two systems on
  the same sentences from per-sentence sufficient statistics (numerator and denominator per sentence),
  so a resample is a weighted sum, never a rescoring.
* :func:`bootstrap_ratio_intervals` -- percentile bootstrap intervals of pooled ratios (DEA per
  relation), resampling sentences.
See docs/statistics.md for every choice.
"""

from __future__ import annotations

import math
import warnings

import numpy as np


def spearman(x, y, min_n: int = 3) -> tuple[int, float, float] | None:
    """(n, rho, p) over the pairs where both values are present; None when fewer than ``min_n`` pairs
    or either side is constant (rho undefined)."""
    from scipy import stats

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    n = int(keep.sum())
    if n < min_n:
        return None
    x, y = x[keep], y[keep]
    if np.all(x == x[0]) or np.all(y == y[0]):
        return None
    result = stats.spearmanr(x, y)
    rho, p = float(result.statistic), float(result.pvalue)
    if math.isnan(rho):
        return None
    return n, rho, p


def pearson(x, y, min_n: int = 3) -> tuple[int, float, float] | None:
    """(n, r, p) over the pairs where both values are present (p: two-sided, from the t distribution
    with n - 2 degrees of freedom, scipy.stats.pearsonr); None when fewer than ``min_n`` pairs or either
    side is constant (r undefined)."""
    from scipy import stats

    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    keep = ~(np.isnan(x) | np.isnan(y))
    n = int(keep.sum())
    if n < min_n:
        return None
    x, y = x[keep], y[keep]
    if np.all(x == x[0]) or np.all(y == y[0]):
        return None
    result = stats.pearsonr(x, y)
    r, p = float(result.statistic), float(result.pvalue)
    if math.isnan(r):
        return None
    return n, r, p


def holm(pvalues) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values, in the input order: sort ascending, multiply the k-th
    smallest (k from 0) by m - k, take the running maximum, cap at 1."""
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    if m == 0:
        return p
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def mann_whitney_method(n1: int, n2: int, ties: bool) -> str:
    """The p-value method scipy's ``mannwhitneyu(method="auto")`` picks (scipy 1.17 documentation:
    "chooses 'exact' when the size of one of the samples is less than or equal to 8 and there are no
    ties; chooses 'asymptotic' otherwise"). Ties are ties anywhere in the pooled sample."""
    return "exact" if min(n1, n2) <= 8 and not ties else "asymptotic"


def mann_whitney(first, second) -> tuple[float, float, str]:
    """Two-sided Mann-Whitney U test; returns (U of ``first``, p, method).

    The method is chosen by :func:`mann_whitney_method` (scipy's own rule for "auto") and passed to
    scipy explicitly, so the label is the method that computed p by construction."""
    from scipy import stats

    first = np.asarray(first, dtype=float)
    second = np.asarray(second, dtype=float)
    combined = np.concatenate([first, second])
    method = mann_whitney_method(len(first), len(second), len(np.unique(combined)) < len(combined))
    result = stats.mannwhitneyu(first, second, alternative="two-sided", method=method)
    return float(result.statistic), float(result.pvalue), method


def failure_mask(scores, share: float) -> np.ndarray:
    """Boolean mask of the failures: the ceil(share * n) lowest scores; among equal scores the earlier
    sentence (lower index) fails first. NaN scores are neither failure nor success: callers drop them."""
    scores = np.asarray(scores, dtype=float)
    n = len(scores)
    k = min(n, math.ceil(share * n - 1e-9))
    order = np.lexsort((np.arange(n), scores))  # by score, then by position
    mask = np.zeros(n, dtype=bool)
    mask[order[:k]] = True
    return mask


def _ratio(num, den):
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1), np.nan)


def paired_bootstrap(num_a, num_b, den, resamples: int, seed: int) -> tuple[float, float, float, float]:
    """Paired bootstrap of the difference of two pooled ratios sum(num)/sum(den) (a mean when den is 1).

    Both systems are resampled with the same sentence indices. Returns (statistic a, statistic b,
    delta = a - b, two-sided p) where p = (1 + #{|delta* - delta| >= |delta|}) / (resamples + 1): the
    bootstrap distribution shifted to the null (Berg-Kirkpatrick et al. 2012 count delta* > 2 delta,
    the one-sided version of the same idea)."""
    num_a, num_b, den = (np.asarray(v, dtype=float) for v in (num_a, num_b, den))
    n = len(den)
    rng = np.random.Generator(np.random.PCG64(seed))
    a = num_a.sum() / den.sum()
    b = num_b.sum() / den.sum()
    delta = a - b
    exceed = 0
    for chunk in _chunks(resamples):
        weights = rng.multinomial(n, np.full(n, 1.0 / n), size=chunk).astype(float)
        d = weights @ den
        deltas = _ratio(weights @ num_a - weights @ num_b, d)
        exceed += int(np.sum(np.abs(deltas - delta) >= abs(delta) - 1e-15))
    return float(a), float(b), float(delta), (1 + exceed) / (resamples + 1)


def approximate_randomisation(num_a, num_b, den, resamples: int, seed: int) -> tuple[float, float, float, float]:
    """Approximate randomisation (Noreen 1989; Riezler & Maxwell 2005): swap the two systems' outputs
    of each sentence with probability 1/2. Returns (a, b, delta, p) with
    p = (1 + #{|delta*| >= |delta|}) / (resamples + 1)."""
    num_a, num_b, den = (np.asarray(v, dtype=float) for v in (num_a, num_b, den))
    n = len(den)
    rng = np.random.Generator(np.random.PCG64(seed))
    total = den.sum()
    a = num_a.sum() / total
    b = num_b.sum() / total
    delta = a - b
    diff = num_a - num_b
    exceed = 0
    for chunk in _chunks(resamples):
        signs = np.where(rng.random((chunk, n)) < 0.5, -1.0, 1.0)
        deltas = (signs @ diff) / total
        exceed += int(np.sum(np.abs(deltas) >= abs(delta) - 1e-15))
    return float(a), float(b), float(delta), (1 + exceed) / (resamples + 1)


def bootstrap_ratio_intervals(num, den, resamples: int, seed: int, level: float = 0.95, with_mean: bool = False):
    """Percentile intervals of pooled ratios, resampling rows (sentences).

    ``num`` and ``den`` are (sentences x groups) arrays, e.g. matched edges and edges per relation.
    Returns (low, high) arrays of length groups (NaN where a group never occurs), and with ``with_mean`` the
    mean of the resampled ratios too."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    n = num.shape[0]
    rng = np.random.Generator(np.random.PCG64(seed))
    draws = []
    for chunk in _chunks(resamples):
        weights = rng.multinomial(n, np.full(n, 1.0 / n), size=chunk).astype(float)
        draws.append(_ratio(weights @ num, weights @ den))
    ratios = np.vstack(draws)
    if not with_mean:
        return _percentiles(ratios, level)
    return _percentiles(ratios, level) + (_nanmean(ratios, num.shape[1]),)


def _chunks(total: int, size: int = 250):
    while total > 0:
        yield min(size, total)
        total -= size


def paired_tests_all(nums, den, resamples: int, seed: int, test: str):
    """Every pair (a < b) of the systems whose per-sentence numerators are the rows of ``nums``, with
    one shared stream of resamples: the result of each pair equals :func:`paired_bootstrap` /
    :func:`approximate_randomisation` called on that pair alone with the same seed, but the resampling
    is done once for all systems (a matrix product) instead of once per pair.

    ``den``: the per-sentence denominators, shared by every system (one row: DEA's reference edges), or one
    row per system (an F1's gold + system words, which differ between parsers): each system's statistic is
    then sum(num) / sum(den) of its own rows, and approximate randomisation swaps a sentence's numerator and
    denominator together. Returns a list of (a, b, value_a, value_b, delta, p)."""
    nums = np.asarray(nums, dtype=float)
    den = np.asarray(den, dtype=float)
    s, n = nums.shape
    rng = np.random.Generator(np.random.PCG64(seed))
    own = den.ndim == 2  # a denominator row per system
    totals = den.sum(axis=-1)
    values = nums.sum(axis=1) / totals
    ia, ib = np.triu_indices(s, k=1)
    deltas = values[ia] - values[ib]
    exceed = np.zeros(len(ia), dtype=np.int64)
    for chunk in _chunks(resamples):
        if test == "paired-bootstrap":
            weights = rng.multinomial(n, np.full(n, 1.0 / n), size=chunk).astype(float)
            sums = weights @ nums.T  # (chunk x s)
            with np.errstate(invalid="ignore", divide="ignore"):
                if own:
                    ratios = sums / (weights @ den.T)
                    resampled = ratios[:, ia] - ratios[:, ib]
                else:
                    d = weights @ den
                    resampled = (sums[:, ia] - sums[:, ib]) / np.where(d > 0, d, np.nan)[:, None]
            exceed += np.sum(np.abs(resampled - deltas) >= np.abs(deltas) - 1e-15, axis=0)
        elif test == "approximate-randomisation":
            swapped = rng.random((chunk, n)) < 0.5
            if own:
                moved, moved_den = swapped @ nums.T, swapped @ den.T  # what each system gives up when swapped
                total_num = nums.sum(axis=1)
                with np.errstate(invalid="ignore", divide="ignore"):
                    a = (total_num[ia] - moved[:, ia] + moved[:, ib]) / (
                        totals[ia] - moved_den[:, ia] + moved_den[:, ib]
                    )
                    b = (total_num[ib] - moved[:, ib] + moved[:, ia]) / (
                        totals[ib] - moved_den[:, ib] + moved_den[:, ia]
                    )
                resampled = a - b
            else:
                sums = np.where(swapped, -1.0, 1.0) @ nums.T
                resampled = (sums[:, ia] - sums[:, ib]) / totals
            exceed += np.sum(np.abs(resampled) >= np.abs(deltas) - 1e-15, axis=0)
        else:
            raise ValueError(f"unknown test '{test}'")
    p = (1 + exceed) / (resamples + 1)
    return [
        (int(a), int(b), float(values[a]), float(values[b]), float(dl), float(pv))
        for a, b, dl, pv in zip(ia, ib, deltas, p)
    ]


def paired_statistic_tests(stats, combine, resamples: int, seed: int, test: str):
    """:func:`paired_tests_all` for any score computed from summed per-sentence sufficient statistics (corpus
    BLEU, NIST): ``stats`` is (systems x sentences x k), ``combine`` maps summed statistics (..., k) to scores
    (vectorised). The same streams of resamples: the bootstrap draws one multinomial weight vector over the
    sentences per resample, approximate randomisation one uniform per sentence (swapped below 1/2), both from
    ``PCG64(seed)`` in chunks of 250, so a ratio given as two columns gets the p of :func:`paired_tests_all`.
    Returns a list of (a, b, value_a, value_b, delta, p)."""
    stats = np.asarray(stats, dtype=float)
    s, n, k = stats.shape
    rng = np.random.Generator(np.random.PCG64(seed))
    totals = stats.sum(axis=1)
    values = np.asarray(combine(totals), dtype=float)
    ia, ib = np.triu_indices(s, k=1)
    deltas = values[ia] - values[ib]
    exceed = np.zeros(len(ia), dtype=np.int64)
    for chunk in _chunks(resamples):
        with np.errstate(invalid="ignore", divide="ignore"):
            if test == "paired-bootstrap":
                weights = rng.multinomial(n, np.full(n, 1.0 / n), size=chunk).astype(float)
                scores = np.asarray(combine(np.einsum("cn,snk->csk", weights, stats)), dtype=float)
                resampled = scores[:, ia] - scores[:, ib]
                exceed += np.sum(np.abs(resampled - deltas) >= np.abs(deltas) - 1e-15, axis=0)
            elif test == "approximate-randomisation":
                swapped = (rng.random((chunk, n)) < 0.5).astype(float)
                moved = np.einsum("cn,snk->csk", swapped, stats)  # what each system gives up
                a = combine(totals[ia] - moved[:, ia] + moved[:, ib])
                b = combine(totals[ib] - moved[:, ib] + moved[:, ia])
                exceed += np.sum(np.abs(np.asarray(a) - np.asarray(b)) >= np.abs(deltas) - 1e-15, axis=0)
            else:
                raise ValueError(f"unknown test '{test}'")
    p = (1 + exceed) / (resamples + 1)
    return [
        (int(a), int(b), float(values[a]), float(values[b]), float(dl), float(pv))
        for a, b, dl, pv in zip(ia, ib, deltas, p)
    ]


def bootstrap_statistic_intervals(stats, combine, resamples: int, seed: int, level: float = 0.95):
    """Percentile intervals of scores computed from summed sufficient statistics (``stats``: systems x
    sentences x k), resampling sentences with the draws of :func:`bootstrap_ratio_intervals`. Returns
    (low, high, mean of the resampled scores), one value per system."""
    stats = np.asarray(stats, dtype=float)
    s, n, k = stats.shape
    rng = np.random.Generator(np.random.PCG64(seed))
    draws = []
    for chunk in _chunks(resamples):
        weights = rng.multinomial(n, np.full(n, 1.0 / n), size=chunk).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            draws.append(np.asarray(combine(np.einsum("cn,snk->csk", weights, stats)), dtype=float))
    scores = np.vstack(draws) if draws else np.zeros((0, s))
    return _percentiles(scores, level) + (_nanmean(scores, s),)


def _nanmean(scores: np.ndarray, columns: int) -> np.ndarray:
    """The mean of each column, NaN ignored (NaN where a column is all NaN, or there is no resample)."""
    if not scores.size:
        return np.full(columns, np.nan)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(scores, axis=0)


def _percentiles(scores: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) percentiles of each column, NaN ignored (a resample without the group's rows)."""
    tail = (1 - level) / 2
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        low = np.nanquantile(scores, tail, axis=0) if scores.size else np.array([])
        high = np.nanquantile(scores, 1 - tail, axis=0) if scores.size else np.array([])
    return low, high


def significance_groups(values, better) -> dict:
    """Rank ranges and significance groups of systems from pairwise tests (the report's leaderboard).

    ``values``: system -> score (higher is better); ``better``: the set of (winner, loser) pairs whose
    difference is significant (after the adjustment the caller chose). Returns system ->
    (group, best_rank, worst_rank):

    * best_rank = 1 + number of systems significantly better than it; worst_rank = number of systems
      - number of systems significantly worse than it (WMT's rank ranges, from pairwise tests);
    * groups: systems sorted by score (ties by name); group 1 opens with the best; a system opens the
      next group when it is significantly worse than the system that opened the current group. So
      every system in a group is statistically tied with the group's best, and two systems in
      different groups may or may not differ from each other (their rank ranges say which).

    >>> significance_groups({"a": 0.9, "b": 0.8, "c": 0.5}, {("a", "c"), ("b", "c")})
    {'a': (1, 1, 2), 'b': (1, 1, 2), 'c': (2, 3, 3)}
    """
    order = sorted(values, key=lambda k: (-values[k], str(k)))
    n = len(order)
    out = {}
    group, leader = 0, None
    for k in order:
        if leader is None or (leader, k) in better:
            group, leader = group + 1, k
        wins = sum((k, o) in better for o in order if o != k)
        losses = sum((o, k) in better for o in order if o != k)
        out[k] = (group, 1 + losses, n - wins)
    return out
