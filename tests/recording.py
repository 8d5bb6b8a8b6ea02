"""Embedder stand-ins for the tests: one that records its calls, one that must never be called.

pytest puts ``tests/`` on ``sys.path``, so test files import this module as ``recording``.
"""


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


class Exploding:
    """An embedder that fails the test if it is used: for checks that must refuse before embedding."""

    model_name = "exploding"

    def encode(self, sentences):
        raise AssertionError("input should have been rejected before embedding")

    def count_tokens(self, texts):
        raise AssertionError("input should have been rejected before counting tokens")
