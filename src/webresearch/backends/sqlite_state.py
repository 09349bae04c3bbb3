"""Shared state in one SQLite file: limits, caches and fetch scopes for several processes on one host.

Every check-and-record runs in one ``BEGIN IMMEDIATE`` transaction: SQLite then holds the
file's write lock from the first read, so two processes can never both see "29 admitted" and
both record the 30th call (https://www.sqlite.org/lang_transaction.html, "IMMEDIATE"). WAL
mode lets readers go on while one process writes (https://www.sqlite.org/wal.html).

Semantics are those of the in-process implementations (``runtime.limits``, ``runtime.cache``,
``runtime.scope``); the window math is the same pure :func:`~webresearch.runtime.limits.decide`.
Time is the wall clock (``time.time``) by default: every process on the host agrees on it,
and unlike the monotonic clock it does not restart at a reboot while the file persists.

Calls are synchronous on the event loop, as in the SQLite journal: one transaction on a
local file takes tens of microseconds, less than handing it to a thread. A writer waiting
for another process's lock waits at most ``timeout_s``, then fails with ``StorageError``.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import StorageError
from ..runtime.cooldowns import REASON_MAX_CHARS, Cooldown, later
from ..runtime.limits import Decision, LimitRule, decide
from ..runtime.scope import SEARCH_RESULTS_TTL_S, VIEWS_TTL_S, scope_key
from ..runtime.spending import NANOS, SpendDecision, SpendingRule, decide_spend, to_nanos, window_of
from .files import ensure_private_file
from .sqlite_open import connect_wal

__all__ = [
    "SQLiteCache",
    "SQLiteCooldowns",
    "SQLiteLimiter",
    "SQLiteScopeStore",
    "SQLiteSpending",
    "SQLiteState",
]

#: Migrations in order; ``PRAGMA user_version`` records how many ran.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE limit_log (
        key TEXT NOT NULL,
        t   REAL NOT NULL
    );
    CREATE INDEX limit_log_key_t ON limit_log (key, t);
    CREATE TABLE cache (
        name    TEXT NOT NULL,
        key     TEXT NOT NULL,
        value   TEXT NOT NULL,
        expires REAL NOT NULL,
        used    INTEGER NOT NULL,
        PRIMARY KEY (name, key)
    );
    CREATE INDEX cache_used ON cache (name, used);
    CREATE INDEX cache_expires ON cache (name, expires);
    CREATE TABLE search_results (
        run_id  TEXT PRIMARY KEY,
        keys    TEXT NOT NULL,
        expires REAL NOT NULL
    );
    CREATE INDEX search_results_expires ON search_results (expires);
    CREATE TABLE views (
        conversation TEXT PRIMARY KEY,
        used         INTEGER NOT NULL,
        expires      REAL NOT NULL
    );
    CREATE INDEX views_expires ON views (expires);
    """,
    """
    CREATE TABLE cooldowns (
        key    TEXT PRIMARY KEY,
        until  REAL NOT NULL,
        code   TEXT NOT NULL,
        reason TEXT NOT NULL
    );
    """,
    # 3: spending limits (runtime.spending): the current window's total per key.
    """
    CREATE TABLE spending (
        key    TEXT PRIMARY KEY,
        window INTEGER NOT NULL,
        nanos  INTEGER NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)

_NAME = "the SQLite state backend"

#: Seconds opening (WAL switch, migrations) may wait for other processes starting at once.
OPEN_TIMEOUT_S = 15.0


class SQLiteState:
    """One SQLite file holding limits, caches and scopes.

    Args:
        path: the database file (parent directories are created).
        timeout_s: longest wait (seconds) for another process's write lock.
        clock: wall-clock seconds shared by every process on the host (tests inject a fake).

    Raises:
        StorageError: the file cannot be opened or migrated.
    """

    name = _NAME

    def __init__(
        self,
        path: str | Path,
        *,
        timeout_s: float = 2.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path).expanduser()
        self.clock = clock
        try:
            ensure_private_file(self.path)
            # Opening may race other processes starting at the same moment (switching to WAL
            # and migrating take the write lock once): allow OPEN_TIMEOUT_S for that, then
            # every operation waits at most ``timeout_s``.
            open_timeout = max(timeout_s, OPEN_TIMEOUT_S)
            self._db = connect_wal(self.path, timeout_s=open_timeout)
            self._migrate()
            self._db.execute(f"PRAGMA busy_timeout={int(timeout_s * 1000)}")
        except (sqlite3.Error, OSError) as exc:
            raise StorageError(
                f"cannot open {_NAME} file {self.path.name}: {_reason(exc)}"
            ) from None
        self.limiter = SQLiteLimiter(self)
        self.scopes = SQLiteScopeStore(self)
        self.cooldowns = SQLiteCooldowns(self)
        self.spending = SQLiteSpending(self)

    def _migrate(self) -> None:
        with self.transaction() as db:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise StorageError(
                    f"{_NAME} file {self.path.name} has schema {version}, "
                    f"newer than this webresearch ({SCHEMA_VERSION})"
                )
            for number in range(version, SCHEMA_VERSION):
                for statement in _MIGRATIONS[number].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version={number + 1}")

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (rolled back on any error).

        Raises:
            StorageError: the lock was not obtained within the timeout, or SQLite failed.
        """
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StorageError(f"{_NAME} failed: {_reason(exc)}") from None
        try:
            yield db
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            db.execute("ROLLBACK")
            raise StorageError(f"{_NAME} failed: {_reason(exc)}") from None
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def fetch_one(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """One row of a read (no transaction: WAL readers never wait for writers).

        Raises:
            StorageError: SQLite failed.
        """
        try:
            row: tuple[Any, ...] | None = self._db.execute(sql, params).fetchone()
        except sqlite3.Error as exc:
            raise StorageError(f"{_NAME} failed: {_reason(exc)}") from None
        return row

    async def ping(self) -> None:
        """Check that the file answers a read.

        Raises:
            StorageError: it does not.
        """
        self.fetch_one("SELECT 1", ())

    def cache(self, name: str, *, maxsize: int, ttl_s: float) -> SQLiteCache:
        """The named cache in this file (same name in another process: same entries)."""
        return SQLiteCache(self, name, maxsize=maxsize, ttl_s=ttl_s)

    async def aclose(self) -> None:
        """Close the file."""
        self._db.close()


def _reason(exc: BaseException) -> str:
    """A short cause without paths: "database is locked", "disk I/O error" …"""
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return "another process holds the write lock longer than the timeout"
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    return str(exc).split(":")[0][:80] or type(exc).__name__


class SQLiteLimiter:
    """Sliding-window log per key, atomic across processes (``BEGIN IMMEDIATE``)."""

    def __init__(self, state: SQLiteState) -> None:
        self._state = state

    async def acquire(self, key: str, rule: LimitRule) -> Decision:
        """Admit (and record) one call for ``key``, or refuse it with a retry-after."""
        with self._state.transaction() as db:
            now = self._state.clock()
            db.execute("DELETE FROM limit_log WHERE key = ? AND t <= ?", (key, now - rule.window_s))
            admitted = [
                row[0]
                for row in db.execute("SELECT t FROM limit_log WHERE key = ? ORDER BY t", (key,))
            ]
            decision = decide(admitted, now, rule)
            if decision.allowed:
                db.execute("INSERT INTO limit_log (key, t) VALUES (?, ?)", (key, now))
        return decision


class SQLiteCache:
    """A named TTL + LRU cache in the shared file; values are stored as JSON.

    Args:
        state: the open file.
        name: the cache's name (one namespace per name).
        maxsize: most live entries kept (0 disables the cache).
        ttl_s: seconds an entry stays valid.
    """

    def __init__(self, state: SQLiteState, name: str, *, maxsize: int, ttl_s: float) -> None:
        self._state = state
        self.name = name
        self.maxsize = maxsize
        self.ttl_s = ttl_s

    async def get(self, key: str) -> Any | None:
        """The value for ``key`` or ``None`` (absent or expired); a hit becomes most recently used."""
        with self._state.transaction() as db:
            row = db.execute(
                "SELECT value, expires FROM cache WHERE name = ? AND key = ?", (self.name, key)
            ).fetchone()
            if row is None:
                return None
            if self._state.clock() >= row[1]:
                db.execute("DELETE FROM cache WHERE name = ? AND key = ?", (self.name, key))
                return None
            db.execute(
                "UPDATE cache SET used = (SELECT MAX(used) + 1 FROM cache WHERE name = ?) "
                "WHERE name = ? AND key = ?",
                (self.name, self.name, key),
            )
        return json.loads(row[0])

    async def set(self, key: str, value: Any) -> None:
        """Store ``value`` for the TTL; over ``maxsize`` live entries, evict the least recently used."""
        if self.maxsize <= 0 or self.ttl_s <= 0:
            return
        data = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        with self._state.transaction() as db:
            now = self._state.clock()
            db.execute(
                "INSERT OR REPLACE INTO cache (name, key, value, expires, used) VALUES "
                "(?, ?, ?, ?, (SELECT COALESCE(MAX(used), 0) + 1 FROM cache WHERE name = ?))",
                (self.name, key, data, now + self.ttl_s, self.name),
            )
            count = db.execute("SELECT COUNT(*) FROM cache WHERE name = ?", (self.name,)).fetchone()
            if count[0] > self.maxsize:
                db.execute("DELETE FROM cache WHERE name = ? AND expires <= ?", (self.name, now))
                db.execute(
                    "DELETE FROM cache WHERE name = ? AND key IN (SELECT key FROM cache "
                    "WHERE name = ? ORDER BY used DESC LIMIT -1 OFFSET ?)",
                    (self.name, self.name, self.maxsize),
                )


class SQLiteScopeStore:
    """Per-run search results and per-conversation view counts in the shared file."""

    def __init__(self, state: SQLiteState) -> None:
        self._state = state

    async def set_search_results(self, run_id: str, urls: list[str]) -> None:
        """Replace the run's latest search results (kept ``SEARCH_RESULTS_TTL_S``)."""
        keys = sorted({k for k in (scope_key(u) for u in urls) if k})
        with self._state.transaction() as db:
            now = self._state.clock()
            db.execute("DELETE FROM search_results WHERE expires <= ?", (now,))
            db.execute(
                "INSERT OR REPLACE INTO search_results (run_id, keys, expires) VALUES (?, ?, ?)",
                (run_id, json.dumps(keys), now + SEARCH_RESULTS_TTL_S),
            )

    async def search_results(self, run_id: str) -> set[str] | None:
        """Scope keys of the run's latest search, or ``None`` (no search, or expired)."""
        row = self._state.fetch_one(
            "SELECT keys, expires FROM search_results WHERE run_id = ?", (run_id,)
        )
        if row is None or self._state.clock() >= row[1]:
            return None
        return set(json.loads(row[0]))

    async def add_view(self, conversation: str, limit: int) -> bool:
        """Count one view unless ``limit`` views were counted (kept ``VIEWS_TTL_S`` after the last)."""
        with self._state.transaction() as db:
            now = self._state.clock()
            db.execute("DELETE FROM views WHERE expires <= ?", (now,))
            row = db.execute(
                "SELECT used FROM views WHERE conversation = ?", (conversation,)
            ).fetchone()
            used = row[0] if row else 0
            if used >= limit:
                return False
            db.execute(
                "INSERT OR REPLACE INTO views (conversation, used, expires) VALUES (?, ?, ?)",
                (conversation, used + 1, now + VIEWS_TTL_S),
            )
        return True


class SQLiteCooldowns:
    """Cool-downs in the shared file (``runtime.cooldowns`` semantics), atomic across processes."""

    def __init__(self, state: SQLiteState) -> None:
        self._state = state

    async def start(self, key: str, seconds: float, code: str, reason: str = "") -> None:
        """Cool ``key`` down for ``seconds`` unless a cool-down ending later is on."""
        with self._state.transaction() as db:
            now = self._state.clock()
            row = db.execute("SELECT until FROM cooldowns WHERE key = ?", (key,)).fetchone()
            live = row[0] if row is not None and now < row[0] else None
            until = later(live, now, seconds)
            if until is not None:
                db.execute(
                    "INSERT OR REPLACE INTO cooldowns (key, until, code, reason) "
                    "VALUES (?, ?, ?, ?)",
                    (key, until, code, reason[:REASON_MAX_CHARS]),
                )
            db.execute("DELETE FROM cooldowns WHERE until <= ?", (now,))

    async def get(self, key: str) -> Cooldown | None:
        """The live cool-down of ``key``, or ``None`` (a read: never waits for writers)."""
        row = self._state.fetch_one(
            "SELECT until, code, reason FROM cooldowns WHERE key = ?", (key,)
        )
        if row is None:
            return None
        remaining = row[0] - self._state.clock()
        return Cooldown(remaining, row[1], row[2]) if remaining > 0 else None

    async def clear(self, key: str) -> None:
        """End the cool-down of ``key`` now."""
        with self._state.transaction() as db:
            db.execute("DELETE FROM cooldowns WHERE key = ?", (key,))


class SQLiteSpending:
    """Window totals per key in the shared file (``runtime.spending``), atomic across
    processes (``BEGIN IMMEDIATE``)."""

    def __init__(self, state: SQLiteState) -> None:
        self._state = state

    @staticmethod
    def _total(db: sqlite3.Connection, key: str, window: int) -> int:
        row = db.execute("SELECT window, nanos FROM spending WHERE key = ?", (key,)).fetchone()
        return int(row[1]) if row is not None and row[0] == window else 0

    async def hold(self, key: str, amount: float, rule: SpendingRule) -> SpendDecision:
        """See :meth:`~webresearch.runtime.spending.SpendingStore.hold`."""
        with self._state.transaction() as db:
            now = self._state.clock()
            window = window_of(now, rule.window_s)
            total = self._total(db, key, window)
            decision = decide_spend(
                total, to_nanos(amount), to_nanos(rule.limit), now, rule.window_s
            )
            if decision.allowed:
                db.execute(
                    "INSERT OR REPLACE INTO spending (key, window, nanos) VALUES (?, ?, ?)",
                    (key, window, total + to_nanos(amount)),
                )
        return decision

    async def adjust(self, key: str, delta: float, window: int, rule: SpendingRule) -> None:
        """See :meth:`~webresearch.runtime.spending.SpendingStore.adjust`."""
        with self._state.transaction() as db:
            current = window_of(self._state.clock(), rule.window_s)
            if window != current and delta < 0:
                return
            total = max(0, self._total(db, key, current) + to_nanos(delta))
            db.execute(
                "INSERT OR REPLACE INTO spending (key, window, nanos) VALUES (?, ?, ?)",
                (key, current, total),
            )

    async def spent(self, key: str, rule: SpendingRule) -> float:
        """See :meth:`~webresearch.runtime.spending.SpendingStore.spent`."""
        row = self._state.fetch_one("SELECT window, nanos FROM spending WHERE key = ?", (key,))
        window = window_of(self._state.clock(), rule.window_s)
        return int(row[1]) / NANOS if row is not None and row[0] == window else 0.0
