"""The BPSeg defaults and ``--init`` choices that ``bpseg --help`` shows, without importing BPSeg.

:mod:`bpseg_pgm.estimator` imports scikit-learn (most of a second), and ``bpseg_pgm.topics``
imports it too, so the parser reads these few values here instead; the ``--engine`` and
``--potentials`` choices still come from their registries, which need no scikit-learn.
``tests/cli/test_version_and_help.py`` checks that they equal ``BPSeg().get_params()`` and
``bpseg_pgm.topics.representatives.INITS``: change them there, then here.
"""

__all__ = ["HELP_DEFAULTS", "INITS"]

#: parameter -> BPSeg's default, for the parameters whose default the help text names
HELP_DEFAULTS = {"potentials": "centered", "engine": "potts", "init": "farthest", "merge_above": 0.9,
                 "group_runs": "auto"}

#: how the k representatives may be chosen (``--init``)
INITS = ("random", "farthest", "all")
