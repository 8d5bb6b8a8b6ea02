"""Background colours for segments that stay distinguishable for 20 and more segments.

Fixed qualitative palettes run out early (ColorBrewer Set3 after 12 colours, and golden-angle
hues at one lightness soon give near-twins), so the colours are chosen in CIELAB: from light
colours behind which black text keeps a WCAG contrast of at least 7:1 (AAA), of moderate
chroma, each next colour is the candidate farthest (CIEDE2000) from those already chosen and
from the white page.  The first 24 are at least 11 ΔE00 apart (side by side, 2-3 is just
noticeable); the sequence is deterministic, so a segment's colour only depends on its number.
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["segment_colors", "ciede2000", "hex_to_lab", "contrast_with_black"]

_WHITE_XYZ = np.array([0.95047, 1.0, 1.08883])  # D65
_RGB_TO_XYZ = np.array(
    [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
)
_LIGHTNESS = (72.0, 78.0, 84.0, 90.0)
_STEP = 3.0
_MAX_CHROMA = 55.0
_MIN_CONTRAST = 7.0
_FIRST = (84.0, -25.0, -5.0)  # a light teal, close to Set3's first colour


def _to_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _from_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.0031308, 12.92 * c, 1.055 * np.power(np.clip(c, 0, None), 1 / 2.4) - 0.055)


def _lab_to_linear_rgb(lab: np.ndarray) -> np.ndarray:
    fy = (lab[..., 0] + 16) / 116
    f = np.stack([fy + lab[..., 1] / 500, fy, fy - lab[..., 2] / 200], axis=-1)
    xyz = np.where(f**3 > 216 / 24389, f**3, (116 * f - 16) / (24389 / 27)) * _WHITE_XYZ
    return xyz @ np.linalg.inv(_RGB_TO_XYZ).T


def hex_to_lab(color: str) -> np.ndarray:
    """CIELAB (D65) of a ``#rrggbb`` colour."""
    rgb = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)]) / 255.0
    xyz = (_RGB_TO_XYZ @ _to_linear(rgb)) / _WHITE_XYZ
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def contrast_with_black(color: str) -> float:
    """WCAG contrast ratio of black text on a ``#rrggbb`` background."""
    rgb = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)]) / 255.0
    luminance = float(_to_linear(rgb) @ np.array([0.2126, 0.7152, 0.0722]))
    return (luminance + 0.05) / 0.05


def ciede2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 colour difference (Sharma, Wu and Dalal 2005), broadcast over leading axes."""
    lab1, lab2 = np.asarray(lab1, dtype=float), np.asarray(lab2, dtype=float)
    L1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    L2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25.0**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p, h2p = np.degrees(np.arctan2(b1, a1p)) % 360, np.degrees(np.arctan2(b2, a2p)) % 360
    both = c1p * c2p != 0
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(both, dh, 0.0)
    d_l, d_c = L2 - L1, c2p - c1p
    d_h = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_mean, cp_mean = (L1 + L2) / 2, (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_mean = np.where(
        ~both,
        h_sum,
        np.where(np.abs(h1p - h2p) <= 180, h_sum / 2, np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2)),
    )
    t = (
        1
        - 0.17 * np.cos(np.radians(h_mean - 30))
        + 0.24 * np.cos(np.radians(2 * h_mean))
        + 0.32 * np.cos(np.radians(3 * h_mean + 6))
        - 0.20 * np.cos(np.radians(4 * h_mean - 63))
    )
    rotation = 30 * np.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * np.sqrt(cp_mean**7 / (cp_mean**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / np.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_mean, 1 + 0.015 * cp_mean * t
    r_t = -np.sin(np.radians(2 * rotation)) * r_c
    return np.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


@functools.cache
def _candidates() -> tuple[np.ndarray, np.ndarray]:
    """Light, moderately saturated sRGB colours (Lab and linear RGB) behind which black text reads well."""
    grid = np.arange(-_MAX_CHROMA, _MAX_CHROMA + _STEP / 2, _STEP)
    a, b = np.meshgrid(grid, grid, indexing="ij")
    lab = np.concatenate([np.stack([np.full(a.size, L), a.ravel(), b.ravel()], axis=1) for L in _LIGHTNESS])
    lab = lab[np.hypot(lab[:, 1], lab[:, 2]) <= _MAX_CHROMA]
    rgb = _lab_to_linear_rgb(lab)
    inside = np.all((rgb >= 0) & (rgb <= 1), axis=1)
    luminance = rgb @ np.array([0.2126, 0.7152, 0.0722])
    keep = inside & ((luminance + 0.05) / 0.05 >= _MIN_CONTRAST)
    return lab[keep], rgb[keep]


@functools.cache
def _sequence(m: int) -> tuple[str, ...]:
    lab, rgb = _candidates()
    first = int(np.argmin(np.sum((lab - np.array(_FIRST)) ** 2, axis=1)))
    chosen = [first]
    far = np.minimum(ciede2000(lab, lab[first]), ciede2000(lab, np.array([100.0, 0.0, 0.0])))
    far[first] = -1.0
    while len(chosen) < min(m, len(lab)):
        i = int(np.argmax(far))
        chosen.append(i)
        far = np.minimum(far, ciede2000(lab, lab[i]))
        far[i] = -1.0
    srgb = np.clip(np.round(_from_linear(rgb[chosen]) * 255), 0, 255).astype(int)
    return tuple("#{:02x}{:02x}{:02x}".format(*c) for c in srgb)


def segment_colors(m: int) -> list[str]:
    """``m`` background colours (``#rrggbb``), as distinct from each other as the first ones allow.

    Past the ~2,500 candidate colours (far more segments than anyone can tell apart) they repeat.
    """
    if m <= 0:
        return []
    base = _sequence(max(m, 24))
    return [base[j % len(base)] for j in range(m)]
