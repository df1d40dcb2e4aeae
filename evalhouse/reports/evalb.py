"""``evalhouse evalb``: EVALB's report (Sekine & Collins 1997), byte for byte, for two bracketed files.

    $ evalhouse evalb ../shared/data/constituency/evalb/sample.gld ../shared/data/constituency/evalb/sample.tst \\
          --prm ../shared/data/constituency/evalb/sample.prm
      Sent.                        Matched  Bracket   Cross        Correct Tag
     ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy
    ============================================================================
       1    4    0  100.00 100.00     4      4    4      0      4     4   100.00
    ...
    -- All --
    ...
    Bracketing FMeasure       =  89.12

Two layouts (:data:`LAYOUTS`): ``2006``, the default, is what the current release of EVALB in C prints
(January 2006, ``../shared/tools/evalb-c``; the tests build it and compare every byte); ``1997`` is the
older report of EVALB's own ``sample.rsl``. They differ only in printing: the release prints 0 in the
Words column of an error or skip row, a totals row with other spacing whose Cross column is the sum of
the crossing brackets (1997: the sentences without one), only when both sides have brackets, and a
"Bracketing FMeasure" line in each summary (``-nan``, as glibc prints C's 0/0 on x86-64, when recall
and precision are both 0). Every figure is computed from integer counts in the order the C program
computes it, so that the rounding of ``%6.2f`` is the same.

Where EVALB stops, so does the report, and :class:`EvalbStopped` (an :class:`InputError`) carries the
report as far as EVALB prints it: at the error sentence after MAX_ERROR + 1 errors (no totals, no
summary), and when the two files have different numbers of lines (EVALB scores the lines both have and
prints its totals; the command prints that report, then the error, and exits 1). Each error sentence is
also named in ``notes`` (file, line, problem), where EVALB writes its message to stderr.

The report is computed without a warehouse: nothing is stored, so nothing else is computed
(the leaf-ancestor scores, which EVALB does not print, and the tables of trees are left out). The
per-sentence counts are :data:`evalhouse.analysis.parse_eval.GEIG_COLUMNS`, from the C kernel for
EVALB's one-tree-per-line files or, for anything it declines (Sampson & Babarczy's (2003) notation, malformed lines,
whose errors the loader reports, files with different line counts), from the Python reader and scorer.
The same report can be printed from a warehouse, for a stored run, by :func:`evalb_report_from_views`
(through ``geig_sentences`` and ``parse_scores``); the tests check that both give the same bytes.
docs/parse-evaluation.md says how EVALB's rules and quirks are reproduced.
"""

from __future__ import annotations

import io
import os
import platform
from typing import TYPE_CHECKING

from evalhouse.analysis.leaf_ancestor import LabelCost
from evalhouse.analysis.parse_eval import (
    COLLINS,
    GEIG_COLUMNS,
    STATUS_ERROR,
    STATUS_OK,
    STATUS_SKIP,
    EvalbParams,
    compare,
    geig_counts_of_lines,
    prepare,
)
from evalhouse.errors import InputError, OptionError
from evalhouse.loaders.brackets import read_text, read_trees

if TYPE_CHECKING:  # for annotations only: nothing more is imported at run time
    from evalhouse.warehouse import Warehouse

# layout -> what prints it
LAYOUTS = {
    "2006": "EVALB's current release in C (January 2006, ../shared/tools/evalb-c)",
    "1997": "the older EVALB that wrote EVALB's sample.rsl",
}
DEFAULT_LAYOUT = "2006"

_HEAD = (
    "  Sent.                        Matched  Bracket   Cross        Correct Tag\n"
    " ID  Len.  Stat. Recal  Prec.  Bracket gold test Bracket Words  Tags Accracy\n"
    "============================================================================"
)
_RULE = "============================================================================"
# evalb.c's individual_result(), its three printf calls in one
_ROW = "%4d  %3d    %d  %6.2f %6.2f   %3d    %3d  %3d    %3d   %4d  %4d   %6.2f"
# the name the errors give to the gold parses, as when both files went through `ingest parses`
_CORPUS = "evalb"
# what the report reads of a subset's summary: parse_scores' integer columns
SUMMARY = (
    "sentences",
    "error_sentences",
    "skip_sentences",
    "valid_sentences",
    "gold_brackets",
    "test_brackets",
    "matched_labelled",
    "matched_unlabelled",
    "crossing",
    "no_crossing_sentences",
    "two_or_less_crossing_sentences",
    "labelled_complete_sentences",
    "unlabelled_complete_sentences",
    "words",
    "correct_tags",
)


