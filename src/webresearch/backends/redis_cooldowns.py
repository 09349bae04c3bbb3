"""Cool-downs in Redis (``runtime.cooldowns`` semantics) for a fleet: one hash per key.

``<prefix>cooldown:<key>`` holds ``u`` (when it ends, microseconds of the clock every
worker shares: the server's ``TIME``, or the tests' clock), ``c`` (the code) and ``r`` (the
reason). Starting and reading are one Lua script each, so "keep the later end" is atomic
whatever the number of workers; the hash expires with the cool-down (``PEXPIRE``), so
nothing stays behind.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..runtime.cooldowns import REASON_MAX_CHARS, Cooldown
from .redis_lua import NOW_US

__all__ = ["RedisCooldowns", "ScriptRunner"]


class ScriptRunner(Protocol):
    """What the cool-downs need of :class:`~.redis_state.RedisState`."""

    def add_script(self, name: str, source: str) -> None: ...

    def key(self, *parts: str) -> str: ...

    def now_arg(self) -> str: ...

    async def run(self, script: str, keys: list[str], args: list[Any]) -> Any: ...


_US = 1_000_000

# KEYS cooldown · ARGV now, seconds_us, code, reason → 1 started / 0 kept
_START = (
    NOW_US
    + """
local now = now_us(ARGV[1])
local span = tonumber(ARGV[2])
if span <= 0 then return 0 end
local ends = now + span
local current = redis.call('HGET', KEYS[1], 'u')
if current and tonumber(current) > now and tonumber(current) >= ends then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'u', ends, 'c', ARGV[3], 'r', ARGV[4])
redis.call('PEXPIRE', KEYS[1], math.ceil(span / 1000))
return 1
"""
)

# KEYS cooldown · ARGV now → {remaining_us, code, reason} or nil
_GET = (
    NOW_US
    + """
local now = now_us(ARGV[1])
local v = redis.call('HMGET', KEYS[1], 'u', 'c', 'r')
if not v[1] then return false end
local left = tonumber(v[1]) - now
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return false
end
return {tostring(left), v[2] or '', v[3] or ''}
"""
)


class RedisCooldowns:
    """Cool-downs shared by every worker using the same Redis and prefix."""

    def __init__(self, state: ScriptRunner) -> None:
        self._state = state
        state.add_script("cooldown_start", _START)
        state.add_script("cooldown_get", _GET)
        state.add_script("cooldown_clear", "redis.call('DEL', KEYS[1]) return 1")

    def _key(self, key: str) -> str:
        return self._state.key("cooldown", key)

    async def start(self, key: str, seconds: float, code: str, reason: str = "") -> None:
        """Cool ``key`` down for ``seconds`` unless a cool-down ending later is on."""
        await self._state.run(
            "cooldown_start",
            [self._key(key)],
            [self._state.now_arg(), round(seconds * _US), code, reason[:REASON_MAX_CHARS]],
        )

    async def get(self, key: str) -> Cooldown | None:
        """The live cool-down of ``key``, or ``None``."""
        raw = await self._state.run("cooldown_get", [self._key(key)], [self._state.now_arg()])
        if not raw:
            return None
        left_us, code, reason = raw
        return Cooldown(float(left_us) / _US, str(code), str(reason))

    async def clear(self, key: str) -> None:
        """End the cool-down of ``key`` now."""
        await self._state.run("cooldown_clear", [self._key(key)], [])
