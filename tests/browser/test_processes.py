"""A launched Chromium runs one renderer process per open page, and no more (issue 15:
3 pages ran 5 renderers — a startup tab, a spare renderer and an omnibox WebUI per window
besides the pages)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.browser.conftest import Sites, browser_settings
from webresearch import RunContext, Toolkit

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Seconds the renderer count is watched after the pages opened (a spare renderer or a
#: preloaded WebUI appears within a fraction of that).
WATCH_S = 1.0


def _renderers(pids: list[int]) -> int:
    count = 0
    for pid in pids:
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        count += b"--type=renderer" in cmdline
    return count


async def test_renderer_processes_are_one_per_page(sites: Sites) -> None:
    async with Toolkit(browser_settings("chromium")) as toolkit:
        manager = toolkit.services.browser
        runs = [RunContext() for _ in range(3)]
        for run in runs:
            opened = await toolkit.call(
                "browser", {"action": "open", "url": f"{sites.site.base}/plain"}, run=run
            )
            assert opened.ok, opened.text
        seen = []
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WATCH_S
        while loop.time() < deadline:
            seen.append(_renderers(manager.pids()))
            await asyncio.sleep(0.1)
        assert max(seen) == len(runs), seen
        await toolkit.call("browser", {"action": "close"}, run=runs[0])
        deadline = loop.time() + 5
        while _renderers(manager.pids()) != len(runs) - 1 and loop.time() < deadline:
            await asyncio.sleep(0.05)
        assert _renderers(manager.pids()) == len(runs) - 1
