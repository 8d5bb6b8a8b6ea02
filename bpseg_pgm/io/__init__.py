"""Input and output, kept apart from the model.

* :mod:`.documents`: the one document reader (a folder, JSONL or Parquet -> ``Document``);
* :mod:`.decoding`: bytes to text (binary refused, UTF-8, BOM, bounded reads, ``DEFAULT_MAX_BYTES``);
* :mod:`.output`, :mod:`.reports`: safe writing of output files and report groups; :mod:`.jsonable`.
"""

from .output import OutputPlan, plan_output, write_output, write_outputs
from .reports import check_output_dir, write_atomically

__all__ = ["OutputPlan", "check_output_dir", "plan_output", "write_atomically", "write_output", "write_outputs"]
