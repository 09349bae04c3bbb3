"""One thread per storage sink: its blocking calls (SQLite statements, ``write`` + ``fsync``,
file scans) run there, one at a time, in the order they were made — never on the event loop.

A local SQLite insert or an appended line usually takes microseconds, but under disk
contention (other processes writing, a checkpoint, ``fsync``) one took up to ~200 ms here
(issue 14, ``bench/concurrency.py``): on the event loop that stalls every call, ping and
cancellation of the server. The caller still awaits the outcome, so a sink keeps its
contract — an event is stored when ``append`` returns, and a failure is the caller's
``StorageError`` (the journal fails closed).

Once submitted, a call runs to its end even when the awaiting task is cancelled (a write
is never dropped half-way, and the order of writes is the order of calls)::

    io = SerialThread("webresearch-journal")
    await io.run(db.execute, "INSERT …", row)
    await io.aclose()
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar, TypeVarTuple, Unpack

from ..errors import StorageError

__all__ = ["SerialThread"]

R = TypeVar("R")
Ts = TypeVarTuple("Ts")


class SerialThread:
    """Runs blocking calls in one dedicated thread, in call order.

    Args:
        name: the thread's name (seen in stack dumps and ``ps -L``).
    """

    def __init__(self, name: str) -> None:
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def run(self, fn: Callable[[Unpack[Ts]], R], *args: *Ts) -> R:
        """``fn(*args)`` in the thread; returns its result or raises its exception.

        Cancelling the caller does not stop or drop the call: it still runs, in order.

        Raises:
            whatever ``fn`` raised; StorageError: the sink was closed.
        """
        try:
            submitted = self._executor.submit(fn, *args)
        except RuntimeError:  # shut down
            raise StorageError("the journal is closed") from None
        outcome = asyncio.wrap_future(submitted)
        outcome.add_done_callback(_retrieve)
        return await asyncio.shield(outcome)

    def call(self, fn: Callable[[Unpack[Ts]], R], *args: *Ts) -> R:
        """``fn(*args)`` in the thread, waiting here (for synchronous callers: start-up,
        properties); still ordered with :meth:`run`."""
        return self._executor.submit(fn, *args).result()

    async def aclose(self, last: Callable[[], Any] | None = None) -> None:
        """Run ``last`` (closing a handle) after every call made so far, then end the thread."""
        if last is not None:
            with contextlib.suppress(Exception):
                await self.run(last)
        await asyncio.to_thread(self._executor.shutdown, wait=True)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Marks the outcome as seen when its awaiting task was cancelled (no stray log line)."""
    if not future.cancelled():
        future.exception()
