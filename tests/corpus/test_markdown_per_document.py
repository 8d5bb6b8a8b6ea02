"""Issue 36, fault 9: ``bpseg corpus`` reads a ``.md`` file as Markdown, as ``bpseg segment`` does, and guesses
for other text as ``segment_text`` does: the same sentences and labels per document. And the note of issue 36:
a rerun says that it skips documents by id."""

import pyarrow.parquet as pq

from bpseg_pgm.corpus import segment_corpus
from bpseg_pgm.io.documents import read_documents
from bpseg_pgm.text.pipeline import segment_text

# inline code and an HTML block: as Markdown 7 units, as plain text 10 sentences (the file)
MD = """Use `pip install x.y` to install it. Then run `x.main()` from Python.

<div class="note">
Note. This block is HTML. It stays one unit.
</div>

The tool reads files. It writes reports. It is fast. Run it often. It helps.
"""
PLAIN = "First sentence about cats. Second one about dogs. Third one is about stocks. Fourth is on bonds.\n"


def _rows(out):
    rows = pq.read_table(out).to_pylist()
    by_doc = {}
    for r in sorted(rows, key=lambda r: (r["doc"], r["sentence"] if r["sentence"] is not None else -1)):
        by_doc.setdefault(r["doc"], []).append(r)
    return by_doc


def test_a_md_file_is_segmented_as_bpseg_segment_reads_it(make_folder, tmp_path, embedder, session_cache_dir):
    root = make_folder({"guide.md": MD, "guide.txt": MD, "plain.txt": PLAIN})
    docs = {d.id: d for d in read_documents(root)}
    assert docs["guide.md"].meta == {"markdown": True} and docs["guide.txt"].meta == {}
    out = tmp_path / "out.parquet"
    report = segment_corpus(root, out, workers=0, cache_dir=session_cache_dir, show_progress=False)
    assert report.n_failed == 0
    rows = _rows(out)
    md = segment_text(MD, markdown=True, embedder=embedder)  # what `bpseg segment guide.md` fits
    plain_md = segment_text(MD, markdown=False, embedder=embedder)
    assert len(md.spans) != len(plain_md.spans)  # the example tells the two readings apart
    assert [(r["start"], r["end"]) for r in rows["guide.md"]] == md.spans
    assert [r["label"] for r in rows["guide.md"]] == md.labels.tolist()
    for name, text in (("guide.txt", MD), ("plain.txt", PLAIN)):  # what `bpseg segment guide.txt` fits: guessed
        alone = segment_text(text, embedder=embedder)
        assert [(r["start"], r["end"]) for r in rows[name]] == alone.spans
        assert [r["label"] for r in rows[name]] == alone.labels.tolist()

    again = segment_corpus(root, out, workers=0, cache_dir=session_cache_dir, show_progress=False)
    assert "3 already in the output (skipped by id" in again.summary()


def test_lines_never_reads_markdown(make_folder, tmp_path, session_cache_dir, embedder):
    root = make_folder({"guide.md": MD})
    out = tmp_path / "out.parquet"
    segment_corpus(root, out, workers=0, lines=True, cache_dir=session_cache_dir, show_progress=False)
    alone = segment_text(MD, lines=True, embedder=embedder)
    assert [(r["start"], r["end"]) for r in _rows(out)["guide.md"]] == alone.spans
