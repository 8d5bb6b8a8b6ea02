"""Every segment and chunk carries its heading path (Markdown): in the Segmentation, its JSON and its chunks."""

import pytest

from bpseg_pgm.text import segment_text
from bpseg_pgm.text.segmentation import Segmentation

DOC = """---
title: Guide
---

# Usage

Install the package with pip. It needs Python three.

## Reading files

Open the file in read mode. Each line is parsed as a record.

## Writing files

Writers flush the buffer on close. A missing folder is created first.

# Weather

Thunder rumbled over the hills. Rain fell on the valley all afternoon.
"""


@pytest.fixture(scope="module")
def seg(embedder):
    return segment_text(DOC, embedder=embedder)


def test_each_sentence_segment_and_chunk_has_its_heading_path(seg):
    texts = [seg.text[a:b] for a, b in seg.spans]
    assert seg.markdown and texts[0] == "# Usage"  # the front matter: metadata, no unit, no section
    assert seg.segment_headings[0] == "Usage"
    paths = dict(zip(texts, seg.heading_paths))
    assert paths["Open the file in read mode."] == ("Usage", "Reading files")
    assert paths["## Writing files"] == ("Usage", "Writing files")
    assert paths["Rain fell on the valley all afternoon."] == ("Weather",)
    for j, seg_units in enumerate(seg.segments):
        assert seg.segment_heading_paths[j] == list(seg.heading_paths[seg_units[0]])
    for c in seg.chunks(max_tokens=24, min_tokens=0):
        assert c.heading_path == seg.heading_paths[c.sentences[0]]
        assert c.to_dict()["heading_path"] == list(c.heading_path)
    assert ["Usage", "Reading files"] in [list(c.heading_path) for c in seg.chunks(max_tokens=24, min_tokens=0)]


def test_a_segment_cut_at_a_heading_is_named_by_it(seg):
    for j, units in enumerate(seg.runs):
        first = seg.text[slice(*seg.spans[units[0]])]
        want = first.lstrip("#").strip() if first.startswith("#") else None
        assert seg.run_headings[j] == want


def test_the_text_output_names_a_segment_cut_at_a_heading_by_it(seg, embedder):
    heads = [line for line in seg.to_text().splitlines() if line.startswith("[Segment")]
    assert len(heads) == len(seg.segments)
    for head, title in zip(heads, seg.segment_headings):
        assert head.endswith(f" · {title}") if title else " · " not in head
    assert heads[0].endswith(" · Usage")
    plain = segment_text("The cat sat on the mat. Stocks fell on Monday.", embedder=embedder)
    assert " · " not in plain.to_text()  # no heading: no name


def test_the_json_round_trip_keeps_the_heading_paths(seg):
    d = seg.to_dict()
    assert d["heading_paths"][seg.sentences.index("Open the file in read mode.")] == ["Usage", "Reading files"]
    assert d["segment_heading_paths"] == seg.segment_heading_paths
    back = Segmentation.from_json(seg.to_json())
    assert back.heading_paths == seg.heading_paths
    assert back.to_dict()["run_heading_paths"] == d["run_heading_paths"]
    once = back.to_json()
    assert Segmentation.from_json(once).to_json() == once  # byte-identical from the first read on


@pytest.mark.parametrize(
    "paths, match",
    [([["a"]], r"one list of headings per sentence \(2\), got 1 paths"), ([["a"], "b"], r"heading_paths\[1\]")],
)
def test_bad_heading_paths_are_a_value_error_naming_the_field(paths, match):
    d = Segmentation(["A.", "B."], [0, 1], [[0], [1]], [[1.0, 0.0], [0.0, 1.0]]).to_dict()
    d["heading_paths"] = paths
    with pytest.raises(ValueError, match=match):
        Segmentation.from_dict(d)


def test_plain_text_has_no_heading_paths(embedder):
    seg = segment_text("The cat sat on the mat. Stocks fell on Monday.", embedder=embedder)
    assert seg.heading_paths is None and seg.segment_heading_paths == [[] for _ in seg.segments]
    assert all(c.heading_path == () for c in seg.chunks())


RST = (
    "Usage\n=====\n\nInstall the package with pip. It needs Python three.\n\n"
    "Reading files\n-------------\n\nOpen the file in read mode. Each line is parsed as a record.\n\n"
    "Weather\n=======\n\nThunder rumbled over the hills. Rain fell on the valley all afternoon.\n"
)
HTML = (
    "<html><body><nav>Home</nav><h1>Usage</h1><p>Install the package with pip. It needs Python three.</p>"
    "<h2>Reading <em>files</em></h2><p>Open the file in read mode. Each line is parsed as a record.</p>"
    "<h1>Weather</h1><p>Thunder rumbled over the hills. Rain fell on the valley all afternoon.</p></body></html>"
)
EXPECTED = [("Usage",)] * 3 + [("Usage", "Reading files")] * 3 + [("Weather",)] * 3


@pytest.mark.parametrize("text, fmt", [(RST, "rst"), (HTML, "html")])
def test_the_other_formats_headings_are_heading_paths_too(text, fmt):
    seg = segment_text(text, format=fmt)
    assert [tuple(p) for p in seg.heading_paths] == EXPECTED
    assert [tuple(p) for p in seg.recut(2).heading_paths] == EXPECTED
    back = Segmentation.from_dict(seg.to_dict())
    assert [tuple(p) for p in back.heading_paths] == EXPECTED


def test_a_numbered_headings_title_keeps_its_number():
    text = (
        "1. Usage\n\nInstall the package with pip. It needs Python three.\n\n"
        "2. Weather\n\nThunder rumbled over the hills. Rain fell on the valley all afternoon.\n"
    )
    seg = segment_text(text, format="numbered")
    assert [tuple(p) for p in seg.heading_paths] == [("1. Usage",)] * 3 + [("2. Weather",)] * 3
