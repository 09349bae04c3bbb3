"""The PostgreSQL journal sink for a fleet (psycopg 3, async).

Tables live in their own schema, ``webresearch``, so a shared database stays tidy:

* ``webresearch.schema_migrations`` — one row per applied migration (version, time);
  migrations run once, under a transaction-scoped advisory lock, so many workers starting
  together migrate exactly once;
* ``webresearch.events`` — one row per event; indexes match the query filters
  (run id, tool, kind, each with time, and time alone), ordered by time then insertion;
* ``webresearch.operations`` — the recorded result per operation id (idempotent replay).

Every write is an autocommit statement acknowledged by the server before ``append``
returns, so a worker killed right after a call loses no event. Appends are idempotent per
event id (a resent event is not stored twice).

Connection handling: a small pool (:data:`POOL_SIZE` connections per worker process) opened
on demand (a server that is down at start is a ``StorageError`` on the first call, not a
crash); a broken connection is dropped and the next call opens a new one, so calls resume as
soon as the server is back. A home-made pool rather than ``psycopg_pool``: that one
reconnects in the background with growing back-off, so the first calls after an outage would
wait or fail for seconds; here every call either uses a live connection or dials once. Every operation is bounded:
connecting by ``connect_timeout_s``, the statement by ``timeout_s``. A statement that does
not answer in time is abandoned, not cancelled on the server: psycopg's cancel path waits up
to 10 s for a hung server, which would break the bound (the abandoned connection is closed
when it finishes). Errors name "the PostgreSQL journal", never the URL (it may hold a
password) nor psycopg's text (it names the host).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import psycopg
from psycopg.pq import TransactionStatus
from psycopg.types.json import Jsonb

from ..errors import ConfigurationError, InvalidArguments, StorageError
from ..runtime.journal import JournalEvent, storable

__all__ = ["POOL_SIZE", "SCHEMA", "SCHEMA_VERSION", "PostgresJournal", "storage_error"]

#: The PostgreSQL schema (namespace) holding our tables.
SCHEMA = "webresearch"
#: Connections per journal (per worker process).
POOL_SIZE = 4
#: Advisory lock key serialising migrations across workers (any constant unique to us).
_MIGRATION_LOCK = 0x7765627265736561  # "webresea"

_MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE webresearch.events (
            seq          bigserial PRIMARY KEY,
            event_id     text NOT NULL UNIQUE,
            time         timestamptz NOT NULL,
            kind         text NOT NULL,
            run_id       text NOT NULL,
            tool         text,
            operation_id text,
            args_hash    text,
            duration_ms  double precision,
            outcome      text,
            error_code   text,
            cached       boolean NOT NULL DEFAULT false,
            cost         double precision NOT NULL DEFAULT 0,
            output       text,
            details      jsonb NOT NULL DEFAULT '{}'
        );
        CREATE INDEX events_run ON webresearch.events (run_id, time, seq);
        CREATE INDEX events_tool ON webresearch.events (tool, time, seq);
        CREATE INDEX events_kind ON webresearch.events (kind, time, seq);
        CREATE INDEX events_time ON webresearch.events (time, seq);
        CREATE TABLE webresearch.operations (
            operation_id text PRIMARY KEY,
            time         timestamptz NOT NULL DEFAULT now(),
            result       jsonb NOT NULL
        );
        """,
    ),
)
SCHEMA_VERSION = max(version for version, _ in _MIGRATIONS)

_NAME = "the PostgreSQL journal"
_HINT = "retry in a few seconds"
#: Credentials or privileges refused: the same call fails again until the setting changes.
_SETTING = "the journal_url setting (WEBRESEARCH_JOURNAL_URL, or journal_url in the settings file)"
_CREDENTIALS_HINT = f"check the user and password in {_SETTING}; retrying will not help"
#: SQLSTATE 3D000 (invalid_catalog_name): the URL names a database the server does not have.
_NO_DATABASE_HINT = (
    f"create that database, or correct the database name in {_SETTING}; retrying will not help"
)
#: SQLSTATE 42501 (insufficient_privilege): the server knows the user but refuses the query.
_PRIVILEGE_HINT = (
    "grant that user CONNECT on the database and USAGE, CREATE, SELECT and INSERT on the "
    f"{SCHEMA} schema, or name another user in {_SETTING}; retrying will not help"
)
_COLUMNS = (
    "event_id", "time", "kind", "run_id", "tool", "operation_id", "args_hash", "duration_ms",
    "outcome", "error_code", "cached", "cost", "output", "details",
)  # fmt: skip
_INSERT = (
    f"INSERT INTO {SCHEMA}.events ({', '.join(_COLUMNS)}) "
    f"VALUES ({', '.join(['%s'] * len(_COLUMNS))}) ON CONFLICT (event_id) DO NOTHING"
)

