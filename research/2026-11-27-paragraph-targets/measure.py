"""Why PEPs written as paragraphs miss issue 38's targets: the number of runs against Pk and ARI, oracle counts, the
sub-section annotation; null documents shuffled by paragraph and the correlation length over paragraphs (tried,
not shipped).

    python research/2026-11-27-paragraph-targets/measure.py --split train   # development
    python research/2026-11-27-paragraph-targets/measure.py --split val     # held out, reported
    python research/2026-11-27-paragraph-targets/measure.py --choi          # paragraph nulls on Choi set 1
    python research/2026-11-27-paragraph-targets/measure.py --placement --limit 100   # features given the gold k

Each PEP is written as its paragraphs separated by blank lines (no heading), as the structure-evidence study does;
each unit's gold is its paragraph's top-level section (h1) or sub-section (h1, h2). Per-document rows go to --out
(default /tmp/paragraph-targets/<split>.jsonl); the summary is printed. Frozen study of 2026-11-27 (not maintained).
"""

from __future__ import annotations

import argparse
import bisect
import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.evaluation.metrics import evaluate
from bpseg_pgm.features import Units
from bpseg_pgm.policy import DEFAULT_POLICY
from bpseg_pgm.runs import model as runs_model
from bpseg_pgm.runs import search
from bpseg_pgm.runs.null import null_shuffles
from bpseg_pgm.runs.statistics import smoothed_embeddings

FRACTIONS = (0.25, 0.5, 0.75, 1.0, 1.25)
_PARAGRAPHS: dict = {}  # the document being fitted's paragraph numbers, for the paragraph nulls (one per process)


def compose(obj: dict) -> tuple[str, list[int], list[int], list[int]]:
    """The PEP's paragraphs joined by blank lines, each paragraph's start offset, section and sub-section."""
    parts, starts, h1, h2, index, sub, pos = [], [], [], [], {}, {}, 0
    for block in obj["blocks"]:
        if not block["text"].strip():
            continue
        parts.append(block["text"]), starts.append(pos)
        h1.append(index.setdefault(block["h1"], len(index)))
        h2.append(sub.setdefault((block["h1"], block["h2"]), len(sub)))
        pos += len(block["text"]) + 2
    return "\n\n".join(parts), starts, h1, h2


def paragraph_nulls(Xn, weights, width, block, random_state=0, policy=DEFAULT_POLICY):
    """Null documents that shuffle whole paragraphs, each cut at its own paragraphs' starts (the tried variant;
    in ``runs.model.null_documents``' place, called as it is)."""
    p, n = _PARAGRAPHS["p"], Xn.shape[0]
    rng = np.random.default_rng(random_state)
    bounds = np.r_[0, np.flatnonzero(p[1:] != p[:-1]) + 1, n]
    min_width = policy.smoothing_min_width
    for _ in range(null_shuffles(n, policy.null_units, policy.null_max_shuffles)):
        order = rng.permutation(len(bounds) - 1)
        perm = np.concatenate([np.arange(bounds[o], bounds[o + 1]) for o in order])
        starts = np.cumsum([bounds[o + 1] - bounds[o] for o in order])[:-1]
        yield smoothed_embeddings(Xn[perm], width, weights[perm], min_width=min_width), weights[perm], starts


def paragraph_null_costs(nulls, max_runs, min_size=1, max_candidates=None, *, policy, cost=None, starts=None):
    """``runs.search.null_costs`` over :func:`paragraph_nulls`, each null cut at its own paragraphs' starts."""
    return np.mean(
        [
            search.padded_costs(
                search.segmental_levels(
                    F, w, max_runs, min_size, max_candidates, policy=policy, cost=cost, starts=s
                ).costs,
                max_runs,
            )
            for F, w, s in nulls
        ],
        axis=0,
    )


def fit_paragraph_nulls(units: Units, paragraphs: np.ndarray, **params) -> BPSeg:
    saved = runs_model.null_documents, runs_model.null_costs
    runs_model.null_documents, runs_model.null_costs = paragraph_nulls, paragraph_null_costs
    _PARAGRAPHS["p"] = paragraphs
    try:
        return BPSeg(**params).fit(units)
    finally:
        runs_model.null_documents, runs_model.null_costs = saved


