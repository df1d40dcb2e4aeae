"""Pronoun translation metrics over word alignments: APT and AutoPRF (pure Python, no I/O).

Used by ``evalhouse ingest translations`` and ``evalhouse apt`` (see :mod:`evalhouse.translations`),
which materialise one row per system x source pronoun into ``pronoun_analyses``; the views
``pronoun_cases``, ``apt_scores`` and ``autoprf_scores`` aggregate those rows in plain SQL.

APT (Miculicich Werlen & Popescu-Belis 2017; Guillou & Hardmeier 2018, sections 2 and 5). For each
source pronoun take the reference words R and output words T aligned to it (mapped through the
target pronoun list, if any: a word not in the list becomes ``OTHER``; and through the classes of
identical spellings), then::

    case 5  R empty, T not empty        case 6  R and T empty        case 4  T empty, R not empty
    case 1  R & T minus {OTHER} non-empty (OTHER counts too when count_other_as_equal)
    case 2  some equivalence class meets both R and T
    case 3  otherwise

    APT = sum_c w_c * n_c / sum_c n_c      (c over the cases in use; Guillou & Hardmeier's (2018) APT-A: all six
                                            cases, w = 1,0,0,0,0,0; APT-B: w = 1,0.5,0,0,0,0)

The alignment correction (:func:`correct_alignment`) is APT's ``improve_alignment.py`` as ``APT.py``
calls it: only aligned pronouns, a window of 2 target words each side with the script's closeness
weights, tokens compared as written.

AutoPRF (Hardmeier & Federico 2010; Guillou & Hardmeier 2018, section 4). Over all aligned words
(lower-cased, no pronoun list, no alignment correction), per source pronoun the clipped count
``m = sum_w min(count_R(w), count_T(w))``; then ``P = sum m / sum |T|``, ``R = sum m / sum |R|``,
``F = 2PR / (P + R)``. The *restricted* variant counts one pronominal item per example: the
reference translation and the output translation of a source pronoun are one item each (if
aligned at all), and they match when APT would call them identical (case 1, without equivalence
or alignment correction). Its recall is therefore exactly APT with cases 1-4, weights 1,0,0,0,
no equivalence and no correction -- the identity Guillou & Hardmeier (2018, section 4) state.

Example (``evalhouse apt --config ../shared/data/mt/apt-es-en/config_1``)::

    Score: 0.4000
    Cases: 1,2,3,4,5,6
    Weights: 1.0,0.5,0.0,0.0,0.0,0.0
    Findings per case: 38,0,42,10,2,3
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

OTHER = "OTHER"
NONE = "NONE"
# Alignment correction window: target words within this distance of the aligned span are candidates.
CORRECTION_WINDOW = 2


@dataclass(frozen=True)
class PronounSettings:
    """What decides the per-pronoun analysis (weights only matter for the score, not here)."""

    source_pronouns: frozenset[str]
    target_pronouns: tuple[str, ...] | None = None  # None: compare raw aligned words (APT without list)
    identical: tuple[tuple[str, ...], ...] = ()  # classes of spellings counted as the same pronoun
    equivalent: tuple[tuple[str | None, tuple[str, ...]], ...] = ()  # (source pronoun or None, class)
    equivalence: bool = True
    alignment_correction: bool = False
    correction_source: frozenset[str] | None = None  # default: source_pronouns
    correction_target: frozenset[str] | None = None  # default: target_pronouns
    count_other_as_equal: bool = False
    source_separator: str | None = None
    target_separator: str | None = None


@dataclass
class PronounAnalysis:
    """One source pronoun of one segment (indices 0-based here; the warehouse stores them 1-based)."""

    source_index: int
    source_token: str
    source_pronoun: str
    ref_indices: list[int]
    ref_words: list[str]  # aligned reference tokens (lower-cased), before correction
    ref_items: list[str]  # what APT compares: mapped through the list, after correction
    out_indices: list[int]
    out_words: list[str]
    out_items: list[str]
    ref_corrected: bool
    out_corrected: bool
    case: int
    matrix_ref: str
    matrix_out: str
    autoprf_matches: int
    autoprf_ref: int
    autoprf_out: int
    restricted_match: int
    restricted_ref: int
    restricted_out: int
    ref_item_indices: list[int] = field(default_factory=list)
    out_item_indices: list[int] = field(default_factory=list)


def find_source_pronouns(tokens: Sequence[str], pronouns: frozenset[str], separator: str | None = None):
    """(index, token, matched pronoun) for every source token that is (or contains) a listed pronoun."""
    found = []
    for i, token in enumerate(tokens):
        low = token.lower()
        parts = low.split(separator) if separator else [low]
        for part in parts:
            if part in pronouns:
                found.append((i, low, part))
                break
    return found


def _items(words: list[str], target: tuple[str, ...] | None, separator: str | None) -> list[str]:
    """APT's view of aligned words: with a target list, the listed (sub)words or [OTHER]."""
    if target is None:
        return list(words)
    listed = set(target)
    out = []
    for w in words:
        for part in w.split(separator) if separator else [w]:
            if part in listed:
                out.append(part)
                break
    return out or [OTHER]


