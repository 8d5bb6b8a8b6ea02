"""Build the BP-Seg model as a real pgmpy ``DiscreteMarkovNetwork``.

One variable per sentence (``s0`` .. ``s{n-1}``, states ``0..k-1`` = segment labels), one
unary ``DiscreteFactor`` per sentence and one pairwise ``DiscreteFactor`` per edge.
"""

from __future__ import annotations

import warnings

import numpy as np

from bpseg_pgm.utils.validation import check_embeddings, check_representatives, normalize_rows

from ..potentials import PaperPotentials, Potentials
from .neighbors import all_pairs, canonical_pairs


def variable_name(i: int) -> str:
    """The pgmpy variable name of sentence i."""
    return f"s{i}"


def representative_vectors(Xn: np.ndarray, representatives) -> np.ndarray:
    """Unit representative vectors from sentence indices (1-D) or given vectors (2-D)."""
    rep = np.asarray(representatives)
    if rep.ndim == 2:
        C = check_embeddings(rep, "representative vectors")
        if C.shape[1] != Xn.shape[1]:
            raise ValueError(f"representative vectors have dim {C.shape[1]}, embeddings have {Xn.shape[1]}")
        return normalize_rows(C)
    return Xn[check_representatives(rep, Xn.shape[0])]


def resolve_edges(Xn: np.ndarray, neighbors) -> np.ndarray:
    """None -> all pairs; a callable(X) -> pairs; else validated user pairs."""
    n = Xn.shape[0]
    if neighbors is None:
        return all_pairs(n)
    if callable(neighbors):
        neighbors = neighbors(Xn)
    return canonical_pairs(neighbors, n)


def build_markov_network(embeddings, representatives, potentials: Potentials | None = None, neighbors=None):
    """Return a pgmpy ``DiscreteMarkovNetwork`` for BP-Seg.

    ``representatives`` are k distinct sentence indices (or a (k, d) array of vectors);
    ``potentials`` defaults to the paper's (lam=0.12); ``neighbors`` is None (fully
    connected, as in the paper), an iterable of (i, j) pairs, or a callable(X) -> pairs.
    """
    Xn = normalize_rows(check_embeddings(embeddings))
    C = representative_vectors(Xn, representatives)
    pot = potentials if potentials is not None else PaperPotentials()
    n, k = Xn.shape[0], C.shape[0]
    edges = resolve_edges(Xn, neighbors)
    rows, cols = edges[:, 0], edges[:, 1]

    log_unary = np.asarray(pot.log_unary(Xn, C), dtype=np.float64)
    log_tables = np.asarray(pot.log_pairwise_table(Xn, rows, cols, k), dtype=np.float64)
    if log_unary.shape != (n, k) or log_tables.shape != (len(edges), k, k):
        raise ValueError("potentials returned arrays of the wrong shape")
    return network_from_log_potentials(log_unary, edges, log_tables)


#: A factor's log values are stored as they are (exp of them) while they lie within +-EXP_SAFE; a factor with a
#: value outside (exp overflows past about 709 and underflows to zero below about -745) is stored divided by
#: exp of its largest value, its finite values no more than EXP_SAFE below it (a ratio of e^700, about 1e304,
#: between two states of one factor is as good as infinite to BP, and a stored zero would rule a state out).
EXP_SAFE = 700.0


def _exp_scaled(log_values: np.ndarray) -> tuple[np.ndarray, float]:
    """exp of each factor's log values (factors on axis 0), scaled as :data:`EXP_SAFE` says where they must be;
    and the sum of the shifts (the log of the constant the product was divided by)."""
    flat = log_values.reshape(len(log_values), int(np.prod(log_values.shape[1:])))
    if not flat.size:
        return np.exp(log_values), 0.0
    finite = np.isfinite(flat)
    top = np.where(finite, flat, -np.inf).max(axis=1)
    low = np.where(finite, flat, np.inf).min(axis=1)
    scale = np.isfinite(top) & ((top > EXP_SAFE) | (low < -EXP_SAFE))
    if np.isposinf(flat).any() or not scale.any():  # +inf: refused by the caller; nothing to scale: as given
        with np.errstate(over="ignore"):
            return np.exp(log_values), 0.0
    shifted = flat.copy()
    shifted[scale] -= top[scale, None]
    shifted[scale] = np.where(finite[scale], np.maximum(shifted[scale], -EXP_SAFE), shifted[scale])
    return np.exp(shifted).reshape(log_values.shape), float(top[scale].sum())


