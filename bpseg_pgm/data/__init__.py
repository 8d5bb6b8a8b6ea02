"""Data shipped with the package: the BP-Seg paper's illustrative example (Section 4.1).

The 13-sentence text mixes weather, tennis and small talk; the paper asks, for k = 2..7,
whether the three tennis sentences (5, 10 and 13, counting from 1) end up together. Both the
demo (:mod:`bpseg_pgm.cli.demo`) and the benchmark (:mod:`bpseg_bench.bench_example`)
read it from here.
"""

from __future__ import annotations

from importlib.resources import files

__all__ = ["EXAMPLE_KS", "TENNIS", "load_example"]

TENNIS = (4, 9, 12)  # 0-based indices of the tennis sentences
EXAMPLE_KS = tuple(range(2, 8))


def load_example() -> list[str]:
    """The illustrative example's sentences, one per line of ``illustrative_example.txt``."""
    from bpseg_pgm.text.split import split_lines

    return split_lines(files("bpseg_pgm").joinpath("data/illustrative_example.txt").read_text("utf-8"))
