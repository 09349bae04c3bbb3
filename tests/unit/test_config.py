"""The settings loader: sources and their precedence, the TOML file's shapes, providers' own
options, errors that name the key, and unknown names reported the same way from every source."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from pydantic import SecretStr

from webresearch import ConfigurationError, Settings, Toolkit
from webresearch.config import DEFAULT_MAX_BYTES, OptionsCatalog, ProviderOptions
from webresearch.config.access import AccessSettings
from webresearch.config.browser import BrowserSettings
from webresearch.config.fleet import FleetSettings
from webresearch.config.hosted import HostedSettings
from webresearch.config.images import ImageSettings
from webresearch.config.mcp import McpSettings
from webresearch.config.network import NetworkSettings
from webresearch.config.runtime import RuntimeSettings
from webresearch.config.search import SearchSettings
from webresearch.hosted.firecrawl import FirecrawlOptions
from webresearch.runtime.journal import MemoryJournal
from webresearch.search.brave import BraveOptions
from webresearch.search.searxng import SearxngOptions

SECTIONS = (
    AccessSettings,
    NetworkSettings,
    RuntimeSettings,
    ImageSettings,
    BrowserSettings,
    McpSettings,
    SearchSettings,
    HostedSettings,
    FleetSettings,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "webresearch.toml"
    path.write_text(text, encoding="utf-8")
    return path


class AcmeOptions(ProviderOptions):
    api_key: SecretStr | None = None
    region: str = "eu"
    retries: int = 2


CATALOG: OptionsCatalog = {
    "acme": AcmeOptions,
    "brave": BraveOptions,
    "firecrawl": FirecrawlOptions,
}


# --- shape --------------------------------------------------------------------------------------


def test_every_setting_belongs_to_exactly_one_section() -> None:
    seen: dict[str, str] = {}
    for section in SECTIONS:
        for name in section.model_fields:
            assert name not in seen, (name, seen.get(name), section.__name__)
            seen[name] = section.__name__
    assert set(seen) == set(Settings.model_fields)


def test_defaults_without_any_source() -> None:
    settings = Settings.load(environ={})
    assert settings.fetch_max_bytes == DEFAULT_MAX_BYTES
    assert settings.reader == "local" and settings.screenshot_service == "none"
    assert settings.options("brave", BraveOptions).base_url == "https://api.search.brave.com"
    assert settings.options("brave", BraveOptions).api_key is None


# --- sources and precedence ---------------------------------------------------------------------


def test_argument_beats_environment_beats_file_beats_default(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "fetch_cache_size = 1\nsearch_timeout_s = 3.0\nuser_link_views = 7\n"
        '[search.acme]\nregion = "file"\nretries = 5\n',
    )
    environ = {
        "WEBRESEARCH_FETCH_CACHE_SIZE": "2",
        "WEBRESEARCH_SEARCH_TIMEOUT_S": "4",
        "WEBRESEARCH_ACME_REGION": "env",
    }
    settings = Settings.load(environ=environ, path=path, fetch_cache_size=3, acme_region="arg")
    assert settings.fetch_cache_size == 3  # argument
    assert settings.search_timeout_s == 4.0  # environment over file
    assert settings.user_link_views == 7  # file over default
    acme = settings.options("acme", AcmeOptions)
    assert acme.region == "arg" and acme.retries == 5  # the file's table fills the rest


def test_the_file_comes_from_webresearch_config_unless_a_path_is_given(tmp_path: Path) -> None:
    first = write(tmp_path, "fetch_cache_size = 11\n")
    other = tmp_path / "other.toml"
    other.write_text("fetch_cache_size = 22\n", encoding="utf-8")
    environ = {"WEBRESEARCH_CONFIG": str(first)}
    assert Settings.load(environ=environ).fetch_cache_size == 11
    assert Settings.load(environ=environ, path=other).fetch_cache_size == 22


def test_file_tables_flatten_and_dict_settings_keep_their_table(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
render = "never"
[search]
provider = "searxng"
cache_ttl_s = 12.5
[browser]
allowed_domains = ["Example.COM", "*.docs.example.org"]
[prices]
brave = 0.005
jina = 0.1
[approval]
browser = "supervised"
""",
    )
    settings = Settings.load(environ={}, path=path)
    assert settings.render == "never"
    assert settings.search_provider == "searxng" and settings.search_cache_ttl_s == 12.5
    assert settings.browser_allowed_domains == ("example.com", "*.docs.example.org")
    # the deprecated browser name is every tool's domain policy now
    assert settings.allowed_domains == ("example.com", "*.docs.example.org")
    assert settings.prices == {"brave": 0.005, "jina": 0.1}
    assert settings.approval == {"browser": "supervised"}


