"""Session 10 review, 15: three number settings were worded wrongly from the environment.
``WEBRESEARCH_FETCH_MAX_BYTES`` of 5000 digits: "must be a whole number, e.g. 49152, not a
whole number ('9999…)" (it contradicts itself, and the cut value lost its closing quote);
``nan``: "not 'not a number' ('nan')"; ``-1e400``: "too large … reads as infinity" (it is
minus infinity)."""

from __future__ import annotations

import pytest

from webresearch import ConfigurationError, Settings


def problem(name: str, value: str) -> str:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={f"WEBRESEARCH_{name}": value})
    prefix = f"invalid setting WEBRESEARCH_{name}: "
    assert info.value.message.startswith(prefix), info.value.message
    return info.value.message[len(prefix) :]


def test_a_whole_number_of_5000_digits_is_not_called_no_whole_number() -> None:
    assert problem("FETCH_MAX_BYTES", "9" * 5000) == (
        "must be a whole number, e.g. 49152, not a whole number of 5000 digits "
        "(too large for any setting)"
    )


def test_a_cut_value_keeps_its_closing_quote() -> None:
    said = problem("FETCH_MAX_BYTES", "x" * 100)
    assert said == f"must be a whole number, e.g. 49152, not text ('{'x' * 57}...')"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("REQUEST_TIMEOUT_S", "must be a finite number, e.g. 30"),
        ("FETCH_MAX_BYTES", "must be a whole number, e.g. 49152"),
    ],
)
@pytest.mark.parametrize(
    ("value", "given"),
    [
        ("nan", "'nan' (NaN: not a number)"),
        ("-1e400", "'-1e400' (too small: below about -1.8e308 a number reads as minus infinity)"),
        ("1e400", "'1e400' (too large: beyond about 1.8e308 a number reads as infinity)"),
        ("-inf", "minus infinity ('-inf')"),
    ],
)
def test_numbers_that_are_not_finite_are_named_as_they_are(
    name: str, expected: str, value: str, given: str
) -> None:
    said = problem(name, value)
    assert said == f"{expected}, not {given}"
    assert "'not a number'" not in said
