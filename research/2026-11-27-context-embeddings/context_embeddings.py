"""Context in the representation, measured (issue 38 item 2).

Each candidate embedding (MiniLM alone, MiniLM with neighbour windows, late chunking or a mix of neighbouring
embeddings, all-mpnet-base-v2) embeds the same fixed subsample of the three development sets (Choi set 1,
QMSum train, PEPs train; documents drawn by a seeded generator, the same for every candidate), each document
through ``Embedder.encode_documents`` (no window crosses documents) in a fresh cache so the embedding time is
real; then the library's runner (:func:`bpseg_bench.runner.segment`) segments every document with
the automatic default ``bpseg`` and with ``bpseg-contiguous-true-k`` (given the gold number of runs), and
:func:`bpseg_pgm.evaluation.metrics.evaluate_partial` scores ARI and Pk.

Separately, ``--speed`` times every candidate on one small fixed sample (uncached, rounds interleaved, best
round kept), so that the ratios to today's embedding time come from minutes apart on the shared machine.

    python research/2026-11-27-context-embeddings/context_embeddings.py run minilm minilm-window1 ...
    python research/2026-11-27-context-embeddings/context_embeddings.py speed
    python research/2026-11-27-context-embeddings/context_embeddings.py tokens
    python research/2026-11-27-context-embeddings/context_embeddings.py report

Per-candidate results go to ``--work`` (default /tmp/bpseg_context_embeddings), one JSON each, so a candidate
already run is not run again; ``report`` writes ``results/context_embeddings.{md,json}`` beside this script.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MPNET = Path("~/.cache/bpseg_models/all-mpnet-base-v2").expanduser()
SETS = {"choi-1": "Choi", "qmsum-train": "QMSum", "peps-train": "PEPs"}
METHODS = ("bpseg", "bpseg-contiguous-true-k")
BASELINE = "minilm"

#: name -> (Embedder keyword arguments, what it is)
CANDIDATES: dict[str, tuple[dict, str]] = {
    "minilm": ({}, "today: all-MiniLM-L6-v2, each unit alone"),
    "minilm-mix1": ({"context": "mix", "context_window": 1}, "MiniLM, mixed with its window's mean (w=1, a=0.5)"),
    "minilm-mix2": ({"context": "mix", "context_window": 2}, "MiniLM, mixed with its window's mean (w=2, a=0.5)"),
    "minilm-window1": ({"context": "window", "context_window": 1}, "MiniLM, neighbour window text (w=1)"),
    "minilm-window2": ({"context": "window", "context_window": 2}, "MiniLM, neighbour window text (w=2)"),
    "minilm-late1": ({"context": "late", "context_window": 1}, "MiniLM, late chunking (blocks, margins w=1)"),
    "minilm-late2": ({"context": "late", "context_window": 2}, "MiniLM, late chunking (blocks, margins w=2)"),
    "mpnet": ({"model": str(MPNET)}, "all-mpnet-base-v2 (local folder), each unit alone"),
}
#: candidates that only re-weight the plain MiniLM vectors: they read the baseline's cache (time: its time + theirs)
SHARES_BASELINE_CACHE = {"minilm-mix1", "minilm-mix2"}


def subsample(sizes: dict[str, int], seed: int) -> dict[str, list]:
    """``sizes[spec]`` documents of each development set, drawn without replacement by ``default_rng(seed)``
    (one generator per set), in their order in the set."""
    from bpseg_bench.bench_corpus import load_dataset

    out = {}
    for spec, n in sizes.items():
        docs = load_dataset(spec)
        rng = np.random.default_rng(seed)
        idx = sorted(rng.choice(len(docs), min(n, len(docs)), replace=False).tolist())
        out[spec] = [docs[i] for i in idx]
    return out


def make_embedder(name: str, cache_dir: Path):
    from bpseg_pgm.embeddings import Embedder

    kwargs, _ = CANDIDATES[name]
    return Embedder(cache_dir=cache_dir, show_progress=False, **kwargs)


def run_candidate(name: str, sets: dict[str, list], work: Path, seed: int, limit_scale: float = 1.0) -> dict:
    """Embed and segment every document of ``sets`` with candidate ``name``; the per-document scores."""
    from bpseg_bench.runner import segment
    from bpseg_pgm.evaluation.metrics import evaluate_partial

    cache = work / "cache" / (BASELINE if name in SHARES_BASELINE_CACHE else name)
    if name not in SHARES_BASELINE_CACHE and cache.exists():
        shutil.rmtree(cache)  # a fresh cache: the time is the embedding's
    embedder = make_embedder(name, cache)
    if limit_scale < 1.0:
        sets = {spec: docs[: max(1, round(len(docs) * limit_scale))] for spec, docs in sets.items()}
    records, timing = [], {}
    for spec, docs in sets.items():
        t0 = time.perf_counter()
        vectors = embedder.encode_documents([d.units for d in docs])
        seconds = time.perf_counter() - t0
        units = sum(len(d) for d in docs)
        timing[spec] = {"seconds": seconds, "units": units, "per_1000": 1000 * seconds / units}
        print(
            f"{name} {spec}: {len(docs)} docs, {units} units embedded in {seconds:.1f} s", file=sys.stderr, flush=True
        )
        t0 = time.perf_counter()
        for doc, X in zip(docs, vectors):
            for method in METHODS:
                labels, _ = segment(doc, X, method, seed)
                scores = evaluate_partial(doc.labels, labels)
                records.append(
                    {
                        "candidate": name,
                        "dataset": spec,
                        "doc": doc.doc_id,
                        "method": method,
                        "n_units": len(doc),
                        "ari": round(float(scores["ari"]), 5),
                        "pk": round(float(scores["pk"]), 5),
                    }
                )
        print(f"{name} {spec}: segmented in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return {"candidate": name, "model_id": embedder.model_id, "timing": timing, "records": records}


def speed(sets: dict[str, list], names: list[str], work: Path, per_set: int, rounds: int) -> dict:
    """Seconds per 1000 units of each candidate on one fixed sample (the first ``per_set`` units of the first
    documents of each set, whole documents), uncached, rounds interleaved; the best round of each."""
    sample = []
    for docs in sets.values():
        taken = []
        for d in docs:
            if sum(len(t) for t in taken) >= per_set:
                break
            taken.append(d.units)
        sample += taken
    units = sum(len(d) for d in sample)
    best = {n: float("inf") for n in names}
    for r in range(rounds):
        for name in names:
            cache = work / "speed-cache" / f"{name}-{r}"
            if cache.exists():
                shutil.rmtree(cache)
            embedder = make_embedder(name, cache)
            embedder.model  # loading is not embedding
            t0 = time.perf_counter()
            embedder.encode_documents(sample)
            seconds = time.perf_counter() - t0
            best[name] = min(best[name], seconds)
            print(f"speed {name} round {r}: {units} units in {seconds:.1f} s", file=sys.stderr, flush=True)
            shutil.rmtree(cache, ignore_errors=True)
    return {
        "units": units,
        "documents": len(sample),
        "rounds": rounds,
        "per_1000": {n: 1000 * best[n] / units for n in names},
    }


def tokens(sets: dict[str, list]) -> dict:
    """Tokens the model reads per unit, with context over without (a cost measure the machine's load cannot
    move): window texts, and late chunking's blocks, for w = 1 and 2, each text capped at ``max_seq_length``."""
    from bpseg_pgm.embeddings import Embedder
    from bpseg_pgm.embeddings import context as ctx

    out = {}
    for label, path in (("minilm", None), ("mpnet", str(MPNET))):
        e = Embedder(path, show_progress=False)
        special, cap = e.count_tokens([""])[0], e._max_seq_length()
        for spec, docs in sets.items():
            n = {"plain": 0, "window1": 0, "window2": 0, "late1": 0, "late2": 0, "blocks1": 0, "units": 0}
            for d in docs:
                t = [u.strip() for u in d.units]
                offsets = e._token_offsets(list(dict.fromkeys(t)))
                o = [offsets[u] for u in t]
                n["units"] += len(t)
                n["plain"] += sum(min(len(x) + special, cap) for x in o)
                for w in (1, 2):
                    texts = ctx.window_texts(t, o, w, cap - special)
                    blocks = ctx.plan_blocks(t, o, w, cap - special)
                    n[f"window{w}"] += sum(min(c, cap) for c in e.count_tokens(texts))
                    n[f"late{w}"] += sum(min(c, cap) for c in e.count_tokens([b.text for b in blocks]))
                    n["blocks1"] += len(blocks) if w == 1 else 0
            out[f"{label} {spec}"] = {
                **{k: round(n[k] / n["plain"], 2) for k in ("window1", "window2", "late1", "late2")},
                "units_per_late1_block": round(n["units"] / n["blocks1"], 1),
                "plain_tokens_per_unit": round(n["plain"] / n["units"], 1),
            }
    return out


