"""HTML structure: headings, blocks, dropped elements and a view whose offsets are the file's."""

import pytest

from bpseg_pgm.structure.html import html_structure, looks_like_html

PAGE = """<!DOCTYPE html>
<html><head><title>Page title</title><style>p { color: red }</style><script>var x = "<p>no</p>";</script></head>
<body><nav><a href="/">Home</a></nav>
<h1>Cats &amp; dogs</h1>
<p>The <b>cat</b> sat. The dog ran.</p>
<ul><li>one item<li>two items</ul>
<pre>x = 1
y = 2</pre>
<h2>Sub</h2><p>Stocks fell.<p>Banks sold.
<table><tr><td>a</td><td>b</td></tr></table>
</body></html>
"""


def test_headings_and_levels():
    s = html_structure(PAGE)
    assert [PAGE[a:b] for a, b in s.headings] == ["Cats &amp; dogs", "Sub"]
    assert [s.view[a:b].split() for a, b in s.headings] == [["Cats", "&", "dogs"], ["Sub"]]
    assert s.heading_levels == (1, 2)


def test_dropped_elements_and_tags_are_not_in_the_view():
    s = html_structure(PAGE)
    assert len(s.view) == len(PAGE)
    words = s.view.split()
    for gone in ("Home", "Page", "color:", "var", "<b>", "<p>"):
        assert gone not in words
    assert "The cat sat. The dog ran." in " ".join(words)


def test_pre_and_table_are_units_list_items_atomic():
    s = html_structure(PAGE)
    units = [PAGE[a:b] for a, b in s.units]
    assert "x = 1\ny = 2" in units
    assert "a</td><td>b" in units
    atomic = [PAGE[a:b] for a, b in s.atomic]
    assert "one item" in atomic and "two items" in atomic  # unclosed <li> ends at the next one / the list's end


def test_detection():
    assert looks_like_html(PAGE)
    assert looks_like_html("<p>One.</p><p>Two.</p>")
    assert not looks_like_html("We compare a < b and c > d. Use <br> sometimes.")


@pytest.mark.parametrize(
    "text", ["", "<", "<h1>open heading<p>text", "<table><tr><td>never closed", "</p></div></h2>x", "<!-- x", "&#xZZ;"]
)
def test_broken_markup_gives_a_structure(text):
    s = html_structure(text)
    assert len(s.view) == len(text)
