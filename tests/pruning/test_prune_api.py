"""bpseg_pgm.prune: budget, reading order, exact spans, relevance, and one ValueError per kind of bad input."""

import numpy as np
import pytest

from bpseg_pgm import prune
from bpseg_pgm.policy import DEFAULT_POLICY as P
from bpseg_pgm.pruning import select_runs
from bpseg_pgm.text import sentence_spans

TENNIS = [
    "The tennis final was played on the hard court at noon.",
    "Her tennis serve won the final set of the tournament.",
    "The tennis tournament gives the winner a silver trophy.",
]
WEATHER = [
    "Heavy rain and strong wind are expected over the coast tonight.",
    "The forecast says rain will turn to snow in the mountains.",
    "Cold wind and snow will close the mountain roads tomorrow.",
    "Sunny skies should return after the rain on Friday.",
]
# weather, tennis, weather, tennis ... with messy whitespace between sentences
MESSY = f"{WEATHER[0]}  {WEATHER[1]}\n\n\t{TENNIS[0]}\n{TENNIS[1]}   {WEATHER[2]}\r\n\r\n{WEATHER[3]}\t{TENNIS[2]}\n"


def _words(s):
    return len(s.split())


@pytest.mark.parametrize("budget", [0.2, 0.35, 0.5, 0.9])
def test_budget_order_and_exact_spans_on_text(fake_embedder, budget):
    res = prune(MESSY, "Who won the tennis tournament final?", budget=budget, embedder=fake_embedder)
    spans = sentence_spans(MESSY)
    total = sum(_words(MESSY[a:b]) for a, b in spans)
    assert res.total == total and res.cost_unit == "words"
    assert res.used == sum(_words(MESSY[a:b]) for a, b in res.spans) <= budget * total
    assert res.kept and list(res.kept) == sorted(set(res.kept))  # reading order, no repeats
    assert list(res.spans) == [spans[i] for i in res.kept]
    assert res.source is MESSY
    assert res.text == "\n\n".join(MESSY[a:b] for a, b in res.runs)
    for a, b in res.runs:  # each run is one stretch of the original, whitespace as written
        assert MESSY[a:b].strip() == MESSY[a:b]
    assert len(res.scores) == len(spans) and len(res.units) == len(spans)
    assert fake_embedder.calls == 1  # units and query in one batch


def test_keeps_the_relevant_topic(fake_embedder):
    units = [*WEATHER[:2], *TENNIS, *WEATHER[2:]]
    budget = sum(map(_words, TENNIS)) / sum(map(_words, units))
    res = prune(units, "Who won the tennis tournament final?", budget=budget + 1e-9, embedder=fake_embedder)
    assert res.kept == (2, 3, 4)
    assert res.text == "\n".join(TENNIS)  # one run: the units as joined in the source
    weather = prune(units, "Will rain and snow close the mountain roads?", budget=0.3, embedder=fake_embedder)
    assert weather.kept and set(weather.kept) <= {0, 1, 5, 6}


def test_units_spans_point_into_the_units_joined_by_newlines(fake_embedder):
    units = ["A: tennis final today ", "B: ok", "C:  rain and wind\tall day", "D: tennis serve"]
    res = prune(units, "tennis", budget=1.0, embedder=fake_embedder)
    assert res.kept == (0, 1, 2, 3)
    assert res.source == "\n".join(units)
    assert [res.source[a:b] for a, b in res.spans] == units
    assert res.text == res.source


def test_empty_units_are_skipped_and_do_not_break_runs(fake_embedder):
    units = ["", TENNIS[0], "  ", TENNIS[1], WEATHER[0], "", TENNIS[2]]
    res = prune(units, "tennis tournament final", budget=1.0, embedder=fake_embedder)
    assert res.kept == (1, 3, 4, 6)
    assert res.runs == ((res.spans[0][0], res.spans[-1][1]),)  # one run: the empty units lie inside it
    assert res.text == "\n".join(units[1:])
    assert np.isnan(res.scores[[0, 2, 5]]).all() and not np.isnan(res.scores[[1, 3, 4, 6]]).any()
    assert res.segments[0][0] == 0 and res.segments[-1][1] == len(units)
    assert res.to_dict()["scores"][0] is None
    half = prune(units, "tennis tournament final", budget=0.5, embedder=fake_embedder)
    assert half.kept and not set(half.kept) & {0, 2, 5} and half.used <= 0.5 * half.total


def test_whole_text_at_budget_one(fake_embedder):
    res = prune(MESSY, "tennis", budget=1, embedder=fake_embedder)
    assert res.text == MESSY.strip() and res.used == res.total


