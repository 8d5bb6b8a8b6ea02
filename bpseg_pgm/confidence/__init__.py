"""A unit's confidence that means something: the probability that it lies where the segmentation put it.

:mod:`~bpseg_pgm.confidence.calibrate` computes it (``Segmentation.confidence()``);
:mod:`~bpseg_pgm.confidence.reliability` measures a confidence against gold segments.
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