T = TypeVar("T")
IDLE = TransactionStatus.IDLE


def storage_error(exc: BaseException, timeout_s: float) -> StorageError:
    """Translate a psycopg (or socket) failure into a short ``StorageError``.

    Args:
        exc: what psycopg raised (its text may name the host: never shown).
        timeout_s: the bound that applied (seconds), for "did not answer".
    """
    sqlstate = getattr(exc, "sqlstate", None)
    text = str(exc).lower()
    # A setting to fix, not a moment to wait for (session 10 review): never retryable. The
    # codes are PostgreSQL's SQLSTATE table (Appendix A); a refused connection carries no
    # SQLSTATE in psycopg, only the server's FATAL text, matched instead.
    if sqlstate in ("28000", "28P01") or "authentication failed" in text or "password" in text:
        why, hint = "rejected the credentials", _CREDENTIALS_HINT  # invalid authorization
    elif sqlstate == "3D000" or ("database" in text and "does not exist" in text):
        why, hint = "cannot be used: the database in journal_url does not exist", _NO_DATABASE_HINT
    elif sqlstate == "42501" or "permission denied" in text:
        why, hint = "refused the query: the user lacks a privilege", _PRIVILEGE_HINT
    else:
        why = hint = ""
    if why:
        return StorageError(f"{_NAME} {why}", hint=hint, retryable=False, backend="postgresql")
    if isinstance(exc, (TimeoutError, psycopg.errors.ConnectionTimeout)):
        why = f"did not answer within {timeout_s:g} s"
    elif isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError, OSError)) and (
        sqlstate is None or sqlstate.startswith(("08", "57P"))
    ):
        why = "is unreachable"  # refused, reset, or the server is shutting down (57P0x)
    elif sqlstate:
        why = f"failed (SQLSTATE {sqlstate})"
    else:
        why = "failed"
    return StorageError(f"{_NAME} {why}", hint=_HINT, backend="postgresql")


