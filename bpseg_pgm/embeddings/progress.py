"""The embedding bar advanced at each forward pass of the model, from the same encode calls (the same vectors).

:class:`~bpseg_pgm.embeddings.Embedder` encodes ``batch_size * 8`` texts per call (then caches them); the model cuts
each call into batches of ``batch_size`` texts, sorted by length. Cutting the calls smaller would change the
batches, their padding and so the vectors' last bits; watching the model's forward passes does not.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["BatchProgress"]


class BatchProgress:
    """Advances an open tqdm ``bar`` at each forward pass of ``model`` (a batch of ``batch_size`` texts) instead of
    once per encode call: the calls stay as they were, so do their batches and the vectors.

    A torch model (sentence-transformers) is watched with a forward hook; an ONNX one
    (:class:`~bpseg_pgm.embeddings.onnx_backend.OnnxEncoder`) reports through its ``on_batch``. Around each encode
    call, :meth:`call` says how many texts it holds and how many units they count for on the bar (late chunking
    embeds blocks of several units), and :meth:`done` brings the bar to the call's end whatever the passes said (a
    model that is watched neither way moves the bar once per call, as before).
    """

    def __init__(self, model, bar):
        self.model, self.bar = model, bar
        self.start = self.end = self.texts = self.seen = 0
        self._hook = None

    def __enter__(self) -> BatchProgress:
        if not getattr(self.bar, "disable", False):
            if hasattr(self.model, "register_forward_hook"):  # a torch module: sentence-transformers
                self._hook = self.model.register_forward_hook(lambda module, args, out: self.passed(_rows(args)))
            elif hasattr(self.model, "on_batch"):  # OnnxEncoder
                self.model.on_batch = self.passed
        return self

    def __exit__(self, *exc) -> None:
        if self._hook is not None:
            self._hook.remove()
        elif hasattr(self.model, "on_batch"):
            self.model.on_batch = None

    def call(self, texts: int, units: int | None = None) -> None:
        """Before an encode call of ``texts`` texts, which count for ``units`` on the bar (default: ``texts``)."""
        self.start, self.texts, self.seen = self.end, texts, 0
        self.end += texts if units is None else units

    def passed(self, texts: int) -> None:
        """A forward pass of ``texts`` texts."""
        self.seen += texts
        self._reach(self.start + (self.end - self.start) * min(self.seen, self.texts) // max(self.texts, 1))

    def done(self) -> None:
        self._reach(self.end)

    def _reach(self, n: int) -> None:
        if n > self.bar.n:
            self.bar.update(n - self.bar.n)


def _rows(args) -> int:
    """The number of texts in a forward pass of a SentenceTransformer (0 when its features do not say)."""
    features = args[0] if args else None  # a dict, or transformers' BatchEncoding (a Mapping)
    ids = features.get("input_ids") if isinstance(features, Mapping) else None
    shape = getattr(ids, "shape", None)
    return int(shape[0]) if shape is not None and len(shape) else 0
