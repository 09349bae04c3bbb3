"""``webresearch mcp`` stopped by a signal sent to its whole process group — a terminal's
Ctrl-C, ``kill -TERM -PGID``, a service manager — exits with its one line and leaves no
process behind, whichever moment the signal meets.

The moment that mattered: the first call starts the CPU workers' forkserver, which imports
its preload (extraction, numpy, bm25s: one to three seconds). Before the fix a Ctrl-C to
the group in that window printed the forkserver's ``KeyboardInterrupt`` traceback (from
whatever it was importing) above the server's line, and the half-started pool leaked its
semaphores (``resource_tracker: There appear to be 2 leaked semaphore objects``); a SIGTERM
there logged ``the CPU worker pool did not start:`` with no reason. Later, about one run in
five of this file under three pytest-xdist workers printed a starting worker's
``FileNotFoundError`` from ``SemLock._rebuild`` instead: pebble unlinks the stopped pool's
semaphores before it terminates the worker still unpickling them (runtime/cpu_forkserver.py;
reproduced deterministically in tests/unit/runtime/test_cpu_forkserver.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.support.cli_runs import (
    cli_env,
    command_line,
    descendants,
    processes_mentioning,
    reap,
    running,
    sigint_default,
    wait_for,
)
from tests.support.http_server import LocalServer

HELLO = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "group-signal-test", "version": "1"},
    },
}

STOPS = [
    (signal.SIGINT, 130, "webresearch: interrupted"),
    (signal.SIGTERM, 143, "webresearch: terminated"),
]


@pytest.fixture
def slow_site() -> Iterator[tuple[LocalServer, threading.Event]]:
    """A page that answers only when the test ends (the call stays in its download while
    the CPU workers start), and the event set once it was asked for."""
    asked, done = threading.Event(), threading.Event()

    def slow(h: BaseHTTPRequestHandler) -> None:
        asked.set()
        done.wait(30)

    with LocalServer({"/slow": slow}) as site:
        yield site, asked
        done.set()


def _serve(tmp: Path, *args: str) -> subprocess.Popen[bytes]:
    env = {**cli_env(tmp), "WEBRESEARCH_ALLOWED_NETWORKS": "127.0.0.1/32"}
    return subprocess.Popen(
        [sys.executable, "-m", "webresearch", "mcp", *args],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: the test signals that group
        preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
    )


def _forkserver(pid: int, seen: set[int]) -> bool:
    """The server's CPU forkserver has been started (every descendant met is added to
    ``seen``)."""
    kids = descendants(pid)
    seen |= kids
    return any("multiprocessing.forkserver" in command_line(kid) for kid in kids)


def _signal_group_as_the_forkserver_loads(
    proc: subprocess.Popen[bytes], signum: int, seen: set[int]
) -> int:
    assert wait_for(lambda: _forkserver(proc.pid, seen), 30.0), "no forkserver started"
    os.killpg(proc.pid, signum)  # while it imports its preload (1-3 s)
    return proc.wait(timeout=30)


def _check_clean(
    proc: subprocess.Popen[bytes], err: str, code: int, line: str, seen: set[int], tmp: Path
) -> None:
    assert proc.returncode == code, err
    assert err.splitlines() == [line], err
    assert wait_for(lambda: not any(running(pid) for pid in seen), 10.0), [
        (pid, command_line(pid)) for pid in seen if running(pid)
    ]
    assert processes_mentioning(str(tmp), environment=True) == []


@pytest.mark.parametrize(("signum", "code", "line"), STOPS)
def test_a_stdio_server_signalled_as_a_group_while_its_workers_start_stops_cleanly(
    signum: int,
    code: int,
    line: str,
    tmp_path: Path,
    slow_site: tuple[LocalServer, threading.Event],
) -> None:
    site, asked = slow_site
    proc = _serve(tmp_path)
    seen: set[int] = set()
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write((json.dumps(HELLO) + "\n").encode())
        proc.stdin.flush()
        assert b'"result"' in proc.stdout.readline()
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "web_fetch", "arguments": {"url": f"{site.base}/slow"}},
        }
        for message in ({"jsonrpc": "2.0", "method": "notifications/initialized"}, call):
            proc.stdin.write((json.dumps(message) + "\n").encode())
        proc.stdin.flush()
        assert asked.wait(30), "the call never reached the page"
        _signal_group_as_the_forkserver_loads(proc, signum, seen)
        err = proc.stderr.read().decode()
    finally:
        reap(proc)
    _check_clean(proc, err, code, line, seen, tmp_path)


@pytest.mark.parametrize(("signum", "code", "line"), STOPS)
async def test_an_http_server_signalled_as_a_group_while_its_workers_start_stops_cleanly(
    signum: int,
    code: int,
    line: str,
    tmp_path: Path,
    slow_site: tuple[LocalServer, threading.Event],
) -> None:
    site, asked = slow_site
    proc = _serve(tmp_path, "--http", "127.0.0.1:0")
    seen: set[int] = set()
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline().decode()
        assert "listening on" in first, first
        url = first.split("listening on ", 1)[1].split()[0]
        async with Client(url, mode="legacy") as client:

            async def call() -> None:
                await client.call_tool("web_fetch", {"url": f"{site.base}/slow"})

            async with anyio.create_task_group() as tg:
                tg.start_soon(call)
                assert await anyio.to_thread.run_sync(asked.wait, 30.0)
                await anyio.to_thread.run_sync(
                    _signal_group_as_the_forkserver_loads, proc, signum, seen
                )
        err = proc.stderr.read().decode()
    finally:
        reap(proc)
    _check_clean(proc, err, code, line, seen, tmp_path)
