"""Every Policy field has its real range, checked when a Policy is made, and every value in range fits.

The cases the fourth audit found (values the Policy took that crashed, stalled or clipped the fit) are each a
ValueError naming the field and its range now, or fit."""

import time
from dataclasses import fields
from numbers import Integral

import numpy as np
import pytest
from planted import planted_blocks, planted_words

from bpseg_pgm.constraints import Interval
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.features.units import Units
from bpseg_pgm.policy import DEFAULT_POLICY, Policy
from bpseg_pgm.runs.model import fit_runs

FIELDS = {f.name: f for f in fields(Policy)}


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"correlation_window": 0}, r"Policy\.correlation_window must be an integer >= 16, got 0"),
        ({"correlation_window": 1}, r"Policy\.correlation_window must be an integer >= 16, got 1"),
        ({"gradual_full": 0.5}, r"Policy\.gradual_full must be below Policy\.gradual_effect \(0\.5\)"),
        (
            {"run_scale": 1e308, "gradual_full": 1e308, "gradual_effect": 1e308},
            r"Policy\.gradual_effect must be a number in \(0, 1e\+06\], got 1e\+308",
        ),
        ({"group_threshold": 2.0}, r"Policy\.group_threshold must be a number in \[-1, 1\], got 2\.0"),
        ({"confidence_runs": 5.0}, r"Policy\.confidence_runs must be a number in \(0, 1\), got 5\.0"),
        ({"group_retry_damping": 7.0}, r"Policy\.group_retry_damping must be a number in \[0, 1\), got 7\.0"),
        ({"word_weight": 1e308}, r"Policy\.word_weight must be a number in \[0, 1e\+06\], got 1e\+308"),
    ],
)
def test_the_audits_values_are_one_value_error_naming_the_field_and_its_range(changes, message):
    with pytest.raises(ValueError, match=message):
        Policy(**changes)
    with pytest.raises(ValueError, match=message):
        DEFAULT_POLICY.replace(**changes)


def test_gradual_full_equal_to_gradual_effect_is_refused_whichever_is_changed():
    with pytest.raises(ValueError, match="gradual_full must be below"):
        DEFAULT_POLICY.replace(gradual_effect=0.2)
    assert Policy(gradual_full=0.49).gradual_full == 0.49


def test_numpy_numbers_are_taken_as_pythons():
    p = Policy(correlation_window=np.int64(100), run_scale=np.float32(2.5), null_units=np.int32(10))
    assert p.correlation_window == 100 and type(p.correlation_window) is int
    assert p.run_scale == 2.5 and type(p.run_scale) is float
    assert type(p.null_units) is int
    assert p == Policy(correlation_window=100, run_scale=2.5, null_units=10)


def test_every_field_declares_its_range_and_its_default_lies_in_it():
    for f in FIELDS.values():
        within = f.metadata["within"]
        assert isinstance(within, Interval), f.name
        assert within.is_satisfied_by(f.default), f.name
        assert (within.type is Integral) == (type(f.default) is int), f.name


def _ends(within: Interval) -> list:
    """The values at the ends of a range (just inside an open end), a large value for an unbounded one."""
    step = 1 if within.type is Integral else 1e-6
    low = within.left if within.closed in ("both", "left") else within.left + step
    if within.right is None:
        high = 10**6 if within.type is Integral else 1e6
    else:
        high = within.right if within.closed in ("both", "right") else within.right - step
    return [low, high]


#: fields whose upper end makes a fit of many sweeps or rounds: checked at a modest value instead
_SWEEPS = {"group_max_iter": 300, "group_retry_sweeps": 300, "em_round_sweeps": 300, "group_max_rounds": 20}


def _document():
    X, _ = planted_blocks((12, 12, 12, 12, 12), dim=24, noise=0.6, seed=3)
    counts = planted_words(n_blocks=5, block=12, vocab=8, per=5, seed=3)
    return Units(X, word_counts=counts)


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_every_value_in_range_fits(name):
    """Each field at both ends of its range: the default fit (and the runs model) finishes, in seconds."""
    doc = _document()
    for value in _ends(FIELDS[name].metadata["within"]):
        value = min(value, _SWEEPS.get(name, value))
        changes = {name: value}
        if name == "gradual_full":  # below gradual_effect, itself at most 1e6
            changes = {
                name: min(value, 1e6 - 1),
                "gradual_effect": min(max(DEFAULT_POLICY.gradual_effect, value + 1), 1e6),
            }
        if name == "gradual_effect" and value <= DEFAULT_POLICY.gradual_full:
            changes["gradual_full"] = 0.0
        policy = Policy(**changes)
        start = time.perf_counter()
        model = BPSeg(random_state=0, policy=policy).fit(doc)
        assert model.labels_.shape == (60,) and np.all(np.isfinite(model.beliefs_)), changes
        runs = fit_runs(doc.embeddings, np.ones(60), "auto", policy=policy)
        assert 1 <= runs.centers.shape[0] <= 60, changes
        assert time.perf_counter() - start < 30, changes


def test_a_large_smoothing_does_not_stall():
    """smoothing=3e5 took 225 s on 60 units: the kernel is cut at the document's length (the same result)."""
    X, _ = planted_blocks((20, 20, 20), dim=16, noise=0.3, seed=1)
    start = time.perf_counter()
    fit_runs(X, np.ones(60), "auto", policy=Policy(smoothing=3e5))
    assert time.perf_counter() - start < 10
