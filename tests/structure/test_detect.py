"""The format names, the guess from the text and from a file's name."""

import pytest

from bpseg_pgm.structure.detect import check_format, detect_format, format_for_path, read_structure, view_of


def test_detect_each_format():
    assert detect_format("<html><body><p>A.</p></body></html>") == "html"
    assert detect_format("One\n===\n\nText.\n\nTwo\n===\n\nMore.\n") == "rst"
    assert detect_format("1. One\n\nText.\n\n2. Two\n\nMore.\n") == "numbered"
    assert detect_format("Plain. Text.\n\nMore.") == "plain"


def test_format_for_path():
    assert format_for_path("a/b.RST") == "rst"
    assert format_for_path("x.htm") == format_for_path("x.html") == "html"
    assert format_for_path("x.md") == format_for_path("x.markdown") == "markdown"
    assert format_for_path("x.txt") is None


def test_bad_format_is_a_value_error():
    assert check_format(None) is None and check_format("rst") == "rst"
    with pytest.raises(ValueError, match="format must be one of"):
        check_format("docx")
    with pytest.raises(ValueError, match="no structure reader"):
        read_structure("x", "plain")
    assert view_of("text", "plain") == "text"
