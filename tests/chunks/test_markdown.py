"""Markdown-aware chunks: code fences, tables and list items are never cut (unless one alone is over the cap),
headings go with what follows and are preferred cuts; detection is conservative; real Markdown pages (README.md, and
the docs pages that took over its long sections) are chunked whole."""

from pathlib import Path

import numpy as np
import pytest

from bpseg_pgm.chunks.markdown import inline_code_spans, looks_like_markdown, markdown_blocks
from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash

ROOT = Path(__file__).resolve().parents[2]
# the README, and docs pages with many code blocks, tables (parameters.md: rows longer than a cap) and list items
PAGES = ["README.md", "docs/parameters.md", "docs/howto/corpus.md", "docs/howto/rag.md", "docs/evaluation.md"]


def words(texts):
    return [len(t.split()) for t in texts]


DOC = (
    "\ufeff# Notes\r\n\r\nWe met today. The plan is set.\r\n\r\n## Code\r\n\r\nRun this first. Then wait.\r\n\r\n"
    "```python\r\nx = 1. \r\ny = x + 2. z = 3\r\nprint(x)\r\n```\r\n\r\n- first item. It has two sentences.\r\n"
    "- second item\r\n\r\n| a | b |\r\n|---|---|\r\n| 1. | 2. |\r\n\r\nThe end is near. Done now."
)


def _seg(text, labels, markdown_split=False):
    spans = sentence_spans(text, markdown=markdown_split)
    labels = np.asarray(labels)[: len(spans)]
    labels = np.unique(labels, return_inverse=True)[1]
    m = int(labels.max()) + 1
    beliefs = np.full((len(labels), m), 0.1 / max(m - 1, 1))
    beliefs[np.arange(len(labels)), labels] = 0.9 if m > 1 else 1.0
    segments = [np.flatnonzero(labels == j).tolist() for j in range(m)]
    return Segmentation([squash(text[a:b]) for a, b in spans], labels, segments, beliefs, text=text, spans=spans)


def _cuts_inside(chunks, blocks):
    return [(c.start, c.end) for c in chunks for pos in (c.start, c.end) for a, b in blocks if a < pos < b]


