"""``evalhouse report``: one self-contained HTML page with PNG figures, from the tables of ``analyze``.

    evalhouse report --corpus en_ewt-test --out report/

Writes ``DIR/index.html``, ``DIR/correlations.png`` (the Spearman heatmap of Shimorina et al. 2021
Figure 2: median rho over the selected submissions, cells whose pair is significant after Holm in
fewer than half of them crossed out) and ``DIR/dea_by_relation.png``. No JavaScript, no CDN, no
plotting library: the PNGs are drawn pixel by pixel and encoded with zlib. Every number in a figure
is also in a table on the page.
"""

from __future__ import annotations

import html
import struct
import zlib
from pathlib import Path

import numpy as np

from evalhouse.errors import WarehouseError
from evalhouse.statistics.analyze import METRICS
from evalhouse.statistics.selection import Selection
from evalhouse.version import __version__

SHORT = {"bleu": "BLEU", "dea": "DEA", "fluency_z": "Flu", "adequacy_z": "Ade", "depth": "D", "length": "L",
         "mean_dependency_distance": "MDD", "mean_flux_size": "MFS", "mean_flux_weight": "MFW", "mean_arity": "MA"}

# 3x5 pixel digits and the few signs needed to print a correlation in a heatmap cell
_GLYPHS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001001001001",
    "8": "111101111101111", "9": "111101111001111", "-": "000000111000000", ".": "000000000000010",
}


def png_bytes(pixels: np.ndarray) -> bytes:
    """Encode an (height x width x 3) uint8 RGB array as PNG (8-bit truecolour, filter 0 rows)."""
    height, width, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[y].astype(np.uint8).tobytes() for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def _text(canvas: np.ndarray, x: int, y: int, text: str, scale: int = 2, colour=(0, 0, 0)) -> None:
    for ch in text:
        glyph = _GLYPHS.get(ch)
        if glyph:
            for k, bit in enumerate(glyph):
                if bit == "1":
                    gy, gx = divmod(k, 3)
                    canvas[y + gy * scale:y + (gy + 1) * scale, x + gx * scale:x + (gx + 1) * scale] = colour
        x += 4 * scale


def _diverging(value: float) -> tuple[int, int, int]:
    """-1 blue, 0 white, +1 red."""
    v = max(-1.0, min(1.0, value))
    if v >= 0:
        return 255, int(255 * (1 - v)), int(255 * (1 - v))
    return int(255 * (1 + v)), int(255 * (1 + v)), 255


