"""The rules for operator URLs (issue 21 item 2; ``webresearch.config.urls``): every pasted
form maps to the one the code dials, or is refused naming the expected form and never the
value. End to end against local servers: ``tests/integration/test_operator_urls.py`` and
``tests/fleet/test_url_forms.py``."""

from __future__ import annotations

import pytest

from webresearch import Settings
from webresearch.config.urls import cdp_url, journal_url, service_base_url, state_url
from webresearch.errors import ConfigurationError

SECRET = "s3cr3t-pw"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://searxng:8080", "http://searxng:8080"),
        ("http://searxng:8080/", "http://searxng:8080"),
        (" http://searxng:8080/search ", "http://searxng:8080"),
        ("http://searxng:8080/search/", "http://searxng:8080"),
        ("HTTPS://Host.example/Search", "https://Host.example"),
        ("https://gw.example/tools/searxng/search", "https://gw.example/tools/searxng"),
        ("https://gw.example/tools/searxng/", "https://gw.example/tools/searxng"),
        ("http://user:pw@searxng:8080/", "http://user:pw@searxng:8080"),
    ],
)
def test_a_search_base_url_in_any_pasted_form(given: str, expected: str) -> None:
    assert (
        service_base_url(given, api_paths=("/search",), example="http://searxng:8080") == expected
    )


@pytest.mark.parametrize(
    ("given", "api", "expected"),
    [
        ("https://api.firecrawl.dev/v2", ("/v2/scrape", "/v2/search"), "https://api.firecrawl.dev"),
        ("http://fc:3002/v2/search/", ("/v2/scrape", "/v2/search"), "http://fc:3002"),
        (
            "https://api.search.brave.com/res/v1/web/search",
            ("/res/v1/web/search",),
            "https://api.search.brave.com",
        ),
        (
            "https://api.search.brave.com/res/v1",
            ("/res/v1/web/search",),
            "https://api.search.brave.com",
        ),
        ("https://r.jina.ai/", (), "https://r.jina.ai"),
    ],
)
def test_documented_api_paths_and_their_leading_parts_are_removed(
    given: str, api: tuple[str, ...], expected: str
) -> None:
    assert service_base_url(given, api_paths=api, example="x") == expected


@pytest.mark.parametrize(
    ("given", "why"),
    [
        (f"ftp://u:{SECRET}@host/", "must be an absolute http(s) URL"),
        (f"searx-{SECRET}:8080", "must be an absolute http(s) URL"),
        (f"http://{SECRET}:99999/", "not a URL with a valid port"),
        (f"http://host/search?token={SECRET}", "without ?query or #fragment"),
        (f"http://host/{SECRET}#frag", "without ?query or #fragment"),
        (f"http://{SECRET}.example/v1", "ends in an API path (/v1/…)"),
        (f"http://{SECRET}.example/v1/scrape", "ends in an API path (/v1/…)"),
        ("http:///search", "must be an absolute http(s) URL"),
    ],
)
def test_base_urls_that_would_miss_are_refused_without_their_value(given: str, why: str) -> None:
    with pytest.raises(ValueError) as caught:
        service_base_url(given, api_paths=("/v2/scrape", "/search"), example="http://svc:8080")
    message = str(caught.value)
    assert why in message and "e.g. http://svc:8080" in message
    assert SECRET not in message


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("cdp://127.0.0.1:9222", "http://127.0.0.1:9222"),
        ("http://browser:9222/", "http://browser:9222"),
        ("http://browser:9222/json/version", "http://browser:9222"),
        ("http://browser:9222/json/version/", "http://browser:9222"),
        ("http://browser:9222/json", "http://browser:9222"),
        ("https://gw.example/chrome/json/version?token=T", "https://gw.example/chrome?token=T"),
        ("ws://browser:9222/devtools/browser/abc", "ws://browser:9222/devtools/browser/abc"),
        ("http://browser:9222/devtools/browser/abc", "ws://browser:9222/devtools/browser/abc"),
        ("wss://cloud.example?token=T", "wss://cloud.example?token=T"),
    ],
)
def test_a_cdp_url_in_any_pasted_form(given: str, expected: str) -> None:
    assert cdp_url(given) == expected


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("memory://", "memory://"),
        ("sqlite:///var/lib/w/state.db", "sqlite:///var/lib/w/state.db"),
        (f"redis://:{SECRET}@redis:6379", f"redis://:{SECRET}@redis:6379"),
        (f"redis://:{SECRET}@redis:6379/", f"redis://:{SECRET}@redis:6379"),
        ("redis://redis:6379/2/", "redis://redis:6379/2"),
        ("rediss://redis:6380/0?ssl_cert_reqs=none", "rediss://redis:6380/0?ssl_cert_reqs=none"),
    ],
)
def test_a_state_url_in_any_pasted_form(given: str, expected: str) -> None:
    assert state_url(given) == expected


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("jsonl:///var/log/w/journal.jsonl", "jsonl:///var/log/w/journal.jsonl"),
        (f"postgresql://w:{SECRET}@db:5432/journal/", f"postgresql://w:{SECRET}@db:5432/journal"),
        ("postgres://db/journal?sslmode=require", "postgres://db/journal?sslmode=require"),
        (
            "postgresql:///journal?host=/run/postgresql",
            "postgresql:///journal?host=/run/postgresql",
        ),
    ],
)
def test_a_journal_url_in_any_pasted_form(given: str, expected: str) -> None:
    assert journal_url(given) == expected


