"""``evalhouse evalb``: EVALB's report (Sekine & Collins 1997), byte for byte, for two bracketed files.

    $ evalhouse evalb ../shared/data/constituency/evalb/sample.gld ../shared/data/constituency/evalb/sample.tst \\
          --prm ../shared/data/constituency/evalb/sample.prm
      Sent.                        Matched  Bracket   Cross        Correct Tag
     ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy
    ...

The report is computed without a warehouse (issue 18): nothing is stored, so nothing else is computed
(the leaf-ancestor scores, which EVALB does not print, and the tables of trees are left out). The
per-sentence counts are :data:`evalhouse.analysis.parse_eval.GEIG_COLUMNS`, from the C kernel for
EVALB's one-tree-per-line files or, for anything it declines (seed 002's notation, malformed lines,
whose errors the loader reports), from the Python reader and scorer. The summary pools them as the
view ``parse_scores`` does. The same report can be printed from a warehouse, for a stored run, by
:func:`evalb_report_from_views` (through ``geig_sentences`` and ``parse_scores``); the tests check
that both give the same bytes. How the report's quirks are reproduced is in docs/parse-evaluation.md.
"""

from __future__ import annotations

import io
import os

from evalhouse.analysis.leaf_ancestor import LabelCost
from evalhouse.analysis.parse_eval import (COLLINS, GEIG_COLUMNS, STATUS_ERROR, STATUS_OK, STATUS_SKIP,
                                           EvalbParams, compare, geig_counts_of_lines, prepare)
from evalhouse.errors import InputError
from evalhouse.loaders.brackets import read_text, read_trees

_HEAD = ("  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
         " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n"
         "============================================================================")
_RULE = "============================================================================"
_ROW = "%4d %4d %4d  %6.2f %6.2f  %4d   %4d %4d   %4d   %4d  %4d   %6.2f"
# the name the errors give to the gold parses, as when both files went through `ingest parses`
_CORPUS = "evalb"
# what the report reads of a subset's summary (parse_scores' columns)
SUMMARY = ("sentences", "error_sentences", "skip_sentences", "valid_sentences", "labelled_recall",
           "labelled_precision", "unlabelled_recall", "unlabelled_precision", "labelled_complete_match",
           "unlabelled_complete_match", "average_crossing", "no_crossing", "two_or_less_crossing",
           "tagging_accuracy", "gold_brackets", "test_brackets", "matched_labelled", "matched_unlabelled",
           "no_crossing_sentences", "words", "correct_tags")


def _pct(num, den) -> float:
    return 100.0 * num / den if den else 0.0


def evalb_report(gold_path: str | os.PathLike, test_path: str | os.PathLike, params: EvalbParams | None = None,
                 cost: LabelCost | None = None, notes: list[str] | None = None) -> str:
    """EVALB's report (per-sentence rows, totals row, summary for all and for len<=CUTOFF_LEN) of two
    files read one sentence per line, as EVALB reads them; mismatching sentences get EVALB's error
    status instead of stopping the run.  ``cost`` is accepted for compatibility and unused: the report
    prints no leaf-ancestor score.

    When no sentence is within CUTOFF_LEN the len<=N summary counts none and prints 0.00 everywhere, as
    EVALB's own summary does (its totals start at zero and every ratio guards its denominator); ``notes``,
    when given, receives a sentence saying so."""
    params = params or COLLINS
    rows = geig_rows(gold_path, test_path, params)
    if notes is not None and not any(r[1] <= params.cutoff_len for r in rows):
        notes.append(f"no sentence is within CUTOFF_LEN {params.cutoff_len}: the len<={params.cutoff_len} "
                     "summary counts none (0.00 everywhere, as EVALB prints it)")
    return format_report(rows, {subset: summarise(rows, subset, params) for subset in _subsets(params)}, params)


def geig_rows(gold_path: str | os.PathLike, test_path: str | os.PathLike, params: EvalbParams) -> list[tuple[int, ...]]:
    """Per sentence of the two one-per-line files, :data:`GEIG_COLUMNS`; the errors (file, line,
    problem) and their order are those of ``ingest_parses(gold=True)`` then ``ingest_parses(team=...,
    allow_mismatch=True)`` on the same files."""
    gold_text, gold_src = read_text(gold_path)
    try:
        test_text, test_src = read_text(test_path)
    except InputError:
        _trees(gold_text, gold_src)  # the gold file's own errors come first
        raise
    rows = geig_counts_of_lines(gold_text, test_text, params)
    if rows is not None:
        return rows
    gold, test = _trees(gold_text, gold_src), _trees(test_text, test_src)
    if len(test) != len(gold):
        raise InputError(test_src.name, None, f"{len(test)} sentences, but the gold parses of '{_CORPUS}' have "
                                              f"{len(gold)} (candidate sentence i is scored against gold sentence i)")
    out = []
    for g, t in zip(gold, test):
        c = compare(prepare(g.words, g.pos, g.nodes, params), prepare(t.words, t.pos, t.nodes, params), params)
        out.append((c.status, c.length, c.words, c.gold_brackets, c.test_brackets, c.matched_labelled,
                    c.matched_unlabelled, c.crossing, c.correct_tags))
    return out


def _trees(text, src):
    trees = list(read_trees(io.StringIO(text), src.name, one_per_line=True))
    if not trees:
        raise InputError(src.name, None, "no trees in the file")
    return trees


def _subsets(params: EvalbParams) -> tuple[str, str]:
    return "all", f"len<={params.cutoff_len}"


