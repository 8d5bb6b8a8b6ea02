"""The views show each unit by the format its text was read in: a block's lines as written (its shared
indentation off), plain text as it was."""

import numpy as np
from small_segmentation import small_segmentation

from bpseg_pgm.formats.units import block_lines, shown_format
from bpseg_pgm.text import Segmentation
from bpseg_pgm.text.split import sentence_spans, squash

MARKDOWN = (
    "Intro text here.\n\n- An item:\n\n  ```python\n  def f():\n      return 1\n  ```\n\n"
    "After it.\n\n    indented code\n      more\n"
)


def _markdown_seg():
    spans = sentence_spans(MARKDOWN, markdown=True)
    labels = np.array([0, 0, 1, 1, 1])
    return Segmentation(
        [squash(MARKDOWN[a:b]) for a, b in spans],
        labels,
        [[0, 1], [2, 3, 4]],
        np.eye(2)[labels],
        text=MARKDOWN,
        spans=spans,
        markdown=True,
    )


def test_markdown_code_blocks_keep_their_lines_in_the_text_view():
    out = _markdown_seg().to_text()
    assert "  3  ```python\n     def f():\n         return 1\n     ```\n" in out  # the list item's indentation off
    assert "  5  indented code\n       more\n" in out  # the relative indentation kept


def test_block_lines_start_at_the_line_and_take_off_the_shared_indentation():
    text = "x\n   a\n     b\n"
    assert block_lines(text, text.index("a"), len(text) - 1) == "a\n  b"
    assert block_lines("say: a\n b", 5, 10) == "a\n b"  # text before it on its line: as written


def test_plain_text_is_shown_as_before():
    seg = small_segmentation()
    assert shown_format(seg) == "plain"
    assert "The app release is on Friday." in seg.to_html() and "   1  The app release is on Friday." in seg.to_text()
    assert "format" not in seg.to_dict()  # the JSON is unchanged
