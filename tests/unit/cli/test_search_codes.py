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


@pytest.mark.parametrize("value", ["en", "pt-BR", "zh-Hans", "es-419", " de "])
def test_valid_language_tags_pass(value: str) -> None:
    from webresearch.cli.search import LANGUAGE_FORM, LANGUAGE_TAG, checked_code

    assert checked_code(value, LANGUAGE_TAG, LANGUAGE_FORM) == value.strip()


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
