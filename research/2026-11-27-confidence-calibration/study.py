"""Calibrate each unit's confidence on the development sets and check it on the held-out ones.

Reads what ``collect.py`` stored (per document: labels, beliefs, structure, gold) and

1. fits the map of :mod:`bpseg_pgm.confidence.calibrate` (five numbers: a base confidence per structure,
   a weight on the logit of the raw belief and one on the log of the distance to the segment's edge) on the
   development sets only: QMSum train, PEPs train, Choi set 1 and its interleaved documents, each genre
   weighted equally; the default settings ("auto" structure: topics or grouped runs) give the weights and
   those two bases, ``structure="runs"`` then gives the runs' base;
2. scores the raw belief (before) and the shipped map (after: ``calibrated_confidence`` with the
   ``DEFAULT_POLICY``) on every set: the reliability table (10 equal-width bins), the expected calibration
   error, the mean confidence against the fraction of units in their matched gold segment, and the AUC
   (how well the confidence ranks right units above wrong ones);
3. leaves one genre out: fits on two genres, scores the third;
4. draws the reliability diagrams (``reliability.png``).

    python research/2026-11-27-confidence-calibration/study.py            # prints the README's tables

Unlabelled units (QMSum turns outside every topic span) are left out of every score.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize
from scipy.stats import rankdata

from bpseg_pgm.confidence import (
    boundary_distance,
    calibrated_confidence,
    expected_calibration_error,
    matched_correct,
    reliability_table,
)
from bpseg_pgm.policy import DEFAULT_POLICY, Policy

HERE = Path(__file__).resolve().parent
CACHE = Path("/tmp/bpseg_conf/collected")
GENRE = {
    "qmsum-train": "QMSum",
    "qmsum-val": "QMSum",
    "peps-train": "PEPs",
    "peps-val": "PEPs",
    "choi-1": "Choi",
    "interleaved": "Choi",
    "choi-2": "Choi",
    "choi-3": "Choi",
    "choi-4": "Choi",
}
DEV = ("qmsum-train", "peps-train", "choi-1", "interleaved")
HELD_OUT = ("qmsum-val", "peps-val", "choi-2", "choi-3", "choi-4")
GENRES = ("QMSum", "PEPs", "Choi")
STRUCTURES = ("runs", "topics", "run-topics")
FIELDS = ("confidence_runs", "confidence_topics", "confidence_run_topics", "confidence_belief", "confidence_distance")


@dataclass
class Units:
    """Every labelled unit of a set: raw belief, distance, structure, document and whether it is right."""

    belief: np.ndarray
    distance: np.ndarray
    structure: np.ndarray
    doc: np.ndarray
    correct: np.ndarray
    calibrated: np.ndarray  # the shipped map


def load(name: str, cache: Path) -> list[dict]:
    with open(cache / f"{name}.pkl", "rb") as fh:
        return pickle.load(fh)


def units_of(docs: list[dict], policy: Policy = DEFAULT_POLICY) -> Units:
    cols: dict[str, list] = {k: [] for k in ("belief", "distance", "structure", "doc", "correct", "calibrated")}
    for j, d in enumerate(docs):
        labels = d["labels"]
        belief = d["beliefs"][np.arange(len(labels)), labels]
        ok, labelled = matched_correct(labels, d["gold"])
        calibrated = calibrated_confidence(belief, labels, d["structure"], policy)
        cols["belief"].append(belief[labelled])
        cols["distance"].append(boundary_distance(labels)[labelled])
        cols["structure"].append(np.full(labelled.sum(), d["structure"]))
        cols["doc"].append(np.full(labelled.sum(), j))
        cols["correct"].append(ok[labelled])
        cols["calibrated"].append(calibrated[labelled])
    return Units(**{k: np.concatenate(v) for k, v in cols.items()})


def _log_loss_fit(groups: list[Units], start: np.ndarray, free: np.ndarray) -> np.ndarray:
    """theta = (logit of the three bases, belief weight, distance weight) minimising the log loss, each group of
    units weighted equally; only the entries where ``free`` is True move (weights kept >= 0)."""
    b = np.clip(np.concatenate([g.belief for g in groups]), 1e-6, 1 - 1e-6)
    lb = np.log(b / (1 - b))
    ld = np.log(np.concatenate([g.distance for g in groups]))
    s = np.concatenate([g.structure for g in groups])
    y = np.concatenate([g.correct for g in groups]).astype(float)
    w = np.concatenate([np.full(len(g.correct), 1.0 / max(len(g.correct), 1)) for g in groups])
    w /= w.sum()
    onehot = np.stack([s == name for name in STRUCTURES], axis=1).astype(float)
    free = free & np.r_[onehot.sum(axis=0) > 0, True, True]  # a structure no unit has keeps its start

    def loss(theta):
        z = onehot @ theta[:3] + theta[3] * lb + theta[4] * ld
        p = 1.0 / (1.0 + np.exp(-z))
        value = -(w * (y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12))).sum()
        r = w * (p - y)
        return value, np.concatenate([onehot.T @ r, [r @ lb, r @ ld]])

    bounds = [(None, None) if f else (x, x) for f, x in zip(free[:3], start[:3])]
    bounds += [(0, None) if f else (x, x) for f, x in zip(free[3:], start[3:])]
    return minimize(loss, start, jac=True, method="L-BFGS-B", bounds=bounds).x


def fit(default: list[Units], runs: list[Units]) -> dict[str, float]:
    """The five numbers, in two steps: the default settings' units (topics and grouped runs) give the two
    weights and the bases of "topics" and "run-topics"; then the units of ``structure="runs"`` give the runs'
    base, the weights kept (so that the default's map is not bent towards a structure it does not use).
    Each group of units (a genre's development sets, one collection) weighs the same."""
    shipped = [getattr(DEFAULT_POLICY, f) for f in FIELDS[:3]]
    start = np.array([np.log(v / (1 - v)) for v in shipped] + [0.0, 0.0])
    theta = _log_loss_fit(default, start, np.array([False, True, True, True, True]))
    theta = _log_loss_fit(runs, theta, np.array([True, False, False, False, False]))
    bases = 1.0 / (1.0 + np.exp(-theta[:3]))
    return dict(zip(FIELDS, [*bases.tolist(), float(theta[3]), float(theta[4])]))


def auc(score: np.ndarray, ok: np.ndarray) -> float:
    n1, n0 = int(ok.sum()), int((~ok).sum())
    if not n1 or not n0:
        return float("nan")
    r = rankdata(score)
    return float((r[ok].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def scores(conf: np.ndarray, ok: np.ndarray) -> dict[str, float]:
    return {
        "ece": expected_calibration_error(conf, ok),
        "mean": float(conf.mean()),
        "accuracy": float(ok.mean()),
        "auc": auc(conf, ok),
    }


def policy_of(numbers: dict[str, float]) -> Policy:
    return DEFAULT_POLICY.replace(**{k: round(v, 6) for k, v in numbers.items()})


def fmt_row(name: str, n: int, before: dict, after: dict) -> str:
    return (
        f"| {name} | {n:,} | {before['accuracy']:.3f} | {before['mean']:.3f} | {before['ece']:.3f} | "
        f"{before['auc']:.3f} | {after['mean']:.3f} | {after['ece']:.3f} | {after['auc']:.3f} |"
    )


HEAD = (
    "| set | units | fraction right | raw: mean | raw: ECE | raw: AUC | calibrated: mean | calibrated: ECE | "
    "calibrated: AUC |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def reliability_md(name: str, u: Units) -> str:
    raw = {b.low: b for b in reliability_table(u.belief, u.correct)}
    cal = {b.low: b for b in reliability_table(u.calibrated, u.correct)}
    lines = [
        f"**{name}** (units per bin, mean confidence -> fraction right)\n",
        "| bin | raw: units | raw: conf -> right | calibrated: units | calibrated: conf -> right |",
        "|---|---:|---:|---:|---:|",
    ]
    for k in range(10):
        low = k / 10
        a, c = raw.get(low), cal.get(low)
        cell = lambda x: ("0", "") if x is None else (f"{x.count:,}", f"{x.mean_confidence:.2f} -> {x.accuracy:.2f}")  # noqa: E731
        lines.append(f"| {low:.1f}-{low + 0.1:.1f} | {cell(a)[0]} | {cell(a)[1]} | {cell(c)[0]} | {cell(c)[1]} |")
    return "\n".join(lines)


def plot(sets: dict[str, Units], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(sets), figsize=(4.2 * len(sets), 4.3), sharey=True)
    for ax, (name, u) in zip(np.atleast_1d(axes), sets.items()):
        ax.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--", label="calibrated")
        for conf, label, color in ((u.belief, "raw belief", "tab:red"), (u.calibrated, "confidence()", "tab:blue")):
            table = reliability_table(conf, u.correct)
            x = [b.mean_confidence for b in table]
            y = [b.accuracy for b in table]
            size = [20 + 200 * b.count / len(conf) for b in table]
            ece = expected_calibration_error(conf, u.correct)
            ax.plot(x, y, color=color, lw=1.2)
            ax.scatter(x, y, s=size, color=color, label=f"{label} (ECE {ece:.3f})", zorder=3)
        ax.set_title(f"{name} ({len(u.correct):,} units)")
        ax.set_xlabel("confidence (bin mean)")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.legend(loc="upper left", fontsize=8)
    np.atleast_1d(axes)[0].set_ylabel("fraction in the matched gold segment")
    fig.suptitle("Reliability on the held-out sets (10 equal-width bins; marker area: share of units)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cache", type=Path, default=CACHE)
    p.add_argument("--png", type=Path, default=HERE / "reliability.png")
    args = p.parse_args(argv)

    docs = {name: load(name, args.cache) for name in (*DEV, *HELD_OUT)}
    runs_docs = {name: load(f"{name}-runs", args.cache) for name in (*DEV, "qmsum-val", "peps-val")}

    def groups(collection, genres):
        return [units_of([d for n in DEV if GENRE[n] == g for d in collection[n]]) for g in genres]

    fitted = fit(groups(docs, GENRES), groups(runs_docs, GENRES))
    print("## The fit (development sets, every genre)\n")
    print("| field | fitted | shipped |\n|---|---:|---:|")
    for k, v in fitted.items():
        print(f"| `{k}` | {v:.4f} | {getattr(DEFAULT_POLICY, k)!r} |")

    print("\n## Before and after, per set (default settings; after = the shipped Policy)\n")
    print(HEAD)
    every = {}
    for name in (*DEV, *HELD_OUT):
        u = units_of(docs[name])
        every[name] = u
        print(fmt_row(name, len(u.correct), scores(u.belief, u.correct), scores(u.calibrated, u.correct)))
    choi = [d for n in ("choi-2", "choi-3", "choi-4") for d in docs[n]]
    every["choi-234"] = units_of(choi)
    u = every["choi-234"]
    print(fmt_row("choi-2-4 (pooled)", len(u.correct), scores(u.belief, u.correct), scores(u.calibrated, u.correct)))

    print('\n## structure="runs" (the runs model alone; what a re-cut gives)\n')
    print(HEAD)
    for name, rows in runs_docs.items():
        u = units_of(rows)
        print(fmt_row(name, len(u.correct), scores(u.belief, u.correct), scores(u.calibrated, u.correct)))

    print("\n## Per structure, held-out sets pooled (default settings)\n")
    print(
        "| structure | units | fraction right | raw: mean | calibrated: mean | calibrated: ECE |\n|---|---:|---:|---:|---:|---:|"
    )
    pooled = [every[n] for n in HELD_OUT]
    s = np.concatenate([x.structure for x in pooled])
    for name in STRUCTURES:
        m = s == name
        if m.any():
            ok = np.concatenate([x.correct for x in pooled])[m]
            raw = np.concatenate([x.belief for x in pooled])[m]
            cal = np.concatenate([x.calibrated for x in pooled])[m]
            print(
                f"| {name} | {m.sum():,} | {ok.mean():.3f} | {raw.mean():.3f} | {cal.mean():.3f} | "
                f"{expected_calibration_error(cal, ok):.3f} |"
            )

    print("\n## Reliability tables (held-out sets)\n")
    for name in ("qmsum-val", "peps-val", "choi-234"):
        print(reliability_md(name, every[name]) + "\n")

    print("## Leave one genre out (fit on two genres' development sets, score the third's sets)\n")
    print("| left out | fitted numbers | set | fraction right | mean | ECE | AUC |\n|---|---|---|---:|---:|---:|---:|")
    for genre in GENRES:
        kept = [g for g in GENRES if g != genre]
        numbers = fit(groups(docs, kept), groups(runs_docs, kept))
        policy = policy_of(numbers)
        text = ", ".join(f"{k.removeprefix('confidence_')} {v:.3f}" for k, v in numbers.items())
        for name in [n for n in (*DEV, *HELD_OUT) if GENRE[n] == genre]:
            u = units_of(docs[name], policy)
            sc = scores(u.calibrated, u.correct)
            print(
                f"| {genre} | {text} | {name} | {sc['accuracy']:.3f} | {sc['mean']:.3f} | {sc['ece']:.3f} | {sc['auc']:.3f} |"
            )
            text = ""

    plot({"QMSum val": every["qmsum-val"], "PEPs val": every["peps-val"], "Choi 2-4": every["choi-234"]}, args.png)
    print(f"\n(reliability diagram: {args.png.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
