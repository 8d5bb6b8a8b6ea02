"""Which link targets the HTML views make links of: a written link's address, if it is safe to follow.

:func:`safe_href` is the one check the reStructuredText and HTML views (:mod:`bpseg_pgm.formats.rst_view`,
:mod:`bpseg_pgm.formats.html_view`) apply before they write an ``href``: only ``http:``, ``https:``, ``mailto:`` and
``ftp:`` addresses, and addresses without a scheme (``#part``, ``page.html``), are kept; ``javascript:``,
``data:``, ``file:`` and every other scheme are refused, as markdown-it refuses them for Markdown.
"""

from __future__ import annotations

import re
from html import escape

__all__ = ["SAFE_SCHEMES", "safe_href"]

#: The schemes a written link may have to be shown as a link.
SAFE_SCHEMES = frozenset({"http", "https", "mailto", "ftp"})
_IGNORED = re.compile(r"[\x00-\x20\x7f]+")  # what browsers drop from an address before they read its scheme
_SCHEME = re.compile(r"\A([A-Za-z][A-Za-z0-9+.-]*):")


def safe_href(address: str | None) -> str | None:
    """``address`` escaped for an ``href`` attribute when it may be a link (see the module's notes), else None."""
    if not address:
        return None
    address = _IGNORED.sub("", address)
    scheme = _SCHEME.match(address)
    if not address or (scheme and scheme.group(1).lower() not in SAFE_SCHEMES):
        return None
    if not scheme and ":" in address.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]:
        return None  # a colon before any path: a scheme a browser might still read
    return escape(address, quote=True)
