"""The "How many segments" how-to shows what its code prints: each ``text`` block of docs/howto/segments.md is the
output of the code before it, run here on the same inputs."""

import re
from pathlib import Path

import pytest

from bpseg_pgm.text import segment_sentences, segment_text

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "howto" / "segments.md").read_text("utf-8")
NOTES = (ROOT / "examples" / "notes.txt").read_text("utf-8")
GARDEN = """# Garden notes

## Tomatoes

Tomatoes need full sun and deep watering twice a week.
Pinch off the side shoots so the plant puts its energy into fruit.
Stake them early, before the stems get heavy.

## Compost

A compost heap needs both green and brown material.
Turn it every two weeks to let air in.
It is ready when it smells like soil and nothing is recognisable.

## Tools

Clean the spade and the shears after each use.
Oil the blades before winter so they do not rust.
Store the hose coiled, out of the frost.
"""


def _lengths(seg) -> list[int]:
    return [len(s) for s in seg.runs]


@pytest.fixture(scope="module")
def outputs(embedder) -> list[str]:
    seg = segment_text(NOTES, embedder=embedder)
    seg3 = segment_text(NOTES, 3, embedder=embedder)
    r, r2 = seg.recut(segment_length=6), seg.recut(2)
    m = segment_text(GARDEN, markdown=True, embedder=embedder)
    m2 = segment_text(GARDEN, 2, markdown=True, embedder=embedder)
    from bpseg_bench.qmsum import load_qmsum
    from bpseg_bench.samples import QMSUM

    meeting = list(load_qmsum(data_dir=QMSUM, splits=["train"])[0].units)
    granular = [(z, segment_sentences(meeting, granularity=z, embedder=embedder)) for z in ("auto", 0, 1, 3)]
    return [
        f"{seg.n_segments} {seg.n_runs} {seg.structure} {seg.returning_segments} {seg.max_segments}",
        f"{seg3.n_segments} {seg3.n_runs}",
        f"{r.n_segments} {r.structure} {_lengths(r)}\n{r2.n_segments} {_lengths(r2)}",
        f"{m.n_segments} {m.evidence} {_lengths(m)}\n{_lengths(m.recut(5))}\n{_lengths(m2)}",
        "\n".join(f"{z} {seg.n_runs} {seg.n_segments}" for z, seg in granular),
    ]


def test_the_page_shows_what_its_code_prints(outputs):
    shown = [block.strip() for block in re.findall(r"```text\n(.*?)```", PAGE, re.S)]
    assert shown == outputs


def test_the_page_shows_the_inputs_it_ran():
    assert GARDEN.split("## Compost")[0] in PAGE
    assert 'notes = Path("examples/notes.txt").read_text("utf-8")' in PAGE
