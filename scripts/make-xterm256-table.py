#!/usr/bin/env python3
"""Generate Tests/TerminalTests/Fixtures/xterm256-oklab.csv, the reference table for the 256-colour mapping.

For each sample sRGB colour: the xterm palette index (16..255: the 6x6x6 cube 0,95,135,175,215,255 and the
grey ramp 8,18,..,238) nearest in OKLab. A different method from the Swift code on purpose: here sRGB is
decoded with Python floats, taken to CIE XYZ (D65, the IEC 61966-2-1 matrix) and from XYZ to OKLab with
Ottosson's XYZ->LMS matrix M1 and LMS'->Lab matrix M2; the Swift code uses his pre-multiplied
linear-sRGB->LMS matrix. The two differ by ~1e-4 in Lab, so near ties may resolve either way: each row
also gives the runner-up and how much farther it is (relative), and the test accepts the runner-up when
that margin is below 1e-3.

    python3 scripts/make-xterm256-table.py      # writes the fixture (deterministic)

Columns: red, green, blue (0..255), nearest index, runner-up index, relative margin.
"""
import os

LEVELS = [0, 95, 135, 175, 215, 255]
PALETTE = {}
for i in range(16, 232):
    k = i - 16
    PALETTE[i] = (LEVELS[k // 36], LEVELS[k // 6 % 6], LEVELS[k % 6])
for i in range(232, 256):
    v = 8 + 10 * (i - 232)
    PALETTE[i] = (v, v, v)


def decode(v):
    v = v / 255.0
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def oklab(rgb):
    r, g, b = (decode(c) for c in rgb)
    x = 0.4124 * r + 0.3576 * g + 0.1805 * b
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = 0.0193 * r + 0.1192 * g + 0.9505 * b
    l = 0.8189330101 * x + 0.3618667424 * y - 0.1288597137 * z
    m = 0.0329845436 * x + 0.9293118715 * y + 0.0361456387 * z
    s = 0.0482003018 * x + 0.2643662691 * y + 0.6338517070 * z
    l, m, s = (abs(v) ** (1 / 3) * (1 if v >= 0 else -1) for v in (l, m, s))
    return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)


LAB = {i: oklab(c) for i, c in PALETTE.items()}


def nearest(rgb):
    p = oklab(rgb)
    ranked = sorted((sum((a - b) ** 2 for a, b in zip(p, LAB[i])), i) for i in LAB)
    (d0, i0), (d1, i1) = ranked[0], ranked[1]
    return i0, i1, (d1 - d0) / max(d1, 1e-12)


samples = [(r, g, b) for r in range(0, 256, 17) for g in range(0, 256, 17) for b in range(0, 256, 17)]
samples += list(PALETTE.values())
samples += [(v, v, v) for v in range(256)]
seed = 12345
for _ in range(1000):  # a small LCG: no dependency on Python's random module's algorithm
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    samples.append(((seed >> 16) & 255, (seed >> 8) & 255, seed & 255))

out = os.path.join(os.path.dirname(__file__), "..", "Tests", "TerminalTests", "Fixtures", "xterm256-oklab.csv")
with open(out, "w") as f:
    f.write("# red,green,blue,nearest,runner_up,relative_margin  (scripts/make-xterm256-table.py: XYZ route to OKLab)\n")
    for rgb in samples:
        i0, i1, margin = nearest(rgb)
        f.write("%d,%d,%d,%d,%d,%.6f\n" % (rgb + (i0, i1, margin)))
print(out, len(samples))