class EvalbStopped(InputError):
    """Where EVALB stops (too many error sentences) or reports a file-level error (different line counts):
    ``report`` is the report as far as EVALB prints it."""

    def __init__(self, path: str, line: int | None, problem: str, report: str):
        super().__init__(path, line, problem)
        self.report = report

    def __reduce__(self):
        return (EvalbStopped, (self.path, self.line, self.problem, self.report))


class Scored:
    """The per-sentence counts of a file pair and what the report needs to name its problems (a plain class:
    a dataclass's generated methods are compiled at import, 1 ms of the command's fixed cost)."""

    def __init__(
        self,
        rows: list[tuple[int, ...]],
        messages: dict[int, str] | None = None,
        test_name: str = "",
        test_lines: dict[int, int] | None = None,
        mismatch: tuple[str, int, str] | None = None,
    ):
        self.rows = rows  # GEIG_COLUMNS, for the sentences both files have
        self.messages = messages or {}  # position -> why the sentence is an error
        self.test_name = test_name
        self.test_lines = test_lines or {}  # position -> line of the test file (default: the same number)
        self.mismatch = mismatch  # (file, line, problem): the line counts differ


def evalb_report(
    gold_path: str | os.PathLike,
    test_path: str | os.PathLike,
    params: EvalbParams | None = None,
    cost: LabelCost | None = None,
    notes: list[str] | None = None,
    layout: str = DEFAULT_LAYOUT,
) -> str:
    """EVALB's report (per-sentence rows, totals row, summary for all and for len<=CUTOFF_LEN) of two
    files read one sentence per line, as EVALB reads them, in ``layout`` (:data:`LAYOUTS`).  ``cost`` is
    accepted for compatibility and unused: the report prints no leaf-ancestor score.

    Raises :class:`EvalbStopped` where EVALB stops or the line counts differ (its ``report`` is what EVALB
    prints), :class:`InputError` for a malformed file.  ``notes``, when given, receives a line for each
    error sentence (file:line: problem, where EVALB writes its message to stderr) and one when no sentence
    is within CUTOFF_LEN (the len<=N summary then counts none and prints zeros, as EVALB's does)."""
    params = params or COLLINS
    _check_layout(layout)
    scored = score_files(gold_path, test_path, params)
    return _report(
        scored, {subset: summarise(scored.rows, subset, params) for subset in _subsets(params)}, params, layout, notes
    )


def _check_layout(layout: str) -> None:
    if layout not in LAYOUTS:
        raise OptionError(f"unknown EVALB layout '{layout}' (valid: {', '.join(LAYOUTS)})")


