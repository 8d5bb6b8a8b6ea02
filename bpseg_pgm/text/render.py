"""Deprecated home of the HTML renderer: it is :mod:`bpseg_pgm.formats.html` now.

``from bpseg_pgm.text.render import render_html`` (named in ``Segmentation.to_html``'s docstring
before issue 19) still works, with a FutureWarning; import from :mod:`bpseg_pgm.formats.html`.
"""

import warnings

_MOVED = ("render_html", "segment_colors", "OPEN_UP_TO", "OPEN_DOC_UP_TO")


def __getattr__(name: str):
    if name in _MOVED:
        warnings.warn(f"bpseg_pgm.text.render.{name} is deprecated: import it from bpseg_pgm.formats.html",
                      FutureWarning, stacklevel=2)
        from bpseg_pgm.formats import html

        return getattr(html, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
