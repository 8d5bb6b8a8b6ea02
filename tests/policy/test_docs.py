"""docs/policy.md is generated from Policy.table() (docs/gen_policy.py) and must not fall out of date."""

import ast
import importlib.util
from dataclasses import fields
from pathlib import Path

import pytest

from bpseg_pgm.policy import STAGES, Policy

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = DOCS / "policy.md"
# the generator is a docs script (it cites the research notes' pages), not a module of the library
_spec = importlib.util.spec_from_file_location("gen_policy", DOCS / "gen_policy.py")
_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_gen)
SOURCES, STAGE_TITLES, render = _gen.SOURCES, _gen.STAGE_TITLES, _gen.render
headings, slugify = _gen.headings, _gen.slugify


def test_the_page_is_up_to_date():
    assert PAGE.read_text(encoding="utf-8") == render(), (
        "docs/policy.md is out of date: run `python docs/gen_policy.py > docs/policy.md`"
    )


def test_every_field_has_one_anchor_with_its_default_and_reason():
    page = render()
    for f in fields(Policy):
        assert page.count(f'<a id="{f.name}"></a>') == 1, f.name
        assert f"(#{f.name})" in page, f.name
        section = page.split(f'<a id="{f.name}"></a>', 1)[1].split("<a id=", 1)[0]
        assert f"`{f.default!r}`" in section and f.metadata["reason"] in section, f.name
        if f.metadata["measured"]:
            assert f.metadata["measured"] in section, f.name


def test_stages_in_the_procedures_order():
    page = render()
    assert set(STAGES) <= set(STAGE_TITLES), set(STAGES) - set(STAGE_TITLES)
    positions = [page.index(f"## {STAGE_TITLES[s]}\n") for s in STAGES if f"## {STAGE_TITLES[s]}\n" in page]
    assert positions == sorted(positions)


def test_sources_name_real_fields_pages_and_headings():
    """Every source is a page of docs/research/ and, where it names one, a heading of that page: the link works."""
    names = {f.name for f in fields(Policy)}
    assert set(SOURCES) <= names
    for name, sources in SOURCES.items():
        assert sources, name
        for page, heading, _note in sources:
            assert (DOCS / "research" / f"{page}.md").is_file(), (name, page)
            if heading is not None:
                assert heading in headings(page), (name, page, heading)
    rendered = render()
    for name in SOURCES:
        section = rendered.split(f'<a id="{name}"></a>', 1)[1].split("<a id=", 1)[0]
        assert "- **Source**: [" in section and "](research/" in section, name


def test_slugs_are_mkdocs_anchors():
    """The anchors the page links to are the ones MkDocs gives the headings (Python-Markdown's toc)."""
    toc = pytest.importorskip("markdown.extensions.toc")
    for sources in SOURCES.values():
        for _page, heading, _note in sources:
            if heading is not None:
                assert slugify(heading) == toc.slugify(heading.replace("`", ""), "-"), heading


def test_no_library_module_mentions_the_lab_notebook():
    """The library cites the docs (docs/policy.md), never the old lab notebook (benchmarks/RESULTS.md, now the pages
    of docs/research/), and imports nothing from research/ or benchmarks/ (the studies and the benchmark scripts)."""
    root = Path(__file__).resolve().parents[2] / "bpseg_pgm"
    bad = []
    for p in root.rglob("*.py"):
        text = p.read_text(encoding="utf-8")
        if "RESULTS" in text:
            bad.append(f"{p.relative_to(root)} mentions RESULTS")
        for node in ast.walk(ast.parse(text)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            bad += [
                f"{p.relative_to(root)} imports {m}" for m in modules if m.split(".")[0] in ("research", "benchmarks")
            ]
    assert not bad, bad
