"""Counting a text's tokens in the model's own tokenizer: what the model's window limits (a mix-in of
:class:`~bpseg_pgm.embeddings.embedder.Embedder`)."""

from __future__ import annotations

from typing import Iterable

from bpseg_pgm.embeddings.model_files import _quiet_loading, _transformer_dirs
from bpseg_pgm.utils.validation import check_str_list

__all__ = ["TokenCounting"]

_NOT_STR = "{name} is {type}, not str"
#: The fast counter not looked for yet.
NOT_LOADED = object()


class TokenCounting:
    """:meth:`count_tokens` and :attr:`tokenizer` for an embedder with ``_path``, ``model_name``, ``backend``,
    ``_model``, ``_tokenizer`` and ``_counter`` (``NOT_LOADED`` until the fast counter is looked for)."""

    @property
    def tokenizer(self):
        """The model's own tokenizer: the loaded model's if it is loaded, else loaded alone (no weights, no torch)."""
        if self._tokenizer is None:
            loaded = self._model is not None and self.backend == "torch"  # an ONNX encoder has none
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
        """The model's ``tokenizer.json`` loaded with ``tokenizers`` alone (no ``transformers`` import), no
        truncation or padding; None when the model has none."""
        if self._counter is NOT_LOADED:
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

        That is what the model's window (``max_seq_length``, 256 for all-MiniLM-L6-v2) limits: a text longer than that
        is truncated when embedded.  Counted with the model's ``tokenizer.json`` through ``tokenizers`` when it has
        one (the same tokenizer ``transformers`` would load), else with :attr:`tokenizer`.
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
