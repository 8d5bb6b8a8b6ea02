"""The calibrated confidence: a monotone map into [0, 1], finite for any belief, read by Segmentation.confidence()."""

import ast
import itertools
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest

import bpseg_pgm.confidence as package
from bpseg_pgm.confidence import STRUCTURES, boundary_distance, calibrated_confidence, structure_base
from bpseg_pgm.policy import DEFAULT_POLICY, STAGES, Policy
from bpseg_pgm.types import SegmentationResult

CONFIDENCE_FIELDS = [f.name for f in fields(Policy) if f.metadata["stage"] == "confidence"]


def _logit(p):
    return np.log(p / (1 - p))


def test_boundary_distance_counts_from_the_nearer_end_of_each_run():
    assert boundary_distance([0, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0]).tolist() == [1, 2, 3, 2, 1, 1, 1, 1, 1, 2, 1]
    assert boundary_distance([3]).tolist() == [1]
    assert boundary_distance([]).tolist() == []
    assert boundary_distance(np.zeros(6, dtype=int)).tolist() == [1, 2, 3, 3, 2, 1]


def test_the_map_is_the_documented_logistic():
    """z = logit(base) + belief weight * logit(belief) + distance weight * log(distance)."""
    p = DEFAULT_POLICY
    labels = [0] * 9 + [1] * 3
    belief = np.linspace(0.1, 0.95, 12)
    got = calibrated_confidence(belief, labels, "run-topics")
    z = _logit(p.confidence_run_topics) + p.confidence_belief * _logit(belief)
    z += p.confidence_distance * np.log(boundary_distance(labels))
    np.testing.assert_allclose(got, 1 / (1 + np.exp(-z)), rtol=1e-12)
    # the base is the confidence of a unit of belief 1/2 at the edge of its segment
    for structure in STRUCTURES:
        at_edge = calibrated_confidence([0.5, 0.5], [0, 1], structure)
        np.testing.assert_allclose(at_edge, structure_base(structure, [0, 1]), rtol=1e-9)


@pytest.mark.parametrize("structure", [*STRUCTURES, None])
def test_monotone_in_the_belief(structure):
    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(5), rng.integers(1, 30, size=5))
    for _ in range(20):
        low = rng.uniform(0, 1, size=len(labels))
        high = np.minimum(low + rng.uniform(0, 0.5, size=len(labels)), 1.0)
        a = calibrated_confidence(low, labels, structure)
        b = calibrated_confidence(high, labels, structure)
        assert np.all(b >= a)
    grid = np.linspace(0, 1, 201)
    one_unit = [calibrated_confidence([b, b], [0, 1], structure)[0] for b in grid]
    assert np.all(np.diff(one_unit) >= 0)


@pytest.mark.parametrize("structure", STRUCTURES)
def test_monotone_in_the_distance_to_the_segments_edge(structure):
    labels = np.zeros(41, dtype=int)
    conf = calibrated_confidence(np.full(41, 0.6), labels, structure)
    assert np.all(np.diff(conf[:21]) >= 0) and np.all(np.diff(conf[20:]) <= 0)
    assert conf[20] > conf[0]  # the default weighs the distance: the middle of a long segment is surer


def test_in_the_unit_interval_and_finite_for_any_belief():
    beliefs = np.array([np.nan, np.inf, -np.inf, -3.0, 0.0, 1e-300, 0.5, 1 - 1e-16, 1.0, 7.0])
    labels = np.arange(len(beliefs)) // 3
    for structure in [*STRUCTURES, None]:
        conf = calibrated_confidence(beliefs, labels, structure)
        assert conf.shape == beliefs.shape and np.all(np.isfinite(conf))
        assert np.all((conf >= 0) & (conf <= 1))
    # NaN counts as 0, values outside [0, 1] are clipped (every unit its own segment: the same distance)
    conf = calibrated_confidence(beliefs, np.arange(len(beliefs)), "topics")
    np.testing.assert_allclose(conf[[0, 2, 3, 4, 5]], conf[4])
    np.testing.assert_allclose(conf[[1, 7, 9]], conf[8])
    assert conf[4] < conf[6] < conf[8]