def window_weights(size: int) -> list[int]:
    """APT's closeness weights for a window of ``size`` target positions (1 = closest to the centre).

    Counting down from size // 2 to 1 over the left half, 1 for the middle position of an odd
    window, then up from 1 over the right half: [2, 1, 1, 1, 2] for 5 positions, [2, 1, 1, 2] for 4.
    In an odd window the centre and its two neighbours are equally close."""
    half = size // 2
    return list(range(half, 0, -1)) + [1] * (size % 2) + list(range(1, half + 1))


def correct_alignment(
    indices: list[int],
    items: list[str],
    source_tokens: Sequence[str],
    target_tokens: Sequence[str],
    back: dict[int, list[int]],
    source_valid: frozenset[str],
    target_valid: frozenset[str],
) -> tuple[list[int], list[str], bool]:
    """APT's alignment-correction heuristic (``improve_alignment.py`` of idiap/APT, as APT.py calls it).

    * Nothing changes when an aligned item is already a valid target pronoun, or when the pronoun is
      aligned to nothing (APT looks at no neighbours: its neighbour loop is empty and an unaligned
      pronoun is never corrected).
    * Window: the aligned target positions widened by CORRECTION_WINDOW on each side, cut at the
      sentence ends. Each position has a closeness weight (:func:`window_weights`).
    * Candidates: positions whose token, after its last ``-`` (APT: "in case of composed words"),
      is a valid target pronoun as written (APT compares the token's case as it is in the file with
      its lower-cased lists) and is not one of the current items, and that are not aligned to a
      source token that is a valid source pronoun as written.
    * The first candidate (leftmost) of least weight is added: its position to the indices and its
      token as written to the items, replacing a lone ``OTHER``.
    """
    if not indices or any(w in target_valid for w in items):
        return indices, items, False
    lo = max(min(indices) - CORRECTION_WINDOW, 0)
    hi = min(max(indices) + CORRECTION_WINDOW, len(target_tokens) - 1)
    best = None
    for pos, weight in zip(range(lo, hi + 1), window_weights(hi - lo + 1)):
        word = target_tokens[pos].split("-")[-1]
        if word not in target_valid or word in items:
            continue
        if any(source_tokens[s] in source_valid for s in back.get(pos, [])):
            continue
        if best is None or weight < best[0]:
            best = (weight, pos)
    if best is None:
        return indices, items, False
    new_items = ([] if items == [OTHER] else list(items)) + [target_tokens[best[1]]]
    return indices + [best[1]], new_items, True


