"""The output of ``segment_corpus``: a folder of Parquet parts that is readable at every moment.

``OUT.parquet`` is a folder (a Parquet *dataset*, as Dask and Spark write them) holding

* ``_bpseg_corpus.lock``: present while a run writes into the folder, which holds an exclusive ``flock`` on it,
  so a second run on the same folder refuses at once (the kernel releases it when the run ends or is killed);
* ``_bpseg_corpus.json``: the settings the rows were made with; a rerun with other settings is refused;
* ``part-*.parquet``: one file per finished task, written to a hidden temporary file and renamed into place; the
  first part, written when the folder is created, is empty and only carries the schema.

Every reader of Parquet datasets reads the folder as one table (files starting with ``.`` or ``_`` are skipped).
Each document's rows live in exactly one part, so a rerun skips the documents already there
(docs/howto/corpus.md, "Resuming, and one run per output").
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bpseg_pgm.corpus.rows import schema, to_table

__all__ = ["CorpusStore", "LOCK_FILE", "SETTINGS_FILE"]

SETTINGS_FILE = "_bpseg_corpus.json"
LOCK_FILE = "_bpseg_corpus.lock"
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
        self._lock_fd: int | None = None

    @classmethod
    def open(cls, out: str | os.PathLike, settings: dict[str, Any], normalize_params=None) -> "CorpusStore":
        """Check ``out`` (a new path, or a folder this function made with the same settings), create and lock it.

        Refused with a ValueError naming ``out``: an existing file, a folder that is not a ``segment_corpus`` output,
        one made with other settings, a missing parent folder, a folder that cannot be written, one that another run
        is writing into. The store holds the folder's lock until :meth:`close`. ``normalize_params``: applied to the
        ``params`` read back before they are compared.
        """
        from bpseg_pgm.io.output import plan_output

        if isinstance(out, bool) or not isinstance(out, (str, os.PathLike)) or not os.fspath(out):
            raise ValueError(f"output must be a folder path, got {out!r}")
        name = os.fspath(out)
        path = Path(name)
        settings = json.loads(json.dumps({"format": _FORMAT, **settings}))  # plain JSON values, as read back
        created = False
        if not path.is_dir():
            if path.exists() or path.is_symlink():
                raise ValueError(f"{name} exists and is not a folder; bpseg corpus writes a folder of Parquet parts")
            plan_output(name)  # the parent exists and is writable: say so now, naming the user's path
            try:
                path.mkdir()
                created = True
            except FileExistsError:
                pass  # another run made it meanwhile: checked below, like any existing folder
            except OSError as exc:
                raise ValueError(f"cannot create {name}: {exc.strerror or exc}") from None
        store = cls(path, name)
        try:
            store._check_foreign(locked=False)
            _check_writable(path, name)
            store._lock()
            store.created = created  # may be removed again if nothing is written: only once it is ours
            store._check_foreign()  # again, now that no other run can change it
            marker = path / SETTINGS_FILE
            if marker.is_file():
                try:
                    old = json.loads(marker.read_text("utf-8"))
                except (OSError, ValueError) as exc:
                    raise ValueError(f"{name}: cannot read {SETTINGS_FILE}: {exc}") from None
                if normalize_params is not None and isinstance(old, dict) and isinstance(old.get("params"), dict):
                    old = {**old, "params": normalize_params(old["params"])}
                if old != settings:
                    raise ValueError(
                        f"{name} was written with other settings ({_differences(old, settings)}); "
                        "use another output folder, or delete this one to start again"
                    )
                store.done()  # readable, or say why not
                return store
            from bpseg_pgm.io.output import write_output

            write_output(marker, json.dumps(settings, indent=2, sort_keys=True) + "\n")
            store.created = True
            store.write_part(to_table([]), label="schema")
        except BaseException:
            if store._lock_fd is not None:
                store.discard_if_unused()
                store.close()
            elif created:
                with contextlib.suppress(OSError):
                    path.rmdir()  # only if still empty: another run may be filling it
            raise
        return store

    def _check_foreign(self, locked: bool = True) -> None:
        if (self.path / SETTINGS_FILE).is_file():
            return
        if not locked and (self.path / LOCK_FILE).exists():
            return  # another run may be writing its settings (a temporary file beside the lock): decided once locked
        # another run's write check is a file of ours too: it may be there for an instant
        if any(child.name != LOCK_FILE and not child.name.startswith(_PROBE_PREFIX) for child in self.path.iterdir()):
            raise ValueError(
                f"{self.name} is a folder that is not a bpseg corpus output (no {SETTINGS_FILE}); "
                "refusing to write into it"
            )

    def _lock(self) -> None:
        """Take the folder's lock (``flock`` on :data:`LOCK_FILE`), or a ValueError naming the run that holds it."""
        import fcntl

        lock = self.path / LOCK_FILE
        for _ in range(20):
            try:
                fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            except OSError as exc:
                raise ValueError(
                    f"cannot write {self.name}: cannot create {LOCK_FILE}: {exc.strerror or exc}"
                ) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                try:  # the holder writes who it is just after taking the lock: wait a moment for it
                    for _ in range(10):
                        holder = " ".join(os.pread(fd, 4096, 0).decode("utf-8", "replace").split())
                        if holder:
                            break
                        time.sleep(0.05)
                finally:
                    os.close(fd)
                raise ValueError(
                    f"{self.name} is being written by another bpseg corpus run "
                    f"({holder or 'starting'}); wait for it to end, or use another output folder"
                ) from None
            except OSError as exc:
                os.close(fd)
                raise ValueError(f"cannot lock {self.name}/{LOCK_FILE}: {exc.strerror or exc}") from None
            try:  # the run before may have removed the file between our open and our lock: lock the file now there
                same = os.path.samestat(os.fstat(fd), os.stat(lock, follow_symlinks=False))
            except OSError:
                same = False
            if same:
                break
            os.close(fd)
        else:  # pragma: no cover - a folder whose lock file is replaced 20 times in a row
            raise ValueError(f"cannot lock {self.name}: {LOCK_FILE} keeps changing")
        info = (f"pid {os.getpid()} on {socket.gethostname()}, started {time.strftime('%Y-%m-%d %H:%M:%S')}\n").encode(
            "utf-8", "replace"
        )
        os.ftruncate(fd, 0)
        os.pwrite(fd, info, 0)
        self._lock_fd = fd

    def close(self) -> None:
        """Remove the lock file and release the lock (the next run may start); idempotent."""
        fd, self._lock_fd = self._lock_fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            (self.path / LOCK_FILE).unlink()  # while still held: a run waiting on it re-opens the new file
        os.close(fd)

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
            if child.name in (SETTINGS_FILE, LOCK_FILE) or (
                child.name.startswith("part-") and child.name.endswith("-schema.parquet")
            ):
                child.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self.path.rmdir()  # stays if anything else appeared in it meanwhile


_PROBE_PREFIX = ".bpseg-write-check-"


def _check_writable(path: Path, name: str) -> None:
    """A file can be created (and removed) in the folder ``path``: checked before any work, not at the first part."""
    if not os.access(path, os.W_OK | os.X_OK):  # as write_output checks it for every part
        raise ValueError(f"cannot write {name}: the folder is not writable")
    try:  # and the real test (read-only mounts, ACLs): a named file, as each part is before its rename
        fd, probe = tempfile.mkstemp(prefix=_PROBE_PREFIX, dir=path)
    except OSError as exc:
        raise ValueError(f"cannot write {name}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(probe)


def _differences(old: dict, new: dict) -> str:
    """``lam: 150 -> not given`` for each setting that differs (params one by one)."""

    def show(d, k):
        return json.dumps(d[k]) if k in d else "not given"

    out = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if key == "params" and isinstance(a, dict) and isinstance(b, dict):
            out += [
                f"{p}: {show(a, p)} before, {show(b, p)} now"
                for p in sorted(set(a) | set(b))
                if a.get(p) != b.get(p) or (p in a) != (p in b)
            ]
        else:
            out.append(f"{key}: {show(old, key)} before, {show(new, key)} now")
    return "; ".join(out)