def score_files(gold_path: str | os.PathLike, test_path: str | os.PathLike, params: EvalbParams) -> Scored:
    """The counts of the sentences both one-per-line files have, the error sentences' problems, and
    whether the line counts differ.  The errors of malformed files (file, line, problem) and their order
    are those of ``ingest_parses(gold=True)`` then ``ingest_parses(team=..., allow_mismatch=True)`` on the
    same files."""
    gold_text, gold_src = read_text(gold_path)
    try:
        test_text, test_src = read_text(test_path)
    except InputError:
        _trees(gold_text, gold_src)  # the gold file's own errors come first
        raise
    rows = geig_counts_of_lines(gold_text, test_text, params)
    if rows is not None:
        messages = {}
        if any(r[0] == STATUS_ERROR for r in rows):  # the kernel gives counts: the Python path says why
            gold_lines, test_lines = gold_text.split("\n"), test_text.split("\n")
            for position, r in enumerate(rows, start=1):
                if r[0] == STATUS_ERROR:
                    g, t = (
                        next(read_trees(io.StringIO(lines[position - 1] + "\n"), src.name, one_per_line=True))
                        for lines, src in ((gold_lines, gold_src), (test_lines, test_src))
                    )
                    messages[position] = compare(
                        prepare(g.words, g.pos, g.nodes, params), prepare(t.words, t.pos, t.nodes, params), params
                    ).message
        return Scored(rows, messages, test_src.name)
    gold, test = _trees(gold_text, gold_src), _trees(test_text, test_src)
    out, messages = [], {}
    for position, (g, t) in enumerate(zip(gold, test), start=1):
        c = compare(prepare(g.words, g.pos, g.nodes, params), prepare(t.words, t.pos, t.nodes, params), params)
        out.append(
            (
                c.status,
                c.length,
                c.words,
                c.gold_brackets,
                c.test_brackets,
                c.matched_labelled,
                c.matched_unlabelled,
                c.crossing,
                c.correct_tags,
            )
        )
        if c.status == STATUS_ERROR:
            messages[position] = c.message
    mismatch = None
    if len(gold) > len(test):
        mismatch = (
            gold_src.name,
            len(test) + 1,
            f"{len(gold)} lines, but {test_src.name} has {len(test)}: EVALB "
            f'scores the first {len(test)} sentences ("Number of lines unmatch (too many lines in gold file)")',
        )
    elif len(test) > len(gold):
        mismatch = (
            test_src.name,
            len(gold) + 1,
            f"{len(test)} lines, but the gold file {gold_src.name} has "
            f'{len(gold)}: EVALB scores the first {len(gold)} sentences ("Number of lines unmatch (too '
            'many lines in test file)")',
        )
    return Scored(out, messages, test_src.name, mismatch=mismatch)


def _trees(text, src):
    trees = list(read_trees(io.StringIO(text), src.name, one_per_line=True))
    if not trees:
        raise InputError(src.name, None, "no trees in the file")
    return trees


def _subsets(params: EvalbParams) -> tuple[str, str]:
    return "all", f"len<={params.cutoff_len}"


def summarise(rows: list[tuple[int, ...]], subset: str, params: EvalbParams) -> dict[str, int]:
    """The counts of ``parse_scores`` that the report prints figures of (:data:`SUMMARY`), for ``subset``
    ('all' or 'len<=N'), pooled as that view pools them: over the valid sentences."""
    if subset != "all":
        rows = [r for r in rows if r[1] <= params.cutoff_len]
    ok = [r for r in rows if r[0] == STATUS_OK]
    return {
        "sentences": len(rows),
        "error_sentences": sum(1 for r in rows if r[0] == STATUS_ERROR),
        "skip_sentences": sum(1 for r in rows if r[0] == STATUS_SKIP),
        "valid_sentences": len(ok),
        "gold_brackets": sum(r[3] for r in ok),
        "test_brackets": sum(r[4] for r in ok),
        "matched_labelled": sum(r[5] for r in ok),
        "matched_unlabelled": sum(r[6] for r in ok),
        "crossing": sum(r[7] for r in ok),
        "no_crossing_sentences": sum(1 for r in ok if r[7] == 0),
        "two_or_less_crossing_sentences": sum(1 for r in ok if r[7] <= 2),
        "labelled_complete_sentences": sum(1 for r in ok if r[5] == r[3] and r[5] == r[4]),
        "unlabelled_complete_sentences": sum(1 for r in ok if r[6] == r[3] and r[6] == r[4]),
        "words": sum(r[2] for r in ok),
        "correct_tags": sum(r[8] for r in ok),
    }


