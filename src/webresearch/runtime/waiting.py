"""A bounded wait that never swallows its caller's cancellation.

Python 3.11's :func:`asyncio.wait_for` runs the awaitable in a task of its own and, when the
caller is cancelled in the same loop iteration in which that task finishes, returns the
result instead of raising ``CancelledError`` (CPython bpo-42130 / gh-86296; 3.12 rebuilt
``wait_for`` on :func:`asyncio.timeout`). The cancellation is then lost: a Ctrl-C that landed
as a browser action ended let ``webresearch browse`` run its next action and exit 0 with
nothing on stderr. :func:`wait_within` is the 3.12 form: the awaitable runs in the caller's
own task under :func:`asyncio.timeout`, which tells its own expiry from a cancellation that
came from outside.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

__all__ = ["wait_in_task", "wait_within"]

T = TypeVar("T")


async def wait_within(awaitable: Awaitable[T], timeout_s: float | None) -> T:
    """``await awaitable``, at most ``timeout_s`` seconds (``None``: no bound).

    Raises:
        TimeoutError: the time ran out (the awaitable was cancelled).
        asyncio.CancelledError: the caller was cancelled, even as the result arrived.
    """
    async with asyncio.timeout(timeout_s):
        return await awaitable


async def wait_in_task(awaitable: Awaitable[T], timeout_s: float | None) -> T:
    """:func:`asyncio.wait_for` (the awaitable runs in a task of its own), except that a
    cancellation of the caller that came as the result arrived is raised, not dropped.

    For work that must not run in the caller's task: the browser tool's actions, whose
    connections are closed by their own task's cleanup (in the caller's task, a proxied
    socket was left open now and then). The caller's ``Task.cancelling()`` tells a pending
    cancellation (Python ≥ 3.11).

    Raises:
        TimeoutError: the time ran out (the awaitable was cancelled).
        asyncio.CancelledError: the caller was cancelled, even as the result arrived.
    """
    result = await asyncio.wait_for(awaitable, timeout_s)
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
    return result
