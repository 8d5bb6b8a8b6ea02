"""The ONNX backends: exported once into the cache folder, close to PyTorch, cached apart, clear errors."""

import json
import re
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.embeddings.onnx_backend import onnx_dir

pytest.importorskip("onnxruntime")

SENTENCES = [
    "I'll play tennis tomorrow.",
    "US Open is a tennis tournament.",
    "The rain poured down heavily.",
    "   Leading and trailing spaces are stripped, as sentence-transformers does.  ",
    "A much longer sentence that goes on and on about the weather, the tennis match, the crowd, the umpire and "
    "the rain delay that lasted for more than two hours before play could resume on the centre court. " * 8,
    "Short.",
]


@pytest.fixture(scope="module")
def onnx_cache(tmp_path_factory):
    """A cache folder in which the bundled model has been exported (fp32 and int8) once."""
    cache = tmp_path_factory.mktemp("onnx_cache")
    Embedder(cache_dir=cache, backend="onnx", show_progress=False).encode(SENTENCES[:2])
    return cache


def test_export_lives_in_the_cache_folder_complete_and_alone(onnx_cache):
    folder = onnx_dir(onnx_cache, Embedder().base_model_id)
    names = {p.name for p in folder.iterdir()}
    assert {"model.onnx", "model-int8.onnx", "bpseg_onnx.json", "tokenizer"} <= names
    assert not [p for p in folder.parent.iterdir() if p.name.startswith(".")]  # no temporary folder left
    assert (folder / "model-int8.onnx").stat().st_size < (folder / "model.onnx").stat().st_size / 2


def test_onnx_matches_torch_and_int8_stays_close(onnx_cache, embedder):
    ref = embedder.encode(SENTENCES)
    fp32 = Embedder(cache_dir=onnx_cache, backend="onnx", show_progress=False).encode(SENTENCES)
    int8 = Embedder(cache_dir=onnx_cache, backend="onnx-int8", show_progress=False).encode(SENTENCES)
    assert fp32.shape == int8.shape == ref.shape and fp32.dtype == np.float32
    np.testing.assert_allclose(fp32, ref, atol=1e-4)  # the same network, another runtime
    cos = (int8 * ref).sum(axis=1)
    assert cos.min() > 0.95, cos  # int8 weights: close, not equal
    assert not np.allclose(int8, ref, atol=1e-4)


def test_each_backend_has_its_own_cache_entries(onnx_cache):
    ids = {b: Embedder(cache_dir=onnx_cache, backend=b).model_id for b in ("torch", None, "onnx", "onnx-int8")}
    assert ids["torch"] == ids[None] and len({ids["torch"], ids["onnx"], ids["onnx-int8"]}) == 3
    assert ids["onnx"].startswith(ids["torch"])


