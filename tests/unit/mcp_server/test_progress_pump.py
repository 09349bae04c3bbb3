"""The progress pump: each new stage at once, the latest again every interval, progress
that only grows, and a quiet stop when the client is gone."""

from __future__ import annotations

import asyncio
import itertools

from webresearch.mcp_server.progress import ProgressPump


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


async def test_new_stages_go_out_at_once_and_the_latest_is_repeated() -> None:
    sent: list[tuple[float, str]] = []
    arrived = asyncio.Event()

    async def send(progress: float, message: str) -> None:
        sent.append((progress, message))
        arrived.set()

    clock = Clock()
    pump = ProgressPump(send, interval_s=0.05, clock=clock)
    task = asyncio.ensure_future(pump.run())
    try:
        pump.report("starting Chromium")
        await asyncio.wait_for(arrived.wait(), 5)
        assert sent == [(0.001, "starting Chromium")]  # at once, elapsed 0 bumped above 0
        clock.now += 2.5
        pump.report("loading the page")
        while len(sent) < 4:  # then repeated every interval while nothing changes
            await asyncio.sleep(0.01)
    finally:
        task.cancel()
    assert sent[1] == (2.5, "loading the page")
    assert [m for _, m in sent[2:]] == ["loading the page"] * (len(sent) - 2)
    values = [p for p, _ in sent]
    assert all(b > a for a, b in itertools.pairwise(values))  # MCP: must increase


async def test_without_a_stage_a_heartbeat_says_working() -> None:
    sent: list[str] = []

    async def send(progress: float, message: str) -> None:
        sent.append(message)

    pump = ProgressPump(send, interval_s=0.01)
    task = asyncio.ensure_future(pump.run())
    while not sent:
        await asyncio.sleep(0.005)
    task.cancel()
    assert sent[0] == "working"


async def test_a_failed_send_stops_the_pump() -> None:
    calls = 0

    async def send(progress: float, message: str) -> None:
        nonlocal calls
        calls += 1
        raise ConnectionResetError("client gone")

    pump = ProgressPump(send, interval_s=0.01)
    pump.report("loading the page")
    await asyncio.wait_for(pump.run(), 5)  # returns instead of raising or spinning
    assert calls == 1 and pump.sent == 0
