"""Opening one SQLite file in WAL mode from several processes starting at the same moment.

Switching a new file to WAL needs an exclusive lock. When two connections each hold a shared
lock and both want it, SQLite detects a possible deadlock and answers "database is locked"
at once, without calling the busy handler ("The presence of a busy handler does not
guarantee that it will be invoked when there is lock contention",
https://www.sqlite.org/c3ref/busy_handler.html). So the connection timeout alone does not
cover a fleet of workers starting together: the switch is retried here until a deadline.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["connect_wal"]

#: First and longest pause (seconds) between attempts; each pause doubles, with jitter.
_FIRST_PAUSE_S = 0.005
_MAX_PAUSE_S = 0.2


def connect_wal(
    path: Path,
    *,
    timeout_s: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> sqlite3.Connection:
    """Connect to ``path`` (autocommit, usable from any thread) and switch it to WAL mode
    with ``synchronous=NORMAL``.

    Args:
        path: the database file.
        timeout_s: longest total wait (seconds) for other processes' locks; also the
            connection's busy timeout.
        clock, sleep: injected by tests.

    Raises:
        sqlite3.Error: SQLite failed, or the file stayed locked for ``timeout_s``.
    """
    deadline = clock() + timeout_s
    pause = _FIRST_PAUSE_S
    db = sqlite3.connect(path, timeout=timeout_s, isolation_level=None, check_same_thread=False)
    try:
        while True:
            try:
                db.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc) or clock() + pause > deadline:
                    raise
                sleep(pause * random.uniform(0.5, 1.0))  # jitter spreads the retries
                pause = min(pause * 2, _MAX_PAUSE_S)
        db.execute("PRAGMA synchronous=NORMAL")
    except BaseException:
        db.close()
        raise
    return db


def _is_busy(exc: sqlite3.OperationalError) -> bool:
    text = str(exc)
    return "locked" in text or "busy" in text
