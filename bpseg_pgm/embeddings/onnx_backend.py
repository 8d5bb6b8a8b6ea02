"""Sentence embeddings with ONNX Runtime instead of PyTorch: the model exported once, then run on CPU.

``Embedder(backend="onnx")`` (or ``"onnx-int8"``, its weights dynamically quantized to int8) runs the model's
transformer with onnxruntime and does the sentence-transformers mean pooling and normalisation in NumPy (not
sentence-transformers' own ONNX backend: docs/research/embedding-backends.md says why).

The first use of a model exports it into ``<cache>/onnx/<model key>/`` (the graphs, the tokenizer and
``bpseg_onnx.json``), built beside its final place and renamed into it, so a half-exported model is never used;
later runs load it without importing torch. Loading checks the description (:func:`check_description`,
:func:`check_against_model`): a damaged one is one ``ValueError`` naming the field and the folder. Only
Transformer + mean Pooling (+ Normalize) models are supported; others are a ``ValueError``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

import numpy as np

__all__ = [
    "BACKENDS",
    "OnnxEncoder",
    "check_against_model",
    "check_backend",
    "check_description",
    "model_facts",
    "onnx_dir",
]

BACKENDS = ("torch", "onnx", "onnx-int8")
_META = "bpseg_onnx.json"
_GRAPHS = {"onnx": "model.onnx", "onnx-int8": "model-int8.onnx"}
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def check_backend(backend: Any) -> str:
    """``backend`` if it is one of :data:`BACKENDS` (None means "torch"), else a ValueError."""
    if backend is None:
        return "torch"
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    if backend != "torch":
        try:
            import onnxruntime  # noqa: F401
        except ImportError:
            raise ValueError(f"backend {backend!r} needs onnxruntime: pip install 'bpseg_pgm[onnx]'") from None
    return backend


def onnx_dir(cache_dir: Path, model_id: str) -> Path:
    """Where the ONNX export of the model ``model_id`` lives under the cache folder."""
    return cache_dir / "onnx" / hashlib.sha256(model_id.encode()).hexdigest()[:16]


def _mean_pooling_only(st_model) -> bool:
    """True if the model is Transformer -> mean Pooling [-> Normalize] (what the NumPy side reproduces)."""
    names = [type(m).__name__ for m in st_model]
    if names not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
        return False
    pooling = st_model[1]
    mode = getattr(pooling, "pooling_mode", None) or (
        "mean" if getattr(pooling, "pooling_mode_mean_tokens", False) else None
    )
    return mode == "mean"


def export(st_model, dest: Path, model_id: str) -> None:
    """Export a loaded SentenceTransformer's transformer to ``dest`` (fp32 and int8), atomically."""
    import torch

    if not _mean_pooling_only(st_model):
        raise ValueError(
            "the ONNX backends support Transformer + mean Pooling (+ Normalize) models only; "
            "use backend='torch' for this model"
        )
    transformer = st_model[0]
    hf = transformer.auto_model.eval()
    tokenizer = transformer.tokenizer
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}.", suffix=".tmp"))
    try:
        sample = tokenizer(
            ["An example sentence.", "A second, rather longer example sentence to export."],
            padding=True,
            return_tensors="pt",
        )
        names = [n for n in _INPUTS if n in sample]

        class _LastHidden(torch.nn.Module):
            def __init__(self, model):
                super().__init__()
                self.model = model

            def forward(self, *args):
                return self.model(**dict(zip(names, args))).last_hidden_state

        axes = {n: {0: "batch", 1: "tokens"} for n in [*names, "last_hidden_state"]}
        import warnings

        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")  # the tracer's notes on the mask code: checked against torch in the tests
            torch.onnx.export(
                _LastHidden(hf),
                tuple(sample[n] for n in names),
                str(tmp / _GRAPHS["onnx"]),
                input_names=names,
                output_names=["last_hidden_state"],
                dynamic_axes=axes,
                opset_version=17,
                dynamo=False,
            )
        from onnxruntime.quantization import QuantType, quantize_dynamic

        # per-channel, reduced range: plain u8 x s8 saturates on CPUs without VNNI (AVX2), cosine to fp32 0.96 -> 0.99
        quantize_dynamic(
            str(tmp / _GRAPHS["onnx"]),
            str(tmp / _GRAPHS["onnx-int8"]),
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,
        )
        tokenizer.save_pretrained(str(tmp / "tokenizer"))
        dimension = getattr(st_model, "get_embedding_dimension", None) or st_model.get_sentence_embedding_dimension
        meta = {
            "model_id": model_id,
            "inputs": names,
            "max_seq_length": int(transformer.max_seq_length),
            "dim": int(dimension()),
            "normalize": type(st_model[-1]).__name__ == "Normalize",
            "do_lower_case": bool(getattr(transformer, "do_lower_case", False)),
            "pad_id": int(tokenizer.pad_token_id or 0),
            "pad_token": str(tokenizer.pad_token or "[PAD]"),
        }
        (tmp / _META).write_text(json.dumps(meta, indent=2), encoding="utf-8")
        try:
            os.rename(tmp, dest)
        except OSError:
            if not (dest / _META).is_file():  # another process exported it meanwhile: use theirs
                raise
    finally:
        with contextlib.suppress(OSError):
            shutil.rmtree(tmp)


