"""Browser launches leave nothing in the temporary directory (issue 15; the shared
reproduction ``security/tmp-leak``: every Chromium launch left an empty
``org.chromium.Chromium.*``, a SIGKILLed CLI its ``playwright-artifacts-*``).

Twenty launches of the CLI, both backends, ended every way (normal close, SIGTERM, SIGKILL),
two at a time, with a private ``TMPDIR``: afterwards it holds nothing at all. What a SIGKILLed
run could not remove is removed by the next launch (its owner is gone), so the last launch
of the plan ends normally.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.cli_runs import cli_env, processes_mentioning, sigint_default, wait_for
from tests.support.http_server import LocalServer, Route

PAGE = (
    b"<html><head><title>Temp</title></head><body><p>Temporary directory check.</p></body></html>"
)

#: (backend, how the run ends), in order; two run at a time (one per backend). The last pair
#: ends normally: 8 normal closes, 6 SIGTERMs, 6 SIGKILLs.
PLAN = [
    (backend, end)
    for end in ("sigkill", "close", "sigterm") * 3 + ("close",)
    for backend in ("chromium", "lightpanda")
]


def _launch(base: str, tmp: Path, backend: str, end: str, marker: str) -> None:
    """One CLI run on ``backend`` ended by ``end``."""
    action = "content" if end == "close" else "wait 30000"
    proc = subprocess.Popen(
        [sys.executable, "-m", "webresearch", "browse", f"{base}/?{marker}",
         "--backend", backend, "--allow-network", "127.0.0.1/32", "--do", action],
        env=cli_env(tmp),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: ours to end, by PID
        preexec_fn=sigint_default,  # SIGINT at its default, whatever ours is
    )  # fmt: skip
    try:
        if end == "close":
            _, err = proc.communicate(timeout=90)
            assert proc.returncode == 0, err.decode()[-500:]
            return
        # The page was served: the browser runs, the wait has begun.
        if not wait_for(lambda: marker in _served(base) or proc.poll() is not None, 60.0):
            os.killpg(proc.pid, signal.SIGKILL)
        assert proc.poll() is None, (
            backend,
            end,
            marker,
            proc.communicate(timeout=10)[1].decode()[-800:],
        )
        os.kill(proc.pid, signal.SIGTERM if end == "sigterm" else signal.SIGKILL)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


_SERVERS: dict[str, LocalServer] = {}


def _served(base: str) -> str:
    return " ".join(entry.path for entry in _SERVERS[base].log)


@pytest.fixture
def private_tmpdir() -> Iterator[Path]:
    """A fresh, short TMPDIR (a long one would give Chromium /tmp instead: see
    ``tempdirs.chromium_temp_root``)."""
    path = Path(tempfile.mkdtemp(prefix="wr-leak-", dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_twenty_launches_ended_every_way_leave_nothing_in_tmpdir(private_tmpdir: Path) -> None:
    tmp_path = private_tmpdir
    assert len(PLAN) == 20 and PLAN[-1][1] == PLAN[-2][1] == "close"
    with LocalServer({"/": Route(headers=[("Content-Type", "text/html")], body=PAGE)}) as site:
        _SERVERS[site.base] = site
        try:
            with ThreadPoolExecutor(max_workers=2) as pool:
                for first in range(0, len(PLAN), 2):
                    runs = [
                        pool.submit(_launch, site.base, tmp_path, backend, end, f"run{i}")
                        for i, (backend, end) in enumerate(PLAN[first : first + 2], first)
                    ]
                    for run in runs:
                        run.result()
        finally:
            del _SERVERS[site.base]
    # No browser, keeper or driver of these runs survives them …
    assert wait_for(lambda: not processes_mentioning(str(tmp_path), environment=True), 15.0)
    # … and nothing of theirs is left: no run directory, no org.chromium.Chromium.*, no
    # playwright-artifacts-*.
    assert sorted(os.listdir(tmp_path)) == []


@pytest.mark.parametrize("backend", ["chromium", "lightpanda"])
def test_a_browse_leaves_nothing_in_the_users_home(private_tmpdir: Path, backend: str) -> None:
    # Chromium used to leave ~/.config/chromium/Crash Reports and ~/.cache/dconf behind.
    home = private_tmpdir / "home"
    home.mkdir()
    env = {**cli_env(private_tmpdir), "HOME": str(home)}
    for name in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        env.pop(name, None)
    with LocalServer({"/": Route(headers=[("Content-Type", "text/html")], body=PAGE)}) as site:
        done = subprocess.run(
            [sys.executable, "-m", "webresearch", "browse", f"{site.base}/",
             "--backend", backend, "--allow-network", "127.0.0.1/32", "--do", "content"],
            env=env, capture_output=True, timeout=120, check=False, preexec_fn=sigint_default,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode()[-800:]
    assert b"Temporary directory check." in done.stdout
    assert sorted(str(p.relative_to(home)) for p in home.rglob("*")) == []
