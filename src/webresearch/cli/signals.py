"""Stopping the CLI by signal: everything the command opened is released, then 130 / 143.

One :class:`StopSignals` owns SIGINT and SIGTERM for the whole process (``main.main``
installs it first). Outside an event loop (parsing options, loading settings) a signal
raises ``KeyboardInterrupt`` / :class:`Terminated`. While a command's event loop runs
(:func:`run_stoppable`), a signal never raises where the interpreter happens to be: the command's
task is cancelled from the loop, so every ``async with`` and ``finally`` runs. Either way the
signal is recorded, and a recorded signal decides the exit code and the one line on stderr
even when the exception or the cancellation it caused was dropped on the way (an exception
raised in a weakref callback is only printed; Python 3.11's ``asyncio.wait_for`` returned a
result instead of raising the cancellation, :mod:`webresearch.runtime.waiting`): before,
such a signal let the command run to its end and exit 0 with nothing on stderr.

Long-lived servers (``webresearch mcp``) use :func:`serve_until_signal`: SIGINT and SIGTERM
cancel the server task, its own cleanup runs, and the exit code is known.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Coroutine
from types import FrameType
from typing import Any, TypeVar

from .logs import say

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "StopSignals",
    "Terminated",
    "run_stoppable",
    "serve_until_signal",
]

#: Exit codes of a command stopped by a signal: 128 + the signal's number (the shell's rule).
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM
#: The signals that stop a command.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

T = TypeVar("T")


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every ``async with`` and ``finally`` runs: a
    browser is closed and its profile directory removed, the journal is flushed."""


def ignored(signum: int) -> bool:
    """Whether ``signum`` is SIGINT and ignored (``SIG_IGN``): the CLI then leaves it so,
    here and in :func:`serve_until_signal`. SIGTERM is always owned."""
    return signum == signal.SIGINT and signal.getsignal(signum) == signal.SIG_IGN


def say_stopped(code: int) -> None:
    """The one line a stopped command prints."""
    say("terminated" if code == EXIT_TERMINATED else "interrupted")


class StopSignals:
    """SIGINT and SIGTERM of this process (see the module docstring).

    Attributes:
        received: the first stop signal's number, or ``None``.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None

    @classmethod
    def install(cls) -> StopSignals:
        """Own SIGINT and SIGTERM from now on (main thread only); the one already installed
        is kept. A SIGINT the process was started with ignored (``SIG_IGN``: a job a script
        started with ``cmd &``) stays ignored, as Python leaves it (session 10 review, 16)."""
        guard = cls.current()
        if guard is None:
            guard = cls()
            for signum in STOP_SIGNALS:
                if not ignored(signum):
                    signal.signal(signum, guard._on_signal)
        return guard

    @staticmethod
    def current() -> StopSignals | None:
        """The guard whose handler is installed, or ``None`` (a command run in-process by a
        test: :func:`run_stoppable` is then plain :func:`asyncio.run`). The installed handler is the
        process-wide record: no module state."""
        owner = getattr(signal.getsignal(signal.SIGTERM), "__self__", None)
        return owner if isinstance(owner, StopSignals) else None

    @property
    def exit_code(self) -> int | None:
        """128 + the first signal's number, or ``None`` when none came."""
        return None if self.received is None else 128 + self.received

    def check(self) -> None:
        """Raise the recorded signal's exception (nothing when none came)."""
        if self.received is not None:
            raise Terminated if self.received == signal.SIGTERM else KeyboardInterrupt

    def _on_signal(self, signum: int, frame: FrameType | None) -> None:
        if self.received is None:
            self.received = signum
        loop, task = self._loop, self._task
        if loop is not None and task is not None:
            try:
                # From the loop, at its next turn: never in the middle of its own code.
                loop.call_soon_threadsafe(task.cancel)
                return
            except RuntimeError:  # the loop is closing: raise as outside it
                pass
        self.check()

    async def _serve(self, main: Coroutine[Any, Any, T]) -> T | None:
        self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
        try:
            return await main
        except asyncio.CancelledError:
            if self.received is None:
                raise
            return None
        finally:
            self._loop = self._task = None


def run_stoppable(main: Coroutine[Any, Any, T]) -> T:
    """Run a command's coroutine (instead of :func:`asyncio.run`): a stop signal cancels
    it, its cleanup runs, then the signal's exception is raised (``KeyboardInterrupt`` or
    :class:`Terminated`) — also when the coroutine dropped the cancellation and returned,
    and without starting it when the signal came before.
    """
    guard = StopSignals.current()
    if guard is None:
        return asyncio.run(main)
    if guard.received is not None:
        main.close()
        guard.check()
    result = asyncio.run(guard._serve(main))
    guard.check()
    return result  # type: ignore[return-value]  # None only after a signal (raised above)


async def serve_until_signal(
    server: Coroutine[Any, Any, None], *, exit_at_once: bool = False
) -> int | None:
    """Run ``server`` until it ends or SIGINT / SIGTERM arrives.

    A signal cancels the server task; its cleanup (``finally``, ``async with``) runs before
    this returns. Returns the exit code for a signal (130, 143), else ``None``.

    Args:
        server: the server coroutine.
        exit_at_once: after a signal and the server's cleanup, end the process here
            (``os._exit``) with the exit code. For stdio: a worker thread blocked reading
            stdin would otherwise hold the event loop's shutdown until the client closes
            the pipe.
    """
    loop = asyncio.get_running_loop()
    task = asyncio.ensure_future(server)
    received: list[int] = []

    def stop(signum: int) -> None:
        received.append(signum)
        task.cancel()

    owned = [signum for signum in STOP_SIGNALS if not ignored(signum)]
    for signum in owned:
        loop.add_signal_handler(signum, stop, signum)
    try:
        await task
    except asyncio.CancelledError:
        if not received:
            raise
    finally:
        for signum in owned:
            loop.remove_signal_handler(signum)
    if not received:
        return None
    code = 128 + received[0]
    if exit_at_once:
        say_stopped(code)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
