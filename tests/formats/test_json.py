"""The json format: the segmentation's own JSON and a newline; the full beliefs only when asked (--full-beliefs)."""

import json

import numpy as np
import pytest

from bpseg_pgm.formats import get_format
from bpseg_pgm.types.segmentation import SegmentationResult


def test_json_is_the_segmentations_json_on_its_own_line(seg):
    out = get_format("json").render(seg, source="notes.txt")
    assert out == seg.to_json() + "\n"
    assert json.loads(out)["labels"] == seg.labels.tolist()
    assert get_format("json").suffix == ".json"


def test_json_takes_only_full_beliefs_and_the_parents(seg):
    with pytest.raises(ValueError, match="the json format takes full_beliefs, parents, context_sentences, got max_to"):
        get_format("json").render(seg, max_tokens=5)
    assert [o.name for o in get_format("json").options] == ["full_beliefs", "parents", "context_sentences"]
    assert [o.default for o in get_format("json").options] == [False, False, None]


def test_the_beliefs_are_confidences_unless_the_full_matrix_is_asked_for(seg):
    short = json.loads(get_format("json").render(seg))
    assert "beliefs" not in short and short["belief"] == [0.8] * 6 and short["belief_columns"] == 3
    assert short["confidence"] == [round(float(c), 4) for c in seg.confidence()]  # calibrated, not the belief
    full = get_format("json").render(seg, full_beliefs=True)
    assert full == seg.to_json(beliefs="full") + "\n"
    assert np.allclose(json.loads(full)["beliefs"], seg.beliefs)


def _cycling(n, k):
    """n units whose topics cycle through k (every unit its own run), belief 0.9 in the own topic."""
    labels = np.arange(n) % k
    beliefs = np.full((n, k), 0.1 / (k - 1))
    beliefs[np.arange(n), labels] = 0.9
    return SegmentationResult([f"u{i}." for i in range(n)], labels, [list(range(j, n, k)) for j in range(k)], beliefs)


def test_the_json_grows_with_the_text_not_with_sentences_times_segments():
    """Issue 36, fault 8: 2,000 units in 400 topics wrote 800,000 beliefs; now one confidence per unit."""
    json_format = get_format("json")
    few, many = json_format.render(_cycling(2000, 40)), json_format.render(_cycling(2000, 400))
    assert len(many) < 1.1 * len(few)  # ten times the topics, about the same size
    full_few, full_many = (json_format.render(_cycling(2000, k), full_beliefs=True) for k in (40, 400))
    assert len(full_many) > 8 * len(full_few) and len(full_many) > 50 * len(many)


def test_a_plain_segmentation_result_renders_as_text_and_json():
    seg = SegmentationResult(["A.", "B.", "C."], np.array([0, 1, 0]), [[0, 2], [1]], np.eye(2)[[0, 1, 0]])
    assert get_format("text").render(seg).startswith("3 runs in 2 segments. Segment 1 returns: runs 1 and 3.")
    assert json.loads(get_format("json").render(seg))["returning_segments"] == [0]
    assert "<!DOCTYPE html>" in get_format("html").render(seg)


def test_the_prune_json_takes_no_options():
    assert get_format("json", "prune").options == ()
