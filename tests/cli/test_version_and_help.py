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
    proc = subprocess.run(
        [sys.executable, "-m", "bpseg_pgm.cli.main", "--version"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"bpseg {_package_version()}\n"


def test_the_parser_is_built_without_scikit_learn():
    code = "import sys; from bpseg_pgm.cli.main import build_parser; build_parser(); print('sklearn' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "False\n"


def test_the_defaults_the_help_shows_are_bpsegs():
    """The options' help is made from BPSeg's parameter table, whose defaults are BPSeg's."""
    from bpseg_pgm.cli.parser import build_parser
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.params import PARAMETERS
    from bpseg_pgm.topics.representatives import INITS

    params = BPSeg().get_params()
    assert params == {name: p.default for name, p in PARAMETERS.items()}
    seg = build_parser()._subparsers._group_actions[0].choices["segment"]
    actions = {a.dest: a for a in seg._actions}
    for name in ("potentials", "engine", "init", "merge_above", "cost", "tol", "damping"):
        assert f"(default {params[name]})" in actions[name].help, name
    assert "(default auto)" in actions["group_runs"].help
    assert tuple(actions["init"].choices) == INITS
