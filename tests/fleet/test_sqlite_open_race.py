"""Several processes opening one new SQLite file at the same moment all succeed.

A fleet of workers starting together races to switch a fresh state or journal file to WAL.
SQLite answers "database is locked" at once (no busy wait) when it sees a possible deadlock,
so before the fix one worker in a few rounds failed to start (seen on a clean CI clone:
``cannot open the SQLite state backend file …: another process holds the write lock``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from webresearch.backends.sqlite_journal import SQLiteJournal
from webresearch.backends.sqlite_open import connect_wal
from webresearch.backends.sqlite_state import SQLiteState

PROCESSES = 8
ROUNDS = 25


async def _ready(journal: SQLiteJournal) -> None:
    """Create and migrate the file as a writer does (opening alone creates nothing)."""
    try:
        await journal.ping()
    finally:
        await journal.aclose()


def _open_at(kind: str, path: str, start_at: float) -> str | None:
    """Wait until the shared start time, open the file; the error text, or None."""
    while time.time() < start_at:
        pass  # spin: a sleep would spread the processes over a scheduler tick
    try:
        if kind == "state":
            SQLiteState(path)
        else:
            asyncio.run(_ready(SQLiteJournal(path)))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.mark.parametrize("kind", ["state", "journal"])
def test_processes_opening_one_new_file_at_once_all_succeed(kind: str, tmp_path: Path) -> None:
    # forkserver, not fork: forking the threaded test process can copy a lock another thread
    # holds, and a worker then waits forever (seen once: 8 workers stuck in Queue.get).
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(PROCESSES, mp_context=context) as pool:
        # Warm the pool so every round starts with PROCESSES live processes.
        list(pool.map(time.sleep, [0.0] * PROCESSES))
        failures: list[str] = []
        for round_no in range(ROUNDS):
            path = str(tmp_path / f"{kind}-{round_no}.sqlite3")
            start_at = time.time() + 0.05
            failures += [
                f"round {round_no}: {error}"
                for error in pool.map(
                    _open_at, [kind] * PROCESSES, [path] * PROCESSES, [start_at] * PROCESSES
                )
                if error is not None
            ]
    assert failures == []


class _StepClock:
    """Monotonic seconds that advance only through the injected sleep."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pauses: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        self.now += seconds


def _hold_exclusive(path: Path) -> sqlite3.Connection:
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE IF NOT EXISTS t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def test_a_file_locked_past_the_deadline_is_an_error_not_a_hang(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"
    holder = _hold_exclusive(path)
    clock = _StepClock()
    started = time.monotonic()
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            connect_wal(path, timeout_s=0.2, clock=clock, sleep=clock.sleep)
    finally:
        holder.close()
    # SQLite's own busy wait is the only real waiting: 0.2 s per attempt, few attempts.
    assert time.monotonic() - started < 5.0
    assert clock.now <= 0.2


def test_retries_back_off_and_succeed_once_the_lock_is_gone(tmp_path: Path) -> None:
    path = tmp_path / "released.sqlite3"
    holder = _hold_exclusive(path)
    clock = _StepClock()

    def sleep_then_release(seconds: float) -> None:
        clock.sleep(seconds)
        if len(clock.pauses) == 3:
            holder.execute("COMMIT")

    release: Callable[[float], None] = sleep_then_release
    try:
        db = connect_wal(path, timeout_s=0.05, clock=clock, sleep=release)
    finally:
        holder.close()
    try:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        db.close()
    assert len(clock.pauses) == 3
    assert clock.pauses[0] < clock.pauses[2]  # the pause grows between attempts
