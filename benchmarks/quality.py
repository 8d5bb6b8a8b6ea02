"""The held-out quality table: the default ``BPSeg()`` and its peers on every held-out set, one ``bpseg bench corpus`` run.

What ``docs/benchmarks.md`` reports as today's quality. The sets are the held-out ones only (nothing was chosen on
them): QMSum val (meetings), PEPs val (Python Enhancement Proposals, sections), the round-robin PEPs val and the
two returning Choi constructions (topics that return), Choi sets 2-4, and QMSum val's meetings with a returning
topic. The methods are ``bpseg bench corpus``'s own default list: the library's default (``bpseg``), its other
structures (``bpseg-ungrouped``, ``bpseg-topics``, ``bpseg-contiguous``), oracles told the gold number of
segments (``bpseg-contiguous-true-k``, ``equal-blocks``, ``kmeans-true-k``, ``kcpd-true-k``), and the automatic
baselines (``one-segment``, ``texttiling``, ``kcpd``)::

    python benchmarks/quality.py                          # all held-out sets, every method (tens of minutes on 2 cores)
    python benchmarks/quality.py --methods bpseg          # the default alone (about a minute, embeddings cached)
    python benchmarks/quality.py --sets qmsum-val --limit 5 --out /tmp/q   # a quick look

Any option after the script's own (``--sets``, ``--out``) goes to ``bpseg bench corpus`` as it is (``--methods``,
``--limit``, ``--seed``, ``--cache-dir``, ``--no-progress``). Writes ``corpus_results.{md,json,png}`` to ``--out``
(default ``~/.cache/bpseg_pgm/benchmarks/quality``, or ``$BPSEG_CACHE_DIR/benchmarks/quality``: outside the working
tree). Needs the ``bench`` extra and the datasets (``shared/data/`` or ``$BPSEG_QMSUM_DIR``, ``$BPSEG_PEPS_DIR``,
``$BPSEG_CHOI_DIR``); embeddings come from the on-disk cache.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELD_OUT = ("qmsum-val", "peps-val", "peps-val-rr", "choi-234", "interleaved-234", "choi-234-rr", "qmsum-val-returns")


def out_dir() -> Path:
    """Where results go unless ``--out`` says otherwise: ``$BPSEG_CACHE_DIR/benchmarks`` (default
    ``~/.cache/bpseg_pgm/benchmarks``), outside the working tree, as the embedding cache."""
    env = os.environ.get("BPSEG_CACHE_DIR")
    return (Path(env).expanduser() if env else Path.home() / ".cache" / "bpseg_pgm") / "benchmarks"


def command(argv: list[str] | None = None) -> list[str]:
    """The ``bpseg`` arguments this script runs (without the program name)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sets", nargs="+", default=list(HELD_OUT), metavar="DATASET", help="default: every held-out set")
    p.add_argument("--out", type=Path, default=out_dir() / "quality", help="output folder (default: %(default)s)")
    args, rest = p.parse_known_args(argv)
    return ["bench", "corpus", *args.sets, "--out", str(args.out), *rest]


def main(argv: list[str] | None = None) -> int:
    from bpseg_pgm.cli.main import main as bpseg

    args = command(argv)
    print("bpseg " + " ".join(args), file=sys.stderr)
    return bpseg(args)


if __name__ == "__main__":
    sys.exit(main())
