"""Embedder(context=...): each unit embedded with its neighbours (windows, late chunking, mix), keyed apart."""

import math

import numpy as np
import pytest

from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.embeddings import context as ctx
from bpseg_pgm.embeddings.cache import EmbeddingCache

DOC = [
    "I'll play tennis tomorrow.",
    "US Open is a tennis tournament.",
    "The rain poured down heavily.",
    "Floods followed the storm in the valley.",
]
OTHER = "Stock prices fell sharply on Monday."


@pytest.fixture()
def fresh(embedder, tmp_path):
    """An Embedder with ``context`` in an empty cache, reusing the session's loaded model."""

    def make(context=None, window=1, **kwargs):
        e = Embedder(cache_dir=tmp_path, show_progress=False, context=context, context_window=window, **kwargs)
        e._model = embedder.model
        return e

    return make


# -- the pure parts -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"context": "neighbours"}, "context must be None, 'window', 'late' or 'mix'"),
        ({"context": True}, "context must be None"),
        ({"context": "window", "context_window": -1}, "context_window must be an int >= 0"),
        ({"context": "window", "context_window": 1.5}, "context_window must be an int >= 0"),
        ({"context": "window", "context_window": True}, "context_window must be an int >= 0"),
        ({"context": "mix", "context_weight": 0}, r"context_weight must be a number in \(0, 1\]"),
        ({"context": "mix", "context_weight": 1.5}, r"context_weight must be a number in \(0, 1\]"),
        ({"context": "mix", "context_weight": math.nan}, r"context_weight must be a number in \(0, 1\]"),
        ({"context": "mix", "context_weight": "0.5"}, r"context_weight must be a number in \(0, 1\]"),
        ({"context": "late", "backend": "onnx"}, "context='late' needs backend='torch'"),
        ({"device": "gpu"}, "device must be None, 'cpu', 'cuda', 'cuda:N'"),
        ({"device": 0}, "device must be None"),
        ({"device": "cuda", "backend": "onnx"}, "device='cuda' needs backend='torch'"),
    ],
)
def test_bad_context_and_device_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Embedder(**kwargs)


def test_share_budget_nearest_first_and_evenly():
    assert ctx.share_budget([5, 5], [5, 5], 100) == ([5, 5], [5, 5])  # everything fits
    assert ctx.share_budget([5, 5], [5, 5], 12) == ([5, 1], [5, 1])  # nearest whole, the next shared
    assert ctx.share_budget([20], [3], 10) == ([7], [3])  # the short one whole, the long one the rest
    assert ctx.share_budget([20], [20], 10) == ([5], [5])
    assert ctx.share_budget([4], [], -3) == ([0], [])


def test_trim_keeps_the_head_or_the_tail_by_token_offsets():
    text, offsets = "one two three", [(0, 3), (4, 7), (8, 13)]
    assert ctx.trim(text, offsets, 2, "head") == "one two"
    assert ctx.trim(text, offsets, 2, "tail") == "two three"
    assert ctx.trim(text, offsets, 0, "head") == "" and ctx.trim(text, offsets, 9, "tail") == text


def _words(texts):
    """Whitespace "tokens" and their offsets, for the pure planners."""
    out = []
    for t in texts:
        offs, pos = [], 0
        for w in t.split():
            start = t.index(w, pos)
            offs.append((start, start + len(w)))
            pos = start + len(w)
        out.append(offs)
    return out


def test_window_texts_join_neighbours_and_keep_the_unit_whole():
    texts = ["a1 a2", "b1 b2 b3", "c1", "d1 d2 d3 d4"]
    assert ctx.window_texts(texts, _words(texts), 1, 100) == [
        "a1 a2 b1 b2 b3",
        "a1 a2 b1 b2 b3 c1",
        "b1 b2 b3 c1 d1 d2 d3 d4",
        "c1 d1 d2 d3 d4",
    ]
    # five tokens: the unit whole, the neighbours two each (left keeps its tail, right its head)
    assert ctx.window_texts(texts, _words(texts), 1, 5)[2] == "b2 b3 c1 d1 d2"
    assert ctx.window_texts(texts, _words(texts), 1, 2)[3] == "d1 d2 d3 d4"  # a unit over budget: alone
    assert ctx.window_texts(texts, _words(texts), 2, 100)[0] == "a1 a2 b1 b2 b3 c1"


def test_plan_blocks_puts_every_unit_in_one_core_with_its_margins():
    texts = [f"s{i}a s{i}b s{i}c" for i in range(10)]  # three tokens each
    blocks = ctx.plan_blocks(texts, _words(texts), 1, 12)
    cores = [i for b in blocks for i, _, _ in b.spans]
    assert cores == list(range(10))
    for b in blocks:
        assert sum(len(t.split()) for t in [b.text]) <= 12
        for i, a, c in b.spans:
            assert b.text[a:c] == texts[i]
        first, last = b.spans[0][0], b.spans[-1][0]
        if first > 0:
            assert b.text.startswith(texts[first - 1])  # a whole unit of context on the left
        if last < 9:
            assert b.text.endswith(texts[last + 1])
    assert len(blocks) > 3  # 12 tokens hold two core units and two margins


def test_plan_blocks_trims_margins_around_a_long_unit():
    texts = ["x1 x2 x3", "y1 y2 y3 y4 y5 y6", "z1 z2 z3"]
    blocks = ctx.plan_blocks(texts, _words(texts), 1, 8)
    middle = next(b for b in blocks if b.spans[0][0] == 1)
    assert middle.text == "x3 y1 y2 y3 y4 y5 y6 z1"


