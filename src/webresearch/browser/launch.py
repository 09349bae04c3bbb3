"""Launching a local browser process that can never outlive us (SPEC §1.4).

A launched browser (Chromium or Lightpanda) runs under a tiny ``/bin/sh`` keeper:

* the keeper is started with ``setsid`` (a new session and process group whose id is the
  keeper's pid), so the browser and every helper it forks (zygotes, renderers, GPU and
  crash-handler processes) share one process group that we end with ``killpg``;
* the keeper has ``PR_SET_PDEATHSIG = SIGTERM`` (Linux ``prctl(2)``), so when our process
  dies — even by SIGKILL, when no Python code runs — the kernel sends it SIGTERM, and its
  trap kills the whole group (``kill -KILL 0``). The browser binary itself cannot be given
  the death signal reliably (Chromium's zygotes are forked by Chromium, not by us), which is
  why the keeper exists;
* :meth:`LaunchedProcess.aclose` sends SIGTERM to the group, waits briefly, then SIGKILL.

The keeper is spawned from the event-loop thread: ``PR_SET_PDEATHSIG`` fires when the
*thread* that forked the child ends, so spawning from a short-lived worker thread would kill
the browser early.

Nothing here imports the browser library; :mod:`.backend` connects to the process. The
command lines are :mod:`.launch_args`'; the directory a browser writes to is :mod:`.tempdirs`'.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BrowserError
from ..runtime.waiting import wait_within
from .launch_args import PROXY_ENV

__all__ = [
    "LaunchedProcess",
    "group_pids",
    "launch",
    "process_tree_rss_bytes",
    "wait_for_devtools_port",
    "wait_for_port",
]

#: Seconds to wait for a launched browser to accept CDP connections.
STARTUP_TIMEOUT_S = 20.0
#: Seconds between SIGTERM and SIGKILL of the process group on close.
TERM_GRACE_S = 2.0
#: Seconds between two looks at a closing process group.
GROUP_POLL_S = 0.02

_PR_SET_PDEATHSIG = 1

#: The keeper: traps TERM/HUP/INT (our death signal, or our own close) and kills the whole
#: process group; otherwise waits for the browser and exits with it.
_KEEPER = 'trap "kill -KILL 0" TERM HUP INT; "$@" & wait $!; kill -KILL 0'


def _set_pdeathsig() -> None:  # runs in the child between fork and exec
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


@dataclass
class LaunchedProcess:
    """A browser running under its keeper in its own process group.

    Attributes:
        pgid: the process group id (== the keeper's pid).
        process: the keeper process.
        marker: a path on the browser's command line (its profile directory) by which its
            helpers that left the process group are found, or ``None``.
    """

    pgid: int
    process: asyncio.subprocess.Process
    marker: str | None = None
    _closed: bool = field(default=False, repr=False)

    @property
    def alive(self) -> bool:
        """True while the keeper (and so the browser) runs."""
        return self.process.returncode is None

    def pids(self) -> list[int]:
        """Every live pid in the process group (the keeper, the browser, its helpers)."""
        return group_pids(self.pgid)

    async def aclose(self) -> None:
        """End the browser and return only once every one of its processes is gone.

        SIGTERM to the process group, wait (at most :data:`TERM_GRACE_S`) until no live
        process is left in it, then SIGKILL the group and wait again. Helpers that left the
        group (Chromium's crash handlers start their own session) are found by the profile
        directory on their command line, before anything is signalled, and ended by pid
        with the group. Idempotent.
        """
        if self._closed:
            return
        self._closed = True
        escaped = self._escaped()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signal.SIGTERM)
        for pid in escaped:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGTERM)
        if not await self._wait_gone(escaped, TERM_GRACE_S):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pgid, signal.SIGKILL)
            for pid in escaped:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            await self._wait_gone(escaped, TERM_GRACE_S)

    def _escaped(self) -> list[int]:
        """Live pids outside the group whose command line names :attr:`marker` (this
        browser's profile directory)."""
        if not self.marker:
            return []
        marker = self.marker.encode()
        group = set(group_pids(self.pgid))
        out = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) in group:
                continue
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if marker in cmdline and _alive(int(entry)):
                out.append(int(entry))
        return out

    async def _wait_gone(self, escaped: Sequence[int], timeout_s: float) -> bool:
        """Wait until the keeper is reaped and no live process of the group or of
        ``escaped`` is left; False when ``timeout_s`` passed first."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        with contextlib.suppress(TimeoutError, asyncio.TimeoutError):
            await wait_within(self.process.wait(), timeout_s)
        while group_pids(self.pgid) or any(_alive(pid) for pid in escaped):
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(GROUP_POLL_S)
        return True


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (not gone, not a zombie)."""
    stat = _read_stat(pid)
    return stat is not None and stat[0] != "Z"


async def launch(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    marker: str | None = None,
) -> LaunchedProcess:
    """Start ``argv`` under the keeper, in a new process group that dies with us.

    Args:
        argv: the browser command line.
        env: extra environment variables for the browser (proxy variables of our own
            environment, :data:`PROXY_ENV`, are never passed on).
        marker: see :attr:`LaunchedProcess.marker`.

    Raises:
        BrowserError: the process could not be started.
    """
    child_env = {k: v for k, v in os.environ.items() if k not in PROXY_ENV}
    child_env.update(env or {})
    try:
        # Shielded: a cancellation (Ctrl-C) that lands while the process starts must not
        # lose it — the browser is then ended here, not left running (newcomer review).
        spawn = asyncio.ensure_future(_spawn(argv, child_env))
        try:
            process = await asyncio.shield(spawn)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                started = await spawn
                await LaunchedProcess(pgid=started.pid, process=started, marker=marker).aclose()
            raise
    except OSError as exc:
        raise BrowserError(
            f"could not start the browser ({Path(argv[0]).name}): {exc.strerror}"
        ) from None
    return LaunchedProcess(pgid=process.pid, process=process, marker=marker)


async def _spawn(argv: Sequence[str], child_env: Mapping[str, str]) -> asyncio.subprocess.Process:
    """The keeper shell running ``argv`` in a new session that dies with us."""
    return await asyncio.create_subprocess_exec(
        "/bin/sh",
        "-c",
        _KEEPER,
        "webresearch-browser",
        *argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=child_env,
        start_new_session=True,
        preexec_fn=_set_pdeathsig,
    )


def group_pids(pgid: int) -> list[int]:
    """Live (non-zombie) pids whose process group is ``pgid`` (read from ``/proc``)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        stat = _read_stat(int(entry))
        if stat is not None and stat[1] == pgid and stat[0] != "Z":
            out.append(int(entry))
    return out


def process_tree_rss_bytes(pids: Sequence[int]) -> int:
    """Sum of resident memory (bytes) of ``pids`` (``/proc/<pid>/statm``; gone pids count 0)."""
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/statm") as fh:
                total += int(fh.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            continue
    return total


def _read_stat(pid: int) -> tuple[str, int] | None:
    """(state, pgid) of ``pid`` from ``/proc/<pid>/stat``, or ``None`` when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            data = fh.read()
    except OSError:
        return None
    # The command name is in parentheses and may hold spaces: split after the last ')'.
    fields = data[data.rfind(")") + 2 :].split()
    try:
        return fields[0], int(fields[2])
    except (IndexError, ValueError):
        return None


async def wait_for_devtools_port(
    user_data_dir: str, process: LaunchedProcess, timeout_s: float = STARTUP_TIMEOUT_S
) -> tuple[int, str]:
    """Chromium's CDP port and browser websocket path, from ``<profile>/DevToolsActivePort``.

    Chromium writes that file once its CDP server listens (first line the port, second the
    ``/devtools/browser/<id>`` path); reading it avoids parsing stderr.

    Raises:
        BrowserError: the browser exited or did not start within ``timeout_s``.
    """
    path = Path(user_data_dir) / "DevToolsActivePort"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while loop.time() < deadline:
        if not process.alive:
            raise BrowserError("the browser exited during start-up", retryable=True)
        with contextlib.suppress(OSError, ValueError, IndexError):
            lines = path.read_text().splitlines()
            if len(lines) >= 2:
                return int(lines[0]), lines[1]
        await asyncio.sleep(0.01)
    raise BrowserError(f"the browser did not start within {timeout_s:g} s", retryable=True)


async def wait_for_port(
    port: int, process: LaunchedProcess, timeout_s: float = STARTUP_TIMEOUT_S
) -> None:
    """Wait until something accepts TCP connections on 127.0.0.1:``port``.

    Raises:
        BrowserError: the browser exited or did not listen within ``timeout_s``.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    while loop.time() < deadline:
        if not process.alive:
            raise BrowserError("the browser exited during start-up", retryable=True)
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.005)
            continue
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
        return
    raise BrowserError(f"the browser did not start within {timeout_s:g} s", retryable=True)
