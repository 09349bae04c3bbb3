"""Blocking work awaited from the event loop in a daemon thread, which a stop signal never waits for.

Two kinds of work use it. The CLI's local reads (a file, stdin) may never end: a terminal's
stdin or a pipe without a writer would keep the command deaf to SIGINT / SIGTERM. And a
one-shot CLI command converts a page in-process (an in-process
:class:`~webresearch.runtime.cpu_pool.CPUPool`, a saved page's :mod:`webresearch.tools.local_page`).
On the event loop's thread the conversion held every signal handler of the loop — the
CLI's, which cancels the command's task from the loop, asyncio's ``loop.add_signal_handler``
— and Python's own handlers cannot run inside a long C call either (one lxml XPath query
over a 1 MB page takes seconds); in :func:`asyncio.to_thread` the command was cancelled at
once but ``asyncio.run``'s shutdown then joined the default executor's thread. Either way
a SIGTERM or Ctrl-C during the conversion of a large page waited for the whole conversion
(about a minute on a 1.3 MB page) before the process exited 143 / 130.

:func:`in_daemon_thread` runs the work in a daemon thread: the loop stays free to take the
signal and cancel the awaiting task at once, and neither ``asyncio.run``'s shutdown nor the
interpreter's exit joins the thread. The work must be pure (nothing to release): it is left
to finish, or to end with the process, and its result is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections.abc import Callable
from typing import TypeVar

__all__ = ["in_daemon_thread"]

R = TypeVar("R")


async def in_daemon_thread(work: Callable[[], R], name: str = "webresearch-work") -> R:
    """``work()`` in a new daemon thread (with this task's context variables), awaited.

    Cancelling the awaiting task returns at once; the thread is abandoned (see the module).
    ``name`` names the thread (seen in a debugger or a thread dump).

    Raises:
        whatever ``work`` raises.
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[R] = loop.create_future()
    context = contextvars.copy_context()

    def settle(result: R | None, error: BaseException | None) -> None:
        if done.done():  # cancelled meanwhile
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)  # type: ignore[arg-type]  # None only with an error

    def run() -> None:
        try:
            result, error = context.run(work), None
        except BaseException as exc:  # handed to the awaiting task
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody awaits it
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name=name, daemon=True).start()
    return await done
