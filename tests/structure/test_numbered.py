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


# A release checklist written as numbered plain text: numbered sections, and numbered lists between them (issue 52).
RELEASE = """1. Abstract

This document describes how to make a bug fix release of the interpreter.

2. Compatibility

Installers pick the most specific build they support. The order, from most preferred to least preferred:

1. cp33-cp33m-linux_x86_64

2. cp33-abi3-linux_x86_64

3. cp3-none-linux_x86_64

4. py3-none-any

A build that matches none of these is not installed.

3. How to Make a Release

Here are the steps taken by the release manager, in order.

1. Send an email to the developers' list saying that the release is about to start.

2. Put a freeze on check-ins into the maintenance branch. Nobody else commits from now on.

You should not see any modified files at this point.

3. Now tag the branch using a symbolic name like r212

Be sure to tag only the source directory of the tree!

4. Build the tarball and check that it unpacks cleanly.

5. Upload the files

The upload takes a while on a slow connection.

4. What Next

Announce the release on the mailing lists and wait for bug reports.

5. Windows Notes

The Windows installer is built by a separate script on a build machine.
"""

SECTIONS = ["1. Abstract", "2. Compatibility", "3. How to Make a Release", "4. What Next", "5. Windows Notes"]


def test_numbered_lists_between_the_sections_are_not_headings():
    """Short list items on paragraphs of their own (``3. cp3-none-linux_x86_64`` after section 2) and a list item
    that looks like a title (``3. Now tag the branch ...``) were read as headings, and the true ``3.``, ``4.`` and
    ``5.`` after them were lost: the numbers had gone past them."""
    s = numbered_structure(RELEASE)
    assert [RELEASE[a:b] for a, b in s.headings] == SECTIONS
    assert s.heading_levels == (1, 1, 1, 1, 1)
    assert looks_like_numbered(RELEASE)  # was guessed plain: the headings read had gaps


def test_a_list_item_that_skips_ahead_is_not_a_heading():
    """``16.`` after section 3 continues the list before it (``15. ...``), and skips the outline's numbers."""
    steps = "\n\n".join(f"{n}. Step {n} of the release is done by the release manager, by hand." for n in range(1, 16))
    text = f"1. Intro\n\nWhy.\n\n2. Steps\n\n{steps}\n\n16. Now tag the branch\n\nCarefully.\n\n3. Results\n\nDone.\n"
    s = numbered_structure(text)
    assert [text[a:b] for a, b in s.headings] == ["1. Intro", "2. Steps", "3. Results"]


def test_a_list_reaching_the_next_section_number_yields_to_the_heading_that_follows():
    """A list in section 2 whose third item is a title-like line: the heading ``3. Rationale`` comes later."""
    text = (
        "1. Abstract\n\nWe propose two things.\n\n2. Motivation\n\nThe runtime needs:\n\n"
        "1. A way to convert values between the two languages, both ways.\n\n"
        "2. A calling convention that both sides can follow, with no surprises.\n\n"
        "3. a JavaScript interface for managing the Python runtime\n\n"
        "Each of them is described below.\n\n3. Rationale\n\nBecause.\n\n4. Specification\n\nHow.\n"
    )
    s = numbered_structure(text)
    assert [text[a:b] for a, b in s.headings] == ["1. Abstract", "2. Motivation", "3. Rationale", "4. Specification"]


def test_a_heading_after_a_list_that_leads_up_to_it_is_kept():
    """Section 2 ends with a list ``1.``, ``2.``; the next line ``3. Results`` is still the next heading."""
    text = (
        "1. Intro\n\nText.\n\n2. Method\n\n1. Measure the first thing.\n\n2. Measure the second thing.\n\n"
        "3. Results\n\nDone.\n\n3.1 Details\n\nMore.\n"
    )
    s = numbered_structure(text)
    assert [text[a:b] for a, b in s.headings] == ["1. Intro", "2. Method", "3. Results", "3.1 Details"]
    assert looks_like_numbered(text)


def test_rfc_style_with_a_list_of_short_items():
    """RFC style headings (``2.  Terms``) and a list of short items in a sub-section (``2.2.  loader``)."""
    text = (
        "1.  Abstract\n\nSpecs.\n\n2.  Terms\n\nSome terms.\n\n2.1.  name\n\nA name.\n\n2.2.  loader\n\n"
        "Loading a module goes through these steps:\n\n1.  Create the module\n\n2.  Set its attributes\n\n"
        "3.  Register it in sys.modules\n\n4.  Execute the module\n\nThe steps are the same for every loader.\n\n"
        "3.  Motivation\n\nWhy.\n\n4.  Specification\n\nHow.\n"
    )
    s = numbered_structure(text)
    assert [text[a:b] for a, b in s.headings] == [
        "1.  Abstract", "2.  Terms", "2.1.  name", "2.2.  loader", "3.  Motivation", "4.  Specification",
    ]  # fmt: skip
    assert s.heading_levels == (1, 1, 2, 2, 1, 1)
