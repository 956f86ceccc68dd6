"""Colour arithmetic for palette tests: relative luminance and contrast (WCAG), OKLab distance,
and how a colour looks to people with protanopia, deuteranopia or tritanopia (Machado, Oliveira
and Fernandes 2009, severity 1, applied in linear RGB)."""

from __future__ import annotations

import math

SIMULATIONS = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def linear_rgb(colour: str) -> tuple[float, float, float]:
    """'#rrggbb' as linear-light RGB in [0, 1]."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)


def luminance(colour: str) -> float:
    r, g, b = linear_rgb(colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def oklab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = rgb
    l = (0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b) ** (1 / 3)
    m = (0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b) ** (1 / 3)
    s = (0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b) ** (1 / 3)
    return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)


def seen(colour: str, vision: str | None = None) -> tuple[float, float, float]:
    """The colour in OKLab as normal vision (None) or a simulated deficiency sees it."""
    rgb = linear_rgb(colour)
    if vision:
        rgb = tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in SIMULATIONS[vision])
    return oklab(rgb)


def distance(one: str, other: str, vision: str | None = None) -> float:
    """How far apart two colours look, in OKLab units times 100 (about 2 is just noticeable)."""
    return 100 * math.dist(seen(one, vision), seen(other, vision))
