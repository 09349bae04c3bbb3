"""Fresh review, session 9: ``search --language 'en"; drop'`` and ``--country ZZZZZZZ`` were
passed to the provider as they were (any text up to 16 characters), and ``web_search is not
available: …`` (a setting missing) was the only error line without ``error[configuration]``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from webresearch.cli.main import cli


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--language", 'en"; drop', "must be a language tag (BCP 47) like en"),
        ("--language", "english", "must be a language tag (BCP 47)"),
        ("--country", "ZZZZZZZ", "must be a two-letter country code (ISO 3166-1 alpha-2)"),
        ("-c", "u1", "not 'u1'"),
    ],
)
def test_a_code_that_is_no_language_tag_or_country_is_refused(
    option: str, value: str, words: str, tmp_path: object
) -> None:
    result = CliRunner().invoke(
        cli,
        ["search", "x", option, value],
        env={"WEBRESEARCH_SEARCH_PROVIDER": "none", "WEBRESEARCH_JOURNAL_URL": "memory://"},
    )
    assert result.exit_code == 2
    assert words in result.output


@pytest.mark.parametrize("value", ["en", "pt-BR", "zh-Hans", "es-419", " de ", "sr-Latn-RS"])
def test_valid_language_tags_pass(value: str) -> None:
    from webresearch.cli.search import LANGUAGE_FORM, checked_code
    from webresearch.config.codes import language_problem

    assert checked_code(value, language_problem, LANGUAGE_FORM) == value.strip()


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        # Session 10 review: only the form was checked, so a code no country has was sent.
        ("--country", "uk", "not 'uk': no country has this code (United Kingdom is gb)"),
        ("--country", "ZZ", "not 'ZZ': no country has this code"),
        ("--country", "xk", "not 'xk': no country has this code"),
        ("--language", "iw", "not 'iw': an old code: Hebrew is he"),
        ("--language", "eng", "not 'eng': a three-letter code: English is en"),
        ("--language", "xx", "not 'xx': no language has this code"),
        ("--language", "en-UK", "region 'UK': no country has this code (United Kingdom is gb)"),
        ("--language", "zh-Hanz", "script 'Hanz': no script has this code"),
        ("--language", "es-999", "area '999': no area has this code"),
    ],
)
def test_a_code_of_the_right_form_that_nothing_has_is_refused(
    option: str, value: str, words: str
) -> None:
    result = CliRunner().invoke(
        cli,
        ["search", "x", option, value],
        env={"WEBRESEARCH_SEARCH_PROVIDER": "none", "WEBRESEARCH_JOURNAL_URL": "memory://"},
    )
    assert result.exit_code == 2
    assert words in " ".join(result.stderr.split()), result.stderr


@pytest.mark.parametrize("value", ["gb", "US", "de", "br"])
def test_countries_pass(value: str) -> None:
    from webresearch.cli.search import COUNTRY_FORM, checked_code
    from webresearch.config.codes import country_problem

    assert checked_code(value, country_problem, COUNTRY_FORM) == value


def test_an_unavailable_search_is_a_configuration_error_line() -> None:
    result = CliRunner().invoke(
        cli,
        ["search", "x"],
        env={
            "WEBRESEARCH_SEARCH_PROVIDER": "brave",
            "WEBRESEARCH_BRAVE_API_KEY": "",
            "WEBRESEARCH_JOURNAL_URL": "memory://",
        },
    )
    assert result.exit_code == 2
    assert result.stderr.startswith(
        "webresearch search: error[configuration]: web_search is not available: "
    )
