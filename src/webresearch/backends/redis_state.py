"""Shared state in Redis: limits, caches and fetch scopes for a fleet of workers (redis-py asyncio).

Every check-and-record is one Lua script, so it is atomic on the server whatever the number
of workers (https://redis.io/docs/latest/develop/interact/programmability/eval-intro/):

* limits — a sliding-window log per key: a sorted set of admitted calls scored by time
  (unique members, so two calls in the same microsecond both count); expired members are
  trimmed, the set is counted, and the call is added only when under the limit;
* caches — per named cache a hash of values, a sorted set of expiry times and a sorted set
  of last-use sequence numbers: a get refreshes the entry's use, a set over ``maxsize``
  drops expired entries first, then the least recently used;
* scopes — a run's latest search results (one hash, replaced whole) and a conversation's
  view count (checked and incremented in one script).

A cache keeps each entry's expiry in its sorted set (the scripts enforce it, so a test clock
works and expired entries are dropped before live ones are evicted) rather than one key per
entry with its own ``EXPIRE``: the scripts then touch four fixed keys, never keys computed
inside Lua, and the whole cache expires ``ttl_s`` after its last set.

Time is the Redis server's clock (``TIME``) so every worker agrees; tests pass a clock
(seconds) instead. Every key lives under the configured prefix and carries a TTL
(``PEXPIRE``): a limiter log one window, a cache the TTL after its last set, search results
6 hours, view counts :data:`~webresearch.runtime.scope.VIEWS_TTL_S` — nothing stays forever.
The keys of one named cache share a hash tag (``{name}``), so the scripts stay in one slot.

Failures (unreachable, timed out, credentials refused …) become ``StorageError`` with a
short message naming "the Redis state backend", never the URL: it may hold a password.
Each operation is bounded: connect ``connect_timeout_s`` + reply ``timeout_s``.
"""

from __future__ import annotations

