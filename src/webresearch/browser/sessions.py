"""The session table: which browser sessions are open, and which have idled out. Pure.

SPEC §1.4: one tab per session (per agent run by default); named sessions are isolated;
at most 12 open sessions per process; a session idle for 10 minutes is closed at the next call
of ANY session. The table holds opaque values (the backend's session objects) with their
last-use time from an injected clock; the manager acts on what it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..errors import BrowserError

__all__ = ["SessionTable", "session_key"]

V = TypeVar("V")


def session_key(run_key: str, name: str | None) -> str:
    """The table key: the run's session (``run.browser_session`` or the run id), and the
    model's named session inside it (``session`` argument), isolated from each other."""
    return f"{run_key}/{name}" if name else run_key


@dataclass
class _Entry(Generic[V]):
    value: V
    last_used: float


class SessionTable(Generic[V]):
    """Open sessions keyed by :func:`session_key`.

    Args:
        max_sessions: most sessions open at once.
        idle_s: seconds without use after which a session is expired.
        clock: monotonic seconds.
    """

    def __init__(self, max_sessions: int, idle_s: float, clock: Callable[[], float]) -> None:
        self.max_sessions = max_sessions
        self.idle_s = idle_s
        self.clock = clock
        self._entries: dict[str, _Entry[V]] = {}
        self._pending: set[str] = set()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def keys(self) -> list[str]:
        """Open session keys, least recently used first."""
        return sorted(self._entries, key=lambda k: self._entries[k].last_used)

    def expire(self) -> list[tuple[str, V]]:
        """Remove and return every session idle for at least ``idle_s`` seconds."""
        now = self.clock()
        gone = [k for k, e in self._entries.items() if now - e.last_used >= self.idle_s]
        return [(k, self._entries.pop(k).value) for k in gone]

    def get(self, key: str) -> V | None:
        """The session for ``key`` (marked as used now), or ``None``."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        entry.last_used = self.clock()
        return entry.value

    def reserve(self, key: str) -> None:
        """Claim a slot for a session about to be created.

        Raises:
            BrowserError: the table (with pending creations) is full.
        """
        if len(self._entries) + len(self._pending) >= self.max_sessions:
            raise BrowserError(
                f"too many open browser sessions ({self.max_sessions}); "
                "close one with action=close first",
                hint="call browser with action=close on a session you no longer need",
                retryable=True,
            )
        self._pending.add(key)

    def release(self, key: str) -> None:
        """Give back a reserved slot whose creation failed."""
        self._pending.discard(key)

    def add(self, key: str, value: V) -> None:
        """Store a created session (its reservation becomes the entry)."""
        self._pending.discard(key)
        self._entries[key] = _Entry(value, self.clock())

    def pop(self, key: str) -> V | None:
        """Remove and return the session for ``key``."""
        entry = self._entries.pop(key, None)
        return None if entry is None else entry.value

    def drain(self) -> list[tuple[str, V]]:
        """Remove and return every session (on close)."""
        out = [(k, e.value) for k, e in self._entries.items()]
        self._entries.clear()
        return out
