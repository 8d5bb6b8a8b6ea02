"""Headings in the HTML view: Markdown only when the text was Markdown, and each stored once in the slider's data.

The segmentations are made without a model: the text split as the pipeline splits it, labels given, and (for the
slider) levels given by a stand-in for the runs fit's ``level_labels``.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from browser import needs_browser, run_browser

from bpseg_pgm.chunks.markdown import heading_paths as markdown_heading_paths
from bpseg_pgm.formats.levels import granularity_levels
from bpseg_pgm.structure.detect import heading_paths
from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash

LINK = "[click](https://evil.example/)"
TEXTS = {
    "html": f"<h1>Cats {LINK}</h1><p>Cats purr. Cats sleep.</p><h1>Dogs</h1><p>Dogs bark. Dogs run.</p>",
    "rst": f"Cats {LINK}\n{'=' * 40}\n\nCats purr. Cats sleep.\n\nDogs\n====\n\nDogs bark. Dogs run.\n",
    "markdown": f"# Cats {LINK}\n\nCats purr. Cats sleep.\n\n# Dogs\n\nDogs bark. Dogs run.\n",
}


class _Levelled(Segmentation):
    """A segmentation that keeps levels 1..``params["top"]``: level k cuts the units into k even runs."""

    @property
    def max_segments(self):
        return self.params.get("top")

    def level_labels(self, n_segments):
        n = len(self.sentences)
        return np.repeat(np.arange(n_segments), [len(p) for p in np.array_split(np.arange(n), n_segments)])


def _segmentation(text: str, fmt: str, labels, top: int | None = None) -> Segmentation:
    markdown = fmt == "markdown"
    spans = sentence_spans(text, markdown=markdown, format=None if markdown else fmt)
    paths = markdown_heading_paths(text, spans) if markdown else heading_paths(text, fmt, spans)
    labels = np.asarray(labels)
    assert len(labels) == len(spans), [text[a:b] for a, b in spans]
    m = int(labels.max()) + 1
    beliefs = np.full((len(labels), m), 0.1)
    beliefs[np.arange(len(labels)), labels] = 0.8
    return (_Levelled if top else Segmentation)(
        [squash(text[a:b]) for a, b in spans],
        labels,
        [np.flatnonzero(labels == j).tolist() for j in range(m)],
        beliefs,
        text=text,
        spans=spans,
        params={"n_segments": m, "top": top},
        markdown=markdown,
        heading_paths=paths,
    )


def _levels_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" class="levels">(.*?)</script>', page, re.S)
    return json.loads(found.group(1))


@pytest.mark.parametrize("fmt", ["html", "rst"])
def test_an_html_or_rst_heading_is_plain_text_in_the_legend(fmt):
    seg = _segmentation(TEXTS[fmt], fmt, [0, 0, 0, 1, 1, 1], top=3)
    assert seg.segment_headings == [f"Cats {LINK}", "Dogs"]
    page = seg.to_html()
    assert "evil.example" in page  # the heading is shown...
    assert not re.search(r'href=\\?"https://evil', page)  # ...as the text it is: no link, the slider's data too
    legend = page[page.index('<ul class="legend">') : page.index("</ul>", page.index('<ul class="legend">'))]
    assert f'<span class="head">Cats {LINK}</span>' in legend


def test_a_markdown_heading_is_still_rendered_as_markdown():
    seg = _segmentation(TEXTS["markdown"], "markdown", [0, 0, 0, 1, 1, 1], top=3)
    page = seg.to_html()
    legend = page[page.index('<ul class="legend">') : page.index("</ul>", page.index('<ul class="legend">'))]
    assert '<span class="head">Cats <a href="https://evil.example/">click</a></span>' in legend


HEADING = "Qzx cats " + "and their long names " * 500  # about 10 KB, "Qzx" nowhere else


def _long_heading_page(top: int) -> tuple[Segmentation, str]:
    sections = "".join(f"<h2>Part {i}</h2><p>Sentence {i} one. Sentence {i} two.</p>" for i in range(12))
    text = f"<h1>{HEADING}</h1>{sections}"
    n = 1 + 3 * 12
    seg = _segmentation(text, "html", [0] * 13 + [1] * 12 + [2] * (n - 25), top=top)
    return seg, seg.to_html()


def test_a_heading_is_stored_once_however_many_levels_the_slider_offers():
    title = HEADING.strip()
    _, few = _long_heading_page(3)
    seg, many = _long_heading_page(30)
    assert sorted(map(int, _levels_data(many)["levels"])) == list(range(1, 31))
    # every segment of every level lies under the long heading, its path names it: 27 more levels add their
    # labels and indices, no copy of the heading (they used to add some 450, over 4 MB)
    assert many.count("Qzx") == few.count("Qzx") <= 2 * seg.n_segments + 8
    assert len(many) - len(few) < 30_000
    # looked up in the table, each level's names and heading paths are those of the levels
    from bpseg_pgm.formats.html import _namer

    data = _levels_data(many)
    strings = data["strings"]
    assert len(strings) == len(set(strings))
    want = granularity_levels(seg, _namer(seg))
    for k, level in want.items():
        got = data["levels"][str(k)]
        assert got["labels"] == level["labels"]
        assert [strings[i] for i in got["names"]] == level["names"]
        assert [[strings[i] for i in p] for p in got["heading_paths"]] == level["heading_paths"]
    assert want[5]["heading_paths"][0] == [title]  # the level of 5 segments starts under the heading


@needs_browser
def test_the_slider_names_a_level_s_segments_by_their_headings_from_the_table(tmp_path):
    seg = _segmentation(TEXTS["html"], "html", [0, 0, 0, 1, 1, 1], top=4)
    page = tmp_path / "levels.html"
    page.write_text(seg.to_html(), encoding="utf-8")
    dom = run_browser(["--dump-dom", page.as_uri() + "?segments=3"], tmp_path).stdout
    assert 'data-level="3"' in dom
    legend = dom[dom.index('<ul class="legend">') : dom.index("</ul>", dom.index('<ul class="legend">'))]
    assert legend.count("<li") == 3
    # level 3 cuts the six units in pairs: the first starts at the first heading, the others at no heading
    assert re.findall(r'<span class="head">([^<]*)</span>', legend) == [f"Cats {LINK}"]
    assert 'title="Cats [click](https://evil.example/)"' in legend and "<a " not in legend
    assert legend.count('class="kw"') == 2
