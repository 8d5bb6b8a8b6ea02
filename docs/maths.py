"""MkDocs hook: MathJax 3 is served by the site itself, so the formulas are typeset offline, with no CDN.

MathJax comes from the ``django-static-mathjax`` wheel on PyPI (in the ``docs`` extra; despite its name it needs no
Django: it is MathJax's own release, ``mathjax-full`` 3.2.2, under ``mathjax/static/mathjax/``). This hook adds its
combined TeX component, ``es5/tex-chtml-full.js`` (every TeX extension built in, so nothing is fetched on demand),
and the web fonts that component loads from beside itself to the site's files, as ``javascripts/mathjax/...``;
``mkdocs.yml`` loads it after ``javascripts/mathjax-config.js``. The Markdown pages mark their maths with
``pymdownx.arithmatex`` (generic mode), the notebook pages keep Jupyter's ``$...$`` in their Markdown cells: the
configuration typesets both, and nothing else.

mkdocs-jupyter's template puts a MathJax 2 loader of its own on each notebook page (an empty ``<script src="">``
unless ``custom_mathjax_url`` names a copy, and a MathJax 2 configuration block); MathJax 3 would not read that
configuration and two MathJax on one page clash, so the block is removed from the notebook pages.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

#: Where the site serves MathJax from (``extra_javascript`` in mkdocs.yml names SCRIPT under it).
SITE_DIR = "javascripts/mathjax"
#: The component the pages load, relative to MathJax's ``es5/`` folder.
SCRIPT = "tex-chtml-full.js"
#: The fonts the CommonHTML output loads, from ``[mathjax]/output/chtml/fonts/woff-v2`` (beside SCRIPT).
FONTS = "output/chtml/fonts/woff-v2"
INSTALL = "pip install -e '.[docs]' (the django-static-mathjax package)"

_NOTEBOOK_MATHJAX = re.compile(r"\s*<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)


def mathjax_es5() -> Path:
    """The ``es5/`` folder of the installed MathJax; FileNotFoundError, saying what to install, when it is missing."""
    spec = importlib.util.find_spec("mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"MathJax is not installed: {INSTALL}")
    es5 = Path(next(iter(spec.submodule_search_locations))) / "static" / "mathjax" / "es5"
    if not (es5 / SCRIPT).is_file() or not any((es5 / FONTS).glob("*.woff")):
        raise FileNotFoundError(f"{es5} holds no {SCRIPT} and {FONTS}/*.woff: {INSTALL}")
    return es5


def mathjax_files() -> dict[str, Path]:
    """Each file the site needs, by its path in the site, mapped to the installed file."""
    es5 = mathjax_es5()
    found = {f"{SITE_DIR}/{SCRIPT}": es5 / SCRIPT}
    for font in sorted((es5 / FONTS).glob("*.woff")):
        found[f"{SITE_DIR}/{FONTS}/{font.name}"] = font
    return found


def without_notebook_mathjax(html: str) -> str:
    """A notebook page's HTML without mkdocs-jupyter's MathJax 2 loader and configuration."""
    return _NOTEBOOK_MATHJAX.sub("", html, count=1)


def on_files(files, config):
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    try:
        found = mathjax_files()
    except FileNotFoundError as exc:
        raise PluginError(str(exc)) from None
    for src_uri, path in found.items():
        files.append(File.generated(config, src_uri, abs_src_path=str(path)))
    return files


def on_page_content(html: str, page, config, files) -> str:
    if page.file.src_uri.endswith(".ipynb"):
        return without_notebook_mathjax(html)
    return html
