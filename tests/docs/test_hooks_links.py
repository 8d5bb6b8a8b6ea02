"""The docs hook that makes ``docs/X.md`` in code (the API reference's docstrings) a link to page X."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs" / "hooks.py")
hooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hooks)


def test_a_docs_path_in_code_links_its_page():
    html = "see <code>docs/policy.md</code> and <code>docs/research/query-pruning.md</code>, <code>docs/x.md</code>"
    out = hooks.docs_path_links(html, "api/", {"policy.md", "research/query-pruning.md"})
    assert '<a href="../policy/"><code>docs/policy.md</code></a>' in out
    assert '<a href="../research/query-pruning/"><code>docs/research/query-pruning.md</code></a>' in out
    assert "<code>docs/x.md</code>" in out and '"../x/"' not in out  # no such page: left as it was
    assert hooks.docs_path_links("<code>docs/index.md</code>", "", {"index.md"}) == (
        '<a href="./"><code>docs/index.md</code></a>'
    )
