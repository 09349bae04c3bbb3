"""Journal sinks: the same assertions against in-process, SQLite, JSON lines and PostgreSQL.

Filters, order, limits, field round trips and replay records (SPEC §3 "Journal").
"""

from __future__ import annotations

import pytest

from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.journal import Journal, JournalEvent
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject, ToolResult

from .conftest import open_sink


def _t(second: int) -> str:
    return f"2026-03-01T10:00:{second:02d}.{second * 7 % 1000:03d}+00:00"


def _events() -> list[JournalEvent]:
    """Ten events over two runs and three tools, in time order."""
    out = []
    for i in range(10):
        out.append(
            JournalEvent(
                kind=("tool.started", "tool.completed", "approval.auto_granted")[i % 3],
                run_id=("run-a", "run-b")[i % 2],
                tool=("web_fetch", "web_search", None)[i % 3],
                operation_id=f"op-{i // 2}",
                args_hash="ab" * 32,
                duration_ms=None if i % 3 else 12.5 + i,
                outcome="ok" if i % 3 == 1 else None,
                error_code=None,
                cached=i % 4 == 0,
                cost=0.005 * i,
                output=f"résultat {i} — 結果",
                details={"arguments": {"url": f"https://example.com/{i}"}, "n": i, "ok": True},
                time=_t(i),
            )
        )
    return out


async def test_events_round_trip_every_field_in_order(journal: Journal) -> None:
    events = _events()
    for event in events:
        await journal.append(event)
    assert await journal.query() == events


async def test_filters_combine(journal: Journal) -> None:
    events = _events()
    for event in events:
        await journal.append(event)

    def expect(**f: str) -> list[JournalEvent]:
        return [
            e
            for e in events
            if all(
                (getattr(e, k) >= v if k == "time" else getattr(e, k) == v)
                for k, v in {("time" if k == "since" else k): v for k, v in f.items()}.items()
            )
        ]

    assert await journal.query(run_id="run-a") == expect(run_id="run-a")
    assert await journal.query(tool="web_search") == expect(tool="web_search")
    assert await journal.query(kind="tool.completed") == expect(kind="tool.completed")
    assert await journal.query(since=_t(6)) == expect(since=_t(6))  # inclusive
    assert await journal.query(run_id="run-b", tool="web_fetch") == expect(
        run_id="run-b", tool="web_fetch"
    )
    assert await journal.query(run_id="nobody") == []


async def test_limit_keeps_the_latest_oldest_first(journal: Journal) -> None:
    events = _events()
    for event in events:
        await journal.append(event)
    assert await journal.query(limit=3) == events[-3:]
    assert (
        await journal.query(run_id="run-a", limit=2)
        == [e for e in events if e.run_id == "run-a"][-2:]
    )


async def test_events_with_the_same_time_keep_insertion_order(journal: Journal) -> None:
    same = [JournalEvent(kind=f"k{i}", run_id="r", time=_t(1)) for i in range(5)]
    for event in same:
        await journal.append(event)
    assert [e.kind for e in await journal.query()] == [f"k{i}" for i in range(5)]
    assert [e.kind for e in await journal.query(limit=2)] == ["k3", "k4"]


async def test_recorded_results_are_kept_and_replaced(journal: Journal) -> None:
    assert await journal.recorded_result("op") is None
    first = {"ok": True, "text": "one — 一", "images": [], "meta": {"cached": False}, "error": None}
    await journal.record_result("op", first)
    assert await journal.recorded_result("op") == first
    second = {**first, "text": "two"}
    await journal.record_result("op", second)
    assert await journal.recorded_result("op") == second
    assert await journal.recorded_result("other") is None


def _probe(services: Services) -> ToolEntry[JSONObject]:
    calls: list[str] = []

    async def run(arguments: JSONObject, ctx: CallContext) -> ToolResult:
        calls.append(ctx.operation_id)
        return ToolResult(f"results for {arguments['query']}", meta={"calls": len(calls)})

    return ToolEntry(spec=WEB_SEARCH, run=run)


