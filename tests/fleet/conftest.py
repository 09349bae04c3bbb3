"""Fleet fixtures: real redis-server and PostgreSQL on 127.0.0.1, and every state/journal backend.

The servers start once per test session from the installed Debian packages, in temporary
directories on free ports, with passwords, and are stopped by PID at the end. Tests that
stop or pause a server restart it in a ``finally`` on the same port.

``state`` and ``journal`` are parametrised over every backend, so each semantics test runs
against in-process, SQLite, Redis (and PostgreSQL for the journal) with the same
assertions. State backends get a :class:`FakeClock` (no sleeps); Redis scripts take the
clock's time instead of the server's.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.support.fleet_servers import PostgresServer, RedisServer
from webresearch.backends.jsonl_journal import JSONLinesJournal
from webresearch.backends.postgres_journal import PostgresJournal
from webresearch.backends.redis_state import RedisState
from webresearch.backends.sqlite_journal import SQLiteJournal
from webresearch.backends.sqlite_state import SQLiteState
from webresearch.backends.state import MemoryState, StateBackend
from webresearch.runtime.journal import Journal, MemoryJournal

STATE_BACKENDS = ("memory", "sqlite", "redis")
JOURNAL_BACKENDS = ("memory", "sqlite", "jsonl", "postgres")


class FakeClock:
    """Seconds that move only when a test says so."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One redis-server for the session (password-protected, 127.0.0.1, free port)."""
    server = RedisServer()
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL cluster for the session (SCRAM password, 127.0.0.1, free port)."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def prefix() -> str:
    """A fresh Redis key prefix: tests never see each other's keys."""
    return f"test-{uuid.uuid4().hex[:12]}:"


@pytest.fixture(params=STATE_BACKENDS)
async def state(
    request: pytest.FixtureRequest, clock: FakeClock, tmp_path: Path, prefix: str
) -> AsyncIterator[StateBackend]:
    """Each state backend in turn, on the fake clock."""
    backend: StateBackend
    if request.param == "memory":
        backend = MemoryState(clock, wall_clock=clock)
    elif request.param == "sqlite":
        backend = SQLiteState(tmp_path / "state.sqlite3", clock=clock)
    else:
        server: RedisServer = request.getfixturevalue("redis_server")
        backend = RedisState(server.url, prefix=prefix, clock=clock)
    try:
        yield backend
    finally:
        await backend.aclose()


@pytest.fixture(params=JOURNAL_BACKENDS)
async def journal_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A journal URL of each kind; PostgreSQL gets a fresh database per test."""
    if request.param == "memory":
        yield "memory://"
    elif request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/journal.sqlite3"
    elif request.param == "jsonl":
        yield f"jsonl:///{tmp_path}/journal.jsonl"
    else:
        server: PostgresServer = request.getfixturevalue("postgres_server")
        async with fresh_database(server) as url:
            yield url


@pytest.fixture
async def journal(journal_url: str) -> AsyncIterator[Journal]:
    """Each journal sink in turn."""
    sink = open_sink(journal_url)
    try:
        yield sink
    finally:
        await sink.aclose()


def open_sink(url: str) -> Journal:
    scheme, _, rest = url.partition("://")
    if scheme == "memory":
        return MemoryJournal()
    if scheme == "sqlite":
        return SQLiteJournal(rest[1:] if rest.startswith("//") else rest)
    if scheme == "jsonl":
        return JSONLinesJournal(rest[1:] if rest.startswith("//") else rest)
    return PostgresJournal(url)


class fresh_database:
    """``async with fresh_database(server) as url``: a new empty database, dropped after."""

    def __init__(self, server: PostgresServer) -> None:
        self.server = server
        self.name = f"t_{uuid.uuid4().hex[:12]}"

    async def _admin(self, sql: str) -> None:
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.server.url, autocommit=True) as conn:
            await conn.execute(sql)

    async def __aenter__(self) -> str:
        await self._admin(f"CREATE DATABASE {self.name}")
        return self.server.url.rsplit("/", 1)[0] + "/" + self.name

    async def __aexit__(self, *exc: object) -> None:
        await self._admin(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
