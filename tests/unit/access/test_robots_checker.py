"""The robots.txt checker without sockets: a file already in the cache decides, the rules see
the URL as it will be fetched, and a URL the SSRF guard refuses asks nothing of anyone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from webresearch.access import RobotsChecker
from webresearch.access.robots_rules import RobotsEntry
from webresearch.errors import NetworkError, RobotsDisallowed
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


@pytest.mark.parametrize("redirect", [False, True])
async def test_an_unreachable_site_names_the_page_not_its_robots_txt(redirect: bool) -> None:
    """Before: ``error[network]: could not connect to https://example.org/robots.txt`` and
    no next step, as if the caller had asked for robots.txt."""
    checker, asked = await checker_with({})
    with pytest.raises(NetworkError) as failed:
        await checker.check("https://example.org/page2.html?k=v", redirect=redirect)
    assert asked == ["example.org"]
    text = failed.value.to_text()
    first = text.splitlines()[0]
    if redirect:  # a hop the model did not choose: its origin only
        assert first.startswith("error[network]: could not reach the redirect target (https://example.org): ")
        assert "page2" not in text
    else:
        assert first.startswith("error[network]: could not reach https://example.org/page2.html?k=v: ")
    assert "robots.txt" in first and "could not connect" in first
    assert "next step: check the spelling of the host name" in text  # the cause's own step
    assert "could not resolve host example.org" in first  # and the cause itself
    assert failed.value.retryable
    assert failed.value.details["robots_url"] == "https://example.org/robots.txt"