async def test_replaying_an_operation_in_another_process_writes_nothing(journal_url: str) -> None:
    """Two Toolkits (two workers) on one journal: the second replays the first's result."""
    settings = Settings.load(environ={}, journal_url="memory://")
    shared = open_sink(journal_url)
    # The in-memory sink is shared by passing the same object; the others are reopened.
    other = shared if journal_url == "memory://" else open_sink(journal_url)
    first = Toolkit(settings, journal=shared, builders=[_probe])
    second = Toolkit(settings, journal=other, builders=[_probe])
    try:
        run = RunContext(run_id="run-replay")
        done = await first.call("web_search", {"query": "q"}, run=run, operation_id="op-1")
        assert done.ok
        before = await other.query(run_id="run-replay")
        assert [e.kind for e in before] == [
            "tool.started",
            "approval.auto_granted",
            "tool.completed",
        ]
        again = await second.call("web_search", {"query": "q"}, run=run, operation_id="op-1")
        assert again.text == done.text
        assert again.meta["replayed"] is True
        assert again.meta["calls"] == 1  # the tool did not run again
        assert await shared.query(run_id="run-replay") == before
    finally:
        await first.aclose()
        if other is not shared:
            await second.aclose()


@pytest.mark.parametrize("journal_url", ["postgres"], indirect=True)
async def test_postgres_migrations_are_tracked_and_idempotent(journal_url: str) -> None:
    import psycopg

    from webresearch.backends.postgres_journal import SCHEMA_VERSION, PostgresJournal

    sinks = [PostgresJournal(journal_url) for _ in range(4)]
    try:
        # Four workers starting together migrate once (advisory lock), then all work.
        import asyncio

        versions = await asyncio.gather(*(s.schema_version() for s in sinks))
        assert versions == [SCHEMA_VERSION] * 4
    finally:
        for sink in sinks:
            await sink.aclose()
    async with await psycopg.AsyncConnection.connect(journal_url) as conn:
        cur = await conn.execute("SELECT version FROM webresearch.schema_migrations")
        assert [r[0] for r in await cur.fetchall()] == list(range(1, SCHEMA_VERSION + 1))
        cur = await conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = 'webresearch' "
            "AND tablename = 'events'"
        )
        defs = " ".join(r[0] for r in await cur.fetchall())
        for columns in ('(run_id, "time", seq)', '(tool, "time", seq)', '(kind, "time", seq)'):
            assert columns in defs


#: The newest-first query each sink runs for ``journal --limit N`` (and its filters).
_NEWEST_FIRST = {
    "sqlite": "SELECT * FROM events {where} ORDER BY time DESC, rowid DESC LIMIT 50",
    "postgres": "SELECT * FROM webresearch.events {where} ORDER BY time DESC, seq DESC LIMIT 50",
}
_FILTERS = ("", "WHERE run_id = 'r7'", "WHERE tool = 't3'", "WHERE time >= '2026-01-02'")


@pytest.mark.parametrize("journal_url", ["sqlite", "postgres"], indirect=True)
async def test_the_newest_events_come_from_an_index_not_a_sort(
    journal: Journal, journal_url: str
) -> None:
    # ``journal --limit 3`` on a big journal must not read (or sort) every row: each filter
    # has an index ending in time that the newest-first LIMIT walks backwards.
    await journal.ping()  # migrated
    rows = (
        "SELECT 'e' || i, '2026-01-01T00:00:00.000+00:00', 'tool.completed', 'r' || (i % 50),"
        " 't' || (i % 7), '{}' FROM generate_series(1, 20000) AS i"
    )
    if journal_url.startswith("postgres"):
        import psycopg

        async with await psycopg.AsyncConnection.connect(journal_url, autocommit=True) as conn:
            await conn.execute(
                "INSERT INTO webresearch.events (event_id, time, kind, run_id, tool, details) "
                + rows.replace(
                    "'2026-01-01T00:00:00.000+00:00'", "now() - i * interval '1 s'"
                ).replace("'{}'", "'{}'::jsonb")
            )
            await conn.execute("ANALYZE webresearch.events")
            for where in _FILTERS:
                cur = await conn.execute("EXPLAIN " + _NEWEST_FIRST["postgres"].format(where=where))
                plan = "\n".join(r[0] for r in await cur.fetchall())
                assert "Index Scan Backward" in plan and "Sort" not in plan, (where, plan)
        return
    import sqlite3

    db = sqlite3.connect(journal_url.removeprefix("sqlite:///"))
    try:
        with db:
            db.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
                "INSERT INTO events (event_id, time, kind, run_id, tool, details) "
                + rows.replace("generate_series(1, 20000) AS i", "n")
            )
        db.execute("ANALYZE")
        for where in _FILTERS:
            steps = db.execute(
                "EXPLAIN QUERY PLAN " + _NEWEST_FIRST["sqlite"].format(where=where)
            ).fetchall()
            text = " ".join(str(row[-1]) for row in steps)
            assert "USING INDEX" in text and "TEMP B-TREE" not in text, (where, text)
    finally:
        db.close()
