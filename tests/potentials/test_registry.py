"""Potentials by name: the registry that BPSeg(potentials=...) and --potentials read."""

from __future__ import annotations

import numpy as np
import pytest
from planted import planted_blocks

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.potentials import CenteredPottsPotentials, PaperPotentials, Potentials, potentials_names
from bpseg_pgm.potentials.registry import POTENTIALS, potentials_factory, register_potentials


def test_the_built_in_models_are_registered_with_their_defaults():
    assert {"paper", "centered"} <= set(potentials_names())
    assert POTENTIALS["centered"].cls is CenteredPottsPotentials and CenteredPottsPotentials.name == "centered"
    assert POTENTIALS["paper"].defaults == {"lam": 0.12, "sigma": None, "em_rounds": 0, "context": 0.0}
    pot = potentials_factory("paper", lam=0.5, sigma=None)
    assert isinstance(pot, PaperPotentials) and pot.lam == 0.5


def test_a_registered_potential_is_found_by_name_with_its_defaults(monkeypatch):
    monkeypatch.setattr("bpseg_pgm.potentials.registry.POTENTIALS", dict(POTENTIALS))
    seen = {}

    @register_potentials("unary-only", defaults={"lam": 3.0, "sigma": None, "em_rounds": 0, "context": 0.0})
    class UnaryOnly(Potentials):
        def __init__(self, lam=1.0, sigma=None):
            seen["lam"] = lam
            self.lam, self.sigma = lam, sigma

        def log_unary(self, X, C):
            return 10.0 * (X @ C.T)

        def log_coupling(self, X, rows, cols):
            return np.zeros(len(rows))

    assert "unary-only" in potentials_names()
    X, _ = planted_blocks((8, 8), seed=0)
    est = BPSeg(n_segments=2, potentials="unary-only", structure="topics").fit(X)
    assert seen["lam"] == 3.0 and est.lam_ == 3.0 and isinstance(est.potentials_, UnaryOnly)
    assert est.em_rounds_ == 0


@pytest.mark.parametrize(
    "name, defaults, cls, match",
    [
        ("", {"lam": 0, "sigma": None, "em_rounds": 0, "context": 0}, Potentials, "non-empty"),
        ("a b", {"lam": 0, "sigma": None, "em_rounds": 0, "context": 0}, Potentials, "without spaces"),
        ("x", {"lam": 0}, Potentials, "defaults must give exactly"),
        ("x", {"lam": 0, "sigma": None, "em_rounds": 0, "context": 0}, int, "Potentials subclass"),
    ],
)
def test_bad_registrations_are_refused(name, defaults, cls, match):
    with pytest.raises(ValueError, match=match):
        register_potentials(name, defaults=defaults)(cls)


def test_an_unknown_name_names_the_choices():
    X, _ = planted_blocks((4, 4), seed=0)
    with pytest.raises(ValueError, match="potentials must be one of .*'centered'"):
        BPSeg(potentials="nope").fit(X)
