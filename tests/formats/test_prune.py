"""The formats of bpseg prune: the kept text, or the PruneResult's JSON."""

import json

import numpy as np
import pytest

from bpseg_pgm.formats import format_names, get_format
from bpseg_pgm.pruning import PruneResult


def _result(text="The office moves in May."):
    kept = (2,) if text else ()
    return PruneResult(
        query="office",
        kept=kept,
        spans=((0, len(text)),) if text else (),
        runs=((0, len(text)),) if text else (),
        text=text,
        source=text,
        units=("a", "b", text),
        scores=np.array([0.1, 0.2, 0.9]),
        segments=((0, 3),),
        segment_scores=np.array([0.5]),
        cost_unit="words",
        limit=5.0,
        used=len(text.split()),
        total=12,
    )


def test_prune_formats_in_order():
    assert format_names("prune") == ("text", "json")
    assert get_format("text", "prune").kind == "prune" and get_format("text").kind == "segmentation"


@pytest.mark.parametrize("text, expected", [("The office moves in May.", "The office moves in May.\n"), ("", "")])
def test_text_is_the_kept_text_and_a_newline_unless_empty(text, expected):
    assert get_format("text", "prune").render(_result(text), source="notes.txt") == expected


def test_json_is_the_results_json_on_its_own_line():
    result = _result()
    out = get_format("json", "prune").render(result)
    assert out == result.to_json() + "\n" and json.loads(out)["kept"] == [2]
