"""The runs model's cost as a plug-in (issue 35 item 2): the registry, the built-ins, a user's cost that moves the
boundaries, and the default cost reproducing today's numbers exactly."""

from __future__ import annotations

import numpy as np
import pytest
from planted import planted_blocks

from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.runs import RunsFit, fit_runs
from bpseg_pgm.runs.cost_registry import (
    COSTS,
    RunCost,
    check_cost,
    cost_factory,
    cost_names,
    register_cost,
    run_cost_matrix,
)
from bpseg_pgm.runs.costs import EmbeddingsCost, cost_matrix
from bpseg_pgm.runs.search import segmental_levels
from bpseg_pgm.runs.wordcost import WordsCost, word_cost_matrix

from .test_wordcost import block_words


class FirstAxisCost(RunCost):
    """A user's L1 cost on the first feature only (written with ``error``, as ruptures' costs are): the run's
    weighted absolute deviation of feature 0 around its median."""

    name = "test-first-axis"

    def error(self, start, end):
        x, w = self.features[start:end, 0], self.weights[start:end]
        return float(np.sum(w * np.abs(x - np.median(x))))


class FirstAxisScatter(RunCost):
    """The embeddings' scatter on the first feature only, written with ``matrix`` (the fast way)."""

    name = "test-first-axis-scatter"

    def matrix(self, positions=None):
        return cost_matrix(self.features[:, :1], self.weights, positions)


@pytest.fixture
def registered():
    """The test's costs registered for one test, the registry left as it was."""
    before = dict(COSTS)
    register_cost(FirstAxisCost)
    register_cost(FirstAxisScatter)
    yield
    COSTS.clear()
    COSTS.update(before)


def two_shifts(n=60, d=12, seed=0):
    """Feature 0 changes sign at unit 20; features 1-5 give way to features 6-10 at unit 40, a far larger
    change: the embeddings' scatter cuts two runs at 40, a cost that reads feature 0 alone at 20."""
    rng = np.random.default_rng(seed)
    X = 0.3 * rng.normal(size=(n, d))
    X[:20, 0] += 1.0
    X[20:, 0] -= 1.0
    X[:40, 1:6] += 3.0
    X[40:, 6:11] += 3.0
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def start_of_second(fit: RunsFit) -> int:
    return int(np.flatnonzero(np.diff(fit.labels))[0]) + 1


# -- the registry ------------------------------------------------------------------------------------------


def test_the_registry_finds_the_built_ins_by_name():
    assert cost_names()[:2] == ("embeddings", "words")
    assert type(cost_factory("embeddings")) is EmbeddingsCost and EmbeddingsCost.name == "embeddings"
    assert type(cost_factory("words")) is WordsCost and WordsCost.name == "words"
    assert COSTS["embeddings"] is EmbeddingsCost and COSTS["words"] is WordsCost
    assert EmbeddingsCost.standalone and not WordsCost.standalone
    assert type(check_cost("embeddings")) is EmbeddingsCost
    mine = FirstAxisCost()
    assert check_cost(mine) is mine  # an object is used as given


@pytest.mark.parametrize("bad", ["l2", "", "Embeddings", None, 3, EmbeddingsCost])
def test_an_unknown_cost_is_a_value_error_naming_the_choices(bad):
    with pytest.raises(ValueError, match=r"cost must be one of \('embeddings', 'words'.*RunCost, got"):
        check_cost(bad)
    with pytest.raises(ValueError, match=r"cost must be one of \('embeddings', 'words'"):
        fit_runs(planted_blocks((5, 5))[0], np.ones(10), 2, cost=bad)


def test_cost_factory_names_the_choices():
    with pytest.raises(ValueError, match=r"cost must be one of \('embeddings', 'words'.*got 'nope'"):
        cost_factory("nope")


@pytest.mark.parametrize("words", ["words", WordsCost()])
def test_the_words_cost_is_not_a_cost_to_cut_by_alone(words):
    with pytest.raises(ValueError, match=r"not a cost to cut runs by alone.*give the word counts"):
        check_cost(words)
    with pytest.raises(ValueError, match="not a cost to cut runs by alone"):
        fit_runs(planted_blocks((5, 5))[0], np.ones(10), 2, cost=words)


