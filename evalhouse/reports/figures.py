"""The report's figures, drawn with matplotlib (object API, Agg canvas: no display, no global pyplot state).

    from evalhouse.reports import figures
    fig = figures.correlation_heatmap(matrix, crossed, labels, submissions=5)
    figures.save(fig, "report/figures", "correlations")   # correlations.svg, .pdf, .png

Every figure is sized for a paper: :data:`DOUBLE_COLUMN` (7 in) wide, or :data:`SINGLE_COLUMN` (3.3 in), and
at most :data:`MAX_HEIGHT` tall, with no text under 8 pt at that size (:data:`MIN_FONT`), so it goes into a
paper at 100% (tests/test_report.py reads the sizes back from the SVG). Every axis that has tick labels has
a title; systems are told apart by marker shape and line style as well as by colour (a page printed in grey
still tells them apart), and markers of systems at the same x are dodged so that none hides another. Long
lists are capped (the relations with most edges), the rest is in the report's table. The numbers behind
each figure are also in a table of the report. Files are written for papers (SVG, PDF with embedded
TrueType fonts) and for screens (PNG, 150 dpi), byte-reproducible: no dates, a fixed SVG id salt.

Every figure function takes ``width`` (:data:`DOUBLE_COLUMN` by default); at :data:`SINGLE_COLUMN` it lays
the same data out for one column (:func:`single`): panels stacked, the legend in one column below, tick
labels rotated, relation lists capped shorter (the rest is in the report's table). The report draws each
figure at both widths (:data:`WIDTHS`): ``figures/NAME.*`` and ``figures/single/NAME.*``, so a figure
function the report passes as ``functools.partial(figure, ...)`` gets both.
"""

from __future__ import annotations

import base64
import io
import math
import textwrap
from pathlib import Path

import numpy as np
from matplotlib import colormaps, rc_context
from matplotlib.figure import Figure

DOUBLE_COLUMN = 7.0  # inches: a figure across both columns of a paper
SINGLE_COLUMN = 3.3  # inches: a figure in one column
MAX_HEIGHT = 9.0  # inches: a figure fits on a page with its caption
MIN_FONT = 8  # points: the smallest text of a figure printed at its size
WIDTHS = {"": DOUBLE_COLUMN, "single": SINGLE_COLUMN}  # figures/<folder>/NAME.*: the report draws each at both

STYLE = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "xtick.labelsize": 8.5,
    "ytick.labelsize": 8.5,
    "legend.fontsize": 8,
    "figure.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "svg.fonttype": "none",  # text stays text in the SVG: smaller, searchable, editable
    "svg.hashsalt": "evalhouse",  # reproducible ids
    "pdf.fonttype": 42,  # TrueType in the PDF, as publishers ask
}
SAVE = {
    "svg": {"metadata": {"Date": None}},
    "pdf": {"metadata": {"CreationDate": None}},
    "png": {"dpi": 150, "metadata": {"Software": None}},
}
FORMATS = ("svg", "pdf", "png")


# runs told apart without colour too (a printed page may be grey): a marker and a line style each
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
LINES = ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1)), (0, (1, 1)), (0, (5, 3)), (0, (3, 3, 1, 3)), "-")


def _style(k: int) -> dict:
    return {"marker": MARKERS[k % len(MARKERS)], "linestyle": LINES[k % len(LINES)]}


def _dodge(k: int, n: int, width: float) -> float:
    """The offset of system ``k`` of ``n`` within a band of ``width`` centred on 0."""
    return (k + 0.5) * width / max(n, 1) - width / 2


def single(width: float) -> bool:
    """Whether a figure of ``width`` inches is laid out for one column of a paper."""
    return width < (SINGLE_COLUMN + DOUBLE_COLUMN) / 2


def _ncols(n: int, width: float) -> int:
    """Legend columns: two across a double column, one in a single column (run names are long)."""
    return max(1, min(n, 1 if single(width) else 2))


LEGEND_CHARS = 38  # a one-column legend entry: longer names lose their middle ("team/ru…run-name")


def _legend(fig: Figure, handles, labels, width: float) -> None:
    if single(width):
        half = (LEGEND_CHARS - 1) // 2
        labels = [x if len(x) <= LEGEND_CHARS else x[:half] + "…" + x[-half:] for x in labels]
    fig.legend(handles, labels, loc="outside lower center", ncols=_ncols(len(labels), width), frameon=False)


