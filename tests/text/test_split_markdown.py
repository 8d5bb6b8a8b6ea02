"""sentence_spans(markdown=True): code blocks, tables and headings one unit each; no sentence crosses a list item
or ends inside inline code; the plain splitter is unchanged."""

from bpseg_pgm.text.split import sentence_spans

DOC = (
    "\ufeff# Title\r\n\r\nSome text. More `a. b` text. Use e.g. `np.add. reduceat` here.\n\n"
    "- item one. Two.\n  - nested\n- item two\n\n```py\nx = 1. \ny=2\n```\n\n| a | b |\n|---|---|\n| 1. | 2 |\n\n"
    "Last 😀 sentence."
)


def test_markdown_units():
    spans = sentence_spans(DOC, markdown=True)
    texts = [DOC[a:b] for a, b in spans]
    assert texts == [
        "\ufeff# Title",
        "Some text.",
        "More `a. b` text.",
        "Use e.g. `np.add. reduceat` here.",
        "- item one.",
        "Two.",
        "- nested",
        "- item two",
        "```py\nx = 1. \ny=2\n```",
        "| a | b |\n|---|---|\n| 1. | 2 |",
        "Last 😀 sentence.",
    ]
    assert all(b <= c for (_, b), (c, _) in zip(spans, spans[1:]))


def test_the_plain_splitter_still_cuts_code_and_tables():
    texts = [DOC[a:b] for a, b in sentence_spans(DOC)]
    assert "Use e.g. `np.add." in texts and sentence_spans(DOC, markdown=False) == sentence_spans(DOC)


def test_lines_mode_ignores_markdown():
    assert sentence_spans(DOC, lines=True, markdown=True) == sentence_spans(DOC, lines=True)


def test_an_image_is_not_cut_at_its_exclamation_mark():
    text = "See the logo. ![PyTorch Logo](https://x.org/a.png) It is nice.\n\n![Logo](a.png)\n\nEnd! Next."
    texts = [text[a:b] for a, b in sentence_spans(text, markdown=True)]
    assert texts == [
        "See the logo.",
        "![PyTorch Logo](https://x.org/a.png) It is nice.",
        "![Logo](a.png)",
        "End!",
        "Next.",
    ]


def test_yaml_front_matter_is_no_unit_and_no_heading():
    from bpseg_pgm.text.layout import unit_layout

    text = "---\ntitle: My page\ntags: [a, b]\n---\n\n# Intro\n\nSome text."
    spans = sentence_spans(text, markdown=True)
    assert [text[a:b] for a, b in spans] == ["# Intro", "Some text."]
    _, headings = unit_layout(text, spans, markdown=True)
    assert headings.tolist() == [1, 0]
    assert sentence_spans("---\n---\n\nText.", markdown=True) == [(9, 14)]  # empty front matter


def test_a_rule_then_prose_is_no_front_matter():
    text = "---\n\nSome prose.\n\n---\n\nMore."
    assert [text[a:b] for a, b in sentence_spans(text, markdown=True)] == ["---", "Some prose.", "---", "More."]


def _long_list(parts: int) -> tuple[str, list[tuple[int, int]]]:
    """A long Markdown list under many headings, with code blocks between, and its sentence spans as built."""
    pieces: list[str] = []
    expected: list[tuple[int, int]] = []
    pos = 0

    def add(chunk: str, *sentences: str) -> None:
        nonlocal pos
        at = pos
        for sentence in sentences:
            start = chunk.index(sentence, at - pos) + pos
            expected.append((start, start + len(sentence)))
            at = start + len(sentence)
        pieces.append(chunk)
        pos += len(chunk)

    for j in range(parts):
        add(f"## Part {j}\n\n", f"## Part {j}")
        for i in range(5):
            if i == 2:
                add(f"- Item {j} and {i} is here. It has two.\n", f"- Item {j} and {i} is here.", "It has two.")
            else:
                add(f"- Item {j} and {i} is here.\n", f"- Item {j} and {i} is here.")
        add("\n")
        if j % 10 == 9:
            add("```\ncode. More code.\n```\n\n", "```\ncode. More code.\n```")
    return "".join(pieces), expected


def test_a_long_list_under_many_headings_splits_as_built():
    # 400 headings and 2,000 list items: each item is cut at its start, each heading and code block one unit
    text, expected = _long_list(400)
    assert sentence_spans(text, markdown=True) == expected
