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

Nothing here imports the browser library; :mod:`.backend` connects to the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BrowserError

__all__ = [
    "CHROMIUM_CANDIDATES",
    "PROXY_ENV",
    "LaunchedProcess",
    "chromium_args",
    "find_chromium",
    "find_lightpanda",
    "free_port",
    "group_pids",
    "launch",
    "lightpanda_args",
    "process_tree_rss_bytes",
    "proxy_args",
]

#: Where a Chromium is looked for when ``chromium_path`` is not set, in order. The Debian
#: launcher ``/usr/bin/chromium`` is a shell script that sources /etc/chromium.d (it exports
#: Google API keys and extra flags); the binary it execs is used directly.
CHROMIUM_CANDIDATES = (
    "/usr/lib/chromium/chromium",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
)

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


def find_chromium(explicit: str | None = None) -> str | None:
    """The Chromium binary to launch, or ``None`` when none is installed.

    Args:
        explicit: the ``chromium_path`` setting (used as is when set and executable).

    Order: ``explicit``, :data:`CHROMIUM_CANDIDATES`, ``chromium`` on ``PATH``, then a
    Playwright-managed Chromium when one is installed (``~/.cache/ms-playwright``).
    """
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    for candidate in CHROMIUM_CANDIDATES:
        if os.access(candidate, os.X_OK):
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    cache = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache/ms-playwright")
    for chrome in sorted(cache.glob("chromium-*/chrome-linux*/chrome"), reverse=True):
        if os.access(chrome, os.X_OK):
            return str(chrome)
    return None


def find_lightpanda() -> str | None:
    """The Lightpanda binary shipped by the ``lightpanda`` PyPI package, or ``None``."""
    try:
        from lightpanda.client import find_binary  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        return None
    try:
        return str(find_binary())
    except Exception:
        return None


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def chromium_args(
    binary: str,
    *,
    user_data_dir: str,
    viewport: tuple[int, int],
    no_sandbox: bool,
    proxy_url: str | None = None,
) -> list[str]:
    """The Chromium command line: headless, CDP on a free loopback port, quiet.

    The flags switch off every kind of background traffic a fresh profile starts (component
    updates, safe browsing, metrics, translation, sync): the browser talks only to the pages
    it is told to open. List after Playwright's own ``chromiumSwitches``.

    Args:
        binary: the Chromium executable.
        user_data_dir: a fresh profile directory.
        viewport: (width, height) in CSS px.
        no_sandbox: add ``--no-sandbox`` (Chromium refuses to run its sandbox as root).
        proxy_url: the guarded proxy (``http://127.0.0.1:<port>``) every connection must go
            through; see :func:`proxy_args`.
    """
    width, height = viewport
    args = [
        binary,
        "--headless",
        "--remote-debugging-port=0",
        "--remote-debugging-address=127.0.0.1",
        f"--user-data-dir={user_data_dir}",
        f"--window-size={width},{height}",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--disable-breakpad",
        "--disable-client-side-phishing-detection",
        "--disable-domain-reliability",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,"
        "AutofillServerCommunication,CertificateTransparencyComponentUpdater,"
        "InterestFeedContentSuggestions",
        # WebRTC may not send UDP outside the proxy (no host/STUN candidates). Chromium 156
        # honours this switch; the often-quoted --force-webrtc-ip-handling-policy is a no-op.
        "--webrtc-ip-handling-policy=disable_non_proxied_udp",
        # No QUIC: HTTP/3 to an origin would be UDP outside the proxy.
        "--disable-quic",
        "--metrics-recording-only",
        "--no-pings",
        "--password-store=basic",
        "--use-mock-keychain",
        "--hide-scrollbars",
        "--mute-audio",
        "--safebrowsing-disable-auto-update",
        *(proxy_args(proxy_url) if proxy_url else []),
        "about:blank",
    ]
    if no_sandbox:
        args.insert(1, "--no-sandbox")
    return args


def proxy_args(proxy_url: str) -> list[str]:
    """Chromium switches that send EVERY connection through ``proxy_url`` and nothing else.

    * ``--proxy-server``: all http, https, ws and wss traffic of every context, worker and
      service worker goes to the proxy (https/ws/wss as ``CONNECT`` tunnels);
    * ``--proxy-bypass-list=<-loopback>``: Chromium bypasses proxies for loopback targets
      unless told not to (``<-loopback>`` removes the implicit rule), so 127.0.0.0/8 and
      [::1] go through the proxy's checks too;
    * ``--host-resolver-rules``: the browser resolves no name itself (every name maps to
      NOTFOUND, the proxy's own literal address excepted), so DNS prefetching and any
      connection outside the proxy have nothing to reach.
    """
    return [
        f"--proxy-server={proxy_url}",
        "--proxy-bypass-list=<-loopback>",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ]


