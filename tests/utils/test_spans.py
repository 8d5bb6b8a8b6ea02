"""trim_span: a span shrunk to its non-whitespace characters."""

import pytest

from bpseg_pgm.utils.spans import trim_span


@pytest.mark.parametrize(
    "text, span, expected",
    [
        ("  ab c \n", (0, 8), (2, 6)),
        ("abc", (0, 3), (0, 3)),
        ("a \t\r\n b", (1, 5), None),  # nothing but whitespace
        ("abc", (2, 2), None),  # empty
        ("\u00a0x\u2003", (0, 3), (1, 2)),  # Unicode spaces too
    ],
)
def test_trim_span(text, span, expected):
    assert trim_span(text, *span) == expected
