"""Segmentation.to_html / _repr_html_ (render_html): paragraphs, the overview strip, collapsed lists, scoped CSS."""

import re
from html.parser import HTMLParser

import numpy as np
import pytest

from bpseg_pgm.formats import get_format
from bpseg_pgm.formats.colors import segment_colors
from bpseg_pgm.formats.html import OPEN_UP_TO, render_html
from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash

TEXT = "First one.  Second\none.\n\n\tThird <b>one</b> & more.\r\n\r\nFourth one. Fifth one.\nSixth one."


def _seg(text=TEXT, labels=(0, 1, 0, 2, 1, 1), lines=False):
    spans = sentence_spans(text, lines=lines)
    labels = np.asarray(labels)
    m = labels.max() + 1
    beliefs = np.full((len(labels), m), 0.1)
    beliefs[np.arange(len(labels)), labels] = 0.8
    segments = [np.flatnonzero(labels == j).tolist() for j in range(m)]
    return Segmentation(
        [squash(text[a:b]) for a, b in spans],
        labels,
        segments,
        beliefs,
        text=text,
        spans=spans,
        lines=lines,
        params={"n_segments": int(m)},
    )


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.tags = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in {"meta", "br"}:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


def _parse(html):
    p = _Tags()
    p.feed(html)
    assert p.errors == [] and p.stack == []
    return p.tags


def test_paragraph_breaks_are_kept_and_text_escaped():
    html = _seg().to_html()
    doc = re.search(r'<div class="doc">(.*?)</div>', html, re.S).group(1)
    paragraphs = re.findall(r"<p>(.*?)</p>", doc, re.S)
    assert len(paragraphs) == 3
    assert [len(re.findall(r'class="s hl', p)) for p in paragraphs] == [2, 1, 3]
    assert "Third &lt;b&gt;one&lt;/b&gt; &amp; more." in doc and "<b>one" not in html
    assert "<br>" not in doc  # prose: a single newline is a space


def test_lines_mode_keeps_line_breaks():
    text = "line one\nline two\n\nline three"
    html = _seg(text, (0, 1, 0), lines=True).to_html()
    doc = re.search(r'<div class="doc">(.*?)</div>', html, re.S).group(1)
    assert len(re.findall(r"<p>", doc)) == 2 and doc.count("<br>") == 1


def test_overview_strip_has_one_cell_per_sentence_linking_to_it():
    seg = _seg()
    tags = _parse(seg.to_html())
    cells = [a for t, a in tags if t == "a" and "cell" in a.get("class", "")]
    assert [int(a["data-seg"]) for a in cells] == seg.labels.tolist()
    ids = {a["id"] for t, a in tags if t == "span" and "id" in a}
    assert [a["href"][1:] for a in cells] == [f"bpseg-s{i}" for i in range(1, 7)] and ids >= {
        f"bpseg-s{i}" for i in range(1, 7)
    }
    colours = segment_colors(3)
    # segments 1 and 2 return (labels 0 1 0 2 1 1): their second runs (3 and 5) are hatched
    hatch = "repeating-linear-gradient(135deg,rgba(0,0,0,.32) 0 2px,transparent 2px 5px),"
    assert [a["style"] for a in cells] == [
        f"background:{hatch if i in (2, 4, 5) else ''}{colours[j]}" for i, j in enumerate(seg.labels)
    ]
    assert [a["title"] for a in cells][:3] == [
        "Sentence 1 · Segment 1 · Run 1",
        "Sentence 2 · Segment 2 · Run 2",
        "Sentence 3 · Segment 1 · Run 3 (returns)",
    ]
    assert [a["class"] for a in cells] == ["cell hl"] + ["cell hl start"] * 4 + ["cell hl"]  # 5 segments
    contiguous = _seg(labels=(0, 0, 1, 1, 2, 2))  # no topic returns: segments alone, as before the two levels
    cells = [a for t, a in _parse(contiguous.to_html()) if t == "a" and "cell" in a.get("class", "")]
    assert [a["style"] for a in cells] == [f"background:{colours[j]}" for j in contiguous.labels]
    assert [a["title"] for a in cells][1:3] == ["Sentence 2 · Segment 1", "Sentence 3 · Segment 2"]
    assert {a["class"] for a in cells} == {"cell hl"}


def test_hover_rules_one_per_segment_scoped_to_the_root():
    html = _seg().to_html()
    rules = re.findall(r'#bpseg:has\(\.hl\[data-seg="(\d+)"\]:hover\) \.hl:not\(\[data-seg="\1"\]\)', html)
    assert rules == ["0", "1", "2"]
    css = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    selectors = [s.strip() for rule in re.findall(r"([^{}]+)\{", css) for s in rule.split(",")]
    assert all(s.startswith("#bpseg") for s in selectors if s not in ("body",)), selectors


