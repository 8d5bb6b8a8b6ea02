"""The document's own structure as evidence: where its headings and paragraphs let runs start.

A writer who puts a heading before a section, or a blank line between paragraphs, has said where the text
may change. The text layer finds both (:mod:`bpseg_pgm.text.layout`) and :class:`~bpseg_pgm.features.Units`
carries them: each unit's paragraph number and heading level (0: not a heading). This step of the
decision procedure (:func:`~bpseg_pgm.decisions.procedure.decide`) reads them:

* **Headings.** A document with headings is cut at them, into runs (the topic model is not weighed, and the
  runs are not grouped unless ``group_runs=True``). With ``n_segments="auto"`` the segments are the
  sections of the top heading level: the smallest level whose headings cut the document at least once (a
  lone title heading at the very top cuts nothing, so its sub-headings are the sections), text before
  the first heading being a section of its own. The heading hierarchy gives the coarse levels
  (:func:`~bpseg_pgm.runs.hierarchy.nested_levels`): given k up to the number of top-level sections, the
  runs start at the top-level headings (the runs model picks the k - 1 of them that separate the text
  best); past them every top-level section is kept and sections are split at their own sub-headings, then
  at their paragraphs; past those (k more than the headings and paragraphs allow), every heading and paragraph
  is a boundary and the further runs start anywhere inside them (the runs model, not the topic model, still
  decides). A re-cut of the result reads the same levels.
* **Paragraphs.** A document of at least ``Policy.paragraph_min`` paragraphs (and no headings) has runs
  that start only where a paragraph does; how many runs, and whether the text is segmented into runs or
  topics at all, is decided as for any text (every fit, and the null documents that calibrate the number
  of runs, cut at paragraphs only). Given a k larger than the number of paragraphs, anywhere.
* **Neither** (a list of sentences, text without blank lines): the model as before, every position a
  candidate boundary.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from bpseg_pgm.policy import Policy
from bpseg_pgm.runs.hierarchy import hierarchy_runs

__all__ = ["Layout", "document_layout", "heading_starts", "paragraph_starts"]


@dataclass(frozen=True)
class Layout:
    """What the document's structure says. ``starts``: the units where a run may start (None: any);
    ``sections``: the number of segments the headings make, when they decide it (``n_segments="auto"`` on a
    document with headings), else None; ``evidence``: "headings", "paragraphs" or None (what ``starts``
    came from); ``finer``: the finer levels of a sectioned text, coarse to fine (every heading down to each
    deeper level, then every heading and paragraph, then, given more segments than those allow, every unit),
    where runs past ``len(starts) + 1`` start (:func:`~bpseg_pgm.runs.hierarchy.nested_levels`)."""

    starts: np.ndarray | None = None
    sections: int | None = None
    evidence: str | None = None
    finer: tuple[np.ndarray, ...] = field(default=(), compare=False)


def paragraph_starts(paragraphs: np.ndarray | None) -> np.ndarray:
    """The units (after the first) that begin a new paragraph: where the paragraph number changes."""
    if paragraphs is None:
        return np.zeros(0, dtype=np.int64)
    p = np.asarray(paragraphs)
    return (np.flatnonzero(p[1:] != p[:-1]) + 1).astype(np.int64)


def heading_starts(headings: np.ndarray | None, level: int | None = None) -> np.ndarray:
    """The headings (after the first unit) of level ``level`` or coarser (None: any level): where they start
    a section."""
    if headings is None:
        return np.zeros(0, dtype=np.int64)
    h = np.asarray(headings)
    top = h > 0 if level is None else (h > 0) & (h <= level)
    top[:1] = False  # a heading that opens the document cuts nothing
    return np.flatnonzero(top).astype(np.int64)


def document_layout(
    paragraphs: np.ndarray | None,
    headings: np.ndarray | None,
    n_segments,
    policy: Policy,
) -> Layout:
    """The :class:`Layout` of a document from its units' paragraph numbers and heading levels (either None),
    for ``n_segments`` (k, or "auto"), by the rules of the module docstring."""
    auto = isinstance(n_segments, str)
    levels = sorted({int(v) for v in np.asarray(headings).tolist() if v > 0}) if headings is not None else []
    para = paragraph_starts(paragraphs)
    cuts = [heading_starts(headings, level) for level in levels]
    top = next((i for i, c in enumerate(cuts) if c.size), None)
    if top is not None:
        finer = (*cuts[top + 1 :], np.union1d(cuts[-1], para))
        n = int(np.asarray(headings).shape[0])
        if auto:
            return Layout(cuts[top], cuts[top].size + 1, "headings", finer)
        if hierarchy_runs((cuts[top], *finer), n) >= int(n_segments):
            return Layout(cuts[top], None, "headings", finer)
        # more segments than headings and paragraphs: every one of them kept, the rest anywhere inside
        return Layout(cuts[top], None, "headings", (*finer, np.arange(1, n, dtype=np.int64)))
    if para.size + 1 >= max(int(policy.paragraph_min), 2) and (auto or para.size + 1 >= int(n_segments)):
        return Layout(para, None, "paragraphs")
    return Layout()
