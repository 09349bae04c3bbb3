"""Redis and PostgreSQL URLs in the forms operators paste (issue 21 item 2), against the
session's real redis-server and PostgreSQL.

A trailing slash, a database number or name with a slash after it, a query of driver
options: each works end to end (a limited call through the Toolkit, a journaled call). A
form the driver would read differently than meant (a Redis path that is no database number,
a PostgreSQL database "name" with a slash, a port that is no number) is refused when the
settings load, naming the setting and the expected form, never the URL (it holds a password).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.fleet_servers import PostgresServer, RedisServer
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.errors import ConfigurationError
from webresearch.tools.base import CallContext, RateLimit, ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH

pytestmark = pytest.mark.network


def _counted(services: Services) -> ToolEntry[Any]:
    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        await ctx.rate_limit()
        return ToolResult("ok")

    return ToolEntry(spec=WEB_SEARCH, run=run, rate_limit=RateLimit("url-forms", 2, 60.0))


def _redis_forms(server: RedisServer) -> list[str]:
    base = f"redis://:{server.password}@127.0.0.1:{server.port}"
    return [base, base + "/", base + "/3", base + "/3/", base + "/4?socket_keepalive=true"]


@pytest.mark.parametrize("index", range(5))
async def test_redis_state_urls_in_every_pasted_form_work(
    redis_server: RedisServer, index: int, prefix: str
) -> None:
    url = _redis_forms(redis_server)[index]
    settings = Settings.load(
        environ={}, journal_url="memory://", state_url=url, redis_prefix=prefix
    )
    async with Toolkit(settings, builders=[_counted]) as toolkit:
        results = [await toolkit.call("web_search", {"query": "q"}) for _ in range(3)]
    # The limit lives in Redis: two calls pass, the third is refused.
    assert [r.ok for r in results] == [True, True, False], [r.text for r in results]


@pytest.mark.parametrize(
    ("tail", "why"),
    [("/cache", "is not a database number"), ("/0/1", "is not a database number")],
)
def test_redis_urls_the_driver_would_misread_are_refused(
    redis_server: RedisServer, tail: str, why: str
) -> None:
    url = f"redis://:{redis_server.password}@127.0.0.1:{redis_server.port}{tail}"
    with pytest.raises(ConfigurationError) as caught:
        Settings.load(environ={"WEBRESEARCH_STATE_URL": url})
    message = caught.value.message
    assert (
        "WEBRESEARCH_STATE_URL" in message and why in message and "redis://redis:6379/0" in message
    )
    assert redis_server.password not in message


def _postgres_forms(server: PostgresServer) -> list[str]:
    base = f"postgresql://{server.user}:{server.password}@127.0.0.1:{server.port}/postgres"
    return [base, base + "/", base + "?connect_timeout=5", base.replace("postgresql:", "postgres:")]


@pytest.mark.parametrize("index", range(4))
async def test_postgres_journal_urls_in_every_pasted_form_work(
    postgres_server: PostgresServer, index: int
) -> None:
    url = _postgres_forms(postgres_server)[index]
    run = RunContext()
    async with Toolkit(Settings.load(environ={}, journal_url=url), builders=[_counted]) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"}, run=run)
        assert result.ok and "journal_error" not in result.meta, result.meta
        kinds = [e.kind for e in await toolkit.journal.query(run_id=run.run_id)]
    assert kinds == ["tool.started", "approval.auto_granted", "tool.completed"]


@pytest.mark.parametrize(
    ("tail", "why"),
    [
        ("/postgres/extra", "more than a database name"),
        (":abc", "not a URL with a valid port"),
    ],
)
def test_postgres_urls_the_driver_would_misread_are_refused(
    postgres_server: PostgresServer, tail: str, why: str
) -> None:
    host = f"127.0.0.1:{postgres_server.port}" if not tail.startswith(":") else "127.0.0.1"
    url = f"postgresql://{postgres_server.user}:{postgres_server.password}@{host}{tail}"
    with pytest.raises(ConfigurationError) as caught:
        Settings.load(environ={"WEBRESEARCH_JOURNAL_URL": url})
    message = caught.value.message
    assert "WEBRESEARCH_JOURNAL_URL" in message and why in message
    assert "postgresql://user:password@host" in message
    assert postgres_server.password not in message
