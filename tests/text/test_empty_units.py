"""Issue 22, "one empty unit drops or misaligns a document": empty units are kept as units, outside the model.

Policy (docs/concepts.md, "Sentences and units"; once the README's "Empty units"): in a list of units an empty or
whitespace-only unit is not embedded and not given to the model; it takes the segment and belief row of its nearest
non-empty neighbour (the previous one, else the next); labels, spans and sentences keep one entry per input unit.
With ``segment_text(text, lines=True)`` a blank line is not a unit and ``Segmentation.line_numbers`` maps each unit
to its input line.
"""

import json

import numpy as np
import pytest

from bpseg_pgm.text.checks import checked_estimator, unit_sources
from bpseg_pgm.text.pipeline import fit_segmentation, segment_sentences, segment_text, segment_texts

CATS = ["cat one.", "cat two.", "cat three."]
BONDS = ["bond one.", "bond two.", "bond three."]


class _TopicEmbedder:
    """Rows by content: 'cat' sentences near e0, 'bond' sentences near e1; records what it was asked to embed."""

    model_name = "topic"

    def __init__(self):
        self.seen = []

    def encode(self, sentences):
        self.seen.append(list(sentences))
        rows = []
        for i, s in enumerate(sentences):
            assert s.strip(), "an empty unit was embedded"
            v = np.zeros(6)
            v[0 if "cat" in s else 1] = 1.0
            v[2 + len(s) % 4] = 0.05  # not all identical
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows, dtype=np.float32)


class _Exploding:
    model_name = "exploding"

    def encode(self, sentences):
        raise AssertionError("input should have been rejected before embedding")


def test_unit_sources_previous_else_next():
    assert unit_sources(["", " ", "a", "", "b", "\t", ""]).tolist() == [2, 2, 2, 2, 4, 4, 4]
    assert unit_sources(["a", "b"]).tolist() == [0, 1]
    assert unit_sources(["", ""]).tolist() == [-1, -1]


def test_empty_sentences_are_kept_as_units_outside_the_model():
    base = segment_sentences(CATS + BONDS, 2, embedder=_TopicEmbedder(), init="farthest")
    units = ["  ", *CATS, "", *BONDS, "\n"]
    emb = _TopicEmbedder()
    seg = segment_sentences(units, 2, embedder=emb, init="farthest")
    assert emb.seen == [CATS + BONDS]  # only the non-empty units were embedded
    assert len(seg.labels) == len(seg.sentences) == len(seg.spans) == len(units)
    assert seg.sentences == units
    src = [1, 1, 2, 3, 3, 5, 6, 7, 7]  # the unit each one takes its segment from
    row = {1: 0, 2: 1, 3: 2, 5: 3, 6: 4, 7: 5}
    assert seg.labels.tolist() == [base.labels[row[j]] for j in src]
    np.testing.assert_array_equal(seg.beliefs, base.beliefs[[row[j] for j in src]])
    assert seg.beliefs.shape == (len(units), base.beliefs.shape[1])
    assert sorted(i for s in seg.segments for i in s) == list(range(len(units)))
    assert seg.embeddings.shape[0] == len(units)
    # spans point at each unit in the joined text, empty ones included
    assert [seg.text[a:b] for a, b in seg.spans] == units
    assert seg.line_numbers == list(range(len(units)))
    chunks = seg.chunks(count_tokens=lambda texts: [len(t.split()) + 2 for t in texts])
    assert [i for c in chunks for i in c.sentences] == list(range(len(units)))
    assert all(c.text == seg.text[c.start : c.end] for c in chunks)
    seg.to_json()


def test_a_meeting_with_one_empty_turn_is_not_lost():
    turns = [*CATS, *BONDS] * 3
    turns[4] = ""
    seg = segment_sentences(turns, embedder=_TopicEmbedder(), structure="runs")
    assert len(seg.labels) == len(turns)
    assert seg.labels[4] == seg.labels[3]


@pytest.mark.parametrize(
    "units, match",
    [
        (["fine", "  "], r"need at least 2 non-empty sentences.*sentence 1 is empty"),
        (["", "", ""], r"need at least 2 non-empty sentences, got 0|got 0 of 3"),
        (["Only."], r"need at least 2 sentences"),
    ],
)
def test_fewer_than_two_nonempty_units_is_a_value_error_before_embedding(units, match):
    with pytest.raises(ValueError, match=match):
        segment_sentences(units, embedder=_Exploding())


def test_k_counts_the_nonempty_units_before_embedding():
    with pytest.raises(ValueError, match="larger than the number of sentences"):
        segment_sentences(["a cat.", "", "a bond.", " "], 3, embedder=_Exploding())


def test_fit_segmentation_takes_rows_for_every_unit_or_for_the_nonempty_ones():
    """bpseg corpus embeds its units itself: one row per unit (empty ones ignored) or per non-empty unit."""
    units = [*CATS, "", *BONDS]
    X = _TopicEmbedder().encode([u for u in units if u])
    full = np.insert(X, 3, np.full(X.shape[1], 9.0, dtype=np.float32), axis=0)  # the empty unit's row: ignored
    a = fit_segmentation(units, X, checked_estimator(2, {"init": "farthest"}), None)
    b = fit_segmentation(units, full, checked_estimator(2, {"init": "farthest"}), None)
    assert a.labels.tolist() == b.labels.tolist() and len(a.labels) == len(units)
    np.testing.assert_array_equal(a.beliefs, b.beliefs)
    with pytest.raises(ValueError, match="5 embedding rows for 7 sentences"):
        fit_segmentation(units, X[:5], checked_estimator(2, {}), None)


TEXT_LINES = "\n".join([*CATS, "", "   ", *BONDS, ""]) + "\n\n"


def test_lines_blank_lines_are_not_units_and_line_numbers_map_back():
    """`segment_text(text, lines=True)`: one label per non-blank line; `line_numbers` gives each unit's line."""
    lines = TEXT_LINES.splitlines()
    nonblank = [i for i, line in enumerate(lines) if line.strip()]
    seg = segment_text(TEXT_LINES, 2, lines=True, embedder=_TopicEmbedder(), init="farthest")
    assert len(seg.labels) == len(nonblank) == 6  # the documented promise: blank lines are not units
    assert seg.line_numbers == nonblank
    assert [lines[i] for i in seg.line_numbers] == seg.sentences
    label_of_line = dict(zip(seg.line_numbers, seg.labels.tolist()))
    same = segment_text("\n".join(CATS + BONDS), 2, lines=True, embedder=_TopicEmbedder(), init="farthest")
    assert [label_of_line[i] for i in nonblank] == same.labels.tolist()
    (many,) = segment_texts([TEXT_LINES], 2, lines=True, embedder=_TopicEmbedder(), init="farthest")
    assert many.line_numbers == nonblank
    assert json.loads(seg.to_json())["line_numbers"] == nonblank  # in the JSON output too


def test_line_numbers_follow_splitlines_breaks():
    text = "cat one.\r\n\r\ncat two.\u2028bond one.\x0cbond two.\n"
    seg = segment_text(text, 2, lines=True, embedder=_TopicEmbedder(), init="farthest")
    assert [text.splitlines()[i] for i in seg.line_numbers] == seg.sentences
