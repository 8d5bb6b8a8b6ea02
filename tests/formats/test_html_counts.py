"""The granularity slider marks the counts the fit rates best (``seg.suggested_counts()``): tick marks from a
``<datalist>`` at their positions among the levels, and a line naming them; nothing of it for a given k."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bpseg_pgm.formats.html import SUGGESTED_COUNTS
from bpseg_pgm.text import Segmentation, segment_text

NOTES = (Path(__file__).resolve().parents[2] / "examples" / "notes.txt").read_text("utf-8")
_ADDED = re.compile(r' list="[^"]*"|<datalist .*?</datalist>|<span class="counts".*?</span>')


@pytest.fixture(scope="module")
def seg(embedder):
    return segment_text(NOTES, structure="runs", embedder=embedder)


def _slider_input(html: str) -> str:
    return re.search(r'<input type="range"[^>]*>', html).group(0)


def _levels(html: str) -> list[int]:
    """The counts the page's slider offers, in the order of its positions."""
    data = re.search(r'<script type="application/json" class="levels">(.*?)</script>', html, re.S).group(1)
    return sorted(map(int, json.loads(data)["levels"]))


@pytest.mark.parametrize("full_page", [True, False])
def test_the_slider_has_tick_marks_at_the_suggested_counts(seg, full_page):
    html = seg.to_html(full_page=full_page)
    counts = seg.suggested_counts()[:SUGGESTED_COUNTS]
    assert len(counts) >= 2 and counts[0] == seg.n_segments
    ks = _levels(html)
    assert ks == list(range(1, seg.max_segments + 1))
    slider = _slider_input(html)
    listed = re.search(r' list="([^"]+)"', slider).group(1)
    found = re.search(rf'<datalist id="{listed}">(.*?)</datalist>', html)
    assert found, "the slider's list names the datalist"
    options = re.findall(r'<option value="(\d+)" label="(\d+)"></option>', found.group(1))
    assert options == [(str(ks.index(k)), str(k)) for k in counts]  # values: positions, as the slider's value
    assert re.search(r'value="(\d+)"', slider).group(1) == str(ks.index(seg.n_segments))
    named = ", ".join([f"{counts[0]} (the fit's)", *map(str, counts[1:])])
    assert f"Counts the fit rates best: {named}</span>" in html
    assert html.count("<datalist") == 1 and "script.levels" in html  # the slider's script is still there


def test_the_marks_are_all_that_changes(seg, monkeypatch):
    marked = seg.to_html()
    monkeypatch.setattr(type(seg), "suggested_counts", lambda self, n=3: [])
    plain = seg.to_html()
    assert "<datalist" not in plain and "Counts the fit rates best" not in plain
    assert _ADDED.sub("", marked) == plain


def test_a_page_for_a_given_k_has_no_marks(embedder):
    given = segment_text(NOTES, 3, structure="runs", embedder=embedder)
    html = given.to_html()
    assert 'type="range"' in html  # it has its levels, and so its slider
    assert "<datalist" not in html and "Counts the fit rates best" not in html and " list=" not in html


def test_a_page_without_levels_has_no_marks(seg):
    html = Segmentation.from_json(seg.to_json()).to_html()
    assert 'type="range"' not in html and "<datalist" not in html and "Counts the fit rates best" not in html
