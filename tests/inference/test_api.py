"""``bpseg_pgm.inference``'s public API: the plug-in API; the kernels are imported from ``.kernels``."""

from __future__ import annotations

import pytest

import bpseg_pgm.inference as inference

PLUGIN_API = {
    "Engine",
    "EngineResult",
    "Problem",
    "REGISTRY",
    "register_engine",
    "engine_names",
    "make_engine",
    "PottsEngine",
    "LoopyEngine",
    "FastEngine",
    "ExactEngine",
    "ReferenceEngine",
    "MaxProductEngine",
    "MeanFieldEngine",
    "GibbsEngine",
    "MplpEngine",
    "LoopyBeliefPropagation",
    "PottsBeliefPropagation",
    "bethe_log_partition",
}


def test_all_is_the_plug_in_api():
    assert set(inference.__all__) == PLUGIN_API
    for name in inference.__all__:
        assert getattr(inference, name) is not None


def test_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'no_such_kernel'"):
        inference.no_such_kernel  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'potts_bp'"):
        inference.potts_bp  # noqa: B018  (a kernel: bpseg_pgm.inference.kernels.potts)
