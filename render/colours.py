"""Player colours every picture shares (tokens, owner bands, chart lines), chosen to stay apart
for colour-blind readers, and the arithmetic that checks it.

The eight colours are the Okabe–Ito set (designed for colour-vision deficiency), ordered so that
the first four (the usual table) are the farthest apart. ``simulate`` shows a colour as a person
with protanopia, deuteranopia or tritanopia sees it (Machado, Oliveira & Fernandes 2009, severity
1, applied in linear RGB); ``delta_e`` is the CIE76 distance in CIELAB. tests/render/test_render_colours.py
checks that every pair stays apart under each simulation. Colour is never the only cue: tokens and
owner bands also carry the player's mark (``render.common.initials``, distinct for every player).

No dark variant: every picture is opaque on its own light paper and reads on Discord's dark theme
like a board on a table; on a dark board the near-black seat would vanish (README, Pictures).
"""

from __future__ import annotations

from itertools import combinations

RGB = tuple[int, int, int]

PLAYER_COLOURS: list[RGB] = [
    (213, 94, 0),     # vermillion
    (86, 180, 233),   # sky blue
    (240, 228, 66),   # yellow
    (40, 40, 40),     # near black
    (0, 114, 178),    # blue
    (204, 121, 167),  # reddish purple
    (0, 158, 115),    # bluish green
    (230, 159, 0),    # orange
]

# Machado et al. (2009), full severity, rows give linear R', G', B' from linear R, G, B.
_MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
DEFICIENCIES = tuple(_MACHADO)


def player_colour(seat: int) -> RGB:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(v: float) -> float:
    v = min(1.0, max(0.0, v))
    return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)


def simulate(rgb: RGB, deficiency: str) -> tuple[float, float, float]:
    """``rgb`` as seen with ``deficiency`` (one of ``DEFICIENCIES``)."""
    lin = [_linear(c) for c in rgb]
    return tuple(_gamma(sum(m * x for m, x in zip(row, lin, strict=True))) for row in _MACHADO[deficiency])  # type: ignore[return-value]


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """sRGB (D65) to CIELAB."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """CIE76 colour difference (about 2.3 is just noticeable; 10+ is plainly different)."""
    return sum((p - q) ** 2 for p, q in zip(lab(a), lab(b), strict=True)) ** 0.5


def closest_pair(colours: list[RGB], deficiency: str | None = None) -> tuple[float, int, int]:
    """The smallest distance between two of ``colours`` (as seen with ``deficiency``) and which."""
    seen = [simulate(c, deficiency) if deficiency else c for c in colours]
    return min((delta_e(a, b), i, j) for (i, a), (j, b) in combinations(enumerate(seen), 2))
