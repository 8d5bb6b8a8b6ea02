"""The segment palette: CIEDE2000 against published values, distinct and readable colours for 24+ segments."""

import re

import numpy as np
import pytest

from bpseg_pgm.formats.colors import ciede2000, contrast_with_black, hex_to_lab, segment_colors


@pytest.mark.parametrize(
    "lab1, lab2, expected",  # Sharma, Wu and Dalal (2005), Table 1
    [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
    ],
)
def test_ciede2000_reference_values(lab1, lab2, expected):
    assert float(ciede2000(np.array(lab1), np.array(lab2))) == pytest.approx(expected, abs=1e-4)


def test_palette_stays_distinct_for_24_segments_and_readable():
    colours = segment_colors(24)
    labs = np.array([hex_to_lab(c) for c in colours])
    d = ciede2000(labs[:, None, :], labs[None, :, :])
    d[np.eye(24, dtype=bool)] = np.inf
    assert d.min() >= 11  # ColorBrewer Set3 + golden-angle hues (the old palette) gave 4.6 here
    assert min(float(ciede2000(lab, np.array([100.0, 0, 0]))) for lab in labs) >= 11  # not white on white
    assert min(contrast_with_black(c) for c in segment_colors(60)) >= 7  # WCAG AAA for the black text on them
    assert segment_colors(5) == colours[:5] and segment_colors(0) == []
    assert len(set(segment_colors(200))) == 200


@pytest.mark.parametrize("m", [1, 5, 12, 13, 40])
def test_colours_are_distinct_hex(m):
    colours = segment_colors(m)
    assert len(colours) == len(set(colours)) == m
    assert all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)
