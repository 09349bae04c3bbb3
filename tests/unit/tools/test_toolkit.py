"""The Toolkit's call pipeline: gates, validation, approval, scope, limits, budget, journal, replay."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.support.http_server import LocalServer, Route
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.errors import NetworkError
from webresearch.runtime.journal import MemoryJournal
from webresearch.runtime.run import ApprovalRequest
from webresearch.tools import web_fetch
from webresearch.tools.base import CallContext, ToolEntry, Unavailable
from webresearch.tools.image_tools import FETCH_IMAGE
from webresearch.tools.limits import search_limit
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject

PAGE = (
    b"<html><head><title>T</title></head><body><article><h1>Head</h1><p>"
    + b"Body words here. " * 40
    + b"</p></article></body></html>"
)


@pytest.fixture
def page_server() -> Any:
    with LocalServer() as srv:
        srv.routes["/page"] = Route(
            headers=[("Content-Type", "text/html; charset=utf-8")], body=PAGE
        )
        srv.routes["/secret"] = Route(
            headers=[("Content-Type", "text/plain")],
            body=b"see https://cdn.example.org/f?token=PAGE-TOKEN-123&x=1",
        )
        yield srv


def paid_search(services: Services) -> ToolEntry[JSONObject]:
    """A paid tool under the web_search spec: reserves, spends, then fails or succeeds."""

    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        await ctx.rate_limit()
        await ctx.reserve(1.0, "paid")
        ctx.spent(1.0, "paid")
        if arguments["query"] == "fail-after-send":
            raise NetworkError("the provider connection broke")
        await ctx.record_search_results([f"{arguments['query']}"])
        return ToolResult(text="results")

    return ToolEntry(spec=WEB_SEARCH, run=run, rate_limit=search_limit(services.settings))


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(
        settings, journal=MemoryJournal(), builders=[web_fetch.build, paid_search]
    ) as tk:
        yield tk


def events(tk: Toolkit) -> list[Any]:
    journal = tk.journal
    assert isinstance(journal, MemoryJournal)
    return journal.events


async def test_gates_follow_the_run(toolkit: Toolkit, tmp_path: Any) -> None:
    assert [s.name for s in toolkit.tools(RunContext())] == ["web_search", "web_fetch"]
    assert toolkit.tools(RunContext(network_access=False)) == []
    denied = RunContext(approval={"web_search": "deny"})
    assert [s.name for s in toolkit.tools(denied)] == ["web_fetch"]
    result = await toolkit.call("web_search", {"query": "x"}, run=denied)
    assert result.error is not None and result.error.code == "tool_unavailable"


async def test_not_offered_says_why_for_every_tool_a_run_does_not_get(toolkit: Toolkit) -> None:
    assert toolkit.not_offered(RunContext()) == {}
    offline = toolkit.not_offered(RunContext(network_access=False))
    assert set(offline) == {"web_search", "web_fetch"}
    assert all("network access" in why for why in offline.values())
    denied = toolkit.not_offered(RunContext(approval={"web_search": "deny"}))
    assert denied == {"web_search": "denied by the approval policy"}


async def test_missing_optional_dependency_removes_the_tool_with_one_log_line(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    def needs_pillow(services: Services) -> Unavailable:
        return Unavailable(
            "fetch_image", "Pillow is not installed (pip install -e '.[images]' in the checkout)"
        )

    with caplog.at_level(logging.INFO, logger="webresearch"):
        async with Toolkit(
            settings, journal=MemoryJournal(), builders=[web_fetch.build, needs_pillow]
        ) as tk:
            assert [s.name for s in tk.tools()] == ["web_fetch"]
            assert FETCH_IMAGE.name in tk.unavailable
            assert "Pillow" in tk.not_offered()[FETCH_IMAGE.name]
    lines = [r for r in caplog.records if "fetch_image" in r.getMessage()]
    assert len(lines) == 1 and "Pillow" in lines[0].getMessage()


async def test_a_tool_the_runs_shape_closes_is_logged_at_debug_a_denial_at_info(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    """New-user test 16, L8: ``webresearch -v fetch`` (info) said "tool view_image not
    registered for this run: the run has no workspace" for a fetch that never has one."""
    with caplog.at_level(logging.DEBUG, logger="webresearch"):
        async with Toolkit(settings, journal=MemoryJournal()) as tk:
            tk.tools(RunContext())  # no workspace: the image tools that need one are closed
            tk.tools(RunContext(approval={"web_fetch": "deny"}))
    gated = [r for r in caplog.records if "not registered for this run" in r.getMessage()]
    by_level = {r.getMessage().split(":", 1)[1].strip(): r.levelno for r in gated}
    assert by_level.get("the run has no workspace") == logging.DEBUG
    assert by_level["denied by the approval policy"] == logging.INFO


