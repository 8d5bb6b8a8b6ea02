"""Counts and numbered lists in words, as the human-readable outputs write them."""

from __future__ import annotations

__all__ = ["numbered", "plural", "ranges"]


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an s unless n is 1: "1 segment", "3 topics"."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def numbered(word: str, indices: list[int]) -> str:
    """0-based ``indices`` named from 1: "segment 2", "segments 1 and 3", "segments 1, 4 and 6"."""
    names = [str(i + 1) for i in indices]
    return f"{word} {names[0]}" if len(names) == 1 else f"{word}s {', '.join(names[:-1])} and {names[-1]}"


def ranges(indices) -> str:
    """0-based ``indices`` named from 1, consecutive ones as ranges: "1-2, 4, 7-9, 12" (a long list of
    sentences stays one short line)."""
    out: list[str] = []
    values = sorted(int(i) + 1 for i in indices)
    start = prev = None
    for v in values + [None]:
        if start is not None and v == prev + 1:
            prev = v
            continue
        if start is not None:
            out.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = v
    return ", ".join(out)
