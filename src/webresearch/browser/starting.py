"""What a backend's start says: its progress line, its name in messages, and the error of a
start that ran out of the call's time; and the temporary directory of the library's driver.

A start (launch, connect over CDP, check request interception) is bounded by the call's
time budget (:meth:`~.backend.PlaywrightBackend.start`): a hung browser would otherwise hold
the tool call past it. The error names the step that did not finish and the next step.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..errors import Timeout

__all__ = ["backend_name", "driver_tmpdir", "start_timeout"]

#: Each backend's name in messages ("starting Chromium").
_NAMES = {"chromium": "Chromium", "lightpanda": "Lightpanda", "cdp": "the remote browser"}
#: Backends whose process we launch (and end when their start is abandoned).
_LAUNCHED = ("chromium", "lightpanda")


def backend_name(kind: str) -> str:
    """``chromium`` → ``"Chromium"``; ``cdp`` → ``"the remote browser"``."""
    return _NAMES.get(kind, "the browser")


def start_timeout(kind: str, stage: str, timeout_s: float) -> Timeout:
    """The error of a start of backend ``kind`` abandoned after ``timeout_s`` seconds while
    it was ``stage`` (e.g. "launching Chromium (waiting for its DevTools port)")."""
    launched = kind in _LAUNCHED
    ended = "; the browser was ended" if launched else ""
    where = (
        "check the browser_backend and chromium_path settings, or try the other backend"
        if launched
        else "check that the browser at browser_cdp_url answers"
    )
    return Timeout(
        f"starting {backend_name(kind)} did not finish within {timeout_s:g} s (the call's "
        f"time budget): {stage} did not finish{ended}",
        hint="call again with a larger timeout_ms (a first start can take several seconds "
        f"on a busy machine); if it hangs again, {where}",
    )


@contextlib.contextmanager
def driver_tmpdir(path: Path) -> Iterator[None]:
    """``TMPDIR`` is ``path`` while the Playwright driver is spawned (it copies this
    process's environment; its ``playwright-artifacts-*`` then land in our run directory).
    The process's own temporary directory is fixed first, so nothing of ours moves there."""
    tempfile.gettempdir()
    previous = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(path)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = previous
