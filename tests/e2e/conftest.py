"""The faces end to end: a page on 127.0.0.1, settings for child processes, a live HTTP server."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.cli_runs import sigint_default
from tests.support.http_server import LocalServer, Route

SRC = Path(__file__).resolve().parents[2] / "src"

#: The sentence the page holds (what a client must read back).
PAGE_SENTENCE = "The quick brown fox reads the whole article before it jumps."
PAGE = (
    "<html><head><title>Fox facts</title></head><body><article><h1>Fox facts</h1>"
    f"<p>{PAGE_SENTENCE}</p>"
    + "<p>Foxes are small omnivores of the dog family.</p>" * 20
    + "</article></body></html>"
).encode()

#: A 2025-11-25 ``initialize`` request (raw HTTP tests).
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}

#: Seconds a child process may take to start, and a whole e2e exchange to finish.
START_TIMEOUT_S = 30.0
EXCHANGE_TIMEOUT_S = 60.0


@pytest.fixture
def page_server() -> Iterator[LocalServer]:
    """``/page`` (an article), anything else 404."""
    with LocalServer() as srv:
        srv.routes["/page"] = Route(
            headers=[("Content-Type", "text/html; charset=utf-8")], body=PAGE
        )
        yield srv


@pytest.fixture
def child_env(tmp_path: Path) -> dict[str, str]:
    """Environment for a child ``python -m webresearch``: this worktree's code, loopback only.

    The journal is a SQLite file in ``tmp_path`` (never the user's own), and no proxy or
    outside configuration leaks in.
    """
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "HOME")}
    return {
        **keep,
        "PYTHONPATH": str(SRC),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "WEBRESEARCH_ALLOWED_NETWORKS": "127.0.0.0/8",
        "WEBRESEARCH_JOURNAL_URL": f"sqlite:///{tmp_path / 'journal.sqlite3'}",
        # No real search provider: the keyless default (ddgs) would leave the machine.
        "WEBRESEARCH_SEARCH_PROVIDER": "none",
    }


@dataclass
class ServerProcess:
    """A ``webresearch mcp --http`` child: its URL and everything it wrote to stderr."""

    process: subprocess.Popen[bytes]
    url: str
    stderr: list[str] = field(default_factory=list)
    drain: threading.Thread | None = None

    def stderr_text(self) -> str:
        return "".join(self.stderr)


def start_http_server(env: dict[str, str], *args: str, bind: str = "127.0.0.1:0") -> ServerProcess:
    """Start ``python -m webresearch mcp --http BIND ARGS`` and wait for its URL.

    Raises:
        AssertionError: the child exited or printed no URL within START_TIMEOUT_S.
    """
    process = subprocess.Popen(
        [sys.executable, "-m", "webresearch", "mcp", "--http", bind, *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
    )
    assert process.stderr is not None
    lines: list[str] = []
    deadline = time.monotonic() + START_TIMEOUT_S
    url = None
    try:
        while url is None:
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([process.stderr], [], [], max(0.0, remaining))
            if not ready:
                raise AssertionError(f"no URL within {START_TIMEOUT_S} s: {''.join(lines)}")
            line = process.stderr.readline().decode("utf-8", "replace")
            if not line:
                raise AssertionError(f"server exited ({process.wait()}): {''.join(lines)}")
            lines.append(line)
            if "listening on " in line:
                url = line.split("listening on ", 1)[1].split()[0]
    except BaseException:
        stop(process)
        raise
    server = ServerProcess(process, url, lines)
    server.drain = threading.Thread(target=_drain, args=(process, server.stderr), daemon=True)
    server.drain.start()
    return server


def _drain(process: subprocess.Popen[bytes], into: list[str]) -> None:
    assert process.stderr is not None
    for raw in process.stderr:
        into.append(raw.decode("utf-8", "replace"))


def stop(process: subprocess.Popen[bytes], drain: threading.Thread | None = None) -> None:
    """End the child we started, by its PID: SIGTERM, then SIGKILL after 10 s; close its pipe."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    if drain is not None:
        drain.join(timeout=10)  # the pipe reaches end-of-file once the child is gone
    if process.stderr is not None:
        process.stderr.close()
