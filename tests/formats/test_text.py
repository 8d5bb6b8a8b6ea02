"""The text format: the segmentation's own text report."""

from bpseg_pgm.formats import get_format


def test_text_is_the_segmentations_report(seg):
    text = get_format("text")
    assert text.render(seg) == text.render(seg, source="notes.txt") == seg.to_text()
    assert "Segment 1" in text.render(seg)
    assert (text.name, text.kind, text.suffix, text.media_type, text.options) == (
        "text",
        "segmentation",
        ".txt",
        "text/plain",
        (),
    )
