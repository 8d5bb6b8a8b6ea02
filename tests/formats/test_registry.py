"""The output-format registry: built-ins in order, lookups, registering a format, options."""

import pytest

from bpseg_pgm.formats import FormatOption, OutputFormat, format_names, get_format, register_format


def test_the_built_in_formats_in_the_order_the_command_line_lists_them():
    assert format_names() == format_names("segmentation") == ("text", "json", "html", "chunks-jsonl")
    assert format_names("prune") == ("text", "json")
    for kind in ("segmentation", "prune"):
        for name in format_names(kind):
            fmt = get_format(name, kind)
            assert isinstance(fmt, OutputFormat) and (fmt.name, fmt.kind) == (name, kind)
            assert fmt.suffix.startswith(".") and "/" in fmt.media_type


def test_unknown_names_and_kinds_are_refused():
    with pytest.raises(
        ValueError, match=r"segmentation format must be one of \('text', 'json', 'html', 'chunks-jsonl'\), got 'xml'"
    ):
        get_format("xml")
    with pytest.raises(ValueError, match="prune format must be one of"):
        get_format("html", "prune")
    with pytest.raises(ValueError, match="kind must be one of"):
        format_names("corpus")
    with pytest.raises(ValueError, match="kind must be one of"):
        register_format("x", kind="corpus")


def test_a_registered_format_is_found_after_the_built_ins(registry, seg):
    @register_format("markdown")
    class Markdown(OutputFormat):
        suffix = ".md"

        def content(self, result, *, source=None):
            return "".join(
                f"## Segment {j + 1}\n\n" + " ".join(result.sentences[i] for i in idx) + "\n\n"
                for j, idx in enumerate(result.segments)
            )

    assert format_names() == ("text", "json", "html", "chunks-jsonl", "markdown")
    assert format_names("prune") == ("text", "json")
    assert Markdown.name == "markdown" and Markdown.kind == "segmentation"
    assert get_format("markdown").render(seg).startswith("## Segment 1\n\nThe app release is on Friday.")
    assert register_format("markdown")(Markdown) is Markdown  # the same class again is fine
    with pytest.raises(ValueError, match="the markdown format takes no options, got level"):
        get_format("markdown").render(seg, level=3)


def test_registering_is_checked(registry):
    class Other(OutputFormat):
        pass

    with pytest.raises(ValueError, match="a segmentation format is already registered as 'json': JsonFormat"):
        register_format("json")(Other)
    with pytest.raises(ValueError, match="needs an OutputFormat subclass"):
        register_format("thing")(object)
    for bad in ("", "Markdown", "two words", "-x", "a--b", None):
        with pytest.raises(ValueError, match="a format name is lower-case"):
            register_format(bad)
    with pytest.raises(NotImplementedError):
        register_format("other", kind="prune")(Other)().render(object())


def test_format_options_are_checked():
    assert FormatOption("indent", int).default is None and FormatOption("tight").default is False
    assert FormatOption("style", str).default is None
    with pytest.raises(ValueError, match="lower-case identifier"):
        FormatOption("max-tokens", int)
    with pytest.raises(ValueError, match="type must be bool, int or str"):
        FormatOption("ratio", float)
