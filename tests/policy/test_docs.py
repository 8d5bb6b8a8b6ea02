"""docs/policy.md is generated from Policy.table() (bpseg_pgm.policy.docs) and must not fall out of date."""

from dataclasses import fields
from pathlib import Path

from bpseg_pgm.policy import STAGES, Policy
from bpseg_pgm.policy.docs import SOURCES, STAGE_TITLES, render

PAGE = Path(__file__).resolve().parents[2] / "docs" / "policy.md"


def test_the_page_is_up_to_date():
    assert PAGE.read_text(encoding="utf-8") == render(), (
        "docs/policy.md is out of date: run `python -m bpseg_pgm.policy.docs > docs/policy.md`")


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


def test_the_generator_imports_only_its_package():
    import ast

    import bpseg_pgm.policy.docs as docs

    tree = ast.parse(Path(docs.__file__).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 1 or not (node.module or "").startswith("bpseg_pgm"), node.module
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("bpseg_pgm") for a in node.names)
