"""One vocabulary: a *segment* is a label (its sentences may be far apart), a *run* consecutive sentences of one.

The old names of the two levels keep working for one release, each with a FutureWarning naming the new one,
and give what the new name gives; the views and the dict use only the new words.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from small_segmentation import small_segmentation

#: old attribute -> new attribute, on a segmentation
RENAMED = {
    "n_topics": "n_segments",
    "contiguous_segments": "runs",
    "n_contiguous_segments": "n_runs",
    "contiguous_labels": "run_labels",
    "contiguous_topics": "run_segments",
    "topic_segments": "segment_runs",
    "returning_topics": "returning_segments",
    "contiguous_heading_paths": "run_heading_paths",
    "contiguous_headings": "run_headings",
}


@pytest.fixture
def returning():
    return small_segmentation((0, 0, 1, 1, 0, 2))  # segment 0 returns: runs 0 and 2


def test_the_levels_in_the_new_words(returning):
    assert returning.segments == [[0, 1, 4], [2, 3], [5]]
    assert returning.runs == [[0, 1], [2, 3], [4], [5]] and returning.n_runs == 4
    assert returning.run_labels.tolist() == [0, 0, 1, 1, 2, 3]
    assert returning.run_segments.tolist() == [0, 1, 0, 2]
    assert returning.segment_runs == [[0, 2], [1], [3]] and returning.returning_segments == [0]


@pytest.mark.parametrize("old, new", sorted(RENAMED.items()))
def test_an_old_attribute_warns_and_gives_the_new_one(returning, old, new):
    with pytest.warns(FutureWarning, match=rf"{old} is renamed {new}"):
        value = getattr(returning, old)
    np.testing.assert_equal(value, getattr(returning, new))


@pytest.mark.parametrize("old, new", [("topic_keywords", "segment_keywords"), ("contiguous_keywords", "run_keywords")])
def test_an_old_keywords_method_warns_and_gives_the_new_one(returning, old, new):
    with pytest.warns(FutureWarning, match=rf"{old} is renamed {new}"):
        value = getattr(returning, old)(top_n=3)
    assert value == getattr(returning, new)(top_n=3)


def test_a_chunk_names_its_segment_and_run(returning):
    chunk = returning.chunks(max_tokens=100)[2]  # the segment that returned, its second run
    assert (chunk.segment, chunk.run) == (0, 2)
    with pytest.warns(FutureWarning, match="topic is renamed segment"):
        assert chunk.topic == 0
    with pytest.warns(FutureWarning, match="contiguous_segment is renamed run"):
        assert chunk.contiguous_segment == 2
    assert "topic" not in chunk.to_dict() and chunk.to_dict()["run"] == 2


def test_the_dict_uses_the_new_names_and_old_dicts_still_read(returning):
    d = returning.to_dict()
    assert not set(RENAMED) & set(d)
    assert {"n_segments", "runs", "n_runs", "run_labels", "run_segments", "segment_runs", "returning_segments"} <= set(
        d
    )
    assert "run_heading_paths" in d and "segment_heading_paths" in d
    assert "topic_keywords" not in d and "segment_keywords" in d and "run_keywords" in d
    old_style = {**d, "n_topics": 3, "contiguous_segments": d["runs"], "returning_topics": d["returning_segments"]}
    assert type(returning).from_dict(old_style).runs == returning.runs  # the derived keys are not read


def test_the_views_say_segment_and_run_never_topic(returning):
    text = returning.to_text()
    assert text.startswith("4 runs in 3 segments. Segment 1 returns: runs 1 and 3.")
    assert "[Segment 1] runs 1 and 3" in text and re.search(r"^  Run 3", text, re.M)
    html = returning.to_html()
    assert "3 segments (k = 3) in 4 runs" in html and "Segment 1 · Run 3" in html
    for view in (text, html):
        assert not re.search(r"\btopics?\b", view, re.I), re.search(r".{40}\btopics?\b.{40}", view, re.I | re.S)


def test_a_note_about_fewer_labels_counts_segments():
    seg = small_segmentation((0, 0, 1, 1, 0, 1))
    seg.params["n_segments"] = 3
    assert seg.fewer_than_requested().startswith("2 segments for k = 3: ")


def test_the_decision_record_has_its_own_name():
    import bpseg_pgm.decisions as decisions
    from bpseg_pgm.structure.blocks import Structure

    with pytest.warns(FutureWarning, match="Structure is renamed StructureChoice"):
        assert decisions.Structure is decisions.StructureChoice
    assert decisions.StructureChoice is not Structure
