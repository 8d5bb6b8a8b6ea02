"""Speaker labels ("Anna: ...") name who speaks, not the topic: they are not keywords."""

import numpy as np

from bpseg_pgm.keywords.speakers import without_speakers
from bpseg_pgm.text.segmentation import Segmentation

TRANSCRIPT = [
    "Anna: The release build failed again on the payment screen.",
    "Ben: The payment tests time out on the release branch.",
    "Anna: Then the release waits for the payment fix.",
    "Ben: The picnic needs sandwiches and lemonade.",
    "Anna: I will bring lemonade to the picnic.",
    "Ben: Sandwiches for the picnic are on me.",
]


def test_labels_that_start_two_units_are_removed():
    assert without_speakers(["Anna: hello there.", "Dr Smith: fine.", "Anna: good.", "Dr Smith: yes."]) == [
        " hello there.",
        " fine.",
        " good.",
        " yes.",
    ]
    assert without_speakers(["Speaker 1: a.", "Speaker 2: b.", "Speaker 1: c.", "Speaker 2: d."])[1] == " b."


def test_prose_keeps_its_words():
    prose = ["Note: the build is green.", "Back to the app: new screenshots.", "Send it to Anna: today."]
    assert without_speakers(prose) == prose  # each label once, or more than three words: not a speaker
    assert without_speakers(["Anna said: go.", "Anna said: stop."]) == ["Anna said: go.", "Anna said: stop."]
    assert without_speakers(["the time: 10:30.", "the time: 11:00."]) == ["the time: 10:30.", "the time: 11:00."]


def test_speaker_names_are_not_keywords():
    seg = Segmentation(TRANSCRIPT, np.array([0, 0, 0, 1, 1, 1]), [[0, 1, 2], [3, 4, 5]], np.eye(2)[[0, 0, 0, 1, 1, 1]])
    words = seg.segment_keywords(top_n=10)
    assert not {"anna", "ben"} & {w for topic in words for w in topic}, words
    assert "payment" in words[0] and "picnic" in words[1]
    assert (
        "anna"
        in Segmentation(
            ["The release goes to Anna.", "Anna owns the payment fix."], np.array([0, 0]), [[0, 1]], np.ones((2, 1))
        ).segment_keywords(top_n=10)[0]
    )
