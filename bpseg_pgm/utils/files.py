"""Reading a file that must be a regular file, never past a bound (the bottom layer: imports nothing of bpseg_pgm).

The input readers (:mod:`bpseg_pgm.io.documents`) and the Policy file reader (:mod:`bpseg_pgm.policy.read`) open
files only through :func:`read_regular`: a FIFO, a device, a socket or a folder is never opened, and a file is
never read past its bound, so ``/dev/zero``, a FIFO or a 100 MB file is one ValueError in a moment.
"""

from __future__ import annotations

import os
import stat

__all__ = ["READ_CHUNK", "file_kind", "read_regular"]

#: Bytes read at a time.
READ_CHUNK = 2**20


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, from its ``st_mode``: ``"a FIFO"``, ``"a folder"``, ..."""
    return (
        "a FIFO"
        if stat.S_ISFIFO(mode)
        else "a character device"
        if stat.S_ISCHR(mode)
        else "a block device"
        if stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "a folder"
        if stat.S_ISDIR(mode)
        else "not a regular file"
    )


def read_regular(path: str | os.PathLike, max_bytes: int | None = None) -> bytes:
    """The bytes of the regular file ``path`` (symlinks followed), read at most ``max_bytes`` (+1 to know).

    A FIFO, a device, a socket or a folder is never opened (a FIFO would block, ``/dev/zero``
    would fill the memory): a ValueError ``"is a FIFO, not a regular file"``; a file past
    ``max_bytes`` is a ValueError ``"larger than N bytes"``; OSError when it cannot be read.
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
