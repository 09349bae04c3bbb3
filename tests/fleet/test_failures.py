"""Storage outages: fast, clear ``storage`` errors, never a hang or a silent free pass; resume after.

Policy under test (docs/architecture.md "Shared state"): limits and scopes fail closed, the
journal fails closed (a call it cannot record does not run), caches fail open (a miss). Each
outage is real: the server process is stopped (SIGTERM / SIGINT to its PID), frozen
(SIGSTOP), absent (a free port), or a listener that never answers; the restarted server is
on the same port. No message, hint, journal event or log line holds the URL, host, port or
password.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import redis.exceptions

from tests.support.fleet_servers import PostgresServer, RedisServer, SilentServer, free_port
from tests.support.http_server import LocalServer, Route
from webresearch import RunContext, Settings, StorageError, Toolkit, ToolResult
from webresearch.backends import postgres_journal, redis_state
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.registry import default_builders

from .conftest import fresh_database
from .worker import search_probe

#: Short bounds so outage tests stay fast; the defaults are 2 s each.
BOUND = {"storage_connect_timeout_s": 0.5, "storage_timeout_s": 0.5}
#: Generous ceiling for "fails fast" on a shared 2-core machine (seconds).
FAST_S = 1.0


@pytest.fixture
def redis_alone() -> Iterator[RedisServer]:
    """A redis-server of this test's own, so stopping it disturbs nothing else."""
    server = RedisServer(password="outage-secret-6a1f")
    try:
        server.start()
        yield server
    finally:
        server.close()


def _toolkit(journal: Any = None, builders: Any = None, **settings: Any) -> Toolkit:
    base = {"journal_url": "memory://", "allowed_networks": ["127.0.0.0/8"], **BOUND}
    return Toolkit(
        Settings.load(environ={}, **{**base, **settings}),
        journal=journal,
        builders=builders if builders is not None else [search_probe],
    )


async def _timed(
    toolkit: Toolkit, name: str = "web_search", **kwargs: Any
) -> tuple[ToolResult, float]:
    arguments = kwargs.pop("arguments", {"query": "q"})
    started = time.monotonic()
    result = await toolkit.call(name, arguments, **kwargs)
    return result, time.monotonic() - started


def _assert_storage(result: ToolResult, backend: str, *secrets: str) -> None:
    assert result.error is not None, result.text
    assert result.error.code == "storage"
    assert result.error.retryable
    assert f"the {backend}" in result.text
    for secret in secrets:
        assert secret not in result.text
        assert secret not in str(result.meta)


def _assert_no_leak(
    caplog: pytest.LogCaptureFixture, journal: MemoryJournal, *secrets: str
) -> None:
    texts = [r.getMessage() for r in caplog.records]
    texts += [str(e.to_dict()) for e in journal.events]
    for secret in secrets:
        assert not any(secret in t for t in texts), secret


# --- Redis ---------------------------------------------------------------------------------


async def test_redis_down_at_start_fails_fast_and_closed(caplog: pytest.LogCaptureFixture) -> None:
    port = free_port()
    url = f"redis://:never-shown-77@127.0.0.1:{port}/0"
    journal = MemoryJournal()
    toolkit = _toolkit(journal, state_url=url, search_rate_limit=30)
    try:
        for _ in range(3):
            result, took = await _timed(toolkit)
            _assert_storage(result, "Redis state backend", "never-shown-77", str(port), "127.0.0.1")
            assert took < FAST_S
        failed = [e for e in journal.events if e.kind == "tool.failed"]
        assert [e.error_code for e in failed] == ["storage"] * 3
    finally:
        await toolkit.aclose()
    _assert_no_leak(caplog, journal, "never-shown-77", str(port))


async def test_a_hung_redis_is_a_timeout_not_a_hang() -> None:
    with SilentServer() as port:
        toolkit = _toolkit(state_url=f"redis://:pw-hung@127.0.0.1:{port}/0")
        try:
            result, took = await _timed(toolkit)
        finally:
            await toolkit.aclose()
    _assert_storage(result, "Redis state backend", "pw-hung", str(port))
    assert "did not answer" in result.text
    assert 0.4 <= took < 0.5 + 0.5 + FAST_S


