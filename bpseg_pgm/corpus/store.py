"""The output of ``segment_corpus``: a folder of Parquet parts that is readable at every moment.

``OUT.parquet`` is a folder (a Parquet *dataset*, as Dask and Spark write them) holding

* ``_bpseg_corpus.json``: the settings the rows were made with (model and backend, k, BP-Seg
  parameters); a rerun with other settings is refused rather than mixing two segmentations;
* ``part-*.parquet``: one file per finished task, written to a hidden temporary file and
  renamed into place (:func:`bpseg_pgm.io.output.write_output`), so a part is either whole or
  absent; the first part, written when the folder is created, is empty and only carries the
  schema, so even a run stopped before its first task leaves a readable dataset.

Every reader of Parquet datasets reads the folder as one table (``pandas.read_parquet(OUT)``,
``pyarrow.parquet.read_table(OUT)``, ``duckdb``'s ``read_parquet('OUT/*.parquet')``); files
starting with ``.`` or ``_`` are not data and are skipped by all of them.  A rerun reads the
``doc`` column and skips the documents already there: each document's rows live in exactly
one part, so a document is either fully in OUT or not at all.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid
from pathlib import Path
from typing import Any

from bpseg_pgm.corpus.rows import schema, to_table

__all__ = ["CorpusStore", "SETTINGS_FILE"]

SETTINGS_FILE = "_bpseg_corpus.json"
_FORMAT = 1


def _table_bytes(table) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue().to_pybytes()


class CorpusStore:
    """An output folder: created or checked by :meth:`open`, then filled part by part."""

    def __init__(self, path: Path, name: str):
        self.path, self.name = path, name
        self._run = f"{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:12]}"  # unique: a part never replaces one
        self._parts = 0
        self.created = False  # made by this run (removed again by discard() if nothing was written)
        self.data_parts = 0

    @classmethod
    def open(cls, out: str | os.PathLike, settings: dict[str, Any]) -> "CorpusStore":
        """Check ``out`` (a new path, or a folder this function made with the same settings) and create it.

        Refused with a ValueError naming ``out``: an existing file, a folder that is not a
        ``segment_corpus`` output (it would be mixed with foreign files), one made with other
        settings, a parent folder that does not exist or cannot be written.
        """
        from bpseg_pgm.io.output import plan_output, write_output

        if isinstance(out, bool) or not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
            raise ValueError(f"output must be a folder path, got {out!r}")
        name = os.fspath(out)
        path = Path(name)
        settings = json.loads(json.dumps({"format": _FORMAT, **settings}))  # plain JSON values, as read back
        marker = path / SETTINGS_FILE
        if path.is_dir():
            if marker.is_file():
                try:
                    old = json.loads(marker.read_text("utf-8"))
                except (OSError, ValueError) as exc:
                    raise ValueError(f"{name}: cannot read {SETTINGS_FILE}: {exc}") from None
                if old != settings:
                    diff = sorted(k for k in set(old) | set(settings) if old.get(k) != settings.get(k))
                    raise ValueError(
                        f"{name} was written with other settings ({', '.join(diff)}); "
                        "use another output folder, or delete this one to start again")
                store = cls(path, name)
                store.done()  # readable, or say why not
                return store
            if any(path.iterdir()):
                raise ValueError(f"{name} is a folder that is not a bpseg corpus output (no {SETTINGS_FILE}); "
                                 "refusing to write into it")
        elif path.exists() or path.is_symlink():
            raise ValueError(f"{name} exists and is not a folder; bpseg corpus writes a folder of Parquet parts")
        else:
            plan_output(name)  # the parent exists and is writable: say so now, naming the user's path
            try:
                path.mkdir()
            except OSError as exc:
                raise ValueError(f"cannot create {name}: {exc.strerror or exc}") from None
        write_output(marker, json.dumps(settings, indent=2, sort_keys=True) + "\n")
        store = cls(path, name)
        store.created = True
        store.write_part(to_table([]), label="schema")
        return store

    def done(self) -> set[str]:
        """Ids of the documents already in the folder (segmented or recorded as failed)."""
        import pyarrow as pa
        import pyarrow.dataset as ds

        try:
            table = ds.dataset(self.path, format="parquet", schema=schema()).to_table(columns=["doc"])
        except (OSError, pa.ArrowException) as exc:
            raise ValueError(f"cannot read {self.name}: {' '.join(str(exc).split())}") from None
        return set(table.column("doc").unique().to_pylist())

    def write_part(self, table, label: str | None = None) -> Path:
        """Write one part atomically (a temporary file renamed into place); returns its path."""
        from bpseg_pgm.io.output import write_output

        self._parts += 1
        if label is None:
            self.data_parts += 1
        part = self.path / f"part-{self._run}-{self._parts:05d}{'-' + label if label else ''}.parquet"
        return write_output(part, _table_bytes(table))

    def discard_if_unused(self) -> None:
        """Remove the folder again if this run created it and wrote no rows into it (a run that failed early)."""
        if not self.created or self.data_parts:
            return
        for child in self.path.iterdir():
            if child.name == SETTINGS_FILE or (child.name.startswith("part-") and child.name.endswith("-schema.parquet")):
                child.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.path.rmdir()  # stays if anything else appeared in it meanwhile
