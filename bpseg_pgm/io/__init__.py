"""Input and output, kept apart from the model: safe writing of output files and report groups."""

from .output import OutputPlan, plan_output, write_output, write_outputs
from .reports import check_output_dir, write_atomically

__all__ = ["OutputPlan", "check_output_dir", "plan_output", "write_atomically", "write_output", "write_outputs"]
