"""Query-focused pruning on QMSum: recall of a query's gold turns when a budget of the meeting's words is kept.

Every QMSum meeting comes with specific queries, each with the turns that answer it
(``relevant_text_span``; gold = 10.5% of a meeting's words on average). A method keeps turns
of the meeting until a budget of its words is filled (the whitespace words of the kept turns
<= budget x the meeting's words; a turn or group that does not fit is skipped and smaller
ones are tried), and is scored by

* **turns**: the fraction of the gold turns it kept, and
* **words**: the fraction of the gold turns' words it kept,

averaged over queries. Methods (units = turns, all-MiniLM-L6-v2 embeddings, cosine to the query):

* ``random``: turns in random order (mean of ``--seeds`` seeds);
* ``cosine turns`` / ``BM25 turns``: turns by cosine to the query / by BM25 (``rank_bm25``);
* ``windows of W turns``: consecutive, non-overlapping windows, ranked by their best turn's
  cosine or by the cosine of their centroid;
* ``semantic chunks pP``: chonkie-style SemanticChunker: cut wherever the cosine of two adjacent
  turns is below the P-th percentile of those cosines; chunks ranked like the windows;
* ``BP-Seg default segments``: ``BPSeg()`` (non-contiguous) segments, whole, by their best turn;
* ``bpseg prune``: :func:`bpseg_pgm.prune` (contiguous BP-Seg segments, cosine + 0.2 BM25, top-2
  score, best parts of a segment that does not fit), with two ablations: no BM25, and whole
  segments only;
* ``oracle``: the gold turns, shortest first.

Every setting of ``bpseg prune`` and of the baselines was chosen on the train meetings; report
on val::

    python research/2026-11-23-query-pruning/bench_prune.py --split val --out research/2026-11-23-query-pruning/results
    python research/2026-11-23-query-pruning/bench_prune.py --split train --chunk-percentiles 10 20 40 --windows 5 10 20

Embeddings come from the on-disk cache (QMSum turns are all cached; queries are embedded once).
Writes ``prune_qmsum_<split>.md`` (table), ``.json`` (every number) and ``.png`` (recall
against budget) into ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path

import numpy as np

warnings.filterwarnings("ignore", category=FutureWarning)

TABLE_BUDGETS = (0.1, 0.2)
PLOT_BUDGETS = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3)


# -- metric ----------------------------------------------------------------------------------
def gold_mask(n: int, spans: Sequence[tuple[int, int]]) -> np.ndarray:
    """Boolean mask of the turns covered by the (inclusive) spans, clipped to 0..n-1."""
    mask = np.zeros(n, dtype=bool)
    for a, b in spans:
        mask[max(int(a), 0) : min(int(b), n - 1) + 1] = True
    return mask


def recall(kept: np.ndarray, gold: np.ndarray, words: np.ndarray) -> tuple[float, float]:
    """(fraction of the gold turns kept, fraction of the gold turns' words kept)."""
    kept = np.asarray(kept, dtype=bool)
    gold = np.asarray(gold, dtype=bool)
    words = np.asarray(words)
    if kept.shape != gold.shape or gold.shape != words.shape:
        raise ValueError("kept, gold and words must have one entry per turn")
    if not gold.any():
        raise ValueError("no gold turn")
    gold_words = words[gold].sum()
    return float(kept[gold].mean()), float(words[kept & gold].sum() / gold_words) if gold_words else 0.0


# -- filling a budget --------------------------------------------------------------------------
def fill(groups: Sequence[np.ndarray], words: np.ndarray, budget: float) -> np.ndarray:
    """Keep the groups (index arrays, best first) whose words fit in what is left of the budget; skip the others."""
    kept = np.zeros(len(words), dtype=bool)
    left = float(budget)
    for g in groups:
        w = words[g][~kept[g]].sum()
        if w <= left:
            kept[g] = True
            left -= w
    return kept


def ranked(groups: list[np.ndarray], scores: np.ndarray) -> list[np.ndarray]:
    return [groups[i] for i in np.argsort(-np.asarray(scores), kind="stable")]


def windows(n: int, size: int) -> list[np.ndarray]:
    return [np.arange(a, min(a + size, n)) for a in range(0, n, size)]


def semantic_chunks(X: np.ndarray, percentile: float) -> list[np.ndarray]:
    """Chonkie-style semantic chunks: cut between adjacent turns whose cosine is below the percentile."""
    n = len(X)
    if n < 2:
        return [np.arange(n)]
    sims = np.einsum("ij,ij->i", X[:-1], X[1:])
    cuts = np.flatnonzero(sims < np.percentile(sims, percentile)) + 1
    return np.split(np.arange(n), cuts)


def best_turn(groups: list[np.ndarray], r: np.ndarray) -> np.ndarray:
    return np.array([r[g].max() for g in groups])


def centroid(groups: list[np.ndarray], X: np.ndarray, q: np.ndarray) -> np.ndarray:
    S = np.stack([X[g].sum(0) for g in groups])
    return (S @ q) / np.maximum(np.linalg.norm(S, axis=1), 1e-12)


# -- the run -----------------------------------------------------------------------------------
class Meeting:
    """One meeting's turns, embeddings and per-meeting structures (computed once, shared by its queries)."""

    def __init__(self, doc, X: np.ndarray, args):
        from bpseg_pgm.policy import DEFAULT_POLICY
        from bpseg_pgm.pruning import segment_runs

        self.doc = doc
        self.units = list(doc.units)
        self.X = np.asarray(X, dtype=np.float64)
        self.words = np.array([len(u.split()) for u in self.units])
        n = len(self.units)
        self.groups = {f"windows of {w} turns": windows(n, w) for w in args.windows}
        self.groups.update({f"semantic chunks p{p:g}": semantic_chunks(self.X, p) for p in args.chunk_percentiles})
        # bpseg prune, as bpseg_pgm.prune does it: empty turns skipped, segments of the others (query-independent)
        self.live = np.flatnonzero([bool(u.strip()) for u in self.units])
        self.live_units = [self.units[i] for i in self.live]
        self.starts = segment_runs(self.X[self.live], self.live_units, "auto", DEFAULT_POLICY)
        self.contig = [self.live[g] for g in np.split(np.arange(len(self.live)), self.starts[1:])]
        self.default = None
        if args.default_bpseg:
            from bpseg_pgm import BPSeg

            labels = BPSeg().fit(self.X).labels_
            self.default = [np.flatnonzero(labels == j) for j in np.unique(labels)]


def methods_for(
    m: Meeting, q: np.ndarray, query: str, gold: np.ndarray, seeds: int
) -> dict[str, Callable[[float], np.ndarray]]:
    """Each method as budget (in words) -> kept mask, for one query of meeting ``m``."""
    from bpseg_pgm.policy import DEFAULT_POLICY as P
    from bpseg_pgm.pruning import bm25_relevance, relevance, select_runs

    X, words, n = m.X, m.words, len(m.words)
    r = X @ q
    bm = bm25_relevance(m.units, query)
    singles = [np.array([i]) for i in range(n)]
    perms = [np.random.default_rng(s).permutation(n) for s in range(seeds)]
    out: dict[str, Callable[[float], np.ndarray]] = {}
    out["random turns"] = lambda B: np.mean([fill([singles[i] for i in p], words, B) for p in perms], axis=0)
    out["cosine turns"] = lambda B: fill(ranked(singles, r), words, B)
    out["BM25 turns"] = lambda B: fill(ranked(singles, bm), words, B)
    for name, groups in m.groups.items():
        by_turn, by_centroid = ranked(groups, best_turn(groups, r)), ranked(groups, centroid(groups, X, q))
        out[f"{name}, by best turn"] = lambda B, g=by_turn: fill(g, words, B)
        out[f"{name}, by centroid"] = lambda B, g=by_centroid: fill(g, words, B)
    if m.default is not None:
        d = ranked(m.default, best_turn(m.default, r))
        out["BP-Seg default segments, by best turn"] = lambda B: fill(d, words, B)
    live, Xl, wl = m.live, X[m.live], words[m.live]
    full = relevance(Xl, q, bm25_relevance(m.live_units, query), P.prune_bm25_weight)

    def on_live(mask: np.ndarray) -> np.ndarray:
        kept = np.zeros(n, dtype=bool)
        kept[live[mask]] = True
        return kept

    parts = {"top_m": P.prune_top_m, "part_units": P.prune_part_units}
    out["bpseg prune"] = lambda B: on_live(select_runs(full, m.starts, wl, B, **parts))
    out["bpseg prune, no BM25"] = lambda B: on_live(select_runs(Xl @ q, m.starts, wl, B, **parts))
    from bpseg_pgm.pruning import segment_scores

    whole = ranked(m.contig, segment_scores(full, m.starts, P.prune_top_m))
    out["bpseg prune, whole segments only"] = lambda B: fill(whole, words, B)
    gold_idx = np.flatnonzero(gold)
    oracle = [np.array([i]) for i in gold_idx[np.argsort(words[gold_idx], kind="stable")]]
    out["oracle (gold turns, shortest first)"] = lambda B: fill(oracle, words, B)
    return out


def run(split: str, args) -> dict:
    from bpseg_bench.qmsum import load_qmsum
    from bpseg_pgm.embeddings import Embedder

    docs = load_qmsum(args.data, splits=[split], limit=args.limit)
    embedder = Embedder(show_progress=False)
    queries = [(di, q) for di, d in enumerate(docs) for q in d.meta["queries"]]
    Q = np.asarray(embedder.encode([q["query"] for _, q in queries]), dtype=np.float64)
    budgets = sorted(set(TABLE_BUDGETS) | set(PLOT_BUDGETS))
    scores: dict[str, dict[float, list[tuple[float, float]]]] = {}
    gold_share = []
    t0 = time.perf_counter()
    meeting = None
    for (di, q), qv in zip(queries, Q):
        if meeting is None or meeting.doc is not docs[di]:
            meeting = Meeting(docs[di], embedder.encode(docs[di].units), args)
            print(
                f"{docs[di].doc_id} ({len(docs[di])} turns) {time.perf_counter() - t0:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        gold = gold_mask(len(meeting.units), q["spans"])
        if not gold.any():
            continue
        gold_share.append(meeting.words[gold].sum() / meeting.words.sum())
        total = meeting.words.sum()
        for name, method in methods_for(meeting, qv, q["query"], gold, args.seeds).items():
            for b in budgets:
                kept = method(b * total)
                if isinstance(kept, np.ndarray) and kept.dtype != bool:  # random: mean over seeds of masks
                    gold_words = meeting.words[gold].sum()
                    res = (float(kept[gold].mean()), float((kept * meeting.words)[gold].sum() / gold_words))
                else:
                    assert meeting.words[kept].sum() <= b * total + 1e-9, name
                    res = recall(kept, gold, meeting.words)
                scores.setdefault(name, {}).setdefault(b, []).append(res)
    return {
        "split": split,
        "meetings": len(docs),
        "queries": len(gold_share),
        "gold_share_of_words": float(np.mean(gold_share)),
        "seconds": time.perf_counter() - t0,
        "recall": {name: {str(b): list(np.mean(v, axis=0)) for b, v in per.items()} for name, per in scores.items()},
    }


def table(result: dict) -> str:
    head = "| method | " + " | ".join(f"turns @{b:.0%} | words @{b:.0%}" for b in TABLE_BUDGETS) + " |"
    lines = [head, "|---|" + "---:|" * (2 * len(TABLE_BUDGETS))]
    for name, per in result["recall"].items():
        cells = " | ".join(f"{per[str(b)][0]:.3f} | {per[str(b)][1]:.3f}" for b in TABLE_BUDGETS)
        lines.append(f"| {name} | {cells} |")
    return "\n".join(lines) + "\n"


def _style(name: str, colours: dict) -> dict:
    """bpseg prune in black (ablations dashed, dotted), the oracle grey, each baseline family one colour."""
    if name == "bpseg prune":
        return {"lw": 2.8, "color": "black"}
    if name.startswith("bpseg prune,"):
        return {"lw": 1.4, "color": "black", "ls": "--" if "BM25" in name else ":"}
    if name.startswith("oracle"):
        return {"lw": 1.2, "color": "grey", "ls": (0, (1, 3))}
    family = name.split(", by ")[0]
    colour = colours.setdefault(family, f"C{len(colours)}")
    return {"lw": 1.3, "color": colour, "ls": "--" if name.endswith("by centroid") else "-"}


def plot(result: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(14, 5.2), sharey=True)
    colours: dict = {}
    for k, (ax, what) in enumerate(zip(axes, ("gold turns", "gold words"))):
        for name, per in result["recall"].items():
            ys = [per[str(b)][k] for b in PLOT_BUDGETS]
            ax.plot([100 * b for b in PLOT_BUDGETS], ys, marker="o", ms=3, label=name, **_style(name, colours))
        ax.set_xlabel("budget (% of the meeting's words)")
        ax.set_title(f"recall of {what}")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("recall")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="center left", bbox_to_anchor=(0.78, 0.5), frameon=False)
    fig.suptitle(
        f"Query-focused pruning, QMSum {result['split']} ({result['queries']} specific queries, "
        f"{result['meetings']} meetings)"
    )
    fig.tight_layout(rect=(0, 0, 0.78, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("train", "val"), default="val")
    ap.add_argument("--data", default=None, help="QMSum folder (default: found as bpseg_bench.qmsum does)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many meetings (a quick look)")
    ap.add_argument("--seeds", type=int, default=5, help="seeds of the random baseline")
    ap.add_argument("--windows", type=int, nargs="+", default=[10, 20], help="window sizes in turns")
    ap.add_argument(
        "--chunk-percentiles",
        type=float,
        nargs="+",
        default=[10],
        help="percentile thresholds of the semantic chunker (10 was best on train)",
    )
    ap.add_argument(
        "--no-default-bpseg",
        dest="default_bpseg",
        action="store_false",
        help="skip BPSeg() default segments (the slowest row)",
    )
    ap.add_argument("--out", type=Path, default=Path("research/2026-11-23-query-pruning/results"))
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    result = run(args.split, args)
    cpu = platform.processor() or platform.system()
    result["machine"] = f"{platform.machine()}, {cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    result["date"] = date.today().isoformat()
    result["command"] = "python research/2026-11-23-query-pruning/bench_prune.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    stem = args.out / f"prune_qmsum_{args.split}"
    md = (
        f"QMSum {args.split}: {result['meetings']} meetings, {result['queries']} specific queries, gold = "
        f"{result['gold_share_of_words']:.1%} of a meeting's words on average. Recall at a budget of 10% and 20% "
        f"of the meeting's words.\n\n" + table(result)
    )
    stem.with_suffix(".md").write_text(md, encoding="utf-8")
    stem.with_suffix(".json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    plot(result, stem.with_suffix(".png"))
    print(md)
    print(f"{result['seconds']:.0f} s; wrote {stem}.md, .json, .png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