def test_exported_model_is_used_without_importing_torch(onnx_cache):
    code = textwrap.dedent(f"""
        import sys
        from bpseg_pgm.embeddings import Embedder
        X = Embedder(cache_dir={str(onnx_cache)!r}, backend="onnx-int8", show_progress=False).encode(["A new one.", "B."])
        assert X.shape == (2, 384)
        print("torch" in sys.modules, "sentence_transformers" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


@pytest.mark.parametrize("backend", ["tensorflow", "ONNX", 1])
def test_unknown_backend(backend):
    with pytest.raises(ValueError, match="backend must be one of"):
        Embedder(backend=backend)


def test_damaged_export_is_a_clear_error(tmp_path):
    folder = onnx_dir(tmp_path, Embedder().base_model_id)
    folder.mkdir(parents=True)
    (folder / "bpseg_onnx.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"cannot load the ONNX export .* \(delete it to export again\)"):
        Embedder(cache_dir=tmp_path, backend="onnx", show_progress=False).encode(["One.", "Two."])


def test_token_counts_do_not_depend_on_the_backend(onnx_cache, embedder):
    onnx = Embedder(cache_dir=onnx_cache, backend="onnx-int8", show_progress=False)
    onnx.encode(SENTENCES[:2])  # the ONNX model is loaded; the tokenizer is still the model's own
    assert onnx.count_tokens(SENTENCES) == embedder.count_tokens(SENTENCES)


def _bogus_inputs(meta):
    meta["inputs"] = [*meta["inputs"], "bogus"]


@pytest.mark.parametrize(
    "damage, match",
    [
        (_bogus_inputs, r"'inputs' must be a list of distinct names.*got \[.*'bogus'\]"),  # issue 22: was a KeyError
        (lambda m: m.update(inputs=["input_ids"]), r"'inputs' is \['input_ids'\], but the graph model.onnx takes"),
        (lambda m: m.pop("dim"), r"has no 'dim'"),
        (lambda m: m.update(max_seq_length="long"), r"'max_seq_length' must be an int >= 1"),
        (lambda m: m.update(dim=17), r"'dim' is 17, but the graph model.onnx gives 384"),
        (lambda m: m.update(model_id="another-model"), r"'model_id' must be"),
        (lambda m: m.clear() or m.update(x=1), r"has no 'inputs'"),
        # issue 36, fault 10: each field checked against the model and its tokenizer
        (lambda m: m.update(pad_id=999999), r"'pad_id' is 999999, but the tokenizer has 30522 tokens"),
        (lambda m: m.update(pad_id=5), r"'pad_id' is 5, but the tokenizer's '\[PAD\]' is 0"),
        (lambda m: m.update(pad_token="[NOPE]"), r"'pad_token' is '\[NOPE\]', which the tokenizer does not know"),
        (lambda m: m.update(max_seq_length=100000), r"'max_seq_length' is 100000, but the model takes at most 512"),
        (lambda m: m.update(max_seq_length=128), r"'max_seq_length' is 128, but the model's is 256"),
        (lambda m: m.update(normalize=False), r"'normalize' is false, but the model's is true"),
        (lambda m: m.update(do_lower_case=True), r"'do_lower_case' is true, but the model's is false"),
    ],
)
def test_damaged_export_description_is_one_clear_error(onnx_cache, tmp_path, damage, match):
    """A description that parses but is wrong is a ValueError naming the field and the folder, before any batch."""
    model_id = Embedder().base_model_id
    folder = onnx_dir(tmp_path, model_id)
    folder.parent.mkdir(parents=True)
    shutil.copytree(onnx_dir(onnx_cache, model_id), folder)
    meta = json.loads((folder / "bpseg_onnx.json").read_text("utf-8"))
    damage(meta)
    (folder / "bpseg_onnx.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ValueError, match=r"cannot load the ONNX export .* \(delete it to export again\)") as info:
        Embedder(cache_dir=tmp_path, backend="onnx", show_progress=False).encode(["One.", "Two."])
    assert str(folder) in str(info.value)
    assert len(str(info.value).splitlines()) == 1
    assert re.search(match, str(info.value)), str(info.value)


def test_model_facts_come_from_the_model_folder_alone(tmp_path):
    from bpseg_pgm.embeddings.embedder import default_model_path
    from bpseg_pgm.embeddings.onnx_backend import model_facts

    assert model_facts(default_model_path()) == {
        "normalize": True,
        "do_lower_case": False,
        "max_seq_length": 256,
        "max_position_embeddings": 512,
    }
    assert model_facts(None) == {} and model_facts(tmp_path) == {}  # nothing stated: nothing checked
    (tmp_path / "modules.json").write_text(
        json.dumps(
            [
                {"idx": 0, "name": "0", "path": "0_Transformer", "type": "sentence_transformers.models.Transformer"},
                {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
            ]
        )
    )
    (tmp_path / "0_Transformer").mkdir()
    (tmp_path / "0_Transformer" / "sentence_bert_config.json").write_text(
        '{"max_seq_length": 128, "do_lower_case": true}'
    )
    (tmp_path / "0_Transformer" / "config.json").write_text('{"max_position_embeddings": 514}')
    assert model_facts(tmp_path) == {
        "normalize": False,
        "do_lower_case": True,
        "max_seq_length": 128,
        "max_position_embeddings": 514,
    }
