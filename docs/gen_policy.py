"""``docs/policy.md``, generated from :meth:`Policy.table`: every decision, its reason, its measurement, and
where the measurement is written up.

Regenerate after changing a field of :class:`~bpseg_pgm.policy.policy.Policy`::

    python docs/gen_policy.py > docs/policy.md

``tests/policy/test_docs.py`` fails while the page differs from :func:`render`, or while a source names a page
or a heading that ``docs/research/`` does not have. This module imports only its own package, so ``policy/``
stays a leaf.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from pathlib import Path

from bpseg_pgm.policy import STAGES, Policy

__all__ = ["SOURCES", "STAGE_TITLES", "headings", "render", "slugify"]

#: What each stage of the procedure decides (the page's section headings, in the procedure's order).
STAGE_TITLES = {
    "features": "Features: how much each unit counts",
    "layout": "Layout: the document's headings and paragraphs as evidence",
    "runs": "The runs model: segments are runs of consecutive units",
    "structure": "Structure: runs, or topics that may return",
    "granularity": "Granularity: how many segments",
    "topics": "The topic model",
    "grouping": "Grouping runs into topics",
    "pruning": "Pruning a prompt to what a question needs",
    "chunks": "Chunks: the pieces a retrieval pipeline stores",
    "display": "Display",
    "confidence": "Confidence: the probability that a unit lies where it was put",
}

#: The research pages (``docs/research/<page>.md``) that SOURCES cites, and the headings it links to there.
_S6 = "Session 6: where the remaining meeting and Choi targets stand, and what did not help"
_AUTO = '`contiguous="auto"`: the default since session 5 (chosen on the development sets)'
_DEV = "Development candidates (QMSum train, Choi set 1, set-1 interleaved; 60 documents each)"
_S8 = "8. Automatic granularity and the near-linear runs programme (issue 20; in progress)"
_LONG = "Long abrupt text: more runs than candidates (issue 20)"
_S12 = "12. Session 13: the topic model is kept only when its topics are clusters (issues 20, 21)"
_RETURNS = "The returns test (shipped)"
_PRUNE = "Query-focused pruning (QMSum)"
_S9 = "9. Topics over runs (issue 21; first version)"
_STRUCT = "Results (ARI / Pk; segments found)"
_MAP = "The map (shipped in `bpseg_pgm/confidence/calibrate.py`)"
_CONF = "Results: before (raw belief) and after (`confidence()`), default settings"
_LOGO = "Leave one genre out"
_CONF_RUNS = '`structure="runs"` (asked for, or a re-cut)'
_CONF_TEXT = "Text with its layout as evidence (`text_check.py`, PEPs as the user would give them)"

#: Where each field's measurement is written up in the research notes (``docs/research/``): a list of
#: (page, heading on that page or None for the page itself, what to read there). The pages are the team's lab
#: notebook of the time split by study, and the READMEs of the studies made after the split; "§N" in a note is the
#: notebook's section, listed on the index page.
#: A field without an entry was not measured (a bound on time or memory, or a setting of an algorithm).
SOURCES = {
    "paragraph_min": [
        (
            "structure-evidence",
            _STRUCT,
            '(rows "paragraphs" against "the same sentences, no structure", automatic and given k; the value itself '
            "was not tuned)",
        )
    ],
    "word_scale": [
        (
            "real-documents-limits",
            _S6,
            "(the features table: unit weights squared or square-rooted move QMSum train ARI by at most 0.003); "
            "the value itself was set with the QMSum loader (issue 11) and has no table of its own",
        )
    ],
    "smoothing": [
        ("real-documents", None, "(§7: the runs model's features, issue 11)"),
        (
            "real-documents-limits",
            _S6,
            "(its features table measures the alternatives again: 0.5 and 1.0 half-lives, 0.1-0.5 correlation lengths)",
        ),
    ],
    "null_block": [
        (
            "real-documents",
            _DEV,
            '(rows "k vs units shuffled", "k vs blocks of 1 half-life shuffled", "blocks of 2 half-lives"; the '
            "figures above were one null document each)",
        )
    ],
    "null_units": [
        (
            "real-documents",
            _DEV,
            '(the averaged null, "shipped null (4 shuffles)"); the five-seed measurement is not in the notes',
        )
    ],
    "auto_max_runs": [("real-documents-limits", _S6, '("Fixed: long documents of many short unrelated passages")')],
    "max_candidates": [("granularity", _S8, '("The programme is no longer quadratic")')],
    "window": [
        ("long-abrupt-text", _LONG, "(`research/2026-11-24-long-abrupt-text/results/runs_beyond_candidates.md`)")
    ],
    "window_share": [
        (
            "long-abrupt-text",
            _LONG,
            "(`research/2026-11-24-long-abrupt-text/results/runs_beyond_candidates.md`, column `sharing`)",
        )
    ],
    "correlation_window": [
        ("granularity", _S8, "(*Speed, session 10*: the correlation length of a text of more than 4,000 units)")
    ],
    "word_weight": [
        (
            "words-boundaries",
            "Choosing the weight (`python benchmarks/boundaries_words.py`, 255 s, `results/boundaries_words.md`)",
            "(`research/2026-11-24-words-boundaries/results/boundaries_words.md`)",
        )
    ],
    "gradual_effect": [("real-documents", _AUTO, "(the effect-size table)")],
    "topic_silhouette": [("topic-silhouette", _S12, "(*How it was chosen*)")],
    "topic_runs_ratio": [("topic-silhouette", _S12, "(*The test* and *How it was chosen*)")],
    "silhouette_max_units": [("topic-silhouette", _S12, "(*The test*)")],
    "run_scale": [
        ("real-documents", _AUTO, "(the k-rule table)"),
        ("real-documents-limits", _S6, "(the scale per genre, leave one genre out)"),
        ("granularity", _S8, "(granularity rules per genre)"),
    ],
    "gradual_full": [
        ("real-documents", _AUTO, "(`run_span`)"),
        ("real-documents", "Held-out: QMSum val (35 meetings) and Choi sets 2-4 (720 documents)", ""),
    ],
    "evidence_penalty": [("words-evidence", "The rule", "(*Choosing b*)")],
    "max_evidence_levels": [
        (
            "words-evidence",
            "Speed (`python benchmarks/bench_default_scaling.py --timeout 300`, `results/default_scaling.md`)",
            "",
        )
    ],
    "auto_max_segments": [("granularity", _S8, "(*Speed, session 10*: the topic model's starting labels)")],
    "em_round_sweeps": [
        (
            "tuning-defaults",
            "5. How the defaults were chosen (set 1 and set-1 interleaved only)",
            '(item 5, "Sweeps per re-estimation round")',
        )
    ],
    "group_threshold": [
        ("topics-over-runs", _S9, "(*Settings*, `research/2026-11-24-topics-over-runs/results/run_topics_study.md`)")
    ],
    "group_locality": [
        ("topics-over-runs", _S9, "(*Settings*, `research/2026-11-24-topics-over-runs/results/run_topics_study.md`)")
    ],
    "group_retry_damping": [
        (
            "convergence-retry",
            "A reliability fix: convergence warnings, and a damped second try for the grouping (shipped)",
            "",
        )
    ],
    "returns_silhouette": [
        ("returns-test", _RETURNS, "(*How it was chosen*, and the development and held-out tables)")
    ],
    "returns_min_runs": [("returns-test", _RETURNS, "(*How it was chosen*)")],
    "returns_max_runs": [("returns-test", _RETURNS, '(*Speed*: "Hence the 40-run limit")')],
    "returns_locality": [("returns-test", _RETURNS, "(*How it was chosen*)")],
    "prune_bm25_weight": [
        (
            "query-pruning",
            _PRUNE,
            '("Choices made on train only"; `research/2026-11-23-query-pruning/results/prune_qmsum_train.md`)',
        )
    ],
    "prune_top_m": [("query-pruning", _PRUNE, '("Choices made on train only")')],
    "prune_part_units": [("query-pruning", _PRUNE, '("Choices made on train only")')],
    "confidence_runs": [
        ("confidence-calibration", _MAP, "(*Fitting*: the runs' base fitted after the others, the weights kept)"),
        ("confidence-calibration", _CONF_RUNS, "(ECE per set, and why no map serves every genre)"),
    ],
    "confidence_topics": [
        ("confidence-calibration", _CONF, "(the Choi and interleaved rows)"),
        ("confidence-calibration", _LOGO, "(Choi left out: the topics base is not learnable from the other genres)"),
    ],
    "confidence_run_topics": [
        ("confidence-calibration", _CONF, "(the QMSum and PEPs rows)"),
        ("confidence-calibration", _LOGO, "(QMSum and PEPs left out)"),
    ],
    "confidence_sections": [
        (
            "confidence-calibration",
            _CONF_TEXT,
            "(PEPs as Markdown: every unit right, confidence 0.67 without this base)",
        ),
        ("confidence-calibration", "What came after", "(the base set, not fitted)"),
        ("structure-evidence", _STRUCT, '(row "Markdown with headings": ARI 1.000)'),
    ],
    "confidence_belief": [
        ("confidence-calibration", _MAP, "(the fitted weights, and *What was tried and not kept*)"),
    ],
    "confidence_distance": [
        ("confidence-calibration", _MAP, "(the fitted weights)"),
        (
            "confidence-calibration",
            "What the confidence is, and what it is not",
            "(units at a segment's edge against those far inside it)",
        ),
    ],
}

RESEARCH = Path(__file__).resolve().parent / "research"


def slugify(heading: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's ``toc`` slugify, after code marks are dropped)."""
    value = unicodedata.normalize("NFKD", heading.replace("`", "")).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def headings(page: str) -> list[str]:
    """The headings of ``docs/research/<page>.md``, in order, without their ``#`` marks."""
    text = (RESEARCH / f"{page}.md").read_text(encoding="utf-8")
    return [line.lstrip("#").strip() for line in text.splitlines() if re.match(r"#{1,6} ", line)]


