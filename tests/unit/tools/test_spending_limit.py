"""The shared spending limit through the Toolkit: every run counts together, a refusal says
when it resets, and a call that never sent its request gives its hold back (issue 16)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.errors import NetworkError
from webresearch.runtime.journal import MemoryJournal
from webresearch.runtime.spending import SpendingRule
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.context import SPENDING_KEY
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject

PRICE = 0.02


def paid(services: Services) -> ToolEntry[JSONObject]:
    """A paid tool: ``query`` says how the call ends (sent, refused before sending, hang)."""

    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        await ctx.reserve(ctx.price, "svc")
        query = arguments["query"]
        if query == "not-sent":  # the connection never opened: nothing is charged
            raise NetworkError("could not connect", request_sent=False)
        if query == "hang":  # cancelled before the request leaves
            await asyncio.Event().wait()
        ctx.spent(ctx.price, "svc")
        return ToolResult(text="paid")

    return ToolEntry(spec=WEB_SEARCH, run=run, price=PRICE)


def toolkit(settings: Settings, limit: float) -> Toolkit:
    return Toolkit(
        settings.replace(spending_limit=limit), journal=MemoryJournal(), builders=[paid]
    )


async def spent(tk: Toolkit) -> float:
    rule = SpendingRule(tk.settings.spending_limit or 0.0, tk.settings.spending_window_s)
    return await tk.services.state.spending.spent(SPENDING_KEY, rule)


async def test_every_run_counts_against_one_limit(settings: Settings) -> None:
    async with toolkit(settings, 0.05) as tk:
        first = await tk.call("web_search", {"query": "a"}, run=RunContext(run_id="r1"))
        second = await tk.call("web_search", {"query": "b"}, run=RunContext(run_id="r2"))
        third = await tk.call("web_search", {"query": "c"}, run=RunContext(run_id="r3"))
        assert first.ok and second.ok
        assert third.error is not None and third.error.code == "budget_exceeded"
        assert third.error.details["refusal"] == "spending_limit"
        assert 0 < third.error.details["retry_after"] <= 86400
        assert "all runs together" in third.text and "resets in" in third.text
        assert await spent(tk) == pytest.approx(0.04)
        # The refusal is a journaled refusal like the run's own budget.
        journal = tk.journal
        assert isinstance(journal, MemoryJournal)
        failed = [e for e in journal.events if e.kind == "tool.failed"]
        assert [e.details.get("refusal") for e in failed] == ["spending_limit"]


async def test_a_request_that_never_left_gives_its_hold_back(settings: Settings) -> None:
    async with toolkit(settings, 0.04) as tk:
        for _ in range(3):
            result = await tk.call("web_search", {"query": "not-sent"})
            assert result.error is not None and result.error.code == "network"
        assert await spent(tk) == 0.0
        assert all([(await tk.call("web_search", {"query": q})).ok for q in ("x", "y")])
        assert await spent(tk) == pytest.approx(0.04)


async def test_a_cancelled_call_gives_its_hold_back(settings: Settings) -> None:
    async with toolkit(settings, 0.02) as tk:
        call = asyncio.ensure_future(tk.call("web_search", {"query": "hang"}))
        for _ in range(100):
            await asyncio.sleep(0)
            if await spent(tk):
                break
        assert await spent(tk) == pytest.approx(0.02)  # held while it runs
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        assert await spent(tk) == 0.0
        assert (await tk.call("web_search", {"query": "after"})).ok


async def test_without_a_limit_nothing_is_held(settings: Settings) -> None:
    async with Toolkit(settings, journal=MemoryJournal(), builders=[paid]) as tk:
        assert all([(await tk.call("web_search", {"query": str(i)})).ok for i in range(5)])
        rule = SpendingRule(1.0, settings.spending_window_s)
        assert await tk.services.state.spending.spent(SPENDING_KEY, rule) == 0.0
