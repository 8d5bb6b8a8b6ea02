"""The teaching notebooks run top to bottom, offline, in a kernel from this environment.

Each notebook in ``notebooks/`` is executed with nbclient (kernel ``python3``, 300 s per cell)
with ``MPLBACKEND=Agg``, the Hugging Face libraries in offline mode, and a fresh embedding cache
shared by the three notebooks (unless ``BPSEG_CACHE_DIR`` is already set), so a run measures
the cold-cache time. The committed files must carry no outputs and match ``notebooks/_build.py``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
import time
import warnings
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[2]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = [
    "01_bp_seg_from_scratch.ipynb",
    "02_alternative_potentials.ipynb",
    "03_swapping_inference.ipynb",
    "04_which_inference.ipynb",
    "05_topics_over_runs.ipynb",
    "06_loopy_bp_on_a_grid.ipynb",
]
#: outputs that a notebook's prose quotes: when the library's result on its data changes, the test says so
#: and the prose (notebooks/_cells_*.py) must be brought up to date with it.
QUOTED_OUTPUTS = {
    # section 4's bullets: one fit on the Choi-style documents warns that its messages did not settle
    "02_alternative_potentials.ipynb": [
        "(engine 'potts') stopped at max_iter=100 sweeps before its messages converged"
    ],
    "05_topics_over_runs.ipynb": [
        "runs start at turns [0, 6, 49, 143, 237]",
        "granularity_ without words: {'span': 5, 'words': None}; with the turns' words: {'span': 5, 'words': 5}",
        "best silhouette 0.386 at 2 topics",
        "cut at similarity -0.232; proposed topic of each run: [0, 0, 1, 1, 0]",
        "the THRESHOLD cut alone: [0, 1, 2, 3, 1]",
        "arg-max topics: loopy [0, 0, 1, 1, 0], exact [0, 0, 1, 1, 0]",
        "returning_topics(): [0]",
        "33 of them in the returning topic found, which has 112 turns",
        "ARI: runs only 0.360, topics over runs 0.637",
        "evaluation, banana, euros, meeting, cost",
    ],
}
NUMBER_WORDS = {3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine"}
CELL_TIMEOUT = 300
TARGET_SECONDS = 120  # each notebook should finish within two minutes on 2 cores

PROBE = "import json, sys\nprint(json.dumps({'prefix': sys.prefix, 'executable': sys.executable}))"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> str:
    """One embedding cache for the three notebooks: cold for the first, warm for the others."""
    return os.environ.get("BPSEG_CACHE_DIR") or str(tmp_path_factory.mktemp("bpseg_cache"))


def _load_builder():
    spec = importlib.util.spec_from_file_location("notebooks_build", NB_DIR / "_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text_outputs(nb) -> str:
    """Everything the executed code cells printed or displayed as plain text, joined."""
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append(out.get("text", ""))
            elif "text/plain" in out.get("data", {}):
                parts.append(out["data"]["text/plain"])
    return "\n".join(parts)


def _probe_output(cell) -> dict | None:
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream" and out.get("name") == "stdout":
            return json.loads(out["text"].strip().splitlines()[-1])
    return None


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_is_stripped(name):
    nb = nbformat.read(NB_DIR / name, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{name} cell {i} has committed outputs"
            assert cell.execution_count is None, f"{name} cell {i} has an execution count"


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_matches_generator(name):
    builder = _load_builder()
    assert (NB_DIR / name).read_text("utf-8") == builder.render(name), (
        f"{name} differs from its cells in notebooks/_build.py; run: python notebooks/_build.py"
    )


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_runs(name, cache_dir, monkeypatch, record_property):
    # the kernel's working directory; no notebook needs the datasets beside the repository: what 02, 04 and 05 read
    # ships in bpseg_bench.samples, Choi-style documents built from PEPs and QMSum meetings
    # (tests/docs/test_notebook_data.py)
    monkeypatch.chdir(NB_DIR)
    for key, value in {
        "MPLBACKEND": "Agg",
        "BPSEG_CACHE_DIR": cache_dir,
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    }.items():
        monkeypatch.setenv(key, value)

    nb = nbformat.read(NB_DIR / name, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(PROBE))  # which interpreter runs the kernel?
    client = nbclient.NotebookClient(
        nb, timeout=CELL_TIMEOUT, kernel_name="python3", resources={"metadata": {"path": str(NB_DIR)}}
    )
    start = time.perf_counter()
    error = None
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as exc:
        error = exc
    elapsed = time.perf_counter() - start
    record_property("runtime_s", round(elapsed, 1))
    print(f"{name}: {elapsed:.1f} s")

    probe = _probe_output(nb.cells[0])
    assert probe is not None, "the kernel did not report its interpreter"
    assert os.path.realpath(probe["prefix"]) == os.path.realpath(sys.prefix), (
        f"kernel 'python3' runs {probe['executable']}, not this environment ({sys.executable}); "
        "install ipykernel here or fix the python3 kernelspec"
    )
    if error is not None:
        raise AssertionError(f"{name} failed:\n{error}") from None
    printed = _text_outputs(nb)
    missing = [quote for quote in QUOTED_OUTPUTS.get(name, []) if quote not in printed]
    assert not missing, f"{name}: its prose quotes outputs it no longer prints (update its _cells file): {missing}"
    if elapsed > TARGET_SECONDS:
        warnings.warn(f"{name} took {elapsed:.0f} s, over the {TARGET_SECONDS} s target", stacklevel=1)


def test_every_notebook_is_built_tested_and_listed():
    """The builder, this test, notebooks/README.md and the docs' Notebooks page name the same notebooks, the page
    counts them, and the docs site renders each (mkdocs.yml's nav, docs/notebooks/ linking to notebooks/)."""
    assert list(_load_builder().NOTEBOOKS) == NOTEBOOKS
    page = (ROOT / "docs" / "notebooks.md").read_text("utf-8")
    nb_readme = (NB_DIR / "README.md").read_text("utf-8")
    nav = (ROOT / "mkdocs.yml").read_text("utf-8")
    for name in NOTEBOOKS:
        assert f"`{name}`" in page, f"docs/notebooks.md does not list {name}"
        assert f"`{name}`" in nb_readme, f"notebooks/README.md does not list {name}"
        assert f"notebooks/{name}" in nav, f"mkdocs.yml's nav does not render {name}"
        assert (ROOT / "docs" / "notebooks" / name).resolve() == (NB_DIR / name).resolve(), name
    assert f"{NUMBER_WORDS[len(NOTEBOOKS)]} teaching notebooks" in page


def test_the_docs_build_executes_the_notebooks():
    """The site shows each notebook's outputs and figures: mkdocs-jupyter executes them (unless BPSEG_DOCS_EXECUTE is
    set to false for a quick local build) and an error in a cell fails the build instead of being rendered."""
    block = re.search(r"- mkdocs-jupyter:\n((?:      .*\n)+)", (ROOT / "mkdocs.yml").read_text("utf-8")).group(1)
    options = dict(line.strip().split(": ", 1) for line in block.splitlines())
    assert options["execute"] == "!ENV [BPSEG_DOCS_EXECUTE, true]"
    assert options["allow_errors"] == "false"
    assert options["kernel_name"] == "python3"
