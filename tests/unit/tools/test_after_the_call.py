"""What a call does when the journal fails after the tool acted, and how approvers answer."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import pytest

from webresearch import RunContext, Settings, StorageError, Toolkit, ToolResult
from webresearch.runtime.journal import JournalEvent, MemoryJournal
from webresearch.runtime.run import ApprovalRequest
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject


class FailingJournal(MemoryJournal):
    """A journal whose appends of ``failing`` kinds raise like a locked SQLite file."""

    def __init__(self, *failing: str) -> None:
        super().__init__()
        self.failing = set(failing)

    async def append(self, event: JournalEvent) -> None:
        if event.kind in self.failing:
            raise StorageError("journal write failed: database is locked")
        await super().append(event)


def acting_search(sent: list[str]) -> Any:
    """web_search whose run "sends" a paid request, then journals it (like search.request)."""

    def build(services: Services) -> ToolEntry[JSONObject]:
        async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
            sent.append(arguments["query"])
            ctx.spent(1.0, "provider")
            await ctx.event("search.request", provider="fake", outcome="ok")
            return ToolResult(f"results for {arguments['query']}")

        return ToolEntry(spec=WEB_SEARCH, run=run)

    return build


async def test_an_event_the_running_tool_cannot_journal_keeps_the_result(
    settings: Settings,
) -> None:
    sent: list[str] = []
    journal = FailingJournal("search.request")
    async with Toolkit(settings, journal=journal, builders=[acting_search(sent)]) as tk:
        result = await tk.call("web_search", {"query": "q"})
    assert sent == ["q"]
    assert result.ok, result.text  # before: ok=False "journal write failed: database is locked"
    assert result.text == "results for q"
    assert result.meta["journal_error"] == "storage" and result.meta["cost"] == 1.0
    closing = journal.events[-1]
    assert closing.kind == "tool.completed" and closing.cost == 1.0


async def test_a_failed_closing_event_keeps_a_failed_result_too(settings: Settings) -> None:
    journal = FailingJournal("tool.failed")

    def failing(services: Services) -> ToolEntry[JSONObject]:
        async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
            from webresearch.errors import NetworkError

            raise NetworkError("the provider connection broke")

        return ToolEntry(spec=WEB_SEARCH, run=run)

    async with Toolkit(settings, journal=journal, builders=[failing]) as tk:
        result = await tk.call("web_search", {"query": "q"})
    assert result.error is not None and result.error.code != "storage"
    assert result.meta["journal_error"] == "storage"


async def test_approval_events_still_fail_closed(settings: Settings) -> None:
    sent: list[str] = []
    journal = FailingJournal("approval.auto_granted")
    async with Toolkit(settings, journal=journal, builders=[acting_search(sent)]) as tk:
        result = await tk.call("web_search", {"query": "q"})
    assert result.error is not None and result.error.code == "storage"
    assert sent == []  # nothing ran that the journal could not record


# --- approvers --------------------------------------------------------------------------


async def _supervised(
    settings: Settings, approver: Any, **run: Any
) -> tuple[ToolResult, list[str]]:
    sent: list[str] = []
    async with Toolkit(settings, journal=MemoryJournal(), builders=[acting_search(sent)]) as tk:
        ctx = RunContext(approval={"web_search": "supervised"}, approver=approver, **run)
        return await tk.call("web_search", {"query": "q"}, run=ctx), sent


@pytest.mark.parametrize("answer", ["no", 1, "yes", [0], object()])
async def test_only_true_approves(settings: Settings, answer: object) -> None:
    async def approver(request: ApprovalRequest) -> Any:
        return answer

    result, sent = await _supervised(settings, approver)
    assert result.error is not None and result.error.code == "approval_denied"  # before: ok
    assert "no yes/no answer" in result.text
    assert sent == []


async def test_true_approves(settings: Settings) -> None:
    async def approver(request: ApprovalRequest) -> bool:
        return True

    result, sent = await _supervised(settings, approver)
    assert result.ok and sent == ["q"]


@pytest.mark.parametrize("answer", [True, False])
async def test_a_plain_function_approver_is_used(settings: Settings, answer: bool) -> None:
    def approver(request: ApprovalRequest) -> bool:
        return answer

    result, sent = await _supervised(settings, approver)
    assert result.ok is answer  # before: always denied (the bool was awaited and raised)
    assert sent == (["q"] if answer else [])


async def test_a_hung_approver_is_a_denial_after_the_timeout(settings: Settings) -> None:
    async def approver(request: ApprovalRequest) -> bool:
        await asyncio.sleep(3600)
        return True

    started = time.monotonic()
    result, sent = await _supervised(settings, approver, approval_timeout_s=0.2)
    assert time.monotonic() - started < 5  # before: hung forever
    assert result.error is not None and result.error.code == "approval_denied"
    assert "no answer within 0.2 s" in result.text and sent == []


async def test_an_approver_that_swallows_its_cancellation_still_times_out(
    settings: Settings,
) -> None:
    stop = asyncio.Event()

    async def approver(request: ApprovalRequest) -> bool:
        while not stop.is_set():
            with contextlib.suppress(asyncio.CancelledError):  # ignores being cancelled
                await asyncio.sleep(0.05)
        return True

    started = time.monotonic()
    try:
        result, sent = await asyncio.wait_for(
            _supervised(settings, approver, approval_timeout_s=0.2), 10
        )
    finally:
        stop.set()  # let the left-behind approver end with the test
    assert time.monotonic() - started < 5  # before: asyncio.wait_for waited for it forever
    assert result.error is not None and result.error.code == "approval_denied"
    assert "no answer within 0.2 s" in result.text and sent == []


async def test_an_approver_that_cancels_itself_denies(settings: Settings) -> None:
    async def approver(request: ApprovalRequest) -> bool:
        raise asyncio.CancelledError

    result, sent = await _supervised(settings, approver)
    assert result.error is not None and result.error.code == "approval_denied", result.text
    assert sent == []


def test_run_context_refuses_a_bad_approval_setup() -> None:
    with pytest.raises(ValueError, match="approval_timeout_s"):
        RunContext(approval_timeout_s=0)
    with pytest.raises(TypeError, match="approver"):
        RunContext(approver="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("url", "code"),
    [("http://10.9.8.7/x", "blocked_address"), ("ftp://example.org/x", "invalid_arguments")],
)
async def test_a_url_the_guard_refuses_is_never_sent_to_the_approver(
    settings: Settings, url: str, code: str
) -> None:
    from webresearch.tools import web_fetch

    asked: list[ApprovalRequest] = []

    async def approver(request: ApprovalRequest) -> bool:
        asked.append(request)
        return True

    run = RunContext(approval={"web_fetch": "supervised"}, approver=approver)
    async with Toolkit(settings, journal=MemoryJournal(), builders=[web_fetch.build]) as tk:
        result = await tk.call("web_fetch", {"url": url}, run=run)
    assert result.error is not None and result.error.code == code
    assert asked == []  # before: the person was asked first, then the guard refused
