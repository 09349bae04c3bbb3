"""Spending limits in Redis (``runtime.spending``): one hash per key, one Lua script per step.

``<prefix>spend:<key>`` holds ``w`` (the window's number) and ``n`` (its total in nano-units);
a hold checks and adds in one script, so every worker of a fleet sees one total. The window
is computed in the script from the server's clock (or the test clock the state passes), and
the key expires one second after its window ends.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..runtime.spending import NANOS, SpendDecision, SpendingRule, to_nanos
from .redis_lua import NOW_US

__all__ = ["RedisSpending", "Scripts"]

_US = 1_000_000

_NOW = (
    NOW_US
    + """
local function total_in(window)
  local v = redis.call('HMGET', KEYS[1], 'w', 'n')
  if v[1] and tonumber(v[1]) == window then return tonumber(v[2]) end
  return 0
end
local function store(window, total, now, span)
  redis.call('HSET', KEYS[1], 'w', window, 'n', total)
  redis.call('PEXPIRE', KEYS[1], math.ceil(((window + 1) * span - now) / 1000) + 1000)
end
"""
)

# KEYS spend · ARGV now, amount, limit, window_us → {allowed, total, window, resets_in_us}
_HOLD = (
    _NOW
    + """
local now = now_us(ARGV[1])
local amount = tonumber(ARGV[2])
local span = tonumber(ARGV[4])
local window = math.floor(now / span)
local total = total_in(window)
local allowed = 0
if amount <= 0 or total + amount <= tonumber(ARGV[3]) then
  allowed = 1
  total = total + amount
  store(window, total, now, span)
end
return {allowed, total, window, (window + 1) * span - now}
"""
)

# KEYS spend · ARGV now, delta, window, window_us → 1
_ADJUST = (
    _NOW
    + """
local now = now_us(ARGV[1])
local delta = tonumber(ARGV[2])
local span = tonumber(ARGV[4])
local window = math.floor(now / span)
if window ~= tonumber(ARGV[3]) and delta < 0 then return 0 end
store(window, math.max(0, total_in(window) + delta), now, span)
return 1
"""
)

# KEYS spend · ARGV now, window_us → total
_SPENT = (
    _NOW
    + """
return total_in(math.floor(now_us(ARGV[1]) / tonumber(ARGV[2])))
"""
)


class Scripts(Protocol):
    """What this store needs of :class:`~.redis_state.RedisState`."""

    def key(self, *parts: str) -> str:
        """A key under the configured prefix."""
        ...

    def now_arg(self) -> str:
        """``now`` for a script (``""``: the server's clock)."""
        ...

    def add_script(self, name: str, source: str) -> None:
        """Register a Lua script."""
        ...

    async def run(self, script: str, keys: list[str], args: list[Any]) -> Any:
        """Run a registered script atomically, bounded (``StorageError`` on failure)."""
        ...


class RedisSpending:
    """Window totals per key in Redis, atomic across every worker.

    Args:
        state: the Redis state backend (its connection, prefix, clock and time bound).
    """

    def __init__(self, state: Scripts) -> None:
        self._state = state
        for name, source in (
            ("spend_hold", _HOLD),
            ("spend_adjust", _ADJUST),
            ("spend_total", _SPENT),
        ):
            state.add_script(name, source)

    def _key(self, key: str) -> list[str]:
        return [self._state.key("spend", key)]

    async def hold(self, key: str, amount: float, rule: SpendingRule) -> SpendDecision:
        """See :meth:`~webresearch.runtime.spending.SpendingStore.hold`."""
        allowed, total, window, resets_us = await self._state.run(
            "spend_hold",
            self._key(key),
            [self._state.now_arg(), to_nanos(amount), to_nanos(rule.limit), _span(rule)],
        )
        return SpendDecision(
            bool(int(allowed)), int(total) / NANOS, int(window), max(1e-3, int(resets_us) / _US)
        )

    async def adjust(self, key: str, delta: float, window: int, rule: SpendingRule) -> None:
        """See :meth:`~webresearch.runtime.spending.SpendingStore.adjust`."""
        await self._state.run(
            "spend_adjust",
            self._key(key),
            [self._state.now_arg(), to_nanos(delta), window, _span(rule)],
        )

    async def spent(self, key: str, rule: SpendingRule) -> float:
        """See :meth:`~webresearch.runtime.spending.SpendingStore.spent`."""
        total = await self._state.run(
            "spend_total", self._key(key), [self._state.now_arg(), _span(rule)]
        )
        return int(total) / NANOS


def _span(rule: SpendingRule) -> int:
    return max(1, round(rule.window_s * _US))