def test_mix_window_moves_each_row_toward_its_window_mean():
    X = np.eye(4, dtype=np.float32)
    out = ctx.mix_window(X, 1, 1.0)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(out[0], [1, 1, 0, 0] / np.sqrt(2), atol=1e-6)  # rows 0-1 only: clipped at the end
    np.testing.assert_allclose(ctx.mix_window(X, 0, 0.5), X)


def test_context_model_ids_are_all_different():
    ids = {
        ctx.context_model_id("m", c, w, 0.5)
        for c, w in [(None, 0), ("window", 1), ("window", 2), ("late", 1), ("mix", 1)]
    } | {ctx.context_model_id("m", "mix", 1, 0.3)}
    assert len(ids) == 6 and "m" in ids


# -- the Embedder ---------------------------------------------------------------------------------


@pytest.mark.parametrize("context", ["window", "late", "mix"])
def test_window_zero_is_exactly_todays_embedder(embedder, session_cache_dir, context):
    e = Embedder(cache_dir=session_cache_dir, show_progress=False, context=context, context_window=0)
    assert e.context is None and e.model_id == embedder.model_id == e.plain_model_id
    np.testing.assert_array_equal(e.encode(DOC), embedder.encode(DOC))


@pytest.mark.parametrize("context", ["window", "late", "mix"])
def test_a_units_vector_changes_when_its_neighbour_changes(fresh, embedder, context):
    e = fresh(context)
    X = e.encode(DOC)
    Y = e.encode([*DOC[:2], OTHER, DOC[3]])  # unit 2 replaced: units 1 and 3 are its neighbours
    assert X.shape == (4, 384) and X.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, atol=1e-5)
    assert not np.allclose(X[1], Y[1], atol=1e-4) and not np.allclose(X[3], Y[3], atol=1e-4)
    assert not np.allclose(X[1], embedder.encode(DOC[1:2])[0], atol=1e-3)  # not the plain vector
    if context == "window":  # unit 0's window (units 0-1) did not change
        np.testing.assert_array_equal(X[0], Y[0])


def test_window_mode_embeds_the_joined_text(fresh, embedder):
    X = fresh("window").encode(DOC)
    np.testing.assert_allclose(X[1], embedder.encode([" ".join(DOC[:3])])[0], atol=1e-5)


def test_late_chunking_pools_the_units_own_tokens(fresh, embedder):
    X = fresh("late").encode(DOC)
    tokens = embedder.model.encode([" ".join(DOC)], output_value="token_embeddings")[0].numpy()
    counts = [len(o) for o in fresh("late")._token_offsets(DOC).values()]
    start = 1 + sum(counts[:2])  # after [CLS] and units 0-1
    expect = tokens[start : start + counts[2]].mean(axis=0)
    np.testing.assert_allclose(X[2], expect / np.linalg.norm(expect), atol=1e-5)


def test_context_vectors_are_cached_under_their_own_key(fresh, embedder, tmp_path, monkeypatch):
    e = fresh("window")
    assert e.model_id == f"{embedder.model_id}|context=window:1" and e.plain_model_id == embedder.model_id
    X = e.encode(DOC)
    with EmbeddingCache(tmp_path) as cache:
        assert cache.get_many(embedder.model_id, DOC) == {}  # nothing stored as a plain vector
        assert len(cache.get_many(e.model_id, [" ".join(DOC[:3])])) == 1
    monkeypatch.setattr(Embedder, "_load", lambda self: pytest.fail("loaded the model although all is cached"))
    again = Embedder(cache_dir=tmp_path, show_progress=False, context="window")
    np.testing.assert_array_equal(again.encode(DOC), X)
    late = Embedder(cache_dir=tmp_path, show_progress=False, context="late")
    late._model = embedder.model  # its keys are its own: it embeds (with the loaded model), not reads windows
    assert not np.allclose(late.encode(DOC), X, atol=1e-3)


def test_plain_vectors_in_the_cache_are_not_read_as_context_ones(embedder, session_cache_dir):
    plain = embedder.encode(DOC)  # in the session cache under the plain key
    e = Embedder(cache_dir=session_cache_dir, show_progress=False, context="late")
    e._model = embedder.model
    assert not np.allclose(e.encode(DOC), plain, atol=1e-3)


def test_encode_documents_keeps_windows_inside_each_document(fresh, embedder):
    for context in (None, "window", "late", "mix"):
        e = fresh(context)
        a, b = e.encode_documents([DOC[:2], DOC[2:]])
        np.testing.assert_allclose(a, e.encode(DOC[:2]), atol=1e-6)
        np.testing.assert_allclose(b, e.encode(DOC[2:]), atol=1e-6)
    whole = fresh("window").encode(DOC)
    assert not np.allclose(whole[1], a[1], atol=1e-4)  # one document: unit 1 sees unit 2


@pytest.mark.parametrize(
    "docs, match",
    [
        ("text", "not a single string"),
        ([["ok"], "text"], "document 1 must be a list of str"),
        ([["ok"], []], "document 1 has no sentences"),
        ([["ok", 3]], "document 0 sentence 1 is int"),
        ([], "no documents"),
    ],
)
def test_encode_documents_bad_input(embedder, docs, match):
    with pytest.raises(ValueError, match=match):
        embedder.encode_documents(docs)


def test_cuda_without_a_gpu_is_a_clear_error(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("a GPU is visible")
    with pytest.raises(ValueError, match="device='cuda': CUDA is not available here"):
        Embedder(cache_dir=tmp_path, device="cuda").encode(["Hello there."])


def test_repr_names_the_context(fresh):
    assert "context='late', context_window=1" in repr(fresh("late"))
    assert "context" not in repr(fresh(None)).split("model_id")[0]
