"""Bytes to text, once for every input: binary content refused, UTF-8 with its byte-order mark dropped, UTF-16 and
UTF-32 read when a byte-order mark says so. :func:`read_bounded` reads a stream in chunks, failing at the first NUL
byte or past ``max_bytes``; :func:`decode_text` decodes a whole file; both give the same reasons."""

from __future__ import annotations

import codecs

from bpseg_pgm.utils.files import READ_CHUNK, not_valid_text

__all__ = ["DEFAULT_MAX_BYTES", "READ_CHUNK", "bom_encoding", "decode_text", "format_size", "read_bounded", "too_large"]

#: Largest input read unless ``--max-bytes`` says otherwise (per document for ``bpseg corpus``).
DEFAULT_MAX_BYTES = 50 * 2**20


def _binary(source: str | None) -> ValueError:
    what = f"{source} " if source else ""
    return ValueError(f"{what}looks like a binary file (it contains NUL bytes); expected UTF-8 text")


#: Byte-order marks of the encodings other than UTF-8 that are read, longest first (UTF-32 LE's starts as UTF-16 LE's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)


def bom_encoding(data: bytes) -> tuple[str, str] | None:
    """(codec, name) of the UTF-16 or UTF-32 byte-order mark ``data`` starts with, or None."""
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            return codec, name
    return None


def decode_text(data: bytes, source: str | None = None) -> str:
    """Text from ``data``: UTF-8 (a byte-order mark dropped), or UTF-16 / UTF-32 when it starts with their
    byte-order mark; else a ValueError saying why it is not text.

    The message starts with ``source`` when one is given (``notes.txt is not valid UTF-8 (...)``);
    without it, it is the bare reason (``not valid UTF-8 (...)``), as a document's error.
    """
    codec, name = bom_encoding(data) or ("utf-8-sig", "UTF-8")
    if codec == "utf-8-sig" and b"\x00" in data:
        raise _binary(source)
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as exc:
        raise not_valid_text(data, exc.start, name, source) from None
    if codec != "utf-8-sig" and "\x00" in text:
        raise _binary(source)
    return text


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
    """Read ``stream`` (binary) in chunks, failing at the first NUL byte, invalid UTF-8, or byte past ``max_bytes``
    (a text that starts with a UTF-16 or UTF-32 byte-order mark is read to the bound, then decoded)."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    parts: list[bytes] = []
    total = 0
    wide = None
    while True:
        chunk = stream.read(min(READ_CHUNK, max_bytes + 1 - total))
        if not chunk:
            break
        while not parts and len(chunk) < 4:  # enough bytes to tell a UTF-32 mark from a UTF-16 one
            more = stream.read(4 - len(chunk))
            if not more:
                break
            chunk += more
        if not parts:
            wide = bom_encoding(chunk)
        if wide is None and b"\x00" in chunk:
            raise _binary(source)
        parts.append(chunk)
        total += len(chunk)
        if total > max_bytes:
            raise too_large(source, max_bytes)
        if wide is not None:
            continue
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
