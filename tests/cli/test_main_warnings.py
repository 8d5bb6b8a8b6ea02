"""Warnings that are not bpseg's own are printed when the run ends, one line each, whether it succeeds or fails:
before the one error line when it fails (the library call is replaced here: no model, no embeddings)."""

from __future__ import annotations

import warnings
from types import SimpleNamespace

import pytest

import bpseg_pgm.text.pipeline
from bpseg_pgm.cli import commands
from bpseg_pgm.cli import main as cli_main


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_text("One sentence here. Another one there. A third.", encoding="utf-8")
    return path


def _segment_that_warns(fails: bool):
    def segment_text(text, *args, **kwargs):
        warnings.warn("overflow encountered in exp\n  (a library notice)", RuntimeWarning, stacklevel=1)
        warnings.warn("a second notice", UserWarning, stacklevel=1)
        if fails:
            raise ValueError("the fit failed\nafter the warnings")
        return "a segmentation"

    return segment_text


@pytest.mark.parametrize("fails", [True, False])
def test_deferred_warnings_are_printed_before_the_error_line_as_on_success(fails, text_file, monkeypatch, capsys):
    monkeypatch.setattr(bpseg_pgm.text.pipeline, "segment_text", _segment_that_warns(fails))
    rendered = SimpleNamespace(render=lambda seg, **kw: f"{seg}\n")
    monkeypatch.setattr(commands, "_chosen_format", lambda args, kind: (rendered, {}))
    code = cli_main.main(["segment", str(text_file), "--quiet"])
    out, err = capsys.readouterr()
    notices = [
        "bpseg: warning: overflow encountered in exp (a library notice)",
        "bpseg: warning: a second notice",
    ]
    if fails:
        assert code == 2 and out == ""
        assert err.splitlines() == [*notices, "bpseg: error: the fit failed after the warnings"]
    else:
        assert code == 0 and out == "a segmentation\n"
        assert err.splitlines() == notices
