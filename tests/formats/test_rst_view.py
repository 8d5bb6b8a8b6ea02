"""A reStructuredText document's views show it as it is: code as code with its lines, roles as their text,
directives as their body under a label, written links as links; nothing raw, everything escaped."""

import re

from structured_segmentation import structured_segmentation

from bpseg_pgm.formats.rst_view import rst_block_html, rst_inline_html

PEP = """\
PEP 999 -- Typed Widgets
========================

Abstract
--------

This PEP proposes ``typing.Widget``, building on :pep:`484` and the
style rules of :pep:`8`. See :ref:`the rationale <rationale>` and the
:class:`~typing.Widget` class. More at `the tracker <https://bugs.python.org/issue1>`_.

.. note::

   This is a *draft*; the **API** may change.

Specification
-------------

A widget is declared as follows:

.. code-block:: python

   from typing import Widget

   def make(x: int) -> Widget:
       return Widget(x)

The shell form is a literal block::

    $ python -m widget --check
    ok

Injected <script>alert(1)</script> text and `a bad link <javascript:alert(2)>`_ stay text.

.. _rationale:

Rationale
---------

- Widgets make code clearer.
- They cost nothing at runtime.

.. versionadded:: 3.14
   Widgets themselves.
"""


def _doc(html: str) -> str:
    """The document part of the page, the units' numbers and attributes taken out."""
    doc = html[html.index('<div class="doc">') : html.index("<h2>Segments")]
    return re.sub(r"<sup>\d+</sup>", "", doc)


def test_code_blocks_are_code_with_their_lines():
    doc = _doc(structured_segmentation(PEP, "rst").to_html())
    assert (
        '<pre><code class="language-python">from typing import Widget\n\n'
        "def make(x: int) -&gt; Widget:\n    return Widget(x)</code></pre>"
    ) in doc
    assert "<pre><code>$ python -m widget --check\nok</code></pre>" in doc
    assert "code-block::" not in doc and "a literal block:</span>" in doc  # "::" reads as ":", as docutils reads it


def test_literals_and_roles_are_shown_as_what_they_are():
    doc = _doc(structured_segmentation(PEP, "rst").to_html())
    assert "This PEP proposes <code>typing.Widget</code>, building on PEP 484 and the style rules of PEP 8." in doc
    assert "See the rationale and the <code>Widget</code> class." in doc
    assert '<a href="https://bugs.python.org/issue1">the tracker</a>' in doc
    assert not re.search(r":(pep|ref|class):|``|`_", doc)  # no role or link syntax left
    assert rst_inline_html(":Author: A. Writer\n:Status: *Draft*") == (
        "<strong>Author:</strong> A. Writer<br><strong>Status:</strong> <em>Draft</em>"
    )  # a field list (a PEP's header) one field a line


def test_directives_show_their_body_under_a_label():
    doc = _doc(structured_segmentation(PEP, "rst").to_html())
    assert '<p class="adm-t">Note</p><p>This is a <em>draft</em>; the <strong>API</strong> may change.</p>' in doc
    assert '<p class="adm-t">New in version 3.14</p><p>Widgets themselves.</p>' in doc
    assert ".. note::" not in doc and ".. versionadded" not in doc
    assert "• Widgets make code clearer." in doc  # a list item's marker is a bullet


def test_user_text_is_escaped_and_no_unsafe_link_is_made():
    html = structured_segmentation(PEP, "rst").to_html()
    assert "<script>alert" not in html and "Injected &lt;script&gt;alert(1)&lt;/script&gt; text" in html
    assert "javascript:" not in html and "a bad link stay text." in html
    assert rst_inline_html("`x <data:text/html,hi>`_ and <b>") == "x and &lt;b&gt;"
    assert "<script>" not in rst_block_html(".. raw:: html\n\n   <script>alert(3)</script>")  # raw is text


def test_the_text_view_keeps_a_code_block_s_lines():
    out = structured_segmentation(PEP, "rst").to_text()
    width = " " * 6  # a unit's later lines, aligned under its first
    body = ["from typing import Widget", "", "def make(x: int) -> Widget:", "    return Widget(x)"]
    assert ".. code-block:: python\n\n" + "\n".join((width + "   " + line).rstrip() for line in body) + "\n" in out
    assert "$ python -m widget --check\n" + width + "ok\n" in out  # the literal block's lines, aligned


def test_the_views_change_no_offset_or_label():
    seg = structured_segmentation(PEP, "rst")
    before = seg.to_json()
    seg.to_html(), seg.to_text()
    assert seg.to_json() == before
    assert all(PEP[a:b].strip() for a, b in seg.spans)
