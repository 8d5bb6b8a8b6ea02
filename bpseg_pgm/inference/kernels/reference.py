"""A hand-written reference solver: the paper's Algorithm 1 and eqs. (1)-(5), loop by loop.

Slow on purpose and sharing no code with the engines (plain Python and ``math``): it is how we know the fast
engines are right. The conventions it fixes, and the engines follow: messages start uniform (1/k); every message of
sweep t comes from the messages of sweep t-1; each message is normalised to sum 1; damping is geometric,
m = m_new^(1-d) * m_old^d, then normalised; the run stops when no log message changed by more than ``tol``, or after
``max_iter`` sweeps. It works in linear space, as the paper writes it, so a potential or normaliser that overflows
is a ``ValueError``, never NaN beliefs.
"""

from __future__ import annotations

import math


def _cosine(a, b):
    dot = 0.0
    na = 0.0
    nb = 0.0
    for x, y in zip(a, b):
        dot += x * y
        na += x * x
        nb += y * y
    return dot / (math.sqrt(na) * math.sqrt(nb))


def reference_potentials(embeddings, representatives, lam=0.12, sigma=None):
    """Eq. (1)-(2) by hand: ``unary[i][x]`` and ``pairwise(i, j, x_i, x_j)``.

    psi_i(x) = exp(cos(R_i, C_x)); psi_ij = 1 if x_i == x_j else
    exp(lam * decay_ij * (cos(R_i, R_j) - 1)), decay_ij = exp(-|i-j|^2 / sigma) or 1.
    """
    R = [list(map(float, row)) for row in embeddings]
    C = [R[c] for c in representatives]
    unary = [[math.exp(_cosine(R[i], C[x])) for x in range(len(C))] for i in range(len(R))]

    def pairwise(i, j, xi, xj):
        if xi == xj:
            return 1.0
        decay = 1.0 if sigma is None else math.exp(-((i - j) ** 2) / sigma)
        return math.exp(lam * decay * (_cosine(R[i], R[j]) - 1.0))

    return unary, pairwise


def reference_bp(unary, pairwise, neighbors=None, max_iter=100, tol=1e-6, damping=0.0):
    """Algorithm 1 with eq. (3)-(5). Returns (beliefs, labels, n_iter, converged).

    ``unary[i][x]`` = psi_i(x); ``pairwise(i, j, x_i, x_j)`` = psi_ij; ``neighbors`` is a list
    of (i, j) pairs (default: all pairs, the paper's fully connected graph).
    """
    n = len(unary)
    k = len(unary[0])
    for i, row in enumerate(unary):
        for x, value in enumerate(row):
            if not (math.isfinite(value) and value >= 0.0):
                raise ValueError(
                    f"reference solver: unary potential psi_{i}({x}) = {value!r} is not a finite number >= 0 "
                    "(exp of the log potential overflowed?); use a smaller lam or another engine"
                )
    nbrs = {i: [] for i in range(n)}
    if neighbors is None:
        neighbors = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for i, j in neighbors:
        if i != j and j not in nbrs[i]:
            nbrs[i].append(j)
            nbrs[j].append(i)

    # m[(i, j)][x_j]: message from i to j, initialised to 1/k.
    m = {}
    for i in range(n):
        for j in nbrs[i]:
            m[(i, j)] = [1.0 / k] * k

    n_iter = 0
    converged = False
    for t in range(1, max_iter + 1):
        new = {}
        for i in range(n):
            for j in nbrs[i]:
                msg = []
                for xj in range(k):
                    total = 0.0
                    for xi in range(k):
                        prod = 1.0
                        for q in nbrs[i]:
                            if q != j:
                                prod *= m[(q, i)][xi]
                        total += unary[i][xi] * pairwise(i, j, xi, xj) * prod
                    msg.append(total)
                z = sum(msg)
                if not math.isfinite(z):  # an infinite (or NaN) pairwise potential, or a sum past float range
                    raise ValueError(
                        f"reference solver: message {i}->{j} overflowed (normaliser {z!r}) in linear space; "
                        "the potentials are too large: use a smaller lam or another engine"
                    )
                if z == 0.0:
                    raise ValueError(
                        f"reference solver: message {i}->{j} underflowed to zero in linear space "
                        "(it transcribes eq. (3) without log-space guards); use a smaller lam or another engine"
                    )
                msg = [v / z for v in msg]
                if damping > 0:
                    msg = [v ** (1.0 - damping) * o**damping for v, o in zip(msg, m[(i, j)])]
                    z = sum(msg)
                    msg = [v / z for v in msg]
                new[(i, j)] = msg
        change = 0.0
        for key in new:
            for a, b in zip(new[key], m[key]):
                if a > 0 and b > 0:
                    change = max(change, abs(math.log(a) - math.log(b)))
                elif a != b:
                    change = math.inf
        m = new
        n_iter = t
        if change < tol:
            converged = True
            break

    beliefs = []
    for i in range(n):
        b = []
        for x in range(k):
            v = unary[i][x]
            for j in nbrs[i]:
                v *= m[(j, i)][x]
            b.append(v)
        z = sum(b)
        if not math.isfinite(z):
            raise ValueError(f"reference solver: the belief of sentence {i} overflowed in linear space")
        if z == 0.0:
            raise ValueError(f"reference solver: the belief of sentence {i} underflowed to zero in linear space")
        beliefs.append([v / z for v in b])
    labels = [max(range(k), key=lambda x, b=b: b[x]) for b in beliefs]
    return beliefs, labels, n_iter, converged
