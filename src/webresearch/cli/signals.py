"""Stopping the CLI by signal: everything the command opened is released, then 130 / 143.

Commands that run to completion get SIGTERM raised as :class:`Terminated` (a
``KeyboardInterrupt``, like Ctrl-C), so every ``async with`` and ``finally`` runs
(``main.main``). Long-lived servers (``webresearch mcp``) use :func:`serve_until_signal`:
SIGINT and SIGTERM cancel the server task, its own cleanup runs, and the exit code is known.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Coroutine
from typing import Any

from .logs import say

__all__ = ["EXIT_INTERRUPTED", "EXIT_TERMINATED", "Terminated", "serve_until_signal"]

#: Exit codes of a command stopped by a signal: 128 + the signal's number (the shell's rule).
EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every ``async with`` and ``finally`` runs: a
    browser is closed and its profile directory removed, the journal is flushed."""


def say_stopped(code: int) -> None:
    """The one line a stopped command prints."""
    say("terminated" if code == EXIT_TERMINATED else "interrupted")


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

    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop, signum)
    try:
        await task
    except asyncio.CancelledError:
        if not received:
            raise
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
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
