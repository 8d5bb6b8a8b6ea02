"""check_list / check_str_list: one list-of-str check, worded by each caller (their messages are public)."""

import pytest

from bpseg_pgm.utils.validation import check_list, check_str_list


@pytest.mark.parametrize("values", ["one text", b"bytes", 3, None])
def test_a_single_text_or_no_list_is_refused(values):
    with pytest.raises(ValueError, match="^texts must be a list$"):
        check_list(values, "texts must be a list", any_iterable=True)


def test_lists_and_tuples_or_any_iterable():
    assert check_list(("a", "b"), "m") == ["a", "b"]
    with pytest.raises(ValueError, match="^m$"):
        check_list(iter(["a"]), "m")
    assert check_list(iter(["a"]), "m", any_iterable=True) == ["a"]


def test_default_wording():
    assert check_str_list(["a", "b"], "'units'", item="unit") == ("a", "b")
    with pytest.raises(ValueError, match="^'units' must be a list of strings, got str$"):
        check_str_list("ab", "'units'", item="unit")
    with pytest.raises(ValueError, match="^unit 1 is int, not a string$"):
        check_str_list(["a", 2], "'units'", item="unit")


def test_callers_word_their_own_messages_and_name_items_by_template():
    kw = dict(any_iterable=True, unicode=True, not_a_list="units: {type}?", not_a_str="{name} is {type}, not str")
    with pytest.raises(ValueError, match=r"^units: bytes\?$"):
        check_str_list(b"x", "units", "units[{i}]", **kw)
    with pytest.raises(ValueError, match=r"^units\[1\] is NoneType, not str$"):
        check_str_list(["a", None], "units", "units[{i}]", **kw)
    with pytest.raises(ValueError, match=r"^units\[0\] contains a lone surrogate"):
        check_str_list(["\ud800"], "units", "units[{i}]", **kw)
    assert check_str_list(["\ud800"], "units", "units[{i}]", any_iterable=True) == ("\ud800",)


def test_items_are_checked_in_order_blank_ones_too():
    kw = dict(any_iterable=True, unicode=True, nonblank=True)
    with pytest.raises(ValueError, match="^sentence 0 is empty$"):
        check_str_list([" ", 3], "sentences", "sentence", **kw)
    with pytest.raises(ValueError, match="^sentence 1 is int, not a string$"):
        check_str_list(["a", 3, " "], "sentences", "sentence", **kw)
    assert check_str_list([" "], "sentences", "sentence") == (" ",)