def test_detection_is_conservative():
    assert looks_like_markdown(DOC)
    assert looks_like_markdown("Some text.\n\n```\ncode\n```\n")
    assert looks_like_markdown("| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert not looks_like_markdown("Plain prose. With a list:\n- one\n- two\n1. three")
    assert not looks_like_markdown("Issue #12 is fixed. C# is a language.")


def test_blocks_point_into_the_original_text():
    blocks = markdown_blocks(DOC)
    texts = [DOC[a:b] for a, b in blocks.atomic]
    assert texts[0].startswith("```python") and texts[0].endswith("```")
    assert texts[1] == "- first item. It has two sentences."
    assert texts[2] == "- second item"
    assert texts[3].startswith("| a | b |") and texts[3].endswith("| 1. | 2. |")
    assert [DOC[a:b] for a, b in blocks.headings] == ["\ufeff# Notes", "## Code"]
    assert DOC[slice(*inline_code_spans("a `b. c` d")[0])] if False else inline_code_spans("a `b. c` d") == [(2, 8)]


@pytest.mark.parametrize("seed", range(20))
def test_no_chunk_cuts_a_block_whatever_the_labels(seed):
    rng = np.random.default_rng(seed)
    n = len(sentence_spans(DOC))  # the plain splitter: code lines and table cells become "sentences"
    seg = _seg(DOC, rng.integers(0, 3, n))
    atomic = markdown_blocks(DOC).atomic
    for contiguous in (True, False):
        for cap in (None, 12, 40):
            chunks = seg.chunks(cap, contiguous, count_tokens=words, markdown=True)
            fits = [(a, b) for a, b in atomic if cap is None or words([DOC[a:b]])[0] <= cap]
            assert not _cuts_inside([c for c in chunks if c.contiguous], fits)  # only a block over the cap is cut
            assert sorted({i for c in chunks for i in c.sentences}) == list(range(n))


def test_without_markdown_the_labels_cut_inside_a_fence():
    n = len(sentence_spans(DOC))
    labels = np.arange(n) % 2
    seg = _seg(DOC, labels)
    atomic = markdown_blocks(DOC).atomic
    assert _cuts_inside(seg.chunks(count_tokens=words, markdown=False), atomic)
    assert not _cuts_inside(seg.chunks(count_tokens=words), atomic)  # None: guessed from the text


def test_a_fence_over_the_cap_is_cut_at_line_breaks():
    code = "```\n" + "\n".join(f"value_{i} = compute({i}, other)" for i in range(12)) + "\n```"
    text = "Intro line here. " + "\n\n" + code + "\n\nOutro line here."
    seg = _seg(text, [0] * 10, markdown_split=True)
    chunks = seg.chunks(max_tokens=12, count_tokens=words, markdown=True)
    inner = [c for c in chunks if "compute" in c.text]
    assert len(inner) >= 3 and all(c.n_tokens <= 12 for c in chunks)
    assert all(text[c.end] == "\n" for c in inner[:-1])  # each piece ends at a line end
    assert all(text[c.start : c.end] == c.text for c in chunks)


def test_a_heading_goes_with_what_follows_and_is_the_preferred_cut():
    text = "Alpha one two three. Alpha four five six.\n\n## Beta\n\nBeta one two three. Beta four five six."
    seg = _seg(text, [0, 0, 0, 1, 1], markdown_split=True)  # the heading labelled with what precedes it
    chunks = seg.chunks(count_tokens=words, min_tokens=0, markdown=True)
    assert [c.text.split("\n")[0] for c in chunks] == ["Alpha one two three. Alpha four five six.", "## Beta"]
    one = _seg(text, [0] * 5, markdown_split=True)
    cut = one.chunks(max_tokens=14, count_tokens=words, min_tokens=0, markdown=True)
    assert cut[1].text.startswith("## Beta")  # a 10/10 cut is possible elsewhere; the heading wins


@pytest.mark.parametrize("page", PAGES)
def test_no_chunk_of_a_real_page_cuts_a_code_fence_or_inline_code(page):
    text = (ROOT / page).read_text("utf-8")
    seg = _seg(text, np.random.default_rng(0).integers(0, 4, len(sentence_spans(text))))
    blocks = markdown_blocks(text)
    fences = [
        (a, b)
        for a, b in blocks.atomic
        if text[a:b].lstrip("- 0123456789.").startswith(("```", "~~~")) or text[a:b].startswith("```")
    ]
    for cap in (64, 256):
        chunks = seg.chunks(cap, count_tokens=words)
        assert all(c.n_tokens <= cap for c in chunks)
        big = [(a, b) for a, b in blocks.atomic if words([text[a:b]])[0] <= cap]
        assert not _cuts_inside(chunks, big)  # only a block longer than the cap may be cut
        assert (fences or "```" not in text) and all(text[c.start : c.end] == c.text for c in chunks)


def test_headings_in_quotes_lists_and_html_are_no_sections():
    text = "# Top\n\n> ## Quoted\n\n- ## Listed\n- item\n\n<h1>Raw</h1>\n\n## Real\n\nText."
    blocks = markdown_blocks(text)
    assert [text[a:b] for a, b in blocks.headings] == ["# Top", "## Real"]
    assert blocks.heading_titles == ("Top", "Real")
    assert "> ## Quoted" in [text[a:b] for a, b in blocks.units]  # still one unit of its own


def test_heading_paths_follow_the_levels():
    from bpseg_pgm.chunks.markdown import heading_paths
    from bpseg_pgm.text.split import sentence_spans

    text = "Intro.\n\n# Usage\n\nHow.\n\n## Reading files\n\nRead.\n\n### Deep\n\nX.\n\n## Writing\n\nW.\n\nSetext\n======\n\nS."
    spans = sentence_spans(text, markdown=True)
    paths = dict(zip((text[a:b] for a, b in spans), heading_paths(text, spans)))
    assert paths["Intro."] == ()
    assert paths["# Usage"] == ("Usage",)
    assert paths["Read."] == ("Usage", "Reading files")
    assert paths["X."] == ("Usage", "Reading files", "Deep")
    assert paths["W."] == ("Usage", "Writing")
    assert paths["S."] == ("Setext",)
