"""Bad input, as a table: every row is an input, the surface it goes through, and the error expected.

Surfaces: ``BPSeg`` (the estimator, ``fit`` on a small matrix), ``segment_text``,
``segment_sentences``, ``Embedder`` (the API; each must raise ``ValueError`` matching the
pattern) and ``cli`` (``bpseg`` run in this process; it must return 2 with exactly one
line ``bpseg: error: ...`` on stderr matching the pattern, nothing on stdout, no traceback,
and no file left in the output folder). A new option gets its bad values added here.

Rows on ``BPSeg`` go through the checks from ``bpseg_pgm.utils.validation`` / ``bpseg_pgm.topics.memory``
called from ``BPSeg.fit``.
"""

from __future__ import annotations

import io
import re
import socket
import sys

import numpy as np
import pytest

from bpseg_pgm import BPSeg
from bpseg_pgm.cli import main as cli_main
from bpseg_pgm.embeddings import Embedder
from bpseg_pgm.text.pipeline import segment_sentences, segment_text
from bpseg_pgm.topics import memory as _memory

_rng = np.random.default_rng(0)
X = _rng.standard_normal((8, 5))
X_ZERO_ROW = X.copy()
X_ZERO_ROW[3] = 0
X_NAN = X.copy()
X_NAN[2, 1] = np.nan
X_BIG = _rng.standard_normal((600, 8))
PROSE = "The sun was shining. I'll play tennis tomorrow. Thunder rumbled. The rain poured down."


class _Exploding:
    """An embedder that must never be reached: the input is refused before embedding."""

    model_name = "exploding"

    def encode(self, sentences):
        raise AssertionError("input should have been rejected before embedding")


def _row(row_id, surface, given, expected, *marks):
    return pytest.param(surface, given, expected, id=f"{surface}: {row_id}", marks=marks)


