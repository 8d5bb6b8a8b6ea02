"""README.md fits on a few screens (issue 37): at most 200 lines, none over 400 characters; it keeps the two set-up
lines .ci/run greps verbatim, each alone on its line; its picture and its links into the docs exist."""

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
SETUP = "python3 -m venv .venv && . .venv/bin/activate && pip install torch==2.13.0 && pip install -e '.[test]' -e ./bench && bpseg demo"
TESTS = ". .venv/bin/activate && pytest"


def test_the_readme_is_short():
    lines = README.splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move detail into docs/"
    long = [(i + 1, len(line)) for i, line in enumerate(lines) if len(line) > 400]
    assert not long, f"README.md lines over 400 characters (line, length): {long}"


def test_the_readme_holds_the_two_set_up_lines_that_ci_runs():
    lines = README.splitlines()
    assert lines.count(SETUP) == 1 and lines.count(TESTS) == 1
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    assert f'setup_cmd="{SETUP}"' in ci and f'test_cmd="{TESTS}"' in ci  # the lines .ci/run looks for


def test_the_readme_picture_and_links_exist():
    targets = re.findall(r"\]\(([^)\s]+)\)", README)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert "docs/images/meeting.png" in local
    assert any(t.startswith("docs/") and t.endswith(".md") for t in local)
    missing = [t for t in local if not (ROOT / unquote(t.split("#")[0])).exists()]
    assert not missing, missing
