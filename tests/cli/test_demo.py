"""``bpseg demo``: the paper's illustrative example, run with no arguments."""

import re

from bpseg_pgm.cli.demo import load_example, run_demo


def test_demo_runs_with_no_arguments_and_groups_the_tennis_sentences(cli_env, run_bpseg):
    proc = run_bpseg(["demo"], cli_env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "k = 3: 3 segments" in proc.stdout
    rows = re.findall(r"^k = (\d)\s+((?:\s*\d)+)\s+(\d+) segments?, tennis together: (yes|no)$", proc.stdout, re.M)
    assert [int(k) for k, *_ in rows] == [2, 3, 4, 5, 6, 7]
    for k, labels, m, tennis in rows:
        labels = labels.split()
        assert len(labels) == 13
        assert int(m) == len(set(labels)) > 1, (k, labels)
        assert tennis == "yes", (k, labels)
        assert labels[4] == labels[9] == labels[12], (k, labels)


def test_demo_options_and_alignment(cli_env, monkeypatch):
    monkeypatch.setenv("BPSEG_CACHE_DIR", cli_env["BPSEG_CACHE_DIR"])
    report = run_demo(4, ks=(2, 4), engine="fast", show_progress=False)
    assert "engine = fast" in report and "init = farthest" in report
    lines = report.splitlines()
    header = next(line for line in lines if line.startswith("sentence "))
    rows = [line for line in lines if re.match(r"k = \d ", line)]
    assert len(rows) == 2
    for row in rows:  # every label sits under its sentence number
        assert [m.end() for m in re.finditer(r"\d+", header)][: len(load_example())] == [
            m.end() for m in re.finditer(r"\d+", row)
        ][1:14]
