"""wait_within and wait_in_task: bounded waits that keep their caller's cancellation
(runtime/waiting.py)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable

import pytest

from webresearch.runtime.waiting import wait_in_task, wait_within

Wait = Callable[[Awaitable[str], float], Awaitable[str]]


async def _cancelled_as_the_result_arrives(wait: Wait) -> asyncio.Task[str]:
    """A task waiting through ``wait``, cancelled in the loop turn its result arrives in."""
    result: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.ensure_future(wait(result, 10.0))
    await asyncio.sleep(0)  # the task waits now
    result.set_result("done")
    task.cancel()
    await asyncio.wait([task])
    return task


@pytest.mark.parametrize("wait", [wait_within, wait_in_task])
async def test_a_cancellation_that_comes_with_the_result_is_kept(wait: Wait) -> None:
    task = await _cancelled_as_the_result_arrives(wait)
    assert task.cancelled()


async def test_asyncio_wait_for_drops_it_before_python_3_12() -> None:
    # Why these exist: on 3.11 wait_for returns the result and the cancel is lost (3.12
    # rebuilt wait_for on asyncio.timeout and keeps it).
    task = await _cancelled_as_the_result_arrives(asyncio.wait_for)
    if sys.version_info >= (3, 12):
        assert task.cancelled()
    else:
        assert not task.cancelled() and task.result() == "done"


@pytest.mark.parametrize("wait", [wait_within, wait_in_task])
async def test_the_time_still_runs_out(wait: Wait) -> None:
    with pytest.raises(TimeoutError):
        await wait(asyncio.sleep(10, "late"), 0.01)
    assert await wait(asyncio.sleep(0, "ok"), 1.0) == "ok"
