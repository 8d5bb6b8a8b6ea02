"""An HTML document's views show it as it is: <pre> as code with its lines, <code> as code, <a href> as a link;
no other tag or attribute of the input reaches the page, and nothing in it runs."""

import re

from structured_segmentation import structured_segmentation

from bpseg_pgm.formats.html_view import html_unit_html

PAGE = """\
<!DOCTYPE html>
<html><head><title>Widgets</title><style>p { color: red }</style></head>
<body>
<h1>Widgets</h1>
<p>Call <code>make(1)</code> to build one; see <a href="https://example.org/docs">the docs</a>
or <a href="javascript:alert(1)" onclick="alert(2)">this</a>. Escaped &lt;b&gt; stays text.</p>
<pre><code class="language-python">from typing import Widget

def make(x: int) -&gt; Widget:
    return Widget(x)
</code></pre>
<h2>Notes</h2>
<p>Widgets are <em>fast</em> and <strong onmouseover="alert(3)">small</strong>.<script>alert(4)</script>
They never crash.</p>
<ul><li>One item with <code>a &lt; b</code>.</li><li>Another <img src="https://x.org/a.png" alt="logo"> item.</li></ul>
<table><tr><th>Name</th><th>Size</th></tr><tr><td>widget</td><td>1 &amp; 2</td></tr></table>
</body></html>
"""


def _doc(html: str) -> str:
    doc = html[html.index('<div class="doc">') : html.index("<h2>Segments")]
    return re.sub(r"<sup>\d+</sup>", "", doc)


def test_pre_is_code_with_its_lines_and_inline_code_is_code():
    doc = _doc(structured_segmentation(PAGE, "html").to_html())
    assert (
        '<pre><code class="language-python">from typing import Widget\n\n'
        "def make(x: int) -&gt; Widget:\n    return Widget(x)</code></pre>"
    ) in doc
    assert "Call <code>make(1)</code> to build one" in doc and "• One item with <code>a &lt; b</code>." in doc
    assert "Widgets are <em>fast</em> and <strong>small</strong>." in doc


def test_links_stay_links_only_to_safe_addresses():
    doc = _doc(structured_segmentation(PAGE, "html").to_html())
    assert '<a href="https://example.org/docs">the docs</a>\nor this.' in doc
    assert '<a class="img" href="https://x.org/a.png">[image: logo]</a>' in doc  # shown as a link, not loaded


def test_no_tag_of_the_input_is_raw_and_nothing_runs():
    html = structured_segmentation(PAGE, "html").to_html()
    doc = _doc(html)
    assert "Escaped &lt;b&gt; stays text." in doc
    assert not re.search(r"javascript:|onclick|onmouseover|alert\(|<img|<style|<script|<h1", doc)
    assert "color: red" not in html and "<script>alert" not in html
    assert "<table><tr><th>Name</th><th>Size</th></tr><tr><td>widget</td><td>1 &amp; 2</td></tr></table>" in doc
    text = "<p>A <b onclick='x()'>bold <i>move</p><p>next"
    assert html_unit_html(text, 3, text.index("</p>"), block=False) == "A <b>bold <i>move</i></b>"


def test_the_text_view_keeps_a_code_block_s_lines():
    out = structured_segmentation(PAGE, "html").to_text()
    pad = " " * 6  # "  10  ": a unit's later lines, aligned under its first
    assert f"from typing import Widget\n\n{pad}def make(x: int) -> Widget:\n{pad}    return Widget(x)\n" in out
    assert f"Name | Size\n{pad}widget | 1 & 2\n" in out  # a table: its text, a row a line


def test_the_views_change_no_offset_or_label():
    seg = structured_segmentation(PAGE, "html")
    before = seg.to_json()
    seg.to_html(), seg.to_text()
    assert seg.to_json() == before
