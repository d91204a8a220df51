#!/usr/bin/env python3
"""Plots a bench/matmul_bench.py log: TFLOPS against the shape, for
cuBLAS (torch.matmul), Triton's best configuration and tile's best, one
panel per dtype, as an SVG written without any plotting library (this
machine has none); with --table, also prints the figures as a Markdown
table (TFLOPS, and the fraction of cuBLAS).

  python3 bench/matmul_plot.py LOG... --svg OUT.svg [--table]

The logs are read by bench/matmul_report.py's parser: "DTYPE MxNxK:
torch.matmul ... TFLOPS", "triton (best: ...): ... TFLOPS" and "tile CONFIG:
... TFLOPS" (baselines and persistent kernels timed beside tile under other
names are left out)."""

import argparse
import os
import sys
from xml.sax.saxutils import escape

# The logs are read as bench/matmul_report.py reads them (one parser).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from matmul_report import parse as parse_logs  # noqa: E402

SERIES = [("cublas", "cuBLAS (torch.matmul)", "#555555"),
          ("triton", "Triton, best of its configurations", "#d62728"),
          ("tile", "tile, best of the configurations timed", "#1f77b4")]


def panels_of(shapes):
    """{dtype: [(shape, {series: (tflops, config)})]} in the logs' order, from
    matmul_report.parse: tile's best of its copies by cp.async ("tile") and
    by TMA ("tile+tma"); a persistent kernel timed beside it is left out."""
    panels = {}
    for (dtype, m, n, k), values in shapes.items():
        entry = {"cublas": (values["torch"], "")}
        if "triton" in values:
            entry["triton"] = (values["triton"][0], values["triton"][2])
        tiles = [values[kind] for kind in ("tile", "tile+tma") if kind in values]
        if tiles:
            best = max(tiles, key=lambda t: t[0])
            entry["tile"] = (best[0], best[2])
        panels.setdefault(dtype, []).append((f"{m}x{n}x{k}", entry))
    return panels


def table(panels):
    rows = ["| dtype | M x N x K | cuBLAS | Triton (best) | tile (best) |",
            "| --- | --- | ---: | ---: | ---: |"]
    for dtype, shapes in panels.items():
        for shape, values in shapes:
            ref = values["cublas"][0]
            cells = []
            for name in ("triton", "tile"):
                if name in values:
                    tflops = values[name][0]
                    cells.append(f"{tflops:.1f} ({tflops / ref:.3f})")
                else:
                    cells.append("-")
            rows.append(f"| {dtype} | {shape} | {ref:.1f} | {cells[0]} | "
                        f"{cells[1]} |")
    return "\n".join(rows)


def svg(panels, title):
    width, panel_height, left, top, bottom = 760, 300, 70, 50, 90
    height = top + len(panels) * (panel_height + bottom) + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
           f'height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="24" text-anchor="middle" '
           f'font-size="15">{escape(title)}</text>']
    plot_width = width - left - 30
    for index, (dtype, shapes) in enumerate(panels.items()):
        y0 = top + index * (panel_height + bottom)
        peak = max(v[0] for _, values in shapes for v in values.values())
        scale = 100 * (int(peak / 100) + 1)

        def y(tflops):
            return y0 + panel_height * (1 - tflops / scale)

        step = plot_width / max(len(shapes), 1)

        def x(i):
            return left + step * (i + 0.5)

        for tick in range(0, scale + 1, 100):
            out.append(f'<line x1="{left}" x2="{left + plot_width}" '
                       f'y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
                       'stroke="#dddddd"/>')
            out.append(f'<text x="{left - 6}" y="{y(tick) + 4:.1f}" '
                       f'text-anchor="end">{tick}</text>')
        out.append(f'<text x="16" y="{y0 + panel_height / 2}" '
                   f'transform="rotate(-90 16 {y0 + panel_height / 2})" '
                   f'text-anchor="middle">{escape(dtype)} TFLOPS</text>')
        for i, (shape, _) in enumerate(shapes):
            out.append(f'<text x="{x(i):.1f}" y="{y0 + panel_height + 18}" '
                       f'text-anchor="middle">{escape(shape)}</text>')
        for name, label, color in SERIES:
            points = [(x(i), y(values[name][0]))
                      for i, (_, values) in enumerate(shapes)
                      if name in values]
            if not points:
                continue
            path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            out.append(f'<polyline points="{path}" fill="none" '
                       f'stroke="{color}" stroke-width="2"/>')
            for px, py in points:
                out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="4" '
                           f'fill="{color}"/>')
        for j, (name, label, color) in enumerate(SERIES):
            ly = y0 + panel_height + 40 + 16 * j
            out.append(f'<rect x="{left}" y="{ly - 9}" width="12" '
                       f'height="12" fill="{color}"/>')
            out.append(f'<text x="{left + 18}" y="{ly + 1}">'
                       f'{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--svg", required=True)
    parser.add_argument("--title", default="Matrix multiply on the H100")
    parser.add_argument("--table", action="store_true")
    args = parser.parse_args()
    panels = panels_of(parse_logs(args.logs))
    if not panels:
        sys.exit(f"matmul_plot: no 'DTYPE MxNxK: torch.matmul' lines in "
                 f"{', '.join(args.logs)}")
    with open(args.svg, "w") as f:
        f.write(svg(panels, args.title))
    if args.table:
        print(table(panels))


if __name__ == "__main__":
    main()
