"""CI builds the docs where a broken link fails it: `mkdocs build --strict` without -q (with -q mkdocs drops the
warnings before strict mode counts them), from a clean copy of the commit (so a link to an untracked file fails)."""

import re
from pathlib import Path

CI = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text("utf-8")


def test_ci_builds_the_docs_strictly_from_a_clean_copy():
    builds = [line for line in CI.splitlines() if "mkdocs build" in line and not line.lstrip().startswith("#")]
    assert builds, "no mkdocs build in .ci/run"
    for line in builds:
        assert "--strict" in line and not re.search(r"\s-q\b|--quiet", line), line
    assert re.search(r"git archive HEAD \| tar -x -C \"\$docs_tree\"", CI)
    assert "cd '$docs_tree'" in CI
