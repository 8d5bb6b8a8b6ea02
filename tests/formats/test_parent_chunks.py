"""The parents and the context in the chunks-jsonl and json formats (issue 52): the library's options for now."""

import json

import pytest
from small_segmentation import TEXT

from bpseg_pgm.formats import get_format
from bpseg_pgm.formats.chunks_jsonl import read_chunks_jsonl

CHUNKS = get_format("chunks-jsonl")
JSON = get_format("json")


def _lines(out):
    return [json.loads(line) for line in out.splitlines()]


def test_chunks_jsonl_writes_the_parents_first_then_their_children(seg):
    rows = _lines(CHUNKS.render(seg, parents=True))
    parents, chunks = seg.parent_chunks()
    assert [r["type"] for r in rows] == ["parent"] * 3 + ["chunk"] * 4
    assert rows[:3] == [{"type": "parent", "parent": j, **p.to_dict()} for j, p in enumerate(parents)]
    assert rows[3:] == [{"type": "chunk", "chunk": i, **c.to_dict()} for i, c in enumerate(chunks)]
    returning = rows[0]
    assert returning["segment"] == 0 and len(returning["spans"]) == 2  # segment 0 returns: two runs
    assert [TEXT[a:b] for a, b in returning["spans"]] == [
        "The app release is on Friday. Testers found two bugs.",
        "The release notes need a review.",
    ]
    assert [rows[3 + i]["parent"] for i in returning["children"]] == [0, 0]
    assert [r["parent"] for r in rows[3:]] == [0, 1, 0, 2]


def test_chunks_jsonl_round_trips_with_parents_and_context(seg):
    out = CHUNKS.render(seg, parents=True, context_sentences=1, max_tokens=9)
    assert read_chunks_jsonl(out) == seg.parent_chunks(9, context_sentences=1)
    rows = _lines(out)
    assert all(r["embed_text"] == r["context_before"] + r["text"] + r["context_after"] for r in rows[3:])
    assert any(r["context_before"] and r["context_after"] for r in rows[3:])
    assert read_chunks_jsonl(CHUNKS.render(seg)) == ([], seg.chunks())  # plain lines read back too


def test_without_parents_or_context_the_lines_are_the_plain_chunks(seg):
    plain = CHUNKS.render(seg, context_sentences=0)
    assert plain == CHUNKS.render(seg, parents=False, context_sentences=0)
    assert all(set(r) == {"chunk", *seg.chunks(context_sentences=0)[0].to_dict()} for r in _lines(plain))
    assert all("parent" not in r and "embed_text" not in r and "type" not in r for r in _lines(plain))
    default = _lines(CHUNKS.render(seg))  # the policy's context, one sentence a side
    assert default == _lines(CHUNKS.render(seg, context_sentences=1)) and all("embed_text" in r for r in default)
    assert JSON.render(seg) == JSON.render(seg, parents=False) == seg.to_json() + "\n"


def test_context_without_parents_only_in_chunks_jsonl(seg):
    rows = _lines(CHUNKS.render(seg, context_sentences=1))
    assert [r["chunk"] for r in rows] == [0, 1, 2, 3] and "parent" not in rows[0]
    assert rows[1]["context_before"] == "Testers found two bugs.\n\n" and rows[0]["context_before"] == ""


def test_json_with_parents_adds_them_and_their_chunks(seg):
    d = json.loads(JSON.render(seg, parents=True, context_sentences=1))
    parents, chunks = seg.parent_chunks(context_sentences=1)
    assert {k: v for k, v in d.items() if k not in ("parents", "chunks")} == json.loads(seg.to_json())
    assert d["parents"] == [{"parent": j, **p.to_dict()} for j, p in enumerate(parents)]
    assert d["chunks"] == [{"chunk": i, **c.to_dict()} for i, c in enumerate(chunks)]
    assert d["parents"][0]["spans"] == [[0, 53], [105, 137]]
    assert "beliefs" in json.loads(JSON.render(seg, parents=True, full_beliefs=True))


def test_bad_library_options_are_value_errors(seg):
    with pytest.raises(ValueError, match="parents must be True or False, got 'yes'"):
        CHUNKS.render(seg, parents="yes")
    with pytest.raises(ValueError, match="context_sentences must be an int >= 0"):
        CHUNKS.render(seg, context_sentences=-1)
    with pytest.raises(ValueError, match="parents must be True or False"):
        JSON.render(seg, parents=1)
    with pytest.raises(ValueError, match="writes only with parents"):
        JSON.render(seg, context_sentences=2)
    with pytest.raises(ValueError, match="the json format takes full_beliefs, parents, context_sentences, got indent"):
        JSON.render(seg, indent=2)
    with pytest.raises(ValueError, match="line 2: not a chunk's dict: no text"):
        read_chunks_jsonl(CHUNKS.render(seg).splitlines()[0] + '\n{"chunk": 1}\n')
    with pytest.raises(ValueError, match="line 1:"):
        read_chunks_jsonl("not json\n")


def test_both_formats_offer_them_to_the_command_line():
    assert [o.name for o in CHUNKS.options] == [
        "max_tokens",
        "min_tokens",
        "soft_cap",
        "whole_segments",
        "parents",
        "context_sentences",
    ]
    assert [o.name for o in JSON.options] == ["full_beliefs", "parents", "context_sentences"]
    assert CHUNKS.library_options == JSON.library_options == ()