# (surface, input, expected error pattern). For BPSeg the input is (params, X); for segment_text
# (text, kwargs); for segment_sentences (sentences, kwargs); for Embedder (constructor kwargs,
# sentences or None); for cli the argument list, where {ex} is the 13-line example file, {out}
# a file in an empty output folder, {dir} that folder, {input:NAME} a prepared input file.
ROWS = [
    # -- the estimator ---------------------------------------------------------------------
    _row("tol None", "BPSeg", (dict(tol=None), X), r"tol must be"),
    _row("tol text", "BPSeg", (dict(tol="abc"), X), r"tol must be"),
    _row("tol 0", "BPSeg", (dict(tol=0), X), r"tol must be"),
    _row("tol negative", "BPSeg", (dict(tol=-1e-3), X), r"tol must be"),
    _row("tol nan", "BPSeg", (dict(tol=float("nan")), X), r"tol must be"),
    _row("damping None", "BPSeg", (dict(damping=None), X), r"damping must be"),
    _row("damping 1", "BPSeg", (dict(damping=1.0), X), r"damping must be in \[0, 1\)"),
    _row("damping negative", "BPSeg", (dict(damping=-0.1), X), r"damping must be in \[0, 1\)"),
    _row("damping nan", "BPSeg", (dict(damping=float("nan")), X), r"damping must be"),
    _row("seed text", "BPSeg", (dict(init="random", random_state="x", n_segments=2), X), r"random_state must be"),
    _row("seed negative", "BPSeg", (dict(init="random", random_state=-1, n_segments=2), X), r"random_state must be"),
    _row("seed float", "BPSeg", (dict(init="random", random_state=1.5, n_segments=2), X), r"random_state must be"),
    _row("max_iter 0", "BPSeg", (dict(max_iter=0), X), r"max_iter must be an integer >= 1"),
    _row("max_iter float", "BPSeg", (dict(max_iter=2.5), X), r"max_iter must be an integer >= 1"),
    _row("max_iter bool", "BPSeg", (dict(max_iter=True), X), r"max_iter must be an integer >= 1"),
    _row("lam negative", "BPSeg", (dict(lam=-1), X), r"lam must be a finite number >= 0"),
    _row("lam text", "BPSeg", (dict(lam="big"), X), r"lam must be a finite number"),
    _row("lam inf", "BPSeg", (dict(lam=float("inf")), X), r"lam must be a finite number"),
    _row("sigma 0", "BPSeg", (dict(sigma=0), X), r"sigma must be None or a positive number"),
    _row("sigma text", "BPSeg", (dict(sigma="wide"), X), r"sigma must be None or a positive number"),
    _row("engine unknown", "BPSeg", (dict(engine="warp"), X), r"engine must be one of"),
    _row("init unknown", "BPSeg", (dict(init="middle"), X), r"init must be one of"),
    _row("init repeated", "BPSeg", (dict(init=[0, 0]), X), r"distinct"),
    _row("init out of range", "BPSeg", (dict(init=[0, 99]), X), r"representatives must lie in"),
    _row("potentials unknown", "BPSeg", (dict(potentials="nope"), X), r"potentials must be one of"),
    _row("k 0", "BPSeg", (dict(n_segments=0), X), r"n_segments must be a positive int or 'auto', got 0"),
    _row("k above n", "BPSeg", (dict(n_segments=99), X), r"n_segments=99 is larger than the number of sentences"),
    _row("k float", "BPSeg", (dict(n_segments=2.5), X), r"n_segments must be a positive int or 'auto'"),
    _row("em_rounds negative", "BPSeg", (dict(em_rounds=-1), X), r"em_rounds must be None or an integer >= 0"),
    _row("em_rounds with fast", "BPSeg", (dict(engine="fast", em_rounds=1), X), r"no em_rounds"),
    _row("context negative", "BPSeg", (dict(context=-1), X), r"context must be a finite number >= 0"),
    _row("merge_above 2", "BPSeg", (dict(merge_above=2), X), r"merge_above must be None or a number in \[-1, 1\]"),
    _row("neighbors word", "BPSeg", (dict(neighbors="some"), X), r"neighbors must be"),
    _row("neighbors out of range", "BPSeg", (dict(neighbors=[(0, 99)]), X), r"neighbor indices must lie in"),
    _row("X complex", "BPSeg", (dict(n_segments=2), X + 1j), r"must be real numbers, got complex"),
    _row("X NaN", "BPSeg", (dict(n_segments=2), X_NAN), r"contains NaN or inf"),
    _row("X zero row", "BPSeg", (dict(n_segments=2), X_ZERO_ROW), r"row 3 is a zero vector"),
    _row("X 1-D", "BPSeg", (dict(n_segments=2), X[0]), r"must be a 2-D"),
    _row("X empty", "BPSeg", (dict(n_segments=2), np.zeros((0, 5))), r"is empty"),
    _row("X strings", "BPSeg", (dict(n_segments=2), np.array([["a", "b"], ["c", "d"]])), r"numeric"),
    _row("X ragged", "BPSeg", (dict(n_segments=2), [[1.0, 2.0], [3.0]]), r"numeric"),
    _row("reference overflow", "BPSeg", (dict(n_segments=3, lam=1e4, engine="reference"), X), r"reference solver"),
    _row("exact too big", "BPSeg", (dict(n_segments=8, engine="exact", init="all"), X), r"clique table"),
    _row("no memory, complete graph", "BPSeg", (dict(neighbors="all", _free=2**20), X_BIG), r"GiB"),
    _row("no memory, init all", "BPSeg", (dict(init="all", _free=2**20), X_BIG), r"GiB"),
    # -- segment_text / segment_sentences --------------------------------------------------
    _row("bytes", "segment_text", (b"Some bytes. More bytes.", {}), r"text must be a str, got bytes"),
    _row("None", "segment_text", (None, {}), r"text must be a str, got NoneType"),
    _row("empty", "segment_text", ("", {}), r"text is empty"),
    _row("whitespace", "segment_text", (" \n\t ", {}), r"only whitespace"),
    _row("one sentence", "segment_text", ("Just one sentence here.", {}), r"found 1 sentence"),
    _row("one line", "segment_text", ("one line only\n\n", dict(lines=True)), r"found 1 line"),
    _row("lone surrogate", "segment_text", ("Fine here. Broken \ud800 here. Third.", {}), r"lone surrogate"),
    _row("k too large", "segment_text", (PROSE, dict(n_segments=9)), r"larger than the number of sentences"),
    _row("k 0", "segment_text", (PROSE, dict(n_segments=0)), r"n_segments must be a positive int"),
    _row("k word", "segment_text", (PROSE, dict(n_segments="many")), r"n_segments must be a positive int or 'auto'"),
    _row("k bool", "segment_text", (PROSE, dict(n_segments=True)), r"n_segments must be a positive int"),
    _row("a string", "segment_sentences", ("not a list", {}), r"list of str"),
    _row("non-str item", "segment_sentences", (["fine", 3], {}), r"sentence 1 is int, not str"),
    _row("empty item", "segment_sentences", (["fine", "  "], {}), r"sentence 1 is empty"),
    _row("one item", "segment_sentences", (["only one"], {}), r"need at least 2 sentences"),
    _row("surrogate item", "segment_sentences", (["fine", "bad \udc80"], {}), r"sentence 1 contains a lone surrogate"),
    _row(
        "embedder and model",
        "segment_sentences",
        (["a", "b"], dict(model="x", embedder=_Exploding())),
        r"either an embedder or model",
    ),
    # -- the embedder ----------------------------------------------------------------------
    _row("batch_size 0", "Embedder", (dict(batch_size=0), None), r"batch_size must be a positive int"),
    _row("show_progress word", "Embedder", (dict(show_progress="yes"), None), r"show_progress must be"),
    _row("missing model dir", "Embedder", (dict(model="./no/such/model"), None), r"model directory does not exist"),
    _row("blank model", "Embedder", (dict(model="  "), None), r"non-empty str or path"),
    _row("one string", "Embedder", ({}, "a string"), r"list of str, not a single string"),
    _row("no sentences", "Embedder", ({}, []), r"no sentences to embed"),
    _row("None sentence", "Embedder", ({}, ["a", None]), r"sentence 1 is NoneType"),
    _row("surrogate sentence", "Embedder", ({}, ["\ud800"]), r"sentence 0 contains a lone surrogate"),
    # -- the command line ------------------------------------------------------------------
    _row("no command", "cli", [], r"required"),
    _row("missing file", "cli", ["segment", "{dir}/absent.txt"], r"No such file or directory"),
    _row("input is a folder", "cli", ["segment", "{dir}"], r"is a directory, not a text file"),
    _row("empty file", "cli", ["segment", "{input:empty}"], r"text is empty"),
    _row("binary file", "cli", ["segment", "{input:binary}"], r"looks like a binary file"),
    _row("latin-1 file", "cli", ["segment", "{input:latin1}"], r"is not valid UTF-8 \(byte 0xe9"),
    _row(
        "over --max-bytes", "cli", ["segment", "{ex}", "--max-bytes", "100"], r"larger than --max-bytes \(100 bytes\)"
    ),
    _row("--max-bytes 0", "cli", ["segment", "{ex}", "--max-bytes", "0"], r"expected a size in bytes"),
    _row("--max-bytes word", "cli", ["segment", "{ex}", "--max-bytes", "lots"], r"expected a size in bytes"),
    _row("-k 0", "cli", ["segment", "{ex}", "-k", "0"], r"must be a positive integer"),
    _row("-k word", "cli", ["segment", "{ex}", "-k", "abc"], r"invalid int value"),
    _row("-k too large", "cli", ["segment", "{ex}", "--lines", "-k", "20"], r"larger than the number of sentences"),
    _row("--engine unknown", "cli", ["segment", "{ex}", "--engine", "warp"], r"invalid choice"),
    _row(
        "--lam negative",
        "cli",
        ["segment", "{ex}", "--lines", "--lam", "-1"],
        r"--lam: expected none or a number >= 0, got '-1'",
    ),
    _row("--lam nan", "cli", ["segment", "{ex}", "--lines", "--lam", "nan"], r"--lam: expected none or a number >= 0"),
    _row("--lam word", "cli", ["segment", "{ex}", "--lam", "big"], r"--lam: expected none or a number >= 0"),
    _row("--tol 0", "cli", ["segment", "{ex}", "--lines", "--tol", "0"], r"--tol: expected a number > 0"),
    _row("--tol nan", "cli", ["segment", "{ex}", "--lines", "--tol", "nan"], r"--tol: expected a number > 0"),
    _row(
        "--damping 1",
        "cli",
        ["segment", "{ex}", "--lines", "--damping", "1"],
        r"--damping: expected a number in \[0, 1\)",
    ),
    _row("--damping negative", "cli", ["segment", "{ex}", "--lines", "--damping", "-0.5"], r"--damping: expected a"),
    _row(
        "--max-iter 0",
        "cli",
        ["segment", "{ex}", "--lines", "--max-iter", "0"],
        r"--max-iter: expected none or an integer >= 1",
    ),
    _row(
        "--em-rounds negative",
        "cli",
        ["segment", "{ex}", "--lines", "--em-rounds", "-1"],
        r"--em-rounds: expected none or",
    ),
    _row(
        "--sigma 0",
        "cli",
        ["segment", "{ex}", "--lines", "--sigma", "0"],
        r"--sigma: expected auto, none or a number > 0",
    ),
    _row(
        "--sigma word", "cli", ["segment", "{ex}", "--sigma", "wide"], r"--sigma: expected auto, none or a number > 0"
    ),
    _row(
        "--context negative",
        "cli",
        ["segment", "{ex}", "--context", "-1"],
        r"--context: expected auto or a number >= 0",
    ),
    _row(
        "--merge-above 2",
        "cli",
        ["segment", "{ex}", "--merge-above", "2"],
        r"--merge-above: expected none or a number in \[-1, 1\]",
    ),
    _row(
        "--seed negative",
        "cli",
        ["segment", "{ex}", "--lines", "--init", "random", "--seed", "-1"],
        r"--seed: expected none or an integer >= 0",
    ),
    _row(
        "--engine reference, huge lam",
        "cli",
        [
            "segment",
            "{ex}",
            "--lines",
            "-k",
            "3",
            "--engine",
            "reference",
            "--lam",
            "1e308",
            "--format",
            "json",
            "-o",
            "{out}",
        ],
        r"reference solver",
    ),
    _row(
        "--engine exact, large k",
        "cli",
        ["segment", "{ex}", "--lines", "-k", "13", "--engine", "exact"],
        r"clique table",
    ),
    _row(
        "--model missing dir",
        "cli",
        ["segment", "{ex}", "--model", "./no/such/model"],
        r"model directory does not exist",
    ),
    _row(
        "-o missing folder",
        "cli",
        ["segment", "{ex}", "-o", "{dir}/missing/out.txt"],
        r"output directory does not exist",
    ),
    _row("-o a folder", "cli", ["segment", "{ex}", "-o", "{dir}"], r"is a directory"),
    _row("-o read-only file", "cli", ["segment", "{ex}", "-o", "{input:readonly}"], r"it is read-only \(mode 0444\)"),
    _row("-o a socket", "cli", ["segment", "{ex}", "-o", "{input:socket}"], r"it is a socket"),
    _row("-o empty", "cli", ["segment", "{ex}", "-o", ""], r"output path is empty"),
    _row("stdin closed", "cli", ["segment", "-", "{stdin:closed}"], r"standard input is closed"),
    _row("stdin binary", "cli", ["segment", "-", "{stdin:binary}"], r"standard input looks like a binary file"),
    _row("stdin empty", "cli", ["segment", "-", "{stdin:empty}"], r"text is empty"),
    _row("demo -k 0", "cli", ["demo", "-k", "0"], r"must be a positive integer"),
    _row("demo unknown option", "cli", ["demo", "--format", "json"], r"unrecognized arguments"),
]

