"""Every journal sink has the same semantics (memory, SQLite, JSON lines)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from webresearch.backends.jsonl_journal import JSONLinesJournal
from webresearch.backends.sqlite_journal import SCHEMA_VERSION, SQLiteJournal
from webresearch.errors import StorageError
from webresearch.runtime.journal import (
    Journal,
    JournalEvent,
    MemoryJournal,
    arguments_hash,
    canonical_json,
    truncate_utf8,
)


@pytest.fixture(params=["memory", "sqlite", "jsonl"])
async def journal(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Journal]:
    sink: Journal
    if request.param == "memory":
        sink = MemoryJournal()
    elif request.param == "sqlite":
        sink = SQLiteJournal(tmp_path / "j.sqlite3")
    else:
        sink = JSONLinesJournal(tmp_path / "j.jsonl")
    yield sink
    await sink.aclose()


def ev(kind: str, run: str, tool: str | None, t: str, **kw: object) -> JournalEvent:
    return JournalEvent(kind=kind, run_id=run, tool=tool, time=t, **kw)  # type: ignore[arg-type]


async def test_filters_order_and_limit(journal: Journal) -> None:
    events = [
        ev("tool.started", "r1", "web_fetch", "2026-01-01T00:00:01.000+00:00"),
        ev(
            "tool.completed",
            "r1",
            "web_fetch",
            "2026-01-01T00:00:02.000+00:00",
            outcome="ok",
            duration_ms=3.5,
            cached=True,
            cost=0.25,
            details={"k": ["v", 1]},
        ),
        ev("tool.started", "r2", "web_search", "2026-01-01T00:00:03.000+00:00"),
        ev(
            "tool.failed",
            "r2",
            "web_search",
            "2026-01-01T00:00:04.000+00:00",
            outcome="refused",
            error_code="rate_limited",
        ),
    ]
    for e in events:
        await journal.append(e)
    assert [e.event_id for e in await journal.query()] == [e.event_id for e in events]
    assert [e.kind for e in await journal.query(run_id="r2")] == ["tool.started", "tool.failed"]
    assert [e.run_id for e in await journal.query(tool="web_fetch")] == ["r1", "r1"]
    assert [e.kind for e in await journal.query(kind="tool.failed")] == ["tool.failed"]
    assert len(await journal.query(since="2026-01-01T00:00:02.000+00:00")) == 3
    assert [e.event_id for e in await journal.query(limit=2)] == [
        events[2].event_id,
        events[3].event_id,
    ]
    done = (await journal.query(kind="tool.completed"))[0]
    assert done == events[1]  # every field round-trips


async def test_recorded_results_for_replay(journal: Journal) -> None:
    assert await journal.recorded_result("op") is None
    await journal.record_result("op", {"text": "hello", "meta": {"a": 1}, "error": None})
    assert await journal.recorded_result("op") == {"text": "hello", "meta": {"a": 1}, "error": None}


async def test_sqlite_schema_is_migrated_and_versioned(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    first = SQLiteJournal(path)
    await first.ping()  # a writer's check creates and migrates the file (opening does not)
    await first.aclose()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StorageError, match="newer"):
        SQLiteJournal(path)


async def test_sqlite_is_shared_by_two_connections(tmp_path: Path) -> None:
    a, b = SQLiteJournal(tmp_path / "j.sqlite3"), SQLiteJournal(tmp_path / "j.sqlite3")
    await a.append(ev("tool.started", "r", "t", "2026-01-01T00:00:00.000+00:00"))
    assert len(await b.query()) == 1


def test_canonical_hash_ignores_key_order() -> None:
    assert canonical_json({"b": 1, "a": "é"}) == '{"a":"é","b":1}'
    assert arguments_hash({"b": 1, "a": 2}) == arguments_hash({"a": 2, "b": 1})
    assert arguments_hash({"a": 1}) != arguments_hash({"a": 2})


def test_truncate_utf8_keeps_characters_whole() -> None:
    text = "😀" * 2000
    cut = truncate_utf8(text, 4096)
    assert len(cut.encode()) <= 4096 and cut.endswith("…")
    assert truncate_utf8("short") == "short"


@pytest.mark.parametrize("kind", ["sqlite", "jsonl"])
async def test_journal_files_are_private_to_their_owner(tmp_path: Path, kind: str) -> None:
    import os
    import stat

    path = tmp_path / "new-dir" / f"journal.{kind}"
    sink: Journal = SQLiteJournal(path) if kind == "sqlite" else JSONLinesJournal(path)
    await sink.ping()  # a writer's check creates the file (opening does not)
    await sink.aclose()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
