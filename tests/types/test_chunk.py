"""Chunk and ParentChunk (issue 52): the dicts they write and read back, and a chunk's embedded text."""

import json

import pytest

from bpseg_pgm.types import Chunk, ParentChunk

#: The keys a chunk always wrote: a chunk made without parents or context still writes exactly these.
KEYS = ["start", "end", "text", "sentences", "segment", "n_tokens", "confidence", "spans", "run", "keywords"]
KEYS.append("heading_path")

CHUNK = Chunk("Rain fell.", 12, 22, (1,), 0, 5, 0.75, ((12, 22),), run=2, keywords=("rain",), heading_path=("H",))
PARENT = ParentChunk(
    "Sun.\n\nRain fell.", 0, 22, ((0, 4), (12, 22)), 0, (0, 2), (0, 1), 9, 0.8, keywords=("rain",), heading_path=("H",)
)


def test_a_plain_chunk_writes_the_keys_it_always_did():
    assert list(CHUNK.to_dict()) == KEYS
    assert CHUNK.parent is None and CHUNK.context_before is None and CHUNK.embed_text == CHUNK.text


def test_parent_and_context_are_written_only_when_set():
    d = Chunk(**{**CHUNK.__dict__, "parent": 3}).to_dict()
    assert list(d) == [*KEYS, "parent"] and d["parent"] == 3
    ctx = Chunk(**{**CHUNK.__dict__, "context_before": "Sun. ", "context_after": ""})
    assert ctx.embed_text == "Sun. Rain fell."
    d = ctx.to_dict()
    assert list(d) == [*KEYS, "context_before", "context_after", "embed_text"]
    assert (d["context_before"], d["context_after"], d["embed_text"]) == ("Sun. ", "", "Sun. Rain fell.")


@pytest.mark.parametrize(
    "chunk",
    [CHUNK, Chunk(**{**CHUNK.__dict__, "parent": 1, "context_before": "a ", "context_after": " b", "run": None})],
)
def test_a_chunk_round_trips_through_json(chunk):
    d = json.loads(json.dumps({"chunk": 7, **chunk.to_dict()}))
    assert Chunk.from_dict(d) == chunk


def test_a_parent_round_trips_through_json():
    d = PARENT.to_dict()
    assert d["spans"] == [[0, 4], [12, 22]] and d["children"] == [0, 2]
    assert ParentChunk.from_dict(json.loads(json.dumps({"type": "parent", "parent": 0, **d}))) == PARENT
    assert not PARENT.contiguous and ParentChunk(**{**PARENT.__dict__, "spans": ((0, 22),)}).contiguous


def test_a_dict_missing_a_key_is_a_value_error_naming_it():
    d = CHUNK.to_dict()
    del d["spans"]
    with pytest.raises(ValueError, match="not a chunk's dict: no spans"):
        Chunk.from_dict(d)
    d = PARENT.to_dict()
    del d["children"], d["text"]
    with pytest.raises(ValueError, match="not a parent chunk's dict: no children"):
        ParentChunk.from_dict(d)
    with pytest.raises(ValueError, match="must be read from a dict, got list"):
        Chunk.from_dict([1, 2])
