"""A unit's confidence that means something: the probability that it lies where the segmentation put it.

:mod:`~bpseg_pgm.confidence.calibrate` maps what a fit knows of each unit (its raw belief in its label, its
distance to the nearer end of its contiguous segment, the structure the fit chose) to that probability, with
numbers of the :class:`~bpseg_pgm.policy.Policy` calibrated on the development sets;
:mod:`~bpseg_pgm.confidence.reliability` measures a confidence against gold segments (which units are right,
the reliability table, the expected calibration error).  ``Segmentation.confidence()`` is
:func:`calibrated_confidence`; ``Segmentation.belief_in_label()`` keeps the raw belief.
"""

from bpseg_pgm.confidence.calibrate import STRUCTURES, boundary_distance, calibrated_confidence, structure_base
from bpseg_pgm.confidence.reliability import (
    ReliabilityBin,
    expected_calibration_error,
    matched_correct,
    reliability_table,
)

__all__ = [
    "STRUCTURES",
    "ReliabilityBin",
    "boundary_distance",
    "calibrated_confidence",
    "expected_calibration_error",
    "matched_correct",
    "reliability_table",
    "structure_base",
]
