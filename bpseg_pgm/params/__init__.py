"""BPSeg's parameters declared once (:mod:`.table`): read by the estimator's checks and by the CLI."""

from .table import INITS, PARAMETERS, STRUCTURES, Parameter

__all__ = ["INITS", "PARAMETERS", "STRUCTURES", "Parameter"]
