"""Write the teaching notebooks from the cell sources in ``_cells_*.py`` (outputs stripped).

The ``.ipynb`` files are what is committed and what the test suite executes; this script is
how they are produced, so that a change is made in one readable place. Usage::

    python notebooks/_build.py            # (re)write the notebooks
    python notebooks/_build.py --check    # exit 1 if a committed notebook differs

Cell ids are fixed (``cell-01``, ...) so regenerating an unchanged notebook changes no byte.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent

#: notebook file -> module (in this folder) whose ``CELLS`` list holds its cells.
NOTEBOOKS = {
    "01_bp_seg_from_scratch.ipynb": "_cells_01.py",
    "02_alternative_potentials.ipynb": "_cells_02.py",
    "03_swapping_inference.ipynb": "_cells_03.py",
    "04_which_inference.ipynb": "_cells_04.py",
    "05_topics_over_runs.ipynb": "_cells_05.py",
    "06_loopy_bp_on_a_grid.ipynb": "_cells_06.py",
}

METADATA = {
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}


def _load_cells(module_file: str) -> list[tuple[str, str]]:
    spec = importlib.util.spec_from_file_location(module_file[:-3], HERE / module_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CELLS


def build(name: str) -> nbformat.NotebookNode:
    """The notebook ``name`` as a stripped NotebookNode (no outputs, no execution counts)."""
    cells = []
    for i, (kind, source) in enumerate(_load_cells(NOTEBOOKS[name]), start=1):
        source = source.strip("\n")
        cell = new_markdown_cell(source) if kind == "md" else new_code_cell(source)
        cell["id"] = f"cell-{i:02d}"
        cells.append(cell)
    nb = new_notebook(cells=cells, metadata=METADATA)
    nbformat.validate(nb)
    return nb


def render(name: str) -> str:
    """The exact file text of notebook ``name``."""
    return nbformat.writes(build(name)) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    stale = []
    for name in NOTEBOOKS:
        path = HERE / name
        text = render(name)
        if args.check:
            if not path.exists() or path.read_text("utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, "utf-8")
            print(f"wrote {path}")
    if stale:
        print("out of date (run python notebooks/_build.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
