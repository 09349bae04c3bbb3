"""A command stopped by SIGTERM or Ctrl-C releases what it opened and exits 143 / 130.

Before the fix SIGTERM killed the process at once (exit 143 from the default action): a
launched Chromium's profile directory stayed in the temporary directory, one per stopped
run; Ctrl-C printed click's "Aborted!" and exited 1.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.http_server import LocalServer, Route

ROOT = Path(__file__).resolve().parents[2]
PAGE = b"<html><head><title>Still here</title></head><body><p>Waiting page.</p></body></html>"


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEBRESEARCH_")}
    env.update(
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        TMPDIR=str(tmp),  # the browser's profile directory is created here
        WEBRESEARCH_JOURNAL_URL="memory://",
    )
    return env


def _wait_for(predicate: Callable[[], bool], timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def _processes_mentioning(text: str) -> list[int]:
    """PIDs whose command line contains ``text`` (the browser is started with its profile)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


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
            env=_env(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: ours to end, by PID
        )  # fmt: skip
        try:
            # The page was read once the browser has fetched it; then the wait runs.
            assert _wait_for(lambda: site.count("/") >= 1, 30.0), "the browser never opened"
            assert list(tmp_path.glob("webresearch-chromium-*")), "no profile directory"
            time.sleep(0.5)
            os.kill(proc.pid, signum)
            _, err = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
    assert proc.returncode == code, err
    assert word in err.decode()
    assert "Traceback" not in err.decode()
    assert list(tmp_path.glob("webresearch-chromium-*")) == []
    # No browser process of the run survives it.
    assert _processes_mentioning(str(tmp_path)) == []