def _parse_time(value: str, what: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidArguments(
            f"{what} must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class PostgresJournal:
    """Journal events in PostgreSQL.

    Args:
        url: ``postgresql://user:password@host:port/database`` (libpq URI; a secret).
        connect_timeout_s: seconds to connect (psycopg itself waits at least 2 s; the
            shorter bound is enforced here).
        timeout_s: seconds one statement may take.
        pool_size: connections kept open; concurrent calls use up to this many at once
            (commits then overlap on the server instead of queueing behind one socket).

    Raises:
        ConfigurationError: the URL cannot be parsed (the message does not repeat it).
    """

    name = _NAME

    def __init__(
        self,
        url: str,
        *,
        connect_timeout_s: float = 2.0,
        timeout_s: float = 2.0,
        pool_size: int = POOL_SIZE,
    ) -> None:
        try:
            psycopg.conninfo.conninfo_to_dict(url)
        except psycopg.Error:
            raise ConfigurationError("journal_url is not a valid postgresql:// URL") from None
        self._url = url
        self.connect_timeout_s = connect_timeout_s
        self.timeout_s = timeout_s
        self.pool_size = pool_size
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._slots: asyncio.Semaphore | None = None
        self._migrated = False
        self._abandoned: set[asyncio.Task[Any]] = set()

    def __repr__(self) -> str:
        return "PostgresJournal()"

    # --- connections --------------------------------------------------------------------------
    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        try:
            async with asyncio.timeout(self.connect_timeout_s):
                conn = await psycopg.AsyncConnection.connect(
                    self._url,
                    autocommit=True,
                    connect_timeout=max(2, math.ceil(self.connect_timeout_s)),
                    application_name="webresearch",
                    options="-c TimeZone=UTC",
                )
        except (psycopg.Error, OSError, TimeoutError) as exc:
            raise storage_error(exc, self.connect_timeout_s) from None
        if not self._migrated:
            try:
                await self._bounded(conn, _migrate)
            except BaseException:
                await _close(conn)
                raise
            self._migrated = True
        return conn

    async def _bounded(
        self,
        conn: psycopg.AsyncConnection[Any],
        work: Callable[[psycopg.AsyncConnection[Any]], Awaitable[T]],
    ) -> T:
        """Run ``work`` on ``conn`` within ``timeout_s``; a broken connection is closed.

        Raises:
            StorageError: timed out, or psycopg failed.
        """
        task = asyncio.ensure_future(work(conn))
        done, _ = await asyncio.wait({task}, timeout=self.timeout_s)
        if not done:
            # Abandon (see the module docstring); close the connection once it finishes.
            self._abandoned.add(task)
            task.add_done_callback(self._discard_abandoned(conn))
            raise StorageError(
                f"{_NAME} did not answer within {self.timeout_s:g} s",
                hint=_HINT,
                backend="postgresql",
            )
        try:
            return task.result()
        except StorageError:
            raise
        except (psycopg.Error, OSError) as exc:
            if _is_connection_failure(exc):
                await _close(conn)
            raise storage_error(exc, self.timeout_s) from None

    def _discard_abandoned(
        self, conn: psycopg.AsyncConnection[Any]
    ) -> Callable[[asyncio.Task[Any]], None]:
        def done(task: asyncio.Task[Any]) -> None:
            self._abandoned.discard(task)
            if not task.cancelled():
                task.exception()  # retrieved: never "exception was never retrieved"
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().create_task(_close(conn))

        return done

    async def _run(self, work: Callable[[psycopg.AsyncConnection[Any]], Awaitable[T]]) -> T:
        """Run ``work`` on an idle (or new) connection; healthy connections go back to the pool.

        A pooled connection found dead (the server restarted since it was used) is replaced
        by one new connection and ``work`` runs again: every statement here is idempotent
        (appends skip a known event id, results are upserts, queries read).
        """
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.pool_size)
        async with self._slots:
            for attempt in (1, 2):
                conn = self._take_idle() if attempt == 1 else None
                reused = conn is not None
                if conn is None:
                    conn = await self._connect()
                try:
                    result = await self._bounded(conn, work)
                except StorageError:
                    if not conn.closed and not conn.broken and conn.info.transaction_status == IDLE:
                        self._idle.append(conn)  # e.g. a rejected statement: the socket is fine
                        raise
                    # The server went away or hung: the other idle connections are stale too.
                    stale, self._idle = self._idle, []
                    for old in stale:
                        await _close(old)
                    if reused and conn.closed:
                        continue  # a dead pooled socket, not a timeout: dial once more
                    raise
                self._idle.append(conn)
                return result
        raise AssertionError("unreachable")  # pragma: no cover

    def _take_idle(self) -> psycopg.AsyncConnection[Any] | None:
        while self._idle:
            conn = self._idle.pop()
            if not conn.closed and not conn.broken:
                return conn
        return None

    # --- Journal ------------------------------------------------------------------------------
    async def append(self, event: JournalEvent) -> None:
        """Insert one event; returns once the server committed it."""
        row = event.to_dict()
        row["time"] = _parse_time(event.time, "event time")
        row["details"] = Jsonb(row["details"])
        params = [row[c] for c in _COLUMNS]

        async def work(conn: psycopg.AsyncConnection[Any]) -> None:
            await conn.execute(_INSERT, params)

        await self._run(work)

    async def query(
        self,
        *,
        run_id: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> list[JournalEvent]:
        """Events matching every given filter, oldest first (``limit``: the latest N).

        Raises:
            InvalidArguments: ``since`` is not an ISO 8601 time.
            StorageError: PostgreSQL is unreachable or failed.
        """
        where: list[str] = []
        params: list[Any] = []
        for column, value in (("run_id", run_id), ("tool", tool), ("kind", kind)):
            if value is not None:
                where.append(f"{column} = %s")
                params.append(storable(value))  # text a sink can bind
        if since is not None:
            where.append("time >= %s")
            params.append(_parse_time(since, "since"))
        sql = f"SELECT {', '.join(_COLUMNS)} FROM {SCHEMA}.events"
        if where:
            sql += " WHERE " + " AND ".join(where)
        if limit:
            sql += " ORDER BY time DESC, seq DESC LIMIT %s"
            params.append(int(limit))
        else:
            sql += " ORDER BY time, seq"

        async def work(conn: psycopg.AsyncConnection[Any]) -> list[tuple[Any, ...]]:
            cur = await conn.execute(sql, params)
            return await cur.fetchall()

        rows = await self._run(work)
        if limit:
            rows.reverse()
        out = []
        for row in rows:
            data: dict[str, Any] = dict(zip(_COLUMNS, row, strict=True))
            data["time"] = data["time"].astimezone(UTC).isoformat(timespec="milliseconds")
            out.append(JournalEvent.from_dict(data))
        return out

    async def record_result(self, operation_id: str, result: dict[str, Any]) -> None:
        """Keep (or replace) the result of ``operation_id``."""
        sql = (
            f"INSERT INTO {SCHEMA}.operations (operation_id, result) VALUES (%s, %s) "
            "ON CONFLICT (operation_id) DO UPDATE SET result = EXCLUDED.result, time = now()"
        )

        async def work(conn: psycopg.AsyncConnection[Any]) -> None:
            await conn.execute(sql, (storable(operation_id), Jsonb(storable(result))))

        await self._run(work)

    async def recorded_result(self, operation_id: str) -> dict[str, Any] | None:
        """The result recorded for ``operation_id``, or ``None``."""
        sql = f"SELECT result FROM {SCHEMA}.operations WHERE operation_id = %s"

        async def work(conn: psycopg.AsyncConnection[Any]) -> Any:
            cur = await conn.execute(sql, (storable(operation_id),))
            return await cur.fetchone()

        row = await self._run(work)
        return None if row is None else dict(row[0])

    async def ping(self) -> None:
        """Check that PostgreSQL answers a statement (within the time bound).

        Raises:
            StorageError: it does not.
        """

        async def work(conn: psycopg.AsyncConnection[Any]) -> None:
            await conn.execute("SELECT 1")

        await self._run(work)

    async def schema_version(self) -> int:
        """The newest migration applied in the database."""

        async def work(conn: psycopg.AsyncConnection[Any]) -> int:
            cur = await conn.execute(f"SELECT max(version) FROM {SCHEMA}.schema_migrations")
            row = await cur.fetchone()
            return int(row[0]) if row and row[0] is not None else 0

        return await self._run(work)

    async def aclose(self) -> None:
        """Close the idle connections (abandoned statements close theirs when they finish)."""
        idle, self._idle = self._idle, []
        for conn in idle:
            await _close(conn)


async def _close(conn: psycopg.AsyncConnection[Any]) -> None:
    with contextlib.suppress(Exception):
        await conn.close()


def _is_connection_failure(exc: BaseException) -> bool:
    """Whether the connection that raised ``exc`` is unusable (closed, reset, shut down)."""
    if isinstance(exc, OSError | psycopg.InterfaceError):
        return True
    sqlstate = getattr(exc, "sqlstate", None)
    return isinstance(exc, psycopg.OperationalError) and (
        sqlstate is None or sqlstate.startswith(("08", "57P"))
    )


async def _migrate(conn: psycopg.AsyncConnection[Any]) -> None:
    """Apply the missing migrations, once across every worker (advisory lock).

    Raises:
        StorageError: the database holds a newer schema than this webresearch knows.
    """
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
        await conn.execute(
            f"CREATE TABLE IF NOT EXISTS {SCHEMA}.schema_migrations ("
            "version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        cur = await conn.execute(f"SELECT version FROM {SCHEMA}.schema_migrations")
        applied = {int(row[0]) for row in await cur.fetchall()}
        if applied and max(applied) > SCHEMA_VERSION:
            raise StorageError(
                f"{_NAME} has schema {max(applied)}, newer than this webresearch ({SCHEMA_VERSION})",
                backend="postgresql",
            )
        for version, statements in _MIGRATIONS:
            if version in applied:
                continue
            for statement in statements.split(";"):
                if statement.strip():
                    await conn.execute(statement)
            await conn.execute(
                f"INSERT INTO {SCHEMA}.schema_migrations (version) VALUES (%s)", (version,)
            )