def _legend_height(n: int, ncols: int = 2) -> float:
    """Inches taken by a legend of ``n`` entries in ``ncols`` columns at 8 pt, below the axes."""
    return 0.2 + 0.17 * math.ceil(n / ncols)


def _colours(n: int) -> list:
    cmap = colormaps["tab10" if n <= 10 else "tab20"]
    return [cmap(i % cmap.N) for i in range(n)]


def plain(text: str) -> str:
    """A name drawn as it is: matplotlib reads text between dollar signs as mathtext (and fails on a lone
    one), so a team called "a$b" would be typeset or refused; escaped dollars are drawn literally."""
    return str(text).replace("$", r"\$")


def _figure(width: float, height: float) -> Figure:
    with rc_context(STYLE):
        return Figure(figsize=(width, height), layout="constrained")


def correlation_heatmap(
    matrix: np.ndarray, crossed: np.ndarray, labels: list[str], submissions: int, width: float = DOUBLE_COLUMN
) -> Figure:
    """Shimorina et al. (2021) Figure 2: Spearman rho between every pair of sentence metrics (median over
    ``submissions``); a cell whose pair is significant (Holm) in fewer than half of them is crossed out.
    In one column the cells print rho to one decimal without its leading zero (".9"; two decimals are in
    the report's table), x labels stand upright and the colour bar lies below, so ten metrics keep 8 pt
    text in cells about 0.17 in wide."""
    n = len(labels)
    narrow = single(width)
    number = (lambda v: f"{v:.1f}".replace("0.", ".", 1).replace("1.0", "1")) if narrow else (lambda v: f"{v:.2f}")
    with rc_context(STYLE):
        fig = _figure(width, min(MAX_HEIGHT, (2.6 + 0.24 * n) if narrow else (1.6 + 0.42 * n)))
        ax = fig.add_subplot()
        image = ax.imshow(np.ma.masked_invalid(matrix), cmap="RdBu_r", vmin=-1, vmax=1)
        for i in range(n):
            for j in range(n):
                v = matrix[i, j]
                if np.isnan(v):
                    ax.text(j, i, "n/a", ha="center", va="center", fontsize=MIN_FONT, color="#777777")
                    continue
                ax.text(
                    j,
                    i,
                    number(v),
                    ha="center",
                    va="center",
                    fontsize=MIN_FONT,
                    color="white" if abs(v) > 0.6 else "black",
                )
                if crossed[i, j]:
                    ax.plot([j - 0.45, j + 0.45], [i - 0.45, i + 0.45], color="#555555", lw=0.8)
                    ax.plot([j - 0.45, j + 0.45], [i + 0.45, i - 0.45], color="#555555", lw=0.8)
        ax.set_xticks(range(n), labels, rotation=90 if narrow else 40, ha="center" if narrow else "right")
        ax.set_yticks(range(n), labels)
        ax.set_xlabel("sentence metric")
        ax.set_ylabel("sentence metric")
        ax.spines[:].set_visible(False)
        plural = "s" if submissions != 1 else ""
        if narrow:
            fig.suptitle(
                f"Spearman correlation, median over\n{submissions} submission{plural}; crossed: significant\n"
                "after Holm in fewer than half"
            )
            fig.colorbar(image, ax=ax, shrink=0.8, label="Spearman ρ", location="bottom")
        else:
            ax.set_title(
                f"Spearman correlation between sentence metrics\n(median over {submissions} submission"
                f"{plural}; crossed: significant after Holm in fewer than half)"
            )
            fig.colorbar(image, ax=ax, shrink=0.8, label="Spearman ρ")
    return fig