# -- the report ---------------------------------------------------------------------------------------


def _table(results: dict, names: list[str]) -> dict:
    """candidate -> dataset -> method -> {"ari", "pk", "n"} means, and the paired differences to the baseline."""
    out: dict = {}
    base = {(r["dataset"], r["doc"], r["method"]): r for r in results[BASELINE]["records"]}
    for name in names:
        for spec in SETS:
            for method in METHODS:
                rows = [r for r in results[name]["records"] if r["dataset"] == spec and r["method"] == method]
                if not rows:
                    continue
                paired = [(r, base[(spec, r["doc"], method)]) for r in rows if (spec, r["doc"], method) in base]
                d_ari = np.array([r["ari"] - b["ari"] for r, b in paired])
                d_pk = np.array([r["pk"] - b["pk"] for r, b in paired])
                out.setdefault(name, {}).setdefault(spec, {})[method] = {
                    "n": len(rows),
                    "ari": float(np.mean([r["ari"] for r in rows])),
                    "pk": float(np.mean([r["pk"] for r in rows])),
                    "base_ari": float(np.mean([b["ari"] for _, b in paired])),
                    "base_pk": float(np.mean([b["pk"] for _, b in paired])),
                    "d_ari": float(d_ari.mean()),
                    "d_ari_se": float(d_ari.std(ddof=1) / np.sqrt(len(d_ari))) if len(d_ari) > 1 else float("nan"),
                    "d_pk": float(d_pk.mean()),
                    "better": int((d_ari > 1e-9).sum()),
                    "worse": int((d_ari < -1e-9).sum()),
                }
    return out


