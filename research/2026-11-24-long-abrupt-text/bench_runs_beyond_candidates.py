"""How to split a long document into more runs than the programme has candidates: the designs, measured.

On a document of more than ``MAX_CANDIDATES`` (1,000) units the segmental programme is exact over binary
segmentation's first 1,000 boundaries, so it cannot place more runs than that. Designs for more runs, each
given the same smoothed features (``fit_runs``'s) and the same k, compared by the split's total cost (lower
is better: what the programme minimises), ARI and Pk against the gold passages, and seconds:

* ``binseg``: binary segmentation's first k-1 boundaries, coarse to fine
  (:func:`bpseg_pgm.runs.candidates.binary_segmentation`; its costs per k come free with its gains);
* ``binseg+refine``: the same, then each boundary moved to its best place between its neighbours, sweep
  after sweep until none moves (coordinate descent; written here, not shipped);
* ``windowed`` (shipped, :mod:`bpseg_pgm.runs.windows`): windows of about ``--window`` units cut at binary
  segmentation's strongest boundaries, the exact programme in each, the runs shared out greedily by marginal
  gain; its row ``sharing`` gives how far the greedy sharing is from the exact one (a min-plus convolution of
  the windows' costs, quadratic in the length, computed here only to compare).

A fourth design, candidates that grow with k, is not run: the programme is O(K m^2) with m >= k candidates,
so at 50,000 units of 7-sentence passages (k ~ 7,000) it is ~3e11 operations and (m+1)^2 x 8 matrices of 3 GiB.

Input: Choi set 1 concatenated (``research/2026-11-24-long-abrupt-text/bench_long_abrupt.py``'s corpus), cut to n units; the k are the
gold number of passages and n / correlation length (the default's cap on abrupt text).

    python research/2026-11-24-long-abrupt-text/bench_runs_beyond_candidates.py                # n = 5,000 and 20,000, windows 500 and 1,000
    python research/2026-11-24-long-abrupt-text/bench_runs_beyond_candidates.py --sizes 5000 --window 250 500

Writes ``research/2026-11-24-long-abrupt-text/results/runs_beyond_candidates.md``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

# bench_long_abrupt.py is this study's other script, in this folder (on the path when run as a script)
from bench_long_abrupt import corpus, first_units  # noqa: E402

OUT = Path(__file__).resolve().parent / "results" / "runs_beyond_candidates.md"


class Prefix:
    """Prefix sums of the weighted rows, and what a run's mean explains (|sum|^2 / weight)."""

    def __init__(self, F, w):
        self.P = np.vstack([np.zeros(F.shape[1]), np.cumsum(F * w[:, None], axis=0)])
        self.W = np.concatenate([[0.0], np.cumsum(w)])
        self.Q = np.concatenate([[0.0], np.cumsum(w * np.einsum("ij,ij->i", F, F))])

    def explained(self, a, b):
        wt = self.W[b] - self.W[a]
        d = self.P[b] - self.P[a]
        return float(d @ d) / wt if wt > 0 else 0.0

    def cost(self, starts, n):
        bounds = list(starts) + [n]
        return sum(self.Q[b] - self.Q[a] - self.explained(a, b) for a, b in zip(bounds[:-1], bounds[1:]))

    def best_split(self, a, b):
        t = np.arange(a + 1, b)
        left, right = self.P[t] - self.P[a], self.P[b] - self.P[t]
        wl, wr = self.W[t] - self.W[a], self.W[b] - self.W[t]
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = (np.where(wl > 0, np.einsum("ij,ij->i", left, left) / wl, 0.0)
                    + np.where(wr > 0, np.einsum("ij,ij->i", right, right) / wr, 0.0))  # fmt: skip
        return int(t[int(np.argmax(gain))])


def refine(prefix: Prefix, starts: np.ndarray, n: int, sweeps: int = 5) -> np.ndarray:
    """Each boundary moved to its best place between its neighbours while that lowers the cost."""
    bounds = list(starts) + [n]
    for _ in range(sweeps):
        moved = False
        for i in range(1, len(bounds) - 1):
            a, t, b = bounds[i - 1], bounds[i], bounds[i + 1]
            best = prefix.best_split(a, b)
            now = prefix.explained(a, t) + prefix.explained(t, b)
            if best != t and prefix.explained(a, best) + prefix.explained(best, b) > now * (1 + 1e-12):
                bounds[i], moved = best, True
        if not moved:
            break
    return np.asarray(bounds[:-1], dtype=np.int64)


