"""On-disk cache of sentence embeddings, keyed by (model identity, sentence text).

Embedding is the slow step, so every vector computed once is kept, in one SQLite file of raw little-endian float32
bytes: no pickle (loading never executes code), safe for several processes at once (WAL mode, busy timeout), read and
written in bulk (:meth:`EmbeddingCache.get_many`, :meth:`EmbeddingCache.put_many`). The text is stored as its SHA-256
digest; the model part of the key is :attr:`Embedder.model_id <bpseg_pgm.embeddings.embedder.Embedder.model_id>`
(with its backend and context), so a context vector is never read as a plain one, nor one context's as another's.

A cache only saves time, so it never makes a run fail:

* a corrupt file is moved aside as ``embeddings.sqlite3.corrupt-<time>-<pid>`` and a new one is started, with one
  :class:`CacheWarning`;
* a cache that cannot be written is still read where possible, new vectors are not stored, and one
  :class:`CacheWarning` says so;
* a row read back that is truncated, non-finite, zero, or whose checksum (:func:`row_checksum`) does not match is
  a miss, embedded again and overwritten: a check against damaged and foreign writes, not a signature
  (docs/howto/embeddings.md). A cache made before checksums gets them once, the first time it is opened.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import time
import warnings
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

__all__ = ["EmbeddingCache", "CacheWarning", "default_cache_dir", "row_checksum", "CACHE_FILENAME"]

CACHE_FILENAME = "embeddings.sqlite3"
_CHUNK = 500  # keys per SELECT; well under SQLite's bound-parameter limit
_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model    TEXT NOT NULL,
    key      BLOB NOT NULL,
    dim      INTEGER NOT NULL,
    vec      BLOB NOT NULL,
    checksum BLOB,
    UNIQUE (model, key)
)
"""  # a rowid table: vectors (1.5 kB) are appended, only the small index is keyed by hash
_SIDE_FILES = ("-wal", "-shm", "-journal")  # belong to the database file; move with it
_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
_READONLY_CODES = {sqlite3.SQLITE_READONLY}


class CacheWarning(UserWarning):
    """The embedding cache was rebuilt, or cannot be (fully) used; results are unaffected."""


