"""web_fetch with its conversion in the CPU worker pool (issue 14), through the Toolkit and a
real local server: the call's timeout stops a conversion that never ends, a worker killed
mid-call is a clear ``internal`` error, the next call works in both cases, other calls are
served meanwhile, and the result is the same whether the conversion ran in-process or in a
worker."""

from __future__ import annotations

import asyncio
import gzip
import os
import signal
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import FIXTURES
from tests.e2e.conftest import PAGE, PAGE_SENTENCE
from tests.support import cpu_jobs
from tests.support.http_server import LocalServer, Route
from webresearch import Settings, Toolkit, ToolResult
from webresearch.readers.local import Converter, LocalReader
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.base import ToolEntry
from webresearch.tools.services import Services
from webresearch.tools.web_fetch import WEB_FETCH, WebFetch, WebFetchArgs

WAIT_S = 60.0
HTML = [("Content-Type", "text/html; charset=utf-8")]


def web_fetch_converting_with(converter: Converter) -> Any:
    """A web_fetch builder whose local reader converts with ``converter`` (in the pool)."""

    def build(services: Services) -> ToolEntry[WebFetchArgs]:
        reader = LocalReader(services.client, services.now, cpu=services.cpu, converter=converter)
        return ToolEntry(
            spec=WEB_FETCH, arguments=WebFetchArgs.from_json, run=WebFetch(services, reader)
        )

    return build


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        for path in ("/page", "/hang", "/kill-me", "/after"):
            srv.routes[path] = Route(headers=HTML, body=PAGE)
        for page in sorted((FIXTURES / "corpus-sample").rglob("*.html.gz"))[:8]:
            srv.routes[f"/corpus/{page.name}"] = Route(
                headers=[("Content-Type", "text/html")], body=gzip.decompress(page.read_bytes())
            )
        yield srv


def pool_settings(settings: Settings, **changes: Any) -> Settings:
    return settings.replace(render="never", fetch_cache_size=0, cpu_workers=2, **changes)


@pytest.fixture
async def hanging(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(
        pool_settings(settings, request_timeout_s=5.0),
        journal=MemoryJournal(),
        builders=[web_fetch_converting_with(cpu_jobs.convert_or_hang)],
    ) as tk:
        yield tk


async def fetch(toolkit: Toolkit, url: str) -> ToolResult:
    return await toolkit.call("web_fetch", {"url": url})


async def test_a_conversion_that_never_ends_is_stopped_by_the_calls_timeout(
    hanging: Toolkit, site: LocalServer
) -> None:
    warm = await fetch(hanging, f"{site.base}/page")  # workers started: the budget is the page's
    assert warm.ok, warm.text
    hung = asyncio.create_task(fetch(hanging, f"{site.base}/hang"))
    # Other calls are served while the conversion spins in its worker.
    served = await fetch(hanging, f"{site.base}/page")
    assert served.ok and PAGE_SENTENCE in served.text
    result = await asyncio.wait_for(hung, WAIT_S)
    assert result.error is not None and result.error.code == "timeout"
    assert result.text.startswith(f"error[timeout]: converting {site.base}/hang did not finish")
    after = await fetch(hanging, f"{site.base}/after")
    assert after.ok and PAGE_SENTENCE in after.text
    closing = [
        (e.outcome, e.error_code)
        for e in await hanging.journal.query()
        if e.kind in ("tool.completed", "tool.failed")
    ]
    # warm-up, the page served during the hang, the hang's timeout, the next call
    assert closing == [("ok", None), ("ok", None), ("error", "timeout"), ("ok", None)]
    assert hanging.services.cpu.describe()["timeouts"] == 1


async def test_a_worker_killed_mid_call_gives_a_clear_error_and_the_next_call_works(
    settings: Settings, site: LocalServer, tmp_path: Path
) -> None:
    marker = tmp_path / "worker.pid"
    async with Toolkit(
        pool_settings(settings),
        journal=MemoryJournal(),
        builders=[web_fetch_converting_with(cpu_jobs.convert_or_wait_for_kill)],
    ) as toolkit:
        call = asyncio.create_task(fetch(toolkit, f"{site.base}/kill-me?marker={marker}"))
        deadline = time.monotonic() + WAIT_S
        while not (marker.exists() and marker.read_text()):
            assert time.monotonic() < deadline and not call.done(), "the conversion never started"
            await asyncio.sleep(0.01)
        os.kill(int(marker.read_text()), signal.SIGKILL)
        result = await asyncio.wait_for(call, WAIT_S)
        assert result.error is not None and result.error.code == "internal"
        assert "its worker process stopped unexpectedly and was replaced" in result.text
        assert "next step: retry the call once" in result.text
        after = await fetch(toolkit, f"{site.base}/after")
        assert after.ok and PAGE_SENTENCE in after.text


def comparable(result: ToolResult) -> tuple[str, dict[str, Any]]:
    meta = {k: v for k, v in result.meta.items() if k not in ("fetched_at", "operation_id")}
    return result.text, meta


async def test_results_are_identical_in_process_and_pooled(
    settings: Settings, site: LocalServer
) -> None:
    urls = [f"{site.base}{path}" for path in site.routes if path.startswith("/corpus/")]
    assert len(urls) == 8
    async with Toolkit(settings.replace(render="never", cpu_workers=0)) as inline:
        expected = [comparable(await fetch(inline, url)) for url in urls]
    async with Toolkit(pool_settings(settings)) as pooled:
        assert pooled.services.cpu.workers == 2
        got = [comparable(r) for r in await asyncio.gather(*(fetch(pooled, u) for u in urls))]
        assert pooled.services.cpu.describe()["jobs"] == len(urls)
    assert all(text.startswith("[untrusted web content") for text, _meta in got)
    assert got == expected
