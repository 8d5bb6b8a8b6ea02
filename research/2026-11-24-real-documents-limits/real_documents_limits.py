"""Where the contiguous model's limits on real documents come from, measured on the development sets.

Every document is prepared once (:func:`prepare`): unit rows and weights, the noise-calibrated runs
of ``fit_runs(..., "auto")`` and their median boundary effect, correlation length,
persistence half-life and the base features (embeddings smoothed over ``SMOOTHING`` half-lives).
A document is *gradual* when it has at least two noise-calibrated runs and a median boundary
effect below ``GRADUAL_EFFECT`` (where ``structure="auto"`` segments into runs), *abrupt* with
two or more runs otherwise. The library's k is n / (run_span(effect) x correlation length),
clipped to [1, noise-calibrated runs]. Each command prints, per dataset, mean ARI / Pk / runs per
gold run / segments found over the documents it scores (all, and per QMSum meeting genre: ICSI,
AMI, committee):

    python research/2026-11-24-real-documents-limits/real_documents_limits.py domains qmsum-train qmsum-val
    python research/2026-11-24-real-documents-limits/real_documents_limits.py features qmsum-train
    python research/2026-11-24-real-documents-limits/real_documents_limits.py k-criteria qmsum-train choi-1 interleaved
    python research/2026-11-24-real-documents-limits/real_documents_limits.py cleanup choi-1 interleaved
    python research/2026-11-24-real-documents-limits/real_documents_limits.py windows qmsum-train --every 4 --radius 2
    python research/2026-11-24-real-documents-limits/real_documents_limits.py joined [--fixed-cap]

* ``domains``: per genre, the medians of n, gold runs, gold run length S (labelled units per
  run), correlation length cl and S / cl; on the gradual documents, the exact segmental programme
  with k = n / (run_span(effect) / 3 x scale x cl) for each of --scales, and a leave-one-genre-out
  check: the scale best on the other genres (mean ARI over their documents) against the held-out
  genre's best.
* ``features``: gradual documents, the library's k, the features varied: base; projected on the
  top 10/30/60 weighted principal directions of the unit rows (pca*); those top 1/2 directions
  removed (drop*); weights to the power 2 or 0.5 (wpow*); smoothed without renormalising
  (unnorm); smoothing widths 0.3 / 0.5 / 1 half-life and 0.1 / 0.2 / 0.3 / 0.5 correlation length.
* ``k-criteria``: all documents, base features, k (at most min(40, n / 2)) from BIC on the
  programme's cost (bic: N = total weight, bic_h / bic_cl: N over the half-life / correlation
  length), the library's rule, the noise-calibrated runs themselves, and the gold number of runs.
* ``cleanup``: all documents, topic-model labels (``BPSeg(structure="topics")``) against clean-ups
  by the noise-calibrated runs on abrupt documents: each run's weighted majority topic (vote all)
  or only topic runs of at most 1 / 2 / 3 units relabelled; and the programme with as many runs
  as the topic labels have, relabelled by majority topic (dp_*) or not (dp_*_k), on features
  smoothed over 0.3 half-life (s03), unsmoothed (raw) or over 1 unit (s1). Columns add the purity
  of returning topics.
* ``windows``: gradual documents (every --every-th), the library's k, the base features against
  embeddings of windows of 2 --radius + 1 units joined by spaces (win), weighted (_w) and smoothed
  (_s) like the base features.
* ``joined``: three long documents of many short unrelated passages (Choi set-1 documents 0-14,
  15-29 and 30-44 joined, 150 gold segments each), segmented by the default ``BPSeg()``: the
  structure chosen, its median boundary effect, segments, ARI and Pk; ``--fixed-cap`` puts back
  the fixed cap of 30 noise-calibrated runs (before ``runs.auto_max_runs``; passed as ``choose_structure(..., max_runs=AUTO_MAX_RUNS)``).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import dataclass
from multiprocessing import Pool

import numpy as np
from scipy.ndimage import convolve1d

from bpseg_bench.bench_corpus import load_dataset
from bpseg_bench.corpus import LabelledDocument
from bpseg_pgm.decisions import choose_structure, run_span
from bpseg_pgm.estimator import BPSeg
from bpseg_pgm.evaluation.metrics import evaluate_partial, n_runs
from bpseg_pgm.features.weights import unit_weights
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs import fit_runs, median_boundary_effect
from bpseg_pgm.runs.costs import cost_matrix, segment_costs
from bpseg_pgm.runs.search import backtrack
from bpseg_pgm.runs.statistics import persistence_halflife, policy_correlation_length, smoothed_embeddings
from bpseg_pgm.text import Embedder
from bpseg_pgm.utils.validation import normalize_rows

KEYS = ("ari", "pk", "runs_per_segment", "segments_found")
COLUMNS = {"ari": ("ARI", ".3f"), "pk": ("Pk", ".3f"), "runs_per_segment": ("runs per gold", ".2f"),
           "segments_found": ("segs", ".1f"), "purity_returning": ("purity", ".3f")}  # fmt: skip
FEATURES = ("base", "pca10", "pca30", "pca60", "drop1", "drop2", "wpow2", "wpow0.5", "unnorm")
SMOOTHINGS = (("h", 0.3), ("h", 0.5), ("h", 1.0), ("cl", 0.1), ("cl", 0.2), ("cl", 0.3), ("cl", 0.5))
_DOCS: dict = {}
# the numbers this study read as module constants (``SMOOTHING``, ``GRADUAL_EFFECT``, ``RUN_SCALE``,
# ``AUTO_MAX_RUNS``) are Policy fields today, with the same values
SMOOTHING, GRADUAL_EFFECT, RUN_SCALE, AUTO_MAX_RUNS = P.smoothing, P.gradual_effect, P.run_scale, P.auto_max_runs


def genre(dataset: str, doc_id: str) -> str:
    if not dataset.startswith("qmsum"):
        return dataset
    name = doc_id.split("/")[-1]
    return "icsi" if name[0] == "B" else ("ami" if name[:2] in ("ES", "IS", "TS") else "committee")


@dataclass
class Prepared:
    doc: LabelledDocument
    genre: str
    Xn: np.ndarray  # unit rows
    W: np.ndarray  # unit weights
    F: np.ndarray  # base features
    fine: np.ndarray  # noise-calibrated runs
    effect: float  # their median boundary effect
    cl: float
    h: float

    @property
    def structure(self) -> str:
        if self.fine.max() < 1:
            return "none"
        return "gradual" if self.effect < GRADUAL_EFFECT else "abrupt"

    def rule_k(self, scale: float = RUN_SCALE) -> int:
        n, k_fine = len(self.Xn), int(self.fine.max()) + 1
        return int(np.clip(round(n / (run_span(self.effect, policy=P) / RUN_SCALE * scale * self.cl)), 1, k_fine))

    def score(self, labels) -> dict:
        return evaluate_partial(self.doc.labels, labels)


def prepare(doc: LabelledDocument, X: np.ndarray, dataset: str, seed: int) -> Prepared:
    Xn = normalize_rows(np.asarray(X, dtype=np.float64))
    W = unit_weights(doc.units, P.word_scale)
    cl = policy_correlation_length(Xn, W, P)
    fine = fit_runs(Xn, W, "auto", seed, cl).labels
    effect = median_boundary_effect(Xn, W, fine)
    h = persistence_halflife(Xn)
    F = smoothed_embeddings(Xn, SMOOTHING * h, W, min_width=P.smoothing_min_width)
    return Prepared(doc, genre(dataset, doc.doc_id), Xn, W, F, fine, effect, cl, h)


def runs(labels) -> list[tuple[int, int]]:
    b = np.concatenate([[0], np.flatnonzero(np.diff(labels)) + 1, [len(labels)]])
    return list(itertools.pairwise(b))


def best_runs(F, W, k: int) -> np.ndarray:
    """The exact segmental programme's best k runs of the rows of F (unit weights W)."""
    return backtrack(segment_costs(cost_matrix(F, W), k)[1], k, len(F))


