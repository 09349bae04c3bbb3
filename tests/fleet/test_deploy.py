"""deploy/compose.yaml is not run in CI (no Docker engine), so every value in it is checked here.

* every ``WEBRESEARCH_*`` variable the workers get is a real Settings field (a typo would be
  ignored silently at run time: ``Settings.load`` skips unknown names), and the worker
  environment loads as Settings;
* the state and journal URLs have the schemes and shapes the factories accept and the test
  servers use, point at the compose services on their ports, and take their passwords from
  the same variables as the services;
* the networks keep the browser away from Redis, PostgreSQL and SearXNG;
* SearXNG answers JSON and runs its limiter.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from tests.support.fleet_servers import PostgresServer, RedisServer
from webresearch import Settings
from webresearch.backends.postgres_journal import PostgresJournal
from webresearch.backends.redis_state import RedisState
from webresearch.backends.state import open_state
from webresearch.config import ENV_PREFIX, STATE_URL_SCHEMES
from webresearch.tools.services import Registries, open_journal

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"

_VAR = re.compile(r"\$\{(\w+)(?::?[-?][^}]*)?\}")


def _env_example() -> dict[str, str]:
    out = {}
    for line in (DEPLOY / ".env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


def _interpolate(value: Any, env: dict[str, str]) -> Any:
    if isinstance(value, str):

        def sub(m: re.Match[str]) -> str:
            assert m.group(1) in env, f"${{{m.group(1)}}} is not in deploy/.env.example"
            return env[m.group(1)]

        return _VAR.sub(sub, value)
    if isinstance(value, list):
        return [_interpolate(v, env) for v in value]
    if isinstance(value, dict):
        return {k: _interpolate(v, env) for k, v in value.items()}
    return value


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def env() -> dict[str, str]:
    return _env_example()


@pytest.fixture(scope="module")
def worker_env(compose: dict[str, Any], env: dict[str, str]) -> dict[str, str]:
    raw = compose["services"]["worker"]["environment"]
    assert isinstance(raw, dict)
    return {k: str(v) for k, v in _interpolate(raw, env).items()}


def test_every_worker_variable_is_a_setting_or_a_provider_option(
    worker_env: dict[str, str],
) -> None:
    ours = [k for k in worker_env if k.startswith(ENV_PREFIX)]
    assert ours, "the workers get no WEBRESEARCH_* settings"
    settings = Settings.load(environ=dict(worker_env))  # the worker environment loads as is
    # Each is a Settings field or an installed provider's option (WEBRESEARCH_SEARXNG_URL).
    assert settings.unknown_names(Registries().options_catalog()) == []
    assert settings.storage_timeout_s <= 2.0 and settings.storage_connect_timeout_s <= 2.0
    # the browser tools drive the browser service (no Chromium in the worker image)
    assert settings.browser_backend == "cdp" and settings.browser_cdp_url is not None


def test_the_worker_health_check_asks_readyz_on_the_served_port(
    compose: dict[str, Any], worker_env: dict[str, str]
) -> None:
    worker = compose["services"]["worker"]
    command = worker["command"]
    port = command[command.index("--http") + 1].rsplit(":", 1)[1]
    check = worker["healthcheck"]["test"]
    assert check[:3] == ["CMD", "python", "-c"]  # the image has Python, not curl
    # urlopen raises on 503: the check fails while Redis or PostgreSQL is down.
    assert f"urlopen('http://127.0.0.1:{port}/readyz'" in check[3]
    compile(check[3], "healthcheck", "exec")
    assert Settings.load(environ=dict(worker_env)).spending_limit is not None


def test_state_and_journal_urls_fit_the_factories_and_the_services(
    worker_env: dict[str, str], compose: dict[str, Any], env: dict[str, str]
) -> None:
    state_url = worker_env["WEBRESEARCH_STATE_URL"]
    journal_url = worker_env["WEBRESEARCH_JOURNAL_URL"]
    state = urlsplit(state_url)
    journal = urlsplit(journal_url)
    assert state.scheme in STATE_URL_SCHEMES
    assert isinstance(open_state(state_url), RedisState)  # dialled lazily: nothing connects
    assert isinstance(open_journal(journal_url), PostgresJournal)
    services = compose["services"]
    assert (state.hostname, state.port) == ("redis", 6379) and "redis" in services
    assert (journal.hostname, journal.port) == ("postgres", 5432) and "postgres" in services
    # Passwords come from the same variables as the services' own.
    redis_command = _interpolate(services["redis"]["command"], env)
    assert redis_command[redis_command.index("--requirepass") + 1] == state.password
    pg_env = _interpolate(services["postgres"]["environment"], env)
    assert (journal.username, journal.password) == (
        pg_env["POSTGRES_USER"],
        pg_env["POSTGRES_PASSWORD"],
    )
    assert journal.path == "/" + pg_env["POSTGRES_DB"]


def test_urls_have_the_shapes_the_test_servers_prove(
    worker_env: dict[str, str], redis_server: RedisServer, postgres_server: PostgresServer
) -> None:
    """tests/fleet runs against URLs of exactly these shapes (password, db index, database)."""
    for ours, tested in (
        (worker_env["WEBRESEARCH_STATE_URL"], redis_server.url),
        (worker_env["WEBRESEARCH_JOURNAL_URL"], postgres_server.url),
    ):
        a, b = urlsplit(ours), urlsplit(tested)
        assert a.scheme == b.scheme
        assert bool(a.username) == bool(b.username)
        assert bool(a.password) and bool(b.password)
        assert a.query == b.query == ""
        assert a.path.count("/") == b.path.count("/") == 1
        assert a.path[1:].isdigit() == b.path[1:].isdigit()


def test_the_browser_reaches_nothing_internal(compose: dict[str, Any]) -> None:
    services = compose["services"]
    networks = {name: set(svc.get("networks", [])) for name, svc in services.items()}
    for internal in ("redis", "postgres", "searxng", "searxng-valkey"):
        assert not networks["browser"] & networks[internal], internal
    assert networks["worker"] >= networks["browser"] | networks["redis"] | networks["searxng"]
    declared = compose["networks"]
    for net in networks["redis"] | networks["postgres"] | networks["searxng-valkey"]:
        assert declared[net].get("internal") is True, net  # no route out of the state networks


def test_operator_endpoints_point_at_services(
    worker_env: dict[str, str], compose: dict[str, Any]
) -> None:
    services = compose["services"]
    searxng = urlsplit(worker_env["WEBRESEARCH_SEARXNG_URL"])
    cdp = urlsplit(worker_env["WEBRESEARCH_BROWSER_CDP_URL"])
    assert (searxng.hostname, searxng.port) == ("searxng", 8080) and "searxng" in services
    assert (cdp.hostname, cdp.port) == ("browser", 9222) and "browser" in services
    assert worker_env["WEBRESEARCH_MCP_TOKEN"]
    assert services["worker"]["command"] == ["mcp", "--http", "0.0.0.0:8000"]
    for mapping in services["worker"]["ports"]:
        assert mapping.startswith("127.0.0.1:")  # published on loopback only


def test_searxng_answers_json_and_runs_its_limiter(compose: dict[str, Any]) -> None:
    settings = yaml.safe_load((DEPLOY / "searxng" / "settings.yml").read_text())
    assert "json" in settings["search"]["formats"]
    assert settings["server"]["limiter"] is True
    assert settings["valkey"]["url"].startswith("valkey://searxng-valkey:")
    limiter = tomllib.loads((DEPLOY / "searxng" / "limiter.toml").read_text())
    assert limiter["botdetection"]["ip_lists"]["pass_ip"]
    mounts = compose["services"]["searxng"]["volumes"]
    assert any(m.startswith("./searxng/settings.yml:/etc/searxng/settings.yml") for m in mounts)
    assert any(m.startswith("./searxng/limiter.toml:/etc/searxng/limiter.toml") for m in mounts)
