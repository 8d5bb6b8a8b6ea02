"""Cells of 03_swapping_inference.ipynb (see _build.py)."""

CELLS = [
    ("md", r"""
# 3 · Swapping the inference engine

A graphical model separates *what* we believe (the factors, notebooks 01 and 02) from *how* we compute
with it (the inference algorithm). Here the model stays fixed: the illustrative example, $k = 3$
representatives, the paper's potentials with $\lambda = 0.12$. We run every engine the project offers on
it, side by side:

| engine | computes | where |
|---|---|---|
| loopy sum-product | approximate marginals | `LoopyBeliefPropagation` (a pgmpy `Inference` class), `BPSeg(engine="loopy")` |
| Potts kernel | the same messages, using the Potts shape of the factors: $O(k)$ per message instead of $O(k^2)$, no factor objects | `kernels.potts.potts_bp`, `BPSeg(engine="potts")` (the default) |
| Fast BP-Seg | the appendix's Algorithm 2: additive scores after $T$ sweeps, with its own potentials | `kernels.fast_bp_seg.fast_bp_seg`, `BPSeg(engine="appendix")` (alias `"fast"`) |
| exact sum-product | exact marginals by the junction tree | pgmpy `BeliefPropagation.query`, `BPSeg(engine="exact")` |
| exact max-product | the single most probable labelling (MAP) | pgmpy `BeliefPropagation.map_query` |
| MPLP | the MAP, by message passing on a linear-programming relaxation | pgmpy `Mplp` |
| reference | Algorithm 1 written loop by loop in pure Python, the yardstick for the fast engines | `kernels.reference.reference_bp`, `BPSeg(engine="reference")` |

Then we look at how good loopy BP is as the coupling grows, and at where exact inference stops being
possible as $n$ and $k$ grow.
"""),
    ("code", r"""
import os
import time
import warnings
from importlib.resources import files

warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy\.")  # pgmpy's import-time notices
warnings.filterwarnings("ignore", message="IProgress not found")  # tqdm without ipywidgets

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from pgmpy.factors.discrete import DiscreteFactor
from pgmpy.inference import BeliefPropagation, Mplp
from pgmpy.models import DiscreteMarkovNetwork

from bpseg_pgm import BPSeg, LoopyBeliefPropagation, build_markov_network
from bpseg_pgm.graph import all_pairs, variable_name
from bpseg_pgm.inference.kernels.exact import MAX_CLIQUE_ENTRIES, exact_marginals
from bpseg_pgm.potentials import PaperPotentials
from bpseg_pgm.topics.representatives import choose_representatives
from bpseg_pgm.text import Embedder, split_lines

np.set_printoptions(precision=3, suppress=True, linewidth=120)
pd.set_option("display.precision", 3)

sentences = split_lines(files("bpseg_pgm").joinpath("data/illustrative_example.txt").read_text("utf-8"))
n = len(sentences)
X = Embedder().encode(sentences).astype(np.float64)

k, lam = 3, 0.12
reps = choose_representatives(X, k, init="farthest")
pot = PaperPotentials(lam=lam)
model = build_markov_network(X, reps, pot)
names = [variable_name(i) for i in range(n)]
print(f"{n} sentences, k = {k}, representatives {reps}, {model.number_of_edges()} edges, "
      f"{len(model.get_factors())} factors")
"""),
    ("md", r"""
## 1. Every engine on the same model

Each engine below is a function of the embeddings that returns beliefs (or `None` where the engine has
none), labels and a number of sweeps. All share the same representatives (`init=reps`), so label 0
means the same thing everywhere. Times include building whatever the engine needs (the pgmpy network
for the pgmpy engines); the fast engines are timed as the best of 5 runs.

One detail for MPLP. pgmpy's `Mplp` follows Sontag et al. (2008): it maximises the **sum** of the factor
values, $\sum_f \theta_f(x_f)$, i.e. it reads factor values as *log*-potentials. Our network stores
potentials $\psi_f = e^{\theta_f}$, the convention of pgmpy's `BeliefPropagation`, whose MAP maximises the
*product*. So MPLP gets a copy of the network with $\theta_f = \log\psi_f$. Each factor is also shifted to
be non-negative (subtracting a constant from a factor changes no arg-max): pgmpy's `Mplp` only records a
labelling whose objective beats 0, and returns an empty answer when every labelling scores below that.
"""),
    ("code", r"""
def log_space_copy(model):
    # the same network with factor values theta = log(psi) - min(log(psi)) >= 0, as pgmpy's Mplp expects
    out = DiscreteMarkovNetwork()
    out.add_nodes_from(model.nodes())
    out.add_edges_from(model.edges())
    for f in model.get_factors():
        theta = np.log(f.values)
        out.add_factors(DiscreteFactor(f.scope(), f.cardinality, theta - theta.min()))
    return out


def as_array(assignment):
    return np.array([int(assignment[v]) for v in names])


def bpseg(engine, **params):
    # the paper's model (BPSeg's default is a centred Potts model); engine "appendix" has its own potentials
    def run():
        est = BPSeg(structure="topics", n_segments=k, init=reps, engine=engine, potentials="paper", lam=lam, **params).fit(X)
        return est.beliefs_, est.labels_, est.n_iter_
    return run


def pgmpy_exact():
    q = BeliefPropagation(build_markov_network(X, reps, pot)).query(names, joint=False, show_progress=False)
    b = np.array([q[v].values for v in names])
    return b, b.argmax(axis=1), None


def pgmpy_map():
    a = BeliefPropagation(build_markov_network(X, reps, pot)).map_query(names, show_progress=False)
    return None, as_array(a), None


def mplp():
    a = Mplp(log_space_copy(build_markov_network(X, reps, pot))).map_query()
    return None, as_array(a), None


def mplp_on_potentials():  # the pitfall: Mplp on the network as built maximises sum(psi), not prod(psi)
    a = Mplp(build_markov_network(X, reps, pot)).map_query()
    return None, as_array(a), None


engines = {
    "loopy sum-product": ("marginals (approx.)", bpseg("loopy")),
    "Potts kernel": ("marginals (approx.)", bpseg("potts")),
    "Fast BP-Seg (T = 5)": ("softmax of scores", bpseg("appendix")),
    "reference (pure Python)": ("marginals (approx.)", bpseg("reference")),
    "pgmpy BeliefPropagation": ("exact marginals", pgmpy_exact),
    "pgmpy BP map_query": ("exact MAP", pgmpy_map),
    "pgmpy Mplp (log factors)": ("MAP (LP relaxation)", mplp),
    "pgmpy Mplp (raw factors)": ("max of sum(psi): not the MAP", mplp_on_potentials),
}
FAST = {"loopy sum-product", "Potts kernel", "Fast BP-Seg (T = 5)"}

out = {}
for name, (what, fn) in engines.items():
    best = np.inf
    for _ in range(5 if name in FAST else 1):
        t0 = time.perf_counter()
        beliefs, labels, sweeps = fn()
        best = min(best, time.perf_counter() - t0)
    out[name] = dict(what=what, beliefs=beliefs, labels=np.asarray(labels), sweeps=sweeps, seconds=best)
print("done")
"""),
    ("code", r"""
rows, cols = all_pairs(n).T
log_unary = pot.log_unary(X, X[reps])
log_w = pot.log_coupling(X, rows, cols)


def log_score(labels):
    # log of the unnormalised probability prod psi_i * prod psi_ij of one labelling
    return log_unary[np.arange(n), labels].sum() + log_w[labels[rows] != labels[cols]].sum()


exact_b = out["pgmpy BeliefPropagation"]["beliefs"]
table = pd.DataFrame({
    "computes": [r["what"] for r in out.values()],
    "labels": ["".join(map(str, r["labels"])) for r in out.values()],
    "segments": [len(set(r["labels"].tolist())) for r in out.values()],
    "log p~(labels)": [log_score(r["labels"]) for r in out.values()],
    "max |b - exact|": [np.nan if r["beliefs"] is None else np.abs(r["beliefs"] - exact_b).max() for r in out.values()],
    "sweeps": [r["sweeps"] for r in out.values()],
    "time (ms)": [1e3 * r["seconds"] for r in out.values()],
}, index=list(out))
table
"""),
    ("code", r"""
with_beliefs = [name for name, r in out.items() if r["beliefs"] is not None]
fig, axes = plt.subplots(1, len(with_beliefs), figsize=(3.1 * len(with_beliefs), 4.6), sharey=True)
for ax, name in zip(axes, with_beliefs):
    ax.imshow(out[name]["beliefs"], cmap="Blues", vmin=0, vmax=0.7, aspect="auto")
    ax.set(title=name, xlabel="label", xticks=range(k))
axes[0].set(ylabel="sentence", yticks=range(n), yticklabels=[f"{i} {s[:18]}" for i, s in enumerate(sentences)])
fig.suptitle("Beliefs b_i(x) per engine (same colour scale)")
fig.tight_layout()
plt.show()
b = {name: out[name]["beliefs"] for name in ("loopy sum-product", "Potts kernel", "reference (pure Python)")}
print(f"max |loopy - Potts| = {np.abs(b['loopy sum-product'] - b['Potts kernel']).max():.1e}, "
      f"max |loopy - reference| = {np.abs(b['loopy sum-product'] - b['reference (pure Python)']).max():.1e}")
"""),
    ("md", r"""
What the table shows:

* **Loopy sum-product, the Potts kernel and the reference solver** compute the same fixed point (same
  sweeps, beliefs equal to machine precision between them) and sit within a few thousandths of the exact
  marginals. The Potts kernel and the pgmpy-based loopy engine differ only in speed.
* **Fast BP-Seg** is a different algorithm with different potentials (additive messages,
  $\psi_{ij} = \lambda\,\mathrm{sim}$, stopped after $T$ sweeps): its softmax scores are not marginals
  and need not agree with them, even where its labels do.
* **The MAP** (one labelling, the most probable) is *everything in one segment*, and MPLP, fed log
  factors, finds the same labelling as the exact max-product. Fed the raw potentials it maximises
  $\sum \psi$ instead, and returns a labelling with a lower probability (compare `log p~`).

## 2. MAP versus marginals

Why does the most probable labelling put every sentence in one segment, while the marginals give three?
When all labels agree, every pairwise factor equals 1, its maximum, and that outweighs the few units of
unary preference a sentence can lose. But this single labelling is one of $3^{13}$; the marginal of a
sentence sums over *all* labellings, and the many labellings in which, say, the tennis sentences differ
from the rest together carry more probability for "tennis sentence 4 has label 0" than the one
all-agreeing labelling does. Taking each sentence's most probable label under its marginal (the
*maximum posterior marginal*) is what BP-Seg does, and why it uses sum-product rather than max-product.
"""),
    ("code", r"""
mpm = out["pgmpy BeliefPropagation"]["labels"]
MAP = out["pgmpy BP map_query"]["labels"]
print("MAP labelling:         ", MAP, f" log p~ = {log_score(MAP):.3f}")
print("marginal arg-max (MPM):", mpm, f" log p~ = {log_score(mpm):.3f}")
print(f"the MAP is exp({log_score(MAP) - log_score(mpm):.2f}) = {np.exp(log_score(MAP) - log_score(mpm)):.1f} times "
      "as probable as the MPM labelling,")
print(f"yet the MPM labels carry marginal probabilities {exact_b[np.arange(n), mpm].round(2)}")
print(f"while the MAP labels carry                    {exact_b[np.arange(n), MAP].round(2)}")
"""),
    ("md", r"""
MPLP has one advantage over the junction tree: it never builds the $k^n$ table. Its cost grows with the
number of factors, and when its LP bound meets the value of the labelling it found (*integrality gap*
$\approx 0$) the labelling is certified to be the exact MAP. So MPLP answers the MAP question for
$k = 4, 5, 6$ on this example, where exact `BeliefPropagation` is out of reach (next section).
"""),
    ("code", r"""
for kk in (4, 5, 6):
    model_k = log_space_copy(build_markov_network(X, choose_representatives(X, kk, init="farthest"), pot))
    t0 = time.perf_counter()
    solver = Mplp(model_k)
    a = solver.map_query()
    print(f"k = {kk}: MAP {as_array(a)}, integrality gap {solver.integrality_gap:.1e}, "
          f"{time.perf_counter() - t0:.2f} s (a junction-tree table would hold {kk}^{n} = {kk ** n:.2e} entries)")
"""),
    ("md", r"""
## 3. How good is loopy BP?

Loopy BP is exact on trees; on graphs with cycles, messages travel around loops and evidence gets
counted more than once. With weak pairwise factors this hardly matters; as $\lambda$ grows the
approximation degrades. With $k = 2$ the exact clique table has only $2^{13} = 8{,}192$ entries, so we
can compare loopy and exact marginals over a whole range of $\lambda$.
"""),
    ("code", r"""
lams = np.logspace(-2, 1, 16)
reps2 = choose_representatives(X, 2, init="farthest")
err, disagree = [], []
for lam_ in lams:
    model2 = build_markov_network(X, reps2, PaperPotentials(lam=lam_))
    p_exact = exact_marginals(model2)  # pgmpy BeliefPropagation, rows in model.nodes() order (s0..s12)
    b_loopy = np.array([f.values for f in LoopyBeliefPropagation(model2, max_iter=500).query(names).values()])
    err.append(np.abs(p_exact - b_loopy).max())
    disagree.append(int((p_exact.argmax(1) != b_loopy.argmax(1)).sum()))

fig, axes = plt.subplots(1, 2, figsize=(12, 4))
axes[0].loglog(lams, err, marker="o")
axes[0].axvline(0.12, color="k", ls=":", label="paper: lambda = 0.12")
axes[0].set(xlabel="lambda", ylabel="max |loopy - exact|", title="Error of loopy BP marginals (k = 2)")
axes[0].legend()
axes[1].semilogx(lams, disagree, marker="o")
axes[1].set(xlabel="lambda", ylabel="sentences", title="Sentences whose arg-max label differs", ylim=(-0.5, n))
fig.tight_layout()
plt.show()
print(pd.DataFrame({"lambda": lams, "max error": err, "labels differing": disagree}).to_string(index=False))
print(f"at lambda = {lams[-1]:g}: exact p(x_0 = 1) = {p_exact[0, 1]:.3f}, loopy b_0(1) = {b_loopy[0, 1]:.3f}")
"""),
    ("md", r"""
At the paper's $\lambda$ the error is a few thousandths. At large $\lambda$ loopy BP becomes
*overconfident*: the exact marginals stay uncertain between the "all label 0" and "all label 1"
modes, while loopy BP commits to one of them. The arg-max labels nonetheless agree almost everywhere:
only around the collapse point, where a sentence's marginal crosses 1/2, can loopy BP's error flip a
label. Far from it, the error shows in the confidence rather than in the segmentation.

## 4. Where exact inference stops

pgmpy's `BeliefPropagation` works on a junction tree, whose largest clique table has $k^{w+1}$ entries
for a graph of treewidth $w$. BP-Seg's graph is complete, its treewidth is $n - 1$, and the single
clique holds all $n$ sentences: $k^n$ entries. pgmpy keeps several tables of that size at once (we
measured 3 GB for $n = 13$, $k = 4$, i.e. about 45 bytes per entry, and 28 s). The library's exact engine
refuses anything above `MAX_CLIQUE_ENTRIES`.
"""),
    ("code", r"""
try:
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
except (ValueError, OSError, AttributeError):  # not Linux
    ram = 16 * 2**30
BYTES_PER_ENTRY = 3e9 / 4**13  # measured: n = 13, k = 4 peaked at 3 GB

ns = np.arange(2, 31)
fig, ax = plt.subplots(figsize=(9, 5))
for kk in (2, 3, 4, 5):
    ax.semilogy(ns, float(kk) ** ns, label=f"k = {kk}")
ax.axhline(MAX_CLIQUE_ENTRIES, color="k", ls=":", label=f"library guard ({MAX_CLIQUE_ENTRIES:.0e} entries)")
ax.axhline(ram / BYTES_PER_ENTRY, color="crimson", ls="--",
           label=f"memory of this machine ({ram / 2**30:.0f} GiB at ~{BYTES_PER_ENTRY:.0f} B/entry)")
ax.axhline(ram / 8, color="crimson", ls=":", label="a single float64 table fills memory")
ax.axvline(n, color="0.6", lw=1)
ax.text(n + 0.3, 1e1, "illustrative\nexample", color="0.4", fontsize=9)
ax.plot([13], [4.0**13], "kx", ms=10, mew=2)
ax.annotate("n = 13, k = 4: 28 s, 3 GB\n(measured, not run here)", (13, 4.0**13), (3, 1e12),
            arrowprops=dict(arrowstyle="->"), fontsize=9)
ax.set(xlabel="n (sentences)", ylabel="entries of the clique table, k^n",
       title="Exact inference on a complete graph: one clique of all n sentences")
ax.legend(fontsize=8, loc="upper left")
plt.show()
for kk in (2, 3, 4, 5):
    print(f"k = {kk}: largest n under the guard {int(np.log(MAX_CLIQUE_ENTRIES) / np.log(kk))}, "
          f"under this machine's memory ~{int(np.log(ram / BYTES_PER_ENTRY) / np.log(kk))}")
"""),
    ("md", r"""
A Choi document (about 40 sentences) with $k = 2$ would need $2^{40} \approx 10^{12}$ entries; with the
paper's $k = n$ the number has 65 digits. We time exact BP only on sizes that are safe: the first $n$
sentences of the example, $n \le 12$, for $k = 2$ and $3$ (and $k = 4$ up to $n = 9$, 262,144 entries),
next to loopy BP on the same models.
"""),
    ("code", r"""
def best_of(fn, repeat=3):
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


timings = []
for kk, n_max in ((2, 12), (3, 12), (4, 9)):
    for m in range(max(4, kk), n_max + 1):
        Xm = X[:m]
        model_m = build_markov_network(Xm, choose_representatives(Xm, kk, init="farthest"), pot)
        vars_m = [variable_name(i) for i in range(m)]
        t_exact = best_of(lambda: BeliefPropagation(model_m).query(vars_m, joint=False, show_progress=False))
        t_loopy = best_of(lambda: LoopyBeliefPropagation(model_m).run())
        timings.append({"k": kk, "n": m, "entries": kk**m, "exact (s)": t_exact, "loopy (s)": t_loopy})
timings = pd.DataFrame(timings)

fig, ax = plt.subplots(figsize=(9, 5))
for kk, g in timings.groupby("k"):
    ax.loglog(g["entries"], g["exact (s)"], "o-", label=f"exact, k = {kk}")
    ax.loglog(g["entries"], g["loopy (s)"], "x:", color=ax.lines[-1].get_color(), label=f"loopy, k = {kk}")
ax.loglog([4.0**13], [28.0], "kx", ms=10, mew=2, label="measured n = 13, k = 4 (28 s, not run here)")
ax.set(xlabel="entries of the clique table, k^n", ylabel="seconds",
       title="pgmpy BeliefPropagation (exact) vs loopy BP, first n sentences of the example")
ax.legend(fontsize=8)
plt.show()
timings.pivot(index="n", columns="k", values="exact (s)")
"""),
    ("md", r"""
For small tables the exact engine's time is fixed overhead; beyond about $10^5$ entries the table
dominates and the time climbs with it (each extra sentence multiplies the table by $k$), towards the
28 s measured at $4^{13}$. Loopy BP stays in the milliseconds throughout. The library does not let you walk into the wall by accident:
`BPSeg(engine="exact")` and `exact_marginals` check the table size first and refuse, without building
anything, when it is too large.
"""),
    ("code", r"""
try:
    BPSeg(n_segments=4, init="farthest", engine="exact").fit(X)
except ValueError as exc:
    print("BPSeg(engine='exact'), n = 13, k = 4 ->", exc)
"""),
    ("md", r"""
## 5. Loopy BP has no such wall

A sweep of loopy BP costs one message per ordered pair of neighbours: $O(n^2 k^2)$ on the complete graph
with general tables, $O(n^2 k)$ with the Potts kernel, and $O(n k)$ on a sparse graph (`neighbors=`,
notebook 02). Timing one sweep on synthetic embeddings (random unit vectors, $k = 10$):
"""),
    ("code", r"""
rng = np.random.default_rng(0)
scale = []
for m in (50, 100, 200, 400, 800):
    Xr = rng.standard_normal((m, X.shape[1]))
    for engine in ("potts", "loopy"):
        if engine == "loopy" and m > 200:  # the pgmpy network alone has m(m-1)/2 factor objects
            continue
        t0 = time.perf_counter()
        est = BPSeg(structure="topics", n_segments=10, init="farthest", engine=engine, potentials="paper", neighbors="all",
                    max_iter=20).fit(Xr)
        dt = time.perf_counter() - t0
        scale.append({"n": m, "engine": engine, "sweeps": est.n_iter_, "total (s)": dt, "per sweep (s)": dt / est.n_iter_})
scale = pd.DataFrame(scale)

fig, ax = plt.subplots(figsize=(7, 4.5))
for engine, g in scale.groupby("engine"):
    ax.loglog(g["n"], g["total (s)"], "o-", label=f'BPSeg(engine="{engine}")')
ns_ = np.array([50, 800])
ax.loglog(ns_, scale["total (s)"].iloc[0] * (ns_ / 50) ** 2, "k:", label="~ n^2")
ax.set(xlabel="n (sentences)", ylabel="seconds (build + all sweeps)", title="Loopy BP on the complete graph, k = 10")
ax.legend()
plt.show()
scale
"""),
    ("md", r"""
## Which engine when

* **`potts`** (default): real documents, thousands of sentences, with the paper's model or `BPSeg`'s
  default centred Potts model; Potts-shaped potentials only. Its sweeps update messages in place with
  loops compiled by numba; `bpseg_pgm.inference.kernels.potts.potts_bp(..., backend="numpy")` computes the same
  messages in plain NumPy (`kernels/flooding.py` and `kernels/potts/kernel.py`), the version to read first.
* **`loopy`**: any pairwise potentials (including full $k \times k$ tables), and a real pgmpy network you
  can inspect, query with evidence, or hand to other pgmpy tools.
* **`appendix`** (alias `fast`): the paper's Choi configuration (appendix Algorithm 2, "Fast BP-Seg"); a different model, not marginals.
* **`exact`** / pgmpy `BeliefPropagation`: ground truth for tiny inputs ($k^n$ up to about $10^6$), to
  check the approximations.
* **pgmpy `Mplp`**: the single most probable labelling, certified by the integrality gap, beyond the
  junction tree's reach; remember to give it log factors. For BP-Seg the MAP is usually not the
  segmentation you want (section 2).
* **`reference`**: slow on purpose; it is how the tests know the fast engines are right.
"""),
]
