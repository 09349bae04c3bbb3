"""The failover, fusion and operator settings of web_search (issue 18 §2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from webresearch import ConfigurationError, Settings, Toolkit
from webresearch.search.registry import resolve_provider_ids


def test_providers_from_the_environment_and_the_file(tmp_path: Path) -> None:
    env = Settings.load(environ={"WEBRESEARCH_SEARCH_PROVIDERS": " SearXNG, ddgs ,"})
    assert env.search_providers == ("searxng", "ddgs")
    path = tmp_path / "webresearch.toml"
    path.write_text(
        '[search]\nproviders = ["searxng", "brave"]\nfusion = "rrf"\nmax_results = 10\n'
        'language = "DE"\ncountry = "at"\ncooldown_s = 30\n',
        encoding="utf-8",
    )
    file = Settings.load(environ={}, path=path)
    assert file.search_providers == ("searxng", "brave") and file.search_fusion == "rrf"
    assert (file.search_max_results, file.search_language, file.search_country) == (10, "de", "at")
    assert file.search_cooldown_s == 30.0


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        ({"WEBRESEARCH_SEARCH_PROVIDERS": "brave,ddgs,brave"}, "listed twice"),
        ({"WEBRESEARCH_SEARCH_FUSION": "rrf"}, "WEBRESEARCH_SEARCH_FUSION"),
        (
            {"WEBRESEARCH_SEARCH_FUSION": "rrf", "WEBRESEARCH_SEARCH_PROVIDERS": "brave"},
            "two or more search_providers",
        ),
        ({"WEBRESEARCH_SEARCH_MAX_RESULTS": "25"}, "WEBRESEARCH_SEARCH_MAX_RESULTS"),
        ({"WEBRESEARCH_SEARCH_MAX_RESULTS": "0"}, "WEBRESEARCH_SEARCH_MAX_RESULTS"),
        ({"WEBRESEARCH_SEARCH_LANGUAGE": "english"}, "must be a language tag"),
        ({"WEBRESEARCH_SEARCH_COUNTRY": "u-s"}, "must be a two-letter country code"),
        ({"WEBRESEARCH_SEARCH_COOLDOWN_S": "0"}, "WEBRESEARCH_SEARCH_COOLDOWN_S"),
    ],
)
def test_wrong_values_are_refused_at_start_naming_the_variable(
    environ: dict[str, str], words: str
) -> None:
    with pytest.raises(ConfigurationError, match=words):
        Settings.load(environ=environ)


def test_the_list_wins_and_one_provider_is_a_one_element_list() -> None:
    def ids(**values: Any) -> tuple[str, ...]:
        return resolve_provider_ids(
            Settings.load(environ={}, **values), ddgs_available=lambda: True
        )

    assert ids(search_provider="brave") == ("brave",)
    assert ids(search_providers=["searxng", "ddgs"], search_provider="brave") == ("searxng", "ddgs")
    assert ids() == ("ddgs",)
    assert ids(searxng_url="http://searx:8080") == ("searxng",)
    assert ids(search_providers=["none"]) == ()
    assert ids(search_provider="off") == ()


async def test_a_listed_provider_that_is_not_set_up_leaves_web_search_out() -> None:
    settings = Settings.load(
        environ={},
        journal_url="memory://",
        search_providers=["searxng", "tavily"],
        searxng_url="http://127.0.0.1:9",
    )
    async with Toolkit(settings) as toolkit:
        assert "web_search" not in [spec.name for spec in toolkit.tools()]
        assert "WEBRESEARCH_TAVILY_API_KEY" in toolkit.unavailable["web_search"]