def dea_by_relation(
    relations: list[str],
    edges: list[int],
    systems: list[str],
    accuracy: np.ndarray,
    low: np.ndarray,
    high: np.ndarray,
    level: float | None,
    width: float = DOUBLE_COLUMN,
) -> Figure:
    """DEA per relation (rows, in the order given: hardest first) and system (a marker shape and colour
    each, dodged within the row), with bootstrap intervals as horizontal bars; more than 10 relations are
    split into two panels side by side (the first half on the left), so the figure stays 7 in wide and
    shorter than a page. The caller caps the relations (:data:`evalhouse.reports.html.FIGURE_RELATIONS`).
    In one column: one panel of as many of them as fit :data:`MAX_HEIGHT` (at most 10), those with most
    edges, in the order given; the title says how many.

    ``accuracy``, ``low``, ``high``: arrays (relations x systems), NaN where absent."""
    r, s = len(relations), len(systems)
    row = 0.1 + 0.05 * max(s, 1)  # inches per relation: the systems' markers dodged one above the other
    title = "Dependency edge accuracy by relation, hardest first"
    if single(width):
        fit = int((MAX_HEIGHT - 1.3 - _legend_height(s, _ncols(s, width))) // row)
        keep = sorted(sorted(range(r), key=lambda i: -edges[i])[: max(1, min(10, fit))])
        if len(keep) < r:
            title = f"DEA by relation, hardest first\n(the {len(keep)} with most edges)"
        relations, edges = [relations[i] for i in keep], [edges[i] for i in keep]
        accuracy, low, high = accuracy[keep], low[keep], high[keep]
        r, panels = len(keep), 1
    else:
        panels = 2 if r > 10 else 1
    per_panel = math.ceil(r / panels) if r else 1
    height = min(MAX_HEIGHT, 1.3 + per_panel * row + _legend_height(s, _ncols(s, width)))
    with rc_context(STYLE):
        fig = _figure(width, height)
        axes = fig.subplots(1, panels, squeeze=False, sharex=True)[0]
        for p, ax in enumerate(axes):
            rows = list(range(p * per_panel, min(r, (p + 1) * per_panel)))
            for k, (name, colour) in enumerate(zip(systems, _colours(s))):
                y = np.arange(len(rows)) + _dodge(k, s, 0.8)
                acc = accuracy[rows, k]
                have = ~np.isnan(low[rows, k]) & ~np.isnan(high[rows, k])
                err = np.vstack([acc - low[rows, k], high[rows, k] - acc])
                err[:, ~have] = 0
                ax.errorbar(
                    acc,
                    y,
                    xerr=np.clip(err, 0, None),
                    fmt=MARKERS[k % len(MARKERS)],
                    ms=3.5,
                    color=colour,
                    ecolor=colour,
                    elinewidth=0.9,
                    capsize=1.5,
                    label=plain(name),
                )
            ax.set_yticks(range(len(rows)), [plain(f"{relations[i]} ({edges[i]:,})") for i in rows])
            ax.set_ylim(per_panel - 0.5, -0.5)
            ax.set_xlim(-0.02, 1.02)
            ax.grid(axis="x", color="#dddddd", lw=0.6)
            ax.set_axisbelow(True)
            ax.set_xlabel("DEA" + (f" ({level:.0%} bootstrap interval)" if level else ""))
            ax.set_ylabel("relation (reference edges)")
        fig.suptitle(title)
        _legend(fig, *axes[0].get_legend_handles_labels(), width)
    return fig


def buckets(
    panels: list[tuple[str, list[str]]],
    metrics: list[tuple[str, str]],
    systems: list[str],
    values: dict,
    width: float = DOUBLE_COLUMN,
) -> Figure:
    """Scores by bucket of a sentence property: one column per property (``panels``: (title, bucket
    labels)), one row per metric (``metrics``: (key, axis label)), one line per system with its own marker
    and line style, dodged sideways within a bucket (close systems would otherwise hide one another); the
    y range of a row is the data's, not 0-1, so that differences between systems show.
    ``values[(panel, metric, system)]`` is a list of values, one per bucket (NaN: no sentence).
    In one column the grid is transposed: a row per property, a column per metric, each panel with its
    own y axis and title."""
    s = len(systems)
    narrow = single(width)
    with rc_context(STYLE):
        if narrow:
            height = 0.7 + 1.95 * len(panels) + _legend_height(s, 1)
            fig = _figure(width, min(MAX_HEIGHT, height))
            grid = fig.subplots(len(panels), len(metrics), squeeze=False).T
        else:
            fig = _figure(width, min(MAX_HEIGHT, 0.5 + 2.05 * len(metrics) + _legend_height(s)))
            grid = fig.subplots(len(metrics), len(panels), squeeze=False, sharey="row")
        colours = _colours(s)
        for row, (metric, axis_label) in enumerate(metrics):
            for col, (title, labels) in enumerate(panels):
                ax = grid[row][col]
                x = np.arange(len(labels))
                for k, (system, colour) in enumerate(zip(systems, colours)):
                    y = np.asarray(values.get((title, metric, system), [np.nan] * len(labels)), dtype=float)
                    ax.plot(x + _dodge(k, s, 0.5), y, ms=3.5, lw=1, color=colour, label=plain(system), **_style(k))
                crowded = len(labels) > (3 if narrow else 5)
                ax.set_xticks(
                    x,
                    labels,
                    rotation=(90 if narrow else 40) if crowded else 0,
                    ha="right" if crowded else "center",
                    rotation_mode="anchor",
                )
                ax.grid(axis="y", color="#dddddd", lw=0.6)
                if narrow:
                    ax.set_xticks(x, labels, rotation=90 if crowded else 0, ha="center")
                ax.set_xlabel(textwrap.fill(title, 12) if narrow else title)
                if col == 0 or narrow:
                    ax.set_ylabel(axis_label)
        fig.suptitle(
            "Scores by length, depth and mean\ndependency distance (reference trees)"
            if narrow
            else "Scores by sentence length, tree depth and mean dependency distance (reference trees)"
        )
        _legend(fig, *grid[0][0].get_legend_handles_labels(), width)
    return fig


def parser_scores(systems: list[str], metrics: list[str], cube: dict, width: float = DOUBLE_COLUMN) -> Figure:
    """The ranked scores of dependency parser runs (columns of ``cube``, one row per metric), each with its
    bootstrap interval: markers dodged within a metric, one marker shape per run. In one column the metric
    names stand rotated and the axis titles are shorter."""
    m, s = len(metrics), len(systems)
    band = 0.8
    step = band / max(s, 1)
    narrow = single(width)
    with rc_context(STYLE):
        fig = _figure(width, (3.2 if narrow else 2.4) + _legend_height(s, _ncols(s, width)))
        ax = fig.add_subplot()
        for k, (name, colour) in enumerate(zip(systems, _colours(s))):
            x = np.arange(m) - band / 2 + step * (k + 0.5)
            value, low, high = cube["value"][:, k], cube["low"][:, k], cube["high"][:, k]
            have = ~np.isnan(low) & ~np.isnan(high)
            err = np.vstack([value - low, high - value])
            err[:, ~have] = 0
            ax.errorbar(
                x,
                value,
                yerr=np.clip(err, 0, None),
                fmt=MARKERS[k % len(MARKERS)],
                ms=4,
                color=colour,
                ecolor=colour,
                elinewidth=1,
                capsize=2,
                label=plain(name),
            )
        ax.set_xticks(range(m), metrics, rotation=40 if narrow else 0, ha="right" if narrow else "center")
        ax.grid(axis="y", color="#dddddd", lw=0.6)
        ax.set_axisbelow(True)
        if narrow:
            ax.set_xlabel("metric (CoNLL 2018 F1;\ndependency LA: mean over gold words)")
            ax.set_ylabel("score (%), bars: bootstrap interval")
            ax.set_title("Dependency parsers: scores\nwith bootstrap intervals")
        else:
            ax.set_xlabel("metric (CoNLL 2018 F1; dependency LA: mean over gold words)")
            ax.set_ylabel("score (%), bars: bootstrap interval")
            ax.set_title("Dependency parsers: scores with bootstrap intervals")
        _legend(fig, *ax.get_legend_handles_labels(), width)
    return fig


def breakdown_panels(
    panels: list[tuple[str, list[str], dict]], metric: str, joined: bool = True, width: float = DOUBLE_COLUMN
) -> Figure:
    """One panel per breakdown (``panels``: (x-axis title, group labels, run -> values)), a marker shape per
    run, dodged sideways within a group. ``joined``: the groups are ordered (arc length, ...) and each run's
    markers are joined by a line of its own style; otherwise the groups are categories (arc direction,
    projectivity), drawn as markers alone, each panel as wide as its number of groups asks. Side by side
    across two columns; stacked (each with its y title) in one."""
    narrow = single(width)
    runs = len(panels[0][2]) if panels else 0
    with rc_context(STYLE):
        if narrow:
            fig = _figure(width, min(MAX_HEIGHT, 0.6 + 1.9 * len(panels) + _legend_height(runs, 1)))
            grid = fig.subplots(len(panels), 1, squeeze=False)[:, 0]
        else:
            fig = _figure(width, 2.5 + _legend_height(runs))
            widths = [1] * len(panels) if joined else [max(len(labels), 1) for _, labels, _ in panels]
            grid = fig.subplots(1, len(panels), squeeze=False, sharey="row", width_ratios=widths)[0]
        for ax, (title, labels, series) in zip(grid, panels):
            x = np.arange(len(labels))
            for k, (name, values) in enumerate(series.items()):
                style = _style(k) if joined else {"marker": MARKERS[k % len(MARKERS)], "linestyle": "none"}
                ax.plot(
                    x + _dodge(k, len(series), 0.4),
                    values,
                    ms=4 if joined else 5,
                    lw=1.1,
                    color=_colours(len(series))[k],
                    label=plain(name),
                    **style,
                )
            longest = max((len(line) for label in labels for line in label.split("\n")), default=1)
            crowded = joined and len(labels) * longest > (28 if narrow else 16)
            ax.set_xticks(
                x, labels, rotation=45 if crowded else 0, ha="right" if crowded else "center", rotation_mode="anchor"
            )
            if not joined:  # a category's markers stay inside its slot, however few the categories
                ax.set_xlim(-0.5, len(labels) - 0.5)
            ax.grid(axis="y", color="#dddddd", lw=0.6)
            ax.set_xlabel(title)
            if narrow:
                ax.set_ylabel(metric)
        grid[0].set_ylabel(metric)
        fig.suptitle(f"Dependency parsers: {metric}{chr(10) if narrow else ' '}by group of gold words")
        _legend(fig, *grid[0].get_legend_handles_labels(), width)
    return fig


def group_dots(
    what: str, groups: list[str], words: list[int], systems: list[str], values: np.ndarray, width: float = DOUBLE_COLUMN
) -> Figure:
    """LAS F1 per group of a breakdown that has no order (``what``: relation, UPOS), one row per group (the
    hardest at the top, ``words``: its gold words) and a marker shape and colour per run, dodged within the
    row. ``values``: an array (groups x systems), NaN where the run has no F1 for the group."""
    r, s = len(groups), len(systems)
    # hardest first: by the mean over the runs that have the group (one with none, last)
    order = np.argsort(np.ma.masked_invalid(values).mean(axis=1).filled(np.inf) if s else np.zeros(r), kind="stable")
    with rc_context(STYLE):
        narrow = single(width)
        fig = _figure(width, min(MAX_HEIGHT, (1.5 if narrow else 1.1) + 0.2 * r + _legend_height(s, _ncols(s, width))))
        ax = fig.add_subplot()
        for k, (name, colour) in enumerate(zip(systems, _colours(s))):
            ax.plot(
                values[order, k],
                np.arange(r) + _dodge(k, s, 0.5),
                linestyle="none",
                marker=MARKERS[k % len(MARKERS)],
                ms=4.5,
                color=colour,
                label=plain(name),
            )
        ax.set_yticks(range(r), [plain(f"{groups[i]} ({words[i]:,})") for i in order])
        ax.set_ylim(r - 0.5, -0.5)
        ax.grid(axis="x", color="#dddddd", lw=0.6)
        ax.set_axisbelow(True)
        sep = "\n" if narrow else " "
        ax.set_xlabel(
            "LAS F1 (precision: system\nwords; recall: gold words)"
            if narrow
            else f"LAS F1 (precision over system words of the {what}, recall over gold words)"
        )
        ax.set_ylabel(f"{what} (gold words)")
        ax.set_title(f"Dependency parsers: LAS F1{sep}by {what}, hardest first")
        _legend(fig, *ax.get_legend_handles_labels(), width)
    return fig


def render(fig: Figure, fmt: str) -> bytes:
    buffer = io.BytesIO()
    with rc_context(STYLE):
        fig.savefig(buffer, format=fmt, **SAVE[fmt])
    return buffer.getvalue()


def save(fig: Figure, directory: str | Path, name: str) -> dict[str, bytes]:
    """Write ``directory/name.svg``, ``.pdf`` and ``.png``; returns the bytes of each format."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    out = {}
    for fmt in FORMATS:
        out[fmt] = render(fig, fmt)
        (directory / f"{name}.{fmt}").write_bytes(out[fmt])
    return out


def data_uri(data: bytes, fmt: str) -> str:
    mime = {"svg": "image/svg+xml", "png": "image/png"}[fmt]
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
