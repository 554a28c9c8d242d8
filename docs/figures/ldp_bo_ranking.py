"""Draw docs/figures/ldp-bo-ranking.svg: held-out mean final regret R_T (T = 1000, summed over
the synthetic panels 2(a), 2(d), 3(a), base seed 1) against the width scale c, for TGP, ATA and
MoMA at several epoch lengths k. The numbers are the selection table of docs/ldp-bo.md
("Presets"), printed by `cargo run --release -p ldp-bo --example explore_scales`; this script
only draws them (plain SVG, no plotting library). Run: python3 docs/figures/ldp_bo_ranking.py
"""
import math
import pathlib

# width scale c -> summed mean R_T (from the table in docs/ldp-bo.md, "Presets").
SERIES = [
    ("TGP", "#1f77b4", {1: 1558, 0.1: 1216, 0.03: 752, 0.01: 687, 0.003: 647, 0.001: 865}),
    ("ATA", "#2ca02c", {1: 1579, 0.1: 1315, 0.03: 1034, 0.01: 684, 0.003: 463, 0.001: 542}),
    ("MoMA k = 4", "#d62728", {0.01: 822, 0.003: 900, 0.001: 804}),
    ("MoMA k = 12", "#ff7f0e", {1: 1720, 0.1: 1490, 0.01: 1105, 0.003: 1001, 0.001: 951}),
    ("MoMA k = 70", "#9467bd", {1: 1731, 0.1: 1562, 0.01: 1276, 0.003: 1308, 0.001: 1259}),
    ("MoMA k = 279 (Theorem 4)", "#8c564b", {1: 1773, 0.1: 1704, 0.01: 1517, 0.003: 1462, 0.001: 1478}),
]
W, H, L, R, T, B = 860, 460, 70, 240, 40, 50
X0, X1 = -3.2, 0.2  # log10 c
Y0, Y1 = 0.0, 1800.0


def x(c):
    return L + (math.log10(c) - X0) / (X1 - X0) * (W - L - R)


def y(v):
    return H - B - (v - Y0) / (Y1 - Y0) * (H - T - B)


out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
       f'<rect width="{W}" height="{H}" fill="white"/>',
       f'<text x="{(W - R + L) / 2}" y="22" text-anchor="middle" font-size="14">Held-out synthetic panels: summed mean R_T at T = 1000 against the width scale</text>']
# axes, ticks, grid
out.append(f'<line x1="{L}" y1="{H - B}" x2="{W - R}" y2="{H - B}" stroke="black"/>')
out.append(f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H - B}" stroke="black"/>')
for c in [0.001, 0.003, 0.01, 0.03, 0.1, 1]:
    out.append(f'<line x1="{x(c):.1f}" y1="{H - B}" x2="{x(c):.1f}" y2="{H - B + 5}" stroke="black"/>')
    out.append(f'<text x="{x(c):.1f}" y="{H - B + 18}" text-anchor="middle">{c:g}</text>')
for v in range(0, 1801, 300):
    out.append(f'<line x1="{L}" y1="{y(v):.1f}" x2="{W - R}" y2="{y(v):.1f}" stroke="#ddd"/>')
    out.append(f'<text x="{L - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
out.append(f'<text x="{(W - R + L) / 2}" y="{H - 12}" text-anchor="middle">width scale c (1 = the theorem; log scale)</text>')
out.append(f'<text transform="translate(18,{(H - B + T) / 2}) rotate(-90)" text-anchor="middle">sum of mean R_T over 2(a), 2(d), 3(a)</text>')
for i, (name, colour, pts) in enumerate(SERIES):
    cs = sorted(pts)
    path = " ".join(f"{x(c):.1f},{y(pts[c]):.1f}" for c in cs)
    out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for c in cs:
        out.append(f'<circle cx="{x(c):.1f}" cy="{y(pts[c]):.1f}" r="3" fill="{colour}"/>')
    ly = T + 20 + 20 * i
    out.append(f'<line x1="{W - R + 12}" y1="{ly}" x2="{W - R + 32}" y2="{ly}" stroke="{colour}" stroke-width="2"/>')
    out.append(f'<text x="{W - R + 38}" y="{ly + 4}">{name}</text>')
out.append("</svg>")
pathlib.Path(__file__).with_name("ldp-bo-ranking.svg").write_text("\n".join(out) + "\n")
