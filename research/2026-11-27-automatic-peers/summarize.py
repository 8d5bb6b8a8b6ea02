"""Tables of the automatic-peers study from two ``bpseg bench corpus`` result files.

Usage: python summarize.py DEV_JSON HELDOUT_JSON OUT_DIR

Writes OUT_DIR/summary.json and OUT_DIR/summary.csv (mean ARI, Pk, WD, segments, seconds per
document, per set and method; for bpseg against each automatic peer, the mean paired difference
with a bootstrap interval and the documents where bpseg is better / tied / worse, on ARI and on
Pk) and prints the Markdown tables of the README.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np

GENRES = {
    "choi-1": "Choi (synthetic)", "interleaved": "interleaved Choi (returning topics)", "qmsum-train": "meetings",
    "peps-train": "PEPs (technical prose)", "choi-234": "Choi (synthetic)",
    "interleaved-234": "interleaved Choi (returning topics)", "qmsum-val": "meetings", "peps-val": "PEPs (technical prose)",
}  # fmt: skip
AUTOMATIC = ("bpseg", "kcpd-auto", "semantic-breakpoints")
PEERS = ("kcpd-auto", "semantic-breakpoints")


def rows(result: dict, split: str) -> list[dict]:
    out = []
    for ds, table in result["summary"].items():
        for method, cell in table.items():
            out.append({
                "split": split, "dataset": ds, "method": method, "n_docs": cell["n_docs"],
                "ari": cell["ari"]["mean"], "pk": cell["pk"]["mean"], "windowdiff": cell["windowdiff"]["mean"],
                "segments_found": cell["segments_found"]["mean"], "gold_segments": cell["gold_segments"]["mean"],
                "runs_per_segment": cell["runs_per_segment"]["mean"], "seconds_per_doc": cell["seconds_per_doc"],
            })  # fmt: skip
    return out


def paired(result: dict) -> dict:
    """dataset -> peer -> metric -> {"counts": [bpseg better, tied, worse] over documents, "diff": mean of
    bpseg minus the peer, "ci95": its 95% paired bootstrap interval over documents (2000 draws, seed 0)}."""
    by = {}
    for r in result["records"]:
        by.setdefault((r["dataset"], r["doc"]), {})[r["method"]] = r
    diffs: dict = {}
    for (ds, _), methods in by.items():
        for peer in PEERS:
            for key in ("ari", "pk"):
                diffs.setdefault((ds, peer, key), []).append(methods["bpseg"][key] - methods[peer][key])
    out: dict = {}
    rng = np.random.default_rng(0)
    for (ds, peer, key), values in diffs.items():
        d = np.asarray(values, dtype=float)
        sign = 1 if key == "ari" else -1  # Pk: lower is better
        draws = d[rng.integers(0, d.size, size=(2000, d.size))].mean(axis=1)
        out.setdefault(ds, {}).setdefault(peer, {})[key] = {
            "counts": [int((sign * d > 1e-12).sum()), int((np.abs(d) <= 1e-12).sum()), int((sign * d < -1e-12).sum())],
            "diff": float(d.mean()),
            "ci95": [float(np.quantile(draws, 0.025)), float(np.quantile(draws, 0.975))],
        }
    return out


def winners(table: list[dict]) -> dict:
    """The best of the automatic methods on ARI (highest) and Pk (lowest)."""
    auto = [r for r in table if r["method"] in AUTOMATIC]
    return {
        "ari": max(auto, key=lambda r: r["ari"])["method"],
        "pk": min(auto, key=lambda r: r["pk"])["method"],
        "bpseg_beats_both": all(
            next(r for r in auto if r["method"] == "bpseg")[k] * s > r[k] * s
            for r in auto
            if r["method"] != "bpseg"
            for k, s in (("ari", 1), ("pk", -1))
        ),
    }


def markdown(result: dict, split: str) -> str:
    lines = []
    pairs = paired(result)
    for ds in result["summary"]:
        table = [r for r in rows(result, split) if r["dataset"] == ds]
        first = table[0]
        w = winners(table)
        lines += [
            f"### {ds} ({GENRES.get(ds, ds)}): {first['n_docs']} documents, {first['gold_segments']:.1f} gold segments each",
            "",
            "| method | ARI | Pk | WD | segments | runs / gold run | s/doc |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for r in table:
            lines.append(
                f"| {r['method']} | {r['ari']:.3f} | {r['pk']:.3f} | {r['windowdiff']:.3f} | {r['segments_found']:.1f} "
                f"| {r['runs_per_segment']:.2f} | {r['seconds_per_doc']:.3f} |"
            )
        lines.append("")
        lines.append(
            f"Best automatic method: ARI **{w['ari']}**, Pk **{w['pk']}**; bpseg beats both peers on both: "
            f"**{'yes' if w['bpseg_beats_both'] else 'no'}**."
        )
        lines += [
            "",
            "| bpseg minus | ARI (95% CI) | docs better / tied / worse | Pk (95% CI) | docs better / tied / worse |",
            "|---|---:|---:|---:|---:|",
        ]
        for peer in PEERS:
            cells = []
            for key in ("ari", "pk"):
                c = pairs[ds][peer][key]
                cells.append(f"{c['diff']:+.3f} ({c['ci95'][0]:+.3f}, {c['ci95'][1]:+.3f})")
                cells.append("/".join(map(str, c["counts"])))
            lines.append(f"| {peer} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main(dev_path: str, heldout_path: str, out_dir: str) -> None:
    out = Path(out_dir)
    dev, held = (json.loads(Path(p).read_text()) for p in (dev_path, heldout_path))
    table = rows(dev, "development") + rows(held, "held-out")
    summary = {
        "machine": dev["machine"],
        "seconds": {"development": dev["seconds"], "held-out": held["seconds"]},
        "methods": dev["config"]["methods"],
        "table": table,
        "paired": {"development": paired(dev), "held-out": paired(held)},
        "winners": {
            split: {
                ds: winners([r for r in table if r["split"] == split and r["dataset"] == ds]) for ds in res["summary"]
            }
            for split, res in (("development", dev), ("held-out", held))
        },
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    with open(out / "summary.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    print("## Development sets\n")
    print(markdown(dev, "development"))
    print("## Held-out sets\n")
    print(markdown(held, "held-out"))


if __name__ == "__main__":
    main(*sys.argv[1:4])