def _logo(table: dict, names: list[str], method: str) -> list[dict]:
    """Leave one genre out: the candidate with the best mean ARI gain over the other two genres (the baseline
    itself among them), and its gain on the genre left out."""
    rows = []
    for held in SETS:
        train = [s for s in SETS if s != held]
        scored = {
            n: float(np.mean([table[n][s][method]["d_ari"] for s in train]))
            for n in names
            if all(s in table[n] and method in table[n][s] for s in SETS)
        }
        chosen = max(scored, key=scored.get)
        cell = table[chosen][held][method]
        rows.append({"held_out": held, "chosen": chosen, "train_gain": scored[chosen], "held_out_gain": cell["d_ari"]})
    return rows


def report(work: Path, out: Path, sizes: dict, seed: int) -> None:
    results = {}
    for name in CANDIDATES:
        f = work / f"{name}.json"
        if f.exists():
            results[name] = json.loads(f.read_text())
    if BASELINE not in results:
        raise SystemExit("run the baseline first")
    names = list(results)
    table = _table(results, names)
    spd = json.loads((work / "speed.json").read_text()) if (work / "speed.json").exists() else None
    from bpseg_bench.report import machine_info

    lines = ["# Context in the representation: results", ""]
    lines.append(
        f"Machine: {machine_info()['cpu']}, {machine_info()['cores']} cores, shared with other jobs. Documents per set "
        f"(drawn by numpy default_rng({seed}), the same for every candidate): "
        + ", ".join(f"{spec} {n}" for spec, n in sizes.items())
        + ". Scores: mean over documents; Δ = paired mean difference to `minilm` on the same documents "
        "(± its standard error; +/− = documents better / worse on ARI)."
    )
    lines.append("")
    lines.append("Candidates:")
    for n in names:
        lines.append(f"- `{n}`: {CANDIDATES[n][1]}; cache key `{results[n]['model_id'][-60:]}`")
    for method in METHODS:
        lines += ["", f"## `{method}`", ""]
        lines.append(
            "| candidate | " + " | ".join(f"{SETS[s]} ARI | Δ ARI (+/−) | {SETS[s]} Pk | Δ Pk" for s in SETS) + " |"
        )
        lines.append("|---|" + "---:|" * (4 * len(SETS)))
        for n in names:
            cells = []
            for s in SETS:
                c = table[n].get(s, {}).get(method)
                if c is None:
                    cells += ["n/a"] * 4
                    continue
                sub = "" if c["n"] == sizes[s] else f" (n={c['n']}; today {c['base_ari']:.3f})"
                cells += [
                    f"{c['ari']:.3f}{sub}",
                    f"{c['d_ari']:+.3f} ± {c['d_ari_se']:.3f} ({c['better']}/{c['worse']})",
                    f"{c['pk']:.3f}",
                    f"{c['d_pk']:+.3f}",
                ]
            lines.append(f"| {n} | " + " | ".join(cells) + " |")
        lines += [
            "",
            f"Leave one genre out (`{method}`): chosen on the other two genres by mean Δ ARI, scored on the one left out.",
            "",
        ]
        lines.append("| held out | chosen on the others | its Δ ARI there | its Δ ARI on the held-out genre |")
        lines.append("|---|---|---:|---:|")
        for row in _logo(table, names, method):
            lines.append(
                f"| {SETS[row['held_out']]} | `{row['chosen']}` | {row['train_gain']:+.3f} | {row['held_out_gain']:+.3f} |"
            )
    lines += ["", "## Embedding time", ""]
    lines.append("Seconds per 1000 units, measured in the scoring runs (fresh cache; each set embedded in one call):")
    lines.append("")
    lines.append(
        "| candidate | "
        + " | ".join(SETS.values())
        + " | all | × today |"
        + (" speed sample | × today |" if spd else "")
    )
    lines.append("|---|" + "---:|" * (len(SETS) + 2 + (2 if spd else 0)))
    base_all = None
    for n in names:
        t = results[n]["timing"]
        total = sum(v["seconds"] for v in t.values()) / sum(v["units"] for v in t.values()) * 1000
        if n in SHARES_BASELINE_CACHE:  # it read the baseline's vectors: add their time
            bt = results[BASELINE]["timing"]
            total += sum(v["seconds"] for v in bt.values()) / sum(v["units"] for v in bt.values()) * 1000
        base_all = total if n == BASELINE else base_all
        row = f"| {n} | " + " | ".join(f"{t[s]['per_1000']:.1f}" if s in t else "n/a" for s in SETS)
        row += f" | {total:.1f} | {total / base_all:.1f} |" if base_all else f" | {total:.1f} | |"
        if spd:
            p = spd["per_1000"].get(n)
            row += f" {p:.1f} | {p / spd['per_1000'][BASELINE]:.1f} |" if p is not None else " n/a | |"
        lines.append(row)
    if spd:
        lines += ["", f"Speed sample: {spd['units']} units in {spd['documents']} whole documents (the first of each set's "
                      f"subsample), uncached, best of {spd['rounds']} interleaved rounds."]  # fmt: skip
    tok = json.loads((work / "tokens.json").read_text()) if (work / "tokens.json").exists() else None
    if tok:
        lines += ["", "Tokens the model reads, with context over without (load-independent; whole subsample):", ""]
        lines.append(
            "| model, set | plain tokens/unit | window w=1 | window w=2 | late w=1 | late w=2 | units per late block |"
        )
        lines.append("|---|---:|---:|---:|---:|---:|---:|")
        for key, v in tok.items():
            lines.append(
                f"| {key} | {v['plain_tokens_per_unit']} | {v['window1']}× | {v['window2']}× | {v['late1']}× | "
                f"{v['late2']}× | {v['units_per_late1_block']} |"
            )
    lines.append("")
    out.mkdir(parents=True, exist_ok=True)
    (out / "context_embeddings.md").write_text("\n".join(lines))
    summary = {
        "seed": seed,
        "sizes": sizes,
        "table": table,
        "logo": {m: _logo(table, names, m) for m in METHODS},
        "timing": {n: results[n]["timing"] for n in names},
        "speed": spd,
        "tokens": tok,
        "model_ids": {n: results[n]["model_id"] for n in names},
        "records": [
            [r["candidate"], r["dataset"], r["doc"], r["method"], r["ari"], r["pk"]]
            for n in names
            for r in results[n]["records"]
        ],
        "records_columns": ["candidate", "dataset", "doc", "method", "ari", "pk"],
    }
    (out / "context_embeddings.json").write_text(json.dumps(summary, separators=(",", ":")))
    print((out / "context_embeddings.md").read_text())


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("action", choices=("run", "speed", "tokens", "report"))
    p.add_argument("candidates", nargs="*", help=f"of {', '.join(CANDIDATES)} (run, speed; default all)")
    p.add_argument("--choi", type=int, default=40)
    p.add_argument("--qmsum", type=int, default=15)
    p.add_argument("--peps", type=int, default=40)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--scale", type=float, default=1.0, help="run: keep this fraction of each set's subsample")
    p.add_argument("--speed-units", type=int, default=200, help="speed: about this many units per set")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--work", type=Path, default=Path("/tmp/bpseg_context_embeddings"))
    p.add_argument("--out", type=Path, default=HERE / "results")
    a = p.parse_args(argv)
    unknown = [c for c in a.candidates if c not in CANDIDATES]
    if unknown:
        p.error(f"unknown candidates {unknown}")
    names = a.candidates or list(CANDIDATES)
    sizes = {"choi-1": a.choi, "qmsum-train": a.qmsum, "peps-train": a.peps}
    a.work.mkdir(parents=True, exist_ok=True)
    if a.action == "report":
        report(a.work, a.out, sizes, a.seed)
        return
    sets = subsample(sizes, a.seed)
    if a.action == "tokens":
        result = tokens(sets)
        (a.work / "tokens.json").write_text(json.dumps(result, indent=1))
        print(json.dumps(result, indent=1))
        return
    if a.action == "speed":
        result = speed(sets, names, a.work, a.speed_units, a.rounds)
        (a.work / "speed.json").write_text(json.dumps(result, indent=1))
        print(json.dumps(result, indent=1))
        return
    for name in names:
        f = a.work / f"{name}.json"
        if f.exists():
            print(f"{name}: done before ({f})", file=sys.stderr)
            continue
        f.write_text(json.dumps(run_candidate(name, sets, a.work, a.seed, a.scale)))


if __name__ == "__main__":
    main()
