"""Embedder.count_tokens reads the model's tokenizer.json with `tokenizers` alone: the same counts as the
transformers tokenizer, without importing transformers (the first chunks() call no longer waits seconds)."""

import subprocess
import sys

TEXTS = [
    "Hello world, this is a test. 😀 e\u0301 日本語の文",
    "",
    "Short.",
    "A " * 600,
    "\ufeffBOM\r\nline",
    "don't stop-believing U.S.A. 3.14",
]


def test_counts_equal_the_transformers_tokenizer(embedder):
    ids = embedder.tokenizer(TEXTS, add_special_tokens=True, truncation=False)["input_ids"]
    assert embedder.count_tokens(TEXTS) == [len(row) for row in ids]
    assert embedder.count_tokens(["A " * 600])[0] == 602  # no truncation at the model's window


def test_counting_does_not_import_transformers():
    code = (
        "import sys; from bpseg_pgm.embeddings import Embedder; n = Embedder().count_tokens(['Hello there.']); "
        "print(n[0], 'transformers' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["5", "False"]
