"""Output formats, one class per format, registered by name: what ``--format`` offers.

============  ============== ============================================================
kind          name           renders (module)
============  ============== ============================================================
segmentation  ``text``       ``Segmentation.to_text()``, numbers from 1 (:mod:`.text`)
segmentation  ``json``       ``Segmentation.to_json()``, numbers from 0 (:mod:`.json`)
segmentation  ``html``       a page coloured by segment, or topic (:mod:`.html`)
segmentation  ``chunks-jsonl`` one JSON object per chunk (:mod:`.chunks_jsonl`)
prune         ``text``       the kept text (:mod:`.prune`)
prune         ``json``       ``PruneResult.to_json()`` (:mod:`.prune`)
============  ============== ============================================================

``bpseg segment --format`` offers the ``segmentation`` formats and ``bpseg prune --format`` the
``prune`` ones, in this order and then any registered by the user.  To add a format, subclass
:class:`OutputFormat` and decorate it with :func:`register_format` (see :mod:`.registry`).
Formats take their result duck-typed and import nothing of :mod:`bpseg_pgm.text`.
"""

from bpseg_pgm.formats.registry import (
    KINDS,
    FormatOption,
    OutputFormat,
    format_names,
    get_format,
    register_format,
)

# the built-in formats register themselves on import, in the order --format lists them
from bpseg_pgm.formats import text, json, html, chunks_jsonl, prune  # noqa: E402,F401,I001  isort: skip

__all__ = ["KINDS", "FormatOption", "OutputFormat", "format_names", "get_format", "register_format"]
