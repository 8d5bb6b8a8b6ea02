"""Reading a ``.rst`` reads nothing but its text: no other file, no network, no docutils configuration file (whose
values would turn file insertion back on), and nested substitutions do not make the reader run for minutes."""

import http.server
import json
import os
import subprocess
import sys
import threading
from contextlib import contextmanager

import pytest
from deadline import deadline

from bpseg_pgm.structure.rst import _parse, looks_like_rst, rst_structure

SECRET = "SECRETWORD42"
CONFIG = "[general]\nfile_insertion_enabled: true\nraw_enabled: true\n"


def _texts(tmp_path, port: int) -> dict[str, str]:
    """One text per directive that could read a file or the network, each between two titles."""
    secret = tmp_path / "secret.txt"
    secret.write_text(f"Secret\n======\n\n{SECRET} is here.\n", encoding="utf-8")
    table = tmp_path / "t.csv"
    table.write_text(f"a,{SECRET}\n", encoding="utf-8")
    directives = {
        "include": f".. include:: {secret}",
        "include literal": f".. include:: {secret}\n   :literal:",
        "raw file": f".. raw:: html\n   :file: {secret}",
        "raw url": f".. raw:: html\n   :url: http://127.0.0.1:{port}/r.html",
        "csv-table file": f".. csv-table:: From a file\n   :file: {table}",
        "csv-table url": f".. csv-table:: From the network\n   :url: http://127.0.0.1:{port}/t.csv",
        "image": f".. image:: http://127.0.0.1:{port}/i.png\n   :scale: 50",
        "figure": f".. figure:: {secret}\n   :scale: 50\n\n   A caption.",
    }
    return {
        name: f"Title\n=====\n\n{body}\n\nOther\n=====\n\nStocks fell. Banks sold.\n"
        for name, body in directives.items()
    }


@contextmanager
def _server():
    """A local HTTP server counting the requests it gets (each answered with a small CSV naming the secret)."""
    hits = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            body = f"a,{SECRET}\n".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield server.server_address[1], hits
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def no_proxy(monkeypatch):
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")


@pytest.mark.parametrize("where", ["cwd", "DOCUTILSCONFIG", "home"])
def test_a_configuration_file_does_not_enable_file_insertion_or_raw(where, tmp_path, monkeypatch, no_proxy):
    conf = tmp_path / "conf"
    conf.mkdir()
    if where == "cwd":
        (conf / "docutils.conf").write_text(CONFIG, encoding="utf-8")
        monkeypatch.chdir(conf)
    elif where == "DOCUTILSCONFIG":
        (conf / "my.conf").write_text(CONFIG, encoding="utf-8")
        monkeypatch.setenv("DOCUTILSCONFIG", str(conf / "my.conf"))
        monkeypatch.chdir(tmp_path)
    else:
        (conf / ".docutils").write_text(CONFIG, encoding="utf-8")
        monkeypatch.setenv("HOME", str(conf))
        monkeypatch.delenv("DOCUTILSCONFIG", raising=False)
        monkeypatch.chdir(tmp_path)
    faults = {}
    with _server() as (port, hits):
        for name, text in _texts(tmp_path, port).items():
            problems = []
            try:
                doc = _parse(text)
                headings = [text[a:b] for a, b in rst_structure(text).headings]
                if SECRET in doc.astext():
                    problems.append("read the file")
                if headings != ["Title", "Other"]:
                    problems.append(f"headings {headings}")
            except ValueError as exc:
                problems.append(str(exc))
            if hits:
                problems.append(f"requested {hits}")
                hits.clear()
            if problems:
                faults[name] = problems
    assert not faults, json.dumps(faults, indent=1)


_AUDIT = """
import json, sys
events = []
def hook(event, args):
    if event == "open" and isinstance(args[0], str) and not args[0].endswith((".py", ".pyc")):
        events.append(["open", args[0]])
    elif event.startswith(("socket.", "urllib.")):
        events.append([event, repr(args)[:200]])
sys.addaudithook(hook)
from bpseg_pgm.structure.rst import rst_structure
texts = json.load(open(sys.argv[1], encoding="utf-8"))
out = {}
for name, text in texts.items():
    n = len(events)
    try:
        heads = len(rst_structure(text).headings)
    except ValueError as exc:
        heads = str(exc)
    out[name] = {"events": events[n:], "headings": heads}
print(json.dumps(out))
"""


def test_reading_rst_opens_no_file_and_no_socket(tmp_path, no_proxy):
    """With a ``docutils.conf`` in the working directory, ``$DOCUTILSCONFIG`` and ``~/.docutils``: the reader opens
    none of them, none of the files the text names, and no connection (a Python audit hook, in a subprocess)."""
    for name in ("docutils.conf", "env.conf", ".docutils"):
        (tmp_path / name).write_text(CONFIG, encoding="utf-8")
    with _server() as (port, hits):
        doc = tmp_path / "texts.json"
        doc.write_text(json.dumps(_texts(tmp_path, port)), encoding="utf-8")
        env = dict(os.environ, HOME=str(tmp_path), DOCUTILSCONFIG=str(tmp_path / "env.conf"))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), *sys.path) if p)
        proc = subprocess.run(
            [sys.executable, "-c", _AUDIT, str(doc)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )
    assert proc.returncode == 0, proc.stderr
    faults = {}
    for name, out in json.loads(proc.stdout.strip().splitlines()[-1]).items():
        touched = [
            e
            for e in out["events"]
            if e[0] != "open"
            or str(tmp_path) in e[1]
            or not os.path.isabs(e[1])
            or e[1].endswith(("docutils.conf", ".docutils"))
        ]
        if touched or out["headings"] != 2:
            faults[name] = out
    assert not faults, json.dumps(faults, indent=1)
    assert hits == []


def _nested(levels: int) -> str:
    defs = "".join(f".. |a{i}| replace:: |a{i + 1}| |a{i + 1}|\n" for i in range(levels))
    return f"Title\n=====\n\nUse |a0| here.\n\n{defs}.. |a{levels}| replace:: x\n\nOther\n=====\n\nStocks fell.\n"


def test_nested_substitutions_are_read_in_seconds():
    text = _nested(22)  # 2**22 copies once expanded: docutils' expansion alone would take hours
    assert len(text) < 1000
    with deadline(10):
        s = rst_structure(text)
        assert looks_like_rst(text)
    assert [text[a:b] for a, b in s.headings] == ["Title", "Other"]
    assert "Use |a0| here." in s.view  # the reference is left as written
    assert "replace::" not in s.view  # the definitions are blanked as before
