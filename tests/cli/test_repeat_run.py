"""A repeat ``bpseg segment`` of a cached text loads no model: no torch, no sentence-transformers, no pgmpy.

The model, torch and sentence-transformers load only when some sentence misses the embeddings cache; pgmpy and
networkx only with an engine that builds a pgmpy network (the default ``potts`` engine does not).
"""

import sys

#: Loaded by a first run (the model) or by other engines, never by a repeat run of the defaults.
NOT_ON_REPEAT = ("torch", "sentence_transformers", "transformers", "pgmpy", "networkx")

#: Runs the command line, then prints to stderr which of NOT_ON_REPEAT it loaded.
_CODE = (
    "import sys\n"
    "from bpseg_pgm.cli.main import main\n"
    "rc = main(sys.argv[1:])\n"
    f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({NOT_ON_REPEAT!r})), file=sys.stderr)\n"
    "sys.exit(rc)\n"
)


def test_a_repeat_run_of_a_cached_text_loads_no_model(cli_env, example_file, run_bpseg):
    proc = run_bpseg(["segment", example_file, "--lines"], cli_env, cmd=[sys.executable, "-c", _CODE])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[-1] == "[]"
    assert "[Segment " in proc.stdout or "[Topic " in proc.stdout
