"""docs/policy.md is generated from Policy.table() (docs/gen_policy.py) and must not fall out of date."""

import importlib.util
from dataclasses import fields
from pathlib import Path

from bpseg_pgm.policy import STAGES, Policy

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = DOCS / "policy.md"
# the generator is a docs script (it names the lab notebook's sections), not a module of the library
_spec = importlib.util.spec_from_file_location("gen_policy", DOCS / "gen_policy.py")
_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_gen)
SOURCES, STAGE_TITLES, render = _gen.SOURCES, _gen.STAGE_TITLES, _gen.render


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
    positions = [page.index(f"## {STAGE_TITLES[s]}\n") for s in STAGES]
    assert positions == sorted(positions)
    assert set(STAGE_TITLES) == set(STAGES)


def test_sources_name_real_fields_and_sections():
    names = {f.name for f in fields(Policy)}
    assert set(SOURCES) <= names
    notebook = (Path(__file__).resolve().parents[2] / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    for name, source in SOURCES.items():
        if source.startswith("§"):
            number = source[1:].split(",")[0].split(" ")[0]
            assert f"\n## {number}. " in notebook, (name, number)


def test_no_library_module_mentions_the_lab_notebook():
    """The library cites the docs (docs/policy.md), never benchmarks/RESULTS.md: only the docs generator does."""
    root = Path(__file__).resolve().parents[2] / "bpseg_pgm"
    bad = [str(p.relative_to(root)) for p in root.rglob("*.py") if "RESULTS" in p.read_text(encoding="utf-8")]
    assert not bad, bad
