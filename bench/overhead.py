"""Toolkit overhead per call: gates + validation + approval + limiter + cache + journal.

Compares, in one run, ``await toolkit.call(...)`` with calling the same tool function
directly (a no-op context), for:

* ``web_fetch`` served from its cache (the real tool, no network), and
* a synthetic tool that takes a limiter unit and reads/writes a cache.

Each case runs with the SQLite journal in a temporary directory (the embedded default) and
with the in-memory journal, so the journal's own share is visible.

    python bench/overhead.py --calls 2000
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.tools import web_fetch
from webresearch.tools.base import CallContext, RateLimit, ToolEntry
from webresearch.tools.limits import search_limit
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject, JSONValue


class NoopContext:
    """What a direct call gets: every runtime question answered with 'yes'."""

    def __init__(self, services: Services) -> None:
        self.run = RunContext()
        self.operation_id = "direct"
        self.tool = "direct"
        self.services = services
        self.price = 0.0

    async def check_scope(self, url: str) -> None:
        return None

    async def record_search_results(self, urls: list[str]) -> None:
        return None

    async def rate_limit(self, limit: RateLimit | None = None) -> None:
        return None

    async def reserve(self, cost: float, what: str) -> None:
        return None

    def spent(self, cost: float, what: str) -> None:
        return None

    async def event(self, kind: str, **details: JSONValue) -> None:
        return None


def synthetic(services: Services) -> ToolEntry[JSONObject]:
    cache = services.cache("bench", maxsize=1024, ttl_s=600)

    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        await ctx.rate_limit()
        hit = await cache.get(arguments["query"])
        if hit is None:
            await cache.set(arguments["query"], {"text": "x"})
        return ToolResult(text="results for " + arguments["query"])

    return ToolEntry(spec=WEB_SEARCH, run=run, rate_limit=search_limit(services.settings))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def measure(calls: int, journal: str) -> list[tuple[str, float, float, float, float]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings.load(
            environ={},
            journal_url="memory://"
            if journal == "memory"
            else f"sqlite:///{Path(tmp) / 'journal.sqlite3'}",
            search_rate_limit=10**9,
            robots="ignore",  # bench.example is not on the network: no robots.txt to read
        )
        async with Toolkit(settings, builders=[web_fetch.build, synthetic]) as toolkit:
            url = "http://bench.example/page"
            doc = {
                "url": url, "requested_url": url, "final_url": url, "redirects": [], "status": 200,
                "content_type": "text/html", "declared_content_type": "text/html", "title": "Bench",
                "text": "# Bench\n\n" + "Some text. " * 400, "markdown": True, "extractor": "main-content",
                "fallback": None, "encoding": "utf-8", "encoding_source": "header", "fetched_at": "",
                "sha256": "", "bytes_downloaded": 0, "body_bytes": 0, "download_truncated": False,
                "content_encoding_ignored": False, "render": "none",
            }  # fmt: skip
            await toolkit.services.cache("web_fetch", maxsize=64, ttl_s=600).set(
                f"web_fetch:{url}", doc
            )
            direct_ctx = NoopContext(toolkit.services)
            cases = [
                ("web_fetch (cache hit)", "web_fetch", lambda i: {"url": url}),
                ("limiter + cache tool", "web_search", lambda i: {"query": f"q{i % 100}"}),
            ]
            for label, name, make_args in cases:
                run = RunContext()
                tool = toolkit.tool(name)
                assert tool is not None
                for i in range(200):  # warm up both paths
                    await toolkit.call(name, make_args(i), run=run)
                    await tool.prepare(make_args(i)).run(direct_ctx)
                direct, wrapped = [], []
                for i in range(calls):
                    args = make_args(i)
                    t0 = time.perf_counter()
                    await tool.prepare(args).run(direct_ctx)
                    t1 = time.perf_counter()
                    await toolkit.call(name, args, run=run)
                    t2 = time.perf_counter()
                    direct.append((t1 - t0) * 1000)
                    wrapped.append((t2 - t1) * 1000)
                overhead = [w - d for w, d in zip(wrapped, direct, strict=True)]
                rows.append(
                    (
                        f"{label} [{journal}]",
                        statistics.median(direct),
                        statistics.median(wrapped),
                        statistics.median(overhead),
                        pct(overhead, 99),
                    )
                )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--calls", type=int, default=2000, help="measured calls per case (default 2000)"
    )
    args = parser.parse_args()
    rows = asyncio.run(measure(args.calls, "sqlite")) + asyncio.run(measure(args.calls, "memory"))
    print(
        f"{'case':<33} {'direct p50 ms':>14} {'toolkit p50 ms':>15} {'overhead p50 ms':>16} {'overhead p99 ms':>16}"
    )
    for label, d50, w50, o50, o99 in rows:
        print(f"{label:<33} {d50:>14.4f} {w50:>15.4f} {o50:>16.4f} {o99:>16.4f}")
    worst = max(r[3] for r in rows if "[sqlite]" in r[0])
    print(
        f"\ntarget: p50 overhead < 1 ms with the SQLite journal -> {'met' if worst < 1.0 else 'NOT met'} ({worst:.3f} ms)"
    )


if __name__ == "__main__":
    main()
