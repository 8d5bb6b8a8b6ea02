"""A document's own structure in reStructuredText, HTML and plain text with numbered headings.

Each reader returns a :class:`~bpseg_pgm.structure.blocks.Structure`: a *view* of the text (the same length, so
every offset is an offset of the file as given, with markup blanked out) and the character ranges of its blocks and
headings, the same kind of blocks Markdown gives (:mod:`bpseg_pgm.chunks.markdown`). The sentence splitter and the
layout step read them (``segment_text(text, format=...)``).

* :mod:`~bpseg_pgm.structure.rst`: reStructuredText, read with docutils;
* :mod:`~bpseg_pgm.structure.html`: HTML, read with the standard library's ``html.parser``;
* :mod:`~bpseg_pgm.structure.numbered`: plain text with numbered headings (``2.3 Results``);
* :mod:`~bpseg_pgm.structure.detect`: the format names, the guess from a text or a file name, and the reader.
"""