@pytest.mark.parametrize(
    ("variable", "given", "why"),
    [
        ("WEBRESEARCH_STATE_URL", f"redis://:{SECRET}@redis/cache", "is not a database number"),
        ("WEBRESEARCH_STATE_URL", "sqlite:///var/lib/", "needs a file path"),
        ("WEBRESEARCH_STATE_URL", f"unix:///run/{SECRET}.sock", "must start with memory://"),
        ("WEBRESEARCH_JOURNAL_URL", f"postgresql://w:{SECRET}@db/a/b", "more than a database name"),
        ("WEBRESEARCH_JOURNAL_URL", f"postgresql://w:{SECRET}@db:port/a", "valid port"),
        ("WEBRESEARCH_JOURNAL_URL", "jsonl:///var/log/", "needs a file path"),
        ("WEBRESEARCH_JOURNAL_URL", f"mysql://{SECRET}@db/a", "must be sqlite:///path"),
        ("WEBRESEARCH_BROWSER_CDP_URL", f"ftp://{SECRET}:9222", "must be http(s)://host:port"),
        ("WEBRESEARCH_BROWSER_SCREENSHOT_FALLBACK_URL", f"http://{SECRET}:0x1", "valid port"),
    ],
)
def test_settings_refuse_misread_urls_at_load_naming_the_variable(
    variable: str, given: str, why: str
) -> None:
    with pytest.raises(ConfigurationError) as caught:
        Settings.load(environ={variable: given})
    message = caught.value.message
    assert variable in message and why in message and SECRET not in message


def test_settings_keep_urls_in_the_form_they_dial() -> None:
    settings = Settings.load(
        environ={
            "WEBRESEARCH_STATE_URL": "redis://redis:6379/0/",
            "WEBRESEARCH_JOURNAL_URL": "postgresql://w@db/journal/",
            "WEBRESEARCH_BROWSER_CDP_URL": "http://browser:9222/json/version",
        }
    )
    assert settings.state_url.get_secret_value() == "redis://redis:6379/0"
    assert settings.journal_url is not None
    assert settings.journal_url.get_secret_value() == "postgresql://w@db/journal"
    assert settings.browser_cdp_url is not None
    assert settings.browser_cdp_url.get_secret_value() == "http://browser:9222"
    assert Settings.load(environ={"WEBRESEARCH_JOURNAL_URL": " "}).journal_url is None
