"""``bpseg corpus`` reads ``.rst`` and ``.html`` files in their format, as ``segment_text(format=...)`` does."""

import pyarrow.parquet as pq

from bpseg_pgm.corpus import segment_corpus
from bpseg_pgm.text.pipeline import segment_text

# one title only: not guessed as reStructuredText from the text, so only the extension makes it RST
RST = "Cats\n====\n\nThe cat sat on the mat. The cat purred loudly.\n\nStocks fell today. Banks sold their bonds.\n"
HTML = "<h1>Cats</h1>\n<p>The cat sat on the mat. The cat purred.</p>\n"


def test_rst_and_html_files_are_read_in_their_format(make_folder, tmp_path, embedder, session_cache_dir):
    root = make_folder({"a.rst": RST, "b.html": HTML})
    out = tmp_path / "out.parquet"
    report = segment_corpus(root, out, workers=0, cache_dir=session_cache_dir, show_progress=False)
    assert report.n_failed == 0
    rows = pq.read_table(out).to_pylist()
    for name, text, fmt in (("a.rst", RST, "rst"), ("b.html", HTML, "html")):
        mine = sorted((r["start"], r["end"]) for r in rows if r["doc"] == name and r["start"] is not None)
        assert mine == segment_text(text, format=fmt, embedder=embedder).spans
        assert mine != segment_text(text, format="plain", embedder=embedder).spans