def _normaliser(settings: PronounSettings):
    rep = {}
    for cls in settings.identical:
        for w in cls:
            rep.setdefault(w, cls[0])
    return lambda w: rep.get(w, w)


def analyse_segment(
    source_tokens: Sequence[str],
    ref_tokens: Sequence[str] | None,
    out_tokens: Sequence[str],
    ref_links: dict[int, list[int]],
    out_links: dict[int, list[int]],
    settings: PronounSettings,
) -> list[PronounAnalysis]:
    """Every source pronoun of one segment. Links map 0-based source index -> sorted target indices."""
    norm = _normaliser(settings)
    src_valid = settings.correction_source if settings.correction_source is not None else settings.source_pronouns
    tgt_valid = (
        settings.correction_target
        if settings.correction_target is not None
        else frozenset(settings.target_pronouns or ())
    )
    ref_back = _invert(ref_links)
    out_back = _invert(out_links)
    results = []
    for index, token, pronoun in find_source_pronouns(
        source_tokens, settings.source_pronouns, settings.source_separator
    ):
        ref_idx = list(ref_links.get(index, []))
        out_idx = list(out_links.get(index, []))
        ref_words = [ref_tokens[j].lower() for j in ref_idx]
        out_words = [out_tokens[j].lower() for j in out_idx]
        ref_items = _items(ref_words, settings.target_pronouns, settings.target_separator) if ref_idx else []
        out_items = _items(out_words, settings.target_pronouns, settings.target_separator) if out_idx else []
        ref_ii, out_ii = list(ref_idx), list(out_idx)
        ref_fix = out_fix = False
        if settings.alignment_correction:
            ref_ii, ref_items, ref_fix = correct_alignment(
                ref_ii, ref_items, source_tokens, ref_tokens, ref_back, src_valid, tgt_valid
            )
            out_ii, out_items, out_fix = correct_alignment(
                out_ii, out_items, source_tokens, out_tokens, out_back, src_valid, tgt_valid
            )
        case, mref, mout = apt_case(pronoun, ref_items, out_items, settings, norm)
        # AutoPRF: raw aligned words, no list, no correction
        clip = sum((Counter(ref_words) & Counter(out_words)).values())
        plain_ref = _items(ref_words, settings.target_pronouns, settings.target_separator) if ref_idx else []
        plain_out = _items(out_words, settings.target_pronouns, settings.target_separator) if out_idx else []
        plain_case = apt_case(
            pronoun,
            plain_ref,
            plain_out,
            PronounSettings(
                settings.source_pronouns,
                settings.target_pronouns,
                settings.identical,
                (),
                False,
                False,
                count_other_as_equal=settings.count_other_as_equal,
            ),
            norm,
        )[0]
        results.append(
            PronounAnalysis(
                index,
                token,
                pronoun,
                ref_idx,
                ref_words,
                ref_items,
                out_idx,
                out_words,
                out_items,
                ref_fix,
                out_fix,
                case,
                mref,
                mout,
                clip,
                len(ref_words),
                len(out_words),
                int(plain_case == 1),
                int(bool(ref_idx)),
                int(bool(out_idx)),
                ref_ii,
                out_ii,
            )
        )
    return results


def _invert(links: dict[int, list[int]]) -> dict[int, list[int]]:
    back: dict[int, list[int]] = {}
    for s, ts in links.items():
        for t in ts:
            back.setdefault(t, []).append(s)
    return back


def apt_case(
    source_pronoun: str, ref_items: list[str], out_items: list[str], settings: PronounSettings, norm=None
) -> tuple[int, str, str]:
    """(case, reference label, output label) -- the labels are the confusion-matrix cell."""
    norm = norm or _normaliser(settings)
    if not ref_items:
        return (5, NONE, norm(out_items[0])) if out_items else (6, NONE, NONE)
    if not out_items:
        return 4, norm(ref_items[0]), NONE
    ref = [norm(w) for w in ref_items]
    out = [norm(w) for w in out_items]
    common = [w for w in ref if w in out and (w != OTHER or settings.count_other_as_equal)]
    if common:
        return 1, common[0], common[0]
    if settings.equivalence:
        for src, cls in settings.equivalent:
            if src is not None and src != source_pronoun:
                continue
            members = {norm(w) for w in cls}
            r = [w for w in ref if w in members]
            t = [w for w in out if w in members]
            if r and t:
                return 2, r[0], t[0]
    return 3, ref[-1], out[-1]