async def test_redis_stopped_mid_run_fails_fast_then_resumes(
    redis_alone: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    journal = MemoryJournal()
    toolkit = _toolkit(journal, state_url=redis_alone.url, search_rate_limit=1000)
    try:
        # Concurrent calls open several pooled connections, all stale after a restart.
        warm = await asyncio.gather(
            *(toolkit.call("web_search", {"query": "w"}) for _ in range(40))
        )
        assert all(r.ok for r in warm)
        redis_alone.stop()
        redis_alone.start()
        result, _ = await _timed(toolkit)
        assert result.ok, result.text  # a restart between two calls is invisible
        redis_alone.stop()
        for _ in range(5):
            result, took = await _timed(toolkit)
            _assert_storage(result, "Redis state backend", redis_alone.password)
            assert took < FAST_S
        redis_alone.start()  # same port
        result, _ = await _timed(toolkit)
        assert result.ok, result.text  # the very first call after the restart
        later = [await toolkit.call("web_search", {"query": f"b{i}"}) for i in range(5)]
        assert all(r.ok for r in later)
    finally:
        await toolkit.aclose()
    _assert_no_leak(caplog, journal, redis_alone.password, str(redis_alone.port))


async def test_redis_frozen_mid_run_is_bounded_then_resumes(redis_alone: RedisServer) -> None:
    toolkit = _toolkit(state_url=redis_alone.url)
    try:
        assert (await toolkit.call("web_search", {"query": "a"})).ok
        redis_alone.pause()
        try:
            result, took = await _timed(toolkit)
        finally:
            redis_alone.resume()
        _assert_storage(result, "Redis state backend", redis_alone.password)
        assert took < 0.5 + 0.5 + FAST_S
        result, _ = await _timed(toolkit)
        assert result.ok, result.text
    finally:
        await toolkit.aclose()


async def test_the_limit_is_never_skipped_while_redis_is_down(redis_alone: RedisServer) -> None:
    """Fail closed: during the outage nothing is admitted, so nothing exceeds the limit."""
    toolkit = _toolkit(state_url=redis_alone.url, search_rate_limit=3)
    try:
        outcomes = []
        for i in range(8):
            if i == 2:
                redis_alone.stop()
            if i == 5:
                redis_alone.start()  # in-memory Redis: the window restarts empty
            result = await toolkit.call("web_search", {"query": f"q{i}"})
            outcomes.append("ok" if result.ok else result.error.code if result.error else "?")
    finally:
        await toolkit.aclose()
    assert outcomes == ["ok", "ok"] + ["storage"] * 3 + ["ok", "ok", "ok"]


async def test_cache_outage_is_a_miss_but_limits_and_scopes_stay_closed(
    redis_alone: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    page = (
        b"<html><head><title>T</title></head><body><h1>Cached page</h1><p>Body.</p></body></html>"
    )
    routes: dict[str, Route | Any] = {"/p": Route(200, [("Content-Type", "text/html")], page)}
    with LocalServer(routes) as site:
        url = f"{site.base}/p"
        toolkit = _toolkit(builders=default_builders(), state_url=redis_alone.url)
        limited = _toolkit(
            builders=default_builders(), state_url=redis_alone.url, fetch_rate_limit=100
        )
        try:
            first = await toolkit.call("web_fetch", {"url": url})
            assert first.ok and first.meta["cached"] is False
            assert (await toolkit.call("web_fetch", {"url": url})).meta["cached"] is True
            redis_alone.stop()
            with caplog.at_level(logging.WARNING, logger="webresearch"):
                # web_fetch has no limit by default: the cache miss is simply fetched again.
                again = [await toolkit.call("web_fetch", {"url": url}) for _ in range(3)]
            assert all(r.ok and r.meta["cached"] is False for r in again)
            assert site.count("/p") == 4
            warnings = [r.getMessage() for r in caplog.records if "cache" in r.getMessage()]
            assert len(warnings) == 1 and "the Redis state backend" in warnings[0]
            # With a limit configured, the miss needs the limiter, which fails closed.
            result = await limited.call("web_fetch", {"url": url})
            _assert_storage(result, "Redis state backend", redis_alone.password)
            # The search_results scope cannot be checked: denied with storage, not opened.
            scoped = await toolkit.call(
                "web_fetch", {"url": url}, run=RunContext(fetch_scope="search_results")
            )
            _assert_storage(scoped, "Redis state backend", redis_alone.password)
            assert site.count("/p") == 4
            redis_alone.start()
            assert (await limited.call("web_fetch", {"url": url})).ok
        finally:
            await toolkit.aclose()
            await limited.aclose()
    assert redis_alone.password not in caplog.text
    assert str(redis_alone.port) not in caplog.text


# --- PostgreSQL ---------------------------------------------------------------------------


def _counting_probe() -> tuple[list[str], Any]:
    runs: list[str] = []

    def build(services: Any) -> Any:
        entry = search_probe(services)
        inner = entry.run

        async def run(arguments: dict[str, Any], ctx: Any) -> ToolResult:
            runs.append(ctx.operation_id)
            return await inner(arguments, ctx)

        return type(entry)(spec=entry.spec, run=run, rate_limit=entry.rate_limit)

    return runs, build


async def test_postgres_down_at_start_fails_fast_and_the_tool_does_not_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    port = free_port()
    runs, probe = _counting_probe()
    toolkit = _toolkit(
        builders=[probe], journal_url=f"postgresql://u:pg-never-9@127.0.0.1:{port}/db"
    )
    try:
        for _ in range(3):
            result, took = await _timed(toolkit)
            _assert_storage(result, "PostgreSQL journal", "pg-never-9", str(port), "127.0.0.1")
            assert took < FAST_S
    finally:
        await toolkit.aclose()
    assert runs == []  # fail closed: nothing ran that the journal could not record
    assert "pg-never-9" not in caplog.text and str(port) not in caplog.text


async def test_a_hung_postgres_is_a_timeout_not_a_hang() -> None:
    with SilentServer() as port:
        toolkit = _toolkit(journal_url=f"postgresql://u:pg-hung@127.0.0.1:{port}/db")
        try:
            result, took = await _timed(toolkit)
        finally:
            await toolkit.aclose()
    _assert_storage(result, "PostgreSQL journal", "pg-hung", str(port))
    assert 0.4 <= took < 0.5 + FAST_S


async def test_postgres_stopped_mid_run_fails_fast_then_resumes(
    postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    async with fresh_database(postgres_server) as url:
        runs, probe = _counting_probe()
        toolkit = _toolkit(builders=[probe], journal_url=url)
        run = RunContext(run_id="pg-outage")
        try:
            # Concurrent calls open several pooled connections, all stale after the restart.
            warm = await asyncio.gather(
                *(toolkit.call("web_search", {"query": "warm"}) for _ in range(8))
            )
            assert all(r.ok for r in warm)
            assert (await toolkit.call("web_search", {"query": "before"}, run=run)).ok
            postgres_server.stop()
            try:
                for _ in range(3):
                    result, took = await _timed(toolkit, run=run)
                    _assert_storage(result, "PostgreSQL journal", postgres_server.password)
                    assert took < FAST_S
            finally:
                postgres_server.start()  # same port, same data
            after, _ = await _timed(toolkit, run=run, arguments={"query": "after"})
            assert after.ok, after.text  # the very first call after the restart
            # A restart with no call in between leaves only stale pooled connections.
            postgres_server.stop()
            postgres_server.start()
            again, _ = await _timed(toolkit, run=run, arguments={"query": "again"})
            assert again.ok, again.text
            events = await toolkit.journal.query(run_id="pg-outage", kind="tool.completed")
            assert [e.output for e in events] == [
                "results for before",
                "results for after",
                "results for again",
            ]
        finally:
            await toolkit.aclose()
        assert len(runs) == 8 + 3  # the three calls during the outage never ran
    assert postgres_server.password not in caplog.text


async def test_a_wrong_postgres_password_names_the_setting_and_is_not_retried(
    postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Session 10 review (the Redis twin): a refused password said "retry in a few seconds";
    the same call fails until ``journal_url`` changes, and the password is never shown."""
    wrong = "pg-wrong-3c9e"
    url = postgres_server.url.replace(postgres_server.password, wrong)
    assert wrong in url
    runs, probe = _counting_probe()
    toolkit = _toolkit(builders=[probe], journal_url=url)
    try:
        result, _ = await _timed(toolkit)
    finally:
        await toolkit.aclose()
    assert result.error is not None and result.error.code == "storage", result.text
    assert result.error.retryable is False
    assert "the PostgreSQL journal rejected the credentials" in result.text
    assert "journal_url" in result.text and "retry in a few seconds" not in result.text
    for secret in (wrong, postgres_server.password, str(postgres_server.port)):
        assert secret not in result.text and secret not in str(result.meta)
        assert secret not in caplog.text
    assert runs == []


async def test_a_missing_postgres_database_is_named_and_not_retried(
    postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Session 10 review: SQLSTATE 3D000 (no such database) said "unreachable (next step:
    retry in a few seconds)"; the server answered, the URL names a database it lacks."""
    url = postgres_server.url.rsplit("/", 1)[0] + "/no_such_db_7f3a"
    runs, probe = _counting_probe()
    toolkit = _toolkit(builders=[probe], journal_url=url)
    try:
        result, _ = await _timed(toolkit)
    finally:
        await toolkit.aclose()
    assert result.error is not None and result.error.code == "storage", result.text
    assert result.error.retryable is False
    assert "the database in journal_url does not exist" in result.text
    assert "unreachable" not in result.text and "retry in a few seconds" not in result.text
    assert "create that database" in result.text
    for secret in (postgres_server.password, str(postgres_server.port), "no_such_db_7f3a"):
        assert secret not in result.text and secret not in caplog.text
    assert runs == []


async def test_a_user_without_privileges_is_told_so_not_that_its_password_is_wrong(
    postgres_server: PostgresServer,
) -> None:
    """Session 10 review: SQLSTATE 42501 (insufficient privilege) for a user whose password
    was right said "rejected the credentials"."""
    async with fresh_database(postgres_server) as admin_url:
        user, password = "jrn_noprivs", "pg-noprivs-5b2e"
        async with await psycopg.AsyncConnection.connect(admin_url, autocommit=True) as conn:
            await conn.execute(f"DROP ROLE IF EXISTS {user}")
            await conn.execute(f"CREATE ROLE {user} LOGIN PASSWORD '{password}'")
        try:
            prefix, _, rest = admin_url.partition("://")
            url = f"{prefix}://{user}:{password}@{rest.partition('@')[2]}"
            runs, probe = _counting_probe()
            toolkit = _toolkit(builders=[probe], journal_url=url)
            try:
                result, _ = await _timed(toolkit)
            finally:
                await toolkit.aclose()
        finally:
            async with await psycopg.AsyncConnection.connect(admin_url, autocommit=True) as conn:
                await conn.execute(f"DROP OWNED BY {user}")
            async with await psycopg.AsyncConnection.connect(
                postgres_server.url, autocommit=True
            ) as conn:
                await conn.execute(f"DROP ROLE IF EXISTS {user}")
    assert result.error is not None and result.error.code == "storage", result.text
    assert result.error.retryable is False
    assert "the PostgreSQL journal refused the query: the user lacks a privilege" in result.text
    assert "rejected the credentials" not in result.text
    assert "journal_url" in result.text and "grant that user" in result.text
    assert password not in result.text
    assert runs == []


# --- translation of foreign errors ----------------------------------------------------------


def _subclasses(cls: type[Exception]) -> list[type[Exception]]:
    out = [cls]
    for sub in cls.__subclasses__():
        out += _subclasses(sub)
    return out


@pytest.mark.parametrize(
    ("module", "base"),
    [(redis_state, redis.exceptions.RedisError), (postgres_journal, psycopg.Error)],
)
def test_every_driver_error_becomes_a_short_storage_error(
    module: Any, base: type[Exception]
) -> None:
    """No driver exception is left unmapped, and none of its text (host, port) gets through."""
    leaky = "connection to 10.9.8.7:6380 password=hunter2 failed"
    seen = 0
    for cls in _subclasses(base):
        try:
            exc = cls(leaky)
        except (TypeError, ValueError):  # e.g. cluster redirections parse their text
            exc = cls.__new__(cls)
            Exception.__init__(exc, leaky)
        err = module.storage_error(exc, 2.0)
        assert isinstance(err, StorageError)
        assert err.code == "storage"
        assert "10.9.8.7" not in err.message and "hunter2" not in err.message
        assert err.message.startswith(("the Redis state backend", "the PostgreSQL journal"))
        seen += 1
    assert seen > 10


# --- the Toolkit's journal policy, on a sink that fails on chosen event kinds ----------------


class FailingJournal(MemoryJournal):
    """A journal whose appends of ``failing`` kinds raise like a storage outage."""

    def __init__(self, *failing: str) -> None:
        super().__init__()
        self.failing = set(failing)

    async def append(self, event: Any) -> None:
        if event.kind in self.failing:
            raise StorageError("the PostgreSQL journal is unreachable", backend="postgresql")
        await super().append(event)


async def test_a_call_the_journal_cannot_open_does_not_run() -> None:
    runs, probe = _counting_probe()
    journal = FailingJournal("tool.started")
    async with _toolkit(journal, builders=[probe]) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})  # never raises
    _assert_storage(result, "PostgreSQL journal")
    assert runs == [] and journal.events == []


async def test_a_call_whose_closing_event_fails_returns_its_result(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runs, probe = _counting_probe()
    journal = FailingJournal("tool.completed")
    async with _toolkit(journal, builders=[probe]) as toolkit:
        result = await toolkit.call("web_search", {"query": "q"})
    assert result.ok and result.text == "results for q"  # the tool acted: no blind retry
    assert result.meta["journal_error"] == "storage"
    assert len(runs) == 1
    assert [e.kind for e in journal.events] == ["tool.started", "approval.auto_granted"]
    assert "journal record failed" in caplog.text