def network_from_log_potentials(log_unary, edges, log_tables):
    """A pgmpy ``DiscreteMarkovNetwork`` from log potentials: (n, k) unaries, (m, 2) edges and
    (m, k, k) pairwise log tables (x_i on axis 1 for edge (i, j)); variables ``s0`` .. ``s{n-1}``.

    A factor is stored as exp of its log values; one with a value outside +-:data:`EXP_SAFE` (too large or too
    small for exp) is stored divided by exp of its largest value, which changes no marginal, its other states at
    most e^700 below it; the model's ``log_offset`` attribute is the log of everything so divided out (0.0 for
    ordinary potentials), which the Bethe estimates of log Z add back."""
    from bpseg_pgm.utils.pgmpy_loader import DiscreteMarkovNetwork

    log_unary = np.asarray(log_unary, dtype=np.float64)
    edges = np.asarray(edges, dtype=np.int64).reshape(-1, 2)
    n, k = log_unary.shape
    log_tables = np.asarray(log_tables, dtype=np.float64)
    if log_tables.shape != (len(edges), k, k):
        raise ValueError("pairwise tables have the wrong shape")
    unary, unary_offset = _exp_scaled(log_unary)
    tables, pairwise_offset = _exp_scaled(log_tables)
    if not (np.all(np.isfinite(unary)) and np.all(np.isfinite(tables))):
        raise ValueError("potentials overflowed: exp(log potential) is not finite")

    names = [variable_name(i) for i in range(n)]
    model = DiscreteMarkovNetwork()
    model.add_nodes_from(names)
    model.add_edges_from((names[i], names[j]) for i, j in edges)
    make = FactorMaker(k)
    factors = [make([names[i]], unary[i]) for i in range(n)]
    factors += [make([names[i], names[j]], t) for (i, j), t in zip(edges, tables)]
    model.add_factors(*factors)
    model.unary_log_offset = unary_offset
    model.log_offset = unary_offset + pairwise_offset
    return model


def replace_unary_factors(model, log_unary) -> None:
    """Give ``model`` (from :func:`network_from_log_potentials`, variables ``s0`` .. ``s{n-1}``) new unary factors
    ``exp(log_unary)`` (n, k), keeping its pairwise factors: a re-estimation round changes only the unaries, and
    rebuilding tens of thousands of pairwise factors each round would cost more than the inference."""
    log_unary = np.asarray(log_unary, dtype=np.float64)
    n, k = log_unary.shape
    unary, unary_offset = _exp_scaled(log_unary)
    if not np.all(np.isfinite(unary)):
        raise ValueError("potentials overflowed: exp(log potential) is not finite")
    names = [variable_name(i) for i in range(n)]
    pairwise = [f for f in model.factors if len(f.variables) > 1]
    if len(model.nodes()) != n or any(int(c) != k for f in pairwise[:1] for c in f.cardinality):
        raise ValueError(f"the network does not have {n} variables of {k} states s0 .. s{n - 1}")
    make = FactorMaker(k)
    model.factors = [make([names[i]], unary[i]) for i in range(n)] + pairwise
    previous = getattr(model, "unary_log_offset", 0.0)
    model.log_offset = getattr(model, "log_offset", 0.0) - previous + unary_offset
    model.unary_log_offset = unary_offset


class FactorMaker:
    """Makes ``DiscreteFactor``s over variables with states 0..k-1, fast.

    pgmpy's ``DiscreteFactor.__init__`` validates its input and builds two state-name dicts per variable, ~40 µs a
    factor. Our inputs are valid by construction, so this sets the same attributes ``__init__`` sets, sharing the
    read-only state maps between factors as pgmpy itself does. A test checks equality with ``__init__``.
    """

    def __init__(self, k: int):
        from bpseg_pgm.utils.pgmpy_loader import DiscreteFactor, config

        self._cls = DiscreteFactor
        self._dtype = config.get_dtype()
        self._numpy = config.BACKEND == "numpy"
        self._states = list(range(k))
        self._index = {i: i for i in range(k)}
        self._card = {1: np.array([k]), 2: np.array([k, k])}
        self.k = k

    def __call__(self, variables: list[str], values: np.ndarray):
        if not self._numpy:  # other backends: take pgmpy's own path
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return self._cls(variables, [self.k] * len(variables), values)
        f = self._cls.__new__(self._cls)
        f.variables = list(variables)
        f.cardinality = self._card[len(variables)].copy()
        f.values = np.array(values, dtype=self._dtype).reshape(tuple(f.cardinality))
        f.state_names = {v: self._states for v in variables}
        f.name_to_no = {v: self._index for v in variables}
        f.no_to_name = dict(f.name_to_no)
        return f
