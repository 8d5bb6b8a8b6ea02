"""The README's 'Chunks and integrations' example runs as shown, and the files its CLI examples use ship."""

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")


def test_chunks_example_runs(session_cache_dir, monkeypatch, capsys):
    block = re.search(r"## Chunks and integrations.*?```python\n(.*?)```", README, re.S).group(1)
    monkeypatch.setenv("BPSEG_CACHE_DIR", str(session_cache_dir))
    monkeypatch.chdir(ROOT)
    scope = {}
    exec(compile(block, "README chunks", "exec"), scope)  # its asserts check the offsets
    assert len(scope["segs"]) == 2 and scope["segs"][0].text == scope["text"]
    assert capsys.readouterr().out.count("\n") == len(scope["seg"].chunks(max_tokens=128))


def test_files_in_the_command_line_examples_exist():
    block = re.search(r"## Command line\s+```bash\n(.*?)```", README, re.S).group(1)
    files = {w for line in block.splitlines() for w in shlex.split(line.split("#")[0]) if w.endswith(".txt")}
    assert files == {"examples/notes.txt"}
    assert all((ROOT / f).is_file() for f in files)