def domains(r: Prepared, opts) -> dict | None:
    """The programme at n / (run_span / 3 x scale x cl) runs per --scales, and the genres' statistics."""
    if r.structure != "gradual":
        return None
    ks = [r.rule_k(s) for s in opts.scales]
    arg = segment_costs(cost_matrix(r.F, r.W), max(ks))[1]
    return {f"scale {s:g}": r.score(backtrack(arg, k, len(r.F))) for s, k in zip(opts.scales, ks)}


def variant_features(r: Prepared, kind: str, Vt: np.ndarray):
    """Features and weights of a ``features`` variant (Vt: the weighted principal directions of the unit rows)."""
    if kind == "base":
        return r.F, r.W
    if kind.startswith("pca"):
        return r.F @ Vt[: int(kind[3:])].T, r.W
    if kind.startswith("drop"):
        top = Vt[: int(kind[4:])]
        return r.F - (r.F @ top.T) @ top, r.W
    if kind.startswith("wpow"):
        W = r.W ** float(kind[4:])
        return smoothed_embeddings(r.Xn, SMOOTHING * r.h, W, min_width=P.smoothing_min_width), W
    if kind == "unnorm":  # the weighted Gaussian average, not renormalised to unit length
        width = SMOOTHING * r.h
        d = np.arange(-int(np.ceil(3 * width)), int(np.ceil(3 * width)) + 1)
        kernel = np.exp(-0.5 * (d / width) ** 2)
        num = convolve1d(r.Xn * r.W[:, None], kernel, axis=0, mode="constant")
        return num / convolve1d(r.W, kernel, mode="constant")[:, None], r.W
    raise ValueError(f"unknown feature variant {kind!r}")


