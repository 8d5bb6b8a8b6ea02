"""confidence() and run_segments read as plain numbers (not np.float64(...) / np.int64(...))."""

import numpy as np

from bpseg_pgm.types.segmentation import SegmentationResult


def test_confidence_and_contiguous_topics_print_plain_numbers():
    seg = SegmentationResult(["A.", "B.", "C."], np.array([0, 1, 0]), [[0, 2], [1]], np.eye(2)[[0, 1, 0]])
    assert repr(list(seg.run_segments)) == "[0, 1, 0]"
    assert type(seg.run_segments[1]) is int
    confidence = list(seg.confidence())
    assert all(type(c) is float for c in confidence) and "np." not in repr(confidence)
    assert seg.confidence().shape == (3,) and seg.confidence().dtype == np.float64