def test_register_cost_checks_the_class(registered):
    class NoName(RunCost):
        pass

    class Spaced(RunCost):
        name = "two words"

    class Impostor(RunCost):
        name = "embeddings"

    for cls in (NoName, Spaced):
        with pytest.raises(ValueError, match="names itself with a class attribute `name`"):
            register_cost(cls)
    with pytest.raises(ValueError, match="built-in"):
        register_cost(Impostor)
    with pytest.raises(ValueError, match="RunCost subclass"):
        register_cost(int)
    assert COSTS["embeddings"] is EmbeddingsCost
    assert "test-first-axis" in cost_names() and type(cost_factory("test-first-axis")) is FirstAxisCost


def test_a_cost_with_neither_error_nor_matrix_says_so():
    class Empty(RunCost):
        name = "test-empty"

    with pytest.raises(NotImplementedError, match="error\\(start, end\\) or matrix\\(positions\\)"):
        fit_runs(planted_blocks((5, 5))[0], np.ones(10), 2, cost=Empty())


def test_a_cost_matrix_of_the_wrong_shape_or_with_nan_is_refused():
    class Wrong(RunCost):
        name = "test-wrong"

        def matrix(self, positions=None):
            return np.zeros((3, 3))

    class Nan(RunCost):
        name = "test-nan"

        def error(self, start, end):
            return float("nan")

    X = planted_blocks((5, 5))[0]
    with pytest.raises(ValueError, match=r"must be \(11, 11\) for 11 positions, got \(3, 3\)"):
        fit_runs(X, np.ones(10), 2, cost=Wrong())
    with pytest.raises(ValueError, match="a number or \\+inf"):
        fit_runs(X, np.ones(10), 2, cost=Nan())


# -- the default: today's numbers, bit for bit -------------------------------------------------------------


@pytest.mark.parametrize("positions", [None, np.array([0, 3, 4, 9, 17, 30])])
def test_the_default_cost_object_reproduces_cost_matrix_exactly(positions):
    X, _ = planted_blocks((10, 12, 8), dim=16, noise=0.3)
    w = np.random.default_rng(0).uniform(0.1, 2.0, len(X))
    expected = cost_matrix(X, w, positions)
    cost = cost_factory("embeddings")
    np.testing.assert_array_equal(cost.fit(X, w).matrix(positions), expected)
    np.testing.assert_array_equal(run_cost_matrix(EmbeddingsCost(), X, w, positions), expected)
    pos = np.arange(len(X) + 1) if positions is None else positions
    for i, j in [(0, 1), (1, 3), (0, len(pos) - 1)]:  # error(start, end): one run of the same matrix
        assert cost.error(int(pos[i]), int(pos[j])) == pytest.approx(expected[i, j], rel=1e-9, abs=1e-12)


def _same_fit(a: RunsFit, b: RunsFit) -> None:
    np.testing.assert_array_equal(a.labels, b.labels)
    np.testing.assert_array_equal(a.levels.costs, b.levels.costs)
    np.testing.assert_array_equal(a.levels.positions, b.levels.positions)
    np.testing.assert_array_equal(a.beliefs, b.beliefs)
    assert a.scatter == b.scatter


@pytest.mark.parametrize("n_segments", ["auto", 3, 7])
def test_fit_runs_with_the_embeddings_cost_is_fit_runs(n_segments):
    X, _ = planted_blocks((20, 25, 15, 30), dim=16, noise=0.6, seed=1)
    w = np.random.default_rng(1).uniform(0.2, 1.5, len(X))
    default = fit_runs(X, w, n_segments)
    for cost in ("embeddings", EmbeddingsCost()):
        _same_fit(fit_runs(X, w, n_segments, cost=cost), default)
    assert type(default.cost) is EmbeddingsCost


