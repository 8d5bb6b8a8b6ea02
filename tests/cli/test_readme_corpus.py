"""The `segment_corpus` snippet (docs/howto/corpus.md, once the README's) and the set-up notes (README.md and the
docs' Getting started) say what is true: it runs as a script, integer offsets survive error rows when read with
``dtype_backend="pyarrow"``, and the CPU torch build is named."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")
CORPUS_PAGE = (ROOT / "docs" / "howto" / "corpus.md").read_text("utf-8")
GETTING_STARTED = (ROOT / "docs" / "index.md").read_text("utf-8")


def _corpus_snippet() -> ast.Module:
    block = re.search(r"```python\n(.*?)```", CORPUS_PAGE, re.S).group(1)
    return ast.parse(block)


def _is_main_guard(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
        and isinstance(node.test.comparators[0], ast.Constant)
        and node.test.comparators[0].value == "__main__"
    )


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", None)) == name
    ]


def test_the_segment_corpus_snippet_starts_its_local_cluster_under_a_main_guard():
    # saved as a script, a LocalCluster's worker processes import it again: unguarded, it fails to start
    tree = _corpus_snippet()
    guards = [n for n in tree.body if _is_main_guard(n)]
    assert len(guards) == 1
    assert _calls(guards[0], "segment_corpus") and _calls(tree, "segment_corpus") == _calls(guards[0], "segment_corpus")


def test_the_snippet_reads_offsets_as_integers(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    import pandas as pd

    (call,) = _calls(_corpus_snippet(), "read_parquet")
    assert {k.arg: getattr(k.value, "value", None) for k in call.keywords} == {"dtype_backend": "pyarrow"}
    # what an error row looks like: its offsets null (the corpus schema: start, end int64)
    table = pa.table(
        {
            "doc": ["a", "a", "bad"],
            "start": pa.array([0, 5, None], pa.int64()),
            "end": pa.array([4, 9, None], pa.int64()),
        }
    )
    pq.write_table(table, tmp_path / "part.parquet")
    assert pd.read_parquet(tmp_path / "part.parquet")["start"].dtype == "float64"  # why the page says it
    df = pd.read_parquet(tmp_path / "part.parquet", dtype_backend="pyarrow")
    assert str(df["start"].dtype) == "int64[pyarrow]" and df["end"].iloc[1] == 9


def test_the_set_up_notes_say_how_to_get_the_cpu_torch_build():
    install = README[README.index("## Install") : README.index("## Quickstart")]
    assert "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu\npip install .\n" in install
    # the two lines .ci/run greps verbatim are still there
    assert (
        "\npython3 -m venv .venv && . .venv/bin/activate && pip install torch==2.13.0 && pip install -e '.[test]' "
        "-e ./bench && bpseg demo\n"
    ) in install
    assert "\n. .venv/bin/activate && pytest\n" in install
    setup = GETTING_STARTED[GETTING_STARTED.index("## Install") : GETTING_STARTED.index("## Quickstart")]
    assert "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu" in setup
    assert "`find-links`" in setup and "torch-2.13.0+cpu" in setup  # when the pinned line gets the CPU build
