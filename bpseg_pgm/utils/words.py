"""Counts and numbered lists in words, as the human-readable outputs write them."""

from __future__ import annotations

__all__ = ["numbered", "plural"]


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an s unless n is 1: "1 segment", "3 topics"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def numbered(word: str, indices: list[int]) -> str:
    """0-based ``indices`` named from 1: "segment 2", "segments 1 and 3", "segments 1, 4 and 6"."""
    names = [str(i + 1) for i in indices]
    return f"{word} {names[0]}" if len(names) == 1 else f"{word}s {', '.join(names[:-1])} and {names[-1]}"
