"""``bpseg demo``: BP-Seg on the paper's illustrative example (Section 4.1).

The 13-sentence text mixes weather, tennis and small talk; the paper asks two
things of a method for k = 2..7: does it find more than one segment, and do the
three tennis sentences (5, 10 and 13, counting from 1) end up together?  The
demo prints the full segmentation for one k and one compact line per k.  Like
the paper (Section 4.1, lambda = 0.12) it uses the paper's potentials, with the
deterministic farthest-point choice of representatives; both can be overridden.
"""

from __future__ import annotations

import logging
from typing import Any

from bpseg_pgm.data import EXAMPLE_KS as DEMO_KS
from bpseg_pgm.data import TENNIS, load_example
from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.text.pipeline import segment_sentences
from bpseg_pgm.text.segmentation import Segmentation
from bpseg_pgm.utils.words import plural

__all__ = ["TENNIS", "DEMO_KS", "load_example", "tennis_together", "run_demo"]

_log = logging.getLogger(__name__)


def tennis_together(seg: Segmentation) -> bool:
    """Whether the three tennis sentences share a segment."""
    return len({int(seg.labels[i]) for i in TENNIS}) == 1


def run_demo(k: int = 3, ks=DEMO_KS, *, model=None, show_progress=None, **params: Any) -> str:
    """Segment the example for ``k`` (in full) and for every k in ``ks`` (compactly); return the report."""
    sentences = load_example()
    embedder = Embedder(model, show_progress=show_progress)
    params.setdefault("init", "farthest")
    params.setdefault("potentials", "paper")
    params.setdefault("structure", "topics")  # the paper's model: a segment's sentences may be far apart
    run = lambda kk: segment_sentences(sentences, kk, embedder=embedder, **params)  # noqa: E731
    embedder.encode(sentences)  # embedded once (the fits read the cache), so the phase lines come in order
    # a phase line (bpseg_pgm.cli.progress), quick: shown only after a slow one (a model load)
    _log.info("fitting the example for k = %d..%d", min(*ks, k), max(*ks, k), extra={"quick": True})
    main = run(k)
    p = main.params
    setting = ", ".join(
        f"{name} = {p[name]}"
        for name in ("potentials", "engine", "lam", "sigma", "init")
        if p.get(name) not in (None, "auto")
    )
    tennis = ", ".join(str(i + 1) for i in TENNIS)
    lines = [
        f"BP-Seg demo: the paper's illustrative example ({len(sentences)} sentences; tennis sentences: {tennis}).",
        f"Model {main.model}; {setting}.",
        "",
        f"k = {k}: {plural(main.n_segments, 'segment')}, tennis sentences together: "
        f"{'yes' if tennis_together(main) else 'no'}"
        + (
            ""
            if main.n_runs == main.n_segments
            else f" (a segment's sentences may be far apart, as in the paper; below, "
            f"{plural(main.n_segments, 'segment')} in {plural(main.n_runs, 'run')} of consecutive "
            "sentences)"
        ),
        main.to_text(),
        f"Segment of each sentence for k = {min(ks)}..{max(ks)}:",
        "sentence " + "".join(f"{i + 1:>3}" for i in range(len(sentences))),
    ]
    for kk in ks:
        seg = main if kk == k else run(kk)
        row = "".join(f"{int(x) + 1:>3}" for x in seg.labels)
        lines.append(
            f"k = {kk:<4} {row}   {plural(seg.n_segments, 'segment')}, tennis together: "
            f"{'yes' if tennis_together(seg) else 'no'}"
        )
    return "\n".join(lines) + "\n"
