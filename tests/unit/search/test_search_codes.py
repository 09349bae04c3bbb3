"""Language and country codes of web_search: the model's codes are checked like the CLI's
and the settings' (one rule, :mod:`webresearch.config.codes`), and each provider gets the
form it takes (session 10 review, faults 5 and 6)."""

from __future__ import annotations

from typing import ClassVar

import pytest

from webresearch import ConfigurationError, Settings, Toolkit
from webresearch.config import ProviderOptions
from webresearch.errors import InvalidArguments
from webresearch.search.base import (
    Capability,
    NoOptions,
    SearchOptions,
    SearchResponse,
    SearchResult,
)
from webresearch.search.brave import BraveProvider, brave_language
from webresearch.search.ddgs import region_for
from webresearch.search.searxng import SearxngProvider, searxng_language
from webresearch.search.service import SearchService
from webresearch.tools.base import ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH, WebSearch, WebSearchArgs, options_for


class Recorder:
    """A provider that records the options of each search and finds one page."""

    id: ClassVar[str] = "rec"
    name: ClassVar[str] = "Recorder"
    options_model: ClassVar[type[ProviderOptions]] = NoOptions
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"language", "country"})

    def __init__(self) -> None:
        self.options: list[SearchOptions] = []

    @classmethod
    def from_settings(cls, settings: Settings) -> Recorder:
        raise NotImplementedError

    async def search(self, query: str, options: SearchOptions) -> SearchResponse:
        self.options.append(options)
        return SearchResponse(results=(SearchResult("https://a.test/", "A", "s"),), raw_count=1)

    async def aclose(self) -> None:
        pass


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (
            {"country": "uk"},
            "country: must be a two-letter country code (ISO 3166-1 alpha-2) like us or de, not 'uk': no country has this code (United Kingdom is gb)",
        ),
        ({"country": "zz"}, "not 'zz': no country has this code"),
        (
            {"language": "iw"},
            "language: must be a language tag (BCP 47) like en, pt-BR or zh-Hans, not 'iw': an old code: Hebrew is he",
        ),
        ({"language": "xx-YY"}, "not 'xx-YY'"),
        ({"language": "en", "country": "uk"}, "United Kingdom is gb"),
    ],
)
def test_the_models_codes_that_do_not_exist_are_refused_naming_the_fix(
    arguments: dict[str, str], words: str
) -> None:
    with pytest.raises(InvalidArguments) as caught:
        WebSearchArgs.from_json({"query": "q", **arguments})
    assert words in str(caught.value)


def test_tags_are_kept_in_their_canonical_case_and_blank_codes_are_absent() -> None:
    settings = Settings.load(environ={}, search_language="de", search_country="at")
    args = WebSearchArgs.from_json({"query": "q", "language": " pt-br ", "country": "BR"})
    options = options_for(args, settings)
    assert (options.language, options.country) == ("pt-BR", "br")
    blank = options_for(
        WebSearchArgs.from_json({"query": "q", "language": " ", "country": ""}), settings
    )
    assert (blank.language, blank.country) == ("de", "at")


async def test_the_toolkit_refuses_uk_before_any_provider_sees_it() -> None:
    recorder = Recorder()

    def build(services: Services) -> ToolEntry[WebSearchArgs]:
        service = SearchService(recorder, services.cache("web_search", maxsize=8, ttl_s=300))
        return ToolEntry(
            spec=WEB_SEARCH, arguments=WebSearchArgs.from_json, run=WebSearch(services, service)
        )

    settings = Settings.load(environ={}, journal_url="memory://")
    async with Toolkit(settings, builders=[build]) as toolkit:
        refused = await toolkit.call(
            "web_search", {"query": "q", "country": "uk", "language": "en"}
        )
        taken = await toolkit.call("web_search", {"query": "q", "country": "gb", "language": "en"})
    assert not refused.ok and "United Kingdom is gb" in refused.text
    assert taken.ok, taken.text
    assert [(o.language, o.country) for o in recorder.options] == [("en", "gb")]


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("pt-BR", "pt-BR"),
        ("zh-Hans", "zh-Hans"),
        ("en-gb", "en-GB"),
        ("es-419", "es-419"),
        ("sr-Latn", "sr-Latn"),
        ("DE", "de"),
    ],
)
def test_the_language_setting_takes_what_language_takes(value: str, kept: str) -> None:
    settings = Settings.load(environ={"WEBRESEARCH_SEARCH_LANGUAGE": value})
    assert settings.search_language == kept


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        ({"WEBRESEARCH_SEARCH_LANGUAGE": "iw"}, "not 'iw': an old code: Hebrew is he"),
        (
            {"WEBRESEARCH_SEARCH_COUNTRY": "uk"},
            "not 'uk': no country has this code (United Kingdom is gb)",
        ),
    ],
)
def test_a_setting_is_refused_with_the_reason(environ: dict[str, str], words: str) -> None:
    with pytest.raises(ConfigurationError, match=words.replace("(", r"\(").replace(")", r"\)")):
        Settings.load(environ=environ)


@pytest.mark.parametrize(
    ("language", "country", "sent"),
    [
        ("en", None, "en"),
        ("en", "gb", "en-GB"),
        ("pt-BR", None, "pt-BR"),
        ("pt-BR", "us", "pt-BR"),
        ("zh-Hans", None, "zh"),
        ("zh-Hant", None, "zh-TW"),
        ("zh-Hant", "hk", "zh-HK"),
        ("es-419", None, "es"),
        ("es-419", "mx", "es-MX"),
        ("sr-Latn", None, "sr"),
        ("fil", "ph", "fil-PH"),
    ],
)
def test_searxng_gets_the_one_form_it_checks(language: str, country: str | None, sent: str) -> None:
    assert searxng_language(language, country) == sent
    params = SearxngProvider("http://127.0.0.1:9").params(
        "q", SearchOptions(language=language, country=country)
    )
    assert params["language"] == sent


@pytest.mark.parametrize(
    ("language", "sent"),
    [
        ("en", "en"),
        ("en-GB", "en-gb"),
        ("en-US", "en"),
        ("pt-BR", "pt-br"),
        ("zh", "zh-hans"),
        ("zh-Hans", "zh-hans"),
        ("zh-Hant", "zh-hant"),
        ("zh-TW", "zh-hant"),
        ("ja", "jp"),
        ("es-419", "es"),
    ],
)
def test_brave_gets_its_search_lang_form(language: str, sent: str) -> None:
    assert brave_language(language) == sent
    params = BraveProvider("k", "http://127.0.0.1:9").params("q", SearchOptions(language=language))
    assert params["search_lang"] == sent


@pytest.mark.parametrize(
    ("language", "country", "region"),
    [
        ("pt-BR", None, "br-pt"),
        ("zh-Hans", None, "cn-zh"),
        ("zh-Hant", None, "hk-tzh"),
        ("zh-Hant", "tw", "tw-tzh"),
        ("es-419", "mx", "mx-es"),
        ("en-GB", None, "uk-en"),
        ("en", "gb", "uk-en"),
    ],
)
def test_ddgs_reads_the_tags_region(language: str, country: str | None, region: str) -> None:
    assert region_for(language, country) == region
