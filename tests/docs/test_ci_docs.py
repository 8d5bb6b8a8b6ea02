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


def test_ci_builds_the_docs_with_the_datasets_hidden_and_with_them():
    """Once as on a new user's clone: the packages imported from the temporary copy (PYTHONPATH), no
    $BPSEG_<dataset>_DIR, a check that no dataset can be found from there, then the build, notebooks executed; once
    more with the datasets beside the clone."""
    builds = [
        line
        for line in CI.splitlines()
        if "mkdocs build --strict" in line and not line.lstrip().startswith(("#", "echo"))
    ]
    assert len(builds) == 2, builds
    hidden = re.search(r'^no_data="env (.*?)"$', CI, re.M | re.S)
    assert hidden, "no no_data environment in .ci/run"
    for var in ("BPSEG_CHOI_DIR", "BPSEG_QMSUM_DIR", "BPSEG_PEPS_DIR", "BPSEG_LESSONLINK_DIR", "BPSEG_TINYREC_DIR"):
        assert f"-u {var}" in hidden.group(1), var
    assert "PYTHONPATH='$docs_tree:$docs_tree/bench'" in hidden.group(1)
    check = CI.index("the datasets are not hidden")
    first, second = (CI.index(line) for line in builds)
    assert check < first < second, "the check that the data is hidden runs before the first build"
    assert "$no_data" in CI[check - 2000 : check] and "$no_data" in CI[first - 200 : first + len(builds[0])]
    assert "$no_data" not in CI[second - 200 : second + len(builds[1])], "the second build sees the datasets"
    assert "BPSEG_DOCS_EXECUTE=false" not in CI, "the notebooks are executed"
