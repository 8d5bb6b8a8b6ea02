"""reStructuredText structure: titles by adornment, levels by first appearance, blocks kept whole, exact spans."""

import pytest

from bpseg_pgm.structure.rst import looks_like_rst, rst_structure

RST = """=======
 Title
=======

Intro text. More intro.

Abstract
========

The cat sat. The dog ran::

    code here
    more code

Sub part
--------

.. note::

   A note. Two lines.

+-----+-----+
| a   | b   |
+-----+-----+

- item one
- item two

.. a comment that is not prose

Motivation
==========

Stocks fell. Banks sold.
"""


def test_titles_levels_and_exact_spans():
    s = rst_structure(RST)
    assert [RST[a:b] for a, b in s.headings] == ["Title", "Abstract", "Sub part", "Motivation"]
    assert s.heading_levels == (1, 2, 3, 2)  # over-and-under '=' first, then '=' under, then '-'
    assert len(s.view) == len(RST)
    assert "=====" not in s.view and "-----\n" not in s.view  # adornments blanked
    assert "a comment" not in s.view  # comments are not prose


def test_literal_blocks_directives_and_tables_are_whole_units():
    s = rst_structure(RST)
    units = [RST[a:b] for a, b in s.units]
    assert "code here\n    more code" in units
    assert ".. note::\n\n   A note. Two lines." in units
    assert "+-----+-----+\n| a   | b   |\n+-----+-----+" in units
    atomic = [RST[a:b] for a, b in s.atomic]
    assert "- item one" in atomic and "- item two" in atomic


def test_inconsistent_adornments_still_give_a_structure():
    bad = "One\n===\n\nText.\n\nTwo\n---\n\nMore.\n\nThree\n***\n\nx.\n\nFour\n---\n\ny.\n\nFive\n^^^^\n\nz.\n"
    s = rst_structure(bad)
    assert len(s.view) == len(bad) and s.headings  # docutils reads what it can; never a traceback


def test_detection():
    assert looks_like_rst(RST)
    assert not looks_like_rst("Plain prose. Nothing else.\n\nAnother paragraph.")
    assert not looks_like_rst("One title\n=========\n\nonly one.")


@pytest.mark.parametrize("text", ["", "\n\n", "::\n\n", ".. ::", "====\n", "x\n-\n", "\ufeffA\r\n===\r\n\r\nb\r\n"])
def test_odd_input_gives_a_structure(text):
    s = rst_structure(text)
    assert len(s.view) == len(text)