def test_providers_tables_in_the_file(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
[search.searxng]
url = "http://searx.internal:8080"
[search.brave]
api_key = "brave-from-file"
[reader]
provider = "firecrawl"
timeout_s = 30
[reader.firecrawl]
api_key = "fc-from-file"
headers = { "X-Proxy-Token" = "proxy-from-file" }
credit_price = 0.25
[acme]
region = "top-level table"
""",
    )
    settings = Settings.load(environ={}, path=path)
    assert settings.reader == "firecrawl" and settings.reader_timeout_s == 30
    searxng = settings.options("searxng", SearxngOptions).url
    assert searxng is not None and searxng.get_secret_value() == "http://searx.internal:8080"
    brave = settings.options("brave", BraveOptions).api_key
    assert brave is not None and brave.get_secret_value() == "brave-from-file"
    firecrawl = settings.options("firecrawl", FirecrawlOptions)
    assert firecrawl.credit_price == 0.25
    assert firecrawl.headers["X-Proxy-Token"].get_secret_value() == "proxy-from-file"
    assert settings.options("acme", AcmeOptions).region == "top-level table"


def test_environment_forms_lists_and_json(tmp_path: Path) -> None:
    settings = Settings.load(
        environ={
            "WEBRESEARCH_ALLOWED_NETWORKS": "127.0.0.0/8, 10.1.0.0/16",
            "WEBRESEARCH_APP_DOMAINS": "example.com,,docs.example.org",
            "WEBRESEARCH_PRICES": '{"brave": 0.01}',
            "WEBRESEARCH_FIRECRAWL_HEADERS": json.dumps({"X-Proxy-Token": "t0ken-value"}),
            "WEBRESEARCH_SEARCH_RATE_LIMIT": "5",
        }
    )
    assert [str(n) for n in settings.allowed_networks] == ["127.0.0.0/8", "10.1.0.0/16"]
    assert settings.app_domains == ("example.com", "docs.example.org")
    assert settings.prices == {"brave": 0.01} and settings.search_rate_limit == 5
    headers = settings.options("firecrawl", FirecrawlOptions).headers
    assert headers["X-Proxy-Token"].get_secret_value() == "t0ken-value"


def test_replace_keeps_every_source_and_changes_options_by_their_flat_name() -> None:
    settings = Settings.load(
        environ={"WEBRESEARCH_ACME_REGION": "env", "WEBRESEARCH_FETCH_CACHE_SIZE": "9"}
    )
    changed = settings.replace(acme_retries=7, search_rate_limit=1)
    assert changed.fetch_cache_size == 9 and changed.search_rate_limit == 1
    acme = changed.options("acme", AcmeOptions)
    assert acme.region == "env" and acme.retries == 7
    assert settings.options("acme", AcmeOptions).retries == 2  # the original is unchanged


# --- errors name where ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "environ,needle",
    [
        ({"WEBRESEARCH_FETCH_MAX_BYTES": "lots"}, "WEBRESEARCH_FETCH_MAX_BYTES"),
        ({"WEBRESEARCH_ALLOWED_NETWORKS": "127.0.0.5/8"}, "did you mean 127.0.0.0/8"),
        ({"WEBRESEARCH_STATE_URL": "ftp://x"}, "WEBRESEARCH_STATE_URL"),
    ],
)
def test_a_wrong_value_is_an_error_naming_the_variable(
    environ: dict[str, str], needle: str
) -> None:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ=environ)
    assert needle in info.value.message


def test_a_wrong_value_in_the_file_names_the_key_and_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[search]\ntimeout_s = -1\n")
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={}, path=path)
    assert f"search_timeout_s in {path}" in info.value.message


def test_a_wrong_provider_option_names_where_it_was_given(tmp_path: Path) -> None:
    environ = {"WEBRESEARCH_FIRECRAWL_CREDIT_PRICE": "-2", "WEBRESEARCH_ACME_RETRIES": "x"}
    settings = Settings.load(environ=environ)  # not an error until a provider reads it
    with pytest.raises(ConfigurationError) as info:
        settings.options("firecrawl", FirecrawlOptions)
    assert "WEBRESEARCH_FIRECRAWL_CREDIT_PRICE" in info.value.message
    path = write(tmp_path, "[search.acme]\nretries = 'many'\n")
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={}, path=path).options("acme", AcmeOptions)
    assert f"[search.acme] retries in {path}" in info.value.message
    # The Toolkit reads every installed provider's options at start: a wrong one stops it.
    with pytest.raises(ConfigurationError, match="WEBRESEARCH_FIRECRAWL_CREDIT_PRICE"):
        Toolkit(settings.replace(journal_url="memory://"))


@pytest.mark.parametrize("text", ["not = [valid", "a = 1\na = 2\n"])
def test_an_invalid_file_names_the_file(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ConfigurationError, match="not valid TOML"):
        Settings.load(environ={}, path=path)
    with pytest.raises(ConfigurationError, match="cannot read config file"):
        Settings.load(environ={}, path=tmp_path / "missing.toml")


def test_a_secret_value_is_never_repeated_in_an_error() -> None:
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={"WEBRESEARCH_STATE_URL": "ftp://user:hunter2pass@host/"})
    assert "hunter2pass" not in info.value.message


# --- unknown names: the same rule for every source -------------------------------------------------


def test_unknown_names_are_reported_alike_from_every_source(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "alow_private = true\n[search.acme]\nregoin = 'x'\n[search.nosuch]\napi_key = 'k'\n",
    )
    settings = Settings.load(
        environ={"WEBRESEARCH_ALLOW_PRIVAT": "1", "WEBRESEARCH_ACME_REGION": "ok"},
        path=path,
        fetch_cache_sise=3,
    )
    assert settings.allow_private is False  # nothing unknown is applied
    lines = settings.unknown_names(CATALOG)
    assert lines == [  # by name
        "unknown setting WEBRESEARCH_ALLOW_PRIVAT ignored (did you mean WEBRESEARCH_ALLOW_PRIVATE?)",
        f"unknown setting alow_private in {path} ignored (did you mean allow_private?)",
        "unknown setting fetch_cache_sise ignored (did you mean fetch_cache_size?)",
        f"unknown setting [search.acme] regoin in {path} ignored (did you mean region?)",
        f"unknown setting [search.nosuch] api_key in {path} ignored "
        "(no installed provider is called 'nosuch')",
    ]


def test_the_toolkit_warns_once_per_unknown_name(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="webresearch")
    settings = Settings.load(
        environ={"WEBRESEARCH_ALLOW_PRIVAT": "1", "WEBRESEARCH_BRAVE_API_KEY": "k-known"},
        journal_url="memory://",
        search_provider="none",
    )
    Toolkit(settings, journal=MemoryJournal())
    warned = [r.getMessage() for r in caplog.records if "unknown setting" in r.getMessage()]
    assert warned == [
        "unknown setting WEBRESEARCH_ALLOW_PRIVAT ignored (did you mean WEBRESEARCH_ALLOW_PRIVATE?)"
    ]  # the brave key is a known option, and values never appear


# --- secrets -----------------------------------------------------------------------------------


def test_provider_secrets_are_masked_and_known_to_the_redactor() -> None:
    settings = Settings.load(
        environ={
            "WEBRESEARCH_ACME_API_KEY": "acme-secret-0001",
            "WEBRESEARCH_ACME_REGION": "us-east",
            "WEBRESEARCH_BRAVE_BASE_URL": "https://brave.proxy.example",
        }
    )
    shown = repr(settings) + str(settings) + json.dumps(settings.public_dict(CATALOG))
    assert "acme-secret-0001" not in shown
    assert settings.public_dict(CATALOG)["acme_api_key"] == "***"
    assert settings.public_dict(CATALOG)["acme_region"] == "us-east"
    exact = settings.secret_values(CATALOG)
    assert "acme-secret-0001" in exact
    assert "us-east" not in exact and "https://brave.proxy.example" not in exact
    # Without the models every text given for a provider counts as a secret.
    unknown = settings.secret_values()
    assert {"acme-secret-0001", "us-east", "https://brave.proxy.example"} <= set(unknown)
    assert settings.public_dict()["acme_region"] == "***"
