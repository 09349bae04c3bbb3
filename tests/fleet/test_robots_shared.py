"""robots.txt is kept in the state backend: two workers on one backend (in-process, SQLite,
Redis) fetch an origin's file once between them, and the entry's own expiry (a day at most,
a minute for an unreachable file) holds on every backend."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from tests.support.http_server import LocalServer, Route
from webresearch.access import RobotsChecker
from webresearch.access.robots_rules import ROBOTS_TTL_S, UNREACHABLE_RETRY_S
from webresearch.addresses import AddressPolicy
from webresearch.backends.state import StateBackend
from webresearch.errors import RobotsDisallowed
from webresearch.net.client import GuardedClient
from webresearch.net.guard import SSRFGuard

from .conftest import FakeClock

pytestmark = pytest.mark.network


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        srv.routes["/robots.txt"] = Route(body=b"User-agent: *\nDisallow: /private/\n")
        yield srv


def worker(state: StateBackend, clock: FakeClock) -> RobotsChecker:
    """One worker's checker: its own client and parsed-file memory, the shared cache."""
    guard = SSRFGuard(AddressPolicy.from_strings(allowed_networks=["127.0.0.0/8"]))
    return RobotsChecker(
        GuardedClient(guard),
        state.cache("robots", maxsize=128, ttl_s=ROBOTS_TTL_S),
        product_token="webresearch",
        now=lambda: datetime.fromtimestamp(clock(), UTC),
    )


async def test_workers_on_one_backend_fetch_each_origin_once(
    state: StateBackend, clock: FakeClock, site: LocalServer
) -> None:
    first, second = worker(state, clock), worker(state, clock)
    try:
        with pytest.raises(RobotsDisallowed):
            await first.check(f"{site.base}/private/a")
        with pytest.raises(RobotsDisallowed):
            await second.check(f"{site.base}/private/b")
        await second.check(f"{site.base}/public")
        assert site.count("/robots.txt") == 1
        clock.advance(ROBOTS_TTL_S + 1)  # a day later the file is read again, by one of them
        site.routes["/robots.txt"] = Route(body=b"User-agent: *\nDisallow:\n")
        await second.check(f"{site.base}/private/a")
        await first.check(f"{site.base}/private/a")
        assert site.count("/robots.txt") == 2
    finally:
        await first.client.aclose()
        await second.client.aclose()


async def test_an_unreachable_file_is_tried_again_after_a_minute_on_every_backend(
    state: StateBackend, clock: FakeClock, site: LocalServer
) -> None:
    site.routes["/robots.txt"] = Route(status=503)
    first, second = worker(state, clock), worker(state, clock)
    try:
        with pytest.raises(RobotsDisallowed) as refused:
            await first.check(f"{site.base}/page")
        assert refused.value.retryable and refused.value.details["reason"] == "unreachable"
        with pytest.raises(RobotsDisallowed):
            await second.check(f"{site.base}/page")
        assert site.count("/robots.txt") == 1
        site.routes["/robots.txt"] = Route(status=404)
        clock.advance(UNREACHABLE_RETRY_S)
        await second.check(f"{site.base}/page")
        await first.check(f"{site.base}/page")
        assert site.count("/robots.txt") == 2
    finally:
        await first.client.aclose()
        await second.client.aclose()