_INPUTS = {
    "empty": b"",
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    "latin1": "Café au lait. Très bien. Merci.".encode("latin-1"),
}
_STDIN = {"binary": b"text then \x00 binary", "empty": b""}


def test_the_table_is_large_enough():
    assert len(ROWS) >= 50
    assert {p.values[0] for p in ROWS} == {"BPSeg", "segment_text", "segment_sentences", "Embedder", "cli"}


def _api(surface, given, monkeypatch, tmp_path):
    if surface == "BPSeg":
        params, data = given
        params = dict(params)
        free = params.pop("_free", None)
        if free is not None:  # pretend memory is short, and fail fast if the fit allocates before checking
            from bpseg_pgm.topics import fit

            def too_late(*a, **kw):
                raise AssertionError("edges were built before the memory check")

            monkeypatch.setattr(_memory, "available_bytes", lambda: free)
            monkeypatch.setattr(fit, "resolve_edges", too_late)
            monkeypatch.setattr(fit, "auto_pairs", too_late)
        BPSeg(**params).fit(data)
    elif surface == "segment_text":
        text, kw = given
        segment_text(text, **{"embedder": _Exploding(), **kw})
    elif surface == "segment_sentences":
        sentences, kw = given
        segment_sentences(sentences, **({"embedder": _Exploding()} | kw))
    elif surface == "Embedder":
        kw, sentences = given
        emb = Embedder(**{"cache_dir": tmp_path / "cache", **kw})
        if sentences is not None:
            emb.encode(sentences)
    else:  # pragma: no cover
        raise AssertionError(surface)