def default_cache_dir() -> Path:
    """``$BPSEG_CACHE_DIR`` if set, else ``~/.cache/bpseg_pgm``."""
    env = os.environ.get("BPSEG_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "bpseg_pgm"


def _key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def row_checksum(model: str, key: bytes, dim: int, vec: bytes) -> bytes:
    """The checksum a row is stored with: BLAKE2b (16 bytes) of its model, key, dimension and vector bytes."""
    h = hashlib.blake2b(digest_size=16, person=b"bpseg-cache-v1")
    for part in (model.encode("utf-8", "surrogatepass"), key, str(int(dim)).encode("ascii"), vec):
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.digest()


def _code(exc: BaseException) -> int | None:
    code = getattr(exc, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF  # extended codes carry the primary one in the low byte


def _is_corrupt(exc: BaseException) -> bool:
    code = _code(exc)
    if code is not None:
        return code in _CORRUPT_CODES
    text = str(exc)
    return "malformed" in text or "not a database" in text


def _is_readonly(exc: BaseException) -> bool:
    code = _code(exc)
    return code in _READONLY_CODES if code is not None else "readonly" in str(exc)


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


@contextlib.contextmanager
def _heal_lock(directory: Path):
    """An exclusive lock on ``<cache>.lock`` in ``directory`` (POSIX ``flock``); a no-op where unavailable."""
    try:
        import fcntl
    except ImportError:  # not POSIX: healing is then only as safe as the inode check
        yield
        return
    try:
        fd = os.open(directory / (CACHE_FILENAME + ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _add_checksums(conn: sqlite3.Connection) -> None:
    """Give a cache made before checksums its ``checksum`` column and every row its checksum, once, in one
    transaction (so one process does it while the others wait); its rows are trusted as they are. A read-only
    cache is left as it is (the error, raised here, is handled as any write failure of the opening)."""
    if "checksum" in _columns(conn):
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if "checksum" not in _columns(conn):  # another process may have added it while this one waited
            conn.execute("ALTER TABLE embeddings ADD COLUMN checksum BLOB")
            rowids = [r[0] for r in conn.execute("SELECT rowid FROM embeddings").fetchall()]
            for start in range(0, len(rowids), _CHUNK):
                chunk = rowids[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT rowid, model, key, dim, vec FROM embeddings WHERE rowid IN ({marks})", chunk
                ).fetchall()
                conn.executemany(
                    "UPDATE embeddings SET checksum = ? WHERE rowid = ?",
                    [
                        (row_checksum(m, k, d, v), r)
                        for r, m, k, d, v in rows
                        if isinstance(m, str) and isinstance(k, bytes) and isinstance(d, int) and isinstance(v, bytes)
                    ],
                )
        conn.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise


def _columns(conn: sqlite3.Connection) -> set[str]:
    return {row[1] for row in conn.execute("PRAGMA table_info(embeddings)").fetchall()}


def valid_rows(vectors: np.ndarray) -> np.ndarray:
    """Mask of the rows of a 2-D float array that are usable embeddings: all finite, norm > 0."""
    with np.errstate(over="ignore", invalid="ignore"):
        finite = np.isfinite(vectors).all(axis=1)
        nonzero = np.einsum("ij,ij->i", vectors.astype(np.float64), vectors.astype(np.float64)) > 0
    return finite & nonzero


class EmbeddingCache:
    """SQLite store of float32 vectors; open with a directory, use as a context manager.

    ``usable`` is False when no cache could be opened (every lookup is a miss);
    ``writable`` is False when new vectors cannot be stored.
    """

    def __init__(self, cache_dir: str | os.PathLike | None = None):
        self.directory = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
        self.path = self.directory / CACHE_FILENAME
        self._conn: sqlite3.Connection | None = None
        self._inode: tuple[int, int] | None = None
        self._checked = True
        self.writable = False
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._warn(
                f"cannot create the embedding cache folder {self.directory} ({_why(exc)}); "
                "embeddings will not be cached (set BPSEG_CACHE_DIR to a writable directory)"
            )
            return
        self._open(heal=True)

    # -- opening, healing, degrading ------------------------------------------------------
    @staticmethod
    def _warn(message: str) -> None:
        warnings.warn(message, CacheWarning, stacklevel=4)

    def _open(self, heal: bool) -> None:
        """Connect, create the table, and find out whether the file can be written."""
        self._inode = _inode(self.path)
        try:
            conn = sqlite3.connect(self.path, timeout=60.0)
        except (OSError, sqlite3.Error) as exc:
            self._warn(
                f"cannot open the embedding cache {self.path} ({_why(exc)}); embeddings will not be "
                "cached (set BPSEG_CACHE_DIR to a writable directory)"
            )
            return
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            with conn:
                conn.execute(_SCHEMA)
            _add_checksums(conn)  # a cache made before checksums: they are added once
            # a write that changes nothing: fails now, not after the embedding, if the file is read-only
            # (BEGIN IMMEDIATE alone succeeds on a read-only WAL database)
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("DELETE FROM embeddings WHERE 0")
            conn.execute("ROLLBACK")
            self.writable = True
        except sqlite3.Error as exc:
            if _is_corrupt(exc):
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
                if heal and self._quarantine(exc):
                    self._open(heal=False)
                elif not heal:
                    self._warn(
                        f"the embedding cache {self.path} is unusable ({_why(exc)}); embeddings will not be cached"
                    )
                return
            if not self._readable(conn):
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
                self._warn(
                    f"cannot use the embedding cache {self.path} ({_why(exc)}); embeddings will not be "
                    "cached (set BPSEG_CACHE_DIR to a writable directory)"
                )
                return
            self._warn(
                f"the embedding cache {self.path} cannot be written ({_why(exc)}); cached embeddings are "
                "used but new ones are not stored (set BPSEG_CACHE_DIR to a writable directory)"
            )
        self._conn = conn
        # a read-only cache made before checksums cannot get them: its rows are read as they are
        self._checked = "checksum" in _columns(conn)
        if self._inode is None:
            self._inode = _inode(self.path)

    @staticmethod
    def _readable(conn: sqlite3.Connection) -> bool:
        with contextlib.suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.rollback()
            conn.execute("SELECT 1 FROM embeddings LIMIT 1").fetchall()
            return True
        return False

    def _quarantine(self, exc: BaseException) -> bool:
        """Move the corrupt file (and its -wal/-shm) aside; True if a new cache may be started."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()  # before moving: closing a WAL database deletes its -wal by name
            self._conn = None
        self.writable = False
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{os.getpid()}")
        # the check and the move are one step for every process sharing the folder: without the lock,
        # two processes that both saw the corrupt file could both move "it", the second one moving the
        # new cache the first had just started (and the rows written to it)
        with _heal_lock(self.directory):
            now = _inode(self.path)
            if now is None or (self._inode is not None and now != self._inode):
                # another process has already moved it aside (with its side files), and may be starting a
                # new cache at the path: its -wal may already hold rows, which must not be moved
                return True
            try:
                # side files first: once the main file has moved, another process may start a new cache
                # (and its -wal and -shm) at the same path, and those must stay
                for suffix in _SIDE_FILES:
                    with contextlib.suppress(FileNotFoundError):
                        os.replace(f"{self.path}{suffix}", f"{aside}{suffix}")
                if now is not None:
                    os.replace(self.path, aside)
                move_error = None
            except OSError as exc_move:
                move_error = exc_move
        if move_error is not None:
            self._warn(
                f"the embedding cache {self.path} is corrupt ({_why(exc)}) and cannot be moved aside "
                f"({_why(move_error)}); embeddings will not be cached"
            )
            return False
        self._warn(
            f"the embedding cache {self.path} was corrupt ({_why(exc)}); moved it to {aside.name} and started a new one"
        )
        return True

    def _heal(self, exc: sqlite3.Error) -> None:
        if self._quarantine(exc):
            self._open(heal=False)

    @property
    def usable(self) -> bool:
        """Whether a cache file is open (False: every lookup misses and nothing is stored)."""
        return self._conn is not None

    def close(self) -> None:
        """Close the database connection."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
            self._conn = None

    def __enter__(self) -> "EmbeddingCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __len__(self) -> int:
        if self._conn is None:
            return 0
        try:
            return self._conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()[0]
        except sqlite3.Error as exc:
            if _is_corrupt(exc):
                self._heal(exc)
            return 0

    # -- reading and writing --------------------------------------------------------------
    def get_many(self, model: str, texts: Sequence[str], dim: int | None = None) -> dict[str, np.ndarray]:
        """Return ``{text: vector}`` for those ``texts`` already cached under ``model``.

        Rows that are truncated, of another dimension than ``dim`` (if given), non-finite or
        zero are left out: they are misses, embedded again and overwritten.
        """
        found: dict[str, np.ndarray] = {}
        if self._conn is None:
            return found
        by_key = {_key(t): t for t in texts}
        keys = list(by_key)
        try:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                checksum = "checksum" if self._checked else "NULL"
                rows = self._conn.execute(
                    f"SELECT key, dim, vec, {checksum} FROM embeddings WHERE model = ? AND key IN ({marks})",
                    [model, *chunk],
                ).fetchall()
                self._collect(model, rows, by_key, dim, found, self._checked)
        except sqlite3.Error as exc:
            if _is_corrupt(exc):
                self._heal(exc)
            else:
                self._warn(f"cannot read the embedding cache {self.path} ({_why(exc)}); embedding without it")
        return found

    @staticmethod
    def _collect(model, rows, by_key, dim, found, checked=True) -> None:
        by_dim: dict[int, list[tuple[bytes, bytes]]] = {}
        for key, d, vec, checksum in rows:
            if isinstance(d, int) and d > 0 and isinstance(vec, bytes) and len(vec) == 4 * d and key in by_key:
                if (dim is None or d == dim) and (not checked or checksum == row_checksum(model, key, d, vec)):
                    by_dim.setdefault(d, []).append((key, vec))
        for d, items in by_dim.items():  # check a whole batch at once: a few vector operations, not one per row
            block = np.frombuffer(b"".join(vec for _, vec in items), dtype="<f4").reshape(len(items), d)
            ok = valid_rows(block)
            for (key, _), row, good in zip(items, block, ok):
                if good:
                    found[by_key[key]] = row

    def put_many(self, model: str, items: Iterable[tuple[str, np.ndarray]]) -> None:
        """Store ``(text, vector)`` pairs under ``model`` in a single transaction.

        Does nothing (after one warning) when the cache cannot be written.
        """
        rows = []
        for text, vec in items:
            v = np.ascontiguousarray(vec, dtype="<f4").ravel()
            key, data = _key(text), v.tobytes()
            rows.append((model, key, int(v.size), data, row_checksum(model, key, int(v.size), data)))
        for attempt in range(2):
            if self._conn is None or not self.writable:
                return
            try:
                with self._conn:
                    self._conn.executemany(
                        "INSERT OR REPLACE INTO embeddings (model, key, dim, vec, checksum) VALUES (?, ?, ?, ?, ?)",
                        rows,
                    )
                return
            except sqlite3.Error as exc:
                if _is_corrupt(exc) and attempt == 0:
                    self._heal(exc)
                    continue
                self.writable = False
                what = "is read-only" if _is_readonly(exc) else f"cannot be written ({_why(exc)})"
                self._warn(f"the embedding cache {self.path} {what}; new embeddings are not being cached")
                return
