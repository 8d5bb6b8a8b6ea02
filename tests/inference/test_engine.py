"""The Engine plug-in interface: user engines, the registry, result(), names and instances."""

from __future__ import annotations

import numpy as np
import pytest
from paper_model import bpseg, rand_X
from sklearn.base import clone

from bpseg_pgm import BPSeg
from bpseg_pgm.inference import (
    REGISTRY,
    Engine,
    FastEngine,
    GibbsEngine,
    PottsEngine,
    Problem,
    engine_names,
    make_engine,
    register_engine,
)

X = rand_X(9, 6, 0)


class UnaryOnly(Engine):
    """Beliefs from the unary term alone: softmax of log psi_i; records what it was given."""

    def __init__(self, temperature=1.0):
        self.temperature = temperature

    def infer(self, problem):
        self.seen = problem
        return self.result(
            beliefs=np.exp(problem.log_unary / self.temperature),
            n_iter=3,
            converged=True,
            log_partition=-1.5,
            note="hello",
        )


def test_user_engine_plugs_in_without_touching_the_estimator():
    eng = UnaryOnly()
    m = bpseg(engine=eng, n_segments=3, init=[0, 4, 8], em_rounds=0).fit(X)
    p = eng.seen
    assert isinstance(p, Problem) and p.log_unary.shape == (9, 3) and len(p.edges) == 36
    np.testing.assert_array_equal(m.labels_, np.argmax(p.log_unary, axis=1))
    np.testing.assert_allclose(m.beliefs_.sum(axis=1), 1.0, atol=1e-12)
    assert m.n_iter_ == 3 and m.converged_ and m.log_partition_ == -1.5 and m.engine_extra_ == {"note": "hello"}
    assert m.engine_ is eng


def test_registered_name_works_in_estimator_and_cli_choices():
    try:
        register_engine("unary-only")(UnaryOnly)
        assert "unary-only" in engine_names()
        m = bpseg(engine="unary-only", n_segments=3, em_rounds=0).fit(X)
        assert isinstance(m.engine_, UnaryOnly)
        from bpseg_pgm.cli.main import build_parser

        args = build_parser().parse_args(["segment", "f.txt", "--engine", "unary-only"])
        assert args.engine == "unary-only"
        with pytest.raises(ValueError, match="already registered"):
            register_engine("potts")(UnaryOnly)
    finally:
        REGISTRY.pop("unary-only", None)
        UnaryOnly.name = None


def test_appendix_is_the_name_of_algorithm_2_and_fast_its_alias():
    assert REGISTRY["appendix"] is REGISTRY["fast"] is FastEngine and FastEngine.name == "appendix"
    names = engine_names()
    assert names.count("appendix") == names.count("fast") == 1 and names.index("fast") == names.index("appendix") + 1
    assert "fast" not in engine_names(aliases=False) and len(engine_names(aliases=False)) == len(names) - 1
    # an engine made from a name carries that name, so messages echo what the user wrote
    assert make_engine("fast").name == "fast" and make_engine("appendix").name == "appendix"
    assert make_engine("fast") == make_engine("appendix") == FastEngine()
    for name in ("fast", "appendix"):
        m = BPSeg(engine=name, init="all").fit(X)
        assert m.engine_.name == name
        np.testing.assert_array_equal(m.beliefs_, BPSeg(engine="fast", init="all").fit(X).beliefs_)
        with pytest.raises(ValueError, match=f"engine='{name}' is Algorithm 2"):
            BPSeg(engine=name, em_rounds=1).fit(X)
    from bpseg_pgm.cli.main import build_parser

    for name in ("fast", "appendix"):
        assert build_parser().parse_args(["segment", "f.txt", "--engine", name]).engine == name


def test_an_alias_cannot_take_a_registered_name():
    class Other(Engine):
        def infer(self, problem):  # pragma: no cover - never run
            raise AssertionError

    with pytest.raises(ValueError, match="already registered as 'fast'"):
        register_engine("other", aliases=("fast",))(Other)
    assert "other" not in REGISTRY and REGISTRY["fast"] is FastEngine


def test_instance_equals_name():
    a = bpseg(engine="potts", n_segments=3, tol=1e-10, random_state=0).fit(X)
    b = bpseg(engine=PottsEngine(), n_segments=3, tol=1e-10, random_state=0).fit(X)
    np.testing.assert_array_equal(a.beliefs_, b.beliefs_)
    assert a.log_partition_ == b.log_partition_


def test_damping_goes_to_the_engine_given_by_name_only():
    m = bpseg(engine="potts", damping=0.5, n_segments=3).fit(X)
    assert m.engine_ == PottsEngine(damping=0.5)
    with pytest.raises(ValueError, match="set it on the engine"):
        bpseg(engine=PottsEngine(), damping=0.5).fit(X)
    with pytest.raises(ValueError, match="has no damping"):
        bpseg(engine="mean-field", damping=0.5).fit(X)
    assert make_engine("loopy", 0.25).damping == 0.25


def test_result_checks_and_normalises():
    e = UnaryOnly()
    r = e.result(beliefs=[[1.0, 3.0], [2.0, 2.0]])
    np.testing.assert_allclose(r.beliefs, [[0.25, 0.75], [0.5, 0.5]])
    for bad in ([[np.nan, 1.0]], [[-1.0, 2.0]], [[0.0, 0.0]], [1.0, 2.0]):
        with pytest.raises(ValueError):
            e.result(beliefs=bad)


def test_engine_returning_something_else_is_one_clear_error():
    class Broken(Engine):
        def infer(self, problem):
            return self.result(beliefs=np.ones((2, 2)))

    with pytest.raises(ValueError, match="must return"):
        bpseg(engine=Broken(), n_segments=3).fit(X)


def test_clone_and_repr():
    m = BPSeg(engine=GibbsEngine(n_samples=7, random_state=3))
    c = clone(m)
    assert c.engine is not m.engine and c.engine == m.engine
    assert repr(GibbsEngine(n_samples=7)).startswith("GibbsEngine(n_samples=7")


def test_problem_from_arrays_and_its_checks():
    lu = np.zeros((3, 2))
    p = Problem(lu, [(0, 1), (1, 2)], log_coupling=[-1.0, -2.0])
    assert p.is_potts and p.tables().shape == (2, 2, 2)
    np.testing.assert_allclose(p.tables()[1], [[0, -2], [-2, 0]])
    np.testing.assert_allclose(p.log_score([[0, 1, 1], [0, 0, 0]]), [-1.0, 0.0])
    with pytest.raises(ValueError, match="pairs"):
        Problem(lu, [(1, 0)], log_coupling=[0.0])
    with pytest.raises(ValueError, match="shape"):
        Problem(lu, [(0, 1)], log_coupling=[0.0, 1.0])
    with pytest.raises(ValueError, match="NaN"):
        Problem(np.full((2, 2), np.nan), [])
    with pytest.raises(ValueError, match="Potts"):
        Problem(lu, [(0, 1)], log_tables=np.zeros((1, 2, 2))).coupling()
