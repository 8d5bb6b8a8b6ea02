"""An embedder wrapper that records its calls, for the tests that one call embeds every text.

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
