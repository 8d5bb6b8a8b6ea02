"""The command-line guide's claims about ``examples/notes.txt`` hold: what the automatic fit finds there, what
``-k 4`` gives, and that ``--segment-length 4`` re-cuts it (the guide once said it was an error)."""

from pathlib import Path

import pytest

from bpseg_pgm.text import segment_text

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "command-line.md").read_text("utf-8")
NOTES = (ROOT / "examples" / "notes.txt").read_text("utf-8")


@pytest.fixture(scope="module")
def automatic(embedder):
    return segment_text(NOTES, embedder=embedder)


def test_the_automatic_fit_finds_the_topics_the_guide_says(automatic):
    assert "BP-Seg finds four\nsegments in seven runs there" in PAGE
    assert automatic.n_segments == 4 and automatic.n_runs == 7
    assert len(automatic.returning_segments) == 3  # "the three subjects, each returning"
    assert automatic.runs[0] == [0]  # "the title line on its own"


def test_k_4_gives_three_topics(embedder):
    assert "`-k 4` gives three segments here" in PAGE
    assert segment_text(NOTES, 4, embedder=embedder).n_segments == 3


def test_segment_length_4_recuts_the_notes(automatic):
    assert "bpseg segment examples/notes.txt --segment-length 4 " in PAGE
    assert "as for\n`examples/notes.txt`" not in PAGE
    recut = automatic.recut(segment_length=4)
    assert recut.n_segments == round(len(automatic.sentences) / 4)
