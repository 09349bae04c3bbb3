"""Charging rules of one paid service call (SPEC §3 "Spending"): reserve before, record once
the request may have reached the service — also when it then fails or is cancelled — and
never when nothing was sent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from webresearch.errors import BlockedAddress, BudgetExceeded, NetworkError, Timeout
from webresearch.readers.base import OnSent
from webresearch.tools.paid import paid_call


class FakeContext:
    """The parts of a CallContext that paid_call uses, recording what happened."""

    def __init__(self, *, refuse: bool = False) -> None:
        self.refuse = refuse
        self.log: list[tuple[str, Any]] = []
        self.charged = 0.0

    async def reserve(self, cost: float, what: str) -> None:
        self.log.append(("reserve", cost))
        if self.refuse:
            raise BudgetExceeded("no budget", refusal="budget")

    async def rate_limit(self, key: str) -> None:
        self.log.append(("rate_limit", key))

    def spent(self, cost: float, what: str) -> None:
        self.log.append(("spent", cost))
        self.charged += cost

    async def event(self, kind: str, **details: Any) -> None:
        self.log.append((kind, details))


async def run(ctx: FakeContext, call: Any) -> Any:
    return await paid_call(ctx, service="firecrawl", price=2.0, call=call)  # type: ignore[arg-type]


async def test_a_successful_call_is_reserved_limited_and_charged_once() -> None:
    ctx = FakeContext()

    async def call(on_sent: OnSent) -> str:
        on_sent()
        return "page"

    assert await run(ctx, call) == "page"
    assert [k for k, _ in ctx.log] == ["reserve", "rate_limit", "spent", "reader.request"]
    assert ctx.charged == 2.0
    assert ctx.log[-1][1]["outcome"] == "ok" and ctx.log[-1][1]["charged"] == 2.0


async def test_a_failure_after_sending_is_charged() -> None:
    ctx = FakeContext()

    async def call(on_sent: OnSent) -> str:
        on_sent()
        raise Timeout("slow", request_sent=True)

    with pytest.raises(Timeout):
        await run(ctx, call)
    assert ctx.charged == 2.0
    assert ctx.log[-1][1]["outcome"] == "timeout"


async def test_a_connection_that_never_opened_is_not_charged() -> None:
    ctx = FakeContext()

    async def call(on_sent: OnSent) -> str:
        on_sent()
        raise NetworkError("refused", request_sent=False)

    with pytest.raises(NetworkError):
        await run(ctx, call)
    assert ctx.charged == 0 and ctx.log[-1][1]["charged"] == 0.0


async def test_a_refusal_before_sending_is_not_charged() -> None:
    ctx = FakeContext()

    async def call(on_sent: OnSent) -> str:
        raise BlockedAddress("internal")  # the SSRF check runs before on_sent

    with pytest.raises(BlockedAddress):
        await run(ctx, call)
    assert ctx.charged == 0


async def test_a_call_cancelled_after_sending_is_charged_without_an_event() -> None:
    ctx = FakeContext()
    started = asyncio.Event()

    async def call(on_sent: OnSent) -> str:
        on_sent()
        started.set()
        await asyncio.Event().wait()  # never answers
        return "unreachable"

    task = asyncio.create_task(run(ctx, call))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert ctx.charged == 2.0
    assert "reader.request" not in [k for k, _ in ctx.log]


async def test_a_budget_refusal_sends_nothing() -> None:
    ctx = FakeContext(refuse=True)
    called = False

    async def call(on_sent: OnSent) -> str:
        nonlocal called
        called = True
        return "x"

    with pytest.raises(BudgetExceeded):
        await run(ctx, call)
    assert called is False and ctx.charged == 0