def exact_sharing(curves, k: int) -> float:
    """The best total cost of k runs shared between windows (min-plus convolution of their costs)."""
    best = np.asarray(curves[0][: k + 1], dtype=np.float64)
    for c in curves[1:]:
        new = np.full(min(k, best.shape[0] - 1 + c.shape[0] - 1) + 1, np.inf)
        for h in range(1, c.shape[0]):
            span = min(best.shape[0], new.shape[0] - h)
            if span > 0:
                new[h : h + span] = np.minimum(new[h : h + span], best[:span] + c[h])
        best = new
    return float(best[k])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[5000, 20000])
    ap.add_argument("--window", type=int, nargs="+", default=[500, 1000], help="window sizes of the windowed design")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)

    from bpseg_pgm.evaluation.metrics import evaluate
    from bpseg_pgm.policy import DEFAULT_POLICY as P
    from bpseg_pgm.runs.candidates import binary_segmentation
    from bpseg_pgm.runs.statistics import persistence_halflife, policy_correlation_length, smoothed_embeddings
    from bpseg_pgm.runs.windows import window_cuts, windowed_levels
    from bpseg_pgm.utils.labels import n_runs
    from bpseg_pgm.utils.validation import normalize_rows

    X_all, w_all, passage_all, _ = corpus()
    lines = ["# Splitting past the candidates: binary segmentation, refined, or the programme in windows", "",
             "Produced by `research/2026-11-24-long-abrupt-text/bench_runs_beyond_candidates.py` (its docstring says what is measured). Choi set 1 "
             "concatenated, cut to n units; each design given the same features and k. Cost: the split's total cost "
             "(lower is better); ARI and Pk against the gold passages; seconds on a shared 2-core machine (indicative; "
             "binary segmentation's own time is in its row and not in the others'). `sharing`: the windowed cost over "
             "the cost of the exact sharing of the k runs between the same windows, minus 1.", "",
             f"Command: `python {os.path.relpath(__file__)} {' '.join(sys.argv[1:] if argv is None else argv)}`", "",
             "| n | k | design | cost | ARI | Pk | seconds | sharing |", "|---:|---:|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for n in args.sizes:
        X, w = first_units([X_all, w_all], n)
        (passage,) = first_units([passage_all], n, copy_offset=10**7)
        Xn = normalize_rows(X)
        F = smoothed_embeddings(Xn, P.smoothing * persistence_halflife(Xn), w, min_width=P.smoothing_min_width)
        prefix = Prefix(F, w)
        ks = sorted({n_runs(passage), int(np.ceil(n / policy_correlation_length(Xn, w, P)))})
        t0 = time.perf_counter()
        order = binary_segmentation(F, w, max(ks) - 1)
        t_binseg = time.perf_counter() - t0
        for k in ks:
            greedy = np.concatenate([[0], np.sort(order[: k - 1])])
            t0 = time.perf_counter()
            refined = refine(prefix, greedy, n)
            designs = [("binseg", greedy, t_binseg, ""), ("binseg+refine", refined, time.perf_counter() - t0, "")]
            for size in args.window:
                t0 = time.perf_counter()
                cuts = window_cuts(order[:999], n, size)
                windows, shares, costs = windowed_levels(F, w, k, cuts, P.window_share)
                held = 1 + np.bincount(shares[: k - len(windows)], minlength=len(windows))
                starts = np.concatenate([a + lev.starts(h) for a, lev, h in zip(cuts[:-1], windows, held)])
                seconds = time.perf_counter() - t0
                gap = costs[k - len(windows)] / exact_sharing([lev.costs for lev in windows], k) - 1
                designs.append((f"windowed, {len(windows)} windows of ~{size}", starts, seconds, f"{gap:.1e}"))
            for name, starts, secs, sharing in designs:
                labels = np.repeat(np.arange(starts.shape[0]), np.diff(np.append(starts, n)))
                e = evaluate(passage, labels)
                row = f"| {n} | {k} | {name} | {prefix.cost(starts, n):.1f} | {e['ari']:.3f} | {e['pk']:.3f} | {secs:.2f} | {sharing} |"
                lines.append(row)
                print(row, flush=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
