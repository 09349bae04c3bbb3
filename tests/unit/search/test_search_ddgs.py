"""The ddgs provider through an injected client object (no network)."""

from __future__ import annotations

import importlib
import inspect
import threading
from typing import Any

import ddgs.exceptions as ddgs_exceptions
import pytest

from webresearch import Settings, Toolkit
from webresearch.errors import SearchError
from webresearch.search.base import SearchOptions
from webresearch.search.ddgs import DdgsProvider, ddgs_errors, region_for, translate_error
from webresearch.search.service import SearchService
from webresearch.tools.base import ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH, WebSearch, WebSearchArgs


class FakeDDGS:
    """Stands in for ``ddgs.DDGS``: records calls, returns rows or raises."""

    def __init__(self, rows: Any = None, error: BaseException | None = None) -> None:
        self.rows = rows if rows is not None else []
        self.error = error
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        self.calls.append((query, kwargs))
        if self.error is not None:
            raise self.error
        return list(self.rows)


ROWS = [
    {
        "title": "asyncio &mdash; docs",
        "href": "https://docs.python.org/3/library/asyncio.html",
        "body": "<b>asyncio</b> is a library",
    },
    {"title": None, "href": "https://example.org/x", "body": None},
    {"title": "bad", "href": "javascript:alert(1)", "body": "x"},
    "not a dict",
]


async def test_kwargs_and_rows() -> None:
    fake = FakeDDGS(ROWS)
    provider = DdgsProvider(client_factory=lambda: fake)
    options = SearchOptions(
        max_results=5, freshness="week", language="de", country="at", safesearch="strict"
    )
    response = await provider.search("python", options)
    assert fake.calls == [
        (
            "python",
            {
                "region": "at-de",
                "safesearch": "on",
                "max_results": 5,
                "backend": "auto",
                "timelimit": "w",
            },
        )
    ]
    assert [r.url for r in response.results] == [
        "https://docs.python.org/3/library/asyncio.html",
        "https://example.org/x",
        "javascript:alert(1)",
    ]
    assert response.raw_count == 4


@pytest.mark.parametrize(
    "language,country,region",
    [
        (None, None, "us-en"),
        ("en", "gb", "uk-en"),
        (None, "de", "de-de"),
        ("fr", "ca", "ca-fr"),
        ("fr", None, "fr-fr"),
        ("en", None, "us-en"),
        ("ja", None, "jp-jp"),
        ("sv", None, "se-sv"),
        (None, "jp", "jp-jp"),
        ("xx", "zz", "us-en"),
    ],
)
def test_region_for(language: str | None, country: str | None, region: str) -> None:
    assert region_for(language, country) == region


@pytest.mark.parametrize(
    "error,code",
    [
        (ddgs_exceptions.RatelimitException("202 Ratelimit"), "rate"),
        (ddgs_exceptions.TimeoutException("timed out"), "timeout"),
        (ddgs_exceptions.DDGSException("Request timed out"), "timeout"),
        (
            ddgs_exceptions.DDGSException(
                "error sending request for url (https://x): connect failed"
            ),
            "network",
        ),
        (ddgs_exceptions.DDGSException("boom"), "upstream"),
        (RuntimeError("bug inside the library"), "upstream"),
    ],
)
async def test_errors_are_translated(error: BaseException, code: str) -> None:
    provider = DdgsProvider(client_factory=lambda: FakeDDGS(error=error))
    with pytest.raises(SearchError) as info:
        await provider.search("q", SearchOptions())
    assert info.value.code == code
    assert "https://x" not in info.value.message


async def test_no_results_found_is_a_real_empty_answer() -> None:
    error = ddgs_exceptions.DDGSException("No results found.")
    provider = DdgsProvider(client_factory=lambda: FakeDDGS(error=error))
    response = await provider.search("q", SearchOptions())
    assert response.results == () and response.raw_count == 0


def test_every_ddgs_exception_has_a_rule() -> None:
    """Fails when ddgs grows an exception class we did not decide about."""
    module = importlib.import_module("ddgs.exceptions")
    ruled = {kind for kind, _ in ddgs_errors()}
    exported = [
        obj
        for _, obj in inspect.getmembers(module, inspect.isclass)
        if issubclass(obj, Exception) and obj.__module__ == module.__name__
    ]
    assert exported and [cls.__name__ for cls in exported if cls not in ruled] == []
    for exc_class in exported:
        assert isinstance(translate_error(exc_class("x"), "s"), SearchError)


async def test_blocking_library_is_cut_at_the_deadline() -> None:
    release = threading.Event()

    class Stuck(FakeDDGS):
        def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
            release.wait(10)
            return []

    provider = DdgsProvider(timeout_s=0.2, client_factory=Stuck)
    try:
        with pytest.raises(SearchError) as info:
            await provider.search("q", SearchOptions())
    finally:
        release.set()
    assert info.value.code == "timeout" and info.value.retryable


def test_from_settings_without_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    from webresearch import ConfigurationError
    from webresearch.search import ddgs as module

    monkeypatch.setattr(module, "is_installed", lambda: False)
    with pytest.raises(
        ConfigurationError, match=r"pip install -e '\.\[search\]' in the webresearch checkout"
    ):
        DdgsProvider.from_settings(Settings.load(environ={}))


async def test_ddgs_through_the_toolkit() -> None:
    fake = FakeDDGS(ROWS)

    def build(services: Services) -> ToolEntry[WebSearchArgs]:
        service = SearchService(
            DdgsProvider(client_factory=lambda: fake),
            services.cache("web_search", maxsize=8, ttl_s=300),
        )
        return ToolEntry(
            spec=WEB_SEARCH, arguments=WebSearchArgs.from_json, run=WebSearch(services, service)
        )

    settings = Settings.load(environ={}, journal_url="memory://")
    async with Toolkit(settings, builders=[build]) as toolkit:
        first = await toolkit.call("web_search", {"query": "python asyncio", "max_results": 2})
        second = await toolkit.call("web_search", {"query": "python asyncio", "max_results": 2})
    assert first.ok, first.text
    assert "1. [asyncio — docs](https://docs.python.org/3/library/asyncio.html)" in first.text
    assert "2. [example.org/x](https://example.org/x)" in first.text
    assert "javascript" not in first.text
    assert second.meta["cached"] is True and len(fake.calls) == 1
