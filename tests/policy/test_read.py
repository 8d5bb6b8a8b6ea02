"""read_policy: a TOML or JSON file of the fields to change; anything else one ValueError naming the file."""

import pytest

from bpseg_pgm.policy import DEFAULT_POLICY, read_policy


def test_toml_and_json_give_the_shipped_policy_with_the_changes(tmp_path):
    toml = tmp_path / "policy.toml"
    toml.write_text("run_scale = 2.0\nnull_units = 500\n", encoding="utf-8")
    assert read_policy(toml) == DEFAULT_POLICY.replace(run_scale=2.0, null_units=500)
    js = tmp_path / "policy.json"
    js.write_text('{"word_scale": 10, "group_threshold": 0.3}', encoding="utf-8")
    policy = read_policy(js)
    assert policy.changed() == {"word_scale": 10.0, "group_threshold": 0.3}
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    assert read_policy(empty) == DEFAULT_POLICY


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("p.toml", "run_scal = 2.0\n", r"p\.toml: Policy has no field 'run_scal'"),
        ("p.toml", "group_threshold = 2.0\n", r"p\.toml: Policy\.group_threshold must be a number in \[-1, 1\]"),
        ("p.toml", "null_units = 2.5\n", r"p\.toml: Policy\.null_units must be an integer >= 0, got 2\.5"),
        ("p.toml", "run_scale = [1, 2]\n", r"p\.toml: Policy\.run_scale must be"),
        ("p.toml", "run_scale = \n", r"p\.toml: not valid TOML"),
        ("p.json", "{run_scale: 2}", r"p\.json: not valid JSON"),
        ("p.json", "[1, 2]", r"p\.json: expected a table of Policy fields, got list"),
    ],
)
def test_a_bad_file_is_one_value_error_naming_it(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_policy(path)


def test_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(OSError):
        read_policy(tmp_path / "none.toml")


def test_a_file_not_utf8_has_the_input_readers_message(tmp_path):
    from bpseg_pgm.io.decoding import decode_text

    data = "run_scale = 2.0  # café\n".encode("latin-1")
    path = tmp_path / "p.toml"
    path.write_bytes(data)
    with pytest.raises(ValueError) as policy_error:
        read_policy(path)
    with pytest.raises(ValueError) as input_error:
        decode_text(data, f"policy file {path}")
    assert (
        str(policy_error.value)
        == str(input_error.value)
        == f"policy file {path} is not valid UTF-8 (byte 0xe9 at offset 22)"
    )
