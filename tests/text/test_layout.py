"""The text's paragraphs and headings, found from where its units lie, and used by segment_text."""

import numpy as np

from bpseg_pgm.text import segment_sentences, segment_text
from bpseg_pgm.text.layout import unit_layout
from bpseg_pgm.text.split import sentence_spans

MD = """Intro line one. Intro line two.

# Tennis

The match went to five sets. The champion served twice.

Her backhand won the final point.

Baking
------
The bread needs flour.
## Oven
Bake it until brown.
"""


def test_unit_layout_markdown():
    spans = sentence_spans(MD, markdown=True)
    units = [MD[a:b] for a, b in spans]
    para, heads = unit_layout(MD, spans, markdown=True)
    level = dict(zip(units, heads.tolist()))
    assert level["# Tennis"] == 1 and level["Baking\n------"] == 2 and level["## Oven"] == 2
    assert level["The match went to five sets."] == 0
    p = dict(zip(units, para.tolist()))
    assert p["Intro line one."] == p["Intro line two."] == 0
    assert p["The match went to five sets."] == p["The champion served twice."]  # same paragraph
    assert p["Her backhand won the final point."] == p["The champion served twice."] + 1  # blank line
    assert p["Bake it until brown."] == p["## Oven"] + 1  # a heading ends its paragraph
    assert np.all(np.diff(para) >= 0)


def test_unit_layout_plain_text_has_no_headings():
    spans = sentence_spans(MD)
    para, heads = unit_layout(MD, spans)
    assert not heads.any() and para[-1] >= 3


def test_unit_layout_crlf_blank_lines():
    text = "One here.\r\n\r\nTwo there.\r\nThree there."
    para, _ = unit_layout(text, sentence_spans(text))
    assert para.tolist() == [0, 1, 1]


SPORT = [
    "The match went to five sets.",
    "The champion served for the title twice.",
    "Her backhand won the final point.",
    "The crowd cheered as she lifted the trophy.",
]
BAKING = [
    "The bread needs four cups of flour.",
    "Knead the dough for ten minutes.",
    "Bake it until the crust is brown.",
    "Let the loaf cool before slicing it.",
]


def test_segment_text_headings_are_the_sections():
    # the headings cut the text where its topics do not change: the headings decide
    text = "# Part one\n\n" + " ".join(SPORT[:2]) + "\n\n# Part two\n\n" + " ".join(SPORT[2:] + BAKING)
    seg = segment_text(text)
    assert seg.labels.tolist() == [0, 0, 0, 1, 1, 1, 1, 1, 1, 1]


def test_segment_text_without_structure_is_unchanged():
    text = " ".join(SPORT + BAKING)  # one paragraph: no evidence
    assert np.array_equal(segment_text(text, 2).labels, segment_sentences(SPORT + BAKING, 2).labels)


def test_layout_false_ignores_the_structure():
    text = "# Part one\n\n" + " ".join(SPORT[:2]) + "\n\n# Part two\n\n" + " ".join(SPORT[2:] + BAKING)
    seg = segment_text(text, layout=False)
    assert seg.labels.tolist() != [0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    assert seg.labels[4] == seg.labels[5]  # the second heading does not cut the sport sentences apart


def test_layout_must_be_a_bool():
    import pytest

    with pytest.raises(ValueError, match="layout must be True or False"):
        segment_text("One. Two. Three.", layout="yes", embedder=object())  # refused before any embedding


def test_segment_texts_keeps_context_windows_inside_each_text():
    from bpseg_pgm.text.pipeline import encode_batch

    class Recorder:
        context = "window"

        def encode_documents(self, documents):
            self.documents = documents
            return [np.full((len(d), 3), float(i)) for i, d in enumerate(documents)]

    r = Recorder()
    X = encode_batch(r, [["a.", "b."], ["c."]])
    assert r.documents == [["a.", "b."], ["c."]] and X[:, 0].tolist() == [0.0, 0.0, 1.0]

    class Plain:
        def encode(self, sentences):
            return np.arange(len(sentences) * 2, dtype=float).reshape(-1, 2)

    assert encode_batch(Plain(), [["a.", "b."], ["c."]]).shape == (3, 2)


def test_a_recut_past_the_sections_splits_them_at_their_sub_headings():
    # two top-level sections; the second holds the baking text under two sub-headings
    text = (
        "# Sport\n\n"
        + " ".join(SPORT)
        + "\n\n# Kitchen\n\n## Dough\n\n"
        + " ".join(BAKING[:2])
        + "\n\n## Oven\n\n"
        + " ".join(BAKING[2:])
    )
    seg = segment_text(text)
    units = list(seg.sentences)
    assert seg.n_segments == 2 and seg.evidence == "headings"
    assert seg.max_segments > 2  # the hierarchy's finer levels are kept for a re-cut
    three = seg.recut(3)
    cuts = [units[i] for i in np.flatnonzero(np.diff(three.labels)) + 1]
    assert cuts == ["# Kitchen", "## Oven"]  # the top-level boundary stays, the section splits at its sub-heading
    np.testing.assert_array_equal(three.labels, segment_text(text, 3).labels)  # a re-cut is the fit given k
    assert segment_text(text, 3).structure == "runs"  # headings given k: runs at them, not the topic model
