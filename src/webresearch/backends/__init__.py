"""Storage backends for journal, limits, caches and scopes (SQLite, Redis, PostgreSQL, JSON lines).

``open_state(url)`` (see :mod:`.state`) turns ``Settings.state_url`` into the limiter, the
named caches and the scope store; the driver modules (``redis_state``, ``postgres_journal``)
are imported only when their URL is used, so a missing optional dependency is a clear
configuration error, never an import failure.
"""

from .state import FailOpenCache, FailOpenCooldowns, MemoryState, StateBackend, open_state

__all__ = ["FailOpenCache", "FailOpenCooldowns", "MemoryState", "StateBackend", "open_state"]
