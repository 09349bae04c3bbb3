"""``webresearch journal`` (one row per call, filters, JSON lines) and ``journal stats`` on a
journal written by real calls of this test."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.api_server import ApiServer
from tests.support.http_server import LocalServer, Route
from tests.support.search_stubs import BRAVE, PLANTED_KEYS, fixture_json
from webresearch import RunContext, Settings, Toolkit
from webresearch.cli.journal_view import calls_of, format_calls, journal_stats, target_of
from webresearch.cli.main import cli

PRICE = 0.005


@pytest.fixture
def written(tmp_path: Path) -> Iterator[tuple[dict[str, str], str]]:
    """A SQLite journal with: a fetch, the same fetch from the cache, a refused fetch, a
    404 and a paid Brave search (two runs)."""
    env = {"WEBRESEARCH_JOURNAL_URL": f"sqlite:///{tmp_path / 'j.sqlite3'}"}
    with LocalServer() as site, ApiServer() as api:
        site.routes["/page"] = Route(headers=[("Content-Type", "text/plain")], body=b"hello")
        BRAVE.route(api, fixture_json("brave"))
        settings = Settings.load(
            environ=env,
            allowed_networks=["127.0.0.0/8"],
            search_provider="brave",
            brave_base_url=api.base,
            brave_api_key=PLANTED_KEYS["brave"],
            prices={"brave": PRICE},
        )

        async def calls() -> None:
            async with Toolkit(settings) as toolkit:
                one, two = RunContext(run_id="run-one"), RunContext(run_id="run-two")
                for url in (f"{site.base}/page", f"{site.base}/page", "http://10.9.8.7/x"):
                    await toolkit.call("web_fetch", {"url": url}, run=one)
                await toolkit.call("web_fetch", {"url": f"{site.base}/gone"}, run=two)
                found = await toolkit.call("web_search", {"query": "rust release"}, run=two)
                assert found.ok, found.error

        asyncio.run(calls())
        yield env, site.base


def run(env: dict[str, str], *args: str) -> Any:
    return CliRunner().invoke(cli, ["journal", *args], env=env, catch_exceptions=False)


def test_one_row_per_call_with_target_outcome_and_cost(
    written: tuple[dict[str, str], str],
) -> None:
    env, base = written
    result = run(env)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["TIME", "(UTC)", "TOOL", "TARGET", "OUTCOME", "MS", "COST", "RUN"]
    rows = lines[1:]
    assert len(rows) == 5  # five calls, not fifteen events
    assert f"{base}/page" in rows[0] and " ok " in rows[0] and "run-one" in rows[0]
    assert "ok (cached)" in rows[1]
    assert "refused blocked_address" in rows[2] and "http://10.9.8.7/x" in rows[2]
    assert "error http_status" in rows[3]
    assert "web_search" in rows[4] and "rust release" in rows[4] and f"{PRICE:g}" in rows[4]
    assert all("auto_granted" not in row for row in rows)


def test_filters_and_json_lines(written: tuple[dict[str, str], str]) -> None:
    env, base = written
    failed = [json.loads(x) for x in run(env, "--failed", "--json").stdout.splitlines()]
    assert [(c["target"], c["outcome"], c["error_code"]) for c in failed] == [
        ("http://10.9.8.7/x", "refused", "blocked_address"),
        (f"{base}/gone", "error", "http_status"),
    ]
    assert {"time", "tool", "duration_ms", "cost", "operation_id", "run_id"} <= set(failed[0])
    searches = [
        json.loads(x) for x in run(env, "--tool", "web_search", "--json").stdout.splitlines()
    ]
    assert [(c["target"], c["cost"], c["costs"]) for c in searches] == [
        ("rust release", PRICE, {"brave": PRICE})
    ]
    by_run = run(env, "--run", "run-two", "--json").stdout.splitlines()
    assert len(by_run) == 2
    assert run(env, "--since", "1h", "--limit", "2").stdout.count("\n") == 3  # header + 2
    none = run(env, "--since", "2999-01-01")
    assert none.stdout == "" and "no events match" in none.stderr
    raw = run(env, "--events", "--json").stdout.splitlines()
    kinds = [json.loads(x)["kind"] for x in raw]
    assert kinds.count("tool.started") == 5 and "approval.auto_granted" in kinds


def test_stats(written: tuple[dict[str, str], str]) -> None:
    env, _base = written
    data = json.loads(run(env, "stats", "--json").stdout)
    assert data["calls"] == 5 and data["failed"] == 2
    assert data["errors"] == {"blocked_address": 1, "http_status": 1}
    assert data["by_tool"] == {"web_fetch": 4, "web_search": 1}
    assert data["cached"] == 1 and data["cache_hit_rate"] == pytest.approx(0.2)
    assert data["spend"] == {"brave": PRICE} and data["cost"] == PRICE
    text = run(env, "stats").stdout
    assert "calls       5 (2 failed)" in text and "cache hits  1 (20%)" in text
    assert "blocked_address" in text and "brave" in text
    assert PLANTED_KEYS["brave"] not in text
    only_one = json.loads(run(env, "stats", "--run", "run-one", "--json").stdout)
    assert only_one["calls"] == 3 and only_one["spend"] == {}


def test_pure_parts() -> None:
    assert target_of({"action": "click", "ref": "e12"}) == "click e12"
    assert target_of({"action": "open", "url": "https://a.example/"}) == "open https://a.example/"
    assert target_of({"path": "shots/a.png"}) == "shots/a.png"
    events: list[dict[str, Any]] = [
        {"kind": "tool.started", "operation_id": "op1", "tool": "web_fetch", "run_id": "r",
         "time": "2026-11-30T01:00:00.000+00:00", "details": {"arguments": {"url": "u"}}},
        {"kind": "tool.completed", "operation_id": "op2", "tool": "web_fetch", "run_id": "r",
         "time": "2026-11-30T00:59:00.000+00:00", "outcome": "ok"},
        {"kind": "run.started", "run_id": "r", "time": "2026-11-30T01:00:00.000+00:00"},
    ]  # fmt: skip
    assert [c.operation_id for c in calls_of(events)] == ["op2", "op1"]
    assert [c.operation_id for c in calls_of(events, complete_only=True)] == ["op1"]
    assert calls_of(events)[1].outcome == "unfinished"
    lines = format_calls(calls_of(events))
    assert lines[2].split()[2:4] == ["web_fetch", "u"]
    assert journal_stats(events).calls == 1


def test_a_limit_that_leaves_calls_out_says_so(written: tuple[dict[str, str], str]) -> None:
    """New-user test 16, L4: the newest 50 of 52 calls were listed with nothing saying so."""
    env, _base = written
    cut = run(env, "--limit", "3")
    assert len(cut.stdout.splitlines()) == 4  # the heading and three rows
    assert "showing the newest 3 of 5 calls (--limit N for more)" in cut.stderr
    assert "showing" not in run(env).stderr
