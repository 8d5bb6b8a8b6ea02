"""Reading a file that must be a regular file, never past a bound (the bottom layer: imports nothing of bpseg_pgm).

The input readers and the Policy file reader open files only through :func:`read_regular`, so ``/dev/zero``, a FIFO
or a 100 MB file is one ValueError in a moment; bytes that do not decode are one message for both
(:func:`not_valid_text`).
"""

from __future__ import annotations

import os
import stat

__all__ = ["READ_CHUNK", "file_kind", "not_valid_text", "read_regular"]

#: Bytes read at a time.
READ_CHUNK = 2**20


_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, from its ``st_mode``: ``"a FIFO"``, ``"a folder"``, ..."""
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")


def not_valid_text(data: bytes, offset: int, encoding: str = "UTF-8", source: str | None = None) -> ValueError:
    """The error for ``data`` that does not decode as ``encoding`` at byte ``offset``, naming that byte:
    ``"notes.txt is not valid UTF-8 (byte 0xe9 at offset 3)"`` with ``source`` ``"notes.txt"``, the bare reason
    ``"not valid UTF-8 (byte 0xe9 at offset 3)"`` without it."""
    reason = f"not valid {encoding} (byte 0x{data[offset]:02x} at offset {offset})"
    return ValueError(f"{source} is {reason}" if source else reason)


def read_regular(path: str | os.PathLike, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (symlinks followed), read at most ``max_bytes`` (+1 to know).

    A FIFO, a device, a socket or a folder is never opened: a ValueError ``"is a FIFO, not a regular file"``; a
    file past ``max_bytes`` is a ValueError ``"larger than N bytes"``; OSError when it cannot be read.
    """
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"is {file_kind(st.st_mode)}, not a regular file")
    if max_bytes is not None and st.st_size > max_bytes:
        raise ValueError(f"larger than {max_bytes} bytes")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)  # what was opened, in case the path changed since
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"is {file_kind(st.st_mode)}, not a regular file")
        limit = None if max_bytes is None else max_bytes + 1
        parts, total = [], 0
        while limit is None or total < limit:
            chunk = os.read(fd, READ_CHUNK if limit is None else min(READ_CHUNK, limit - total))
            if not chunk:
                break
            parts.append(chunk)
            total += len(chunk)
        if max_bytes is not None and total > max_bytes:
            raise ValueError(f"larger than {max_bytes} bytes")
        return b"".join(parts)
    finally:
        os.close(fd)
