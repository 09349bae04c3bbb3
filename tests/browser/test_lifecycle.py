"""Acceptance: no browser or driver process survives close, idle expiry, or a SIGKILL of the
tool's process; 20 abandoned sessions leave nothing behind (both backends)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.browser.conftest import BACKENDS, Sites, browser_settings
from webresearch import RunContext, Toolkit
from webresearch.browser import manager
from webresearch.browser.launch import group_pids
from webresearch.runtime.journal import MemoryJournal

pytestmark = pytest.mark.asyncio(loop_scope="session")

SRC = Path(__file__).parents[2] / "src"


def _live(pid: int) -> bool:
    try:
        data = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return data[data.rfind(")") + 2 :].split()[0] != "Z"


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            data = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(data[data.rfind(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, stack = [], [root]
    while stack:
        for child in children.get(stack.pop(), []):
            out.append(child)
            stack.append(child)
    return out


def _cmdlines(pids: list[int]) -> dict[int, str]:
    """``pid`` → its command line (its first 200 characters), for a failure's message."""
    out = {}
    for pid in pids:
        try:
            raw = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        out[pid] = raw.replace(b"\0", b" ").decode(errors="replace")[:200]
    return out


async def _wait_gone(pids: list[int], timeout_s: float = 15.0) -> list[int]:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        alive = [p for p in pids if _live(p)]
        if not alive:
            return []
        await asyncio.sleep(0.1)
    return [p for p in pids if _live(p)]


@pytest.mark.parametrize("backend", BACKENDS)
async def test_twenty_abandoned_sessions_expire_and_close_leaves_no_process(
    backend: str, sites: Sites
) -> None:
    now = [1000.0]
    toolkit = Toolkit(browser_settings(backend, browser_max_sessions=12), clock=lambda: now[0])
    manager = toolkit.services.browser
    try:
        for i in range(12):
            result = await toolkit.call(
                "browser",
                {"action": "open", "url": f"{sites.site.base}/plain"},
                run=RunContext(run_id=f"a{i}"),
            )
            assert result.ok, result.text
        pids = manager.pids()
        assert pids, "the launched browser's process group is known"
        refused = await toolkit.call(
            "browser",
            {"action": "open", "url": f"{sites.site.base}/plain"},
            run=RunContext(run_id="over"),
        )
        assert refused.error is not None and "too many open browser sessions" in refused.text
        now[0] += 601  # every session idles past 10 minutes
        for i in range(8):
            result = await toolkit.call(
                "browser",
                {"action": "open", "url": f"{sites.site.base}/plain"},
                run=RunContext(run_id=f"b{i}"),
            )
            assert result.ok, result.text
        assert len(manager.table) == 8, "the 12 idle sessions were closed at the next call"
        journal = toolkit.journal
        assert isinstance(journal, MemoryJournal)
        expired = await journal.query(kind="browser.sessions_expired")
        assert expired and expired[0].details["count"] == 12
        # A dialog-heavy page in one of them still leaves nothing wedged.
        run = RunContext(run_id="b0")
        await toolkit.call(
            "browser", {"action": "open", "url": f"{sites.site.base}/dialogs"}, run=run
        )
        assert (
            await toolkit.call("browser", {"action": "click", "selector": "#confirm"}, run=run)
        ).ok
        assert (await toolkit.call("browser", {"action": "snapshot"}, run=run)).ok
        pids = sorted(set(pids) | set(manager.pids()))
    finally:
        await toolkit.aclose()
    assert await _wait_gone(pids, 10.0) == []


CHILD = """
import asyncio, json, sys
from webresearch import RunContext, Settings, Toolkit

async def main() -> None:
    settings = Settings.load(environ={}, allowed_networks=["127.0.0.1/32"], journal_url="memory://",
                             browser_backend=sys.argv[1])
    toolkit = Toolkit(settings)
    result = await toolkit.call("browser", {"action": "open", "url": sys.argv[2]}, run=RunContext())
    assert result.ok, result.text
    print(json.dumps({"pids": toolkit.services.browser.pids()}), flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


@pytest.mark.parametrize("backend", BACKENDS)
async def test_sigkill_of_the_tool_process_leaves_no_browser_or_driver(
    backend: str, sites: Sites
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, backend, f"{sites.site.base}/plain"],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )
    try:
        assert child.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(child.stdout.readline), 60)
        browser_pids = json.loads(line)["pids"]
        assert browser_pids
        everything = sorted(set(browser_pids) | set(_descendants(child.pid)))
        pgid = os.getpgid(browser_pids[0])
        assert pgid != os.getpgid(0), "the browser runs in its own process group"
        assert any(
            "node" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")
            for p in everything
            if _live(p)
        ), "the Playwright driver is among the children"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
        survivors = await _wait_gone(everything)
        assert survivors == [], f"outlived their parent: {_cmdlines(survivors)}"
        assert group_pids(pgid) == []
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()


async def test_a_start_that_hangs_is_bounded_by_the_calls_budget_and_ended(
    tmp_path: Path, sites: Sites, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Second review (session 8): the browser start was not bounded by the call's timeout —
    a browser that never opened its DevTools port held the call for the launch's own 20 s
    (and a connect or probe that hung, longer). The start now ends with the call's budget,
    names the step that hung, and the launched process group is ended."""
    pid_file = tmp_path / "pid"
    fake = tmp_path / "chromium"
    fake.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 600\n")
    fake.chmod(0o755)
    monkeypatch.setattr(manager, "MIN_START_S", 1.0)  # the test's budget then bounds it
    toolkit = Toolkit(browser_settings("chromium", chromium_path=str(fake)))
    try:
        started = time.monotonic()
        result = await toolkit.call(
            "browser",
            {"action": "open", "url": f"{sites.site.base}/plain", "timeout_ms": 1500},
            run=RunContext(),
        )
        elapsed = time.monotonic() - started
        assert result.error is not None and result.error.code == "timeout", result.text
        assert result.error.message == (
            "starting Chromium did not finish within 1.5 s (the call's time budget): launching "
            "Chromium (waiting for its DevTools port) did not finish; the browser was ended"
        )
        assert "larger timeout_ms" in result.text
        assert elapsed < 1.5 + 6, f"the call took {elapsed:.1f} s"
        pid = int(pid_file.read_text())
        assert not _live(pid), "the hung browser was left running"
        assert toolkit.services.browser.pids() == []
    finally:
        await toolkit.aclose()