@pytest.mark.parametrize(
    "changes",
    [
        {"confidence_topics": 1e-12},
        {"confidence_topics": 1 - 1e-12},
        {"confidence_belief": 1000.0},
        {"confidence_distance": 1000.0},
        {"confidence_belief": 1000.0, "confidence_distance": 1000.0, "confidence_topics": 1e-12},
        {"confidence_belief": 0.0, "confidence_distance": 0.0},
    ],
)
def test_extreme_policies_stay_in_the_unit_interval(changes):
    policy = DEFAULT_POLICY.replace(**changes)
    rng = np.random.default_rng(1)
    labels = np.repeat([0, 1, 0, 2], [5, 1, 30, 2])
    conf = calibrated_confidence(rng.uniform(0, 1, size=len(labels)), labels, "topics", policy)
    assert np.all(np.isfinite(conf)) and np.all((conf >= 0) & (conf <= 1))


@pytest.mark.parametrize(
    "changes", [{"confidence_topics": 0.0}, {"confidence_topics": 5.0}, {"confidence_belief": 1e6}]
)
def test_values_outside_a_confidence_fields_range_are_refused_naming_it(changes):
    (name,) = changes
    with pytest.raises(ValueError, match=f"Policy.{name} must be"):
        DEFAULT_POLICY.replace(**changes)


def test_without_weights_the_confidence_is_the_base():
    policy = DEFAULT_POLICY.replace(confidence_belief=0.0, confidence_distance=0.0, confidence_runs=0.3)
    conf = calibrated_confidence([0.01, 0.99, 0.5, 0.7], [0, 0, 0, 1], "runs", policy)
    np.testing.assert_allclose(conf, 0.3)


def test_the_structure_picks_its_base_and_none_is_read_from_the_labels():
    p = Policy(confidence_runs=0.2, confidence_topics=0.6, confidence_run_topics=0.4)
    assert structure_base("runs", [0, 1], p) == 0.2
    assert structure_base("topics", [0, 1], p) == 0.6
    assert structure_base("run-topics", [0, 1], p) == 0.4
    assert structure_base(None, [0, 0, 1, 1], p) == 0.2  # every label one run: runs
    assert structure_base(None, [0, 1, 0], p) == 0.6  # a label returns: topics
    with pytest.raises(ValueError, match="structure must be one of"):
        structure_base("chapters", [0], p)
    with pytest.raises(ValueError, match="policy must be None or a bpseg_pgm.Policy"):
        calibrated_confidence([0.5], [0], "runs", {"confidence_runs": 0.5})
    with pytest.raises(ValueError, match="2 beliefs for 3 labels"):
        calibrated_confidence([0.5, 0.5], [0, 0, 1])
    assert calibrated_confidence([], []).shape == (0,)


def _result(labels, own, structure=None, params=None):
    labels = np.asarray(labels)
    k = int(labels.max()) + 1
    beliefs = np.full((len(labels), k + 1), 0.0)
    beliefs[np.arange(len(labels)), labels] = own
    beliefs[:, -1] = 1 - np.asarray(own)  # an empty column takes the rest
    segments = [np.flatnonzero(labels == j).tolist() for j in range(k)]
    sentences = [f"s{i}." for i in range(len(labels))]
    return SegmentationResult(sentences, labels, segments, beliefs, structure=structure, params=params or {})


def test_a_segmentations_confidence_is_the_calibrated_map_and_its_beliefs_stay_raw():
    labels = [0] * 12 + [1] * 4 + [2] * 9
    own = np.linspace(0.2, 0.9, len(labels))
    seg = _result(labels, own, structure="run-topics")
    before = seg.beliefs.copy()
    np.testing.assert_allclose(seg.belief_in_label(), own)
    np.testing.assert_allclose(seg.confidence(), calibrated_confidence(own, labels, "run-topics"))
    assert not np.allclose(seg.confidence(), own)  # calibrated, not the raw belief
    np.testing.assert_array_equal(seg.beliefs, before)  # the raw beliefs are untouched
    np.testing.assert_allclose(seg.belief_in_label(), own)
    # the structure matters: the same beliefs under the topic model are surer
    assert np.all(_result(labels, own, structure="topics").confidence() > seg.confidence())


