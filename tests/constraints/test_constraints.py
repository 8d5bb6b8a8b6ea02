"""The constraint objects and the one validator: what each takes, NumPy's numbers, the uniform message."""

from numbers import Integral, Real

import numpy as np
import pytest

from bpseg_pgm.constraints import Instance, Interval, Options, StrOptions, describe, validate


def test_an_integer_interval():
    c = Interval(Integral, 1, None)
    assert str(c) == "an integer >= 1"
    assert c.is_satisfied_by(1) and c.is_satisfied_by(np.int64(5))
    for bad in (0, 2.0, True, np.bool_(True), "3", None, np.float32(2)):
        assert not c.is_satisfied_by(bad), bad
    assert type(validate("n", np.int64(5), [c])) is int


def test_a_real_interval_and_its_closed_ends():
    assert str(Interval(Real, 0, 1, closed="neither")) == "a number in (0, 1)"
    assert str(Interval(Real, 0, 1, closed="left")) == "a number in [0, 1)"
    assert str(Interval(Real, 0, 1e6, closed="right")) == "a number in (0, 1e+06]"
    c = Interval(Real, 0, 1, closed="left")
    assert c.is_satisfied_by(0) and c.is_satisfied_by(np.float32(0.5)) and not c.is_satisfied_by(1.0)
    for bad in (float("nan"), float("inf"), -1e-12, False):
        assert not c.is_satisfied_by(bad), bad
    assert not Interval(Real, None, None).is_satisfied_by(float("inf"))
    value = validate("x", np.float32(0.5), [c])
    assert value == 0.5 and type(value) is float


def test_a_bad_interval_is_refused():
    with pytest.raises(ValueError, match="closed"):
        Interval(Real, 0, 1, closed="open")
    with pytest.raises(ValueError, match="above its right"):
        Interval(Real, 2, 1)


def test_words_values_and_types():
    s = StrOptions(("auto", "runs", "topics"))
    assert str(s) == "one of ('auto', 'runs', 'topics')" and s.is_satisfied_by("runs") and not s.is_satisfied_by("x")
    o = Options((True, False))
    assert o.is_satisfied_by(True) and o.is_satisfied_by(np.bool_(False)) and not o.is_satisfied_by(1)
    i = Instance(np.random.Generator, "a numpy Generator")
    assert i.is_satisfied_by(np.random.default_rng(0)) and str(i) == "a numpy Generator"


def test_one_message_for_every_list_of_constraints():
    constraints = [StrOptions(("auto",)), None, Interval(Real, 0, None)]
    assert describe(constraints) == "'auto' or None or a number >= 0"
    assert str(StrOptions("bpseg_pgm.runs.cost_registry:cost_names")).startswith("one of ('embeddings'")
    assert validate("context", None, constraints) is None and validate("context", "auto", constraints) == "auto"
    with pytest.raises(ValueError, match=r"^BPSeg\.context must be 'auto' or None or a number >= 0, got -1$"):
        validate("context", -1, constraints, owner="BPSeg.")
