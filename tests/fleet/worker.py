"""An agent-worker process for the multi-process fleet tests: ``python -m tests.fleet.worker``.

It reads one JSON command per line on stdin and answers one JSON line on stdout. Each
command builds a fresh :class:`~webresearch.Toolkit` from the settings it names (as a real
worker would from its environment), so every process has its own connections:

* ``{"op": "limit", "settings": {…}, "calls": 100}`` → answers ``{"ready": true}``, waits for
  a ``go`` line (so all workers start together), then makes ``calls`` concurrent
  ``web_search`` calls whose tool only takes a limiter unit; answers the outcome counts;
* ``{"op": "fetch", "settings": {…}, "url": …}`` → one real ``web_fetch``; answers whether
  it came from the (shared) cache;
* ``{"op": "call_then_die", "settings": {…}, "run_id": …}`` → one call, then SIGKILL to
  itself the moment the call returns (no cleanup, no flush, nothing after);
* ``{"op": "spend", "settings": {…}, "calls": 100, "price": 0.01}`` → like ``limit``, with
  a paid tool (each call holds its price of the shared spending limit, then pays it);
  answers the outcome counts and what the backend says was spent;
* ``{"op": "quit"}``.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any

from webresearch import RunContext, Settings, Toolkit
from webresearch.runtime.spending import SpendingRule
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.catalog import Builder
from webresearch.tools.context import SPENDING_KEY
from webresearch.tools.limits import search_limit
from webresearch.tools.registry import default_builders
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject, ToolResult


def search_probe(services: Services) -> ToolEntry[JSONObject]:
    """``web_search`` with the real spec whose run only takes one ``web_search`` limiter unit
    (the real tool arrives from another branch with the same limiter key)."""

    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        await ctx.rate_limit()
        return ToolResult(f"results for {arguments['query']}")

    return ToolEntry(spec=WEB_SEARCH, run=run, rate_limit=search_limit(services.settings))


def paid_probe(price: float) -> Builder:
    """``web_search`` whose run pays ``price`` like a paid search (reserve, then spent)."""

    def build(services: Services) -> ToolEntry[JSONObject]:
        async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
            await ctx.reserve(ctx.price, "probe")
            ctx.spent(ctx.price, "probe")
            return ToolResult(f"paid for {arguments['query']}")

        return ToolEntry(spec=WEB_SEARCH, run=run, price=price)

    return build


def _send(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _settings(data: dict[str, Any]) -> Settings:
    return Settings.load(environ={}, **data)


async def _limit(cmd: dict[str, Any], lines: asyncio.Queue[str]) -> None:
    async with Toolkit(_settings(cmd["settings"]), builders=[search_probe]) as toolkit:
        run = RunContext()
        _send({"ready": True})
        assert (await lines.get()).strip() == "go"
        results = await asyncio.gather(
            *(toolkit.call("web_search", {"query": f"q{i}"}, run=run) for i in range(cmd["calls"]))
        )
    errors = [r.error for r in results if r.error is not None]
    _send(
        {
            "ok": sum(r.ok for r in results),
            "codes": sorted({e.code for e in errors}),
            "retry_after": sorted(
                {e.details["retry_after"] for e in errors if e.code == "rate_limited"}
            ),
            "other": sorted({e.to_text() for e in errors if e.code != "rate_limited"})[:5],
        }
    )


async def _spend(cmd: dict[str, Any], lines: asyncio.Queue[str]) -> None:
    settings = _settings(cmd["settings"])
    builders = [paid_probe(cmd["price"])]
    async with Toolkit(settings, builders=builders) as toolkit:
        _send({"ready": True})
        assert (await lines.get()).strip() == "go"
        results = await asyncio.gather(
            *(toolkit.call("web_search", {"query": f"q{i}"}) for i in range(cmd["calls"]))
        )
        rule = SpendingRule(settings.spending_limit or 0.0, settings.spending_window_s)
        spent = await toolkit.services.state.spending.spent(SPENDING_KEY, rule)
    errors = [r.error for r in results if r.error is not None]
    _send(
        {
            "ok": sum(r.ok for r in results),
            "codes": sorted({e.code for e in errors}),
            "refusals": sorted({str(e.details.get("refusal")) for e in errors}),
            "spent": spent,
        }
    )


async def _fetch(cmd: dict[str, Any]) -> None:
    async with Toolkit(_settings(cmd["settings"]), builders=default_builders()) as toolkit:
        result = await toolkit.call("web_fetch", {"url": cmd["url"]})
    _send({"ok": result.ok, "cached": result.meta.get("cached"), "text": result.text[:300]})


async def _call_then_die(cmd: dict[str, Any]) -> None:
    toolkit = Toolkit(_settings(cmd["settings"]), builders=[search_probe])
    result = await toolkit.call(
        "web_search", {"query": "before the crash"}, run=RunContext(run_id=cmd["run_id"])
    )
    if result.ok:
        os.kill(os.getpid(), signal.SIGKILL)
    _send({"ok": False, "text": result.text})


async def main() -> None:
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str] = asyncio.Queue()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    async def pump() -> None:
        while line := await reader.readline():
            await lines.put(line.decode())
        await lines.put("")

    pumping = asyncio.create_task(pump())
    while line := await lines.get():
        cmd = json.loads(line)
        if cmd["op"] == "quit":
            os._exit(0)  # nothing to tear down: each command closed its Toolkit
        if cmd["op"] == "limit":
            await _limit(cmd, lines)
        elif cmd["op"] == "spend":
            await _spend(cmd, lines)
        elif cmd["op"] == "fetch":
            await _fetch(cmd)
        elif cmd["op"] == "call_then_die":
            await _call_then_die(cmd)
    pumping.cancel()


if __name__ == "__main__":
    asyncio.run(main())
