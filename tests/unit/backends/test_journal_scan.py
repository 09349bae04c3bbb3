"""The file sinks' ``scan``: what ``query`` returns, given one event at a time without
holding them (``journal stats`` on a big journal held up to 2,000,000 events at once), and
the SQLite journal's index on (kind, time), which ``journal --kind`` uses (added by
migration 2 to an existing file)."""

from __future__ import annotations

import sqlite3
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from webresearch.backends.jsonl_journal import JSONLinesJournal, encode_line
from webresearch.backends.sqlite_journal import SCHEMA_VERSION, SQLiteJournal
from webresearch.runtime.journal import JournalEvent

FileSink = SQLiteJournal | JSONLinesJournal


def _event(i: int) -> JournalEvent:
    kind = ("tool.started", "tool.completed", "tool.failed")[i % 3]
    return JournalEvent(
        kind=kind,
        run_id=f"r{i % 2}",
        tool=("web_fetch", "web_search")[i % 4 // 2],
        outcome=None if kind == "tool.started" else "ok",
        output="x" * 300,
        time=f"2026-12-01T00:{i // 600 % 60:02d}:{i // 10 % 60:02d}.{i % 1000:03d}+00:00",
    )


@pytest.fixture(params=["sqlite", "jsonl"])
async def sink(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[FileSink]:
    journal: FileSink
    if request.param == "sqlite":
        journal = SQLiteJournal(tmp_path / "j.sqlite3")
    else:
        journal = JSONLinesJournal(tmp_path / "j.jsonl")
    yield journal
    await journal.aclose()


async def _fill(sink: FileSink, n: int) -> None:
    """``n`` events, written in bulk (one transaction, one file write), plus a bad record."""
    events = [_event(i) for i in range(n)]
    if isinstance(sink, SQLiteJournal):
        await sink.append(events[0])
        db = sqlite3.connect(sink.path)
        with db:
            for event in events[1:]:
                row = event.to_dict()
                row["details"] = "{}"
                db.execute(
                    f"INSERT INTO events ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                    list(row.values()),
                )
            db.execute(  # a row something else wrote: details that are not JSON
                "INSERT INTO events (event_id, time, kind, run_id, details) "
                "VALUES ('bad', '2026-12-01T00:00:00.500+00:00', 'tool.completed', 'r0', '{')"
            )
        db.close()
    else:
        lines = [encode_line(e.to_dict()) for e in events]
        lines.insert(10, b"not json\n")
        sink.path.write_bytes(b"".join(lines))


@pytest.mark.parametrize(
    "filters",
    [
        {},
        {"limit": 25},
        {"kind": "tool.failed"},
        {"run_id": "r1", "tool": "web_search"},
        {"since": "2026-12-01T00:00:03.000+00:00", "limit": 40},
    ],
)
async def test_scan_gives_what_query_returns_and_counts_the_same(
    sink: FileSink, filters: dict[str, str | int]
) -> None:
    await _fill(sink, 300)
    queried = await sink.query(**filters)  # type: ignore[arg-type]
    asked = (sink.skipped_reasons, sink.read_all)
    seen: list[JournalEvent] = []
    await sink.scan(seen.append, **filters)  # type: ignore[arg-type]
    assert queried
    assert sorted(seen, key=lambda e: e.event_id) == sorted(queried, key=lambda e: e.event_id)
    assert (sink.skipped_reasons, sink.read_all) == asked
    assert sum(asked[0].values()) == sink.skipped_lines


async def test_scan_holds_no_events(sink: FileSink) -> None:
    await _fill(sink, 20_000)
    count = 0

    def visit(event: JournalEvent) -> None:
        nonlocal count
        count += 1

    await sink.scan(visit, limit=10)  # the connection and the code paths warmed up
    tracemalloc.start()
    try:
        await sink.scan(visit, limit=2_000_000)
        _, scanned = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        await sink.query(limit=2_000_000)
        _, queried = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 10 + 20_000
    assert scanned < 3_000_000, scanned  # 20,000 events of ~0.5 KiB: ~25 MB when held
    assert queried > 5 * scanned, (queried, scanned)


async def test_an_existing_sqlite_journal_gets_the_kind_index(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    old = sqlite3.connect(path)  # a file as the first schema made it (user_version 1)
    with old:
        old.execute("PRAGMA journal_mode=WAL")
        old.execute(
            "CREATE TABLE events (event_id TEXT PRIMARY KEY, time TEXT NOT NULL, kind TEXT "
            "NOT NULL, run_id TEXT NOT NULL, tool TEXT, operation_id TEXT, args_hash TEXT, "
            "duration_ms REAL, outcome TEXT, error_code TEXT, cached INTEGER NOT NULL DEFAULT "
            "0, cost REAL NOT NULL DEFAULT 0, output TEXT, details TEXT NOT NULL DEFAULT '{}')"
        )
        old.execute("CREATE INDEX events_time ON events (time)")
        old.execute(
            "CREATE TABLE operations (operation_id TEXT PRIMARY KEY, time TEXT, result TEXT)"
        )
        old.execute(
            "INSERT INTO events (event_id, time, kind, run_id) "
            "VALUES ('e1', '2026-12-01T00:00:00.000+00:00', 'tool.failed', 'r')"
        )
        old.execute("PRAGMA user_version=1")
    old.close()
    journal = SQLiteJournal(path)
    try:
        assert [e.event_id for e in await journal.query(kind="tool.failed")] == ["e1"]
    finally:
        await journal.aclose()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
    plan = db.execute(
        "EXPLAIN QUERY PLAN SELECT event_id FROM events WHERE kind = ? "
        "ORDER BY time DESC, rowid DESC LIMIT 50",
        ("tool.failed",),
    ).fetchall()
    db.close()
    details = " ".join(str(row[-1]) for row in plan)
    assert "USING INDEX events_kind" in details, details
    assert "TEMP B-TREE" not in details, details  # no sort: the index gives the order
