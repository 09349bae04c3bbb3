"""Jobs for CPU-pool tests: top-level functions, so worker processes import them by name.

Jobs that must be observed from the test (which worker runs them, whether they started)
write their process id to a marker file first.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from webresearch.extract.dispatch import Converted, convert

#: A URL path containing this makes :func:`convert_or_hang` never return.
HANG = "/hang"
#: A URL path containing this makes :func:`convert_or_wait_for_kill` report its pid and wait.
KILL_ME = "/kill-me"


def echo_pid(value: str) -> tuple[str, int]:
    """``value`` and the id of the process that ran the job."""
    return value, os.getpid()


def spin_forever(marker: str) -> None:
    """Writes its pid to ``marker``, then computes forever (pure Python: holds the GIL)."""
    Path(marker).write_text(str(os.getpid()))
    n = 0
    while True:
        n = (n * 31 + 7) % 1_000_003


def mark_and_return(marker: str, value: int) -> int:
    """Writes its pid to ``marker`` and returns ``value`` (did the job run at all?)."""
    Path(marker).write_text(str(os.getpid()))
    return value


def convert_or_hang(body: bytes, content_type: str | None, url: str) -> Converted:
    """web_fetch's conversion, except that it never ends for URLs containing ``/hang``."""
    if HANG in url:
        while True:
            time.sleep(0.05)
    return convert(body, content_type, url)


def convert_or_wait_for_kill(body: bytes, content_type: str | None, url: str) -> Converted:
    """web_fetch's conversion; for URLs containing ``/kill-me`` it writes its pid to the file
    named by the ``?marker=`` query and waits (the test kills the worker)."""
    if KILL_ME in url:
        marker = url.split("marker=", 1)[1]
        Path(marker).write_text(str(os.getpid()))
        while True:
            time.sleep(0.05)
    return convert(body, content_type, url)


def scheduling() -> tuple[int, int]:
    """(niceness, scheduling policy) of the process running the job."""
    return os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0)


def loaded(module: str) -> bool:
    """Whether ``module`` was imported in the process running the job."""
    return module in sys.modules
