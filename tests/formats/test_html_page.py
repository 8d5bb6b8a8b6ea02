"""The HTML page: escaped, self-contained, well-formed, document order, one colour per segment."""

import re
from html.parser import HTMLParser

import numpy as np
import pytest

from bpseg_pgm.formats.html import render_html
from bpseg_pgm.text import Segmentation

_VOID = {"meta", "br", "img", "hr", "input", "link"}


class _Checker(HTMLParser):
    """Collects a stack-balance check, attributes, and the text of each sentence span."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.spans, self.legend, self.attrs = [], [], [], [], []
        self._in_span = self._in_legend = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.attrs.append((tag, a))
        if tag not in _VOID:
            self.stack.append(tag)
        if tag == "span" and "s" in a.get("class", "").split():
            self._in_span = {
                "seg": a["data-seg"],
                "style": a["style"],
                "title": a["title"],
                "cls": a["class"],
                "text": "",
            }
        if tag == "li" and "data-seg" in a and self.stack[-2:-1] == ["ul"]:
            self._in_legend = {"seg": a["data-seg"], "style": a["style"]}

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)
        if tag == "span" and self._in_span is not None:
            self.spans.append(self._in_span)
            self._in_span = None
        if tag == "li" and self._in_legend is not None:
            self.legend.append(self._in_legend)
            self._in_legend = None

    def handle_data(self, data):
        if self._in_span is not None and self.stack[-1] == "span":
            self._in_span["text"] += data


def _segmentation():
    sentences = [
        "<script>alert(\"x\")</script> & 'quotes'",
        "Second one.",
        "Third, back to the first topic.",
        "Fourth is alone.",
        "Ünïcode fïfth.",
    ]
    labels = np.array([0, 1, 0, 2, 1])
    beliefs = np.array([[0.9, 0.05, 0.05], [0.2, 0.7, 0.1], [0.4, 0.3, 0.3], [0.1, 0.1, 0.8], [0.3, 0.6, 0.1]])
    return Segmentation(
        sentences,
        labels,
        [[0, 2], [1, 4], [3]],
        beliefs,
        params={"n_segments": 3, "engine": "potts", "lam": 0.12, "init": "farthest"},
        model="m<odel>",
    )


@pytest.fixture
def page():
    return render_html(_segmentation(), title="Title <b>&</b>")


def test_page_is_well_formed_and_escaped(page):
    checker = _Checker()
    checker.feed(page)
    assert checker.errors == [] and checker.stack == []
    assert "<script>alert" not in page and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;" in page
    assert "Title &lt;b&gt;&amp;&lt;/b&gt;" in page and "m&lt;odel&gt;" in page
    assert "<script" not in page  # CSS only


def test_page_is_self_contained(page):
    assert not re.search(r"https?://", page)
    checker = _Checker()
    checker.feed(page)
    assert not [a for _, a in checker.attrs if "src" in a]
    links = [a["href"] for _, a in checker.attrs if "href" in a]
    assert links == [f"#bpseg-s{i}" for i in range(1, 6)]  # the overview's cells, to the page's own sentences


def test_document_order_colours_legend_and_tooltips(page):
    seg = _segmentation()
    checker = _Checker()
    checker.feed(page)
    assert [s["text"] for s in checker.spans] == seg.sentences
    assert [int(s["seg"]) for s in checker.spans] == seg.labels.tolist()
    legend_colour = {li["seg"]: li["style"] for li in checker.legend}
    assert len(legend_colour) == 3 and len(set(legend_colour.values())) == 3
    for i, span in enumerate(checker.spans):
        assert span["style"] == legend_colour[span["seg"]]
        j, r = seg.labels[i], seg.run_labels[i]  # a topic returns: the tooltip names segment and topic
        conf = seg.confidence()[i]  # the calibrated confidence, not the raw belief
        assert span["title"] == f"Segment {j + 1} · Run {r + 1} · confidence {conf:.2f} · sentence {i + 1}"
    lows = [("low" in s["cls"].split()) for s in checker.spans]
    # sentence 3's raw belief is 0.4, but its confidence (the topic model's base rate) is above 0.5: no underline
    assert seg.belief_in_label()[2] < 0.5 < seg.confidence()[2] and lows == [False] * 5
    assert "Dotted underline: confidence below 0.5 (the estimated chance" in page


def test_the_underline_marks_a_confidence_below_the_threshold():
    """Grouped runs: a sentence at the edge of its segment is more likely misplaced than not, whatever its belief."""
    labels = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    beliefs = np.full((10, 2), 0.1)
    beliefs[np.arange(10), labels] = 0.9
    segments = [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    seg = Segmentation([f"S{i}." for i in range(10)], labels, segments, beliefs, structure="run-topics")
    conf = seg.confidence()
    assert conf[0] < 0.5 < conf[2] and conf[4] < 0.5  # the edges fall below 0.5, the middle does not
    checker = _Checker()
    checker.feed(render_html(seg))
    assert [("low" in s["cls"].split()) for s in checker.spans] == (conf < 0.5).tolist()
    checker = _Checker()
    checker.feed(render_html(seg, low_belief=float(conf.max()) + 1e-9))
    assert all("low" in s["cls"].split() for s in checker.spans)


def test_segment_list_shows_each_segment_in_reading_order(page):
    sections = re.findall(r'<details class="seg" data-seg="(\d+)".*?</details>', page)
    assert sections == ["0", "1", "2"]
    assert re.findall(r'<li value="(\d+)">', page) == ["1", "3", "2", "5", "4"]
