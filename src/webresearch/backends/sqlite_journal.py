"""The SQLite journal sink: the embedded default (one file, WAL, schema migrations).

Writes are committed before ``append`` returns, so an event written before the call returns
survives a crash of the process; several processes may share one file (WAL +
``busy_timeout``). Every statement runs in the journal's own thread (:class:`~.serial.
SerialThread`), one at a time and in call order, never on the event loop: a commit usually
takes tens of microseconds, but one waiting for another process's lock or for the disk took
up to ~200 ms on a busy machine (issue 14), which on the loop stalled every other call.

WAL checkpoints (which fsync and take milliseconds) are moved off the caller's path: the
writing connection has automatic checkpoints off, and a daemon thread with its own
connection runs a passive checkpoint every :data:`CHECKPOINT_INTERVAL_S` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import StorageError
from ..runtime.journal import JournalEvent, record_problem, storable, utc_now_iso
from .files import ensure_private_file
from .serial import SerialThread
from .sqlite_open import connect_wal

__all__ = ["CHECKPOINT_INTERVAL_S", "OPEN_HINT", "SCHEMA_VERSION", "SQLiteJournal"]

#: The next step when the journal file cannot be opened (not a SQLite file, no permission,
#: a directory): the path is a setting to fix, not a moment to wait for.
OPEN_HINT = (
    "check the path in the journal_url setting (WEBRESEARCH_JOURNAL_URL, or journal_url in "
    "the settings file): it must name a SQLite journal file this user may write"
)

#: Seconds between background WAL checkpoints.
CHECKPOINT_INTERVAL_S = 1.0

#: Migrations in order; ``PRAGMA user_version`` records how many ran.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE events (
        event_id     TEXT PRIMARY KEY,
        time         TEXT NOT NULL,
        kind         TEXT NOT NULL,
        run_id       TEXT NOT NULL,
        tool         TEXT,
        operation_id TEXT,
        args_hash    TEXT,
        duration_ms  REAL,
        outcome      TEXT,
        error_code   TEXT,
        cached       INTEGER NOT NULL DEFAULT 0,
        cost         REAL NOT NULL DEFAULT 0,
        output       TEXT,
        details      TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX events_run ON events (run_id, time);
    CREATE INDEX events_tool ON events (tool, time);
    CREATE INDEX events_time ON events (time);
    CREATE TABLE operations (
        operation_id TEXT PRIMARY KEY,
        time         TEXT NOT NULL,
        result       TEXT NOT NULL
    );
    """,
    # 2: ``journal --kind K`` (WHERE kind = ? ORDER BY time DESC) walked the whole time
    # index for a rare kind; PostgreSQL has had this index from its first migration.
    # IF NOT EXISTS: a file where someone made it by hand migrates too.
    """
    CREATE INDEX IF NOT EXISTS events_kind ON events (kind, time);
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)

_COLUMNS = (
    "event_id", "time", "kind", "run_id", "tool", "operation_id", "args_hash", "duration_ms",
    "outcome", "error_code", "cached", "cost", "output", "details",
)  # fmt: skip


class SQLiteJournal:
    """Journal events in a SQLite file.

    Args:
        path: the database file (it and its parent directories are created by the first
            write; opening and reading a missing file create nothing).

    Attributes:
        skipped_lines: rows the last :meth:`query` skipped (details not JSON, a field of
            the wrong type: a row some other program wrote); ``skipped_reasons`` by reason.
        read_all: whether the last :meth:`query` read every matching row (its ``limit``
            was not reached). A ``limit`` is applied in SQL, newest first, through the
            index on ``time`` (or on run id / tool and ``time``): no sort, no full scan.
        exists: whether the file existed at the last open, write or :meth:`query`.

    Raises:
        StorageError: the file cannot be opened or migrated.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()
        self.skipped_lines = 0
        self.skipped_reasons: dict[str, int] = {}
        self.read_all = True
        self._io = SerialThread("webresearch-journal")
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        # Created by the first write, never by opening or reading (session 10 review: a
        # mistyped path given to ``webresearch journal`` left an empty database behind).
        self.exists = self.path.exists()
        if self.exists:
            self._conn = self._open()

    def _open(self) -> sqlite3.Connection:
        """Connect (creating the file owner-only), migrate, start the checkpointer.

        Raises:
            StorageError: not a SQLite file, no permission, a newer schema.
        """
        try:
            ensure_private_file(self.path)
            # Processes starting at once race for the WAL switch and the migrations: opening
            # may wait longer than a write does.
            self._conn = connect_wal(self.path, timeout_s=15.0)
            self._migrate()
            self._conn.execute("PRAGMA busy_timeout=5000")
            self._conn.execute("PRAGMA wal_autocheckpoint=0")
        except (sqlite3.Error, OSError) as exc:
            if self._conn is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._conn.close()
                self._conn = None
            raise StorageError(
                f"cannot open the journal database {self.path.name}: {exc}",
                hint=OPEN_HINT,
                retryable=False,
            ) from None
        self.exists = True
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, name="webresearch-journal-checkpoint", daemon=True
        )
        self._checkpointer.start()
        return self._conn

    @property
    def _db(self) -> sqlite3.Connection:
        """The connection, opened (and the file created) on first use."""
        return self._conn if self._conn is not None else self._open()

    def _checkpoint_loop(self) -> None:
        try:
            db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        except sqlite3.Error:
            return
        try:
            while not self._stop.wait(CHECKPOINT_INTERVAL_S):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            with contextlib.suppress(sqlite3.Error):
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def _migrate(self) -> None:
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StorageError(
                f"the journal {self.path.name} has schema {version}, newer than this webresearch ({SCHEMA_VERSION})"
            )
        for number in range(version, SCHEMA_VERSION):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                current = int(self._db.execute("PRAGMA user_version").fetchone()[0])
                if current == number:  # another process may have migrated meanwhile
                    # One statement at a time: executescript() would commit our transaction.
                    for statement in _MIGRATIONS[number].split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version={number + 1}")
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    @property
    def schema_version(self) -> int:
        """The schema version of the open file (0 while no file exists)."""
        if self._conn is None and not self.path.exists():
            return 0
        return self._io.call(lambda: int(self._db.execute("PRAGMA user_version").fetchone()[0]))

    async def append(self, event: JournalEvent) -> None:
        await self._io.run(self._insert, event.to_dict())

    def _insert(self, row: dict[str, Any]) -> None:
        row["cached"] = int(bool(row["cached"]))
        row["details"] = json.dumps(row["details"], ensure_ascii=False, default=str)
        try:
            self._db.execute(
                f"INSERT INTO events ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                [row[c] for c in _COLUMNS],
            )
        except sqlite3.Error as exc:
            raise StorageError(f"journal write failed: {exc}") from None

    async def query(
        self,
        *,
        run_id: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> list[JournalEvent]:
        sql, params = _select_sql(run_id, tool, kind, since, limit)
        return await self._io.run(self._select, sql, params, limit)

    async def scan(
        self,
        visit: Callable[[JournalEvent], None],
        *,
        run_id: str | None = None,
        tool: str | None = None,
        kind: str | None = None,
        since: str | None = None,
        limit: int | None = None,
    ) -> None:
        """Call ``visit`` with each event :meth:`query` would return (newest first) without
        holding them: the rows are read from the cursor a batch at a time, so memory stays
        constant whatever the journal's size (``journal stats``). ``visit`` runs in the
        journal's thread; ``skipped_lines``, ``skipped_reasons`` and ``read_all`` are set
        as by :meth:`query`.

        Raises:
            StorageError: the query failed.
        """
        sql, params = _select_sql(run_id, tool, kind, since, limit)
        await self._io.run(self._scan, sql, params, limit, visit)

    def _select(self, sql: str, params: list[str], limit: int | None) -> list[JournalEvent]:
        out: list[JournalEvent] = []
        self._scan(sql, params, limit, out.append)
        out.reverse()
        return out

    def _scan(
        self,
        sql: str,
        params: list[str],
        limit: int | None,
        visit: Callable[[JournalEvent], None],
    ) -> None:
        """The rows of ``sql`` (newest first) as events to ``visit``; bad rows counted."""
        self.exists = self._conn is not None or self.path.exists()
        if not self.exists:  # nothing written yet: read as empty, create nothing
            self.read_all, self.skipped_lines, self.skipped_reasons = True, 0, {}
            return
        reasons: Counter[str] = Counter()
        count = 0
        try:
            for event in _events(self._db.execute(sql, params), reasons):
                count += 1
                visit(event)
        except sqlite3.Error as exc:
            raise StorageError(f"journal query failed: {exc}") from None
        count += sum(reasons.values())
        self.read_all = not limit or count < limit
        self.skipped_lines = sum(reasons.values())
        self.skipped_reasons = dict(reasons.most_common())

    async def record_result(self, operation_id: str, result: dict[str, Any]) -> None:
        await self._io.run(self._record, operation_id, result)

    def _record(self, operation_id: str, result: dict[str, Any]) -> None:
        try:
            self._db.execute(
                "INSERT OR REPLACE INTO operations (operation_id, time, result) VALUES (?, ?, ?)",
                (
                    storable(operation_id),
                    utc_now_iso(),
                    json.dumps(storable(result), ensure_ascii=False, default=str),
                ),
            )
        except sqlite3.Error as exc:
            raise StorageError(f"journal write failed: {exc}") from None

    async def recorded_result(self, operation_id: str) -> dict[str, Any] | None:
        return await self._io.run(self._recorded, operation_id)

    def _recorded(self, operation_id: str) -> dict[str, Any] | None:
        if self._conn is None and not self.path.exists():
            return None
        try:
            row = self._db.execute(
                "SELECT result FROM operations WHERE operation_id = ?", (storable(operation_id),)
            ).fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"journal query failed: {exc}") from None
        return json.loads(row[0]) if row else None

    async def ping(self) -> None:
        """Ready to write: the file is opened (created and migrated when missing: a writer's
        readiness check; :meth:`query` never creates it).

        Raises:
            StorageError: the file cannot be opened or read.
        """
        if self._conn is None:
            await self._io.run(self._open)
            return
        try:
            self._db.execute("SELECT 1").fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"journal read failed: {exc}") from None

    async def aclose(self) -> None:
        await self._io.aclose(self._close)  # after every write made so far
        self._stop.set()
        if self._checkpointer is not None:
            await asyncio.to_thread(self._checkpointer.join, 5)

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()


