"""segment_text(format=...): reStructuredText, HTML and numbered plain text; their section titles are headings."""

import numpy as np
import pytest

from bpseg_pgm.text import segment_text, segment_texts
from bpseg_pgm.text.checks import split_for_segmentation
from bpseg_pgm.text.pipeline import read_format

RST = """Abstract
========

The cat sat. The dog ran.

Motivation
==========

Stocks fell. Banks sold.
"""
HTML = (
    "<html><head><title>Notes</title></head><body><nav>Home | About</nav>"
    "<h1>Abstract</h1><p>The <i>cat</i> sat. The dog ran.</p>"
    "<h1>Motivation</h1><p>Stocks fell. Banks sold.</p></body></html>"
)
NUMBERED = "1. Abstract\n\nThe cat sat. The dog ran.\n\n2. Motivation\n\nStocks fell. Banks sold.\n"


@pytest.mark.parametrize("text", [RST, HTML, NUMBERED])
def test_each_format_detected_and_cut_at_its_sections(text, embedder):
    seg = segment_text(text, embedder=embedder)  # regression: the RST example was one segment, titles as sentences
    assert seg.labels.tolist() == [0, 0, 0, 1, 1, 1]
    assert seg.sentences[1:3] == ["The cat sat.", "The dog ran."]
    assert [text[a:b] for a, b in seg.spans][-1] == "Banks sold."  # spans slice the text as given


def test_html_sentences_are_the_text_inside_the_tags():
    sentences, spans = split_for_segmentation(HTML, False, False, "html")
    assert sentences == ["Abstract", "The cat sat.", "The dog ran.", "Motivation", "Stocks fell.", "Banks sold."]
    assert HTML[slice(*spans[1])] == "The <i>cat</i> sat."  # the span covers the element's text, tags inside


def test_rst_titles_are_their_words_alone():
    sentences, _ = split_for_segmentation(RST, False, False, "rst")
    assert sentences[0] == "Abstract" and sentences[3] == "Motivation"


def test_format_overrides_and_plain_reads_as_before(embedder):
    plain = segment_text(RST, format="plain", embedder=embedder)
    assert "Abstract ========" in plain.sentences
    assert read_format(RST, False, markdown=False) == "plain"  # markdown=False: not guessed, as before
    assert read_format(RST, True) == "plain"  # never with lines
    assert read_format("# T\n\nx.", False, format="rst") == "rst"
    assert read_format("# T\n\nx.", False) == "markdown"  # Markdown is guessed first, as before


def test_bad_format_is_one_value_error():
    with pytest.raises(ValueError, match="format must be one of"):
        segment_text(RST, format="docx")
    with pytest.raises(ValueError, match="format has 1 values for 2 texts"):
        segment_texts([RST, HTML], format=["rst"])


@pytest.mark.parametrize(
    "text, fmt",
    [
        ("<h1>Open<p>The cat sat. The dog ran.<table><tr><td>x", "html"),
        ("One\n===\n\nThe cat sat.\n\nTwo\n---\n\nThe dog ran.\n\nThree\n***\n\nx y.\n\nFour\n---\n\nz w.\n", "rst"),
        ("1. Apples\n\n2. Pears\n\n3. Plums\n\n1. Again\n", "numbered"),
    ],
)
def test_bad_input_segments_or_one_value_error(text, fmt, embedder):
    try:
        seg = segment_text(text, format=fmt, embedder=embedder)
    except ValueError as exc:
        assert str(exc)
    else:
        assert len(seg.labels) == len(seg.spans) and np.all(seg.labels >= 0)


def test_segment_texts_takes_a_format_per_text(embedder):
    segs = segment_texts([RST, NUMBERED], format=["rst", None], embedder=embedder)
    assert [s.labels.tolist() for s in segs] == [[0, 0, 0, 1, 1, 1]] * 2


def test_chunk_texts_reads_the_format_as_segment_text_does(embedder):
    from bpseg_pgm.text.chunks import chunk_texts

    (chunks,) = chunk_texts([RST], embedder=embedder)
    assert [RST[c.start : c.end] for c in chunks] == [c.text for c in chunks]
    assert len(chunks) == 2 and chunks[1].text.startswith("Motivation")
