"""A document's own structure in reStructuredText, HTML and plain text with numbered headings.

Each reader returns a :class:`~bpseg_pgm.structure.blocks.Structure`: a *view* of the text (the same length, so
every offset is an offset of the file as given, with markup blanked out) and the character ranges of its blocks and
headings, the kind of blocks Markdown gives (:mod:`bpseg_pgm.chunks.markdown`); :mod:`.detect` names the formats,
guesses one and picks the reader.
"""