#: Environment variables that would make a libcurl-based browser (Lightpanda) bypass or
#: replace its configured proxy (``NO_PROXY=127.0.0.1,10.0.0.0/8`` is common on servers);
#: they are removed from a launched browser's environment.
PROXY_ENV = (
    "no_proxy",
    "NO_PROXY",
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
)


def lightpanda_args(
    binary: str, *, port: int, max_connections: int, proxy_url: str | None = None
) -> list[str]:
    """The ``lightpanda serve`` command line on 127.0.0.1:``port``.

    Args:
        binary: the Lightpanda executable.
        port: the CDP port.
        max_connections: CDP connections it accepts (one per session).
        proxy_url: the guarded proxy for every HTTP request and WebSocket
            (``--http-proxy``; Lightpanda 1.0 sends http in absolute form, https and
            WebSockets as ``CONNECT``).
    """
    args = [
        binary,
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--cdp-max-connections",
        str(max_connections),
        "--log-level",
        "error",
    ]
    if proxy_url:
        args += ["--http-proxy", proxy_url]
    return args


@dataclass
class LaunchedProcess:
    """A browser running under its keeper in its own process group.

    Attributes:
        pgid: the process group id (== the keeper's pid).
        process: the keeper process.
        temp_dir: a directory removed on close (Chromium's profile), or ``None``.
    """

    pgid: int
    process: asyncio.subprocess.Process
    temp_dir: str | None = None
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
        if self.temp_dir:
            await asyncio.to_thread(shutil.rmtree, self.temp_dir, True)

    def _escaped(self) -> list[int]:
        """Live pids outside the group whose command line names this browser's profile
        directory (only a launch with its own ``temp_dir`` has any)."""
        if not self.temp_dir:
            return []
        marker = self.temp_dir.encode()
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
            await asyncio.wait_for(self.process.wait(), timeout_s)
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
    temp_dir: str | None = None,
) -> LaunchedProcess:
    """Start ``argv`` under the keeper, in a new process group that dies with us.

    Args:
        argv: the browser command line.
        env: extra environment variables for the browser (proxy variables of our own
            environment, :data:`PROXY_ENV`, are never passed on).
        temp_dir: a directory to remove when the process is closed.

    Raises:
        BrowserError: the process could not be started.
    """
    child_env = {k: v for k, v in os.environ.items() if k not in PROXY_ENV}
    child_env.update(env or {})
    try:
        process = await asyncio.create_subprocess_exec(
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
    except OSError as exc:
        if temp_dir:
            shutil.rmtree(temp_dir, ignore_errors=True)
        raise BrowserError(
            f"could not start the browser ({Path(argv[0]).name}): {exc.strerror}"
        ) from None
    return LaunchedProcess(pgid=process.pid, process=process, temp_dir=temp_dir)


#: Prefix of the profile directories in the temporary directory, and the file in each that
#: names the process which made it.
PROFILE_PREFIX = "webresearch-chromium-"
PROFILE_OWNER_FILE = "webresearch-owner.pid"


def new_profile_dir() -> str:
    """A fresh, private Chromium profile directory (removed when the browser closes).

    A process killed outright (SIGKILL, power loss) cannot remove its directory: the next
    one removes those whose owner is gone (:func:`remove_orphan_profiles`) first.
    """
    remove_orphan_profiles(Path(tempfile.gettempdir()))
    path = tempfile.mkdtemp(prefix=PROFILE_PREFIX)
    (Path(path) / PROFILE_OWNER_FILE).write_text(str(os.getpid()), encoding="ascii")
    return path


def remove_orphan_profiles(temp_root: Path) -> list[Path]:
    """Remove profile directories under ``temp_root`` whose owner process is gone.

    Only directories of this user that hold an owner file naming a dead process are
    removed; anything else (another user's, one still being created, a live owner's) is
    left alone. Returns the directories removed.
    """
    removed: list[Path] = []
    if not Path("/proc/self/stat").exists():  # no way to tell a live owner: remove nothing
        return removed
    for candidate in temp_root.glob(f"{PROFILE_PREFIX}*"):
        try:
            if candidate.is_symlink() or candidate.stat().st_uid != os.getuid():
                continue
            owner = int((candidate / PROFILE_OWNER_FILE).read_text(encoding="ascii"))
        except (OSError, ValueError):
            continue
        if owner == os.getpid() or _alive(owner):
            continue
        shutil.rmtree(candidate, ignore_errors=True)
        removed.append(candidate)
    return removed


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
        with contextlib.suppress(Exception):
            await writer.wait_closed()
        return
    raise BrowserError(f"the browser did not start within {timeout_s:g} s", retryable=True)