def test_fragment_for_jupyter_is_scoped_and_unique():
    seg = _seg()
    a, b = seg._repr_html_(), seg._repr_html_()
    assert not a.lstrip().startswith("<!DOCTYPE") and "<html" not in a and "<body" not in a
    (ra,), (rb,) = re.findall(r'<div class="bpseg fragment" id="([\w-]+)"', a), re.findall(r'id="(bpseg-[\w]+)"', b)[:1]
    assert ra != rb  # two outputs in one notebook do not share ids or styles
    css = re.search(r"<style>(.*?)</style>", a, re.S).group(1)
    assert all(s.strip().startswith(f"#{ra}") for rule in re.findall(r"([^{}]+)\{", css) for s in rule.split(","))
    assert all(h[1:].startswith(ra) for h in re.findall(r'href="([^"]+)"', a))
    _parse(a)
    assert seg.to_html(full_page=False, root_id="mine").count('id="mine"') == 1
    with pytest.raises(ValueError, match="root_id"):
        seg.to_html(root_id="bad id")
    with pytest.raises(ValueError, match="low_belief"):
        seg.to_html(low_belief=float("nan"))
    with pytest.raises(ValueError, match="title must be a str"):
        seg.to_html(title=3)


def test_long_segment_lists_are_collapsed_with_ranges():
    n = 60
    labels = [0] * 3 + [1] * 3 + [0] * 50 + [1] * 2 + [2] * 2
    text = " ".join(f"Sentence number {i}." for i in range(n))
    seg = _seg(text, labels)
    html = seg.to_html()
    details = re.findall(
        r'<details class="seg" data-seg="(\d)"[^>]*?( open)?><summary>(.*?) · <span class="kw">'
        r"number, sentence</span></summary>",
        html,
    )
    assert [(j, bool(o)) for j, o, _ in details] == [("0", False), ("1", False), ("2", False)]  # a long document
    assert details[0][2] == "Segment 1 · runs 1 and 3 · 53 sentences: 1–3, 7–56"
    assert details[1][2] == "Segment 2 · runs 2 and 4 · 5 sentences: 4–6, 57–58"
    short = _seg().to_html()
    opened = re.findall(r'<details class="seg" data-seg="\d"[^>]*?( open)?>', short)
    assert all(opened) and OPEN_UP_TO >= 3
    scattered = _seg(" ".join(f"Sentence number {i}." for i in range(40)), [i % 2 for i in range(40)])
    summary = re.search(r"<summary>(Segment 1 .*?) · <span", scattered.to_html()).group(1)
    assert summary == (
        "Segment 1 · runs 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37 and "
        "39 · 20 sentences: 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, …"
    )


def test_fewer_segments_than_k_is_said_on_the_page():
    seg = _seg()
    seg.params["n_segments"] = 5
    assert (
        "3 segments (k = 5) in 5 runs" in seg.to_html()
        and "2 of the k labels ended up with no sentence" in seg.to_html()
    )
    contiguous = _seg(labels=(0, 0, 1, 1, 2, 2))
    contiguous.params["n_segments"] = 5
    assert "3 segments (k = 5)" in contiguous.to_html()


def test_the_html_format_is_the_same_renderer_titled_after_the_input():
    seg = _seg()
    html = get_format("html")
    assert (
        html.render(seg, source="notes.txt")
        == render_html(seg, title="BP-Seg: notes.txt")
        == seg.to_html("BP-Seg: notes.txt")
    )
    assert html.render(seg) == render_html(seg) and "<title>BP-Seg segmentation</title>" in html.render(seg)
    assert (html.suffix, html.media_type, html.options) == (".html", "text/html", ())


def test_legend_and_list_name_segments_their_runs_and_keywords_when_a_segment_returns():
    text = (
        "The app release is on Friday. Testers found bugs in the app.\n\nThe office moves in May. "
        "Boxes for the office arrive.\n\nThe app release notes need a review. The release slips."
    )
    seg = _seg(text, (0, 0, 1, 1, 0, 0))
    html = seg.to_html()
    legend = re.findall(r'<li class="hl" data-seg="(\d)"[^>]*>(.*?)</li>', html)
    assert legend == [
        ("0", 'Segment 1 · 4 · runs 1 and 3 · <span class="kw">app, release, bugs, friday, notes</span>'),
        ("1", 'Segment 2 · 2 · run 2 · <span class="kw">office, arrive, boxes, moves</span>'),
    ]
    assert "<h2>Segments</h2>" in html and "6 sentences · 2 segments (k = 2) in 3 runs" in html
    parts = re.findall(r'<p class="part">(.*?)</p>', html)
    assert parts[0].startswith('Run 1 · <span class="kw">') and parts[1].startswith('Run 3 · <span class="kw">')
    assert parts[2] == "Run 2"  # a segment of one run: its keywords are the segment's, shown once
    assert "hatched: a segment that has come back" in html
    runs = _seg(text, (0, 0, 1, 1, 2, 2)).to_html()  # nothing returns: segments only, with their keywords
    legend = re.findall(r'<li class="hl" data-seg="\d"[^>]*>(.*?)</li>', runs)
    assert legend[1] == 'Segment 2 · 2 · <span class="kw">office, arrive, boxes, moves</span>'
    assert "Run" not in runs and "<h2>Segments</h2>" in runs and 'class="part"' not in runs
    assert re.search(r"<summary>Segment 3 · 2 sentences: 5–6 · <span class=\"kw\">[a-z, ]+</span></summary>", runs)