def paragraph_rows(X, weights, paragraphs) -> tuple[np.ndarray, np.ndarray]:
    """Each paragraph's weighted sum of its unit-normalised rows (paragraphs x d), and each unit's paragraph index."""
    ids, inv = np.unique(paragraphs, return_inverse=True)
    R = X / np.maximum(np.linalg.norm(X, axis=1, keepdims=True), 1e-12)
    w = np.ones(len(X)) if weights is None else np.asarray(weights)
    rows = np.zeros((len(ids), X.shape[1]))
    np.add.at(rows, inv, R * w[:, None])
    return rows, inv


def fit_paragraph_correlation(units: Units, paragraphs: np.ndarray) -> BPSeg:
    """The default with the span rule's correlation length measured over paragraphs (their weighted mean rows) and
    scaled back to units (the tried variant: the span rule then counts paragraphs)."""
    from bpseg_pgm.decisions import structure

    measure = structure.policy_correlation_length  # what the structure decision measures (the span rule, the cap)

    def over_paragraphs(X, weights=None, policy=DEFAULT_POLICY):
        rows, _ = paragraph_rows(X, weights, paragraphs)
        return measure(rows, None, policy) * len(X) / len(rows)

    structure.policy_correlation_length = over_paragraphs
    try:
        return BPSeg().fit(units)
    finally:
        structure.policy_correlation_length = measure


def boundaries(labels: np.ndarray) -> set:
    return set((np.flatnonzero(labels[1:] != labels[:-1]) + 1).tolist())


def score(job: dict) -> dict:
    g, g2, para = job["h1"], job["h2"], job["para"]
    units = Units.from_sentences(job["sents"], embeddings=job["X"], paragraphs=para, headings=np.zeros(len(g), int))
    k = len(set(g.tolist()))
    row = {"id": job["id"], "n": len(g), "paragraphs": int(len(set(para.tolist()))), "k_gold": k}
    row["k_sub"] = len(set(g2.tolist()))
    row["one_segment"] = evaluate(g, np.zeros(len(g), dtype=int))
    auto = BPSeg().fit(units)
    row["auto"] = {**evaluate(g, auto.labels_), "k": int(auto.n_segments_), "runs": len(boundaries(auto.labels_)) + 1}
    row["auto_vs_sub"] = evaluate(g2, auto.labels_)
    row["one_segment_vs_sub"] = evaluate(g2, np.zeros(len(g), dtype=int))
    fit = BPSeg(n_segments=k, structure="runs", group_runs=False).fit(units).runs_
    exact = boundaries(fit.labels) & boundaries(g)
    row["gold_k_exact_boundaries"] = [len(exact), k - 1]
    top = fit.levels.max_runs
    row["fractions"] = {str(f): evaluate(g, fit.at(max(1, min(round(k * f), top))).labels) for f in FRACTIONS}
    by_k = {j: evaluate(g, fit.at(j).labels) for j in range(1, min(2 * k, top) + 1)}
    row["oracle_pk"] = min(by_k.values(), key=lambda e: e["pk"])
    row["oracle_ari"] = max(by_k.values(), key=lambda e: e["ari"])
    nulls = fit_paragraph_nulls(units, para)
    row["paragraph_nulls"] = {**evaluate(g, nulls.labels_), "k": int(nulls.n_segments_)}
    corr = fit_paragraph_correlation(units, para)
    row["paragraph_correlation"] = {**evaluate(g, corr.labels_), "k": int(corr.n_segments_)}
    return row


