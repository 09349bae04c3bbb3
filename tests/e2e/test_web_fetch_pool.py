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


def long_page(sections: int = 120) -> bytes:
    """An article whose text (~150 KB) is too long to format on the event loop: numbered
    sections, one of which is about harbour cranes."""
    parts = ["<html><head><title>Long report</title></head><body><main><article><h1>Report</h1>"]
    for n in range(sections):
        topic = "harbour cranes and their lifting capacity" if n == 97 else f"topic number {n}"
        parts.append(f"<h2>Section {n}: {topic}</h2>")
        parts.extend(
            f"<p>Paragraph {k} of section {n} discusses {topic} in plain words, "
            f"with enough text to make the page long. Sentence {n * 7 + k}.</p>"
            for k in range(8)
        )
    parts.append("</article></main></body></html>")
    return "".join(parts).encode()


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
        srv.routes["/long"] = Route(headers=HTML, body=long_page())
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
    assert result.text.startswith(f"error[timeout]: converting {site.base}/hang was stopped after")
    assert "the call's time budget ran out" in result.text
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


async def test_a_long_pages_formatting_and_query_run_in_a_worker_with_the_same_result(
    settings: Settings, site: LocalServer
) -> None:
    calls: list[dict[str, object]] = [
        {"url": f"{site.base}/long", "query": "how much can the harbour cranes lift?"},
        {"url": f"{site.base}/long", "offset": 4096},  # no query: the outline of a long text
    ]
    in_process = settings.replace(render="never", fetch_cache_size=0, cpu_workers=0)
    async with Toolkit(in_process) as inline:
        expected = [comparable(await inline.call("web_fetch", args)) for args in calls]
    async with Toolkit(pool_settings(settings)) as pooled:
        got = [comparable(await pooled.call("web_fetch", args)) for args in calls]
        # each call: the conversion and the formatting, both in a worker
        assert pooled.services.cpu.describe()["jobs"] == 2 * len(calls)
    assert got == expected
    (focused, focused_meta), (_outlined, outlined_meta) = got
    assert "Section 97: harbour cranes" in focused and focused_meta["query_offsets"]
    assert outlined_meta["outline"] is True and outlined_meta["total_bytes"] > 65536