def evalb_report_from_views(
    wh: Warehouse, corpus: str, team: str, run: str, params: EvalbParams | None = None, layout: str = DEFAULT_LAYOUT
) -> str:
    """EVALB's report of a stored candidate run, read from the views ``geig_sentences`` and
    ``parse_scores`` (equal to :func:`evalb_report` on the files the run and its gold came from, when
    they were ingested one sentence per line, MAX_ERROR's stop included)."""
    params = params or COLLINS
    _check_layout(layout)
    key = {"c": corpus, "t": team, "r": run}
    rows, messages, lines = [], {}, {}
    for position, line, message, *counts in wh.con.execute(
        f"SELECT g.position, s.line, g.message, {', '.join('g.' + c for c in GEIG_COLUMNS)} FROM geig_sentences g "
        "JOIN parse_sentences s USING (corpus, team, run, position) WHERE corpus = $c AND team = $t AND run = $r "
        "ORDER BY position",
        key,
    ).fetchall():
        rows.append(tuple(counts))
        lines[position] = line
        if counts[0] == STATUS_ERROR:
            messages[position] = message
    source = wh.con.execute(
        "SELECT source_file FROM parse_runs WHERE corpus = $c AND team = $t AND run = $r", key
    ).fetchone()
    stored = {
        r[0]: {k: v or 0 for k, v in zip(SUMMARY, r[1:])}
        for r in wh.con.execute(
            f"SELECT subset, {', '.join(SUMMARY)} FROM parse_scores WHERE corpus = $c AND team = $t AND run = $r", key
        ).fetchall()
    }
    empty = summarise([], "all", params)  # a subset without sentences has no row in the view
    return _report(
        Scored(rows, messages, source[0] if source else run, lines),
        {s: stored.get(s, empty) for s in _subsets(params)},
        params,
        layout,
    )


def _report(
    scored: Scored, summaries: dict[str, dict], params: EvalbParams, layout: str, notes: list[str] | None = None
) -> str:
    """The report's text, or :class:`EvalbStopped` with the text where EVALB stops; ``notes`` receives the
    error sentences up to there (see :func:`evalb_report`)."""
    text, stop = format_report(scored.rows, summaries, params, layout, scored.mismatch is not None)
    if notes is not None:
        for position, message in scored.messages.items():
            if stop is not None and stop[0] is not None and position >= stop[0]:
                break
            notes.append(
                f"{scored.test_name}:{scored.test_lines.get(position, position)}: sentence {position}: "
                f"{message} (EVALB's error status)"
            )
        if stop is None and not any(r[1] <= params.cutoff_len for r in scored.rows):
            notes.append(
                f"no sentence is within CUTOFF_LEN {params.cutoff_len}: the len<={params.cutoff_len} "
                "summary counts none (zeros, as EVALB prints it)"
            )
    if stop is not None:
        position, count = stop
        limit = (
            f"error {count} of the run, and MAX_ERROR is {params.max_error}: EVALB stops here (it stops at the "
            "error after MAX_ERROR + 1), and so does the report, without its summary; raise MAX_ERROR in the "
            "parameter file to score the rest"
        )
        if position is None:
            path, line, problem = scored.mismatch
            raise EvalbStopped(path, line, f"{problem}; {limit}", text)
        raise EvalbStopped(
            scored.test_name,
            scored.test_lines.get(position, position),
            f"sentence {position}: {scored.messages.get(position)}; {limit}",
            text,
        )
    if scored.mismatch is not None:
        raise EvalbStopped(*scored.mismatch, text)
    return text