def summarise(rows: list[tuple[int, ...]], subset: str, params: EvalbParams) -> dict:
    """The figures of ``parse_scores`` that the report prints, for ``subset`` ('all' or 'len<=N'),
    pooled as that view pools them (valid sentences only; NULL where a denominator is 0)."""
    if subset != "all":
        rows = [r for r in rows if r[1] <= params.cutoff_len]
    ok = [r for r in rows if r[0] == STATUS_OK]
    gold, test = sum(r[3] for r in ok), sum(r[4] for r in ok)
    ml, mu, crossing = sum(r[5] for r in ok), sum(r[6] for r in ok), sum(r[7] for r in ok)
    words, tags = sum(r[2] for r in ok), sum(r[8] for r in ok)
    valid = len(ok)

    def share(n):
        return n / valid if valid else None

    return {
        "sentences": len(rows), "error_sentences": sum(1 for r in rows if r[0] == STATUS_ERROR),
        "skip_sentences": sum(1 for r in rows if r[0] == STATUS_SKIP), "valid_sentences": valid,
        "labelled_recall": ml / gold if gold else None, "labelled_precision": ml / test if test else None,
        "unlabelled_recall": mu / gold if gold else None, "unlabelled_precision": mu / test if test else None,
        "labelled_complete_match": share(sum(1 for r in ok if r[5] == r[3] and r[5] == r[4])),
        "unlabelled_complete_match": share(sum(1 for r in ok if r[6] == r[3] and r[6] == r[4])),
        "average_crossing": share(crossing), "no_crossing": share(sum(1 for r in ok if r[7] == 0)),
        "two_or_less_crossing": share(sum(1 for r in ok if r[7] <= 2)),
        "tagging_accuracy": tags / words if words else None,
        "gold_brackets": gold, "test_brackets": test, "matched_labelled": ml, "matched_unlabelled": mu,
        "no_crossing_sentences": sum(1 for r in ok if r[7] == 0), "words": words, "correct_tags": tags}


def evalb_report_from_views(wh, corpus: str, team: str, run: str, params: EvalbParams | None = None) -> str:
    """EVALB's report of a stored candidate run, read from the views ``geig_sentences`` and
    ``parse_scores`` (equal to :func:`evalb_report` on the files the run and its gold came from, when
    they were ingested one sentence per line)."""
    params = params or COLLINS
    key = {"c": corpus, "t": team, "r": run}
    rows = wh.con.execute(f"SELECT {', '.join(GEIG_COLUMNS)} FROM geig_sentences WHERE corpus = $c AND team = $t "
                          "AND run = $r ORDER BY position", key).fetchall()
    stored = {r[0]: dict(zip(SUMMARY, r[1:])) for r in wh.con.execute(
        f"SELECT subset, {', '.join(SUMMARY)} FROM parse_scores WHERE corpus = $c AND team = $t AND run = $r",
        key).fetchall()}
    empty = summarise([], "all", params)  # a subset without sentences has no row in the view
    return format_report(rows, {s: stored.get(s, empty) for s in _subsets(params)}, params)


def format_report(rows: list[tuple[int, ...]], summaries: dict[str, dict], params: EvalbParams) -> str:
    """The report's text from the per-sentence counts (:data:`GEIG_COLUMNS`, in sentence order) and the
    summaries of the subsets 'all' and 'len<=CUTOFF_LEN' (:data:`SUMMARY`)."""
    out = [_HEAD]
    labeled = params.labeled
    for pos, (stat, length, words, gb, tb, ml, mu, cross, tags) in enumerate(rows, start=1):
        m = ml if labeled else mu
        # _pct() written out: this loop runs once per sentence
        out.append(_ROW % (pos, length, stat, 100.0 * m / gb if gb else 0.0, 100.0 * m / tb if tb else 0.0, m, gb, tb,
                           cross, words, tags, 100.0 * tags / words if words else 0.0))
    out.append(_RULE)
    a = {k: (v or 0) for k, v in summaries["all"].items()}
    m = a["matched_labelled"] if labeled else a["matched_unlabelled"]
    # EVALB's totals row prints, in the "Cross" column, the number of sentences with no crossing
    # bracket (not the sum of crossing brackets): reproduced as printed; see docs/parse-evaluation.md.
    out.append(f"{'':15s} {_pct(m, a['gold_brackets']):6.2f} {_pct(m, a['test_brackets']):6.2f} {m:6d} "
               f"{a['gold_brackets']:6d} {a['test_brackets']:4d} {a['no_crossing_sentences']:6d} {a['words']:6d} "
               f"{a['correct_tags']:5d} {_pct(a['correct_tags'], a['words']):8.2f}")
    out.append("=== Summary ===")
    for key, title in zip(_subsets(params), ("All", f"len<={params.cutoff_len}")):
        s = summaries[key]
        prefix = "labelled" if labeled else "unlabelled"
        out += ["", f"-- {title} --",
                f"Number of sentence        = {s['sentences'] or 0:6d}",
                f"Number of Error sentence  = {s['error_sentences'] or 0:6d}",
                f"Number of Skip  sentence  = {s['skip_sentences'] or 0:6d}",
                f"Number of Valid sentence  = {s['valid_sentences'] or 0:6d}",
                f"Bracketing Recall         = {_fmt(s[prefix + '_recall'])}",
                f"Bracketing Precision      = {_fmt(s[prefix + '_precision'])}",
                f"Complete match            = {_fmt(s[prefix + '_complete_match'])}",
                f"Average crossing          = {(s['average_crossing'] or 0.0):6.2f}",
                f"No crossing               = {_fmt(s['no_crossing'])}",
                f"2 or less crossing        = {_fmt(s['two_or_less_crossing'])}",
                f"Tagging accuracy          = {_fmt(s['tagging_accuracy'])}"]
    return "\n".join(out) + "\n"


def _fmt(fraction) -> str:
    return f"{100.0 * (fraction or 0.0):6.2f}"
