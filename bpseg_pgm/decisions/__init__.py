"""Where the library decides what a user gets: runs or topics, how many segments, grouped or not.

* :mod:`.procedure`: :func:`~.procedure.decide`, the whole procedure ``BPSeg.fit`` runs, top to bottom
  (features -> structure -> number of segments -> grouping);
* :mod:`.structure`: runs or topics (``structure="auto"``), how many runs, whether the topic model is kept;
* :mod:`.grouping`: runs grouped into topics, with a damped second try.

Every tuned number comes from a :class:`~bpseg_pgm.policy.Policy` (``bpseg_pgm.policy``: each field with
its reason and measurement; ``docs/policy.md``). This package sits above the models (``runs``, ``topics``,
``runtopics``) and below the estimator.
"""

from bpseg_pgm.policy import DEFAULT_POLICY, Policy

from .procedure import Settings, decide
from .structure import Structure, choose_structure, keep_topics, run_span, topic_silhouette

__all__ = [
    "DEFAULT_POLICY",
    "Policy",
    "Settings",
    "Structure",
    "choose_structure",
    "decide",
    "keep_topics",
    "run_span",
    "topic_silhouette",
]
