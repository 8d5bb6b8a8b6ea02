"""One decode for every input (bpseg_pgm.io.decoding): binary refused, UTF-8 with its BOM dropped, bounded reads."""

import codecs
import io

import pytest

from bpseg_pgm.io.decoding import DEFAULT_MAX_BYTES, READ_CHUNK, decode_text, format_size, read_bounded, too_large


def test_decode_text_drops_the_bom_and_names_the_source_when_given():
    assert decode_text(b"\xef\xbb\xbfOne. Two.") == "One. Two."
    assert decode_text("Grüße\u2028日本".encode()) == "Grüße\u2028日本"
    with pytest.raises(ValueError) as info:
        decode_text(b"ab\x00c")
    assert str(info.value) == "looks like a binary file (it contains NUL bytes); expected UTF-8 text"
    with pytest.raises(ValueError) as info:
        decode_text(b"ab\x00c", "notes.txt")
    assert str(info.value) == "notes.txt looks like a binary file (it contains NUL bytes); expected UTF-8 text"
    with pytest.raises(ValueError) as info:
        decode_text("café".encode("latin-1"))
    assert str(info.value) == "not valid UTF-8 (byte 0xe9 at offset 3)"
    with pytest.raises(ValueError) as info:
        decode_text("café".encode("latin-1"), "standard input")
    assert str(info.value) == "standard input is not valid UTF-8 (byte 0xe9 at offset 3)"


def test_sizes():
    assert DEFAULT_MAX_BYTES == 50 * 2**20 and format_size(DEFAULT_MAX_BYTES) == "50M"
    assert [format_size(n) for n in (2**30, 3 * 2**10, 1020, 2**20 + 1)] == ["1G", "3K", "1020 bytes", "1048577 bytes"]
    assert (
        str(too_large("in.txt", 2048)) == "in.txt is larger than --max-bytes (2K); pass a larger --max-bytes to read it"
    )


class _Endless(io.RawIOBase):
    """``head`` then endless ``a``, counting the bytes read."""

    def __init__(self, head: bytes):
        self.head, self.read_bytes = head, 0

    def readable(self):
        return True

    def readinto(self, buf):
        n = len(buf)
        buf[:n] = (self.head + b"a" * n)[:n]
        self.head = self.head[n:]
        self.read_bytes += n
        return n


@pytest.mark.parametrize("head, message, most", [
    (b"ok text \x00", "input looks like a binary file", READ_CHUNK),
    (b"caf\xe9 au lait", r"input is not valid UTF-8 \(byte 0xe9 at offset 3\)", READ_CHUNK),
    (b"", r"input is larger than --max-bytes \(3M\)", 3 * 2**20 + 1),
])  # fmt: skip
def test_read_bounded_stops_at_the_first_bad_chunk(head, message, most):
    stream = _Endless(head)
    with pytest.raises(ValueError, match=message):
        read_bounded(stream, "input", 3 * 2**20)
    assert stream.read_bytes <= most


def test_read_bounded_reads_up_to_max_bytes_exactly():
    data = "\ufeffA sentence. Ünïcode at the end é".encode()
    assert read_bounded(io.BytesIO(b"\xef\xbb\xbf" + data[3:]), "x", len(data)) == data[3:].decode()
    with pytest.raises(ValueError, match="larger than --max-bytes"):
        read_bounded(io.BytesIO(data), "x", len(data) - 1)
    with pytest.raises(ValueError, match=r"x is not valid UTF-8 \(byte 0xc3 at offset 3\)"):
        read_bounded(io.BytesIO(b"abc\xc3"), "x", 100)  # a character cut at the very end


WIDE = "Grüße aus Köln. The match went to five sets. 日本語の文です。"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_with_a_bom_are_text_not_binary(codec):
    """UTF-16 and UTF-32 files with a byte-order mark were refused as 'looks like a binary file' (their NUL bytes)."""
    data = "\ufeff".encode(codec) + WIDE.encode(codec)
    assert decode_text(data, "notes.txt") == WIDE
    assert read_bounded(io.BytesIO(data), "notes.txt", len(data)) == WIDE
    with pytest.raises(ValueError, match="larger than --max-bytes"):
        read_bounded(io.BytesIO(data), "notes.txt", len(data) - 1)


def test_a_bom_does_not_make_binary_or_broken_text_readable():
    with pytest.raises(ValueError, match="notes.txt looks like a binary file"):
        decode_text(codecs.BOM_UTF16_LE + "ab\x00c".encode("utf-16-le"), "notes.txt")
    with pytest.raises(ValueError, match=r"notes.txt is not valid UTF-16 \(byte 0x00 at offset 2\)"):
        decode_text(codecs.BOM_UTF16_LE + b"\x00\xdc", "notes.txt")  # a lone low surrogate
    assert decode_text(b"\xef\xbb\xbfplain") == "plain"  # UTF-8's own mark, as before
