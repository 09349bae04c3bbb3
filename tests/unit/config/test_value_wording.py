"""Session 10 review: three wrong settings were worded wrongly. A ``1e400`` price was quoted
as ``inf`` (JSON and TOML read it as infinity before the check saw it); a ``true`` price's
error lacked the price's key (every other price error names it); and a headers setting
whose JSON holds a raw CR or LF was "a JSON object, … not text". Now the number is quoted
as written, every message about an item of a table names the item, and JSON that does not
parse says what is wrong where — never the value (headers are secrets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from webresearch import ConfigurationError, Settings
from webresearch.config.options import resolve_options
from webresearch.config.sources import Given, OptionSources
from webresearch.hosted.firecrawl import FirecrawlOptions

FIX = "give a valid value, or leave the setting out to use its default"


def problem(environ: dict[str, str] | None = None, path: Path | None = None) -> str:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ=environ or {}, path=path)
    return info.value.message


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("1e400", "'1e400' (too large: beyond about 1.8e308 a number reads as infinity)"),
        ("-2E+999", "'-2E+999' (too small: below about -1.8e308 a number reads as minus infinity)"),
        ("Infinity", "infinity ('Infinity')"),
        ("NaN", "'NaN' (NaN: not a number)"),
        ("1" + "0" * 400, "'1000000000"),
        ("1" + "0" * 5000, "'1000000000"),  # past int()'s 4300 digits: no Python wording
    ],
)
def test_a_price_beyond_floats_is_quoted_as_written(written: str, shown: str) -> None:
    message = problem({"WEBRESEARCH_PRICES": f'{{"brave": {written}}}'})
    assert message.startswith(
        f"invalid setting WEBRESEARCH_PRICES: 'brave' must be a finite number, e.g. 2.5, not {shown}"
    ), message
    assert "'inf'" not in message and "'nan'" not in message
    assert "sys.set_int_max_str_digits" not in message


def test_a_number_beyond_floats_in_the_file_is_quoted_as_written(tmp_path: Path) -> None:
    path = tmp_path / "w.toml"
    path.write_text("connect_timeout_s = 1e400\n[prices]\nbrave = 2e500\n")
    message = problem(path=path)
    assert f"connect_timeout_s in {path}: must be a finite number, e.g. 15, not '1e400'" in message
    assert f"prices in {path}: 'brave' must be a finite number, e.g. 2.5, not '2e500'" in message
    path.write_text("connect_timeout_s = " + "9" * 400 + "\n")
    assert "not a whole number of about 400 digits (too large" in problem(path=path)
    path.write_text("connect_timeout_s = " + "9" * 5000 + "\n")  # a traceback before
    assert problem(path=path) == (
        f"config file {path} holds a whole number of over 4300 digits; no setting takes one"
    )


def test_every_error_about_a_price_names_its_key(tmp_path: Path) -> None:
    message = problem({"WEBRESEARCH_PRICES": '{"brave": 0.5, "exa": true}'})
    assert message == (
        "invalid setting WEBRESEARCH_PRICES: 'exa' must be a number, e.g. 0.005, not a boolean"
    )
    path = tmp_path / "w.toml"
    path.write_text("[prices]\nbrave = true\n")
    assert f"prices in {path}: 'brave' must be a number, e.g. 0.005, not a boolean" in problem(
        path=path
    )


def headers_problem(text: str) -> str:
    sources = OptionSources({"firecrawl_headers": Given(text, "WEBRESEARCH_FIRECRAWL_HEADERS", 1)})
    with pytest.raises(ConfigurationError) as info:
        resolve_options(sources, "firecrawl", FirecrawlOptions)
    assert info.value.hint == FIX
    return info.value.message


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ('{"X-Token": "abc\r\ndef"}', "a line break inside a quoted text (character 17; JSON writes it as \\r)"),
        ('{"X-Token": "abc\ndef"}', "a line break inside a quoted text (character 17; JSON writes it as \\n)"),
        ('{"X-Token": "abc\x01def"}', "the control character U+0001 inside a quoted text (character 17"),
        ('{"X-Token": "abc"', "it ends early (expecting ',' delimiter)"),
        ('{"X-Token" "abc"}', "expecting ':' delimiter (character 12)"),
    ],
)  # fmt: skip
def test_json_that_does_not_parse_says_what_and_where_never_the_value(text: str, what: str) -> None:
    message = headers_problem(text)
    assert message.startswith(
        'invalid setting WEBRESEARCH_FIRECRAWL_HEADERS: must be a JSON object, e.g. {"name": 1}; '
        f"this is not valid JSON: {what}"
    ), message
    assert "not text" not in message and "abc" not in message


def test_a_settings_table_given_bad_json_says_so_too() -> None:
    message = problem({"WEBRESEARCH_PRICES": '{"brave": 0.5,}'})
    assert message == (
        'invalid setting WEBRESEARCH_PRICES: must be a JSON object, e.g. {"name": 1}; '
        "this is not valid JSON: expecting property name enclosed in double quotes (character 15)"
    )
