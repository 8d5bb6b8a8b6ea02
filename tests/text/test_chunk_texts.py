"""chunk_texts: any text, one embedding batch for all."""

from dataclasses import replace

import pytest

from bpseg_pgm.chunks import Chunk
from bpseg_pgm.text import chunk_texts

DOC = (
    "The sun was shining  brightly over the hills.\tIt was a beautiful morning for a walk.\n\n"
    "I'll play tennis tomorrow with my   friends.  The US Open is a famous tennis tournament.\r\n"
    "Serena won the US Open six times.\n\n\n\tThunder rumbled in the distance.  Dark clouds gathered\n"
    "over the valley. The rain poured down heavily all afternoon.\n\nWho is going to win the US Open this year?  "
)


def test_chunk_texts_takes_any_text_and_one_batch(embedder, monkeypatch):
    calls = []
    encode = embedder.encode
    monkeypatch.setattr(embedder, "encode", lambda s: calls.append(list(s)) or encode(s))
    texts = [DOC, "", "   \n", "Just one sentence here.", "Two sentences. Only two.", DOC[:120]]
    out = chunk_texts(texts, 40, embedder=embedder, potentials="paper", lam=0.12, n_segments=3)
    assert len(calls) == 1  # every text's sentences in one batch
    assert [len(c) > 0 for c in out] == [True, False, False, True, True, True]
    one = Chunk("Just one sentence here.", 0, 23, (0,), 0, 7, 1.0, ((0, 23),), 0, ("sentence",))
    assert out[3] == [replace(one, context_before="", context_after="")]  # the policy's context: no neighbour
    for text, chunks in zip(texts, out):
        for c in chunks:
            assert text[c.start : c.end] == c.text
    with pytest.raises(ValueError, match=r"texts\[1\]: text must be a str"):
        chunk_texts(["ok. ok.", 3], embedder=embedder)


def test_chunk_texts_lives_in_the_text_layer_only():
    import bpseg_pgm.chunks
    import bpseg_pgm.text

    assert bpseg_pgm.text.chunk_texts is chunk_texts
    assert not hasattr(bpseg_pgm.chunks, "chunk_texts")
