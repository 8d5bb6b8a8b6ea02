"""The HTML as a browser draws it: headless Chromium screenshots of a 150-sentence, 24-segment document.

Runs where a Chromium (Debian's ``chromium`` package) is installed and skips elsewhere. Set
``BPSEG_SCREENSHOT_DIR`` to keep the PNGs for a look.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import numpy as np
import pytest

from bpseg_pgm.formats.colors import segment_colors
from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash

PIL = pytest.importorskip("PIL.Image")

BROWSER = next(
    (b for b in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable") if shutil.which(b)), None
)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no Chromium installed (apt-get install chromium)")

N, M = 150, 24
WORDS = "river stone market violin orbit harvest cipher lantern meadow engine glacier sonnet".split()


def _document():
    """150 sentences in paragraphs of 6; segment j's sentences come back through the whole text."""
    rng = np.random.default_rng(0)
    labels = np.array([(i // 3) % M if i < 120 else (i * 7) % M for i in range(N)])
    sentences = [f"Sentence {i + 1} is about " + " ".join(rng.choice(WORDS, size=6)) + "." for i in range(N)]
    text = "\n\n".join("  ".join(sentences[p : p + 6]) for p in range(0, N, 6))
    spans = sentence_spans(text)
    assert [squash(text[a:b]) for a, b in spans] == sentences
    beliefs = np.full((N, M), 0.2 / (M - 1))
    beliefs[np.arange(N), labels] = 0.8
    beliefs[::11] = 1.0 / M  # some sentences BP was unsure about
    segments = [np.flatnonzero(labels == j).tolist() for j in range(M)]
    return Segmentation(
        sentences, labels, segments, beliefs, params={"n_segments": 30}, model="test", text=text, spans=spans
    )


def _screenshot(html: str, tmp_path, name: str, size=(1280, 1400)):
    page = tmp_path / f"{name}.html"
    page.write_text(html, encoding="utf-8")
    png = tmp_path / f"{name}.png"
    cmd = [
        BROWSER,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--hide-scrollbars",
        "--force-device-scale-factor=1",
        f"--user-data-dir={tmp_path / 'profile'}",
        f"--window-size={size[0]},{size[1]}",
        f"--screenshot={png}",
        page.as_uri(),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert png.exists(), proc.stderr[-2000:]
    keep = os.environ.get("BPSEG_SCREENSHOT_DIR")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(png, os.path.join(keep, png.name))
    return np.asarray(PIL.open(png).convert("RGB")).astype(int)


def _rgb(color: str) -> np.ndarray:
    return np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)])


def _present(img: np.ndarray, color: str, min_pixels: int = 50) -> bool:
    return int((np.abs(img - _rgb(color)).max(axis=2) <= 2).sum()) >= min_pixels


def _rows_with(img: np.ndarray, color: str) -> np.ndarray:
    return np.flatnonzero((np.abs(img - _rgb(color)).max(axis=2) <= 2).sum(axis=1) > 0)


@pytest.fixture(scope="module")
def seg():
    return _document()


def test_page_shows_every_segment_colour_strip_first(seg, tmp_path):
    img = _screenshot(seg.to_html(title="Screenshot test"), tmp_path, "page")
    colors = segment_colors(M)
    assert all(_present(img, c) for c in colors), [c for c in colors if not _present(img, c)]
    # segment 1's colour shows first in the overview strip, above the legend and the document
    first_rows = _rows_with(img, colors[0])
    strip_top = first_rows.min()
    assert strip_top < 260
    # segment 13 (0-based 12) only appears from sentence 37 on, but the strip shows it near the top too
    assert _rows_with(img, colors[12]).min() < strip_top + 60


def test_hovering_a_segment_fades_the_others(seg, tmp_path):
    colors = segment_colors(M)
    html = seg.to_html()
    # what hovering segment 3's legend entry does, fixed for the screenshot: the same rule, on a class
    html = html.replace('.hl[data-seg="2"]:hover', '.hl[data-seg="2"].forced')
    html = html.replace('<li class="hl" data-seg="2"', '<li class="hl forced" data-seg="2"')
    img = _screenshot(html, tmp_path, "hover")
    assert _present(img, colors[2])
    faded = [c for j, c in enumerate(colors) if j != 2 and _present(img, c)]
    assert faded == []  # every other segment is drawn at low opacity, so its colour is gone


def test_jupyter_fragment_keeps_its_look_on_a_dark_page(seg, tmp_path):
    colors = segment_colors(M)
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><style>body { background: #111; color: #eee; }"
        " p, li, span { color: #ff0000; } .s, span { background: #ff0000; }</style></head><body>"
        + seg._repr_html_()
        + seg._repr_html_()
        + "</body></html>"
    )
    img = _screenshot(page, tmp_path, "fragment", size=(1100, 2000))
    assert all(_present(img, c) for c in colors[:M])
    # the document scrolls inside its box: two fragments fit in 2000 px, both with their strips
    assert len(np.unique(_rows_with(img, colors[0]) // 400)) >= 2
    assert not _present(img, "#ff0000", 1)  # the notebook's own rules (red text, red spans) do not reach inside


def test_the_strip_hatches_a_topic_where_it_comes_back(tmp_path):
    """Topics A B A B in blocks of 10: the strip shows topic A's colour plain in its first segment and
    hatched (its colour on fewer pixels, dark lines between) where it comes back."""
    n = 40
    labels = np.array([(i // 10) % 2 for i in range(n)])
    sentences = [f"Sentence {i + 1} is about {'rivers' if labels[i] == 0 else 'violins'}." for i in range(n)]
    beliefs = np.eye(2)[labels]
    seg = Segmentation(sentences, labels, [np.flatnonzero(labels == j).tolist() for j in range(2)], beliefs)
    assert seg.returning_segments == [0, 1]
    img = _screenshot(seg.to_html(), tmp_path, "returns", size=(1280, 900))
    colour = segment_colors(2)[0]
    y = int(_rows_with(img, colour).min()) + 4  # a pixel row through the strip
    hit = np.flatnonzero(np.abs(img[y] - _rgb(colour)).max(axis=1) <= 2)
    left, right = hit.min(), hit.max()  # topic A spans the first and the third quarter of the strip
    quarter = (right - left) / 3  # cells 1-10 and 21-30: the third quarter starts 2/3 of the way to the end
    first = int(((hit >= left) & (hit < left + quarter)).sum())
    back = int(((hit >= left + 2 * quarter) & (hit <= right)).sum())
    assert first > 1.5 * back > 0, (first, back)
