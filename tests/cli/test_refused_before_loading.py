"""Arguments that can be checked without embeddings are refused before anything heavy loads (issue 52, item 4).

``bpseg segment FILE -k 50`` (more segments than sentences), ``bpseg prune ... --budget 2`` and a ``--model``
folder that does not exist were refused after 18-62 s, once scikit-learn, numba and the model had loaded. Each is
one line and exit 2, with neither the estimator's libraries nor torch imported, within 3 s of ``main`` starting.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "notes.txt")

#: runs ``main(argv)`` in a fresh interpreter, then prints its exit code, its wall time and the heavy modules loaded
_RUN = """
import json, sys, time
from bpseg_pgm.cli.main import main
start = time.perf_counter()
code = main({argv!r})
seconds = time.perf_counter() - start
heavy = sorted(m for m in ("sklearn", "torch", "sentence_transformers", "numba", "pgmpy") if m in sys.modules)
print(json.dumps({{"code": code, "seconds": seconds, "heavy": heavy}}), file=sys.stdout)
"""

CASES = [
    (["segment", EXAMPLE, "-k", "50"], "n_segments=50 is larger than the number of sentences (18)"),
    (["segment", EXAMPLE, "--lines", "-k", "19"], "n_segments=19 is larger than the number of sentences"),
    (["segment", EXAMPLE, "--model", "/no/such/model"], "model directory does not exist: /no/such/model"),
    (["prune", EXAMPLE, "--query", "When is the move?", "--budget", "2"], "budget must be a fraction"),
    (["prune", EXAMPLE, "--query", "When is the move?", "--model", "./no-such-model"], "model directory"),
    (["corpus", "/no/such/folder", "-o", "out"], "corpus input does not exist: /no/such/folder"),
]


@pytest.mark.parametrize("argv, message", CASES, ids=[" ".join(c[0][:1] + c[0][2:]) for c in CASES])
def test_refused_in_one_line_before_the_heavy_libraries_load(argv, message, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", _RUN.format(argv=argv)], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    lines = proc.stderr.strip().splitlines()
    assert result["code"] == 2 and len(lines) == 1 and message in lines[0], proc.stderr
    assert result["heavy"] == [], f"loaded before refusing: {result['heavy']}"
    assert result["seconds"] < 3, f"refused after {result['seconds']:.1f} s"
    assert not (tmp_path / "out").exists()
