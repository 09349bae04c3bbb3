"""A command stopped by SIGTERM or Ctrl-C releases what it opened and exits 143 / 130.

Before the fix SIGTERM killed the process at once (exit 143 from the default action): a
launched Chromium's profile directory stayed in the temporary directory, one per stopped
run; Ctrl-C printed click's "Aborted!" and exited 1.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import Client

from tests.support.cli_runs import (
    cli_env,
    processes_mentioning,
    reap,
    sigint_default,
    wait_for,
)
from tests.support.http_server import LocalServer, Route

PAGE = b"<html><head><title>Still here</title></head><body><p>Waiting page.</p></body></html>"


@pytest.mark.parametrize(
    ("signum", "code", "word"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
)
def test_a_browse_stopped_by_a_signal_closes_the_browser_and_removes_its_profile(
    signum: int, code: int, word: str, tmp_path: Path
) -> None:
    with LocalServer({"/": Route(headers=[("Content-Type", "text/html")], body=PAGE)}) as site:
        proc = subprocess.Popen(
            [sys.executable, "-m", "webresearch", "browse", f"{site.base}/",
             "--allow-network", "127.0.0.1/32", "--do", "wait 30000"],
            env=cli_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: ours to end, by PID
            preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
        )  # fmt: skip
        try:
            # The page was read once the browser has fetched it; then the wait runs.
            assert wait_for(lambda: site.count("/") >= 1, 30.0), "the browser never opened"
            assert list(tmp_path.glob("webresearch-browser-*")), "no profile directory"
            time.sleep(0.5)
            os.kill(proc.pid, signum)
            _, err = proc.communicate(timeout=30)
        finally:
            reap(proc)
    assert proc.returncode == code, err
    assert word in err.decode()
    assert "Traceback" not in err.decode()
    assert list(tmp_path.glob("webresearch-browser-*")) == []
    # No browser process of the run survives it.
    assert processes_mentioning(str(tmp_path)) == []


@pytest.mark.parametrize(
    ("moment", "signum", "code", "word"),
    [
        # As the open action returned: Python 3.11's asyncio.wait_for around the action gave
        # its result back and dropped the cancellation; the next action ran to its end and
        # the command exited 0 with nothing on stderr (the CI failure of the test above).
        ("returned:webresearch.browser.page:PlaywrightSession.open", "SIGINT", 130, "interrupted"),
        # In a weakref callback while the loop runs: the Terminated raised there was only
        # printed ("Exception ignored"), the command went on and exited 0.
        ("weakref:40", "SIGTERM", 143, "terminated"),
        # As the tab closed at the end: the cancellation cut the close, the browser's
        # processes and its profile directory were left (one in ~20 signals in the close).
        (
            "returned:webresearch.browser.page:PlaywrightSession.aclose",
            "SIGINT",
            130,
            "interrupted",
        ),
        # While the commands load: a KeyboardInterrupt traceback from an import, exit -2.
        ("loading", "SIGINT", 130, "interrupted"),
        # As the browser's process started (newcomer review): the cancellation landed inside
        # asyncio.create_subprocess_exec, the process was never recorded, and the browser
        # ran on after the command ended.
        ("spawning", "SIGINT", 130, "interrupted"),
    ],
)
def test_a_signal_at_an_exact_moment_still_stops_the_browse(
    moment: str, signum: str, code: int, word: str, tmp_path: Path
) -> None:
    with LocalServer({"/": Route(headers=[("Content-Type", "text/html")], body=PAGE)}) as site:
        proc = subprocess.run(
            [sys.executable, "-m", "tests.support.signal_at", moment, signum, "browse",
             f"{site.base}/", "--allow-network", "127.0.0.1/32", "--do", "wait 3000"],
            env=cli_env(tmp_path),
            capture_output=True,
            timeout=60,
            preexec_fn=sigint_default,
        )  # fmt: skip
    err = proc.stderr.decode()
    assert proc.returncode == code, err
    assert err.strip().splitlines()[-1:] == [f"webresearch: {word}"], err
    if "aclose" not in moment:  # (a browse stopped as it closes has run its wait)
        assert "waited" not in proc.stdout.decode()  # the next action did not run
    assert list(tmp_path.glob("webresearch-browser-*")) == []
    assert processes_mentioning(str(tmp_path)) == []


def _mcp(tmp: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "webresearch", "mcp", *args],
        env=cli_env(tmp),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
    )


def _stop(proc: subprocess.Popen[bytes], signum: int) -> tuple[int, str]:
    """Signal the server and wait for it with its stdin still open (``communicate`` would
    close it: the client's EOF, not the signal, then ended the server)."""
    assert proc.stderr is not None
    os.kill(proc.pid, signum)
    try:
        proc.wait(timeout=20)
        err = proc.stderr.read()
    finally:
        reap(proc)
    return proc.returncode, err.decode()


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_an_mcp_stdio_server_stops_at_once_with_its_client_still_connected(
    signum: int, code: int, tmp_path: Path
) -> None:
    # Before: SIGTERM was swallowed and the server ran on until the client closed stdin,
    # then exited 0.
    proc = _mcp(tmp_path)
    assert proc.stdin is not None and proc.stdout is not None
    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "signal-test", "version": "1"},
        },
    }
    proc.stdin.write((json.dumps(hello) + "\n").encode())
    proc.stdin.flush()
    assert b'"result"' in proc.stdout.readline()  # serving; stdin stays open
    started = time.monotonic()
    returncode, err = _stop(proc, signum)
    assert returncode == code, err
    assert time.monotonic() - started < 15
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("signum", "code", "line"),
    [
        (signal.SIGTERM, 143, "webresearch: terminated"),
        (signal.SIGINT, 130, "webresearch: interrupted"),
    ],
)
async def test_an_mcp_http_server_stops_with_exactly_one_line(
    signum: int, code: int, line: str, tmp_path: Path
) -> None:
    # Before: uvicorn's lifespan reported the CancelledError with a traceback (12 lines) on
    # every SIGTERM and Ctrl-C (shared/security/mcp-sigterm). Here a client is connected
    # and a call is in flight (a page that never answers) when the signal comes.
    asked = threading.Event()

    def never(h: BaseHTTPRequestHandler) -> None:
        asked.set()
        time.sleep(30)

    with LocalServer({"/never": never}) as site:
        env = {**cli_env(tmp_path), "WEBRESEARCH_ALLOWED_NETWORKS": "127.0.0.0/8"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "webresearch", "mcp", "--http", "127.0.0.1:0"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
        )
        try:
            assert proc.stderr is not None
            first = proc.stderr.readline().decode()
            assert "listening on" in first, first
            url = first.split("listening on ", 1)[1].split()[0]
            async with Client(url, mode="legacy") as client:
                answers: list[str] = []

                async def call() -> None:
                    result = await client.call_tool("web_fetch", {"url": f"{site.base}/never"})
                    first = result.content[0]
                    answers.append(first.text if isinstance(first, types.TextContent) else "")

                async with anyio.create_task_group() as tg:
                    tg.start_soon(call)
                    assert await anyio.to_thread.run_sync(asked.wait, 30.0)
                    os.kill(proc.pid, signum)
                    returncode = await anyio.to_thread.run_sync(lambda: proc.wait(timeout=30))
            # The call in flight was answered before the session closed (not left hanging).
            assert answers and answers[0].startswith(
                "error[tool_unavailable]: the MCP server is shutting down"
            )
            rest = proc.stderr.read().decode()
        finally:
            reap(proc)
    assert returncode == code, rest
    assert rest.splitlines() == [line], rest
