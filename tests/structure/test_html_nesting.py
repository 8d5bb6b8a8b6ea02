"""Deeply nested HTML blocks are read in time near-linear in their depth (each nested block's span used to be
trimmed of the same long run of blanked tags, one character at a time: 58 s at 10,000 nested list items)."""

import time

import pytest
from deadline import deadline

from bpseg_pgm.structure.html import html_structure
from bpseg_pgm.text.split import sentence_spans

DEPTH = 10_000
BOUND_S = 8.0  # about 0.5 s each here; the quadratic reader took a minute or more for each


@pytest.mark.parametrize(
    "open_, close, words",
    [
        ("<ul><li>", "</li></ul>", "Deep item."),
        ("<table><tr><td>", "</td></tr></table>", "Deep cell."),
        ("<pre>", "</pre>", "Deep code."),
    ],
    ids=["ul-li", "table", "pre"],
)
def test_ten_thousand_nested_blocks_are_read_in_seconds(open_, close, words):
    text = "<p>Before it.</p>" + open_ * DEPTH + words + close * DEPTH + "<p>After it.</p>"
    start = time.perf_counter()
    with deadline(BOUND_S):
        s = html_structure(text)
        spans = sentence_spans(text, format="html")
    assert time.perf_counter() - start < BOUND_S
    assert [text[a:b] for a, b in spans] == ["Before it.", words, "After it."]
    assert len(s.view) == len(text)
    assert [text[a:b] for a, b in s.atomic] == [words]  # the nested blocks are one, trimmed to their text


def test_nested_blocks_keep_their_spans():
    text = "<ul><li>One <ul><li>two</li></ul></li><li> three </li></ul><table><tr><td><table><td>x</table></table>"
    s = html_structure(text)
    assert [text[a:b] for a, b in s.atomic] == ["One <ul><li>two", "three", "x"]
    assert [text[a:b] for a, b in s.units] == ["x"]
