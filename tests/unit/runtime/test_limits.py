"""Sliding-window math (pure, injected clock) and the in-process limiter's exactness."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webresearch.runtime.limits import LimitRule, MemoryLimiter, decide

RULE = LimitRule(limit=3, window_s=60.0)


class FakeClock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_decide_admits_until_the_limit() -> None:
    assert decide([], 0.0, RULE).allowed
    assert decide([1.0, 2.0], 3.0, RULE).remaining == 0
    refused = decide([1.0, 2.0, 3.0], 4.0, RULE)
    assert not refused.allowed
    assert refused.retry_after_s == pytest.approx(57.0)  # oldest (1.0) leaves at 61.0


def test_entries_older_than_the_window_do_not_count() -> None:
    assert decide([0.0, 1.0, 2.0], 60.0, RULE).allowed  # 0.0 left exactly at 60.0
    assert not decide([0.5, 1.0, 2.0], 60.0, RULE).allowed


def test_zero_limit_refuses_everything() -> None:
    d = decide([], 5.0, LimitRule(0, 10.0))
    assert not d.allowed and d.retry_after_s == 10.0


async def test_memory_limiter_window_slides_with_the_clock() -> None:
    clock = FakeClock()
    limiter = MemoryLimiter(clock)
    for _ in range(3):
        assert (await limiter.acquire("k", RULE)).allowed
        clock.now += 10
    refused = await limiter.acquire("k", RULE)
    assert not refused.allowed
    assert refused.retry_after_s == pytest.approx(30.0)
    clock.now += 30
    assert (await limiter.acquire("k", RULE)).allowed
    assert (await limiter.acquire("other", RULE)).allowed  # keys are independent


async def test_exactly_n_admitted_under_200_concurrent_calls() -> None:
    limiter = MemoryLimiter(FakeClock())
    rule = LimitRule(30, 60.0)
    decisions = await asyncio.gather(*(limiter.acquire("web_search", rule) for _ in range(200)))
    assert sum(d.allowed for d in decisions) == 30
    assert all(d.retry_after_s > 0 for d in decisions if not d.allowed)


@given(
    st.lists(st.floats(min_value=0, max_value=500, allow_nan=False), max_size=50),
    st.integers(min_value=1, max_value=10),
    st.floats(min_value=1, max_value=100, allow_nan=False),
)
def test_decide_never_admits_more_than_the_limit_in_any_window(
    times: list[float], limit: int, window: float
) -> None:
    rule = LimitRule(limit, window)
    admitted: list[float] = []
    for t in sorted(times):
        if decide(admitted, t, rule).allowed:
            admitted.append(t)
    for t in admitted:
        in_window = [a for a in admitted if t - window < a <= t]
        assert len(in_window) <= limit
