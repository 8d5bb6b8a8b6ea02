"""The HTML view's granularity slider: every level the fit kept, chosen by the reader, in a real browser.

The browser tests run where a Chromium is installed (Debian's ``chromium``) and skip elsewhere; they load the
page with ``?segments=k`` (the page's script picks that level, as moving the slider does) and read the DOM the
script left.  Set ``BPSEG_SCREENSHOT_DIR`` to keep the screenshot.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from urllib.parse import unquote

import numpy as np
import pytest
from browser import needs_browser, run_browser

from bpseg_pgm.formats.colors import segment_colors
from bpseg_pgm.formats.html import _name
from bpseg_pgm.text import Segmentation, segment_text

TOPICS = [
    "The river floods the valley every spring. Farmers move their cattle to the hills.",
    "The violin needs new strings before the concert. The orchestra rehearses on Friday.",
    "Stock markets fell sharply on Monday. Investors sold their bonds and shares.",
    "The recipe needs two eggs and a cup of flour. Bake the cake for forty minutes.",
    "The rocket reached orbit after nine minutes. The crew checked the station's air.",
]
DOC = "\n\n".join(f"## Part {i + 1}\n\n{TOPICS[i % 5]} <b>Note {i}</b>." for i in range(8))


@pytest.fixture(scope="module")
def seg(embedder):
    return segment_text(DOC, structure="runs", embedder=embedder)


def _raw_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" class="levels">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def _data(html: str) -> dict:
    """The page's levels, each name and heading title looked up in the page's table of strings."""
    data = _raw_data(html)
    strings = data["strings"]
    for level in data["levels"].values():
        level["names"] = [strings[i] for i in level["names"]]
        level["heading_paths"] = [[strings[i] for i in path] for path in level["heading_paths"]]
    return data


def test_the_page_carries_every_level_the_fit_kept(seg):
    html = seg.to_html()
    data = _data(html)
    assert sorted(map(int, data["levels"])) == list(range(1, seg.max_segments + 1))
    for k in range(1, seg.max_segments + 1):
        cut = seg.recut(k)
        assert seg.level_labels(k).tolist() == cut.labels.tolist()
        if k == seg.n_segments:
            continue
        assert data["levels"][str(k)]["labels"] == cut.labels.tolist()
        assert data["levels"][str(k)]["heading_paths"] == cut.segment_heading_paths
        names = [_name(h, w, markdown=True) for h, w in zip(cut.segment_headings, cut.segment_keywords())]
        assert data["levels"][str(k)]["names"] == names
    assert data["levels"][str(seg.n_segments)]["labels"] == seg.labels.tolist()
    assert "<b>Note" not in html  # the data and the names are escaped like the rest
    assert 'type="range"' in html and "Download this level (JSON)" in html


def test_level_labels_refuses_what_recut_refuses(seg):
    for bad in (0, seg.max_segments + 1, 2.0, True):
        with pytest.raises(ValueError, match="n_segments"):
            seg.level_labels(bad)


def test_a_segment_of_a_level_without_headings_is_named_by_its_keywords(embedder):
    text = " ".join(TOPICS)
    plain = segment_text(text, structure="runs", embedder=embedder)
    data = _data(plain.to_html())
    k = 2 if plain.n_segments != 2 else 3
    cut = plain.recut(k)
    assert data["levels"][str(k)]["names"] == [_name(None, w, markdown=False) for w in cut.segment_keywords()]
    assert all('class="kw"' in n for n in data["levels"][str(k)]["names"] if n)


def test_no_slider_without_levels(seg):
    back = Segmentation.from_json(seg.to_json())  # keeps no runs fit
    assert back.max_segments is None and "<script" not in back.to_html() and 'type="range"' not in back.to_html()


@needs_browser
def test_choosing_a_level_recolours_the_page_and_exports_it(seg, tmp_path):
    page = tmp_path / "levels.html"
    page.write_text(seg.to_html(), encoding="utf-8")
    k = 3 if seg.n_segments != 3 else 2
    want = seg.recut(k)
    dom = run_browser(["--dump-dom", page.as_uri() + f"?segments={k}"], tmp_path).stdout
    assert f'data-level="{k}"' in dom
    colors = segment_colors(max(seg.n_segments, seg.max_segments))
    units = re.findall(r'class="s hl[^"]*" id="bpseg-s(\d+)" data-seg="(\d+)" style="background: ?([^;"]+)', dom)
    assert [int(j) for _, j, _ in units] == want.labels.tolist()
    assert all(_hex(c) == colors[int(j)] for _, j, c in units)
    legend = dom[dom.index('<ul class="legend">') : dom.index("</ul>", dom.index('<ul class="legend">'))]
    assert legend.count("<li") == k
    heads = re.findall(r'<span class="head">([^<]*)</span>', legend)
    assert heads == [h for h in want.segment_headings]  # each segment cut at a heading, named by it
    href = re.search(
        r'class="export" download="segments-(\d+)\.json" href="data:application/json;charset=utf-8,([^"]*)"', dom
    )
    assert href and int(href.group(1)) == k
    exported = json.loads(unquote(href.group(2)))
    assert exported["n_segments"] == k and exported["labels"] == want.labels.tolist()
    assert exported["segments"] == want.segments and exported["segment_heading_paths"] == want.segment_heading_paths


@needs_browser
def test_screenshot_of_a_chosen_level(seg, tmp_path):
    PIL = pytest.importorskip("PIL.Image")
    page = tmp_path / "levels.html"
    page.write_text(seg.to_html(), encoding="utf-8")
    png = tmp_path / "levels.png"
    run_browser(["--window-size=1280,1400", f"--screenshot={png}", page.as_uri() + "?segments=2"], tmp_path)
    assert png.exists()
    keep = os.environ.get("BPSEG_SCREENSHOT_DIR")
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(png, os.path.join(keep, png.name))
    img = np.asarray(PIL.open(png).convert("RGB")).astype(int)
    colors = segment_colors(max(seg.n_segments, seg.max_segments))

    def present(c):
        rgb = np.array([int(c[i : i + 2], 16) for i in (1, 3, 5)])
        return int((np.abs(img - rgb).max(axis=2) <= 2).sum()) >= 50

    assert present(colors[0]) and present(colors[1])
    assert not any(present(c) for c in colors[2 : seg.n_segments])  # the fit's other colours are gone


def _hex(css: str) -> str:
    css = css.strip()
    if css.startswith("#"):
        return css
    r, g, b = (int(x) for x in re.findall(r"\d+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"