def plain(text: str) -> str:
    """``text`` without the research notes' bookkeeping (section, session and issue numbers), for users."""
    text = re.sub(r"^(?:\d+\.\s+)?(?:Session \d+:\s*)?|§\d+:\s*", "", text)
    text = re.sub(r"\s*\(issues? [\d, ]+\)|,? (?:since )?(?:session|issues?) \d+(?:, \d+)*", "", text)
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def cite(page: str, heading: str | None, note: str) -> str:
    """One source as Markdown: a link to the page (at the heading, if given), then what to read there."""
    if heading is None:
        link = f"[{plain(headings(page)[0])}](research/{page}.md)"
    else:
        text = re.sub(r"\s*\([^()]*\)$", "", heading)  # a heading's closing aside (the command, the issue) left out
        link = f"[{plain(text)}](research/{page}.md#{slugify(heading)})"
    return f"{link} {plain(note)}".rstrip()


_NOTES = "[research notes](research/index.md)"

_HEADER = f"""\
# The library's decisions: `Policy`

<!-- Generated by `python docs/gen_policy.py > docs/policy.md`; do not edit by hand
     (`tests/policy/test_docs.py` fails while this page is out of date). -->

Every tuned number of `bpseg_pgm` is a field of `bpseg_pgm.Policy` (`bpseg_pgm/policy/policy.py`), a frozen
dataclass. Each default is the shipped behaviour, chosen on the development sets only (Choi set 1 and its
interleaved documents, QMSum train, PEPs train, and their round-robin constructions). Change any decision
without touching the code:

```python
from bpseg_pgm import BPSeg, Policy

BPSeg(policy=Policy(run_scale=2.0))        # finer runs on gradual text
Policy.explain("run_scale")                # the paragraph below, as text
```

On the command line, `bpseg segment`, `bpseg prune` and `bpseg corpus` take `--policy FILE`: a TOML file (or
JSON, for a `.json` name) of the fields to change, e.g. `run_scale = 2.0`; an unknown field or a value out of its
range is one line naming the file and the field.

The fields are grouped by the stage of the procedure that reads them (`bpseg_pgm/decisions/procedure.py`),
in its order. For each: its default, the values it takes (anything else is a ValueError naming the field and
its range when the `Policy` is made; `gradual_full` must also stay below `gradual_effect`), why it is there,
what was measured, and where the measurement is written up in the {_NOTES} (one page per study). ARI is the
adjusted Rand index against the gold segments; "A / B"
figures follow the order of the sets named before them.
"""


