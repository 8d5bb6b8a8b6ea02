"""Exact chain BP (forward-backward) against brute-force enumeration of every labelling."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from bpseg_pgm.runs.chain import ChainResult, chain_potts_bp, run_chain_bp


def _logsumexp(values):
    values = list(values)
    mx = max(values)
    if mx == -math.inf:
        return -math.inf
    return mx + math.log(sum(math.exp(v - mx) for v in values))


def _link_weights(log_w, n):
    return np.broadcast_to(np.asarray(log_w, dtype=np.float64), (n - 1,))


def _potts_score(x, log_unary, log_w):
    s = sum(log_unary[i, xi] for i, xi in enumerate(x))
    return s + sum(log_w[i] for i in range(len(x) - 1) if x[i] != x[i + 1])


def _contiguous_labellings(n, k):
    """Every label sequence starting at 0 that stays or moves one segment on, below k."""
    for steps in itertools.product((0, 1), repeat=n - 1):
        x = np.concatenate([[0], np.cumsum(steps)]).astype(int)
        if x[-1] < k:
            yield tuple(x)


def _contiguous_score(x, log_unary, log_w):
    s = sum(log_unary[i, xi] for i, xi in enumerate(x))
    return s + sum(log_w[i] for i in range(len(x) - 1) if x[i + 1] == x[i] + 1)


def brute_force(log_unary, log_w, contiguous):
    """Exact marginals (n, k) and log Z by enumerating the labellings the model allows."""
    log_unary = np.asarray(log_unary, dtype=np.float64)
    n, k = log_unary.shape
    lw = _link_weights(log_w, n)
    if contiguous:
        labellings = list(_contiguous_labellings(n, k))
        scores = [_contiguous_score(x, log_unary, lw) for x in labellings]
    else:
        labellings = list(itertools.product(range(k), repeat=n))
        scores = [_potts_score(x, log_unary, lw) for x in labellings]
    log_z = _logsumexp(scores)
    marg = np.zeros((n, k))
    for x, s in zip(labellings, scores):
        p = math.exp(s - log_z)
        for i, xi in enumerate(x):
            marg[i, xi] += p
    return marg, log_z


def _problems():
    """Small random problems: (n, k, log_unary scale, log_w form)."""
    rng = np.random.default_rng(12345)
    cases = []
    for n in range(1, 8):
        for k in range(1, 5):
            scale = float(rng.choice([0.3, 2.0, 6.0]))
            unary = rng.normal(scale=scale, size=(n, k))
            cases.append((unary, float(rng.normal(scale=2.0))))  # scalar log_w
            cases.append((unary, rng.normal(scale=3.0, size=max(n - 1, 0))))  # one per link
    for lw in (-50.0, 20.0, -8.0, 5.0):  # strongly attractive / repulsive couplings
        cases.append((rng.normal(size=(5, 3)), lw))
    cases.append((rng.normal(size=(6, 2)), np.array([-50.0, 20.0, 0.0, -50.0, 20.0])))
    cases.append((rng.normal(scale=30.0, size=(4, 4)), np.array([20.0, -50.0, 3.0])))
    return cases


PROBLEMS = _problems()


def _check_result(res, marg, log_z):
    assert isinstance(res, ChainResult)
    assert res.beliefs.shape == marg.shape
    assert np.all(np.isfinite(res.beliefs))
    np.testing.assert_allclose(res.beliefs.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(res.beliefs, marg, atol=1e-9)
    assert res.log_partition == pytest.approx(log_z, rel=1e-10, abs=1e-9)
    assert res.converged and res.n_iter == 1


@pytest.mark.parametrize("case", range(len(PROBLEMS)))
def test_potts_chain_matches_brute_force(case):
    unary, lw = PROBLEMS[case]
    marg, log_z = brute_force(unary, lw, contiguous=False)
    res = chain_potts_bp(unary, lw)
    _check_result(res, marg, log_z)
    assert res.log_messages.shape == unary.shape


@pytest.mark.parametrize("case", range(len(PROBLEMS)))
def test_contiguous_chain_matches_brute_force(case):
    unary, lw = PROBLEMS[case]
    marg, log_z = brute_force(unary, lw, contiguous=True)
    res = run_chain_bp(unary, lw)
    _check_result(res, marg, log_z)


def test_contiguous_constraints_hold_in_the_beliefs():
    rng = np.random.default_rng(3)
    n, k = 7, 4
    res = run_chain_bp(rng.normal(size=(n, k)), 0.5)
    assert res.beliefs[0, 0] == pytest.approx(1.0)  # the first unit opens segment 0
    for i in range(n):  # unit i can be at most in segment i
        assert np.all(res.beliefs[i, i + 1 :] == 0.0)
    # the segment index never decreases: P(x_i <= j) is non-increasing along the chain
    cdf = np.cumsum(res.beliefs, axis=1)
    assert np.all(np.diff(cdf, axis=0) <= 1e-12)


def test_potts_limits_of_the_coupling():
    rng = np.random.default_rng(4)
    unary = rng.normal(size=(5, 3))
    # w -> 0: every unit shares one label; marginal of label x is prop. to prod_i exp(unary[i, x])
    res = chain_potts_bp(unary, -50.0)
    p = np.exp(unary.sum(axis=0) - unary.sum(axis=0).max())
    np.testing.assert_allclose(res.beliefs, np.tile(p / p.sum(), (5, 1)), atol=1e-9)
    # w = 1: the units are independent; the beliefs are the softmax of each unary row
    res = chain_potts_bp(unary, 0.0)
    soft = np.exp(unary) / np.exp(unary).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(res.beliefs, soft, atol=1e-12)
    assert res.log_partition == pytest.approx(float(np.log(np.exp(unary).sum(axis=1)).sum()))


def test_contiguous_with_one_segment_and_one_unit():
    unary = np.array([[0.5], [-1.0], [2.0]])
    res = run_chain_bp(unary, 3.0)
    np.testing.assert_array_equal(res.beliefs, np.ones((3, 1)))
    assert res.log_partition == pytest.approx(1.5)  # one labelling, no new segment
    res = run_chain_bp(np.array([[1.0, 7.0, -2.0]]), 0.0)  # a single unit lies in segment 0
    np.testing.assert_allclose(res.beliefs, [[1.0, 0.0, 0.0]])
    assert res.log_partition == pytest.approx(1.0)
    res = chain_potts_bp(np.array([[0.0, np.log(3.0)]]), [])
    np.testing.assert_allclose(res.beliefs, [[0.25, 0.75]])
    assert res.log_partition == pytest.approx(np.log(4.0))


# -- extreme inputs: beliefs stay finite, normalised and exact ----------------------------------


@pytest.mark.parametrize("log_w", [-800.0, -50.0, 20.0, 800.0])
@pytest.mark.parametrize("fn", [chain_potts_bp, run_chain_bp])
def test_extreme_couplings_give_finite_normalised_beliefs(fn, log_w):
    rng = np.random.default_rng(5)
    unary = rng.normal(scale=100.0, size=(6, 3))
    res = fn(unary, log_w)
    assert np.all(np.isfinite(res.beliefs)) and np.all(res.beliefs >= 0)
    np.testing.assert_allclose(res.beliefs.sum(axis=1), 1.0, atol=1e-12)
    assert math.isfinite(res.log_partition)
    marg, log_z = brute_force(unary, log_w, contiguous=fn is run_chain_bp)
    np.testing.assert_allclose(res.beliefs, marg, atol=1e-9)
    assert res.log_partition == pytest.approx(log_z, rel=1e-10)


def test_contiguous_when_the_only_path_has_a_tiny_probability():
    # every labelling has probability below e^-700 in linear scale: (0, 1, 1) scores -800,
    # (0, 0, 0) -1000; messages that underflow must not make a row NaN
    unary = np.array([[0.0, 0.0], [-1000.0, 0.0], [0.0, 0.0]])
    res = run_chain_bp(unary, -800.0)
    marg, log_z = brute_force(unary, -800.0, contiguous=True)
    np.testing.assert_allclose(res.beliefs, marg, atol=1e-12)
    assert res.log_partition == pytest.approx(log_z)
    np.testing.assert_allclose(res.beliefs, [[1, 0], [0, 1], [0, 1]], atol=1e-12)


def test_potts_ratios_below_1e300_are_not_floored():
    # unit 0 must be label 0 (label 1 costs 1000), unit 1 prefers label 1 by 750, changing
    # label costs 800: keeping label 0 (-750) beats switching (-800) by e^50
    unary = np.array([[0.0, -1000.0], [-750.0, 0.0]])
    res = chain_potts_bp(unary, -800.0)
    marg, log_z = brute_force(unary, -800.0, contiguous=False)
    np.testing.assert_allclose(res.beliefs, marg, atol=1e-12)
    assert res.beliefs[1, 0] == pytest.approx(1.0)
    assert res.log_partition == pytest.approx(log_z)


def test_long_chain_is_finite_and_fast():
    rng = np.random.default_rng(6)
    unary = rng.normal(scale=5.0, size=(3000, 8))
    for fn in (chain_potts_bp, run_chain_bp):
        res = fn(unary, rng.normal(scale=5.0, size=2999))
        assert np.all(np.isfinite(res.beliefs)) and math.isfinite(res.log_partition)
        np.testing.assert_allclose(res.beliefs.sum(axis=1), 1.0, atol=1e-12)


# -- input checks ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fn", [chain_potts_bp, run_chain_bp])
@pytest.mark.parametrize(
    "unary, log_w",
    [
        (np.zeros(4), 0.0),  # 1-D
        (np.zeros((0, 3)), 0.0),  # no unit
        (np.zeros((3, 0)), 0.0),  # no label
        (np.zeros((2, 2, 2)), 0.0),  # 3-D
        (np.array([[0.0, np.nan], [0.0, 0.0]]), 0.0),
        (np.array([[0.0, -np.inf], [0.0, 0.0]]), 0.0),
        (np.zeros((3, 2)), np.inf),
        (np.zeros((3, 2)), [0.0, np.nan]),
        (np.zeros((3, 2)), [0.0, 1.0, 2.0]),  # one log_w too many
        (np.zeros((4, 2)), [0.0, 1.0]),  # one too few
        (np.zeros((3, 2)), np.zeros((2, 2))),
    ],
)
def test_bad_inputs_raise_value_error(fn, unary, log_w):
    with pytest.raises(ValueError):
        fn(unary, log_w)
