"""Importing the text layer loads nothing heavy: scikit-learn, torch, pgmpy, numba and scipy load when used.

Each check runs a fresh interpreter, so that ``sys.modules`` shows what that import alone loads.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

#: What ``import bpseg_pgm`` and ``from bpseg_pgm.text import segment_text`` must not load (seconds each).
HEAVY = (
    "sklearn",
    "torch",
    "sentence_transformers",
    "transformers",
    "pgmpy",
    "numba",
    "scipy",
    "pandas",
    "onnxruntime",
    "tqdm",
    "markdown_it",
)


def _loaded_after(statement: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    code = f"import sys\n{statement}\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r})))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return eval(proc.stdout)  # a printed list of names


@pytest.mark.parametrize(
    "statement",
    [
        "import bpseg_pgm",
        "from bpseg_pgm.text import segment_text",
        "from bpseg_pgm.text import Segmentation, chunk_texts, split_sentences",
        "from bpseg_pgm.keywords import class_keywords, keyword_tokens",
        "from bpseg_pgm.features import Units",
    ],
)
def test_importing_loads_no_heavy_module(statement):
    assert _loaded_after(statement) == []


def test_the_command_lines_engine_choices_load_no_heavy_module():
    # scipy.special (logsumexp) is the engines' one import; networkx, pgmpy and numba load with the engine used
    statement = "from bpseg_pgm.inference.engines import engine_names; engine_names()"
    assert _loaded_after(statement, tuple(m for m in HEAVY if m != "scipy") + ("networkx",)) == []


def test_the_lazy_names_still_resolve():
    from sklearn.base import BaseEstimator

    from bpseg_pgm.keywords import STOP_WORDS, ClassTfidfTransformer
    from bpseg_pgm.keywords.ctfidf import ClassTfidfTransformer as same
    from bpseg_pgm.keywords.stopwords import STOP_WORDS as words

    assert same is ClassTfidfTransformer and issubclass(ClassTfidfTransformer, BaseEstimator)
    assert words is STOP_WORDS and {"the", "yeah", "don"} <= STOP_WORDS
    with pytest.raises(ImportError, match="cannot import name 'nothing'"):
        from bpseg_pgm.keywords import nothing  # noqa: F401
