"""The corpus extra missing (pyarrow, dask.distributed): one line naming ``pip install 'bpseg_pgm[corpus]'``, exit 2.

A missing module is simulated in a fresh interpreter with ``sys.modules[name] = None`` (``import name`` then raises
ImportError, as it would with the package absent).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

INSTALL = "pip install 'bpseg_pgm[corpus]'"


def _run(code: str, hidden: tuple[str, ...], cwd) -> subprocess.CompletedProcess:
    hide = "import sys\nfor _m in {!r}: sys.modules[_m] = None\n".format(hidden)
    return subprocess.run(
        [sys.executable, "-c", hide + code], capture_output=True, text=True, cwd=cwd, env=dict(os.environ), timeout=300
    )


@pytest.mark.parametrize(
    "hidden, missing",
    [(("pyarrow",), "pyarrow"), (("distributed",), "distributed"), (("dask", "distributed"), "dask")],
)
def test_corpus_without_the_extra_is_one_line_naming_it(hidden, missing, tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text("One cat sat on the mat. Two dogs ran in the park.\n", encoding="utf-8")
    code = "from bpseg_pgm.cli.main import main\nsys.exit(main(['corpus', 'in', '-o', 'out']))\n"
    proc = _run(code, hidden, tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"bpseg: error: bpseg corpus needs {missing}, from the corpus extra")
    assert INSTALL in lines[0]
    assert not (tmp_path / "out").exists()  # before any work


def test_the_api_raises_one_import_error_naming_the_extra(tmp_path):
    code = (
        "from bpseg_pgm.corpus import segment_corpus\n"
        "try:\n"
        "    segment_corpus('in', 'out')\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    proc = _run(code, ("pyarrow",), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (
        proc.stdout.startswith("ImportError bpseg corpus needs pyarrow, from the corpus extra")
        and INSTALL in proc.stdout
    )


def test_workers_0_needs_no_dask_and_parquet_input_names_the_extra(tmp_path):
    # without Dask a run in this process (workers=0) passes the check; a Parquet input without pyarrow names it
    code = (
        "from bpseg_pgm.corpus.extra import check_corpus\n"
        "check_corpus(dask=False)\n"
        "print('ok', 'distributed' in sys.modules and sys.modules['distributed'] is not None)\n"
    )
    proc = _run(code, ("dask", "distributed"), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["ok", "False"]
    (tmp_path / "docs.parquet").write_bytes(b"PAR1")
    code = (
        "from bpseg_pgm.io.documents import read_documents\n"
        "try:\n"
        "    read_documents('docs.parquet')\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    proc = _run(code, ("pyarrow",), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("ImportError reading docs.parquet (Parquet) needs pyarrow") and INSTALL in proc.stdout
