"""Input and output of the command line, kept apart from the model: safe writing of output files."""

from .output import OutputPlan, plan_output, write_output, write_outputs

__all__ = ["OutputPlan", "plan_output", "write_output", "write_outputs"]
