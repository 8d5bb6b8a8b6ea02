"""Input and output, kept apart from the model: the document reader, bytes to text, safe writing."""

from .output import OutputPlan, plan_output, write_output, write_outputs
from .reports import check_output_dir, write_atomically

__all__ = ["OutputPlan", "check_output_dir", "plan_output", "write_atomically", "write_output", "write_outputs"]
