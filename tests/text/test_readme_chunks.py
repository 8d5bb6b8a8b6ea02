"""The chunks example of the docs' RAG guide (once the README's 'Chunks and integrations') runs as shown, and the
files the command-line examples of the README and the docs use ship with the repository."""

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RAG = (ROOT / "docs" / "howto" / "rag.md").read_text("utf-8")


def test_chunks_example_runs(session_cache_dir, monkeypatch, capsys):
    block = re.search(r"```python\n(.*?)```", RAG, re.S).group(1)
    assert "assert text[c.start : c.end] == c.text" in block
    monkeypatch.setenv("BPSEG_CACHE_DIR", str(session_cache_dir))
    monkeypatch.chdir(ROOT)
    scope = {}
    exec(compile(block, "docs/howto/rag.md chunks", "exec"), scope)  # its asserts check the offsets
    assert len(scope["segs"]) == 2 and scope["segs"][0].text == scope["text"]
    assert capsys.readouterr().out.count("\n") == len(scope["seg"].chunks(max_tokens=128))


@pytest.mark.parametrize(
    ("page", "heading"),
    [
        ("README.md", "## Command line"),
        ("docs/index.md", "## Command line"),
        ("docs/command-line.md", "# The command line"),
    ],
)
def test_files_in_the_command_line_examples_exist(page, heading):
    text = (ROOT / page).read_text("utf-8")
    block = re.search(re.escape(heading) + r"\s+.*?```bash\n(.*?)```", text, re.S).group(1)
    files = {w for line in block.splitlines() for w in shlex.split(line.split("#")[0]) if w.endswith(".txt")}
    assert files == {"examples/notes.txt"}
    assert all((ROOT / f).is_file() for f in files)