def jobs_for(split: str, limit: int | None):
    from bpseg_bench.jsonl_data import read_records
    from bpseg_bench.peps import resolve_peps_dir
    from bpseg_bench.runner import make_embedder
    from bpseg_pgm.text.checks import nonempty_units
    from bpseg_pgm.text.layout import unit_layout
    from bpseg_pgm.text.pipeline import read_as_markdown, split_for_segmentation

    embedder = make_embedder(progress=False)
    for r in sorted(read_records(resolve_peps_dir() / f"{split}.jsonl", ("blocks",)), key=lambda r: r["id"])[:limit]:
        text, starts, h1, h2 = compose(r)
        markdown = read_as_markdown(text, False, None)
        sents, spans = split_for_segmentation(text, False, markdown)
        live = np.asarray(nonempty_units(sents))
        X = embedder.encode([sents[i] for i in live])
        para, _ = unit_layout(text, spans, bool(markdown))
        at = [bisect.bisect_right(starts, a) - 1 for a, _ in spans]
        g1, g2 = np.array([h1[i] for i in at])[live], np.array([h2[i] for i in at])[live]
        if len(set(g1.tolist())) >= 2:
            yield {"id": r["id"], "sents": [sents[i] for i in live], "X": X, "para": para[live], "h1": g1, "h2": g2}


def summary(rows: list[dict], split: str, seconds: float) -> None:
    def mean(key, metric, sub=None):
        return np.mean([(x[key] if sub is None else x[key][sub])[metric] for x in rows])

    print(f"PEPs {split} as paragraphs: {len(rows)} documents, {seconds:.0f} s")
    print(
        f"gold sections {np.mean([x['k_gold'] for x in rows]):.2f}, sub-sections "
        f"{np.mean([x['k_sub'] for x in rows]):.2f}, paragraphs {np.mean([x['paragraphs'] for x in rows]):.1f}"
    )
    print("| method | ARI | Pk | segments |\n|---|---|---|---|")
    print(f"| one segment | 0.000 | {mean('one_segment', 'pk'):.3f} | 1 |")
    print(
        f"| default (segment_text) | {mean('auto', 'ari'):.3f} | {mean('auto', 'pk'):.3f} | "
        f"{np.mean([x['auto']['k'] for x in rows]):.2f} ({np.mean([x['auto']['runs'] for x in rows]):.2f} runs) |"
    )
    for f in FRACTIONS:
        print(
            f"| runs at {f} x the gold k | {mean('fractions', 'ari', str(f)):.3f} | "
            f"{mean('fractions', 'pk', str(f)):.3f} | |"
        )
    print(
        f"| runs at each document's Pk-best k (oracle) | {mean('oracle_pk', 'ari'):.3f} | "
        f"{mean('oracle_pk', 'pk'):.3f} | |"
    )
    print(
        f"| runs at each document's ARI-best k (oracle) | {mean('oracle_ari', 'ari'):.3f} | "
        f"{mean('oracle_ari', 'pk'):.3f} | |"
    )
    print(
        f"| null documents shuffled by paragraph (not shipped) | {mean('paragraph_nulls', 'ari'):.3f} | "
        f"{mean('paragraph_nulls', 'pk'):.3f} | {np.mean([x['paragraph_nulls']['k'] for x in rows]):.2f} |"
    )
    print(
        f"| correlation length over paragraphs (not shipped) | {mean('paragraph_correlation', 'ari'):.3f} | "
        f"{mean('paragraph_correlation', 'pk'):.3f} | {np.mean([x['paragraph_correlation']['k'] for x in rows]):.2f} |"
    )
    print(
        f"| default against the sub-sections | {mean('auto_vs_sub', 'ari'):.3f} | {mean('auto_vs_sub', 'pk'):.3f} | |"
    )
    print(f"| one segment against the sub-sections | 0.000 | {mean('one_segment_vs_sub', 'pk'):.3f} | |")
    hit = np.sum([x["gold_k_exact_boundaries"] for x in rows], axis=0)
    print(f"given the gold k, {hit[0]} of {hit[1]} gold boundaries found exactly ({hit[0] / hit[1]:.2f})")