def heatmap(matrix: np.ndarray, crossed: np.ndarray, cell: int = 44) -> np.ndarray:
    n = matrix.shape[0]
    canvas = np.full((n * cell + 1, n * cell + 1, 3), 255, dtype=np.uint8)
    for i in range(n):
        for j in range(n):
            y, x = i * cell, j * cell
            v = matrix[i, j]
            if np.isnan(v):
                canvas[y:y + cell, x:x + cell] = (230, 230, 230)
                continue
            canvas[y:y + cell, x:x + cell] = _diverging(v)
            _text(canvas, x + 4, y + cell // 2 - 5, f"{v:.2f}")
            if crossed[i, j]:
                for k in range(cell):
                    canvas[y + k, x + k] = (90, 90, 90)
                    canvas[y + k, x + cell - 1 - k] = (90, 90, 90)
    canvas[::cell, :] = (120, 120, 120)
    canvas[:, ::cell] = (120, 120, 120)
    return canvas


def bars(values: list[float], lows: list[float | None], highs: list[float | None], height: int = 14,
         width: int = 400) -> np.ndarray:
    n = len(values)
    canvas = np.full((max(1, n) * height + 2, width + 2, 3), 255, dtype=np.uint8)
    for k, v in enumerate(values):
        y = k * height + 1
        canvas[y + 2:y + height - 2, 1:1 + int(round(v * width))] = (70, 130, 180)
        lo, hi = lows[k], highs[k]
        if lo is not None and hi is not None:
            canvas[y + height // 2, 1 + int(round(lo * width)):2 + int(round(hi * width))] = (0, 0, 0)
    canvas[:, 0] = (0, 0, 0)
    return canvas


def _table(headers: list[str], rows: list[tuple], digits: int = 3) -> str:
    def cell(v):
        if v is None:
            return ""
        if isinstance(v, float):
            return f"{v:.{digits}g}" if abs(v) < 1e-3 and v != 0 else f"{v:.{digits}f}"
        return html.escape(str(v))

    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def write_report(wh, out, submission: str | None = None, team: str | None = None, corpus: str | None = None) -> Path:
    """Write the report for the selected submissions to directory ``out``; returns the page's path."""
    selected = Selection.of(submission, team, corpus, exclusive=True)
    subs = selected.submissions(wh)
    where, params = selected.where()
    con = wh.con
    analysed = con.execute(f"SELECT count(*) FROM metric_correlations WHERE {where}", params).fetchone()[0]
    if not analysed:
        raise WarehouseError("the selected submissions have not been analysed: run `analyze` on them first")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    selection = selected.describe()

    # Figure 2: median rho per pair over the selection
    pairs = con.execute(f"""SELECT metric_a, metric_b, median(rho), count(*),
                                   avg(CASE WHEN significant THEN 1.0 ELSE 0.0 END)
                            FROM metric_correlations WHERE {where} GROUP BY ALL ORDER BY ALL""", params).fetchall()
    index = {m: i for i, m in enumerate(METRICS)}
    n = len(METRICS)
    matrix = np.full((n, n), np.nan)
    crossed = np.zeros((n, n), dtype=bool)
    for a, b, rho, _, share in pairs:
        for i, j in ((index[a], index[b]), (index[b], index[a])):
            matrix[i, j] = rho
            crossed[i, j] = share < 0.5
    for i in range(n):
        matrix[i, i] = 1.0
    (out / "correlations.png").write_bytes(png_bytes(heatmap(matrix, crossed)))

    dea = con.execute(f"""SELECT d.relation, sum(d.edges), avg(d.accuracy), min(i.low), max(i.high), count(*)
                          FROM dea_by_relation d
                          LEFT JOIN dea_relation_intervals i USING (team, run, corpus, relation)
                          WHERE {selected.where("d.")[0]}
                          GROUP BY ALL ORDER BY 3, 1""", params).fetchall()
    single = len(subs) == 1
    (out / "dea_by_relation.png").write_bytes(png_bytes(bars(
        [r[2] for r in dea], [r[3] if single else None for r in dea], [r[4] if single else None for r in dea])))

    projectivity = con.execute(f"""SELECT team, run, corpus, metric, median_projective, median_nonprojective,
                                          n_projective, n_nonprojective, u, p FROM projectivity_tests
                                   WHERE {where} ORDER BY ALL""", params).fetchall()
    mining = []
    for view in ("dep", "pos", "pos-dep", "lemma"):
        # coverage and MSS over the selection, as suspicious_subtrees_coverage computes them over all
        mined = con.execute(f"SELECT count(*) FROM suspicious_subtree_submissions WHERE view = $view AND {where}",
                            {**params, "view": view}).fetchone()[0]
        mining += con.execute(f"""SELECT view, form, count(*) AS selected_in, $mined AS submissions,
                                         avg(score) AS mss, min(rank) AS best_rank, sum(c_f_fail), sum(c_f)
                                  FROM suspicious_subtrees WHERE view = $view AND selected AND {where}
                                  GROUP BY ALL ORDER BY selected_in DESC, mss DESC, form LIMIT 10""",
                              {**params, "view": view, "mined": mined}).fetchall()
    judged = con.execute(f"""SELECT metric, judgement, count(*), median(r), median(rho),
                                    avg(CASE WHEN significant_r THEN 1.0 ELSE 0.0 END)
                             FROM judgement_correlations WHERE {where} GROUP BY ALL ORDER BY ALL""", params).fetchall()
    pairs_where, _ = selected.where_pair()
    significance = con.execute(f"""SELECT corpus, metric, test, team_a || '/' || run_a, team_b || '/' || run_b, n,
                                          value_a, value_b, delta, p, p_holm, significant
                                   FROM paired_significance WHERE {pairs_where} ORDER BY ALL""", params).fetchall()
    entropy = con.execute(f"SELECT team, run, corpus, relations, rho, p FROM entropy_dea_correlation WHERE {where} "
                          "ORDER BY ALL", params).fetchall()
    ensemble = con.execute(f"""SELECT corpus, system, team, run, sentences, mean_bleu, dea FROM ensemble_scores
                               WHERE corpus IN (SELECT corpus FROM submissions WHERE {where}) ORDER BY ALL""",
                           params).fetchall()
    configurations = sorted({c for (c,) in con.execute(
        f"SELECT DISTINCT configuration FROM metric_correlations WHERE {where}", params).fetchall()}
        | {c for (c,) in con.execute(f"SELECT DISTINCT configuration FROM suspicious_subtrees WHERE {where}",
                                     params).fetchall()})

    labels = "".join(f"<th>{SHORT[m]}</th>" for m in METRICS)
    grid = "".join("<tr><th>" + SHORT[a] + "</th>" + "".join(
        "<td></td>" if np.isnan(matrix[i, j]) else
        f"<td class='{'ns' if crossed[i, j] else ''}'>{matrix[i, j]:.2f}</td>" for j in range(n)) + "</tr>"
        for i, a in enumerate(METRICS))
    css = ("body{font-family:sans-serif;max-width:70em;margin:2em auto;color:#222}table{border-collapse:collapse;"
           "margin:1em 0}td,th{border:1px solid #bbb;padding:2px 6px;text-align:right}th{background:#eee}"
           "td.ns{color:#999;text-decoration:line-through}img{border:1px solid #ccc}code{font-size:85%}")
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>evalhouse report: {html.escape(selection)}</title>
<style>{css}</style></head><body>
<h1>evalhouse report: {html.escape(selection)}</h1>
<p>{len(subs)} submission(s): {html.escape(', '.join(f'{t}/{r} on {c}' for t, r, c in subs))}.</p>
<h2>Correlations between metrics (Spearman, median over the selection)</h2>
<p>Cells whose pair is significant after Holm in fewer than half of the submissions are crossed out.
Abbreviations: {html.escape(', '.join(f'{SHORT[m]} = {m}' for m in METRICS))}.</p>
<img src="correlations.png" alt="Spearman heatmap" width="{n * 44 + 1}">
<table><thead><tr><th></th>{labels}</tr></thead><tbody>{grid}</tbody></table>
<h2>Accuracies and human judgements (seed 003: Pearson r beside Spearman rho, median over the selection)</h2>
{_table(['metric', 'judgement', 'submissions', 'median r', 'median rho', 'share significant (r, Holm)'], judged)
 if judged else '<p>No human judgements of the selected submissions.</p>'}
<h2>DEA by relation</h2>
<img src="dea_by_relation.png" alt="DEA by relation (bars, from lowest)">
{_table(['relation', 'edges', 'mean DEA', 'CI low', 'CI high', 'submissions'], dea)}
<h2>Relation entropy and DEA</h2>
{_table(['team', 'run', 'corpus', 'relations', 'rho', 'p'], entropy)}
<h2>Projective and non-projective sentences (Mann-Whitney U of the projective sample, two-sided p)</h2>
{_table(['team', 'run', 'corpus', 'metric', 'median projective', 'median non-projective', 'n projective',
         'n non-projective', 'U', 'p'], projectivity) if projectivity else '<p>No corpus above the non-projectivity threshold.</p>'}
<h2>Most suspicious subtrees per view</h2>
<p>Suspicious: the form occurs in a failed sentence (or, with --suspicious top-k, ranks in the top k);
coverage = suspicious in / submissions mined; MSS = mean suspicion score where suspicious.</p>
{_table(['view', 'form', 'suspicious in', 'submissions', 'MSS', 'best rank', 'failures with form', 'sentences with form'], mining)}
<h2>Significance between submissions</h2>
{_table(['corpus', 'metric', 'test', 'a', 'b', 'n', 'a value', 'b value', 'delta', 'p', 'p Holm', 'significant'], significance)
 if significance else '<p>Fewer than two submissions on a corpus.</p>'}
<h2>Ensemble</h2>
{_table(['corpus', 'system', 'team', 'run', 'sentences', 'mean BLEU', 'DEA'], ensemble)}
<h2>Configuration</h2>
<ul>{''.join(f'<li><code>{html.escape(c)}</code></li>' for c in configurations)}</ul>
<p>evalhouse {__version__}</p>
</body></html>
"""
    path = out / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
