"""Any value of any ``bpseg segment`` option: exit 0, or exactly one line ``bpseg: error: ...`` and
exit 2, never a traceback (issue 12).

Hypothesis draws an option and a value (valid choices, numbers near the edges, NaN and inf,
arbitrary text), sometimes a second cheap option, and runs the command in this process on
the cached 13-sentence example, so that any exception other than the handled ones fails the
test with its traceback. ``--model`` is left out (an unknown name probes the network), and
integer values of ``--em-rounds`` and ``--max-iter`` stay below 1000 (so many rounds take
minutes, which is a speed matter, not this test's).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bpseg_pgm.cli import main as cli_main

EDGE_WORDS = [
    "auto",
    "none",
    "all",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "1e308",
    "-1e308",
    "1e-320",
    "5e-324",
    "-0",
    "0",
    "1",
    "-1",
    "0.5",
    "0.999999",
    "1.0",
    "2",
    "13",
    "14",
    "0x10",
    "1_000",
    "",
    " ",
    "1 2",
    "١",
    "3.",
    "1e3",
    "none ",
    "AUTO",
]

CHOICES = {
    "--n-segments": ["auto", "1", "2", "3", "13"],
    "--potentials": ["centered", "paper"],
    "--lam": ["0", "0.12", "150", "1e4"],
    "--sigma": ["none", "auto", "10", "200"],
    "--engine": ["potts", "loopy", "fast", "exact", "reference"],
    "--init": ["random", "farthest", "all"],
    "--em-rounds": ["0", "1", "5"],
    "--context": ["auto", "0", "0.2", "5"],
    "--merge-above": ["none", "-1", "0.9", "1"],
    "--seed": ["0", "1", "42"],
    "--max-iter": ["1", "5", "100"],
    "--tol": ["1e-6", "1e-12", "0.5"],
    "--damping": ["0", "0.5", "0.99"],
    "--format": ["text", "json", "html", "chunks-jsonl"],
    "--max-tokens": ["1", "20", "256"],
    "--min-tokens": ["1", "10", "300"],
    "--max-bytes": ["1", "100", "50M", "1G"],
    "--segment-length": ["0.5", "2", "3", "100"],
}
#: options that do not change how long a run takes; they may come as a second option
CHEAP = [
    "--potentials",
    "--lam",
    "--sigma",
    "--context",
    "--merge-above",
    "--seed",
    "--tol",
    "--damping",
    "--format",
    "--max-bytes",
    "--max-tokens",
    "--min-tokens",
]
_BOUNDED = {"--em-rounds", "--max-iter"}


def _too_many(value: str) -> bool:
    try:
        return abs(int(value)) >= 1000
    except ValueError:
        try:
            x = float(value)
        except ValueError:
            return False
        return math.isfinite(x) and abs(x) >= 1000


def values(option: str):
    v = st.one_of(
        st.sampled_from(CHOICES[option]),
        st.sampled_from(EDGE_WORDS),
        st.integers(-5, 300).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.text(max_size=10),
    )
    return v.filter(lambda s: not _too_many(s)) if option in _BOUNDED else v


@st.composite
def option_sets(draw):
    first = draw(st.sampled_from(sorted(CHOICES)))
    chosen = {first: draw(values(first))}
    if draw(st.booleans()):
        second = draw(st.sampled_from([o for o in CHEAP if o != first]))
        chosen[second] = draw(values(second))
    return chosen


@pytest.fixture
def example_args(cli_env, example_file, monkeypatch):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    return ["segment", str(example_file), "--lines"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(options=option_sets())
@example(options={"--engine": "reference", "--lam": "1e308", "--format": "json"})  # the audit's NaN case
@example(options={"--tol": "nan"})
@example(options={"--damping": "nan"})
@example(options={"--max-bytes": "1"})
@example(options={"--lam": "inf"})
@example(options={"--format": "chunks-jsonl", "--max-tokens": "5"})
def test_any_option_value_is_exit_0_or_one_error_line(example_args, capsys, options):
    argv = example_args + [f"{opt}={value}" for opt, value in options.items()]  # '=' keeps '-1' a value
    try:
        code = cli_main.main(argv)
    except SystemExit as stop:  # argparse's usage errors
        code = stop.code
    out, err = capsys.readouterr()
    lines = err.splitlines()
    if code == 0:
        assert out, (options, err)
        assert all(line.startswith("bpseg: warning: ") for line in lines), (options, err)
    else:
        assert code == 2, (options, code, err)
        assert lines and lines[-1].startswith("bpseg: error: "), (options, err)  # the error is the last line
        assert all(line.startswith("bpseg: warning: ") for line in lines[:-1]), (options, err)
        assert out == "", (options, out)
