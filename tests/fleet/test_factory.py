"""Settings and factories: the URL picks the backend; service URLs are secrets everywhere."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.fleet_servers import RedisServer
from webresearch import ConfigurationError, Settings, Toolkit
from webresearch.backends.postgres_journal import PostgresJournal
from webresearch.backends.redis_state import RedisState
from webresearch.backends.sqlite_state import SQLiteState
from webresearch.backends.state import FailOpenCache, MemoryState, open_state
from webresearch.redact import Redactor
from webresearch.runtime.limits import LimitRule, MemoryLimiter
from webresearch.tools.services import Services, open_journal

REDIS_URL = "redis://:s3cr3t-pass@10.1.2.3:6379/0"
PG_URL = "postgresql://fleet:pg-s3cret@db.internal:5432/webresearch"


def test_settings_read_the_fleet_variables_from_the_environment() -> None:
    settings = Settings.load(
        environ={
            "WEBRESEARCH_STATE_URL": REDIS_URL,
            "WEBRESEARCH_REDIS_PREFIX": "acme:",
            "WEBRESEARCH_JOURNAL_URL": PG_URL,
            "WEBRESEARCH_STORAGE_CONNECT_TIMEOUT_S": "1.5",
            "WEBRESEARCH_STORAGE_TIMEOUT_S": "0.75",
        }
    )
    assert settings.state_url.get_secret_value() == REDIS_URL
    assert settings.journal_url is not None
    assert settings.journal_url.get_secret_value() == PG_URL
    assert settings.redis_prefix == "acme:"
    assert (settings.storage_connect_timeout_s, settings.storage_timeout_s) == (1.5, 0.75)


def test_defaults_are_in_process_with_two_second_bounds() -> None:
    settings = Settings.load(environ={})
    assert settings.state_url.get_secret_value() == "memory://"
    assert settings.redis_prefix == "webresearch:"
    assert settings.storage_connect_timeout_s == settings.storage_timeout_s == 2.0


def test_service_urls_never_show_in_repr_public_dict_or_errors() -> None:
    settings = Settings.load(environ={}, state_url=REDIS_URL, journal_url=PG_URL)
    for shown in (repr(settings), str(settings), str(settings.public_dict())):
        assert "s3cr3t-pass" not in shown and "pg-s3cret" not in shown
        assert "10.1.2.3" not in shown and "db.internal" not in shown
    assert settings.public_dict()["state_url"] == "***"
    with pytest.raises(ConfigurationError) as info:
        Settings.load(environ={"WEBRESEARCH_STATE_URL": "mysql://root:hunter2@db/x"})
    assert "WEBRESEARCH_STATE_URL" in info.value.message
    assert "redis://" in info.value.message
    assert "hunter2" not in info.value.message and "mysql" not in info.value.message


def test_passwords_in_service_urls_are_redacted_from_any_text() -> None:
    settings = Settings.load(environ={}, state_url=REDIS_URL, journal_url=PG_URL)
    secrets = settings.secret_values()
    assert "s3cr3t-pass" in secrets and "pg-s3cret" in secrets
    redact = Redactor(secrets)
    assert "s3cr3t-pass" not in redact("the page says s3cr3t-pass and pg-s3cret")
    assert "pg-s3cret" not in redact(f"dsn={PG_URL}")
    # A URL without credentials is still hidden whole (its host is internal).
    plain = Settings.load(environ={}, state_url="redis://cache.internal:6379/0")
    assert "redis://cache.internal:6379/0" in plain.secret_values()


def test_the_url_scheme_picks_the_backend(tmp_path: Path) -> None:
    assert isinstance(open_state("memory://"), MemoryState)
    assert isinstance(open_state(f"sqlite:///{tmp_path}/s.sqlite3"), SQLiteState)
    assert (tmp_path / "s.sqlite3").exists()
    # Redis is dialled on first use only: an unreachable server does not break start-up.
    assert isinstance(open_state(REDIS_URL), RedisState)
    assert isinstance(open_state("rediss://:pw@redis.example:6380/1"), RedisState)
    assert isinstance(open_journal(PG_URL), PostgresJournal)
    assert "pg-s3cret" not in repr(open_journal(PG_URL))
    for bad in ("http://x", "sqlite://", "nothing"):
        with pytest.raises(ConfigurationError) as info:
            open_state(bad)
        assert "state_url" in info.value.message


def test_a_malformed_redis_url_is_a_configuration_error_without_the_url() -> None:
    with pytest.raises(ConfigurationError) as info:
        open_state("redis://:hunter2@host:notaport/0")
    assert "hunter2" not in info.value.message


async def test_services_build_the_configured_backend_and_keep_injection(tmp_path: Path) -> None:
    settings = Settings.load(
        environ={}, journal_url="memory://", state_url=f"sqlite:///{tmp_path}/state.sqlite3"
    )
    services = Services(settings)
    try:
        assert isinstance(services.state, SQLiteState)
        assert services.limiter is services.state.limiter
        assert isinstance(services.cache("web_fetch", maxsize=4, ttl_s=60), FailOpenCache)
        assert services.cache("web_fetch", maxsize=4, ttl_s=60) is services.cache(
            "web_fetch", maxsize=4, ttl_s=60
        )
        assert services.describe()["state"] == "the SQLite state backend"
    finally:
        await services.aclose()
    injected = MemoryLimiter()
    services = Services(settings, limiter=injected)
    try:
        assert services.limiter is injected  # explicit injection still wins
    finally:
        await services.aclose()


async def test_toolkit_describes_redis_without_its_url(redis_server: RedisServer) -> None:
    settings = Settings.load(environ={}, journal_url="memory://", state_url=redis_server.url)
    async with Toolkit(settings) as toolkit:
        described = str(toolkit.services.describe())
        assert "Redis" in described and redis_server.password not in described
        assert str(redis_server.port) not in described


async def test_prefixes_separate_deployments_on_one_redis(redis_server: RedisServer) -> None:
    rule = LimitRule(1, 60.0)
    one = RedisState(redis_server.url, prefix="deploy-a-test:")
    two = RedisState(redis_server.url, prefix="deploy-b-test:")
    try:
        await one.limiter.acquire("prefix-check", rule)
        await two.limiter.acquire("prefix-check", rule)
        assert not (await one.limiter.acquire("prefix-check", rule)).allowed
        assert not (await two.limiter.acquire("prefix-check", rule)).allowed
    finally:
        for state in (one, two):
            await state._client.delete(state.key("limit", "prefix-check"))
            await state.aclose()


def test_a_missing_driver_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the redis / psycopg extras the URL is refused with the install hint."""
    monkeypatch.setitem(sys.modules, "webresearch.backends.redis_state", None)
    monkeypatch.setitem(sys.modules, "webresearch.backends.postgres_journal", None)
    with pytest.raises(ConfigurationError) as info:
        open_state(REDIS_URL)
    assert "'.[redis]'" in info.value.message and "s3cr3t" not in info.value.message
    with pytest.raises(ConfigurationError) as info:
        open_journal(PG_URL)
    assert "'.[postgres]'" in info.value.message and "pg-s3cret" not in info.value.message
