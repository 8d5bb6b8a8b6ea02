"""The chunk options, checked in one place: the token caps, contiguous or whole segments, a token counter, the
context embedded with a chunk.

:func:`check_chunk_options` is what :func:`~bpseg_pgm.chunks.make_chunks`, ``chunk_texts``, the
adapters and ``bpseg segment --format chunks-jsonl`` check before any work; :func:`checked_token_counter`
wraps a user's ``count_tokens`` so that a bad count is a clear ``ValueError`` (pruning uses it too);
:func:`check_context_sentences` and :func:`check_parents` check ``context_sentences`` and ``parents``.
"""

from __future__ import annotations

import numbers
from typing import Any, Callable

import numpy as np

__all__ = ["TokenCounter", "check_chunk_options", "check_context_sentences", "check_parents", "checked_token_counter"]

#: A function from a list of str to their lengths in tokens.
TokenCounter = Callable[[list[str]], list[int]]


def _check_count(value: Any, name: str, smallest: int = 1) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < smallest:
        kind = "a positive int" if smallest == 1 else "an int >= 0"
        raise ValueError(f"{name} must be {kind} or None, got {value!r}")
    return int(value)


def check_chunk_options(max_tokens: Any, contiguous: Any, min_tokens: Any) -> tuple[int | None, int | None]:
    """``(max_tokens, min_tokens)`` as ints or None, or a ValueError: ``max_tokens`` a positive int or None,
    ``min_tokens`` an int >= 0 (0: no merging) or None (the default floor), ``contiguous`` True or False,
    a positive ``min_tokens`` only with ``contiguous`` and at most ``max_tokens``."""
    max_tokens = _check_count(max_tokens, "max_tokens")
    min_tokens = _check_count(min_tokens, "min_tokens", smallest=0)
    if not isinstance(contiguous, (bool, np.bool_)):
        raise ValueError(f"contiguous must be True or False, got {contiguous!r}")
    if min_tokens and not contiguous:
        raise ValueError("min_tokens merges neighbouring chunks, which needs contiguous=True")
    if min_tokens is not None and max_tokens is not None and min_tokens > max_tokens:
        raise ValueError(f"min_tokens ({min_tokens}) is larger than max_tokens ({max_tokens})")
    return max_tokens, min_tokens


def check_context_sentences(context_sentences: Any) -> int | None:
    """``context_sentences`` as an int, or None (the policy's, ``Policy.chunk_context_sentences``), or a
    ValueError: an int >= 0 (0: no context) or None.

    Parameters
    ----------
    context_sentences : int or None
        How many neighbouring sentences before and after each chunk are embedded with it.

    Returns
    -------
    int or None
        The same number, as a Python int; None as given.
    """
    if context_sentences is None:
        return None
    if (
        isinstance(context_sentences, bool)
        or not isinstance(context_sentences, numbers.Integral)
        or context_sentences < 0
    ):
        raise ValueError(
            f"context_sentences must be an int >= 0 (0: no context) or None (the policy's), got {context_sentences!r}"
        )
    return int(context_sentences)


def check_parents(parents: Any) -> bool:
    """``parents`` (whether the parent chunks are asked for) as a bool, or a ValueError: True or False."""
    if not isinstance(parents, (bool, np.bool_)):
        raise ValueError(f"parents must be True or False, got {parents!r}")
    return bool(parents)


def checked_token_counter(count_tokens: Any) -> TokenCounter:
    """``count_tokens`` wrapped so that anything but one non-negative int per text is a ValueError."""
    if not callable(count_tokens):
        raise ValueError(f"count_tokens must be a function from a list of str to a list of int, got {count_tokens!r}")

    def count(texts: list[str]) -> list[int]:
        out = list(count_tokens(texts))
        if len(out) != len(texts) or not all(
            isinstance(n, numbers.Integral) and not isinstance(n, bool) and n >= 0 for n in out
        ):
            raise ValueError("count_tokens must return one non-negative int per text")
        return [int(n) for n in out]

    return count
