"""Loader for Choi's (2000) synthetic segmentation corpus, pooled by range as in the BP-Seg paper.

The corpus lives outside the package (it has no licence), so it is located at run time:
an explicit ``data_dir``, else the ``BPSEG_CHOI_DIR`` environment variable, else a
``shared/data/choi`` folder found by walking up from the current directory and from this
file (the repository sits beside ``shared/``).

Layout: ``<set>/<range>/<n>.ref``, one tokenised sentence per line, each of the 10 segments
preceded by a ``==========`` line. Quirks handled (see ``SOURCE.txt``): blank or space-only
lines are dropped, and so are empty segments (two separators in a row, 14 files in set 4).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from bpseg_pgm.types.document import Document
from bpseg_pgm.utils.validation import check_limit

__all__ = [
    "CHOI_RANGES",
    "CHOI_SETS",
    "ENV_VAR",
    "WHERE_TO_GET",
    "ChoiDocument",
    "load_choi",
    "parse_choi_file",
    "resolve_data_dir",
]

ENV_VAR = "BPSEG_CHOI_DIR"
#: Where the corpus can be had (it is not shipped: no licence covers it), said when it is not found.
WHERE_TO_GET = (
    "get Choi's corpus from his resource package, e.g. the data/ folder of https://github.com/logological/C99 "
    "(<set>/<range>/<n>.ref)"
)
#: The six ranges reported in the paper's Table 1 (segment length in sentences).
CHOI_RANGES: tuple[str, ...] = ("3-5", "6-8", "9-11", "3-11", "3-15", "12-15")
#: The four experiment sets of Choi's resource package.
CHOI_SETS: tuple[int, ...] = (1, 2, 3, 4)
SEPARATOR = "=========="
_RELATIVE = Path("shared") / "data" / "choi"


class ChoiDocument(Document):
    """One Choi document, built as ``ChoiDocument(sentences, labels, set, range, path)``: a
    :class:`~bpseg_pgm.types.document.Document` with id ``<set>/<range>/<n>``, the sentences as
    units, one gold segment label per sentence (an integer array) and its origin in ``meta``."""

    def __init__(self, sentences, labels: np.ndarray, set: int, range: str, path: Path):
        path = Path(path)
        super().__init__(
            f"{set}/{range}/{path.stem}",
            units=tuple(sentences),
            labels=labels,
            meta={"set": set, "range": range, "path": path},
        )

    @property
    def set(self) -> int:
        """The Choi experiment set (1..4)."""
        return self.meta["set"]

    @property
    def range(self) -> str:
        """The segment-length range (``"3-5"``, ...)."""
        return self.meta["range"]

    @property
    def path(self) -> Path | None:
        """The ``.ref`` file (None for a document built from Choi segments, such as an interleaved one)."""
        return self.meta.get("path")


def _looks_like_choi(path: Path) -> bool:
    return path.is_dir() and any((path / str(s)).is_dir() for s in CHOI_SETS)


def _walk_up(start: Path) -> Iterable[Path]:
    start = start.resolve()
    yield start
    yield from start.parents


def resolve_data_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """Return the Choi data folder: ``data_dir``, else ``$BPSEG_CHOI_DIR``, else a found
    ``shared/data/choi``; ValueError when none is usable."""
    if data_dir is not None or os.environ.get(ENV_VAR):
        source = "data_dir" if data_dir is not None else f"${ENV_VAR}"
        path = Path(data_dir if data_dir is not None else os.environ[ENV_VAR]).expanduser()
        if not _looks_like_choi(path):
            raise ValueError(
                f"{source}={str(path)!r} is not a Choi data folder (expected set folders 1..4): {WHERE_TO_GET}"
            )
        return path
    for start in (Path.cwd(), Path(__file__).parent):
        for parent in _walk_up(start):
            candidate = parent / _RELATIVE
            if _looks_like_choi(candidate):
                return candidate
    raise ValueError(
        f"Choi data not found (no {_RELATIVE} above the current folder or the package): {WHERE_TO_GET}; then set "
        f"${ENV_VAR} to its folder or pass it (--data DIR, data_dir=)"
    )


def parse_choi_file(path: str | os.PathLike) -> tuple[list[str], np.ndarray]:
    """Parse one ``.ref`` file into (sentences, labels); blank lines and empty segments dropped."""
    path = Path(path)
    text = path.read_text(encoding="latin-1")
    segments: list[list[str]] = []
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if line == SEPARATOR:
            if current:
                segments.append(current)
            current = []
            continue
        if not line:
            continue
        if current is None:
            raise ValueError(f"{path}: text before the first {SEPARATOR!r} separator")
        current.append(line)
    if current:
        segments.append(current)
    if not segments:
        raise ValueError(f"{path}: no sentences")
    sentences = [s for seg in segments for s in seg]
    labels = np.repeat(np.arange(len(segments)), [len(seg) for seg in segments])
    return sentences, labels


def _check_selection(sets, ranges) -> tuple[tuple[int, ...], tuple[str, ...]]:
    sets = CHOI_SETS if sets is None else tuple(sets)
    ranges = CHOI_RANGES if ranges is None else tuple(ranges)
    bad_sets = [s for s in sets if isinstance(s, bool) or s not in CHOI_SETS]
    if bad_sets:
        raise ValueError(f"unknown Choi set(s) {bad_sets}; choose from {list(CHOI_SETS)}")
    bad_ranges = [r for r in ranges if r not in CHOI_RANGES]
    if bad_ranges:
        raise ValueError(f"unknown Choi range(s) {bad_ranges}; choose from {list(CHOI_RANGES)}")
    if not sets or not ranges:
        raise ValueError("empty selection of Choi sets or ranges")
    return sets, ranges


def load_choi(
    data_dir: str | os.PathLike | None = None,
    sets: Iterable[int] | None = None,
    ranges: Iterable[str] | None = None,
    limit: int | None = None,
) -> list[ChoiDocument]:
    """Load Choi documents for the given sets (1..4) and ranges (the paper's six).

    A range pools the folders of that name across the chosen sets, as is usual: 3-11 is
    sets 1-3 (400 documents), 3-5 / 6-8 / 9-11 are sets 1, 2, 4 (130 each), 3-15 and 12-15
    are set 4 only. ``limit`` keeps at most that many documents per ``<set>/<range>`` folder
    (in numeric file order), so a small run still covers every chosen folder. Documents are
    ordered by range (paper order), then set, then file number. Raises ValueError for an
    unknown set or range, a bad limit, or a selection with no documents.
    """
    sets, ranges = _check_selection(sets, ranges)
    check_limit(limit)
    root = resolve_data_dir(data_dir)
    docs: list[ChoiDocument] = []
    for rng in ranges:
        for s in sets:
            folder = root / str(s) / rng
            if not folder.is_dir():
                continue
            files = sorted((p for p in folder.glob("*.ref") if p.stem.isdigit()), key=lambda p: int(p.stem))
            for path in files[:limit]:
                sentences, labels = parse_choi_file(path)
                docs.append(ChoiDocument(tuple(sentences), labels, s, rng, path))
    if not docs:
        raise ValueError(f"no Choi documents for sets {list(sets)} and ranges {list(ranges)} under {root}")
    empty = [s for s in sets if not any(d.set == s for d in docs)]
    if empty:  # say so rather than drop a requested set silently
        held = {
            s: sorted(p.name for p in (root / str(s)).iterdir() if p.is_dir())
            for s in empty
            if (root / str(s)).is_dir()
        }
        what = "; ".join(f"set {s} holds only {', '.join(held.get(s, [])) or 'nothing'}" for s in empty)
        raise ValueError(f"Choi set(s) {empty} have no documents in ranges {list(ranges)} ({what})")
    return docs
