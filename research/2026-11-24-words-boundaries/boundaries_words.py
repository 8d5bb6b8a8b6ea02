"""Do the words place the runs' boundaries better? The weight of the words' cost, chosen and left out (issue 20).

Once the number of runs is chosen, the runs model cuts the text where the embeddings' scatter is least. The
words' cost (:mod:`bpseg_pgm.runs.wordcost`: minus the Dirichlet-compound-multinomial log evidence of a run's
words, BayesSeg's likelihood) can be added, each cost scaled by its gain at the chosen k, the words' with a
``weight``. This script scores the runs of every development document at weights 0 (the embeddings alone) to 4:

* at the default's own k (``choose_structure`` with the units' word counts, as the text pipeline fits);
* at the gold number of runs (the boundaries alone judged).

Sets: Choi set 1 (passages), QMSum train (topics), PEPs train (sections; sub-sections too). Rows for every
document's runs and for the documents the default cuts into runs (the others get the topic model, whose labels
the weight does not touch). Then leave-one-genre-out: each genre's weight chosen on the other two (PEPs as the
mean of its two annotations), and what the genre left out gains at it. Only development data is read.

    python research/2026-11-24-words-boundaries/boundaries_words.py            # ~10 min on 2 cores, embeddings cached
    python research/2026-11-24-words-boundaries/boundaries_words.py --limit 20  # quicker

Outputs: ``research/2026-11-24-words-boundaries/results/boundaries_words.{md,json}`` (``--out`` changes the stem).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import warnings
from pathlib import Path

import numpy as np

WEIGHTS = (0.0, 0.5, 1.0, 2.0, 4.0)
SETS = (("choi-1", "Choi"), ("qmsum-train", "QMSum"), ("peps-train", "PEPs"), ("peps-train-sub", "PEPs"))


def score_document(job):
    """ARI / Pk of the runs at every weight, at the default's k and at the gold number of runs."""
    warnings.filterwarnings("ignore")
    from bpseg_pgm.decisions.structure import choose_structure
    from bpseg_pgm.evaluation.metrics import evaluate_partial
    from bpseg_pgm.features.weights import unit_weights
    from bpseg_pgm.features.words import unit_word_counts
    from bpseg_pgm.policy import DEFAULT_POLICY
    from bpseg_pgm.runs.evidence import check_word_counts
    from bpseg_pgm.utils.labels import n_runs
    from bpseg_pgm.utils.validation import normalize_rows

    X, units, gold = job  # gold: None for a unit in no gold segment (QMSum), which scoring leaves out
    w = unit_weights(units, DEFAULT_POLICY.word_scale)
    Xn = normalize_rows(np.asarray(X, dtype=float))
    counts = check_word_counts(unit_word_counts(units), len(units))
    found = choose_structure(Xn, w, "auto", word_counts=counts, policy=DEFAULT_POLICY.replace(word_weight=0.0))
    if found.fit is None:
        return None
    k = int(found.fit.labels.max()) + 1
    k_gold = n_runs(np.array([g for g in gold if g is not None]))
    out = {"runs": bool(found.runs), "k": k, "k_gold": k_gold}
    for name, base in (
        ("k", found.fit),
        ("gold", found.fine.at(k_gold) if k_gold <= found.fine.levels.max_runs else None),
    ):
        if base is None:
            continue
        for weight in WEIGHTS:
            fit = base.with_words(counts, weight) if weight > 0 else base
            s = evaluate_partial(gold, fit.labels)
            out[f"{name}/{weight:g}"] = (s["ari"], s["pk"])
    return out


def main(argv=None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # research/, for common.py
    from common import options, score_sets

    args = options(__doc__.split("\n")[0], "boundaries_words", argv, Path(__file__).parent)
    warnings.filterwarnings("ignore")
    results, seconds = score_sets(
        [spec for spec, _ in SETS],
        lambda spec, X, d: (X, list(d.units), list(d.labels)),
        score_document,
        args.limit,
        args.workers,
        chunksize=4,
    )

    def mean(spec, key, runs_only, col=0):
        vals = [r[key][col] for r in results[spec] if key in r and (r["runs"] or not runs_only)]
        return float(np.mean(vals)) if vals else float("nan"), len(vals)

    table = []
    for spec, genre in SETS:
        for subset, runs_only in (("every document", False), ("cut into runs", True)):
            for at in ("k", "gold"):
                row = {"set": spec, "genre": genre, "documents": subset, "k": at}
                for weight in WEIGHTS:
                    row[f"{weight:g}"] = mean(spec, f"{at}/{weight:g}", runs_only)[0]
                    row[f"pk {weight:g}"] = mean(spec, f"{at}/{weight:g}", runs_only, 1)[0]
                row["n"] = mean(spec, f"{at}/0", runs_only)[1]
                table.append(row)

    # leave one genre out, at the default's k, every document's runs (Choi has almost no document cut into runs)
    def genre_score(genre, weight):
        specs = [s for s, g in SETS if g == genre]
        return float(np.mean([mean(s, f"k/{weight:g}", False)[0] for s in specs]))

    genres = sorted({g for _, g in SETS})
    logo = []
    for out_genre in genres:
        rest = [g for g in genres if g != out_genre]
        best = max(WEIGHTS, key=lambda wt: (np.mean([genre_score(g, wt) for g in rest]), -wt))
        logo.append(
            {
                "left out": out_genre,
                "weight": best,
                "before": genre_score(out_genre, 0.0),
                "after": genre_score(out_genre, best),
            }
        )

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    cmd = "python research/2026-11-24-words-boundaries/boundaries_words.py" + (
        "" if args.limit is None else f" --limit {args.limit}"
    )
    head = " | ".join(f"w = {w:g}" for w in WEIGHTS)
    lines = [
        "# The words' cost beside the embeddings': where the runs' boundaries go (issue 20)",
        "",
        f"Command: `{cmd}`. Machine: {machine}. {seconds:.0f} s. Development data only. ARI (Pk) of the runs; "
        "w = 0 is the embeddings alone. k: the default's own number of runs, or the gold number.",
        "",
        f"| set | documents | k | n | {head} |",
        "|---|---|---|---:|" + "---:|" * len(WEIGHTS),
    ]
    for r in table:
        cells = " | ".join(f"{r[f'{w:g}']:.3f} ({r[f'pk {w:g}']:.3f})" for w in WEIGHTS)
        lines.append(f"| {r['set']} | {r['documents']} | {r['k']} | {r['n']} | {cells} |")
    lines += [
        "",
        "Left out one genre at a time (the default's k, every document's runs; PEPs the mean of its two "
        "annotations): the weight the other two choose, and the genre left out before -> after.",
        "",
        "| left out | weight chosen | ARI before -> after |",
        "|---|---:|---|",
    ]
    for r in logo:
        lines.append(f"| {r['left out']} | {r['weight']:g} | {r['before']:.3f} -> {r['after']:.3f} |")
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(
        json.dumps(
            {
                "command": cmd,
                "machine": machine,
                "seconds": seconds,
                "table": table,
                "logo": logo,
                "documents": results,
            },
            indent=1,
        )
    )
    print("\n".join(lines))
    print(f"Wrote {out.with_suffix('.md')}, {out.with_suffix('.json')}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
