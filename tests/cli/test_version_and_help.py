"""``bpseg --version``, and a parser that is built without scikit-learn (so ``--help`` is quick)."""

import subprocess
import sys

import pytest

from bpseg_pgm.cli import main as cli_main


def _package_version() -> str:
    import bpseg_pgm

    return bpseg_pgm.__version__


def test_version_prints_the_package_version_and_exits_0(capsys):
    with pytest.raises(SystemExit) as exc:
        cli_main.main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"bpseg {_package_version()}\n"


def test_version_in_a_subprocess():
    proc = subprocess.run([sys.executable, "-m", "bpseg_pgm.cli.main", "--version"], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"bpseg {_package_version()}\n"
