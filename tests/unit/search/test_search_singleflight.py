"""Single-flight semantics (runtime/singleflight.py), with no sockets and no sleeps."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest

from webresearch.errors import BudgetExceeded, SearchUpstreamError
from webresearch.runtime.singleflight import SingleFlight


def _search_errors_only(exc: BaseException) -> bool:
    return isinstance(exc, SearchUpstreamError)


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_followers_share_the_leaders_value() -> None:
    flights: SingleFlight[str] = SingleFlight()
    gate = asyncio.Event()
    runs = 0

    async def work() -> str:
        nonlocal runs
        runs += 1
        await gate.wait()
        return "value"

    tasks = [asyncio.create_task(flights.do("k", work)) for _ in range(50)]
    await _settle()
    assert len(flights) == 1
    gate.set()
    outcomes = await asyncio.gather(*tasks)
    assert runs == 1
    assert outcomes.count(("value", False)) == 1
    assert outcomes.count(("value", True)) == 49
    assert len(flights) == 0


async def test_distinct_keys_do_not_share() -> None:
    flights: SingleFlight[str] = SingleFlight()

    async def work(key: str) -> str:
        await asyncio.sleep(0)
        return key

    def job(key: str) -> Callable[[], Awaitable[str]]:
        return lambda: work(key)

    outcomes = await asyncio.gather(*(flights.do(k, job(k)) for k in "abc"))
    assert outcomes == [("a", False), ("b", False), ("c", False)]


async def test_shared_errors_are_copies() -> None:
    flights: SingleFlight[str] = SingleFlight(_search_errors_only)
    gate = asyncio.Event()
    runs = 0

    async def work() -> str:
        nonlocal runs
        runs += 1
        await gate.wait()
        raise SearchUpstreamError("down", hint="retry later", status=502)

    tasks = [asyncio.create_task(flights.do("k", work)) for _ in range(5)]
    await _settle()
    gate.set()
    errors = await asyncio.gather(*tasks, return_exceptions=True)
    assert runs == 1
    assert all(isinstance(e, SearchUpstreamError) for e in errors)
    assert len({id(e) for e in errors}) == 5
    assert all(e.message == "down" and e.details == {"status": 502} for e in errors)  # type: ignore[union-attr]
    errors[1].details["mutated"] = True  # type: ignore[union-attr]
    assert "mutated" not in errors[2].details  # type: ignore[union-attr]


async def test_leaders_own_refusal_is_not_shared_followers_retry() -> None:
    flights: SingleFlight[str] = SingleFlight(_search_errors_only)
    gate = asyncio.Event()
    attempts = 0

    async def work() -> str:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            await gate.wait()
            raise BudgetExceeded("the leader's run cannot pay")
        return "fresh"

    leader = asyncio.create_task(flights.do("k", work))
    await _settle()
    followers = [asyncio.create_task(flights.do("k", work)) for _ in range(3)]
    await _settle()
    gate.set()
    with pytest.raises(BudgetExceeded):
        await leader
    outcomes = await asyncio.gather(*followers)
    assert attempts >= 2
    assert ("fresh", False) in outcomes


async def test_cancelled_leader_lets_followers_retry() -> None:
    flights: SingleFlight[str] = SingleFlight()
    gate = asyncio.Event()
    calls = 0

    async def work() -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            await asyncio.Event().wait()  # never ends: cancelled below
        await gate.wait()
        return "second"

    leader = asyncio.create_task(flights.do("k", work))
    await _settle()
    follower = asyncio.create_task(flights.do("k", work))
    await _settle()
    leader.cancel()
    await _settle()
    gate.set()
    assert await follower == ("second", False)
    assert calls == 2


async def test_cancelled_follower_does_not_cancel_the_leader() -> None:
    flights: SingleFlight[str] = SingleFlight()
    gate = asyncio.Event()

    async def work() -> str:
        await gate.wait()
        return "done"

    leader = asyncio.create_task(flights.do("k", work))
    await _settle()
    follower = asyncio.create_task(flights.do("k", work))
    await _settle()
    follower.cancel()
    await _settle()
    gate.set()
    assert await leader == ("done", False)


async def test_an_error_nobody_waits_for_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="asyncio")
    flights: SingleFlight[str] = SingleFlight()

    async def work() -> str:
        raise SearchUpstreamError("down")

    with pytest.raises(SearchUpstreamError):
        await flights.do("k", work)
    import gc

    gc.collect()
    await _settle()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
