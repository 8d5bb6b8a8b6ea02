"""The json format: the segmentation's own JSON and a newline."""

import json

import pytest

from bpseg_pgm.formats import get_format


def test_json_is_the_segmentations_json_on_its_own_line(seg):
    out = get_format("json").render(seg, source="notes.txt")
    assert out == seg.to_json() + "\n"
    assert json.loads(out)["labels"] == seg.labels.tolist()
    assert get_format("json").suffix == ".json"


def test_json_takes_no_options(seg):
    with pytest.raises(ValueError, match="the json format takes no options, got max_tokens"):
        get_format("json").render(seg, max_tokens=5)
