"""BPSeg's parameter table is executable: its constraints are the estimator's checks, the CLI's options and the
parameters page."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from bpseg_pgm.constraints import satisfied
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.params import PARAMETERS

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("gen_parameters", ROOT / "docs" / "gen_parameters.py")
_gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_gen)

#: a value each parameter's constraints refuse
BAD = {
    "structure": "both",
    "damping": 1.0,
    "engine": "warp",
    "potentials": "nope",
    "lam": -1.0,
    "sigma": 0,
    "max_iter": 0,
    "tol": 0.0,
    "random_state": -1,
    "em_rounds": 1.5,
    "context": "none",
    "merge_above": 2.0,
    "init": "middle",
    "neighbors": "some",
    "n_segments": 0,
    "group_runs": 1,
    "policy": {"run_scale": 2.0},
    "cost": "wide",
    "granularity": -0.5,
}


def test_every_default_satisfies_its_constraints():
    for name, p in PARAMETERS.items():
        assert p.default is None and None in p.constraints or satisfied(p.default, p.constraints) is not None, name
        assert p.help and p.takes, name


@pytest.mark.parametrize("name", sorted(PARAMETERS))
def test_the_estimator_checks_each_parameter_with_the_tables_message(name):
    assert sorted(BAD) == sorted(PARAMETERS)
    message = f"{name} must be {PARAMETERS[name].takes}, got {BAD[name]!r}"
    with pytest.raises(ValueError) as exc:
        BPSeg(**{name: BAD[name]}).check_params()
    assert str(exc.value) == message


def test_numpy_values_pass_as_pythons():
    BPSeg(n_segments=np.int64(3), max_iter=np.int32(20), tol=np.float32(1e-4), random_state=np.int64(2)).check_params()


def test_the_cli_options_come_from_the_table():
    from bpseg_pgm.cli.main import build_parser
    from bpseg_pgm.cli.options import CLI_PARAMETERS
    from bpseg_pgm.runs.cost_registry import cost_names

    seg = build_parser()._subparsers._group_actions[0].choices["segment"]
    actions = {a.dest: a for a in seg._actions}
    for name in CLI_PARAMETERS:
        assert name in actions, name
        if name != "structure":
            assert PARAMETERS[name].flag in actions[name].option_strings, name
            assert actions[name].help.startswith(PARAMETERS[name].help), name
    assert tuple(actions["cost"].choices) == cost_names()
    assert actions["sigma"].type("none") is None and actions["sigma"].type("auto") == "auto"
    assert actions["sigma"].type("2") == 2.0 and actions["max_iter"].type("7") == 7
    assert actions["group_runs"].type("on") is True and actions["group_runs"].type("off") is False


def test_the_parameters_page_is_generated_from_the_table():
    page = (ROOT / "docs" / "parameters.md").read_text(encoding="utf-8")
    assert _gen.render_table() in page, "docs/parameters.md is out of date: run `python docs/gen_parameters.py`"
    for name, p in PARAMETERS.items():
        assert f"| `{name}` |" in _gen.render_table() and p.takes.replace("|", "\\|") in _gen.render_table()