def test_a_segmentation_reads_the_policy_of_its_fit():
    labels, own = [0] * 6 + [1] * 6, np.full(12, 0.6)
    policy = Policy(confidence_runs=0.1, confidence_belief=0.0, confidence_distance=0.0)
    seg = _result(labels, own, structure="runs", params={"policy": policy})
    np.testing.assert_allclose(seg.confidence(), 0.1)
    default = _result(labels, own, structure="runs", params={"policy": None})
    np.testing.assert_allclose(default.confidence(), calibrated_confidence(own, labels, "runs"))


def test_the_dict_writes_both_and_reads_back_the_same_confidence():
    labels = [0] * 5 + [1] * 7
    own = np.linspace(0.3, 0.95, 12)
    seg = _result(labels, own, structure="run-topics")
    d = seg.to_dict()
    assert d["belief"] == [round(float(x), 4) for x in own]
    assert d["confidence"] == [round(float(x), 4) for x in seg.confidence()]
    back = SegmentationResult.from_dict(d)
    np.testing.assert_allclose(back.belief_in_label(), own, atol=5e-5)
    np.testing.assert_allclose(back.confidence(), seg.confidence(), atol=5e-5)
    # a dict written before the calibration held only "confidence", then the raw belief: read as the belief
    old = {k: v for k, v in d.items() if k != "belief"}
    old["confidence"] = d["belief"]
    np.testing.assert_allclose(SegmentationResult.from_dict(old).belief_in_label(), own, atol=5e-5)


def test_the_policy_block():
    names = [f.name for f in fields(Policy)]
    assert "confidence" in STAGES and CONFIDENCE_FIELDS == [
        "confidence_runs",
        "confidence_topics",
        "confidence_run_topics",
        "confidence_sections",
        "confidence_belief",
        "confidence_distance",
    ]
    start = names.index(CONFIDENCE_FIELDS[0])
    assert names[start : start + len(CONFIDENCE_FIELDS)] == CONFIDENCE_FIELDS  # one contiguous block
    for name in CONFIDENCE_FIELDS[:3]:
        assert 0 < getattr(DEFAULT_POLICY, name) < 1, name  # a base is a probability
    for f in fields(Policy):
        if f.name in CONFIDENCE_FIELDS:
            assert f.metadata["measured"], f.name


def test_the_package_imports_only_the_policy_and_utils():
    root = Path(package.__file__).parent
    ours = set()
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bpseg_pgm"):
                ours.add(node.module)
    assert all(m.startswith(("bpseg_pgm.confidence", "bpseg_pgm.policy", "bpseg_pgm.utils")) for m in ours), ours


def test_every_structure_pair_orders_by_base():
    """Bases order the structures: at the same belief and distance the surer structure gives more."""
    for a, b in itertools.permutations(STRUCTURES, 2):
        if structure_base(a, [0, 1]) > structure_base(b, [0, 1]):
            two = ([0.5, 0.5], [0, 1])  # two units (a document of one unit is certain whatever the structure)
            assert calibrated_confidence(*two, a)[0] > calibrated_confidence(*two, b)[0]


def test_runs_cut_at_headings_take_the_sections_base():
    """A Segmentation whose runs were cut at the text's headings uses ``confidence_sections``."""
    labels = np.array([0, 0, 0, 1, 1, 1])
    own = np.full(6, 0.5)
    plain = _result(labels, own, structure="runs")
    from dataclasses import replace

    sections = replace(plain, evidence="headings")
    np.testing.assert_allclose(sections.confidence(), calibrated_confidence(own, labels, "sections"))
    assert np.all(sections.confidence() > plain.confidence())
    assert structure_base("sections", labels) == Policy().confidence_sections


def test_a_single_unit_is_certain():
    assert calibrated_confidence([0.2], [0], "topics").tolist() == [1.0]
    assert calibrated_confidence([0.2, 0.2], [0, 0], "topics").max() < 1.0
