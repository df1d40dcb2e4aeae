"""``evalhouse evalb``: EVALB's report (Sekine & Collins 1997), byte for byte, for two bracketed files,
computed through the warehouse's parse views on an in-memory warehouse.

    $ evalhouse evalb ../shared/data/constituency/evalb/sample.gld ../shared/data/constituency/evalb/sample.tst \\
          --prm ../shared/data/constituency/evalb/sample.prm
      Sent.                        Matched  Bracket   Cross        Correct Tag
     ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy
    ...

The files are ingested by :func:`evalhouse.ingest.parses.ingest_parses` (gold, then the test run with
EVALB's error status for mismatching sentences); the rows and the summary come from the views
``geig_sentences`` and ``parse_scores`` (``sql/parses/``). How the report's quirks are reproduced is in
docs/parse-evaluation.md.
"""

from __future__ import annotations

import os

from evalhouse.analysis.leaf_ancestor import LabelCost
from evalhouse.analysis.parse_eval import COLLINS, EvalbParams
from evalhouse.ingest.parses import ingest_parses
from evalhouse.warehouse import Warehouse

_HEAD = ("  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
         " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n"
         "============================================================================")
_RULE = "============================================================================"


def _pct(num, den) -> float:
    return 100.0 * num / den if den else 0.0


def evalb_report(gold_path: str | os.PathLike, test_path: str | os.PathLike, params: EvalbParams | None = None,
                 cost: LabelCost | None = None, notes: list[str] | None = None) -> str:
    """EVALB's report (per-sentence rows, totals row, summary for all and for len<=CUTOFF_LEN), computed
    through the warehouse views on an in-memory warehouse.  Files are read one sentence per line, as
    EVALB reads them; mismatching sentences get EVALB's error status instead of stopping the run.

    When no sentence is within CUTOFF_LEN the len<=N summary counts none and prints 0.00 everywhere, as
    EVALB's own summary does (its totals start at zero and every ratio guards its denominator); ``notes``,
    when given, receives a sentence saying so."""
    params = params or COLLINS
    with Warehouse(":memory:") as wh:
        ingest_parses(wh, gold_path, "evalb", gold=True, one_per_line=True)
        ingest_parses(wh, test_path, "evalb", team="evalb", run="test", params=params, cost=cost,
                      one_per_line=True, allow_mismatch=True)
        rows = wh.sql("SELECT position, length, status_code, gold_brackets, test_brackets, matched_labelled, "
                      "matched_unlabelled, crossing, words, correct_tags FROM geig_sentences ORDER BY position").fetchall()
        summary = {r[0]: r for r in wh.sql(
            "SELECT subset, sentences, error_sentences, skip_sentences, valid_sentences, "
            "labelled_recall, labelled_precision, unlabelled_recall, unlabelled_precision, "
            "labelled_complete_match, unlabelled_complete_match, average_crossing, no_crossing, "
            "two_or_less_crossing, tagging_accuracy, gold_brackets, test_brackets, matched_labelled, "
            "matched_unlabelled, no_crossing_sentences, words, correct_tags FROM parse_scores").fetchall()}
    out = [_HEAD]
    for pos, length, stat, gb, tb, ml, mu, cross, words, tags in rows:
        m = ml if params.labeled else mu
        out.append(f"{pos:4d} {length:4d} {stat:4d}  {_pct(m, gb):6.2f} {_pct(m, tb):6.2f}  {m:4d}   {gb:4d} {tb:4d}"
                   f"   {cross:4d}   {words:4d}  {tags:4d}   {_pct(tags, words):6.2f}")
    out.append(_RULE)
    a = summary["all"]
    m = a[17] if params.labeled else a[18]
    # EVALB's totals row prints, in the "Cross" column, the number of sentences with no crossing
    # bracket (not the sum of crossing brackets): reproduced as printed; see docs/parse-evaluation.md.
    out.append(f"{'':15s} {_pct(m, a[15]):6.2f} {_pct(m, a[16]):6.2f} {m:6d} {a[15]:6d} {a[16]:4d} "
               f"{a[19]:6d} {a[20]:6d} {a[21]:5d} {_pct(a[21], a[20]):8.2f}")
    out.append("=== Summary ===")
    for key, title in (("all", "All"), (f"len<={params.cutoff_len}", f"len<={params.cutoff_len}")):
        s = summary.get(key)
        if s is None:  # no sentence in the subset: EVALB's zero totals
            s = (key, 0, 0, 0, 0) + (None,) * 17
            if notes is not None:
                notes.append(f"no sentence is within CUTOFF_LEN {params.cutoff_len}: the len<={params.cutoff_len} "
                             "summary counts none (0.00 everywhere, as EVALB prints it)")
        rec, prec = (s[5], s[6]) if params.labeled else (s[7], s[8])
        comp = s[9] if params.labeled else s[10]
        out += ["", f"-- {title} --",
                f"Number of sentence        = {s[1]:6d}",
                f"Number of Error sentence  = {s[2]:6d}",
                f"Number of Skip  sentence  = {s[3]:6d}",
                f"Number of Valid sentence  = {s[4]:6d}",
                f"Bracketing Recall         = {_fmt(rec)}",
                f"Bracketing Precision      = {_fmt(prec)}",
                f"Complete match            = {_fmt(comp)}",
                f"Average crossing          = {(s[11] or 0.0):6.2f}",
                f"No crossing               = {_fmt(s[12])}",
                f"2 or less crossing        = {_fmt(s[13])}",
                f"Tagging accuracy          = {_fmt(s[14])}"]
    return "\n".join(out) + "\n"


def _fmt(fraction) -> str:
    return f"{100.0 * (fraction or 0.0):6.2f}"
