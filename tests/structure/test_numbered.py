"""Numbered plain-text headings: short own-paragraph lines in outline order; a numbered sentence is not one."""

from bpseg_pgm.structure.numbered import looks_like_numbered, numbered_structure

RFC = """1.  Introduction

The cat sat. The dog ran.

1. This numbered item is a sentence, so it is not a heading.

2.  Motivation

Stocks fell. Banks sold.

2.1 Details

More here.

3. Results

Done.
"""


def test_headings_and_levels():
    s = numbered_structure(RFC)
    assert [RFC[a:b] for a, b in s.headings] == ["1.  Introduction", "2.  Motivation", "2.1 Details", "3. Results"]
    assert s.heading_levels == (1, 1, 2, 1)
    assert s.view == RFC


def test_a_number_out_of_order_is_prose():
    text = "1. Intro\n\nText.\n\n3. Later\n\nText.\n\n2. Back\n\nText.\n"
    assert [text[a:b] for a, b in numbered_structure(text).headings] == ["1. Intro", "3. Later"]


def test_detection():
    assert looks_like_numbered(RFC)
    short_list = "Shopping:\n\n1. Apples\n\n2. Pears\n\n3. Plums\n"
    assert not looks_like_numbered(short_list)  # items one after the other: a list
    gaps = "1. Why this?\n\nBecause.\n\n5. Why that\n\nBecause.\n"
    assert not looks_like_numbered(gaps)
    assert not looks_like_numbered("1. The first step is this.\n\n2. The second step is that.\n")


def test_a_question_may_be_a_title_but_numbered_questions_alone_are_not_detected():
    text = "1. Intro\n\nText.\n\n2. What next?\n\nText.\n\n3. End\n\nText.\n"
    assert numbered_structure(text).heading_levels == (1, 1, 1) and looks_like_numbered(text)
    faq = "1. Is it running?\n\nYes it is.\n\n2. Is it managed?\n\nNo it is not.\n"
    assert len(numbered_structure(faq).headings) == 2 and not looks_like_numbered(faq)
    assert not numbered_structure("1. Why this? Because.\n\nText.\n").headings  # two sentences: not a title


def test_numbers_past_999_are_headings():
    """Numbered headings stopped at 999: ``1000. Part`` was prose."""
    text = "\n\n".join(f"{n}. Part {n}\n\nThe text of part {n} goes on here." for n in range(1, 1003))
    s = numbered_structure(text)
    assert len(s.headings) == 1002
    assert [text[a:b] for a, b in s.headings[998:1001]] == ["999. Part 999", "1000. Part 1000", "1001. Part 1001"]
    assert looks_like_numbered(text)
