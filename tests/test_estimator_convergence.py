"""Convergence warnings of ``structure="auto"``: only for the fit whose labels are returned; an unconverged grouping
of the runs is run again damped."""

import warnings

import pytest
from planted import planted_blocks
from sklearn.exceptions import ConvergenceWarning

import bpseg_pgm.decisions.grouping as grouping_module
import bpseg_pgm.decisions.procedure as procedure_module
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.policy import DEFAULT_POLICY


def _abrupt():
    X, _ = planted_blocks([12] * 5, dim=32, noise=0.3, seed=1)
    return X


def _convergence_warnings(record):
    return [w for w in record if issubclass(w.category, ConvergenceWarning)]


@pytest.mark.parametrize("kept", [False, True])
def test_an_unconverged_topic_model_warns_only_when_its_labels_are_kept(monkeypatch, kept):
    X = _abrupt()
    monkeypatch.setattr(procedure_module, "keep_topics", lambda *a, **k: (kept, float("nan")))
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        est = BPSeg(max_iter=1, em_rounds=0, random_state=0).fit(X)
    found = _convergence_warnings(record)
    if kept:
        assert est.structure_ == "topics" and not est.converged_
        assert len(found) == 1 and "engine 'potts'" in str(found[0].message)
        assert found[0].filename == __file__  # it points at the caller's line, as before
    else:
        assert est.structure_ in ("runs", "run-topics") and est.converged_
        assert found == []


def _stalling_grouping(monkeypatch, damped_too: bool):
    """fit_run_topics cut to one sweep (never converged) for the undamped engine, or for every engine."""
    real = grouping_module.fit_run_topics
    calls = []

    def fit(*args, engine, **kwargs):
        damping = float(getattr(engine, "damping", 0.0) or 0.0)
        calls.append(damping)
        if damping == 0.0 or damped_too:
            kwargs.update(max_iter=1, tol=1e-300)
        return real(*args, engine=engine, **kwargs)

    monkeypatch.setattr(grouping_module, "fit_run_topics", fit)
    return calls


def test_an_unconverged_grouping_is_run_again_damped(monkeypatch):
    X = _abrupt()
    monkeypatch.setattr(procedure_module, "keep_topics", lambda *a, **k: (False, float("nan")))
    calls = _stalling_grouping(monkeypatch, damped_too=False)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        est = BPSeg(random_state=0).fit(X)
    assert est.structure_ == "run-topics"
    assert calls == [0.0, DEFAULT_POLICY.group_retry_damping]
    assert est.converged_ and est.n_iter_ > est.run_topics_.n_rounds  # the damped run's sweeps and the first's
    assert _convergence_warnings(record) == []


def test_a_grouping_that_never_converges_warns_once_and_only_when_used(monkeypatch):
    X = _abrupt()
    calls = _stalling_grouping(monkeypatch, damped_too=True)
    for kept, expected in ((False, 1), (True, 0)):
        monkeypatch.setattr(procedure_module, "keep_topics", lambda *a, kept=kept, **k: (kept, float("nan")))
        calls.clear()
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            est = BPSeg(random_state=0).fit(X)
        found = _convergence_warnings(record)
        assert len(found) == expected, [str(w.message) for w in found]
        assert calls == [0.0, DEFAULT_POLICY.group_retry_damping]
        if expected:
            assert est.structure_ == "run-topics" and not est.converged_
            assert "over the runs" in str(found[0].message)
            assert f"again with damping {DEFAULT_POLICY.group_retry_damping:g}" in str(found[0].message)
            assert found[0].filename == __file__
        else:
            assert est.structure_ == "topics"


def test_a_damping_the_user_chose_is_not_replaced(monkeypatch):
    X = _abrupt()
    monkeypatch.setattr(procedure_module, "keep_topics", lambda *a, **k: (False, float("nan")))
    real = grouping_module.fit_run_topics
    calls = []

    def fit(*args, engine, **kwargs):
        calls.append(float(engine.damping))
        return real(*args, engine=engine, **{**kwargs, "max_iter": 1, "tol": 1e-300})

    monkeypatch.setattr(grouping_module, "fit_run_topics", fit)
    with pytest.warns(ConvergenceWarning, match="over the runs") as record:
        est = BPSeg(damping=0.2, random_state=0).fit(X)
    assert calls == [0.2] and not est.converged_
    assert all("again with damping" not in str(w.message) for w in record)
