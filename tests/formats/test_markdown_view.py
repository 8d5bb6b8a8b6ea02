"""A Markdown document's results keep its form: blocks printed as written, Markdown rendered (safely) in the
HTML, segments cut at a heading named by it."""

import numpy as np

from bpseg_pgm.chunks.markdown import heading_paths
from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash

TEXT = (
    "---\ntitle: Guide\n---\n\n# Usage\n\nRun it with `bpseg`:\n\n```python\nfrom x import y\n\ny(1)\n```\n\n"
    "| a | b |\n|---|---|\n| 1 | 2 |\n\n## Reading files\n\n- item *one*. See [the docs](https://x.org/d).\n"
    "- raw <script>alert(1)</script> here\n\n![PyTorch Logo](https://x.org/logo.png)\n\n"
    '<div onclick="alert(2)">block</div>\n\n[bad](javascript:alert(3))'
)


def _seg():
    spans = sentence_spans(TEXT, markdown=True)
    sentences = [squash(TEXT[a:b]) for a, b in spans]
    n = len(sentences)
    labels = np.array([0] * 4 + [1] * (n - 4))
    return Segmentation(
        sentences,
        labels,
        [np.flatnonzero(labels == j).tolist() for j in range(2)],
        np.eye(2)[labels],
        text=TEXT,
        spans=spans,
        markdown=True,
        heading_paths=heading_paths(TEXT, spans),
    )


def test_the_text_view_prints_blocks_as_written():
    out = _seg().to_text()
    assert "   3  ```python\n      from x import y\n\n      y(1)\n      ```\n" in out
    assert "   4  | a | b |\n      |---|---|\n      | 1 | 2 |\n" in out
    assert "title: Guide" not in out  # the front matter is metadata, no unit
    assert "![PyTorch Logo](https://x.org/logo.png)\n" in out  # the image: one unit, not "!" and "[...](...)"


def test_the_html_renders_markdown_and_escapes_raw_html():
    html = _seg().to_html()
    assert '<pre><code class="language-python">from x import y\n\ny(1)\n</code></pre>' in html
    assert "<table>" in html and "<th>a</th>" in html
    assert "<code>bpseg</code>" in html and '<a href="https://x.org/d">the docs</a>' in html
    assert "<em>one</em>" in html and "• item" in html
    assert '<pre class="front">---\ntitle: Guide\n---</pre>' in html  # shown, uncoloured
    assert '<a class="img" href="https://x.org/logo.png">[image: PyTorch Logo]</a>' in html
    assert '<span class="s hl hd"' in html and ">Reading files</span>" in html
    assert "```" not in html and "[the docs](" not in html  # no raw Markdown left
    # raw HTML is text, never markup; no javascript: link
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert '<div onclick="alert(2)"' not in html and "&lt;div onclick=" in html
    assert 'href="javascript:' not in html


def test_the_legend_names_a_segment_cut_at_a_heading_by_it():
    seg = _seg()
    assert seg.segment_headings == ["Usage", "Reading files"]
    html = seg.to_html()
    legend = html[html.index('<ul class="legend">') : html.index("</ul>")]
    assert 'title="Usage › Reading files"' in legend and "Segment 2 · " in legend
    assert '<span class="head">Reading files</span>' in legend