def _number(value) -> str:
    return f"`{value!r}` ({type(value).__name__})"


def render() -> str:
    """The page, as Markdown (what ``docs/policy.md`` holds)."""
    rows = Policy.table()
    out = [_HEADER]
    out.append("## Contents\n")
    for stage in STAGES:
        names = [r["name"] for r in rows if r["stage"] == stage]
        if names:
            links = ", ".join(f"[`{n}`](#{n})" for n in names)
            out.append(f"- **{STAGE_TITLES[stage]}**: {links}")
    out.append("")
    for stage in STAGES:
        stage_rows = [r for r in rows if r["stage"] == stage]
        if not stage_rows:
            continue
        out.append(f"## {STAGE_TITLES[stage]}\n")
        for r in stage_rows:
            name = r["name"]
            out.append(f'<a id="{name}"></a>\n')
            out.append(f"### `{name}`\n")
            out.append(f"- **Default**: {_number(r['default'])}")
            out.append(f"- **Takes**: {r['within']}")
            if r["knob"]:
                out.append(f"- **Changes no result**: a {r['knob']} knob")
            out.append(f"- **Reason**: {r['reason']}")
            if r["measured"]:
                out.append(f"- **Measured**: {r['measured']}")
            else:
                out.append("- **Measured**: nothing; a bound on time or memory, or a setting of the algorithm")
            if name in SOURCES:
                out.append("- **Source**: " + "; ".join(cite(*source) for source in SOURCES[name]))
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def main() -> None:
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
