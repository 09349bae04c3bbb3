"""``webresearch journal stats`` streams the journal: it held every event it read (up to
2,000,000) and their dicts before summing them up — 38 MB of Python objects for a JSON-lines
journal of 20,000 events; now it keeps counters only (the sinks' ``scan``)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from webresearch.backends.jsonl_journal import JSONLinesJournal, encode_line
from webresearch.backends.sqlite_journal import SQLiteJournal
from webresearch.cli.main import cli
from webresearch.runtime.journal import JournalEvent

EVENTS = 20_000


def _journal(path: Path, n: int) -> None:
    """``n`` events, every other one closing a call that paid a reader."""
    with path.open("wb") as fh:
        for i in range(n):
            closing = i % 2 == 1
            event = JournalEvent(
                kind="tool.completed" if closing else "tool.started",
                run_id=f"run{i % 7}",
                tool="web_fetch",
                operation_id=f"op{i // 2}",
                outcome="ok" if closing else None,
                cost=0.001 if closing else 0.0,
                output="x" * 300,
                details={"costs": {"jina": 0.001}} if closing else {"url": f"https://a.test/{i}"},
                time=f"2026-12-01T00:{i // 600 % 60:02d}:{i // 10 % 60:02d}.{i % 1000:03d}+00:00",
            )
            fh.write(encode_line(event.to_dict()))


@pytest.mark.parametrize("store", ["jsonl", "sqlite"])
def test_stats_of_a_big_journal_hold_no_events(tmp_path: Path, store: str) -> None:
    source = tmp_path / "j.jsonl"
    _journal(source, EVENTS)
    if store == "sqlite":  # the same events in a SQLite journal, through the sink itself

        async def copy() -> None:
            reader, writer = JSONLinesJournal(source), SQLiteJournal(tmp_path / "j.db")
            try:
                await writer.ping()
                events = [e.to_dict() for e in await reader.query()]
                await asyncio.to_thread(_bulk_insert, writer.path, events)
            finally:
                await reader.aclose()
                await writer.aclose()

        asyncio.run(copy())
    url = f"jsonl://{source}" if store == "jsonl" else f"sqlite:///{tmp_path / 'j.db'}"
    runner = CliRunner()
    warm = runner.invoke(cli, ["journal", "stats"], env={"WEBRESEARCH_JOURNAL_URL": "memory://"})
    assert warm.exit_code == 0, warm.output  # the modules are loaded before measuring
    tracemalloc.start()
    try:
        result = runner.invoke(
            cli, ["journal", "stats", "--json"], env={"WEBRESEARCH_JOURNAL_URL": url}
        )
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert (stats["calls"], stats["spend"]) == (EVENTS // 2, {"jina": 10.0})
    assert peak < 8_000_000, f"{peak / 1e6:.1f} MB traced"  # before: 38 MB (jsonl)


def _bulk_insert(path: Path, events: list[dict[str, object]]) -> None:
    db = sqlite3.connect(path)
    with db:
        for row in events:
            row = {**row, "details": json.dumps(row["details"]), "cached": int(bool(row["cached"]))}
            db.execute(
                f"INSERT INTO events ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                list(row.values()),
            )
    db.close()
