"""The docs site's pages (issue 37): the words a user looks for are on them, every page is in the nav, and every
README section that moved there still has a home."""

import fnmatch
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
NAV = (ROOT / "mkdocs.yml").read_text("utf-8")


def _pages() -> dict[str, str]:
    return {p.relative_to(DOCS).as_posix(): p.read_text("utf-8") for p in sorted(DOCS.rglob("*.md"))}


def test_the_docs_mention_what_users_look_for():
    text = "\n".join(_pages().values())
    for word in (
        "BPSeg",
        "labels_",
        "segment_text",
        "Segmentation",
        "bpseg corpus",
        "--segment-length",
        "register_engine",
    ):
        assert word in text, word


def _not_in_nav() -> list[str]:
    """The patterns of mkdocs.yml's ``not_in_nav`` block: pages reached from another page, not from the nav."""
    block = re.search(r"^not_in_nav: \|\n((?:  .*\n?)+)", NAV, re.M)
    return [line.strip() for line in block.group(1).splitlines() if line.strip()] if block else []


def test_every_page_is_in_the_nav():
    listed = set(re.findall(r":\s*([\w/.-]+\.(?:md|ipynb))\s*$", NAV, re.M))
    apart = [p for p in _pages() if any(fnmatch.fnmatch("/" + p, pattern) for pattern in _not_in_nav())]
    assert set(_pages()) - set(apart) <= listed, sorted(set(_pages()) - set(apart) - listed)
    assert all((DOCS / page).exists() for page in listed), sorted(p for p in listed if not (DOCS / p).exists())
    assert {"index.md", "concepts.md", "api.md", "cli.md", "code-map.md"} <= listed


def test_the_pages_that_took_over_the_readme_say_what_it_said():
    pages = _pages()
    expected = {
        "index.md": ["## Quickstart", "`find-links`", "the tests that need them skip", "Units.from_sentences"],
        "concepts.md": [
            "## Segments and runs",
            "## The runs model, the topic model and grouped runs",
            "## How the number of segments is chosen",
            "## Choosing the number yourself",
            "## What confidence means",
            "**Empty units.**",
            "seg.recut(segment_length=12)",
        ],
        "parameters.md": ["## `structure`", "## `group_runs`", "## `cost`", "| `merge_above` |"],
        "command-line.md": ["--segment-length N", "## Output formats", "bpseg: error:"],
        "howto/rag.md": ["BPSegTextSplitter", "BPSegNodeParser", "hard_cap=False"],
        "howto/prune.md": ["prune(", "0.2 x its BM25 score"],
        "howto/corpus.md": ["segment_corpus", "_bpseg_corpus.lock", "| `confidence` | float64 |"],
        "howto/markdown.md": ["markdown=True"],
        "howto/plugins.md": ["make_potentials", "register_cost", "@register_engine"],
        "howto/embeddings.md": ["onnx-int8", 'Embedder(device="cuda")'],
        "model.md": ["| `mplp` |", "Bethe estimate", "labels_"],
        "code-map.md": ["## Packages, bottom layer first", "**add an engine here**"],
        "evaluation.md": ["bpseg bench corpus", "| BP-Seg, this library's defaults |"],
    }
    for page, phrases in expected.items():
        for phrase in phrases:
            assert phrase in pages[page], (page, phrase)
