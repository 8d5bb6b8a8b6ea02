"""Policy: every field a reason and a stage; the shipped default; replace, the value checks, explain, table."""

import math
from dataclasses import FrozenInstanceError, fields

import pytest

from bpseg_pgm.policy import DEFAULT_POLICY, STAGES, Policy

FIELDS = fields(Policy)
INT_FIELDS = [f.name for f in FIELDS if type(f.default) is int]
FLOAT_FIELDS = [f.name for f in FIELDS if type(f.default) is float]


def test_every_field_has_a_reason_and_a_stage():
    assert len(FIELDS) >= 15
    for f in FIELDS:
        assert isinstance(f.metadata["reason"], str) and f.metadata["reason"].strip(), f.name
        assert f.metadata["stage"] in STAGES, f.name
        assert isinstance(f.metadata["measured"], str), f.name
        assert type(f.default) in (int, float), f.name


def test_every_stage_is_used():
    assert {f.metadata["stage"] for f in FIELDS} == set(STAGES)


def test_the_default_policy():
    assert Policy() == DEFAULT_POLICY
    assert DEFAULT_POLICY.changed() == {}
    with pytest.raises(FrozenInstanceError):
        DEFAULT_POLICY.run_scale = 2.0


def test_replace_changes_one_field():
    p = DEFAULT_POLICY.replace(run_scale=2.0)
    assert p.run_scale == 2.0 and p.changed() == {"run_scale": 2.0}
    assert DEFAULT_POLICY.run_scale == 3.0
    assert Policy(run_scale=2.0) == p


def test_replace_refuses_unknown_names():
    with pytest.raises(ValueError, match="'run_scal'"):
        DEFAULT_POLICY.replace(run_scal=2.0)
    with pytest.raises(ValueError, match="'a'.*'b'"):
        DEFAULT_POLICY.replace(b=1, a=1)


@pytest.mark.parametrize(
    "name, value",
    [
        (FLOAT_FIELDS[0], -1.0),
        (FLOAT_FIELDS[0], math.nan),
        (FLOAT_FIELDS[0], math.inf),
        (FLOAT_FIELDS[0], True),
        (FLOAT_FIELDS[0], "3"),
        (FLOAT_FIELDS[0], None),
        (INT_FIELDS[0], -1),
        (INT_FIELDS[0], 2.5),
        (INT_FIELDS[0], 2.0),
        (INT_FIELDS[0], False),
    ],
)
def test_bad_values_are_one_value_error_naming_the_field(name, value):
    with pytest.raises(ValueError, match=rf"Policy\.{name} must be"):
        Policy(**{name: value})
    with pytest.raises(ValueError, match=rf"Policy\.{name} must be"):
        DEFAULT_POLICY.replace(**{name: value})


def test_every_field_refuses_a_negative_value_and_a_bool():
    for f in FIELDS:
        for bad in (-1.5 if f.name in ("topic_silhouette", "group_threshold", "returns_silhouette") else -1, True):
            with pytest.raises(ValueError, match=rf"Policy\.{f.name} "):
                Policy(**{f.name: bad})


def test_zero_where_the_range_starts_at_it_and_an_int_for_a_float_are_allowed():
    p = Policy(smoothing=0, null_units=0, run_scale=2)
    assert p.smoothing == 0 and p.null_units == 0 and p.run_scale == 2.0 and type(p.run_scale) is float


def test_explain():
    text = Policy.explain("run_scale")
    f = next(f for f in FIELDS if f.name == "run_scale")
    assert text.startswith("run_scale = 3.0 (granularity; a number in [1, 1e+06]): ")
    assert f.metadata["reason"] in text and f"measured: {f.metadata['measured']}" in text
    unmeasured = next(f for f in FIELDS if not f.metadata["measured"])
    assert "measured" not in Policy.explain(unmeasured.name)
    with pytest.raises(ValueError, match="no field 'nope'"):
        Policy.explain("nope")


def test_table_holds_every_field_in_the_procedures_order():
    rows = Policy.table()
    assert sorted(r["name"] for r in rows) == sorted(f.name for f in FIELDS)
    assert [STAGES.index(r["stage"]) for r in rows] == sorted(STAGES.index(r["stage"]) for r in rows)
    by_name = {f.name: f for f in FIELDS}
    for r in rows:
        f = by_name[r["name"]]
        assert set(r) == {"name", "stage", "default", "reason", "measured", "within", "knob"}
        assert (r["within"], r["knob"]) == (str(f.metadata["within"]), f.metadata["knob"])
        assert (r["default"], r["stage"], r["reason"], r["measured"]) == (
            f.default,
            f.metadata["stage"],
            f.metadata["reason"],
            f.metadata["measured"],
        )
