"""What a potential given by name does on the default path (structure="auto"), against the default potentials.

Segments the first documents of the development sets (Choi set 1: 20, QMSum train: 10, PEPs train: 10) with
``BPSeg(potentials=NAME, random_state=0)`` on word-weighted units (the ``bpseg`` method's setup) and writes the mean
ARI, Pk and WindowDiff (on the labelled units) and the structures chosen, per set and potential, as JSON:

    python benchmarks/potentials_reach.py OUT.json

Run it on two checkouts to compare them.
"""

from __future__ import annotations

import json
import sys
import time
import warnings

import numpy as np

SETS = (("choi-1", 20), ("qmsum-train", 10), ("peps-train", 10))
POTENTIALS = ("centered", "paper")


def measure() -> dict:
    import bpseg_pgm
    from bpseg_bench.bench_corpus import load_dataset
    from bpseg_bench.runner import embed_documents
    from bpseg_pgm.estimator import BPSeg
    from bpseg_pgm.evaluation.metrics import evaluate
    from bpseg_pgm.features.units import Units
    from bpseg_pgm.text import Embedder

    embedder = Embedder(show_progress=False)
    out: dict = {"code": bpseg_pgm.__file__, "rows": {}}
    for name, limit in SETS:
        docs = load_dataset(name, limit=limit)
        vectors, _ = embed_documents(docs, embedder)
        for pot in POTENTIALS:
            scores, structures = [], []
            t0 = time.perf_counter()
            for doc, X in zip(docs, vectors):
                units = Units.from_sentences(doc.units, embeddings=X, words=True)
                model = BPSeg(potentials=pot, random_state=0).fit(units)
                labelled = np.array([label is not None for label in doc.labels])
                scores.append(evaluate(doc.gold, model.labels_[labelled]))
                structures.append(model.structure_)
            row = {key: float(np.nanmean([s[key] for s in scores])) for key in ("ari", "pk", "windowdiff")}
            row.update(n=len(docs), structures={s: structures.count(s) for s in sorted(set(structures))})
            row["seconds"] = round(time.perf_counter() - t0, 1)
            out["rows"][f"{name}/{pot}"] = row
            print(name, pot, row, flush=True)
    return out


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    with open(sys.argv[1], "w") as f:
        json.dump(measure(), f, indent=1)