async def test_a_call_is_journaled_with_every_field(
    toolkit: Toolkit, page_server: LocalServer
) -> None:
    run = RunContext(run_id="run-1")
    result = await toolkit.call(
        "web_fetch", {"url": f"{page_server.base}/page"}, run=run, operation_id="op-1"
    )
    assert result.ok, result.text
    kinds = [e.kind for e in events(toolkit)]
    assert kinds == ["tool.started", "approval.auto_granted", "tool.completed"]
    done = events(toolkit)[-1]
    assert done.run_id == "run-1" and done.operation_id == "op-1" and done.tool == "web_fetch"
    assert done.outcome == "ok" and done.error_code is None and not done.cached
    assert done.duration_ms is not None and done.duration_ms > 0
    assert len(done.args_hash or "") == 64
    assert done.output and "Body words here" in done.output and len(done.output.encode()) <= 4096
    again = await toolkit.call("web_fetch", {"url": f"{page_server.base}/page"}, run=run)
    assert again.meta["cached"] is True and events(toolkit)[-1].cached


async def test_replaying_an_operation_id_returns_the_result_and_adds_no_events(
    toolkit: Toolkit, page_server: LocalServer
) -> None:
    first = await toolkit.call(
        "web_fetch", {"url": f"{page_server.base}/page"}, operation_id="same"
    )
    count = len(events(toolkit))
    hits = page_server.count("/page")
    second = await toolkit.call(
        "web_fetch", {"url": f"{page_server.base}/page"}, operation_id="same"
    )
    assert second.text == first.text and second.meta["replayed"] is True
    assert len(events(toolkit)) == count and page_server.count("/page") == hits


async def test_replay_survives_a_new_toolkit_through_the_journal(
    settings: Settings, page_server: LocalServer, tmp_path: Any
) -> None:
    settings = settings.replace(journal_url=f"sqlite:///{tmp_path}/j.sqlite3")
    async with Toolkit(settings) as tk:
        first = await tk.call("web_fetch", {"url": f"{page_server.base}/page"}, operation_id="op-x")
    async with Toolkit(settings) as tk:
        before = len(await tk.journal.query())
        second = await tk.call(
            "web_fetch", {"url": f"{page_server.base}/page"}, operation_id="op-x"
        )
        assert second.text == first.text and second.meta.get("replayed")
        assert len(await tk.journal.query()) == before


@pytest.mark.parametrize(
    ("arguments", "needle"),
    [
        ({}, "'url' is a required property"),
        ({"url": 5}, "is not of type 'string'"),
        ({"url": "http://x.example/", "max_bytes": 0}, "less than the minimum"),
        ({"url": "http://x.example/", "max_bytes": 131073}, "greater than the maximum"),
        ({"url": "http://x.example/", "extra": 1}, "Additional properties"),
    ],
)
async def test_invalid_arguments_are_refused_before_anything_runs(
    toolkit: Toolkit, arguments: dict[str, Any], needle: str
) -> None:
    result = await toolkit.call("web_fetch", arguments)
    assert result.error is not None and result.error.code == "invalid_arguments"
    assert needle in result.text
    assert "approval.auto_granted" not in [e.kind for e in events(toolkit)]


async def test_supervised_calls_ask_the_approver(
    toolkit: Toolkit, page_server: LocalServer
) -> None:
    asked: list[ApprovalRequest] = []

    async def approver(request: ApprovalRequest) -> bool:
        asked.append(request)
        return "allowed" in request.arguments["url"]

    run = RunContext(approval={"web_fetch": "supervised"}, approver=approver)
    ok = await toolkit.call("web_fetch", {"url": f"{page_server.base}/page?allowed=1"}, run=run)
    assert ok.ok
    no = await toolkit.call("web_fetch", {"url": f"{page_server.base}/page?token=abc"}, run=run)
    assert no.error is not None and no.error.code == "approval_denied"
    assert [r.tool for r in asked] == ["web_fetch", "web_fetch"]
    assert "abc" not in str(asked[1].arguments)  # the approver sees redacted arguments
    kinds = [e.kind for e in events(toolkit)]
    assert "approval.granted" in kinds and "approval.denied" in kinds
    failed = events(toolkit)[-1]
    assert failed.outcome == "refused" and failed.details["refusal"] == "approval"
    no_approver = await toolkit.call(
        "web_fetch",
        {"url": f"{page_server.base}/page"},
        run=RunContext(approval={"web_fetch": "supervised"}),
    )
    assert no_approver.error is not None and no_approver.error.code == "approval_denied"


async def test_rate_limit_refusal_is_journaled_and_cache_hits_are_free(
    settings: Settings, page_server: LocalServer
) -> None:
    async with Toolkit(settings.replace(fetch_rate_limit=2), journal=MemoryJournal()) as tk:
        assert (await tk.call("web_fetch", {"url": f"{page_server.base}/page"})).ok
        for _ in range(5):  # cache hits take no limiter unit
            assert (await tk.call("web_fetch", {"url": f"{page_server.base}/page"})).ok
        assert (await tk.call("web_fetch", {"url": f"{page_server.base}/page?2"})).ok
        third = await tk.call("web_fetch", {"url": f"{page_server.base}/page?3"})
        assert third.error is not None and third.error.code == "rate_limited"
        assert "retry after" in third.text and third.error.details["retry_after"] >= 1
        assert not third.error.retryable
        failed = events(tk)[-1]
        assert (
            failed.outcome == "refused"
            and failed.error_code == "rate_limited"
            and failed.details["refusal"] == "rate_limit"
        )


