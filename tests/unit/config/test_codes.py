"""Session 10 review: ``search_country = "uk"`` and ``--country uk`` were taken (only the
form was checked): no country has the code uk (ISO 3166-1: the United Kingdom is gb). The
codes are checked against CLDR's data (Babel) now, with the successor of a retired code."""

from __future__ import annotations

import pytest

from webresearch import ConfigurationError, Settings
from webresearch.config.codes import country_problem, language_problem


def test_every_iso_3166_country_passes_and_nothing_else() -> None:
    from babel import Locale

    two_letters = [str(code) for code in Locale("en").territories if len(str(code)) == 2]
    passed = {code for code in two_letters if country_problem(code) is None}
    assert len(passed) == 249  # ISO 3166-1's officially assigned codes (2024)
    assert {"GB", "US", "DE", "SS", "BQ", "AQ", "TW", "PS"} <= passed
    # CLDR regions that are no country of ISO 3166-1
    for code in ("EU", "EZ", "UN", "QO", "XA", "XB", "XK", "ZZ", "AC", "IC", "EA"):
        assert country_problem(code) is not None, code


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("uk", "no country has this code (United Kingdom is gb)"),
        ("UK", "no country has this code (United Kingdom is gb)"),
        ("yu", "no country has this code ("),
        ("xq", "no country has this code"),
        ("usa", "a country code is two letters"),
        ("u1", "a country code is two letters"),
    ],
)
def test_a_code_no_country_has_is_refused_with_its_successor(code: str, why: str) -> None:
    problem = country_problem(code)
    assert problem is not None and problem.startswith(why), problem


@pytest.mark.parametrize("tag", ["en", "EN", "pt-BR", "zh-Hans", "es-419", "sr-Latn-RS", "fil"])
def test_language_tags_that_exist_pass(tag: str) -> None:
    assert language_problem(tag) is None


@pytest.mark.parametrize(
    ("tag", "why"),
    [
        ("iw", "an old code: Hebrew is he"),
        ("in-ID", "language 'in': an old code: Indonesian is id"),
        ("eng", "a three-letter code: English is en"),
        ("qq", "no language has this code"),
        ("en-UK", "region 'UK': no country has this code (United Kingdom is gb)"),
        ("en-Abcd", "script 'Abcd': no script has this code"),
        ("es-998", "area '998': no area has this code"),
        ("en_US", "a tag is a language code, then optionally -Script and -REGION"),
    ],
)
def test_a_language_tag_nothing_has_is_refused(tag: str, why: str) -> None:
    assert language_problem(tag) == why


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("SEARCH_COUNTRY", "uk", "'uk': no country has this code (United Kingdom is gb)"),
        ("SEARCH_LANGUAGE", "iw", "'iw': an old code: Hebrew is he"),
        ("SEARCH_LANGUAGE", "qq", "'qq': no language has this code"),
    ],
)
def test_the_settings_check_the_codes_too(name: str, value: str, words: str) -> None:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={f"WEBRESEARCH_{name}": value})
    assert info.value.message.startswith(f"invalid setting WEBRESEARCH_{name}: ")
    assert words in info.value.message


def test_settings_that_exist_are_kept_lower_case() -> None:
    settings = Settings.load(
        environ={"WEBRESEARCH_SEARCH_COUNTRY": "GB", "WEBRESEARCH_SEARCH_LANGUAGE": "De"}
    )
    assert (settings.search_country, settings.search_language) == ("gb", "de")
