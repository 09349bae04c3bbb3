"""Running the CLI as a child process in tests: its environment, its SIGINT, waiting, ending
it, and finding the processes a run left (by a path only that run uses)."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli_env(tmp: Path) -> dict[str, str]:
    """This environment without WEBRESEARCH_* settings, the source tree importable, ``tmp``
    as TMPDIR and the journal in memory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEBRESEARCH_")}
    env.update(
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]),
        TMPDIR=str(tmp),
        WEBRESEARCH_JOURNAL_URL="memory://",
    )
    return env


def sigint_default() -> None:
    """``preexec_fn`` for every CLI or MCP child a test starts: SIGINT back at ``SIG_DFL``
    in the child, before it executes.

    A suite run as a script's background job (``./.ci/run &``) inherits SIGINT ignored, and
    so would every child it starts (an ignored signal survives ``exec``; ``restore_signals``
    resets only SIGPIPE, SIGXFZ and SIGXFSZ). The CLI keeps an inherited ignored SIGINT
    ignored, as a person's ``cmd &`` expects, so a test that stops it with SIGINT must start
    it as a terminal would: with SIGINT at its default.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_for(predicate: Callable[[], bool], timeout_s: float) -> bool:
    """Poll ``predicate`` until it holds or ``timeout_s`` passes; its last answer."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


def reap(proc: subprocess.Popen[bytes]) -> None:
    """A test's teardown of a child it started with ``start_new_session=True``: still running,
    its process group (its own, named by its PID) is killed and waited for; its pipes are
    closed either way."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def processes_mentioning(text: str, *, environment: bool = False) -> list[int]:
    """PIDs (not this process) whose command line — and, with ``environment``, whose
    environment — contains ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            data = (entry / "cmdline").read_bytes()
            if environment:
                data += (entry / "environ").read_bytes()
        except OSError:
            continue
        if text.encode() in data:
            found.append(int(entry.name))
    return found


def descendants(pid: int) -> set[int]:
    """The PIDs of every living descendant of ``pid`` (children, their children …), read
    from ``/proc/PID/task/*/children``; empty once ``pid`` is gone."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for task in _tasks(todo.pop()):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def _tasks(pid: int) -> list[Path]:
    try:
        return list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return []


def running(pid: int) -> bool:
    """``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def command_line(pid: int) -> str:
    """``pid``'s command line, words joined by spaces ("" when it is gone)."""
    try:
        return (Path(f"/proc/{pid}/cmdline").read_bytes()).replace(b"\0", b" ").decode()
    except OSError:
        return ""
