"""Where the library decides what a user gets: runs or the topic model, how many segments, grouped or not.

* :mod:`.procedure`: :func:`~.procedure.decide`, the whole procedure ``BPSeg.fit`` runs, top to bottom
  (features -> structure -> number of segments -> grouping);
* :mod:`.structure`: runs or topics (``structure="auto"``), how many runs, whether the topic model is kept;
* :mod:`.grouping`: runs grouped into segments that may return, with a damped second try.

Every tuned number comes from a :class:`~bpseg_pgm.policy.Policy` (``bpseg_pgm.policy``: each field with
its reason and measurement; ``docs/policy.md``). This package sits above the models (``runs``, ``topics``,
``runtopics``) and below the estimator.
"""

from bpseg_pgm.policy import DEFAULT_POLICY, Policy

from .procedure import Settings, decide
from .structure import StructureChoice, choose_structure, keep_topics, run_span, topic_silhouette

__all__ = [
    "DEFAULT_POLICY",
    "Policy",
    "Settings",
    "StructureChoice",
    "choose_structure",
    "decide",
    "keep_topics",
    "run_span",
    "topic_silhouette",
]


def __getattr__(name):
    if name == "Structure":  # renamed: bpseg_pgm.structure.Structure is a text's headings and blocks
        from bpseg_pgm.utils.renamed import warn_renamed

        warn_renamed("bpseg_pgm.decisions", "Structure", "StructureChoice")
        return StructureChoice
    raise AttributeError(f"module 'bpseg_pgm.decisions' has no attribute {name!r}")
