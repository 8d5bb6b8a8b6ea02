"""MkDocs hook: Sphinx cross-reference roles in the docstrings become links (or code) on the API page.

The library's docstrings are numpydoc, and some cite other objects Sphinx-style (``:class:`~bpseg_pgm.Policy```,
``:func:`segment_text```). mkdocstrings renders numpydoc but not those roles, so the page would show
``:class:`` before the name. After each page is rendered this hook turns every such role into an mkdocs-autorefs
cross-reference: a link where the object is documented on this site, else the name as code. A leading ``~`` shows
the last component only, as in Sphinx; ``title <target>`` shows the title.
"""

from __future__ import annotations

import html
import re

_ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|attr|data|obj|exc|const|term|ref):<code>([^<]*)</code>")
_TITLED = re.compile(r"^(?P<title>.+?)\s*<(?P<target>[^<>]+)>$")


def _replace(match: re.Match) -> str:
    text = html.unescape(match.group(1)).strip()
    titled = _TITLED.match(text)
    if titled:
        title, target = titled["title"], titled["target"]
    else:
        target = text
        title = text.lstrip("~").rsplit(".", 1)[-1] if text.startswith("~") else text
    target = target.lstrip("~").removesuffix("()")
    return (
        f'<autoref identifier="{html.escape(target, quote=True)}" optional>'
        f"<code>{html.escape(title, quote=False)}</code></autoref>"
    )


def render_roles(content: str) -> str:
    """``content`` with every Sphinx role before an inline code element replaced by a cross-reference."""
    return _ROLE.sub(_replace, content)


def on_page_content(html_content: str, page, config, files) -> str:
    return render_roles(html_content)