import asyncio
import json
import math
import uuid
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import (
    AuthenticationError,
    AuthorizationError,
    BusyLoadingError,
    NoPermissionError,
    RedisError,
    ResponseError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ..errors import ConfigurationError, StorageError
from ..runtime.limits import Decision, LimitRule
from ..runtime.scope import SEARCH_RESULTS_TTL_S, VIEWS_TTL_S, scope_key
from .redis_cooldowns import RedisCooldowns
from .redis_lua import NOW_US as _NOW
from .redis_spending import RedisSpending

__all__ = [
    "MAX_CONNECTIONS",
    "RedisCache",
    "RedisLimiter",
    "RedisScopeStore",
    "RedisState",
    "storage_error",
]

#: Connections per process; more concurrent operations wait for a free one (within the bound).
MAX_CONNECTIONS = 16

_NAME = "the Redis state backend"
_HINT = "retry in a few seconds"
#: Credentials refused: the same call fails again until the setting changes (never retry).
_CREDENTIALS_HINT = (
    "check the user and password in the state_url setting (WEBRESEARCH_STATE_URL, or "
    "state_url in the settings file); retrying will not help"
)
_US = 1_000_000

# KEYS[1] log · ARGV now, limit, window_us, member → {allowed, retry_after_us, remaining}
_LIMIT = (
    _NOW
    + """
local now = now_us(ARGV[1])
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
  return {1, 0, limit - count - 1}
end
if limit <= 0 then return {0, window, 0} end
local blocking = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
return {0, tonumber(blocking[2]) + window - now, 0}
"""
)

_DROP = """
local function drop(k)
  redis.call('HDEL', KEYS[1], k)
  redis.call('ZREM', KEYS[2], k)
  redis.call('ZREM', KEYS[3], k)
end
"""

# KEYS data, expiry, lru, seq · ARGV now, key → value or nil
_CACHE_GET = (
    _NOW
    + _DROP
    + """
local now = now_us(ARGV[1])
local expires = redis.call('ZSCORE', KEYS[2], ARGV[2])
if not expires then return false end
local value = redis.call('HGET', KEYS[1], ARGV[2])
if now >= tonumber(expires) or not value then
  drop(ARGV[2])
  return false
end
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[2])
return value
"""
)

# KEYS data, expiry, lru, seq · ARGV now, key, value, ttl_us, maxsize
_CACHE_SET = (
    _NOW
    + _DROP
    + """
local now = now_us(ARGV[1])
local ttl = tonumber(ARGV[4])
local maxsize = tonumber(ARGV[5])
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], now + ttl, ARGV[2])
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[2])
if redis.call('ZCARD', KEYS[3]) > maxsize then
  for _, k in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do drop(k) end
  local over = redis.call('ZCARD', KEYS[3]) - maxsize
  if over > 0 then
    for _, k in ipairs(redis.call('ZRANGE', KEYS[3], 0, over - 1)) do drop(k) end
  end
end
local ms = math.ceil(ttl / 1000)
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ms) end
return 1
"""
)

# KEYS results · ARGV now, ttl_us, keys_json
_SET_RESULTS = (
    _NOW
    + """
local now = now_us(ARGV[1])
local ttl = tonumber(ARGV[2])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'e', now + ttl, 'k', ARGV[3])
redis.call('PEXPIRE', KEYS[1], math.ceil(ttl / 1000))
return 1
"""
)

# KEYS results · ARGV now → keys_json or nil
_GET_RESULTS = (
    _NOW
    + """
local now = now_us(ARGV[1])
local v = redis.call('HMGET', KEYS[1], 'e', 'k')
if not v[1] or not v[2] then return false end
if now >= tonumber(v[1]) then
  redis.call('DEL', KEYS[1])
  return false
end
return v[2]
"""
)

# KEYS views · ARGV now, limit, ttl_us → 1 counted / 0 refused
_ADD_VIEW = (
    _NOW
    + """
local now = now_us(ARGV[1])
local ttl = tonumber(ARGV[3])
local v = redis.call('HMGET', KEYS[1], 'e', 'n')
local used = 0
if v[1] and v[2] and now < tonumber(v[1]) then used = tonumber(v[2]) end
if used >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'e', now + ttl, 'n', used + 1)
redis.call('PEXPIRE', KEYS[1], math.ceil(ttl / 1000))
return 1
"""
)


def storage_error(exc: BaseException, timeout_s: float) -> StorageError:
    """Translate a redis-py (or socket) failure into a short ``StorageError`` without the URL.

    Args:
        exc: what redis-py raised (its text may name the host and port: never shown).
        timeout_s: the bound that applied, for the "did not answer" message (seconds).
    """
    if isinstance(exc, (AuthenticationError, AuthorizationError, NoPermissionError)) or (
        isinstance(exc, ResponseError) and str(exc).startswith(("NOAUTH", "WRONGPASS"))
    ):
        # The URL's user or password is wrong, or that user may not run the command: a
        # setting to fix, not a moment to wait for (session 10 review: said "retry").
        return StorageError(
            f"{_NAME} rejected the credentials",
            hint=_CREDENTIALS_HINT,
            retryable=False,
            backend="redis",
        )
    if isinstance(exc, (RedisTimeoutError, TimeoutError)):
        why = f"did not answer within {timeout_s:g} s"
    elif isinstance(exc, BusyLoadingError):
        why = "is loading its data set"
    elif isinstance(exc, (RedisConnectionError, OSError)):
        why = "is unreachable"
    elif isinstance(exc, ResponseError):
        code = str(exc).split(" ", 1)[0]
        why = f"refused the command ({code if code.isupper() else 'error'})"
    else:
        why = "failed"
    return StorageError(f"{_NAME} {why}", hint=_HINT, backend="redis")


class RedisState:
    """One Redis connection pool serving limits, caches and scopes.

    Args:
        url: ``redis://[[user]:password@]host[:port][/db]`` or ``rediss://…`` (TLS); a secret.
        prefix: prefix of every key written.
        connect_timeout_s: seconds to connect.
        timeout_s: seconds to wait for one reply.
        clock: seconds; ``None`` (default) uses the Redis server's clock, which every worker
            shares. Tests pass a fake clock.

    Raises:
        ConfigurationError: the URL cannot be parsed (the message does not repeat it).
    """

    name = _NAME

    def __init__(
        self,
        url: str,
        *,
        prefix: str,
        connect_timeout_s: float = 2.0,
        timeout_s: float = 2.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.prefix = prefix
        self._clock = clock
        self._bound_s = connect_timeout_s + timeout_s
        try:
            pool = aioredis.BlockingConnectionPool.from_url(
                url,
                # A burst of calls shares a few connections instead of opening one each
                # (100 concurrent calls × 8 workers would otherwise open 800).
                max_connections=MAX_CONNECTIONS,
                timeout=self._bound_s,
                decode_responses=True,
                socket_connect_timeout=connect_timeout_s,
                socket_timeout=timeout_s,
                # One immediate retry on a broken connection (a pooled socket the server
                # closed when it restarted), never on a timeout: a slow server must not
                # double the bound, and redis-py's default retries for ~10 s.
                retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
                health_check_interval=0,
                client_name="webresearch",
            )
            self._client = aioredis.Redis.from_pool(pool)  # closing the client closes the pool
        except (ValueError, TypeError):
            raise ConfigurationError("state_url is not a valid redis:// or rediss:// URL") from None
        self._scripts = {
            name: self._client.register_script(source)
            for name, source in (
                ("limit", _LIMIT),
                ("cache_get", _CACHE_GET),
                ("cache_set", _CACHE_SET),
                ("set_results", _SET_RESULTS),
                ("get_results", _GET_RESULTS),
                ("add_view", _ADD_VIEW),
            )
        }
        self.limiter = RedisLimiter(self)
        self.scopes = RedisScopeStore(self)
        self.cooldowns = RedisCooldowns(self)
        self.spending = RedisSpending(self)

    def add_script(self, name: str, source: str) -> None:
        """Register one more Lua script under ``name`` (for :meth:`run`)."""
        self._scripts[name] = self._client.register_script(source)

    def key(self, *parts: str) -> str:
        """A key under the prefix, e.g. ``key("limit", "web_search")`` → ``webresearch:limit:web_search``."""
        return self.prefix + ":".join(parts)

    def now_arg(self) -> str:
        """``now`` for a script: microseconds of the injected clock, or ``""`` for server time."""
        return "" if self._clock is None else str(round(self._clock() * _US))

    async def run(self, script: str, keys: list[str], args: list[Any]) -> Any:
        """Run one of the scripts atomically, within the time bound.

        Raises:
            StorageError: Redis is unreachable, too slow, or refused the command.
        """
        try:
            async with asyncio.timeout(self._bound_s):
                return await self._scripts[script](keys=keys, args=args)
        except (RedisError, OSError, TimeoutError) as exc:
            raise storage_error(exc, self._bound_s) from None

    def cache(self, name: str, *, maxsize: int, ttl_s: float) -> RedisCache:
        """The named cache (every worker using the same prefix and name shares its entries)."""
        return RedisCache(self, name, maxsize=maxsize, ttl_s=ttl_s)

    async def ping(self) -> None:
        """Check that Redis answers.

        Raises:
            StorageError: it does not.
        """
        try:
            async with asyncio.timeout(self._bound_s):
                await self._client.ping()
        except (RedisError, OSError, TimeoutError) as exc:
            raise storage_error(exc, self._bound_s) from None

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._client.aclose()


class RedisLimiter:
    """Sliding-window log per key in a Redis sorted set (atomic across every worker)."""

    def __init__(self, state: RedisState) -> None:
        self._state = state

    async def acquire(self, key: str, rule: LimitRule) -> Decision:
        """Admit (and record) one call for ``key``, or refuse it with a retry-after."""
        window_us = max(1, round(rule.window_s * _US))
        allowed, retry_us, remaining = await self._state.run(
            "limit",
            [self._state.key("limit", key)],
            [self._state.now_arg(), rule.limit, window_us, uuid.uuid4().hex],
        )
        if int(allowed):
            return Decision(True, 0.0, int(remaining))
        return Decision(False, max(1e-3, int(retry_us) / _US), 0)


class RedisCache:
    """A named TTL + LRU cache in Redis; values are stored as JSON.

    Args:
        state: the connection.
        name: the cache's name (one namespace per name).
        maxsize: most live entries kept (0 disables the cache).
        ttl_s: seconds an entry stays valid.
    """

    def __init__(self, state: RedisState, name: str, *, maxsize: int, ttl_s: float) -> None:
        self._state = state
        self.name = name
        self.maxsize = maxsize
        self.ttl_s = ttl_s
        tag = "{" + name + "}"
        self._keys = [state.key("cache", tag, part) for part in ("data", "exp", "lru", "seq")]

    async def get(self, key: str) -> Any | None:
        """The value for ``key`` or ``None`` (absent or expired); a hit becomes most recently used."""
        raw = await self._state.run("cache_get", self._keys, [self._state.now_arg(), key])
        return None if raw is None else json.loads(raw)

    async def set(self, key: str, value: Any) -> None:
        """Store ``value`` for the TTL; over ``maxsize`` live entries, evict the least recently used."""
        if self.maxsize <= 0 or self.ttl_s <= 0:
            return
        data = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        ttl_us = max(1000, math.ceil(self.ttl_s * _US))
        await self._state.run(
            "cache_set", self._keys, [self._state.now_arg(), key, data, ttl_us, self.maxsize]
        )


class RedisScopeStore:
    """Per-run search results and per-conversation view counts in Redis."""

    def __init__(self, state: RedisState) -> None:
        self._state = state

    async def set_search_results(self, run_id: str, urls: list[str]) -> None:
        """Replace the run's latest search results (kept ``SEARCH_RESULTS_TTL_S``)."""
        keys = sorted({k for k in (scope_key(u) for u in urls) if k})
        await self._state.run(
            "set_results",
            [self._state.key("scope", "results", run_id)],
            [self._state.now_arg(), round(SEARCH_RESULTS_TTL_S * _US), json.dumps(keys)],
        )

    async def search_results(self, run_id: str) -> set[str] | None:
        """Scope keys of the run's latest search, or ``None`` (no search, or expired)."""
        raw = await self._state.run(
            "get_results", [self._state.key("scope", "results", run_id)], [self._state.now_arg()]
        )
        return None if raw is None else set(json.loads(raw))

    async def add_view(self, conversation: str, limit: int) -> bool:
        """Count one view unless ``limit`` views were counted (kept ``VIEWS_TTL_S`` after the last)."""
        counted = await self._state.run(
            "add_view",
            [self._state.key("scope", "views", conversation)],
            [self._state.now_arg(), limit, round(VIEWS_TTL_S * _US)],
        )
        return bool(int(counted))