def test_fit_runs_with_the_embeddings_cost_is_fit_runs_past_the_candidates():
    """A long document (binary segmentation's candidates, the programme in windows past them): the same."""
    X, _ = planted_blocks([12] * 25, dim=32, noise=0.4, seed=2)
    w = np.ones(len(X))
    kw = {"max_candidates": 60, "max_runs": 80}
    default = fit_runs(X, w, "auto", **kw)
    assert default.levels.windows is not None and default.levels.max_runs > default.levels.programme_runs
    _same_fit(fit_runs(X, w, "auto", cost="embeddings", **kw), default)
    _same_fit(fit_runs(X, w, 70, cost=EmbeddingsCost(), **kw), fit_runs(X, w, 70, **kw))


def test_the_words_beside_the_embeddings_cost_are_the_words_beside_the_default():
    X, _ = planted_blocks((30, 30, 30, 30), dim=16, noise=1.5, seed=3)
    w = np.ones(len(X))
    C = block_words(seed=3)
    a, b = (
        fit_runs(X, w, 4).with_words(C, P.word_weight),
        fit_runs(X, w, 4, cost="embeddings").with_words(C, P.word_weight),
    )
    _same_fit(a, b)
    assert a.word_alpha == b.word_alpha is not None
    np.testing.assert_array_equal(run_cost_matrix(WordsCost(C, 0.3), X, w), word_cost_matrix(C, 0.3))


# -- a user's cost -----------------------------------------------------------------------------------------


def test_a_users_cost_moves_the_boundaries_on_a_planted_document(registered):
    X = two_shifts()
    w = np.ones(len(X))
    embeddings = fit_runs(X, w, 2)
    assert abs(start_of_second(embeddings) - 40) <= 2
    for cost in ("test-first-axis", FirstAxisCost(), FirstAxisScatter()):
        mine = fit_runs(X, w, 2, cost=cost)
        assert abs(start_of_second(mine) - 20) <= 2, (cost, mine.labels)
        assert mine.levels.costs[2] < mine.levels.costs[1]
    # the error() and the matrix() ways of writing a cost give the same programme
    np.testing.assert_array_equal(
        fit_runs(X, w, 4, cost=FirstAxisScatter()).labels, fit_runs(X, w, 4, cost=RunCostFromError()).labels
    )


class RunCostFromError(RunCost):
    """FirstAxisScatter written one run at a time."""

    name = "test-first-axis-scatter-error"

    def error(self, start, end):
        x, w = self.features[start:end, 0], self.weights[start:end]
        mu = np.sum(w * x) / np.sum(w)
        return float(np.sum(w * (x - mu) ** 2))


def test_a_users_cost_sets_the_noise_calibrated_number_of_runs_and_is_not_fitted_itself():
    X = two_shifts(n=80, seed=4)
    w = np.ones(len(X))
    mine = FirstAxisScatter()
    fit = fit_runs(X, w, "auto", cost=mine)
    assert not hasattr(mine, "features")  # each document (and null) fitted a copy
    assert fit.cost is mine
    assert int(fit.labels.max()) + 1 >= 2 and abs(start_of_second(fit) - 20) <= 2
    again = fit.at(2)
    assert again.cost is mine and abs(start_of_second(again) - 20) <= 2


def test_the_words_go_beside_a_users_cost_and_re_cuts_keep_it():
    X, _ = planted_blocks((30, 30, 30, 30), dim=16, noise=1.5, seed=5)
    w = np.ones(len(X))
    C = block_words(seed=5)
    mine = FirstAxisScatter()
    fit = fit_runs(X, w, 4, cost=mine)
    words = fit.with_words(C, P.word_weight)
    assert words.cost is mine and words.word_alpha is not None
    assert words.cost_levels is fit.levels
    for k in (2, 3, 5):
        cut, given = words.at(k), fit_runs(X, w, k, cost=mine).with_words(C, P.word_weight)
        assert cut.cost is mine
        np.testing.assert_array_equal(cut.labels, given.labels)


def test_segmental_levels_takes_a_cost():
    X = two_shifts()
    w = np.ones(len(X))
    np.testing.assert_array_equal(
        segmental_levels(X, w, 5, cost=EmbeddingsCost(), policy=P).costs, segmental_levels(X, w, 5, policy=P).costs
    )
    mine = segmental_levels(X, w, 5, cost=FirstAxisScatter(), policy=P)
    assert abs(int(mine.starts(2)[1]) - 20) <= 1
