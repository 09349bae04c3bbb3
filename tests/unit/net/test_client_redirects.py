"""The whole redirect path of the guarded client, through the injectable TCP seam (no sockets)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.fake_net import FakeConnector, FakeRequest, ScriptedResolver, http_response
from webresearch.addresses import AddressPolicy
from webresearch.errors import BlockedAddress, TooManyRedirects
from webresearch.net.client import REFUSED_HOP, GuardedClient, hop_refused
from webresearch.net.guard import SSRFGuard

PUBLIC = "93.184.216.34"
OTHER_PUBLIC = "93.184.216.35"


def make(
    app: Callable[[FakeRequest], bytes], answers: dict[str, Any], **policy: Any
) -> tuple[GuardedClient, FakeConnector, ScriptedResolver]:
    connector = FakeConnector(app)
    resolver = ScriptedResolver(answers)
    client = GuardedClient(
        SSRFGuard(AddressPolicy(**policy), resolver=resolver), connector=connector
    )
    return client, connector, resolver


def redirect_to(location: str, status: int = 302) -> bytes:
    return http_response(status, [("Location", location)])


async def test_redirect_to_a_private_literal_is_refused_and_never_connected() -> None:
    def app(req: FakeRequest) -> bytes:
        return redirect_to("http://10.0.0.5/admin")

    client, connector, _ = make(app, {"public.example": [PUBLIC]})
    with pytest.raises(BlockedAddress) as info:
        await client.get("http://public.example/start")
    assert connector.connects == [(PUBLIC, 80)]
    assert "10.0.0.5" not in info.value.message


async def test_redirect_to_a_name_resolving_private_is_refused_and_never_connected() -> None:
    def app(req: FakeRequest) -> bytes:
        if req.headers["host"] == "public.example":
            return redirect_to("https://sneaky.example/")
        return http_response(200, body=b"secret")

    client, connector, resolver = make(
        app, {"public.example": [PUBLIC], "sneaky.example": ["192.168.1.1"]}
    )
    with pytest.raises(BlockedAddress) as info:
        await client.get("http://public.example/")
    assert connector.connects == [(PUBLIC, 80)]
    assert resolver.calls == ["public.example", "sneaky.example"]
    assert "192.168.1.1" not in info.value.message and "redirect" in info.value.message


@pytest.mark.parametrize(
    "location",
    [
        "http://localhost/",
        "http://[::1]:8080/",
        "http://2130706433/",
        "file:///etc/passwd",
        "http://u:p@public.example/",
    ],
)
async def test_every_redirect_hop_goes_through_the_string_rules(location: str) -> None:
    client, connector, _ = make(lambda req: redirect_to(location), {"public.example": [PUBLIC]})
    with pytest.raises(BlockedAddress):
        await client.get("http://public.example/")
    assert len(connector.connects) == 1


async def test_five_redirects_are_followed_and_the_sixth_is_refused() -> None:
    def app(req: FakeRequest) -> bytes:
        n = int(req.target.strip("/") or 0)
        if n < LIMIT:
            return redirect_to(f"/{n + 1}", 301)
        return http_response(200, [("Content-Type", "text/plain")], b"done")

    LIMIT = 5
    client, connector, _ = make(app, {"public.example": [PUBLIC]})
    response = await client.get("http://public.example/0")
    assert response.status == 200 and response.body == b"done"
    assert [u for _, u in response.redirects] == [f"http://public.example/{i}" for i in range(1, 6)]

    LIMIT = 6
    client, connector, _ = make(app, {"public.example": [PUBLIC]})
    with pytest.raises(TooManyRedirects):
        await client.get("http://public.example/0")
    assert len(connector.requests) == 6  # 1 + 5 redirects, no retry of the chain


async def test_rebinding_resolver_cannot_swap_the_address_between_check_and_connect() -> None:
    # First answer public, every later answer private: the connection must use the checked
    # (first) answer, and there is exactly one resolution for the connection.
    resolver_answers = {"rebind.example": [[PUBLIC], ["127.0.0.1"], ["127.0.0.1"]]}
    client, connector, resolver = make(lambda req: http_response(200, body=b"ok"), resolver_answers)
    response = await client.get("http://rebind.example/")
    assert response.body == b"ok"
    assert connector.connects == [(PUBLIC, 80)]
    assert resolver.calls == ["rebind.example"]


async def test_rebinding_on_a_later_connection_is_caught() -> None:
    # A redirect to another origin makes a new connection, resolved and checked again.
    def app(req: FakeRequest) -> bytes:
        if req.headers["host"] == "a.example":
            return redirect_to("http://b.example/")
        return http_response(200, body=b"ok")

    client, connector, _ = make(app, {"a.example": [PUBLIC], "b.example": [["10.9.9.9"]]})
    with pytest.raises(BlockedAddress):
        await client.get("http://a.example/")
    assert connector.connects == [(PUBLIC, 80)]


async def test_tls_uses_the_original_hostname_for_sni_while_connecting_to_the_checked_ip() -> None:
    client, connector, _ = make(
        lambda req: http_response(200, body=b"ok"), {"secure.example": [OTHER_PUBLIC]}
    )
    await client.get("https://secure.example/")
    assert connector.connects == [(OTHER_PUBLIC, 443)]
    assert connector.tls_hostnames == ["secure.example"]
    assert connector.requests[0].headers["host"] == "secure.example"


async def test_environment_proxies_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.setenv(name, "http://10.0.0.99:3128")
    client, connector, _ = make(
        lambda req: http_response(200, body=b"ok"), {"public.example": [PUBLIC]}
    )
    await client.get("http://public.example/")
    assert connector.connects == [(PUBLIC, 80)]
    assert connector.requests[0].target == "/"  # origin-form: not a proxy request


async def test_cookies_set_during_a_chain_are_sent_on_later_hops_but_not_kept() -> None:
    def app(req: FakeRequest) -> bytes:
        if "gate=ok" in req.headers.get("cookie", ""):
            return http_response(200, body=b"Gate passed")
        return http_response(302, [("Location", "/cookie-gate"), ("Set-Cookie", "gate=ok; Path=/")])

    client, connector, _ = make(app, {"public.example": [PUBLIC]})
    assert (await client.get("http://public.example/cookie-gate")).body == b"Gate passed"
    assert len(connector.requests) == 2
    await client.get("http://public.example/cookie-gate")
    assert "cookie" not in connector.requests[2].headers  # a new call starts without cookies


@pytest.mark.parametrize(
    "location",
    ["http://0177.0.0.2/", "http://[fe80::1%25lo]/", "http://0x7f.1/", "http://2130706434:8080/"],
)
async def test_redirects_to_refused_spellings_are_blocked_not_invalid(location: str) -> None:
    client, connector, _ = make(lambda req: redirect_to(location), {"public.example": [PUBLIC]})
    with pytest.raises(BlockedAddress):
        await client.get("http://public.example/")
    assert len(connector.connects) == 1


@pytest.mark.parametrize(
    "location", ["http://public.example:99999/", "http://exa mple.example/", "http://[::1/"]
)
async def test_an_invalid_redirect_is_the_sites_fault(location: str) -> None:
    from webresearch.errors import FetchError, InvalidArguments

    client, _, _ = make(lambda req: redirect_to(location), {"public.example": [PUBLIC]})
    with pytest.raises(FetchError) as info:
        await client.get("http://public.example/")
    assert not isinstance(info.value, InvalidArguments)


async def test_a_port_out_of_range_is_an_invalid_argument() -> None:
    from webresearch.errors import InvalidArguments

    client, connector, _ = make(lambda req: http_response(200), {"public.example": [PUBLIC]})
    with pytest.raises(InvalidArguments):
        await client.get("http://public.example:99999/")
    assert connector.connects == []


@pytest.mark.parametrize(
    ("category", "words"),
    [("link_local", "link-local"), ("metadata", "cloud platform endpoint or metadata service")],
)
def test_a_refused_hop_words_its_category_as_the_guard_does(category: str, words: str) -> None:
    """Before: a meta refresh to fe80::1 said ``(link local; SSRF guard)``; the guard and
    every other refusal say ``link-local``."""
    refused = hop_refused(BlockedAddress("x", category=category), "the page's meta refresh leads")
    assert refused.message == (
        "refused: the page's meta refresh leads to an internal or reserved address "
        f"({words}; SSRF guard)"
    )
    assert refused.details["category"] == category


async def test_a_hop_refused_when_resolved_is_listed_without_its_address() -> None:
    def app(req: FakeRequest) -> bytes:
        if req.target == "/start":
            return redirect_to("/next?token=s3cr3t", 301)
        return redirect_to("https://sneaky.example/")

    client, _, _ = make(app, {"public.example": [PUBLIC], "sneaky.example": ["192.168.1.1"]})
    with pytest.raises(BlockedAddress) as info:
        await client.get("http://public.example/start")
    assert info.value.details["redirects"] == [
        (301, "http://public.example/next?token=[REDACTED]"),
        (302, REFUSED_HOP),
    ]
    assert "sneaky" not in str(info.value.to_dict())