def choi(limit: int) -> None:
    """Choi set 1 with a blank line between passages (each paragraph one topic): the paragraph nulls' failure."""
    from bpseg_bench.choi import load_choi
    from bpseg_bench.runner import make_embedder

    embedder = make_embedder(progress=False)
    rows = []
    for doc in load_choi(sets=[1], limit=limit):
        g = np.asarray(doc.labels)
        para = np.cumsum(np.r_[0, g[1:] != g[:-1]])
        units = Units.from_sentences(
            list(doc.sentences),
            embeddings=embedder.encode(list(doc.sentences)),
            paragraphs=para,
            headings=np.zeros(len(g), int),
        )
        rows.append((evaluate(g, BPSeg().fit(units).labels_), evaluate(g, fit_paragraph_nulls(units, para).labels_)))
    for i, name in enumerate(("default", "paragraph nulls")):
        print(
            f"Choi set 1 ({len(rows)} documents, passages as paragraphs), {name}: ARI "
            f"{np.mean([r[i]['ari'] for r in rows]):.3f}, Pk {np.mean([r[i]['pk'] for r in rows]):.3f}"
        )


def _within_paragraphs(X, width, weights=None, *, min_width):
    """Features smoothed inside each paragraph only."""
    p, out = _PARAGRAPHS["p"], np.empty(X.shape)
    for v in np.unique(p):
        idx = np.flatnonzero(p == v)
        out[idx] = smoothed_embeddings(X[idx], width, None if weights is None else weights[idx], min_width=min_width)
    return out


def _paragraph_means(X, width, weights=None, smooth=False, *, min_width):
    """Each unit's features replaced by its paragraph's weighted mean row (then smoothed, with ``smooth``)."""
    rows, inv = paragraph_rows(X, weights, _PARAGRAPHS["p"])
    out = rows[inv] / np.maximum(np.linalg.norm(rows[inv], axis=1, keepdims=True), 1e-12)
    return smoothed_embeddings(out, width, weights, min_width=min_width) if smooth else out


PLACEMENTS = {
    "today": ({}, None),
    "no smoothing": ({"smoothing": 0.0}, None),
    "smoothing x0.5": ({"smoothing": 0.5}, None),
    "smoothing x2": ({"smoothing": 2.0}, None),
    "smoothing within paragraphs": ({}, _within_paragraphs),
    "paragraph means": ({}, _paragraph_means),
    "paragraph means, smoothed": (
        {},
        lambda X, width, weights=None, *, min_width: _paragraph_means(X, width, weights, True, min_width=min_width),
    ),
}


def placement(job: dict) -> dict:
    """The runs at the gold k under each feature variant of PLACEMENTS (boundaries only at paragraph breaks)."""
    from bpseg_pgm import Policy

    g, para = job["h1"], job["para"]
    units = Units.from_sentences(job["sents"], embeddings=job["X"], paragraphs=para, headings=np.zeros(len(g), int))
    k, base, row = len(set(g.tolist())), Policy(), {}
    for name, (scale, features) in PLACEMENTS.items():
        policy = base.replace(**{key: v * base.smoothing for key, v in scale.items()}) if scale else base
        saved = runs_model.smoothed_embeddings
        runs_model.smoothed_embeddings, _PARAGRAPHS["p"] = features or saved, para
        try:
            fit = BPSeg(n_segments=k, structure="runs", group_runs=False, policy=policy).fit(units)
        finally:
            runs_model.smoothed_embeddings = saved
        row[name] = evaluate(g, fit.labels_)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", default="train", choices=["train", "val"])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="/tmp/paragraph-targets")
    ap.add_argument("--choi", action="store_true", help="the paragraph nulls on Choi set 1 (8 per range) instead")
    ap.add_argument("--placement", action="store_true", help="feature variants given the gold k instead")
    args = ap.parse_args()
    if args.choi:
        return choi(8 if args.limit is None else args.limit)
    if args.placement:
        with ProcessPoolExecutor(args.workers) as pool:
            rows = list(pool.map(placement, jobs_for(args.split, args.limit), chunksize=4))
        print(f"PEPs {args.split} as paragraphs, {len(rows)} documents: the runs at the gold k, ARI / Pk")
        for name in PLACEMENTS:
            print(
                f"| {name} | {np.mean([r[name]['ari'] for r in rows]):.3f} / {np.mean([r[name]['pk'] for r in rows]):.3f} |"
            )
        return None
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(score, jobs_for(args.split, args.limit), chunksize=4))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{args.split}.jsonl").write_text("".join(json.dumps(x) + "\n" for x in rows))
    summary(rows, args.split, time.perf_counter() - t0)


if __name__ == "__main__":
    main()
