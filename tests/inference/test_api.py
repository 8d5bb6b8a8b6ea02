"""``bpseg_pgm.inference``'s public API: the plug-in API; the kernels' old names there warn."""

from __future__ import annotations

import importlib

import pytest

import bpseg_pgm.inference as inference

PLUGIN_API = {
    "Engine", "EngineResult", "Problem", "REGISTRY", "register_engine", "engine_names", "make_engine",
    "PottsEngine", "LoopyEngine", "FastEngine", "ExactEngine", "ReferenceEngine", "MaxProductEngine",
    "MeanFieldEngine", "GibbsEngine", "MplpEngine", "LoopyBeliefPropagation", "bethe_log_partition",
}


def test_all_is_the_plug_in_api():
    assert set(inference.__all__) == PLUGIN_API
    for name in inference.__all__:
        assert getattr(inference, name) is not None


@pytest.mark.parametrize("name", sorted(inference.MOVED))
def test_a_kernel_name_still_works_from_its_old_path_and_names_the_new_one(name):
    new = inference.MOVED[name]
    assert new.startswith("bpseg_pgm.inference.kernels.")
    with pytest.warns(FutureWarning, match=f"import it from {new}"):
        value = getattr(inference, name)
    assert value is getattr(importlib.import_module(new), name)


def test_from_import_of_an_old_name_warns():
    with pytest.warns(FutureWarning, match="bpseg_pgm.inference.kernels.potts"):
        from bpseg_pgm.inference import potts_bp  # noqa: F401


def test_the_old_exact_module_is_a_warning_shim():
    from bpseg_pgm.inference.kernels import exact

    old = importlib.import_module("bpseg_pgm.inference.exact")
    with pytest.warns(FutureWarning, match="bpseg_pgm.inference.kernels.exact"):
        assert old.MAX_CLIQUE_ENTRIES == exact.MAX_CLIQUE_ENTRIES
    with pytest.raises(AttributeError):
        old.no_such_name  # noqa: B018


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'no_such_kernel'"):
        inference.no_such_kernel  # noqa: B018