def features(r: Prepared, _) -> dict | None:
    """The library's k on other features: principal directions, weights, smoothing widths."""
    if r.structure != "gradual":
        return None
    k = r.rule_k()
    mu = np.average(r.Xn, axis=0, weights=r.W)
    Vt = np.linalg.svd((r.Xn - mu) * np.sqrt(r.W)[:, None], full_matrices=False)[2]
    out = {kind: r.score(best_runs(*variant_features(r, kind, Vt), k)) for kind in FEATURES}
    for basis, c in SMOOTHINGS:
        width = c * (r.h if basis == "h" else r.cl)
        out[f"smooth {c:g} {basis}"] = r.score(
            best_runs(smoothed_embeddings(r.Xn, width, r.W, min_width=P.smoothing_min_width), r.W, k)
        )
    return out


def k_criteria(r: Prepared, _) -> dict:
    """k from BIC, the library's rule, the noise-calibrated runs, the gold runs."""
    n, d = r.Xn.shape
    costs, arg = segment_costs(cost_matrix(r.F, r.W), max(1, min(40, n // 2)))
    C = costs[1:]
    ks = np.arange(1, len(C) + 1)
    ok = np.isfinite(C) & (C > 0)
    N = r.W.sum()
    out = {}
    for label, Ne in (("bic", N), ("bic_h", N / max(r.h, 1)), ("bic_cl", N / max(r.cl, 1))):
        crit = np.where(ok, Ne * d * np.log(np.where(ok, C, 1) / N) + ks * d * np.log(Ne), np.inf)
        out[label] = r.score(backtrack(arg, int(ks[np.argmin(crit)]), n))
    rule = r.rule_k() if r.fine.max() >= 1 else 1
    out["rule"] = r.score(backtrack(arg, min(rule, len(C)), n))
    out["noise k"] = r.score(r.fine)
    out["oracle"] = r.score(backtrack(arg, min(n_runs(r.doc.gold), len(C)), n))
    return out


def majority_vote(topic, blocks, W, max_len=np.inf):
    """Within each run of ``blocks``, the runs of ``topic`` of at most ``max_len`` units take the
    block's weighted majority topic."""
    out = topic.copy()
    for a, b in runs(blocks):
        seg = topic[a:b]
        major = np.argmax(np.bincount(seg, weights=W[a:b], minlength=topic.max() + 1))
        for c, e in runs(seg):
            if e - c <= max_len:
                out[a + c : a + e] = major
    return out


def cleanup(r: Prepared, opts) -> dict:
    """Topic-model labels cleaned up by runs: majority votes in the noise-calibrated or programme's runs."""
    topic = BPSeg(structure="topics", random_state=opts.seed).fit(r.Xn).labels_
    out = {"topic": r.score(topic), "fine": r.score(r.fine)}
    abrupt = r.structure == "abrupt"
    for m in (np.inf, 1, 2, 3):
        key = "vote all" if m == np.inf else f"vote <= {m}"
        out[key] = r.score(majority_vote(topic, r.fine, r.W, m)) if abrupt else out["topic"]
    kr = n_runs(topic)
    for name, width in (("dp_s03", 0.3 * r.h), ("dp_raw", 0.0), ("dp_s1", 1.0)):
        if not abrupt or kr < 2:
            out[name] = out[name + "_k"] = out["topic"]
            continue
        dp = best_runs(smoothed_embeddings(r.Xn, width, r.W, min_width=P.smoothing_min_width), r.W, kr)
        out[name] = r.score(majority_vote(topic, dp, r.W))
        out[name + "_k"] = r.score(dp)
    return out


def windows(units, radius: int) -> list[str]:
    return [" ".join(units[max(0, i - radius) : i + radius + 1]) for i in range(len(units))]


def windows_scores(r: Prepared, XW: np.ndarray) -> dict:
    """The library's k on embeddings of windows of units (XW) instead of the base features."""
    XW = normalize_rows(np.asarray(XW, dtype=np.float64))
    ones, k = np.ones(len(XW)), r.rule_k()
    variants = {"base": (r.F, r.W), "win": (XW, ones), "win_w": (XW, r.W),
                "win_s": (smoothed_embeddings(XW, SMOOTHING * r.h, min_width=P.smoothing_min_width), ones),
                "win_s_w": (smoothed_embeddings(XW, SMOOTHING * r.h, r.W, min_width=P.smoothing_min_width), r.W)}  # fmt: skip
    return {kind: r.score(best_runs(F, W, k)) for kind, (F, W) in variants.items()}


COMMANDS = {"domains": domains, "features": features, "k-criteria": k_criteria, "cleanup": cleanup}


def _prepare(job) -> Prepared:
    ds, i, opts = job
    return prepare(*_DOCS[ds][i], ds, opts.seed)


def _run(job):
    """(genre, structure, medians' inputs: n, gold runs, S, cl, S / cl, the command's scores)."""
    r = _prepare(job)
    n_lab, gold_runs = int(r.doc.labelled.sum()), n_runs(r.doc.gold)
    stats = (len(r.Xn), gold_runs, n_lab / gold_runs, r.cl, n_lab / gold_runs / r.cl)
    return r.genre, r.structure, stats, COMMANDS[job[2].command](r, job[2])


def _windows(pair):
    r, XW = pair
    return r.genre, r.structure, None, windows_scores(r, XW)


def mean(values) -> float:
    """Mean over the documents where it is defined (Pk, purity of returning topics); NaN where nowhere."""
    v = np.asarray(values, dtype=np.float64)
    return float(np.nanmean(v)) if np.isfinite(v).any() else float("nan")


def print_table(scored, keys) -> None:
    """Rows: the variants; columns: all documents, then each genre when there are several."""
    groups = sorted({g for g, _ in scored})
    columns = [("all", [o for _, o in scored])]
    if len(groups) > 1:
        columns += [(g, [o for gg, o in scored if gg == g]) for g in groups]
    print(f"| {' / '.join(COLUMNS[k][0] for k in keys)} | " + " | ".join(f"{g} ({len(o)})" for g, o in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for variant in scored[0][1]:
        cells = [" / ".join(format(mean([o[variant][k] for o in rows]), COLUMNS[k][1]) for k in keys)
                 for _, rows in columns]  # fmt: skip
        print(f"| {variant} | " + " | ".join(cells) + " |")


def print_domains(rows, scored) -> None:
    print("| genre (medians) | docs | gradual | n | gold runs | S | cl | S / cl |\n|---|---|---|---|---|---|---|---|")
    for g in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == g]
        med = np.median([r[2] for r in mine], axis=0)
        gradual = sum(r[1] == "gradual" for r in mine)
        print(f"| {g} | {len(mine)} | {gradual} | {med[0]:.0f} | {med[1]:.1f} | {med[2]:.0f} | {med[3]:.1f} "
              f"| {med[4]:.2f} |")  # fmt: skip
    groups = sorted({g for g, _ in scored})
    if len(groups) < 2:
        return
    print("\n| held-out genre | scale chosen on the others | its ARI | best scale | best ARI |\n|---|---|---|---|---|")
    for g in groups:
        held = {s: np.mean([o[s]["ari"] for gg, o in scored if gg == g]) for s in scored[0][1]}
        others = {s: np.mean([o[s]["ari"] for gg, o in scored if gg != g]) for s in scored[0][1]}
        chosen, best = max(others, key=others.get), max(held, key=held.get)
        print(f"| {g} | {chosen} | {held[chosen]:.3f} | {best} | {held[best]:.3f} |")


def joined(fixed_cap: bool) -> None:
    """The default on Choi set-1 documents joined 15 at a time (long, many short unrelated passages)."""
    docs = load_dataset("choi-1", limit=45)
    emb = Embedder(show_progress=False)
    print("| documents | units | structure | effect | segments (gold 150) | ARI | Pk |\n|---|---|---|---|---|---|---|")
    for start in (0, 15, 30):
        group = docs[start : start + 15]
        units = [u for d in group for u in d.units]
        gold = np.concatenate([np.asarray(d.gold) + 1000 * i for i, d in enumerate(group)])
        X, w = emb.encode(units), unit_weights(units, P.word_scale)
        if fixed_cap:  # the decision as it was with at most AUTO_MAX_RUNS noise-calibrated runs
            found = choose_structure(normalize_rows(X), w, "auto", random_state=0, max_runs=AUTO_MAX_RUNS, policy=P)
            if found.runs:
                labels, k, structure = found.fit.labels, int(found.fit.labels.max()) + 1, "runs"
            else:
                est = BPSeg(structure="topics", random_state=0).fit(X, sample_weight=w)
                labels, k, structure = est.labels_, est.n_segments_, "topics"
            effect = found.effect
        else:
            est = BPSeg(random_state=0).fit(X, sample_weight=w)
            labels, k, structure, effect = est.labels_, est.n_segments_, est.structure_, est.structure_effect_
        s = evaluate_partial(list(gold), labels)
        print(f"| {start}-{start + 14} | {len(units)} | {structure} | {effect:.3f} "
              f"| {k} | {s['ari']:.3f} | {s['pk']:.3f} |")  # fmt: skip


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("datasets", nargs="+")
    common.add_argument("--limit", type=int, help="documents per dataset")
    common.add_argument("--workers", type=int, default=2)
    common.add_argument("--seed", type=int, default=0)
    sub = ap.add_subparsers(dest="command", required=True)
    dom = sub.add_parser("domains", parents=[common], help=domains.__doc__)
    dom.add_argument("--scales", type=float, nargs="+", default=[2, 2.25, 2.5, 3, 3.5, 4],
                     help="k = n / (run_span(effect) / 3 x scale x correlation length)")  # fmt: skip
    for name in ("features", "k-criteria", "cleanup"):
        sub.add_parser(name, parents=[common], help=COMMANDS[name].__doc__)
    win = sub.add_parser("windows", parents=[common], help=windows_scores.__doc__)
    win.add_argument("--every", type=int, default=1, help="every K-th document")
    win.add_argument("--radius", type=int, default=2, help="units on either side of a window's centre")
    jn = sub.add_parser("joined", help=joined.__doc__)
    jn.add_argument("--fixed-cap", action="store_true", help="at most 30 noise-calibrated runs, as before")
    args = ap.parse_args(argv)
    if args.command == "joined":
        joined(args.fixed_cap)
        return 0
    emb = Embedder(show_progress=False)
    for ds in args.datasets:
        docs = load_dataset(ds, limit=args.limit)[:: getattr(args, "every", 1)]
        vectors = emb.encode([u for d in docs for u in d.units])
        offsets = np.cumsum([0] + [len(d) for d in docs])
        _DOCS[ds] = [(d, vectors[offsets[i] : offsets[i + 1]]) for i, d in enumerate(docs)]
    keys = KEYS + ("purity_returning",) if args.command == "cleanup" else KEYS
    with Pool(args.workers) as pool:
        for ds in args.datasets:
            jobs = [(ds, i, args) for i in range(len(_DOCS[ds]))]
            if args.command == "windows":  # only the gradual documents' windows are embedded
                prepared = pool.map(_prepare, jobs)
                structures = [r.structure for r in prepared]
                gradual = [r for r in prepared if r.structure == "gradual"]
                rows = pool.map(_windows, [(r, emb.encode(windows(r.doc.units, args.radius))) for r in gradual])
            else:
                rows = pool.map(_run, jobs)
                structures = [r[1] for r in rows]
            print(f"\n### {args.command}: {ds}, {len(jobs)} documents (gradual {structures.count('gradual')}, "
                  f"abrupt {structures.count('abrupt')}, one run {structures.count('none')})\n")  # fmt: skip
            scored = [(r[0], r[3]) for r in rows if r[3] is not None]
            if args.command == "domains":
                print_domains(rows, scored)
                print()
            if scored:
                print_table(scored, keys)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
