"""HTML elements whose text is dropped (``<head>``, ``<nav>``, ``<style>``, ``<svg>``, ...) end where HTML5 ends
them, and one left open to the end of the text, dropping all that follows, is a warning naming it."""

import warnings

import pytest

from bpseg_pgm.structure.html import html_structure
from bpseg_pgm.text.split import sentence_spans


def _sentences(text: str) -> list[str]:
    with warnings.catch_warnings():  # the tests of warnings read them from html_structure
        warnings.simplefilter("ignore")
        return [text[a:b] for a, b in sentence_spans(text, format="html")]


def _quietly(text: str):
    """The structure, and the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s = html_structure(text)
    return s, [str(w.message) for w in caught]


@pytest.mark.parametrize(
    "text",
    [
        "<html><head><title>T</title><body><h1>Cats</h1><p>Cats purr. Cats sleep.</p></body></html>",
        "<html><head><title>T</title><h1>Cats</h1><p>Cats purr. Cats sleep.</p>",  # no <body> either
        "<!DOCTYPE html><html><head><meta charset=utf-8><link rel=icon href=x.png>\n<title>T</title>\n"
        "<style>p { color: red }</style><script>var x = 1;</script>\n<div><h1>Cats</h1><p>Cats purr. Cats sleep.</div>",
    ],
)
def test_a_body_element_ends_a_head_left_open(text):
    s, said = _quietly(text)
    assert [s.view[a:b] for a, b in s.headings] == ["Cats"] and s.heading_levels == (1,)
    assert _sentences(text) == ["Cats", "Cats purr.", "Cats sleep."]
    assert "T" not in s.view.split() and "color:" not in s.view  # the head's title and style stay out
    assert said == []


def test_text_ends_a_head_left_open_but_its_title_does_not():
    text = "<html><head><title>Page title</title>Cats purr. Cats sleep.<br/>Dogs bark."
    assert _sentences(text) == ["Cats purr.", "Cats sleep.", "Dogs bark."]
    assert "Page" not in html_structure(text).view


def test_a_container_closed_around_an_unclosed_nav_closes_the_nav_and_says_what_it_dropped():
    text = "<body><div><nav><a href='/'>Home</a> | <a href='/a'>About</a></div><p>Cats purr. Cats sleep.</p></body>"
    s, said = _quietly(text)
    assert _sentences(text) == ["Cats purr.", "Cats sleep."]
    assert "Home" not in s.view
    assert len(said) == 1 and "<nav> at line 1 is never closed" in said[0] and "</div>" in said[0]


def test_an_unclosed_nav_that_holds_the_whole_page_is_a_warning():
    text = "<html><body><nav><a href='/'>Home</a>\n<h1>Cats</h1><p>Cats purr. Cats sleep.</p></body></html>"
    with pytest.warns(UserWarning, match=r"<nav> at line 1 is never closed, so all up to </body> \(line 2\)"):
        assert html_structure(text).view.split() == []  # HTML5 puts it all in the nav; what it drops is said


def test_html_markup_ends_an_unclosed_svg():
    text = '<p>Cats purr.</p><svg viewBox="0 0 1 1"><circle r="1"/><text>logo</text><p>Cats sleep.</p>'
    s, said = _quietly(text)
    assert _sentences(text) == ["Cats purr.", "Cats sleep."]
    assert "logo" not in s.view and said == []


def test_a_closed_dropped_element_still_drops_only_its_own_text():
    text = "<p>Cats purr.</p><nav><ul><li>Home</li></ul></nav><svg><text>logo</text></svg><p>Cats sleep.</p>"
    s, said = _quietly(text)
    assert _sentences(text) == ["Cats purr.", "Cats sleep."] and said == []


@pytest.mark.parametrize("tag", ["style", "template", "svg", "nav", "script"])
def test_a_dropped_element_left_open_to_the_end_is_a_warning_naming_it(tag):
    rest = "<text>Cats sleep. Dogs bark.</text>" if tag == "svg" else "<p>Cats sleep. Dogs bark.</p>"  # <p> ends svg
    text = f"<p>Cats purr.</p>\n<{tag}>\n{rest}\n"
    with pytest.warns(UserWarning, match=rf"<{tag}> at line 2 is never closed.*rest of the text.*dropped"):
        s = html_structure(text)
    with pytest.warns(UserWarning, match=f"<{tag}>"):  # again when read again (the structure is kept)
        assert html_structure(text) is s
        assert _sentences(text) == ["Cats purr."]


def test_no_warning_when_nothing_follows_or_all_is_closed():
    for text in ("<p>Cats purr.</p><nav>", "<p>Cats purr.</p><style>  \n", "<head><title>T</title>", ""):
        assert _quietly(text)[1] == []