async def test_budget_stops_paid_calls_and_failed_sent_calls_still_cost(toolkit: Toolkit) -> None:
    run = RunContext(budget=2.0)
    assert (await toolkit.call("web_search", {"query": "one"}, run=run)).ok
    failed = await toolkit.call("web_search", {"query": "fail-after-send"}, run=run)
    assert failed.error is not None and failed.error.code == "network"
    assert events(toolkit)[-1].cost == 1.0  # the request was sent: it costs
    refused = await toolkit.call("web_search", {"query": "three"}, run=run)
    assert refused.error is not None and refused.error.code == "budget_exceeded"
    assert events(toolkit)[-1].cost == 0.0 and events(toolkit)[-1].details["refusal"] == "budget"
    assert toolkit.spent_by(run.run_id) == 2.0


async def test_search_results_scope(toolkit: Toolkit, page_server: LocalServer) -> None:
    run = RunContext(fetch_scope="search_results")
    before = await toolkit.call("web_fetch", {"url": f"{page_server.base}/page"}, run=run)
    assert (
        before.error is not None
        and before.error.code == "scope_denied"
        and "search first" in before.text
    )
    await toolkit.call("web_search", {"query": f"{page_server.base}/page"}, run=run)
    assert (
        await toolkit.call("web_fetch", {"url": f"{page_server.base}/page#section"}, run=run)
    ).ok
    other = await toolkit.call("web_fetch", {"url": f"{page_server.base}/other"}, run=run)
    assert other.error is not None and other.error.code == "scope_denied"
    assert page_server.count("/other") == 0


async def test_user_links_scope_counts_views_and_hides_failure_details(
    toolkit: Toolkit, page_server: LocalServer
) -> None:
    base = page_server.base
    run = RunContext(
        fetch_scope="user_links",
        conversation_id="chat-1",
        user_messages=(
            f"please read {base}/page and {base}/missing and {base}/page?2 {base}/page?3",
        ),
    )
    not_sent = await toolkit.call("web_fetch", {"url": f"{base}/elsewhere"}, run=run)
    assert not_sent.error is not None and not_sent.error.code == "scope_denied"  # free
    assert (await toolkit.call("web_fetch", {"url": f"{base}/page"}, run=run)).ok
    failed = await toolkit.call("web_fetch", {"url": f"{base}/missing"}, run=run)
    assert failed.error is not None
    assert (
        "did not open" in failed.text
        and "404" not in failed.text
        and "127.0.0.1" not in failed.text
    )
    assert (await toolkit.call("web_fetch", {"url": f"{base}/page?2"}, run=run)).ok
    over = await toolkit.call("web_fetch", {"url": f"{base}/page?3"}, run=run)
    assert over.error is not None and over.error.code == "scope_denied" and "limit" in over.text


async def test_url_secrets_never_reach_results_or_events(
    toolkit: Toolkit, page_server: LocalServer
) -> None:
    result = await toolkit.call(
        "web_fetch", {"url": f"{page_server.base}/secret?api_key=ARG-KEY-456"}
    )
    assert result.ok
    blocked = await toolkit.call("web_fetch", {"url": "http://10.0.0.1/?token=BLOCKED-TOKEN-789"})
    assert blocked.error is not None and blocked.error.code == "blocked_address"
    everything = repr([r.to_dict() for r in (result, blocked)]) + repr(
        [e.to_dict() for e in events(toolkit)]
    )
    for secret in ("PAGE-TOKEN-123", "ARG-KEY-456", "BLOCKED-TOKEN-789"):
        assert secret not in everything
    assert "[REDACTED]" in result.text
    assert events(toolkit)[-1].details["refusal"] == "ssrf"


async def test_a_crashing_tool_is_an_internal_error_not_a_crash(settings: Settings) -> None:
    def broken(services: Services) -> ToolEntry[JSONObject]:
        async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
            raise RuntimeError("secret internals at /srv/app")

        return ToolEntry(spec=WEB_SEARCH, run=run)

    async with Toolkit(settings, journal=MemoryJournal(), builders=[broken]) as tk:
        result = await tk.call("web_search", {"query": "x"})
    assert result.error is not None and result.error.code == "internal"
    assert "/srv/app" not in result.text


async def test_exactly_n_of_200_concurrent_calls_pass_the_limiter(settings: Settings) -> None:
    import asyncio

    async with Toolkit(
        settings.replace(search_rate_limit=30), journal=MemoryJournal(), builders=[paid_search]
    ) as tk:
        results = await asyncio.gather(
            *(tk.call("web_search", {"query": f"q{i}"}) for i in range(200))
        )
    assert sum(r.ok for r in results) == 30
    refused = [r for r in results if not r.ok]
    assert all(r.error is not None and r.error.code == "rate_limited" for r in refused)
