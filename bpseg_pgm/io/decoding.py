"""Bytes to text, once for every input: binary content refused, UTF-8 with its byte-order mark dropped.

``bpseg segment`` / ``bpseg prune`` read their input with :func:`read_bounded` (in chunks of 1 MiB,
at most ``max_bytes``, failing at the first NUL byte, so ``/dev/zero`` or an endless pipe fails
in one line instead of filling the memory); the document readers (:mod:`bpseg_pgm.io.documents`)
decode whole files with :func:`decode_text`. Both give the same reasons.
"""

from __future__ import annotations

import codecs

__all__ = ["DEFAULT_MAX_BYTES", "READ_CHUNK", "decode_text", "format_size", "read_bounded", "too_large"]

#: Largest input read unless ``--max-bytes`` says otherwise (per document for ``bpseg corpus``).
DEFAULT_MAX_BYTES = 50 * 2**20
#: Bytes read at a time by :func:`read_bounded`.
READ_CHUNK = 2**20


def _binary(source: str | None) -> ValueError:
    what = f"{source} " if source else ""
    return ValueError(f"{what}looks like a binary file (it contains NUL bytes); expected UTF-8 text")


def decode_text(data: bytes, source: str | None = None) -> str:
    """UTF-8 text from ``data`` (a byte-order mark dropped), or a ValueError saying why it is not text.

    The message starts with ``source`` when one is given (``notes.txt is not valid UTF-8 (...)``);
    without it, it is the bare reason (``not valid UTF-8 (...)``), as a document's error.
    """
    if b"\x00" in data:
        raise _binary(source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        where = f"byte 0x{data[exc.start]:02x} at offset {exc.start}"
        raise ValueError(f"{source} is not valid UTF-8 ({where})" if source else f"not valid UTF-8 ({where})") from None


def format_size(n: int) -> str:
    """A byte count as the largest exact binary unit: ``50M``, ``1G``, ``1020 bytes``."""
    for unit, factor in (("G", 2**30), ("M", 2**20), ("K", 2**10)):
        if n >= factor and n % factor == 0:
            return f"{n // factor}{unit}"
    return f"{n} bytes"


def too_large(source: str, max_bytes: int) -> ValueError:
    """The error for an input past ``--max-bytes``."""
    size = format_size(max_bytes)
    return ValueError(f"{source} is larger than --max-bytes ({size}); pass a larger --max-bytes to read it")


def read_bounded(stream, source: str, max_bytes: int) -> str:
    """Read ``stream`` (binary) in chunks, failing at the first NUL byte, invalid UTF-8, or byte past ``max_bytes``."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    parts: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(min(READ_CHUNK, max_bytes + 1 - total))
        if not chunk:
            break
        if b"\x00" in chunk:
            raise _binary(source)
        parts.append(chunk)
        total += len(chunk)
        if total > max_bytes:
            raise too_large(source, max_bytes)
        try:
            decoder.decode(chunk)
        except UnicodeDecodeError:
            decode_text(b"".join(parts), source)  # raises, with the offset in the whole input
            raise  # pragma: no cover - decode_text always raises here
    data = b"".join(parts)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        pass  # a truncated character at the very end: decode_text names it
    return decode_text(data, source)
