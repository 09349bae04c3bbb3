"""The SQLite and JSON-lines journals write off the event loop (issue 14): while a write
waits (for another process's lock, for the disk) the loop keeps serving, and the write is
still done, in order, before ``append`` returns; a failed write is still the caller's
``StorageError``."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from pathlib import Path

import pytest

from webresearch.backends.jsonl_journal import JSONLinesJournal
from webresearch.backends.sqlite_journal import SQLiteJournal
from webresearch.errors import StorageError
from webresearch.runtime.journal import JournalEvent

#: Upper bound for anything to happen on a loaded machine (nothing here is timed).
WAIT_S = 30.0


def ev(kind: str, n: int) -> JournalEvent:
    return JournalEvent(kind=kind, run_id="r", tool="t", time=f"2026-01-01T00:00:{n:02d}.000+00:00")


async def loop_turns_while(task: asyncio.Task[None], turns: int = 20) -> int:
    """How many times the loop ran another coroutine while ``task`` was pending."""
    seen = 0
    for _ in range(turns):
        await asyncio.sleep(0.01)
        if task.done():
            break
        seen += 1
    return seen


async def test_a_sqlite_write_waiting_for_a_lock_does_not_hold_the_loop(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = SQLiteJournal(path)
    other = sqlite3.connect(path, isolation_level=None)  # another process's writer
    other.execute("BEGIN IMMEDIATE")  # holds the write lock
    try:
        first = asyncio.create_task(journal.append(ev("tool.started", 1)))
        second = asyncio.create_task(journal.append(ev("tool.completed", 2)))
        assert await loop_turns_while(first) == 20  # the loop ran; the write still waits
        assert not first.done() and not second.done()
    finally:
        other.execute("COMMIT")
        other.close()
    await asyncio.wait_for(asyncio.gather(first, second), WAIT_S)
    assert [e.kind for e in await journal.query()] == ["tool.started", "tool.completed"]
    await journal.aclose()


async def test_a_write_whose_caller_is_cancelled_is_still_written(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = SQLiteJournal(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    write = asyncio.create_task(journal.append(ev("tool.started", 1)))
    await asyncio.sleep(0.05)
    write.cancel()
    with pytest.raises(asyncio.CancelledError):
        await write
    other.execute("COMMIT")
    other.close()
    assert [e.kind for e in await asyncio.wait_for(journal.query(), WAIT_S)] == ["tool.started"]
    await journal.aclose()


async def test_a_failed_sqlite_write_is_the_callers_storage_error(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = SQLiteJournal(path)
    await journal.ping()  # creates the file (opening it no longer does: session 10 review)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("DROP TABLE events")  # the write will fail inside the journal's thread
    other.close()
    with pytest.raises(StorageError, match="journal write failed"):
        await journal.append(ev("tool.started", 1))
    await journal.aclose()
    with pytest.raises(StorageError, match="closed"):
        await journal.append(ev("tool.started", 2))


async def test_a_jsonl_write_waiting_for_the_disk_does_not_hold_the_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = JSONLinesJournal(tmp_path / "j.jsonl")
    disk = threading.Event()  # a slow disk: fsync returns when the test lets it
    real_fsync = os.fsync

    def slow_fsync(fd: int) -> None:
        assert disk.wait(WAIT_S)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", slow_fsync)  # the journal calls os.fsync
    first = asyncio.create_task(journal.append(ev("tool.started", 1)))
    second = asyncio.create_task(journal.append(ev("tool.completed", 2)))
    assert await loop_turns_while(first) == 20
    assert not first.done() and not second.done()
    disk.set()
    await asyncio.wait_for(asyncio.gather(first, second), WAIT_S)
    assert [e.kind for e in await journal.query()] == ["tool.started", "tool.completed"]
    await journal.aclose()