def _cli_argv(argv, work, example_file, monkeypatch, request):
    out_dir = work / "out"
    out_dir.mkdir()
    result = []
    for arg in argv:
        if arg.startswith("{stdin:"):
            what = arg[len("{stdin:") : -1]
            monkeypatch.setattr(sys, "stdin", None if what == "closed" else io.TextIOWrapper(io.BytesIO(_STDIN[what])))
            continue
        if arg.startswith("{input:"):
            name = arg[len("{input:") : -1]
            path = work / name
            if name == "readonly":
                path.write_text("precious")
                path.chmod(0o444)
            elif name == "socket":
                sock = socket.socket(socket.AF_UNIX)
                request.addfinalizer(sock.close)
                sock.bind(str(path))
            else:
                path.write_bytes(_INPUTS[name])
            arg = str(path)
        result.append(arg.format(ex=example_file, out=out_dir / "out.txt", dir=out_dir))
    return result, out_dir


@pytest.mark.parametrize("surface, given, expected", ROWS)
def test_bad_input(surface, given, expected, cli_env, example_file, tmp_path, monkeypatch, capsys, request):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    if surface != "cli":
        with pytest.raises(ValueError) as exc:
            _api(surface, given, monkeypatch, tmp_path)
        assert re.search(expected, str(exc.value)), str(exc.value)
        return
    argv, out_dir = _cli_argv(given, tmp_path, example_file, monkeypatch, request)
    try:
        code = cli_main.main(argv)
    except SystemExit as stop:  # usage errors leave through argparse
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bpseg: error: "), err
    assert re.search(expected, lines[0]), lines[0]
    assert out == ""
    assert list(out_dir.iterdir()) == []
