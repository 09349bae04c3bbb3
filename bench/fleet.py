"""Fleet backends in one run: limiter decisions and journal writes, in-process vs shared.

Starts its own ``redis-server`` and PostgreSQL on 127.0.0.1 (temporary directories, free
ports; the same helpers as the tests), then measures:

* limiter decisions per second and latency (p50/p99) for in-process, SQLite and Redis,
  with the real rule (30 per 60 s, one key: most decisions are refusals, as under load),
  one call at a time and with 32 calls in flight;
* journal events per second and append latency for SQLite and PostgreSQL.

Ratios are against in-process (limits) and SQLite (journal).

    python bench/fleet.py --decisions 5000 --events 3000
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.support.fleet_servers import PostgresServer, RedisServer  # noqa: E402

from webresearch.backends.postgres_journal import PostgresJournal  # noqa: E402
from webresearch.backends.redis_state import RedisState  # noqa: E402
from webresearch.backends.sqlite_journal import SQLiteJournal  # noqa: E402
from webresearch.backends.sqlite_state import SQLiteState  # noqa: E402
from webresearch.backends.state import MemoryState, StateBackend  # noqa: E402
from webresearch.runtime.journal import Journal, JournalEvent  # noqa: E402
from webresearch.runtime.limits import LimitRule  # noqa: E402

RULE = LimitRule(30, 60.0)
IN_FLIGHT = 32


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def sequential(n: int, op: Callable[[int], Awaitable[object]]) -> tuple[float, float, float]:
    """(operations per second, p50 ms, p99 ms), one operation at a time."""
    for i in range(min(200, n)):  # warm-up: connections, scripts, page cache
        await op(-1 - i)
    latencies = []
    started = time.perf_counter()
    for i in range(n):
        t = time.perf_counter()
        await op(i)
        latencies.append((time.perf_counter() - t) * 1000)
    total = time.perf_counter() - started
    return n / total, pct(latencies, 50), pct(latencies, 99)


async def concurrent(n: int, op: Callable[[int], Awaitable[object]]) -> float:
    """Operations per second with ``IN_FLIGHT`` operations outstanding."""
    queue = iter(range(n))

    async def lane() -> None:
        for i in queue:
            await op(i)

    started = time.perf_counter()
    await asyncio.gather(*(lane() for _ in range(IN_FLIGHT)))
    return n / (time.perf_counter() - started)


async def limiter_rows(
    n: int, redis_url: str, tmp: Path
) -> list[tuple[str, float, float, float, float]]:
    backends: list[tuple[str, StateBackend]] = [
        ("in-process", MemoryState()),
        ("SQLite (WAL, BEGIN IMMEDIATE)", SQLiteState(tmp / "state.sqlite3")),
        ("Redis (Lua sliding window)", RedisState(redis_url, prefix="bench:")),
    ]
    rows = []
    for name, backend in backends:
        acquire = backend.limiter.acquire

        async def decision(i: int, acquire: Any = acquire) -> object:
            return await acquire("web_search", RULE)

        per_s, p50, p99 = await sequential(n, decision)
        conc = await concurrent(n, decision)
        rows.append((name, per_s, p50, p99, conc))
        await backend.aclose()
    return rows


def _event(i: int) -> JournalEvent:
    return JournalEvent(
        kind="tool.completed",
        run_id=f"run-{i % 50}",
        tool="web_fetch",
        operation_id=f"op-{i}",
        args_hash="ab" * 32,
        duration_ms=12.5,
        outcome="ok",
        output="x" * 600,
        details={"arguments": {"url": f"https://example.com/{i}"}},
    )


async def journal_rows(
    n: int, pg_url: str, tmp: Path
) -> list[tuple[str, float, float, float, float]]:
    sinks: list[tuple[str, Journal]] = [
        ("SQLite", SQLiteJournal(tmp / "journal.sqlite3")),
        ("PostgreSQL (psycopg 3)", PostgresJournal(pg_url)),
    ]
    rows = []
    for name, sink in sinks:

        async def append(i: int, sink: Journal = sink) -> None:
            await sink.append(_event(i))

        per_s, p50, p99 = await sequential(n, append)
        conc = await concurrent(n, append)
        rows.append((name, per_s, p50, p99, conc))
        await sink.aclose()
    return rows


def table(title: str, unit: str, rows: list[tuple[str, float, float, float, float]]) -> None:
    base = rows[0][1]
    print(f"\n{title}")
    head = f"{'backend':32} {unit + '/s':>12} {'ratio':>7} {'p50 ms':>8} {'p99 ms':>8} {f'{unit}/s ({IN_FLIGHT} in flight)':>26}"
    print(head)
    print("-" * len(head))
    for name, per_s, p50, p99, conc in rows:
        print(f"{name:32} {per_s:12,.0f} {per_s / base:7.2f} {p50:8.3f} {p99:8.3f} {conc:26,.0f}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=5000, help="limiter decisions per case")
    parser.add_argument("--events", type=int, default=3000, help="journal events per case")
    args = parser.parse_args()
    redis, postgres = RedisServer(), PostgresServer()
    try:
        redis.start()
        postgres.start()
        with tempfile.TemporaryDirectory() as tmp:
            limits = await limiter_rows(args.decisions, redis.url, Path(tmp))
            journals = await journal_rows(args.events, postgres.url, Path(tmp))
    finally:
        redis.close()
        postgres.close()
    table("Limiter: decisions (rule 30 per 60 s, one key)", "decisions", limits)
    table("Journal: events appended (committed before returning)", "events", journals)


if __name__ == "__main__":
    asyncio.run(main())
