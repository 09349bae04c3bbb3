"""Provider registry: built-ins through the plugin path, entry points, selection, key messages."""

from __future__ import annotations

import logging
from importlib.metadata import EntryPoint

import pytest

from tests.unit.search.plugin_sample import AcmeProvider, OtherProvider
from webresearch import ConfigurationError, Settings, Toolkit
from webresearch.config import option_env_var
from webresearch.search import ddgs as ddgs_module
from webresearch.search.base import SearchProvider, require_key
from webresearch.search.brave import BraveOptions, BraveProvider
from webresearch.search.builtins import BUILTIN_PROVIDERS
from webresearch.search.registry import (
    ENTRY_POINT_GROUP,
    REGISTRY,
    ProviderRegistry,
    create_provider,
    resolve_provider_id,
)
from webresearch.tools.web_search import NO_PROVIDER

BUILTIN_IDS = ["brave", "ddgs", "exa", "firecrawl", "searxng", "tavily"]


def _ep(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


def test_builtins_are_registered_through_the_plugin_hook() -> None:
    assert REGISTRY.ids() == BUILTIN_IDS
    for cls in BUILTIN_PROVIDERS:
        assert isinstance(cls.id, str) and cls.name and isinstance(cls.capabilities, frozenset)


def test_pyproject_declares_the_builtins_entry_point() -> None:
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[3] / "pyproject.toml"
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    group = data["project"]["entry-points"][ENTRY_POINT_GROUP]
    assert group == {"builtins": "webresearch.search.builtins:register_builtins"}


def test_plugins_from_entry_points(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="webresearch")
    registry = ProviderRegistry(
        lambda group: [
            _ep("builtins", "webresearch.search.builtins:register_builtins"),
            _ep("acme", "tests.unit.search.plugin_sample:AcmeProvider"),
            _ep("many", "tests.unit.search.plugin_sample:register_many"),
            _ep("missing", "no_such_package_xyz:Provider"),
            _ep("shape", "tests.unit.search.plugin_sample:NotAProvider"),
            _ep("bug", "tests.unit.search.plugin_sample:failing_hook"),
        ]
    )
    assert registry.ids() == sorted([*BUILTIN_IDS, "acme", "other"])
    assert registry.get("acme") is AcmeProvider and registry.get("other") is OtherProvider
    logged = [r.getMessage() for r in caplog.records]
    assert len(logged) == 3
    assert any("'missing'" in m and "ModuleNotFoundError" in m for m in logged)
    assert any("'shape'" in m and "TypeError" in m for m in logged)
    assert any("'bug'" in m and "RuntimeError" in m for m in logged)


def test_broken_entry_point_listing_does_not_break_builtins(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def explode(group: str) -> list[EntryPoint]:
        raise OSError("metadata unreadable")

    registry = ProviderRegistry(explode)
    assert registry.ids() == BUILTIN_IDS


def test_register_checks_shape_and_duplicates() -> None:
    registry = ProviderRegistry(lambda group: [])
    registry.load()
    registry.register(AcmeProvider)
    registry.register(AcmeProvider)  # the same class again is fine
    with pytest.raises(ValueError, match="already registered"):
        registry.register(type("Clash", (AcmeProvider,), {"id": "acme"}))
    with pytest.raises(TypeError):
        registry.register(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="usable string id"):
        registry.register(type("Off", (AcmeProvider,), {"id": "none"}))
    with pytest.raises(TypeError, match="unknown capabilities"):
        registry.register(
            type("Caps", (AcmeProvider,), {"id": "caps", "capabilities": frozenset({"telepathy"})})
        )


def test_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(ConfigurationError) as info:
        REGISTRY.get("bing")
    assert "unknown search provider 'bing'" in info.value.message
    assert "searxng" in info.value.message and "brave" in info.value.message


def test_builtin_instances_satisfy_the_protocol() -> None:
    settings = Settings.load(
        environ={},
        searxng_url="http://searx.internal:8080",
        brave_api_key="k1",
        tavily_api_key="k2",
        exa_api_key="k3",
        firecrawl_api_key="k4",
    )
    for provider_id in BUILTIN_IDS:
        provider = create_provider(settings, provider_id)
        assert isinstance(provider, SearchProvider)
        assert provider.id == provider_id


@pytest.mark.parametrize(
    "values,ddgs,expected",
    [
        ({}, True, "ddgs"),
        ({}, False, None),
        ({"searxng_url": "http://searx:8080"}, True, "searxng"),
        ({"searxng_url": "http://searx:8080", "search_provider": "brave"}, True, "brave"),
        ({"search_provider": " Tavily "}, False, "tavily"),
        ({"search_provider": "none"}, True, None),
        ({"search_provider": "off"}, True, None),
        ({"brave_api_key": "k"}, False, None),  # a key alone never selects a paid provider
    ],
)
def test_resolve_provider_id(values: dict[str, str], ddgs: bool, expected: str | None) -> None:
    settings = Settings.load(environ={}, **values)
    assert resolve_provider_id(settings, ddgs_available=lambda: ddgs) == expected


def test_settings_from_environment() -> None:
    settings = Settings.load(
        environ={
            "WEBRESEARCH_SEARCH_PROVIDER": "brave",
            "WEBRESEARCH_BRAVE_API_KEY": "secret-brave",
            "WEBRESEARCH_SEARCH_TIMEOUT_S": "4",
            "WEBRESEARCH_SEARCH_SAFESEARCH": "strict",
        }
    )
    assert settings.search_provider == "brave"
    key = settings.options("brave", BraveOptions).api_key
    assert key is not None
    assert key.get_secret_value() == "secret-brave"
    assert settings.search_timeout_s == 4.0 and settings.search_safesearch == "strict"
    assert "secret-brave" not in repr(settings)
    assert "secret-brave" in settings.secret_values()


def test_require_key_message_names_the_variable() -> None:
    settings = Settings.load(environ={}, brave_api_key="   ")
    with pytest.raises(ConfigurationError) as info:
        require_key(settings.options("brave", BraveOptions), BraveProvider)
    assert info.value.message == "Brave Search API needs an API key: set WEBRESEARCH_BRAVE_API_KEY"
    assert option_env_var("exa", "api_key") == "WEBRESEARCH_EXA_API_KEY"


@pytest.mark.parametrize(
    "values,message",
    [
        ({"search_provider": "searxng"}, "set WEBRESEARCH_SEARXNG_URL"),
        ({"search_provider": "searxng", "searxng_url": "searx:8080"}, "absolute http(s) URL"),
        (
            {"search_provider": "brave", "brave_api_key": "k", "brave_base_url": "ftp://x"},
            "WEBRESEARCH_BRAVE_BASE_URL",
        ),
        ({"search_provider": "nope"}, "unknown search provider"),
    ],
)
def test_misconfiguration_leaves_web_search_out_with_a_reason(
    values: dict[str, str], message: str
) -> None:
    toolkit = Toolkit(Settings.load(environ={}, journal_url="memory://", **values))
    assert "web_search" not in [s.name for s in toolkit.tools()]  # the other tools stay
    assert message in toolkit.unavailable["web_search"]
    assert "searx:8080" not in toolkit.unavailable["web_search"]


def test_without_ddgs_and_without_configuration_web_search_is_not_registered(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(ddgs_module, "is_installed", lambda: False)
    caplog.set_level(logging.INFO, logger="webresearch")
    toolkit = Toolkit(Settings.load(environ={}, journal_url="memory://"))
    assert "web_search" not in [s.name for s in toolkit.tools()]  # the other tools stay
    assert toolkit.unavailable == {"web_search": NO_PROVIDER}
    assert [r.getMessage() for r in caplog.records if "web_search" in r.getMessage()] == [
        f"tool web_search is not available: {NO_PROVIDER}"
    ]
    # an explicit ddgs choice on such a machine says how to install it
    explicit = Toolkit(Settings.load(environ={}, journal_url="memory://", search_provider="ddgs"))
    assert (
        "pip install -e '.[search]' in the webresearch checkout"
        in (explicit.unavailable["web_search"])
    )


def test_is_installed_survives_a_finder_that_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    def refuse(name: str, package: str | None = None) -> None:
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(importlib.util, "find_spec", refuse)
    assert ddgs_module.is_installed() is False


async def test_the_health_check_reports_an_invalid_provider_option(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from webresearch import check_provider

    caplog.set_level(logging.WARNING, logger="webresearch")
    settings = Settings.load(environ={"WEBRESEARCH_FIRECRAWL_CREDIT_PRICE": "-1"})
    assert await check_provider(settings, "brave") == (False, "configuration")
    assert any("WEBRESEARCH_FIRECRAWL_CREDIT_PRICE" in r.getMessage() for r in caplog.records)
