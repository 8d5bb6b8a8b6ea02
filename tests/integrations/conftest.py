"""The adapter tests' texts, and an embedder that records its calls (the session's ``embedder`` is in tests/conftest.py)."""

import pytest
from recording import Recording


@pytest.fixture
def recording(embedder):
    return Recording(embedder)


MESSY = (
    "The sun was shining  brightly over the hills.\tIt was a beautiful morning for a walk.\n\n"
    "I'll play tennis tomorrow with my   friends.  The US Open is a famous tennis tournament.\r\n"
    "Serena won the US Open six times.\n\n\n\tThunder rumbled in the distance.  Dark clouds gathered\n"
    "over the valley. The rain poured down heavily all afternoon.\n\nWho is going to win the US Open this year?  "
)
OTHER = (
    "Stocks fell sharply on Monday.\tInvestors were nervous about inflation.\n\n"
    "The central bank held rates steady.  Bond yields rose slightly."
)
REPEATED = "  ".join(["Rain fell again today."] * 4)  # chunk 2's text also starts at character 24
PAPER = {"potentials": "paper", "lam": 0.12, "init": "farthest"}
