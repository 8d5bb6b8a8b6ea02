"""Context in the representation: each unit embedded with its neighbours (``Embedder(context=...)``).

A short turn ("Okay.") or a sentence that continues the one before it says little alone. Three ways to let the
neighbours in, all off by default (docs/howto/embeddings.md, "Context"): ``"window"`` (unit ``i`` embedded as the text
of units ``i-w .. i+w``), ``"late"`` (late chunking: one pass over a block of consecutive units, each unit's vector
the mean of its own output tokens; PyTorch only) and ``"mix"`` (``(1 - a) e_i + a mean(e_{i-w..i+w})``, renormalised).
A unit is always kept whole (up to the model's ``max_seq_length``); its neighbours share what is left, nearest first.

The functions here are pure; :class:`~bpseg_pgm.embeddings.embedder.Embedder` runs the model and the cache around
them.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

__all__ = [
    "CONTEXTS",
    "Block",
    "check_context",
    "context_model_id",
    "mix_window",
    "plan_blocks",
    "pool_spans",
    "share_budget",
    "trim",
    "window_texts",
]

#: The values of ``Embedder(context=...)`` besides None (off).
CONTEXTS = ("window", "late", "mix")

Offsets = Sequence[tuple[int, int]]


def check_context(context, window, weight) -> tuple[str | None, int, float]:
    """``(context, window, weight)`` checked: context None or one of :data:`CONTEXTS`, window an int >= 0,
    weight a number in (0, 1]; context None when the window is 0 (a unit alone is the plain embedding)."""
    if context is not None and context not in CONTEXTS:
        raise ValueError(f"context must be None, 'window', 'late' or 'mix', got {context!r}")
    if isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 0:
        raise ValueError(f"context_window must be an int >= 0 (neighbours on each side), got {window!r}")
    if isinstance(weight, bool) or not isinstance(weight, (int, float, np.integer, np.floating)):
        raise ValueError(f"context_weight must be a number in (0, 1], got {weight!r}")
    if not 0.0 < float(weight) <= 1.0:  # NaN fails too
        raise ValueError(f"context_weight must be a number in (0, 1], got {weight!r}")
    window = int(window)
    return (None if window == 0 else context), window, float(weight)


def context_model_id(model_id: str, context: str | None, window: int, weight: float) -> str:
    """The cache key of an embedder with context: the plain model id when it is off, else the id with
    ``|context=<kind>:<window>`` (``:<weight>`` for ``"mix"``) appended, so that no context vector is ever
    read as a plain one, nor one window's as another's."""
    if context is None:
        return model_id
    tag = f"{context}:{window}" + (f":{weight:g}" if context == "mix" else "")
    return f"{model_id}|context={tag}"


def share_budget(left: Sequence[int], right: Sequence[int], budget: int) -> tuple[list[int], list[int]]:
    """Tokens each neighbour keeps within ``budget``: nearest first (``left[0]`` and ``right[0]`` are the
    nearest), the two at one distance sharing evenly what is left when both do not fit."""
    keep_l, keep_r = [0] * len(left), [0] * len(right)
    budget = max(0, int(budget))
    for d in range(max(len(left), len(right))):
        if budget == 0:
            break
        a = left[d] if d < len(left) else 0
        b = right[d] if d < len(right) else 0
        if a + b <= budget:
            ta, tb = a, b
        else:
            ta = min(a, budget // 2)
            tb = min(b, budget - ta)
            ta = min(a, budget - tb)
        if d < len(left):
            keep_l[d] = ta
        if d < len(right):
            keep_r[d] = tb
        budget -= ta + tb
    return keep_l, keep_r


def trim(text: str, offsets: Offsets, keep: int, side: str) -> str:
    """``text`` cut to its first (``side="head"``) or last (``"tail"``) ``keep`` tokens, by their offsets."""
    if keep >= len(offsets):
        return text
    if keep <= 0:
        return ""
    if side == "head":
        return text[: offsets[keep - 1][1]]
    return text[offsets[len(offsets) - keep][0] :]


def _neighbours(i: int, n: int, lo: int, hi: int, w: int) -> tuple[list[int], list[int]]:
    """Up to ``w`` indices before ``lo`` and from ``hi`` on, nearest first, within ``0 .. n-1``."""
    return list(range(lo - 1, max(0, lo - w) - 1, -1)), list(range(hi, min(n, hi + w)))


def window_texts(texts: Sequence[str], offsets: Sequence[Offsets], w: int, budget: int) -> list[str]:
    """The text each unit is embedded as in ``"window"`` mode: units ``i-w .. i+w`` joined by spaces, the unit
    whole and its neighbours trimmed to the ``budget`` tokens left (:func:`share_budget`)."""
    n, counts = len(texts), [len(o) for o in offsets]
    out = []
    for i in range(n):
        left, right = _neighbours(i, n, i, i + 1, w)
        kl, kr = share_budget([counts[j] for j in left], [counts[j] for j in right], budget - counts[i])
        pieces = [trim(texts[j], offsets[j], k, "tail") for j, k in zip(left[::-1], kl[::-1])]
        pieces.append(texts[i])
        pieces += [trim(texts[j], offsets[j], k, "head") for j, k in zip(right, kr)]
        out.append(" ".join(p for p in pieces if p))
    return out


class Block(NamedTuple):
    """One pass of the model in ``"late"`` mode: its text, and ``(unit, start, end)`` for each core unit
    (the characters of ``text`` that are that unit's; the margins around the core are context only)."""

    text: str
    spans: list[tuple[int, int, int]]


def plan_blocks(texts: Sequence[str], offsets: Sequence[Offsets], w: int, budget: int) -> list[Block]:
    """Cut a document into blocks for late chunking: each block a core of consecutive units (as many as fit in
    ``budget`` tokens with ``w`` whole units on each side) and those ``w`` units as margins; when even one unit
    and its margins do not fit, the margins are trimmed (:func:`share_budget`).  Every unit is in exactly one
    core, so it sees at least ``w`` neighbours on each side where the document has them."""
    n, counts = len(texts), [len(o) for o in offsets]
    blocks = []
    s = 0
    while s < n:
        left_full = sum(counts[max(0, s - w) : s])
        e, core = s + 1, counts[s]
        while e < n and core + counts[e] + left_full + sum(counts[e + 1 : e + 1 + w]) <= budget:
            core += counts[e]
            e += 1
        left, right = _neighbours(s, n, s, e, w)
        kl, kr = share_budget([counts[j] for j in left], [counts[j] for j in right], budget - core)
        parts: list[str] = []
        spans = []
        pos = 0

        def add(piece: str) -> int:
            nonlocal pos
            if parts:
                pos += 1  # the joining space
            start = pos
            parts.append(piece)
            pos += len(piece)
            return start

        for j, k in zip(left[::-1], kl[::-1]):
            piece = trim(texts[j], offsets[j], k, "tail")
            if piece:
                add(piece)
        for i in range(s, e):
            if texts[i]:
                start = add(texts[i])
                spans.append((i, start, start + len(texts[i])))
            else:
                spans.append((i, pos, pos))  # no tokens of its own: the caller embeds it alone
        for j, k in zip(right, kr):
            piece = trim(texts[j], offsets[j], k, "head")
            if piece:
                add(piece)
        blocks.append(Block(" ".join(parts), spans))
        s = e
    return blocks


def pool_spans(
    tokens: np.ndarray, token_offsets: Offsets, special: Sequence[int], spans: Sequence[tuple[int, int, int]]
) -> list[np.ndarray | None]:
    """The mean of the token vectors ``tokens`` (one row per token) whose characters lie in each span
    (``(unit, start, end)``; special tokens left out): one vector per span, None where no token falls in it."""
    starts = np.array([a for a, _ in token_offsets], dtype=np.float64)
    ends = np.array([b for _, b in token_offsets], dtype=np.float64)
    mid = (starts + ends) / 2
    real = (np.asarray(special) == 0) & (ends > starts)
    out: list[np.ndarray | None] = []
    for _, a, b in spans:
        rows = np.flatnonzero(real & (mid >= a) & (mid < b))
        out.append(tokens[rows].mean(axis=0) if rows.size else None)
    return out


def mix_window(X: np.ndarray, w: int, weight: float) -> np.ndarray:
    """``"mix"`` mode on one document's plain embeddings ``X``: ``(1 - weight) X[i] + weight * mean(X[i-w ..
    i+w])`` (the window clipped at the document's ends), rows renormalised, float32."""
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    csum = np.vstack([np.zeros((1, X.shape[1])), np.cumsum(X, axis=0)])
    lo = np.clip(np.arange(n) - w, 0, n)
    hi = np.clip(np.arange(n) + w + 1, 0, n)
    mean = (csum[hi] - csum[lo]) / (hi - lo)[:, None]
    out = (1.0 - weight) * X + weight * mean
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    out = np.where(norms > 0, out / np.where(norms > 0, norms, 1.0), X)  # a window that cancels out: the unit's own
    return out.astype(np.float32)