@dataclass(frozen=True)
class AptScore:
    score: float
    cases: tuple[int, ...]
    weights: tuple[float, ...]
    findings: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.findings)


def apt_score(case_counts: dict[int, int] | Counter, cases: Sequence[int], weights: Sequence[float]) -> AptScore:
    """APT over the cases in use: sum w_c n_c / sum n_c (nan when no pronoun falls in those cases)."""
    if len(weights) != len(cases):
        raise ValueError(f"{len(cases)} cases in use but {len(weights)} weights; give one weight per case")
    findings = tuple(int(case_counts.get(c, 0)) for c in cases)
    total = sum(findings)
    score = sum(w * n for w, n in zip(weights, findings)) / total if total else float("nan")
    return AptScore(score, tuple(cases), tuple(float(w) for w in weights), findings)


def autoprf(matches: int, ref: int, out: int) -> tuple[float, float, float]:
    """(precision, recall, F) from summed clipped counts; nan where a denominator is 0."""
    p = matches / out if out else float("nan")
    r = matches / ref if ref else float("nan")
    f = 2 * p * r / (p + r) if out and ref and (p + r) else (0.0 if out and ref else float("nan"))
    return p, r, f


def confusion_matrix(
    cells: Iterable[tuple[str, str]], labels: Iterable[str] | None = None
) -> tuple[list[str], dict[tuple[str, str], int]]:
    """Labels ordered by diagonal count (descending; ties by total count, then alphabetically) and cell counts.

    ``labels`` adds labels without counts (APT lists every target pronoun, OTHER and NONE)."""
    counts: Counter = Counter(cells)
    labels = {x for cell in counts for x in cell} | set(labels or ())
    diag = {l: counts.get((l, l), 0) for l in labels}
    total = Counter()
    for (r, t), n in counts.items():
        total[r] += n
        total[t] += n
    order = sorted(labels, key=lambda l: (-diag[l], -total[l], l))
    return order, dict(counts)


def render_score(
    score: AptScore, cells: Iterable[tuple[str, str]], max_labels: int = 10, labels: Iterable[str] | None = None
) -> str:
    """APT's ``.score`` layout: score, cases, weights, findings, then the confusion matrix
    (rows = reference, columns = output; labels beyond ``max_labels`` are summed into ``...``)."""
    order, counts = confusion_matrix(cells, labels)
    shown = order[:max_labels]
    rest = order[max_labels:]
    labels = shown + (["..."] if len(order) > max_labels else [])

    def group(label):
        return [label] if label != "..." else rest

    matrix = [[sum(counts.get((r, t), 0) for r in group(a) for t in group(b)) for b in labels] for a in labels]
    lines = [
        f"Score: {score.score:0.4f}",
        "Cases: " + ",".join(str(c) for c in score.cases),
        "Weights: " + ",".join(repr(float(w)) for w in score.weights),
        "Findings per case: " + ",".join(str(n) for n in score.findings),
        f"Total findings: {score.total}",
        "\t" + "\t".join(labels + ["-sum-"]),
    ]
    for label, row in zip(labels, matrix):
        lines.append(label + "\t" + "\t".join(str(v) for v in row + [sum(row)]))
    col = [sum(row[j] for row in matrix) for j in range(len(labels))]
    lines.append("-sum-\t" + "\t".join(str(v) for v in col + [sum(col)]))
    return "\n".join(lines) + "\n"
