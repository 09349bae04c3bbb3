"""A number setting is finite and written in ASCII digits (fresh review, session 9).

Before: ``WEBRESEARCH_CONNECT_TIMEOUT_S=inf`` (and ``Infinity``, and ``1e400``, which
overflows to infinity) was taken — a connection that may wait forever — and so was ``inf``
for every float setting and a provider's option; ``１５`` (full-width digits) was named
``a whole number ('１５')`` while being refused as no number.
"""

from __future__ import annotations

import pytest

from webresearch import ConfigurationError, Settings

NEXT = "give a valid value, or leave the setting out to use its default"


def problem(environ: dict[str, str]) -> str:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ=environ).options("firecrawl", _firecrawl())
    assert info.value.hint == NEXT
    return info.value.message


def _firecrawl() -> type:
    from webresearch.hosted.firecrawl import FirecrawlOptions

    return FirecrawlOptions


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("inf", "must be a finite number, e.g. 15, not infinity ('inf')"),
        ("Infinity", "must be a finite number, e.g. 15, not infinity ('Infinity')"),
        ("-inf", "must be a finite number, e.g. 15, not minus infinity ('-inf')"),
        ("nan", "must be a finite number, e.g. 15, not 'nan' (NaN: not a number)"),
        (
            "1e400",
            "must be a finite number, e.g. 15, not '1e400' (too large: beyond about 1.8e308 "
            "a number reads as infinity)",
        ),
    ],
)
def test_a_number_setting_refuses_what_is_not_finite(value: str, words: str) -> None:
    message = problem({"WEBRESEARCH_CONNECT_TIMEOUT_S": value})
    assert message == f"invalid setting WEBRESEARCH_CONNECT_TIMEOUT_S: {words}"


@pytest.mark.parametrize(
    "name",
    [
        "REQUEST_TIMEOUT_S", "FETCH_CACHE_TTL_S", "ROBOTS_CACHE_TTL_S", "RATE_WINDOW_S",
        "SPENDING_LIMIT", "SPENDING_WINDOW_S", "MCP_BUDGET", "MCP_SESSION_IDLE_S",
        "BROWSER_IDLE_S", "SEARCH_TIMEOUT_S", "SEARCH_CACHE_TTL_S", "READER_TIMEOUT_S",
        "STORAGE_TIMEOUT_S", "FIRECRAWL_CREDIT_PRICE",
    ],
)  # fmt: skip
def test_every_number_setting_and_option_refuses_infinity(name: str) -> None:
    message = problem({f"WEBRESEARCH_{name}": "inf"})
    assert message.startswith(f"invalid setting WEBRESEARCH_{name}: must be a finite number")
    assert message.endswith("not infinity ('inf')")


def test_a_price_in_the_table_is_finite_too() -> None:
    message = problem({"WEBRESEARCH_PRICES": '{"brave": NaN}'})
    assert message == (
        "invalid setting WEBRESEARCH_PRICES: 'brave' must be a finite number, e.g. 2.5, "
        "not 'NaN' (NaN: not a number)"  # as written (session 10 review)
    )


def test_toml_infinity_is_refused_in_a_whole_number_setting(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "w.toml"
    path.write_text("fetch_max_bytes = inf\nconnect_timeout_s = 1e400\n", encoding="utf-8")
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={}, path=path)
    assert info.value.message == (
        f"invalid setting fetch_max_bytes in {path}: must be a finite whole number, e.g. "
        f"49152, not infinity ('inf'); connect_timeout_s in {path}: must be a finite number, "
        "e.g. 15, not '1e400' (too large: beyond about 1.8e308 a number reads as infinity)"
    )  # as written, not 'inf' (session 10 review)


def test_a_large_finite_number_is_still_a_number() -> None:
    assert (
        Settings.load(environ={"WEBRESEARCH_CONNECT_TIMEOUT_S": "1e300"}).connect_timeout_s == 1e300
    )


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("CONNECT_TIMEOUT_S", "１５", "must be a number, e.g. 15, not a number in digits "
         "other than 0-9 ('１５'; write '15')"),
        ("FETCH_MAX_BYTES", "٤٠٩٦", "must be a whole number, e.g. 49152, not a number in "
         "digits other than 0-9 ('٤٠٩٦'; write '4096')"),
        ("CONNECT_TIMEOUT_S", "é", "must be a number, e.g. 15, not text ('é')"),
    ],
)  # fmt: skip
def test_digits_of_another_script_are_named_with_the_ascii_form(
    name: str, value: str, words: str
) -> None:
    """Before: ``not a whole number ('１５')`` — a whole number refused as no number."""
    assert problem({f"WEBRESEARCH_{name}": value}) == f"invalid setting WEBRESEARCH_{name}: {words}"
