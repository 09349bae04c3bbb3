"""``webresearch journal``: the --since grammar, the table, and the command on a SQLite journal."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.http_server import LocalServer, Route
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.backends.sqlite_journal import SQLiteJournal
from webresearch.cli.journal import format_table, parse_since
from webresearch.cli.main import cli
from webresearch.runtime.journal import utc_now_iso

NOW = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30s", "2026-11-30T11:59:30.000+00:00"),
        ("10m", "2026-11-30T11:50:00.000+00:00"),
        ("2h", "2026-11-30T10:00:00.000+00:00"),
        ("1d", "2026-11-29T12:00:00.000+00:00"),
        ("1w", "2026-11-23T12:00:00.000+00:00"),
        (" 1.5H ", "2026-11-30T10:30:00.000+00:00"),
        ("2026-11-30T14:05:00Z", "2026-11-30T14:05:00.000+00:00"),
        ("2026-11-30T14:05:00+02:00", "2026-11-30T12:05:00.000+00:00"),
        ("2026-11-30 14:05", "2026-11-30T14:05:00.000+00:00"),  # no zone: UTC
        ("2026-11-30", "2026-11-30T00:00:00.000+00:00"),
    ],
)
def test_since_is_a_utc_time_in_the_journal_format(text: str, expected: str) -> None:
    assert parse_since(text, NOW) == expected


@pytest.mark.parametrize("text", ["", "10", "10x", "-5m", "yesterday", "2026-13-01"])
def test_since_rejects_anything_else_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(ValueError, match="30s, 10m, 2h, 1d, 1w"):
        parse_since(text, NOW)


def test_since_compares_with_event_times_as_text() -> None:
    # Sinks compare ``time >= since`` on the stored strings: same shape, so text order is
    # time order (an event one second after the bound is kept, one before is not).
    bound = parse_since("1s", datetime.now(UTC))
    assert utc_now_iso() >= bound
    assert (datetime.now(UTC) - timedelta(seconds=5)).isoformat(timespec="milliseconds") < bound


def test_table_has_one_aligned_row_per_event() -> None:
    events: list[dict[str, Any]] = [
        {"time": "2026-11-30T01:02:03.456+00:00", "kind": "tool.completed", "tool": "web_fetch",
         "outcome": "ok", "duration_ms": 12.6, "cached": True, "cost": 0.0,
         "run_id": "0123456789abcdef0123"},
        {"time": "2026-11-30T01:02:04.000+00:00", "kind": "tool.failed", "tool": "web_search",
         "outcome": "refused", "error_code": "rate_limited", "duration_ms": 0.4, "cost": 0.005,
         "run_id": "run-2"},
        {"time": "2026-11-30T01:02:05.000+00:00", "kind": "approval.auto_granted",
         "tool": "web_fetch", "run_id": "run-2"},
    ]  # fmt: skip
    lines = format_table(events)
    assert lines[0].split() == ["TIME", "(UTC)", "KIND", "TOOL", "OUTCOME", "DURATION",
                                "CACHED", "COST", "RUN"]  # fmt: skip
    assert lines[1].split() == ["2026-11-30", "01:02:03", "tool.completed", "web_fetch", "ok",
                                "13", "ms", "yes", "0123456789ab"]  # fmt: skip
    assert lines[2].split() == ["2026-11-30", "01:02:04", "tool.failed", "web_search",
                                "refused", "rate_limited", "0", "ms", "0.005", "run-2"]  # fmt: skip
    assert lines[3].split() == ["2026-11-30", "01:02:05", "approval.auto_granted", "web_fetch",
                                "run-2"]  # fmt: skip
    # Aligned: every column starts at the same offset on every line.
    kind_at = lines[0].index("KIND")
    assert all(line[kind_at - 2 : kind_at] == "  " for line in lines)
    assert {line.index("tool.") for line in lines[1:3]} == {kind_at}


# --- the command on a real SQLite journal ---------------------------------------------------


@pytest.fixture
def journal_env(tmp_path: Path) -> dict[str, str]:
    return {
        "WEBRESEARCH_JOURNAL_URL": f"sqlite:///{tmp_path / 'journal.sqlite3'}",
        "WEBRESEARCH_ALLOWED_NETWORKS": "127.0.0.0/8",
    }


def run_cli(env: dict[str, str], *args: str) -> Any:
    return CliRunner().invoke(cli, ["journal", *args], env=env, catch_exceptions=False)


def test_empty_journal_says_so(journal_env: dict[str, str]) -> None:
    journal = SQLiteJournal(journal_env["WEBRESEARCH_JOURNAL_URL"].removeprefix("sqlite:///"))

    async def create() -> None:  # the file, with no events (reading creates none)
        await journal.ping()
        await journal.aclose()

    asyncio.run(create())
    result = run_cli(journal_env)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "the journal has no events yet" in result.stderr
    assert "journal.sqlite3" in result.stderr


async def make_events(settings: Settings) -> tuple[ToolResult, ToolResult]:
    with LocalServer() as srv:
        srv.routes["/page"] = Route(headers=[("Content-Type", "text/plain")], body=b"hello")
        async with Toolkit(settings) as toolkit:
            ok = await toolkit.call(
                "web_fetch", {"url": f"{srv.base}/page"}, run=RunContext(run_id="run-ok")
            )
            blocked = await toolkit.call(
                "web_fetch", {"url": "http://10.9.8.7/"}, run=RunContext(run_id="run-blocked")
            )
    return ok, blocked


def test_lists_and_filters_events_of_real_calls(journal_env: dict[str, str]) -> None:
    # The command runs its own event loop, so this test is synchronous.
    ok, blocked = asyncio.run(make_events(Settings.load(environ=journal_env)))
    assert ok.ok and blocked.error is not None

    table = run_cli(journal_env, "--events")
    assert table.exit_code == 0
    lines = table.stdout.splitlines()
    assert lines[0].startswith("TIME (UTC)")
    kinds = [line.split()[2] for line in lines[1:]]
    assert kinds.count("tool.started") == 2
    assert "tool.completed" in kinds and "tool.failed" in kinds
    failed = next(line for line in lines if "tool.failed" in line)
    assert "refused blocked_address" in failed and "run-blocked" in failed

    as_json = run_cli(journal_env, "--kind", "tool.failed", "--json")
    events = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert [(e["run_id"], e["error_code"], e["outcome"]) for e in events] == [
        ("run-blocked", "blocked_address", "refused")
    ]

    by_run = run_cli(journal_env, "--events", "--run", "run-ok", "--json")
    assert {json.loads(line)["run_id"] for line in by_run.stdout.splitlines()} == {"run-ok"}

    last = run_cli(journal_env, "--events", "--limit", "1", "--json")
    assert [json.loads(line)["kind"] for line in last.stdout.splitlines()] == ["tool.failed"]

    assert (
        run_cli(
            journal_env, "--events", "--tool", "web_fetch", "--since", "1h", "--json"
        ).stdout.count("\n")
        >= 6
    )
    future = run_cli(journal_env, "--since", "2999-01-01")
    assert future.exit_code == 0 and future.stdout == ""
    assert "no events match these filters" in future.stderr


def test_bad_since_is_a_usage_error(journal_env: dict[str, str]) -> None:
    result = CliRunner().invoke(cli, ["journal", "--since", "soon"], env=journal_env)
    assert result.exit_code == 2
    assert "--since" in result.stderr


async def blocked_calls(settings: Settings, run_ids: list[str]) -> None:
    async with Toolkit(settings) as toolkit:
        for run_id in run_ids:
            await toolkit.call(
                "web_fetch", {"url": "http://10.1.1.1/"}, run=RunContext(run_id=run_id)
            )


def test_run_accepts_the_prefix_the_table_shows(journal_env: dict[str, str]) -> None:
    runs = ["0123456789abcdef-first", "0123456789abXYZ-second", "fedcba9876543210-third"]
    asyncio.run(blocked_calls(Settings.load(environ=journal_env), runs))
    table = run_cli(journal_env, "--kind", "tool.failed").stdout.splitlines()
    shown = [line.split()[-1] for line in table[1:]]
    assert shown == ["0123456789ab", "0123456789ab", "fedcba987654"]

    unique = run_cli(journal_env, "--events", "--run", "fedcba987654", "--json")
    assert {json.loads(line)["run_id"] for line in unique.stdout.splitlines()} == {runs[2]}
    exact = run_cli(journal_env, "--events", "--run", runs[0], "--json")
    assert {json.loads(line)["run_id"] for line in exact.stdout.splitlines()} == {runs[0]}

    ambiguous = CliRunner().invoke(cli, ["journal", "--run", "0123456789ab"], env=journal_env)
    assert ambiguous.exit_code == 2
    assert "matches several runs" in ambiguous.stderr
    unknown = run_cli(journal_env, "--run", "nope")
    assert unknown.exit_code == 0 and "no events match" in unknown.stderr