def _select_sql(
    run_id: str | None, tool: str | None, kind: str | None, since: str | None, limit: int | None
) -> tuple[str, list[str]]:
    """The SELECT of a query with these filters, newest first (``LIMIT`` when given), and
    its parameters. A filter on run id, tool or kind is served by that column's index
    with ``time``."""
    where, params = [], []
    for column, value in (("run_id", run_id), ("tool", tool), ("kind", kind)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(storable(value))  # text a sink can bind
    if since is not None:
        where.append("time >= ?")
        params.append(storable(since))
    sql = f"SELECT {', '.join(_COLUMNS)} FROM events"
    if where:
        sql += " WHERE " + " AND ".join(where)
    sql += " ORDER BY time DESC, rowid DESC"
    if limit:
        sql += f" LIMIT {int(limit)}"
    return sql, params


def _events(rows: Iterable[tuple[Any, ...]], reasons: Counter[str]) -> Iterator[JournalEvent]:
    """The events of ``rows`` (in their order); a row that is no event (details not JSON,
    a field of the wrong type: something else wrote it) is skipped and counted in
    ``reasons``."""
    for row in rows:
        data: dict[str, Any] = dict(zip(_COLUMNS, row, strict=True))
        data["cached"] = bool(data["cached"])
        try:
            data["details"] = json.loads(data["details"] or "{}")
        except (TypeError, ValueError, RecursionError):
            reasons["details that are not JSON"] += 1
            continue
        problem = record_problem(data)
        if problem is not None:
            reasons[problem] += 1
            continue
        yield JournalEvent.from_dict(data)
