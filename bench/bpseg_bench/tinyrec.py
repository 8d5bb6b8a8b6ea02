"""Loader for TinyRec (Gklezakos et al., TreeSeg, 2024): meeting-like transcripts with two annotation levels.

Each line of ``dev.jsonl`` is one self-recorded transcript, one utterance a unit::

    {"id": "49ad30d4-...", "units": ["Everyone.", "So my update for this week, ...", ...],
     "coarse": [0, 0, ...], "fine": [0, 0, ...]}

``coarse`` and ``fine`` are contiguous segment ids per unit (0..k-1); the gold labels are one of them (``level``),
every unit labelled, and ``meta`` keeps the ``level`` and the other annotation. The fine segments nearly nest in
the coarse ones: in the 547-utterance transcript (``7d92ff8b-...``) one fine segment (15) straddles a coarse
boundary (at unit 287).

The data lives outside the package: ``data_dir``, else ``$BPSEG_TINYREC_DIR``, else a ``shared/data/tinyrec``
folder above the working directory or this file. Only the dev split (5 transcripts) is used; the test split is
kept out on purpose, as an unseen test: it is never fetched or rebuilt.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from pathlib import Path

from bpseg_bench.corpus import LabelledDocument
from bpseg_bench.jsonl_data import find_data_dir, int_list, read_records, split_files
from bpseg_pgm.utils.validation import check_str_list

__all__ = ["TINYREC_LEVELS", "TINYREC_SPLITS", "WHERE_TO_GET", "load_tinyrec", "parse_recording", "resolve_tinyrec_dir"]

ENV_VAR = "BPSEG_TINYREC_DIR"
#: Where the data can be had (it is not shipped), said when it is not found.
WHERE_TO_GET = (
    "get TinyRec's dev transcripts (Apache-2.0) from datasets/augmend of https://github.com/AugmendTech/treeseg, "
    'one a line as {"id", "units", "coarse", "fine"} in dev.jsonl (see bpseg_bench.tinyrec)'
)
TINYREC_SPLITS = ("dev",)
TINYREC_LEVELS = ("coarse", "fine")
_RELATIVE = Path("shared") / "data" / "tinyrec"
_KEYS = ("units", "coarse", "fine")


def resolve_tinyrec_dir(data_dir: str | os.PathLike | None = None) -> Path:
    """The TinyRec folder (holding ``dev.jsonl``); ValueError when none is found."""
    return find_data_dir(data_dir, ENV_VAR, _RELATIVE, TINYREC_SPLITS, "TinyRec", WHERE_TO_GET)


def parse_recording(obj: dict, doc_id: str, level: str = "coarse", where: str | None = None) -> LabelledDocument:
    """One TinyRec record as a LabelledDocument: one unit per utterance, gold = its ``level`` segment;
    ValueError naming ``where`` on a malformed record."""
    where = where or doc_id
    try:
        units = check_str_list(obj["units"], "'units'", item="unit")
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    levels = {name: int_list(obj[name], len(units), name, where) for name in TINYREC_LEVELS}
    other = next(name for name in TINYREC_LEVELS if name != level)
    return LabelledDocument(doc_id, tuple(units), tuple(levels[level]), {"level": level, other: levels[other]})


def load_tinyrec(
    data_dir: str | os.PathLike | None = None,
    splits: Iterable[str] = ("dev",),
    limit: int | None = None,
    level: str = "coarse",
) -> list[LabelledDocument]:
    """Transcripts of the given splits (only ``"dev"``), sorted by id, gold at ``level`` (``"coarse"`` or
    ``"fine"``); transcripts of fewer than two units are skipped, and ``limit`` counts the documents kept."""
    root = functools.partial(resolve_tinyrec_dir, data_dir)
    docs = []
    for split, path in split_files(root, splits, TINYREC_SPLITS, level, TINYREC_LEVELS, limit, "TinyRec"):
        kept = []
        for obj in sorted(read_records(path, _KEYS), key=lambda o: o["id"]):
            doc = parse_recording(obj, f"tinyrec/{split}/{obj['id']}", level, where=f"{path} id {obj['id']}")
            if len(doc) >= 2:
                kept.append(doc)
            if limit is not None and len(kept) == limit:
                break
        docs.extend(kept)
    return docs
