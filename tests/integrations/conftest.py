"""One embedder (one model load) for the adapter tests, with a private cache."""

import pytest

from bpseg_pgm.text.embeddings import Embedder


@pytest.fixture(scope="session")
def embedder(tmp_path_factory):
    return Embedder(cache_dir=tmp_path_factory.mktemp("bpseg_cache"), show_progress=False)


class Recording:
    """Wraps an embedder and records every encode call (to check that one call embeds every text)."""

    def __init__(self, inner):
        self.inner, self.calls = inner, []
        self.model_name = inner.model_name

    def encode(self, sentences):
        self.calls.append(list(sentences))
        return self.inner.encode(sentences)

    def count_tokens(self, texts):
        return self.inner.count_tokens(texts)


@pytest.fixture
def recording(embedder):
    return Recording(embedder)


MESSY = (
    "The sun was shining  brightly over the hills.\tIt was a beautiful morning for a walk.\n\n"
    "I'll play tennis tomorrow with my   friends.  The US Open is a famous tennis tournament.\r\n"
    "Serena won the US Open six times.\n\n\n\tThunder rumbled in the distance.  Dark clouds gathered\n"
    "over the valley. The rain poured down heavily all afternoon.\n\nWho is going to win the US Open this year?  "
)
OTHER = ("Stocks fell sharply on Monday.\tInvestors were nervous about inflation.\n\n"
         "The central bank held rates steady.  Bond yields rose slightly.")
REPEATED = "  ".join(["Rain fell again today."] * 4)  # chunk 2's text also starts at character 24
PAPER = {"potentials": "paper", "lam": 0.12, "init": "farthest"}