def format_report(
    rows: list[tuple[int, ...]],
    summaries: dict[str, dict],
    params: EvalbParams,
    layout: str = DEFAULT_LAYOUT,
    lines_differ: bool = False,
) -> tuple[str, tuple[int | None, int] | None]:
    """The report's text from the per-sentence counts (:data:`GEIG_COLUMNS`, in sentence order) and the
    counts of the subsets 'all' and 'len<=CUTOFF_LEN' (:data:`SUMMARY`), and where EVALB stops: None, or
    (position of the error sentence it stops at, or None for the line-count error after the rows; the
    number of that error).  EVALB counts an error sentence (status 1), then, after the rows, the line
    counts' mismatch; it stops at the first error whose count of errors before it exceeds MAX_ERROR."""
    out = [_HEAD]
    labeled = params.labeled
    errors = 0
    old = layout == "1997"
    for pos, (stat, length, words, gb, tb, ml, mu, cross, tags) in enumerate(rows, start=1):
        if stat == STATUS_ERROR:
            if errors > params.max_error:
                return "\n".join(out) + "\n", (pos, errors + 1)
            errors += 1
        if stat != STATUS_OK:
            out.append(_ROW % (pos, length, stat, 0.0, 0.0, 0, 0, 0, 0, words if old else 0, 0, 0.0))
            continue
        m = ml if labeled else mu
        # written out: this loop runs once per sentence
        out.append(
            _ROW
            % (
                pos,
                length,
                stat,
                100.0 * m / gb if gb else 0.0,
                100.0 * m / tb if tb else 0.0,
                m,
                gb,
                tb,
                cross,
                words,
                tags,
                100.0 * tags / words if words else 0.0,
            )
        )
    if lines_differ:
        if errors > params.max_error:
            return "\n".join(out) + "\n", (None, errors + 1)
        errors += 1
    out.append(_RULE)
    a = summaries["all"]
    m = a["matched_labelled"] if labeled else a["matched_unlabelled"]
    gold, test, words, tags = a["gold_brackets"], a["test_brackets"], a["words"], a["correct_tags"]
    if old:
        out.append(
            f"{'':15s} {_pct(m, gold):6.2f} {_pct(m, test):6.2f} {m:6d} {gold:6d} {test:4d} "
            f"{a['no_crossing_sentences']:6d} {words:6d} {tags:5d} {_pct(tags, words):8.2f}"
        )
    else:  # print_total(): the bracket figures only when both sides have brackets
        brackets = (
            "                %6.2f %6.2f %6d %5d %5d  %5d"
            % (_pct(m, gold), _pct(m, test), m, gold, test, a["crossing"])
            if gold > 0 and test > 0
            else ""
        )
        out.append(brackets + "  %5d %5d   %6.2f" % (words, tags, _pct(tags, words)))
    out.append("=== Summary ===")
    for key, title in zip(_subsets(params), ("All", f"len<={params.cutoff_len}")):
        s = summaries[key]
        m = s["matched_labelled"] if labeled else s["matched_unlabelled"]
        complete = s["labelled_complete_sentences"] if labeled else s["unlabelled_complete_sentences"]
        valid = s["valid_sentences"]
        r, p = _pct(m, s["gold_brackets"]), _pct(m, s["test_brackets"])
        out += [
            "",
            f"-- {title} --",
            f"Number of sentence        = {s['sentences']:6d}",
            f"Number of Error sentence  = {s['error_sentences']:6d}",
            f"Number of Skip  sentence  = {s['skip_sentences']:6d}",
            f"Number of Valid sentence  = {valid:6d}",
            f"Bracketing Recall         = {r:6.2f}",
            f"Bracketing Precision      = {p:6.2f}",
        ]
        if not old:
            out.append(f"Bracketing FMeasure       = {_f_measure(p, r)}")
        out += [
            f"Complete match            = {_pct(complete, valid):6.2f}",
            f"Average crossing          = {(1.0 * s['crossing'] / valid if valid > 0 else 0.0):6.2f}",
            f"No crossing               = {_pct(s['no_crossing_sentences'], valid):6.2f}",
            f"2 or less crossing        = {_pct(s['two_or_less_crossing_sentences'], valid):6.2f}",
            f"Tagging accuracy          = {_pct(s['correct_tags'], s['words']):6.2f}",
        ]
    return "\n".join(out) + "\n", None


def _pct(num: int, den: int) -> float:
    """``100.0*num/den`` when ``den > 0``, else 0.0: evalb.c's arithmetic, in its order."""
    return 100.0 * num / den if den > 0 else 0.0


def _f_measure(p: float, r: float) -> str:
    """``%6.2f`` of evalb.c's ``2*p*r/(p+r)``: 0/0 when both are 0, a NaN, which glibc prints as ``-nan``
    on x86-64 (its default NaN has the sign bit set) and as ``nan`` elsewhere."""
    if p + r == 0:
        return "%6s" % ("-nan" if platform.machine().lower() in ("x86_64", "amd64", "i386", "i686") else "nan")
    return "%6.2f" % (2 * p * r / (p + r))
