"""trim_spans: trim_span of many spans at once, in linear time however many share a run of whitespace."""

import random
import time

from bpseg_pgm.utils.spans import trim_span, trim_spans


def _slow_trim(text, start, end):
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if start < end else None


def test_trim_spans_is_trim_span_of_each():
    rng = random.Random(7)
    for _ in range(500):
        pieces = [rng.choice(["a", "bc", " ", "\n", "\t", "\u00a0", " " * rng.randint(1, 40)]) for _ in range(30)]
        text = "".join(pieces)
        spans = [tuple(sorted((rng.randint(0, len(text)), rng.randint(0, len(text))))) for _ in range(20)]
        spans += [(b, a) for a, b in spans[:2]] + spans[:3]  # reversed spans, repeated spans
        want = [_slow_trim(text, a, b) for a, b in spans]
        assert [trim_span(text, a, b) for a, b in spans] == want
        assert trim_spans(text, spans) == want


def test_spans_sharing_a_long_run_of_whitespace_are_trimmed_in_linear_time():
    n = 200_000
    text = " " * n + "x" + " " * n
    spans = [(i, 2 * n + 1 - i) for i in range(0, n, 2)]  # 100,000 nested spans around one character
    start = time.perf_counter()
    out = trim_spans(text, spans)
    assert time.perf_counter() - start < 5  # well under a second; one trim_span each reads ~10**10 characters
    assert set(out) == {(n, n + 1)}
