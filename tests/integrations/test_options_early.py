"""Issue 22: the adapters check every option at construction, before anything is embedded.

`BPSegTextSplitter(chunk_size=256)` and `BPSegNodeParser(chunk_size=20)` used to be accepted and then raise
a TypeError from BPSeg after the embedding step.  The frameworks' size options are refused at construction
with a ValueError pointing to max_tokens (LangChain's chunk_size counts characters by default; BP-Seg's
chunks never overlap); any other keyword that is not a BPSeg parameter is a ValueError naming it.
"""

import pytest
from recording import Exploding as _Exploding

from bpseg_pgm.integrations.langchain import BPSegTextSplitter
from bpseg_pgm.integrations.llama_index import BPSegNodeParser

ADAPTERS = [BPSegTextSplitter, BPSegNodeParser]
SIZE = [
    ({"chunk_size": 256}, "chunk_size"),
    ({"chunk_overlap": 20}, "chunk_overlap"),
    ({"length_function": len}, "length_function"),
]
BPSEG = [
    ({"lamda": 0.1}, r"unknown parameter 'lamda'.*did you mean 'lam'"),
    ({"engine": "nope"}, "engine"),
    ({"init": "bogus"}, "init must be one of"),
    ({"context": -1.0}, "context"),
    ({"n_segments": 0}, "n_segments must be a positive int"),
    ({"n_segments": "many"}, "n_segments"),
]


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("kwargs, name", SIZE)
def test_framework_size_options_are_refused_at_construction(adapter, kwargs, name):
    with pytest.raises(ValueError, match=rf"{adapter.__name__} does not take {name}: .*max_tokens"):
        adapter(embedder=_Exploding(), **kwargs)


@pytest.mark.parametrize("adapter", ADAPTERS)
@pytest.mark.parametrize("kwargs, match", BPSEG)
def test_bpseg_options_are_checked_at_construction(adapter, kwargs, match):
    with pytest.raises(ValueError, match=match):
        adapter(embedder=_Exploding(), **kwargs)
    if "n_segments" not in kwargs:  # in the deprecated dict too
        with pytest.raises(ValueError, match=match):
            adapter(embedder=_Exploding(), bpseg_params=kwargs)
