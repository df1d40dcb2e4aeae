"""Significance groups and rank ranges of the runs of a corpus, from the stored paired tests, for the report's
leaderboards (system outputs and parser runs alike).

    ranked(intervals, pairs, keys, titles)  # one row per corpus, metric and run: value, interval, group, ranks

``intervals``: rows of ``score_intervals`` (corpus, team, run, metric, value, low, high); ``pairs``: rows of
``score_significance`` for one test (corpus, metric, team_a, run_a, team_b, run_b, delta, significant);
``keys``: the (team, run, corpus) shown; ``titles``: metric -> (title, scale), in the order to show them.
Groups and ranges are :func:`evalhouse.analysis.stats.significance_groups`.
"""

from __future__ import annotations

import pandas as pd

from evalhouse.analysis.stats import significance_groups


def groups(values: dict, better: set) -> dict:
    """(group, "lo" or "lo-hi") per key."""
    return {
        k: (g, f"{lo}" if lo == hi else f"{lo}-{hi}") for k, (g, lo, hi) in significance_groups(values, better).items()
    }


def better_pairs(pairs: pd.DataFrame, corpus: str, metric: str, keys: set) -> set:
    """(winner, loser) for each significant pair of ``metric`` on ``corpus`` whose runs are both in ``keys``.

    A pair with equal scores (delta == 0) is never a win, whatever its p: sacreBLEU's tests give p = 1/(R+1)
    to two runs with identical sentence statistics, and a warehouse analysed before ``significant`` required
    delta != 0 stores such a pair as significant. So the winner is a when delta > 0, b when delta < 0."""
    out = set()
    for p in pairs[(pairs["metric"] == metric) & (pairs["corpus"] == corpus)].itertuples():
        a, b = (p.team_a, p.run_a, corpus), (p.team_b, p.run_b, corpus)
        if a in keys and b in keys and p.significant and p.delta != 0:
            out.add((a, b) if p.delta > 0 else (b, a))
    return out


def ranked(intervals: pd.DataFrame, pairs: pd.DataFrame, keys, titles: dict) -> pd.DataFrame:
    """One row per corpus, metric (in ``titles``' order) and run: value, low, high (scaled), group, ranks."""
    keys = set(keys)
    out = []
    for order, (metric, (title, scale)) in enumerate(titles.items()):
        for corpus, group in intervals[intervals["metric"] == metric].groupby("corpus", sort=True):
            values = {(r.team, r.run, corpus): r.value for r in group.itertuples() if (r.team, r.run, corpus) in keys}
            found = groups(values, better_pairs(pairs, corpus, metric, keys))
            for r in group.itertuples():
                k = (r.team, r.run, corpus)
                if k not in found:
                    continue
                g, ranks = found[k]
                out.append(
                    {
                        "corpus": corpus,
                        "metric": title,
                        "team": r.team,
                        "run": r.run,
                        "value": scale * r.value,
                        "low": None if pd.isna(r.low) else scale * r.low,
                        "high": None if pd.isna(r.high) else scale * r.high,
                        "group": g,
                        "ranks": ranks,
                        "order": order,
                    }
                )
    frame = pd.DataFrame(
        out, columns=["corpus", "metric", "team", "run", "value", "low", "high", "group", "ranks", "order"]
    )
    return frame.sort_values(["corpus", "order", "value", "team", "run"], ascending=[True, True, False, True, True])