def test_max_tokens(fake_embedder):
    res = prune(MESSY, "tennis tournament", max_tokens=25, embedder=fake_embedder)
    assert res.cost_unit == "tokens" and res.limit == 25
    assert 0 < res.used <= 25  # the fake tokenizer: words + 2 specials, the specials not counted
    assert res.used == sum(_words(MESSY[a:b]) for a, b in res.spans)
    custom = prune(MESSY, "tennis", max_tokens=3, count_tokens=lambda ts: [1] * len(ts), embedder=fake_embedder)
    assert custom.used == len(custom.kept) == 3


def test_nothing_fits_warns_and_keeps_nothing(fake_embedder):
    with pytest.warns(UserWarning, match="nothing fits the budget"):
        res = prune(TENNIS, "tennis", max_tokens=2, embedder=fake_embedder)
    assert res.kept == () and res.text == "" and res.used == 0


def test_result_to_json(fake_embedder):
    import json

    res = prune(MESSY, "tennis", budget=0.5, embedder=fake_embedder)
    d = json.loads(res.to_json())
    assert d["kept"] == list(res.kept) and d["text"] == res.text
    assert d["budget"] == {"unit": "words", "limit": res.limit, "used": res.used, "total": res.total}
    assert [tuple(s) for s in d["segments"]] == list(res.segments)
    assert res.segments[0][0] == 0 and res.segments[-1][1] == len(res.units)


def test_select_runs_whole_segment_then_best_parts():
    r = np.array([0.1, 0.2, 0.1, 0.9, 0.8, 0.1, 0.1, 0.1, 0.7, 0.1, 0.0, 0.0])
    starts = np.array([0, 3, 10])
    costs = np.ones(12)
    # run 3..9 (score 0.85) fits whole in 7
    assert np.flatnonzero(
        select_runs(r, starts, costs, 7, top_m=P.prune_top_m, part_units=P.prune_part_units)
    ).tolist() == list(range(3, 10))
    # in 6 it does not: its best piece (units 3-7) then, best first, its single units (8)
    assert np.flatnonzero(select_runs(r, starts, costs, 6, part_units=5, top_m=P.prune_top_m)).tolist() == [
        3,
        4,
        5,
        6,
        7,
        8,
    ]
    # in 3: piece 3-7 does not fit, so its units by relevance: 3, 4, then piece 8-9's unit 8
    assert np.flatnonzero(select_runs(r, starts, costs, 3, part_units=5, top_m=P.prune_top_m)).tolist() == [3, 4, 8]


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((MESSY, ""), {}, "query is empty"),
        ((MESSY, "  \n"), {}, "query is empty"),
        ((MESSY, None), {}, "query must be a str"),
        ((MESSY, "q"), {"budget": 0}, r"budget must be a fraction of the words in \(0, 1\]"),
        ((MESSY, "q"), {"budget": 1.5}, "budget must be"),
        ((MESSY, "q"), {"budget": -0.2}, "budget must be"),
        ((MESSY, "q"), {"budget": float("nan")}, "budget must be"),
        ((MESSY, "q"), {"budget": "0.2"}, "budget must be"),
        ((MESSY, "q"), {"budget": True}, "budget must be"),
        ((MESSY, "q"), {"budget": 0.2, "max_tokens": 100}, "either budget .* or max_tokens, not both"),
        ((MESSY, "q"), {"max_tokens": 0}, "max_tokens must be a positive int"),
        ((MESSY, "q"), {"max_tokens": 2.5}, "max_tokens must be a positive int"),
        ((MESSY, "q"), {"count_tokens": len}, "give max_tokens too"),
        ((MESSY, "q"), {"n_segments": 0}, "n_segments must be"),
        ((MESSY, "q"), {"separator": None}, "separator must be a str"),
        ((MESSY, "q"), {"bm25_weight": -1}, "it is Policy.prune_bm25_weight"),
        ((MESSY, "q"), {"part_units": 0}, "it is Policy.prune_part_units"),
        (("", "q"), {}, "text is empty"),
        ((" \n\t", "q"), {}, "only whitespace"),
        (([], "q"), {}, "list of units is empty"),
        ((["fine", 3], "q"), {}, r"units\[1\] is int"),
        ((["", "  \n"], "q"), {}, "every unit is empty"),
        ((["a", "b"], "q"), {"lines": True}, "does not apply to a list"),
        ((b"bytes", "q"), {}, "must be a str or a list of str"),
        ((42, "q"), {}, "must be a str or a list of str"),
        (("a \ud800 b.", "q"), {}, "surrogate"),
    ],
)
def test_bad_input_is_one_value_error_before_embedding(fake_embedder, args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        prune(*args, embedder=fake_embedder, **kwargs)
    assert fake_embedder.calls == 0


def test_embedder_and_model_together(fake_embedder):
    with pytest.raises(ValueError, match="either an embedder or a model"):
        prune(MESSY, "q", embedder=fake_embedder, model="all-MiniLM-L6-v2")


def test_exported_from_the_package():
    import bpseg_pgm

    assert "prune" in bpseg_pgm.__all__ and bpseg_pgm.prune is prune
