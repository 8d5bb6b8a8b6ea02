"""The site typesets its maths itself: MathJax 3 from an installed wheel, put into the site by docs/maths.py, loaded
by mkdocs.yml after its configuration, with no address outside the site (no CDN at build or at view time)."""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MKDOCS = (ROOT / "mkdocs.yml").read_text("utf-8")
CONFIG_JS = "javascripts/mathjax-config.js"
spec = importlib.util.spec_from_file_location("docs_maths", ROOT / "docs" / "maths.py")
maths = importlib.util.module_from_spec(spec)
spec.loader.exec_module(maths)


def _list(key: str) -> list[str]:
    """The items of a top-level list in mkdocs.yml (``key:`` then ``  - item`` lines)."""
    block = re.search(rf"^{key}:\n((?:  - .*\n)+)", MKDOCS, re.M)
    assert block, f"mkdocs.yml has no {key} list"
    return [line.strip()[2:].strip() for line in block.group(1).splitlines()]


def test_mkdocs_marks_the_maths_and_loads_mathjax_from_the_site():
    assert re.search(r"^  - pymdownx\.arithmatex:\n      generic: true$", MKDOCS, re.M), "arithmatex, generic mode"
    scripts = _list("extra_javascript")
    assert scripts == [CONFIG_JS, f"{maths.SITE_DIR}/{maths.SCRIPT}"], "the configuration first, then MathJax"
    assert (ROOT / "docs" / CONFIG_JS).is_file()
    assert not (ROOT / "docs" / maths.SITE_DIR).exists(), "MathJax comes from the wheel, not from files in docs/"
    assert "docs/maths.py" in _list("hooks")
    assert "://" not in MKDOCS.split("extra_javascript:", 1)[1].split("\n\n", 1)[0]
    assert "custom_mathjax_url" not in MKDOCS, "the notebook pages load the site's MathJax, not one of their own"


def test_the_configuration_typesets_only_the_maths():
    js = (ROOT / "docs" / CONFIG_JS).read_text("utf-8")
    assert "window.MathJax = {" in js
    for selector in (".arithmatex", ".jp-RenderedMarkdown"):  # arithmatex's elements, the notebooks' Markdown cells
        assert f'"{selector}"' in js
    assert '["$", "$"]' in js and '["$$", "$$"]' in js and r'["\\(", "\\)"]' in js
    assert "://" not in js


def test_the_installed_mathjax_gives_the_script_and_its_fonts():
    pytest.importorskip("mathjax", reason="the docs extra (django-static-mathjax) is not installed")
    found = maths.mathjax_files()
    script = found[f"{maths.SITE_DIR}/{maths.SCRIPT}"]
    assert script.stat().st_size > 500_000 and "3." in maths.mathjax_es5().parent.joinpath("package.json").read_text()
    fonts = [uri for uri in found if uri.startswith(f"{maths.SITE_DIR}/{maths.FONTS}/")]
    assert any(uri.endswith("/MathJax_Main-Regular.woff") for uri in fonts) and len(fonts) >= 20


def test_a_missing_mathjax_says_what_to_install(monkeypatch):
    monkeypatch.setattr(maths.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(FileNotFoundError, match=r"pip install -e '\.\[docs\]'"):
        maths.mathjax_files()


NOTEBOOK_HEAD = """<script>copy</script>
    <!-- Load mathjax -->
    <script src=""> </script>
    <!-- MathJax configuration -->
    <script type="text/x-mathjax-config">
    init_mathjax = function() { MathJax.Hub.Config({}); }
    init_mathjax();
    </script>
    <!-- End of mathjax configuration --><div class="jupyter-wrapper">$k$</div>"""


def test_the_notebook_pages_lose_their_own_mathjax_2():
    out = maths.without_notebook_mathjax(NOTEBOOK_HEAD)
    assert out == '<script>copy</script><div class="jupyter-wrapper">$k$</div>'
    assert maths.without_notebook_mathjax("<p>no notebook</p>") == "<p>no notebook</p>"


def test_the_removed_block_is_the_one_nbconvert_writes():
    nbconvert = pytest.importorskip("nbconvert", reason="nbconvert (the docs extra's mkdocs-jupyter) is not installed")
    from jupyter_core.paths import jupyter_path

    templates = [Path(p) / "base" / "mathjax.html.j2" for p in jupyter_path("nbconvert", "templates")]
    macro = next((p for p in templates if p.is_file()), None)
    assert macro is not None, f"nbconvert {nbconvert.__version__} has no base/mathjax.html.j2"
    text = macro.read_text("utf-8")
    assert re.search(r"<!-- Load mathjax -->.*<!-- End of mathjax configuration -->", text, re.S), macro