def _is_int(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def check_description(meta: Any, model_id: str | None = None) -> dict:
    """The export's description (``bpseg_onnx.json``) if every field the encoder reads is there and well
    formed, else a ValueError naming the first bad field (the folder must then be deleted and exported again)."""
    if not isinstance(meta, dict):
        raise ValueError(f"{_META} must hold a JSON object, got {type(meta).__name__}")
    checks = {
        "inputs": (
            lambda v: (
                isinstance(v, list)
                and "input_ids" in v
                and len(set(v)) == len(v)
                and all(isinstance(n, str) and n in _INPUTS for n in v)
            ),
            f"a list of distinct names among {_INPUTS}, input_ids included",
        ),
        "max_seq_length": (lambda v: _is_int(v, 1), "an int >= 1"),
        "dim": (lambda v: _is_int(v, 1), "an int >= 1"),
        "normalize": (lambda v: isinstance(v, bool), "true or false"),
        "do_lower_case": (lambda v: isinstance(v, bool), "true or false"),
        "pad_id": (lambda v: _is_int(v, 0), "an int >= 0"),
        "pad_token": (lambda v: isinstance(v, str) and bool(v), "a non-empty str"),
        "model_id": (
            lambda v: isinstance(v, str) and (model_id is None or v == model_id),
            "a str" if model_id is None else f"{model_id!r}",
        ),
    }
    for key, (ok, expected) in checks.items():
        if key not in meta:
            raise ValueError(f"{_META} has no {key!r}")
        if not ok(meta[key]):
            raise ValueError(f"{_META}: {key!r} must be {expected}, got {meta[key]!r}")
    return meta


def _read_json(path: Path) -> Any:
    """The JSON in ``path``, or None when it is absent or unreadable (a fact not known is not checked)."""
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


def model_facts(model_dir: str | os.PathLike | None) -> dict:
    """What a sentence-transformers model folder says about the fields of the export's description, read from its
    small JSON files alone (no torch): ``normalize`` (a Normalize module in ``modules.json``), ``do_lower_case`` and
    ``max_seq_length`` (``sentence_bert_config.json``), ``max_position_embeddings`` (the Transformer's
    ``config.json``).  A fact the folder does not state is left out, and is then not checked."""
    facts: dict[str, Any] = {}
    if model_dir is None:
        return facts
    root = Path(model_dir)
    modules = _read_json(root / "modules.json")
    transformer = root
    if isinstance(modules, list) and all(isinstance(m, dict) for m in modules):
        types = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
        facts["normalize"] = "Normalize" in types
        for m, kind in zip(modules, types):
            if kind == "Transformer" and isinstance(m.get("path"), str):
                transformer = root / m["path"]
                break
    config = _read_json(transformer / "sentence_bert_config.json")
    if not isinstance(config, dict):
        config = _read_json(root / "sentence_bert_config.json")
    if isinstance(config, dict):
        do_lower_case = config.get("do_lower_case", False)
        if isinstance(do_lower_case, bool):
            facts["do_lower_case"] = do_lower_case
        if _is_int(config.get("max_seq_length"), 1):
            facts["max_seq_length"] = config["max_seq_length"]
    hf = _read_json(transformer / "config.json")
    if isinstance(hf, dict) and _is_int(hf.get("max_position_embeddings"), 1):
        facts["max_position_embeddings"] = hf["max_position_embeddings"]
    return facts


def check_against_model(meta: dict, tokenizer: Any, facts: dict) -> None:
    """The description's fields checked against the model they describe: ``pad_id`` and ``pad_token`` against the
    exported tokenizer (a token of its vocabulary, the one named), ``max_seq_length``, ``normalize`` and
    ``do_lower_case`` against the model folder's own files (:func:`model_facts`).  A ValueError naming the first
    field that disagrees (an ``onnxruntime`` index error or a silently different embedding otherwise)."""
    vocab = tokenizer.get_vocab_size(with_added_tokens=True)
    if meta["pad_id"] >= vocab:
        raise ValueError(
            f"{_META}: 'pad_id' is {meta['pad_id']}, but the tokenizer has {vocab} tokens (ids 0 to {vocab - 1})"
        )
    pad = tokenizer.token_to_id(meta["pad_token"])
    if pad is None:
        raise ValueError(f"{_META}: 'pad_token' is {meta['pad_token']!r}, which the tokenizer does not know")
    if pad != meta["pad_id"]:
        raise ValueError(f"{_META}: 'pad_id' is {meta['pad_id']}, but the tokenizer's {meta['pad_token']!r} is {pad}")
    limit = facts.get("max_position_embeddings")
    if limit is not None and meta["max_seq_length"] > limit:
        raise ValueError(
            f"{_META}: 'max_seq_length' is {meta['max_seq_length']}, but the model takes at most "
            f"{limit} tokens (max_position_embeddings)"
        )
    for key in ("max_seq_length", "normalize", "do_lower_case"):
        if key in facts and meta[key] != facts[key]:
            raise ValueError(
                f"{_META}: {key!r} is {json.dumps(meta[key])}, but the model's is {json.dumps(facts[key])}"
            )


class OnnxEncoder:
    """The part of SentenceTransformer that :class:`~bpseg_pgm.embeddings.Embedder` uses, on ONNX Runtime.

    The export's description is checked when it is loaded (:func:`check_description`, :func:`check_against_model`
    against the model folder ``model_dir`` when given, its ``inputs`` and ``dim`` against the graph's), so a damaged
    one is a ValueError here, not an onnxruntime error at the first batch or other embeddings.
    """

    #: called with the number of texts after each batch of :meth:`encode` (the embedding bar's progress), or None
    on_batch: Callable[[int], None] | None = None

    def __init__(
        self,
        folder: Path,
        backend: str,
        threads: int | None = None,
        model_id: str | None = None,
        model_dir: str | os.PathLike | None = None,
    ):
        import onnxruntime as ort
        from tokenizers import Tokenizer  # the fast tokenizer's own library: transformers would import torch

        self.meta = check_description(json.loads((folder / _META).read_text("utf-8")), model_id)
        self.max_seq_length = self.meta["max_seq_length"]
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer" / "tokenizer.json"))
        check_against_model(self.meta, self._tokenizer, model_facts(model_dir))
        self._tokenizer.enable_truncation(max_length=self.max_seq_length)
        self._tokenizer.enable_padding(pad_id=self.meta["pad_id"], pad_token=self.meta["pad_token"])
        options = ort.SessionOptions()
        if threads is not None:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(folder / _GRAPHS[backend]), options, providers=["CPUExecutionProvider"])
        graph_inputs = sorted(i.name for i in self.session.get_inputs())
        if graph_inputs != sorted(self.meta["inputs"]):
            raise ValueError(
                f"{_META}: 'inputs' is {self.meta['inputs']!r}, but the graph {_GRAPHS[backend]} takes {graph_inputs!r}"
            )
        dim = self.session.get_outputs()[0].shape[-1]
        if isinstance(dim, int) and dim != self.meta["dim"]:
            raise ValueError(f"{_META}: 'dim' is {self.meta['dim']}, but the graph {_GRAPHS[backend]} gives {dim}")

    def get_sentence_embedding_dimension(self) -> int:
        return self.meta["dim"]

    def _batch(self, texts: list[str]) -> np.ndarray:
        if self.meta.get("do_lower_case"):
            texts = [t.lower() for t in texts]
        encodings = self._tokenizer.encode_batch(texts)
        arrays = {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }
        hidden = self.session.run(None, {n: arrays[n] for n in self.meta["inputs"]})[0]
        mask = arrays["attention_mask"].astype(np.float32)[:, :, None]
        emb = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        if self.meta["normalize"]:
            emb = emb / np.clip(np.linalg.norm(emb, axis=1, keepdims=True), 1e-12, None)
        return emb.astype(np.float32)

    def encode(self, sentences: list[str], batch_size: int = 32, **_: Any) -> np.ndarray:
        """Embeddings of ``sentences`` in order; batches of similar length, as sentence-transformers makes them."""
        texts = [str(s).strip() for s in sentences]
        order = np.argsort([-len(t) for t in texts], kind="stable")
        out = np.empty((len(texts), self.meta["dim"]), dtype=np.float32)
        for start in range(0, len(texts), batch_size):
            idx = order[start : start + batch_size]
            out[idx] = self._batch([texts[i] for i in idx])
            if self.on_batch is not None:
                self.on_batch(len(idx))
        return out
