"""One URL → the shared-state backend: limiter, named caches, fetch-scope store, cool-downs.

``Settings.state_url`` chooses where limits, caches and scopes live (SPEC §3 "Limits and
caches"; the semantics are identical everywhere, a parametrised test suite proves it):

==================  ===========================================  ======================
URL                 backend                                      shared by
==================  ===========================================  ======================
``memory://``       in-process (default)                         one process
``sqlite:///path``  :class:`~.sqlite_state.SQLiteState`          processes on one host
``redis://…``       :class:`~.redis_state.RedisState`            a fleet of machines
``rediss://…``      the same over TLS
==================  ===========================================  ======================

Failure policy when a shared backend is down (docs/architecture.md, "Shared state"):

* **limits fail closed** — the call fails with ``storage``; never silently unlimited;
* **scopes fail closed** — a scope that cannot be read or recorded denies with ``storage``;
* **caches fail open** — a cache error is a miss (the value is fetched again, still rate
  limited, so nothing is amplified), logged once per outage;
* **cool-downs fail open** — an error reads as "not cooling down" and a failed write is
  dropped (a provider is then tried, as without cool-downs; its failures still reach the
  caller), logged once per outage.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from pydantic import SecretStr

from ..config import DEFAULT_REDIS_PREFIX, STATE_URL_SCHEMES
from ..errors import ConfigurationError, StorageError
from ..runtime.cache import Cache, MemoryCache
from ..runtime.cooldowns import Cooldown, CooldownStore, MemoryCooldowns
from ..runtime.limits import Limiter, MemoryLimiter
from ..runtime.scope import MemoryScopeStore, ScopeStore
from ..runtime.spending import MemorySpending, SpendingStore

__all__ = [
    "FailOpenCache",
    "FailOpenCooldowns",
    "MemoryState",
    "StateBackend",
    "file_path",
    "open_state",
]

log = logging.getLogger("webresearch")

T = TypeVar("T")


class StateBackend(Protocol):
    """Where one process keeps (or shares) limits, caches and scopes."""

    @property
    def name(self) -> str:
        """Human name for errors and logs, e.g. "the Redis state backend" (never the URL)."""
        ...

    @property
    def limiter(self) -> Limiter:
        """The limiter (atomic across every process sharing the backend)."""
        ...

    @property
    def scopes(self) -> ScopeStore:
        """The fetch-scope store."""
        ...

    @property
    def cooldowns(self) -> CooldownStore:
        """Cool-downs (search providers that failed), shared like the limiter."""
        ...

    @property
    def spending(self) -> SpendingStore:
        """Spending-limit totals (atomic across every process sharing the backend)."""
        ...

    async def ping(self) -> None:
        """Check that the backend answers (raises ``StorageError`` when it does not)."""
        ...

    def cache(self, name: str, *, maxsize: int, ttl_s: float) -> Cache:
        """The named cache (shared by every process using the same backend and name)."""
        ...

    async def aclose(self) -> None:
        """Release connections and files."""
        ...


class MemoryState:
    """In-process state (the embedded default).

    Args:
        clock: monotonic seconds (tests inject a fake).
        wall_clock: seconds since the epoch: spending windows are calendar-aligned
            (default ``time.time``).
    """

    name = "the in-process state"

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self._clock = clock
        self.limiter = MemoryLimiter(clock)
        self.scopes = MemoryScopeStore(clock)
        self.cooldowns = MemoryCooldowns(clock)
        self.spending = MemorySpending(wall_clock)
        self._caches: dict[str, MemoryCache] = {}

    async def ping(self) -> None:
        """Always answers (nothing to reach)."""

    def cache(self, name: str, *, maxsize: int, ttl_s: float) -> MemoryCache:
        """The in-process cache ``name`` (one per name, like the shared backends' namespaces)."""
        if name not in self._caches:
            self._caches[name] = MemoryCache(maxsize, ttl_s, clock=self._clock)
        return self._caches[name]

    async def aclose(self) -> None:
        """Nothing to release."""


class _Outage:
    """Runs a shared backend's operations; a ``StorageError`` gives the fallback instead.

    One warning is logged when an outage starts and one line when it ends (the error text
    names the backend, never its URL).

    Args:
        what: what fails open, for the log ("cache web_fetch", "cool-downs").
        meaning: what an error means meanwhile ("treated as a miss").
    """

    def __init__(self, what: str, meaning: str) -> None:
        self.what = what
        self.meaning = meaning
        self.failing = False

    async def run(self, operation: Awaitable[T], fallback: T) -> T:
        """``await operation``, or ``fallback`` when the backend failed."""
        try:
            value = await operation
        except StorageError as exc:
            if not self.failing:
                self.failing = True
                log.warning("%s %s: %s", self.what, self.meaning, exc.message)
            return fallback
        if self.failing:
            self.failing = False
            log.warning("%s is back", self.what)
        return value


class FailOpenCache:
    """A cache whose storage errors are misses: a cache outage never fails a call.

    ``get`` answers ``None`` and ``set`` does nothing while the inner cache raises
    :class:`~webresearch.errors.StorageError`; one warning is logged when the outage starts
    and one line when it ends (the error text names the backend, never its URL).

    Args:
        inner: the shared cache.
        name: the cache's name, for the log.
    """

    def __init__(self, inner: Cache, name: str) -> None:
        self.inner = inner
        self.name = name
        self._outage = _Outage(f"cache {name}", "treated as a miss")

    async def get(self, key: str) -> Any | None:
        """The inner cache's value, or ``None`` when it is absent or the backend failed."""
        return await self._outage.run(self.inner.get(key), None)

    async def set(self, key: str, value: Any) -> None:
        """Store in the inner cache; a backend failure is logged and ignored."""
        await self._outage.run(self.inner.set(key, value), None)


class FailOpenCooldowns:
    """Cool-downs whose storage errors change nothing: a read that fails is "not cooling
    down", a write that fails is dropped; one warning when the outage starts, one line when
    it ends.

    Args:
        inner: the shared store.
    """

    def __init__(self, inner: CooldownStore) -> None:
        self.inner = inner
        self._outage = _Outage("cool-down store", "ignored")

    async def start(self, key: str, seconds: float, code: str, reason: str = "") -> None:
        """Start a cool-down; a backend failure is logged and ignored."""
        await self._outage.run(self.inner.start(key, seconds, code, reason), None)

    async def get(self, key: str) -> Cooldown | None:
        """The live cool-down, or ``None`` when there is none or the backend failed."""
        return await self._outage.run(self.inner.get(key), None)

    async def clear(self, key: str) -> None:
        """End a cool-down; a backend failure is logged and ignored."""
        await self._outage.run(self.inner.clear(key), None)


def file_path(rest: str) -> str:
    """The file path of a ``sqlite://`` / ``jsonl://`` URL after ``scheme://``.

    ``sqlite:///abs/x`` → ``/abs/x``; ``sqlite:////abs/x`` → ``/abs/x``; ``sqlite:///~/x``
    → ``~/x``; ``sqlite://rel/x`` → ``rel/x`` (relative to the working directory).
    """
    return rest[1:] if rest.startswith("/") and rest[1:2] in ("/", "~") else rest


def open_state(
    url: str | SecretStr = "memory://",
    *,
    prefix: str = DEFAULT_REDIS_PREFIX,
    connect_timeout_s: float = 2.0,
    timeout_s: float = 2.0,
    clock: Callable[[], float] = time.monotonic,
) -> StateBackend:
    """Open the state backend named by ``url`` (``Settings.state_url``).

    Nothing is dialled here: Redis connects on first use, so a server that is down at start
    is a ``storage`` error on the first call that needs it, and calls resume when it is back.

    Args:
        url: ``memory://``, ``sqlite:///path``, ``redis://…`` or ``rediss://…`` (a secret:
            never logged or shown).
        prefix: prefix of every Redis key.
        connect_timeout_s: seconds to connect to Redis.
        timeout_s: seconds for one Redis reply, or the longest wait for SQLite's write lock.
        clock: monotonic seconds for the in-process backend. Shared backends use a clock
            every process agrees on instead: the wall clock (SQLite), the server's (Redis).

    Raises:
        ConfigurationError: unknown scheme, unparseable URL, or the Redis extra not installed.
        StorageError: the SQLite file cannot be opened.
    """
    raw = url.get_secret_value() if isinstance(url, SecretStr) else url
    scheme, sep, rest = raw.partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in STATE_URL_SCHEMES:
        raise ConfigurationError(
            "state_url must start with " + ", ".join(f"{s}://" for s in STATE_URL_SCHEMES)
        )
    if scheme == "memory":
        return MemoryState(clock)
    if scheme == "sqlite":
        from .sqlite_state import SQLiteState

        path = file_path(rest)
        if not path:
            raise ConfigurationError(
                "state_url sqlite:// needs a file path, e.g. sqlite:///var/lib/webresearch/state.sqlite3"
            )
        return SQLiteState(path, timeout_s=timeout_s)
    try:
        from .redis_state import RedisState
    except ImportError:
        raise ConfigurationError(
            "state_url is redis://… but Redis support is not installed "
            "(pip install -e '.[redis]' in the webresearch checkout)"
        ) from None
    return RedisState(raw, prefix=prefix, connect_timeout_s=connect_timeout_s, timeout_s=timeout_s)
