"""What a stop signal leaves on stderr, and an inherited "ignore SIGINT" (session 10 review,
faults 8 and 16). Local only: the pages are served on 127.0.0.1.

8: a SIGTERM or Ctrl-C while a command ran wrote an empty line before ``webresearch:
terminated`` (click's ``main`` echoes one for a ``KeyboardInterrupt``); with
``--log-format json`` that empty line landed in the JSON-lines stream.

16: a job started in the background by a script (``cmd &``: the shell sets SIGINT to
ignored) died on Ctrl-C, as the console script installed its own SIGINT handler over the
inherited ``SIG_IGN``; Python itself keeps an ignored SIGINT ignored.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.support.cli_runs import cli_env, reap, sigint_default
from tests.support.http_server import LocalServer

#: The two ways the command starts: the console script's function, and ``python -m``.
STARTS = {
    "console script": ["-c", "import sys; from webresearch_entry import main; sys.exit(main())"],
    "python -m": ["-m", "webresearch"],
}

PAGE = b"<html><head><title>Late</title></head><body><p>The late page is here.</p></body></html>"


def _slow(asked: threading.Event, answer_after_s: float | None) -> Callable[..., None]:
    """A handler that says it was asked, then answers after ``answer_after_s`` (never when
    ``None``: the connection is held for 30 s)."""

    def handler(h: BaseHTTPRequestHandler) -> None:
        asked.set()
        if answer_after_s is None:
            time.sleep(30)
            return
        time.sleep(answer_after_s)
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.send_header("Content-Length", str(len(PAGE)))
        h.end_headers()
        h.wfile.write(PAGE)

    return handler


def _fetch(
    start: list[str], url: str, tmp: Path, *extra: str, ignore_sigint: bool = False
) -> subprocess.Popen[bytes]:
    def ignore() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # as a shell does for `cmd &`

    # SIGINT at its default unless the test ignores it, whatever ours is (a suite run as a
    # background job ignores it).
    return subprocess.Popen(
        [sys.executable, *start, "fetch", url, "--allow-network", "127.0.0.1/32", *extra],
        env=cli_env(tmp),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: ours to end, by PID
        preexec_fn=ignore if ignore_sigint else sigint_default,
    )


@pytest.mark.parametrize("start", list(STARTS.values()), ids=list(STARTS))
@pytest.mark.parametrize(
    ("signum", "code", "word"),
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
)
@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_stop_signal_writes_only_its_one_line(
    start: list[str], signum: int, code: int, word: str, log_format: str, tmp_path: Path
) -> None:
    asked = threading.Event()
    with LocalServer({"/never": _slow(asked, None)}) as site:
        proc = _fetch(start, f"{site.base}/never", tmp_path, "--log-format", log_format)
        try:
            assert asked.wait(30), "the page was never asked for"
            time.sleep(0.3)
            proc.send_signal(signum)
            _, err = proc.communicate(timeout=30)
        finally:
            reap(proc)
    text = err.decode()
    assert proc.returncode == code, text
    if log_format == "text":
        assert text == f"webresearch: {word}\n"
    else:
        lines = text.splitlines()
        assert lines and all(line.strip() for line in lines), repr(text)  # no blank line
        records = [json.loads(line) for line in lines]
        assert word in records[-1]["message"], text


@pytest.mark.parametrize("start", list(STARTS.values()), ids=list(STARTS))
def test_an_inherited_ignored_sigint_stays_ignored(start: list[str], tmp_path: Path) -> None:
    asked = threading.Event()
    with LocalServer({"/late": _slow(asked, 1.5)}) as site:
        proc = _fetch(start, f"{site.base}/late", tmp_path, ignore_sigint=True)
        try:
            assert asked.wait(30), "the page was never asked for"
            proc.send_signal(signal.SIGINT)
            time.sleep(0.3)
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        finally:
            reap(proc)
    assert proc.returncode == 0, err.decode()
    assert "The late page is here." in out.decode()
    assert "interrupted" not in err.decode()


@pytest.mark.parametrize("start", list(STARTS.values()), ids=list(STARTS))
def test_with_sigint_ignored_sigterm_still_stops_the_command(
    start: list[str], tmp_path: Path
) -> None:
    asked = threading.Event()
    with LocalServer({"/never": _slow(asked, None)}) as site:
        proc = _fetch(start, f"{site.base}/never", tmp_path, ignore_sigint=True)
        try:
            assert asked.wait(30), "the page was never asked for"
            proc.send_signal(signal.SIGINT)
            time.sleep(1.0)
            assert proc.poll() is None, "SIGINT stopped it"
            os.kill(proc.pid, signal.SIGTERM)
            _, err = proc.communicate(timeout=30)
        finally:
            reap(proc)
    assert (proc.returncode, err.decode()) == (143, "webresearch: terminated\n")
