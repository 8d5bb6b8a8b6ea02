"""MkDocs hook: links from a page to files of the repository outside ``docs/`` become their paths, in code.

The pages are also read on GitHub, where a link such as ``[the script](../../research/2026-11-24-x/README.md)`` from
``docs/research/`` opens the study's folder. On the site such a link would be broken (``mkdocs build --strict``
fails on it), so it is shown as the file's path in the repository instead: ``the script (`research/2026-11-24-x/`)``,
or the path alone when the link's text already names it (a ``README.md`` stands for its folder). Links inside
``docs/``, to a web address or to an anchor, and images, are left to MkDocs' checks.
"""

from __future__ import annotations

import re
from pathlib import Path

_LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)\s]+)\)")


def repository_path(target: str, page_dir: Path, docs_dir: Path) -> str | None:
    """The path, relative to the repository, of a link's target outside ``docs_dir``; None for any other link."""
    if "://" in target or target.startswith(("#", "mailto:")):
        return None
    path = (page_dir / target.split("#", 1)[0]).resolve()
    root = docs_dir.parent
    if path == docs_dir or docs_dir in path.parents or root not in path.parents:
        return None
    shown = path.relative_to(root).as_posix()
    if path.name == "README.md":
        shown = shown[: -len("README.md")]
    return shown


def on_page_markdown(markdown: str, page, config, files) -> str:
    docs_dir = Path(config["docs_dir"]).resolve()
    page_dir = (docs_dir / page.file.src_path).parent

    def plain(match: re.Match) -> str:
        text, target = match.group(1), match.group(2)
        shown = repository_path(target, page_dir, docs_dir)
        if shown is None:
            return match.group(0)
        name = text.strip().strip("`").rstrip("/")
        if name and name in shown:
            return f"`{shown}`"
        return f"{text} (`{shown}`)"

    return _LINK.sub(plain, markdown)


_DOCS_PATH = re.compile(r"<code>docs/([\w/.-]+)\.md</code>")


def docs_path_links(html: str, page_url: str, known: set[str]) -> str:
    """Each ``<code>docs/X.md</code>`` in a page's HTML (the API reference shows docstrings that name a page of the
    site so, readable in ``help()`` too) made a link to that page, when the site has it."""
    depth = len([part for part in page_url.split("/") if part])
    up = "../" * depth

    def link(match: re.Match) -> str:
        name = match.group(1)
        if f"{name}.md" not in known:
            return match.group(0)
        target = "" if name == "index" else (name[: -len("/index")] if name.endswith("/index") else name) + "/"
        return f'<a href="{up + target or "./"}">{match.group(0)}</a>'

    return _DOCS_PATH.sub(link, html)


def on_page_content(html: str, page, config, files) -> str:
    known = {f.src_uri for f in files.documentation_pages()}
    return docs_path_links(html, page.url, known)
