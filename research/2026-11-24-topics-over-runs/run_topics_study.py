"""Topics over runs: the threshold, coupling and locality prior, per development set (issue 21).

For every document of the development sets (set-1 interleaved Choi, QMSum train, round-robin PEPs train,
Choi set 1, PEPs train; section gold) the default is fitted once with ``group_runs=False``. Where it
gave runs, those runs are grouped by :func:`bpseg_pgm.runtopics.fit_run_topics` under each setting
(and by the average-linkage proposal alone, without BP); elsewhere the labels stay the topic model's.
ARI on the labelled units, beside k-means told the gold number of topics. Only development data is
read; the shipped numbers are today ``bpseg_pgm.Policy``'s ``group_*`` fields (``bpseg_pgm/runtopics/defaults.py``
when this study was made).

    python research/2026-11-24-topics-over-runs/run_topics_study.py               # ~2 min on 2 cores, embeddings cached
    python research/2026-11-24-topics-over-runs/run_topics_study.py --limit 20    # quicker
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from pathlib import Path

import numpy as np

SETS = ("interleaved", "qmsum-train", "peps-train-rr", "choi-1", "peps-train")
#: (threshold, lam, locality); None for lam: the linkage proposal alone, no BP
SETTINGS = (
    (0.3, None, None),
    (0.4, None, None),
    (0.3, 30.0, 2.0),
    (0.3, 30.0, 4.0),
    (0.4, 30.0, 2.0),
    (0.4, 30.0, 4.0),
    (0.4, 60.0, 4.0),
)


def label(setting) -> str:
    t, lam, loc = setting
    return f"linkage {t}" if lam is None else f"BP t={t} lam={lam:g} loc={loc:g}"


def main(argv=None) -> int:
    from sklearn.cluster import KMeans
    from sklearn.exceptions import ConvergenceWarning

    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.report import machine_info
    from bpseg_bench.runner import embed_documents, make_embedder
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.evaluation.metrics import evaluate_partial
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.runtopics import RunTopicPotentials, fit_run_topics
    from bpseg_pgm.runtopics.fit import propose_topics
    from bpseg_pgm.runtopics.summary import summarize_runs
    from bpseg_pgm.utils.validation import normalize_rows

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="documents per set")
    ap.add_argument(
        "--out",
        default="research/2026-11-24-topics-over-runs/results/run_topics_study",
        help="output stem (.md, .json)",
    )
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    start = time.time()
    table: dict[str, dict[str, float]] = {}
    embedder = make_embedder(progress=False)
    for name in SETS:
        docs = load_dataset(name, limit=args.limit)
        Xs, _ = embed_documents(docs, embedder)
        scores: dict[str, list[float]] = {}
        for doc, X in zip(docs, Xs):
            X = normalize_rows(np.asarray(X, dtype=np.float64))
            w = unit_weights(doc.units, DEFAULT_POLICY.word_scale)
            base = BPSeg(group_runs=False, random_state=0).fit(X, sample_weight=w)
            ari = evaluate_partial(doc.labels, base.labels_)["ari"]
            scores.setdefault("default, ungrouped", []).append(ari)
            k = len({g for g in doc.labels if g is not None})
            km = KMeans(k, n_init=4, random_state=0).fit_predict(X)
            scores.setdefault("k-means, gold k", []).append(evaluate_partial(doc.labels, km)["ari"])
            for s in SETTINGS:
                if base.structure_ != "runs":
                    scores.setdefault(label(s), []).append(ari)
                    continue
                if s[1] is None:
                    summary = summarize_runs(X, w, base.labels_)
                    topics = propose_topics(summary.similarity(), s[0])
                    labels = np.repeat(topics, np.diff(summary.bounds))
                else:
                    pot = RunTopicPotentials.from_policy(DEFAULT_POLICY, threshold=s[0], lam=s[1], locality=s[2])
                    labels = fit_run_topics(X, w, base.labels_, potentials=pot, random_state=0).labels
                scores.setdefault(label(s), []).append(evaluate_partial(doc.labels, labels)["ari"])
        table[name] = {k: float(np.mean(v)) for k, v in scores.items()}
        print(name, {k: round(v, 3) for k, v in table[name].items()}, flush=True)
    rows = list(next(iter(table.values())))
    md = [
        f"Command: `python research/2026-11-24-topics-over-runs/run_topics_study.py{'' if args.limit is None else f' --limit {args.limit}'}`. "
        f"Machine: {machine_info()['cpu']}, {machine_info()['cores']} cores. {time.time() - start:.0f} s. Mean ARI; the default's runs grouped under "
        "each setting (documents the default gave the topic model keep its labels).",
        "",
        "| setting | " + " | ".join(SETS) + " |",
        "|---|" + "---:|" * len(SETS),
    ]
    md += [f"| {r} | " + " | ".join(f"{table[s][r]:.3f}" for s in SETS) + " |" for r in rows]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out + ".md").write_text("\n".join(md) + "\n", encoding="utf-8")
    Path(args.out + ".json").write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
