"""The robots.txt checker without sockets: a file already in the cache decides, the rules see
the URL as it will be fetched, and a URL the SSRF guard refuses asks nothing of anyone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from webresearch.access import RobotsChecker
from webresearch.access.robots_rules import RobotsEntry
from webresearch.errors import RobotsDisallowed
from webresearch.net.client import GuardedClient
from webresearch.net.guard import SSRFGuard
from webresearch.runtime.cache import MemoryCache

NOW = 1_800_000_000.0
RULES = "User-agent: *\nDisallow: /private/\nAllow: /private/open\n"


async def checker_with(entries: dict[str, str]) -> tuple[RobotsChecker, list[str]]:
    asked: list[str] = []

    async def resolver(host: str) -> list[str]:
        asked.append(host)
        raise OSError("no network in unit tests")

    cache = MemoryCache(16, 3600.0, clock=lambda: 0.0)
    for origin, body in entries.items():
        await cache.set(origin, RobotsEntry("rules", "HTTP 200", NOW, NOW + 3600, body).to_json())
    checker = RobotsChecker(
        GuardedClient(SSRFGuard(resolver=resolver)),
        cache,
        product_token="webresearch",
        now=lambda: datetime.fromtimestamp(NOW, UTC),
    )
    return checker, asked


async def test_the_rules_see_the_path_that_will_be_fetched() -> None:
    checker, asked = await checker_with({"https://example.org": RULES})
    await checker.check("https://example.org/private/open/page")
    with pytest.raises(RobotsDisallowed) as refused:
        # a client and a browser remove dot segments: this IS /private/x
        await checker.check("https://example.org/private/open/../x")
    assert refused.value.details["rule"] == "/private/"
    with pytest.raises(RobotsDisallowed):
        await checker.check("https://EXAMPLE.org:443/private/x")  # one origin, however spelled
    assert asked == []  # the cached file decided; nothing was resolved or fetched


@pytest.mark.parametrize(
    "url",
    [
        "http://user:pw@example.org/private/x",  # userinfo: refused by the guard
        "http://localhost/private/x",
        "http://10.0.0.1/private/x",
        "ftp://example.org/private/x",
        "not a url",
    ],
)
async def test_a_url_the_guard_refuses_reads_no_robots_txt(url: str) -> None:
    checker, asked = await checker_with({})
    await checker.check(url)  # the SSRF guard refuses it when it is fetched
    assert asked == []


async def test_a_redirect_refusal_names_the_origin_not_the_url() -> None:
    checker, _ = await checker_with({"https://example.org": RULES})
    with pytest.raises(RobotsDisallowed) as refused:
        await checker.check("https://example.org/private/x?token=s3cr3t", redirect=True)
    message = refused.value.message
    assert message.startswith("refused the redirect target (https://example.org): ")
    assert "s3cr3t" not in message and "/private/x" not in message
