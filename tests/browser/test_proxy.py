"""The guarded forward proxy on its own (no browser): what it forwards, what it refuses, and
that a refused target never sees a TCP connection (SPEC §1.4, §2).

Real sockets on 127.0.0.0/8; names resolve through a scripted resolver; the rebinding test
uses the in-memory connector to see exactly which address was dialled.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_asyncio

from tests.browser.traps import SECRET, EchoServer, TCPTrap, WebSocketServer
from tests.support.fake_net import FakeConnector, ScriptedResolver, http_response
from webresearch.addresses import AddressPolicy
from webresearch.browser.policy import DomainPolicy, RequestPolicy
from webresearch.browser.proxy import GuardedProxy, ProxyRefusal
from webresearch.net.guard import SSRFGuard


@pytest.fixture(scope="module")
def traps() -> Iterator[dict[str, TCPTrap]]:
    with TCPTrap("127.0.0.2") as v4, TCPTrap("::1") as v6, TCPTrap("127.0.0.3") as domain:
        yield {"v4": v4, "v6": v6, "domain": domain}


@pytest.fixture
def echo() -> Iterator[EchoServer]:
    with EchoServer() as server:
        yield server


def make_policy(resolver: ScriptedResolver | None = None) -> RequestPolicy:
    """127.0.0.1 and 127.0.0.3 exempted from the address rules; 127.0.0.3 a blocked domain."""
    guard = SSRFGuard(
        AddressPolicy.from_strings(allowed_networks=["127.0.0.1/32", "127.0.0.3/32"]),
        resolver=resolver or ScriptedResolver({}),
    )
    return RequestPolicy(guard, DomainPolicy.from_settings(None, ["127.0.0.3"]))


@pytest_asyncio.fixture
async def proxy() -> AsyncIterator[tuple[GuardedProxy, list[ProxyRefusal]]]:
    resolver = ScriptedResolver(
        {
            "internal.example": ["127.0.0.2"],
            "mixed.example": ["93.184.216.34", "127.0.0.2"],
            "v6.example": ["::1"],
        }
    )
    refusals: list[ProxyRefusal] = []
    p = GuardedProxy(make_policy(resolver), connect_timeout_s=5, on_refused=refusals.append)
    await p.listen()
    try:
        yield p, refusals
    finally:
        await p.aclose()


async def exchange(port: int, data: bytes, *, read_until_eof: bool = True) -> bytes:
    """Send ``data`` to the proxy and read its answer (until it closes the connection)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        if read_until_eof:
            return await asyncio.wait_for(reader.read(), 10)
        return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    finally:
        writer.close()


def split(raw: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def echoed(body: bytes) -> dict[str, object]:
    """The echo server's JSON (the proxy re-frames bodies: dechunk when needed)."""
    text = body
    if not body.lstrip().startswith(b"{"):
        out, rest = b"", body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line, 16)
            if size == 0:
                break
            out, rest = out + rest[:size], rest[size + 2 :]
        text = out
    data: dict[str, object] = json.loads(text)
    return data


async def test_plain_http_is_forwarded_once_with_clean_headers(
    proxy: tuple[GuardedProxy, list[ProxyRefusal]], echo: EchoServer, traps: dict[str, TCPTrap]
) -> None:
    p, _ = proxy
    port = p.port()
    assert port is not None
    traps["v4"].reset()
    first = (
        f"GET http://127.0.0.1:{echo.port}/a?b=1 HTTP/1.1\r\nHost: evil.example\r\n"
        "Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic eDp5\r\n"
        "Connection: keep-alive, X-Drop\r\nX-Drop: 1\r\nX-Keep: 2\r\n\r\n"
    )
    # A second request pipelined on the same connection, to another (forbidden) origin.
    second = f"GET http://127.0.0.2:{traps['v4'].port}/ HTTP/1.1\r\nHost: x\r\n\r\n"
    status, headers, body = split(await exchange(port, (first + second).encode()))
    assert status == 200
    assert headers["connection"] == "close"
    assert "keep-alive" not in headers
    seen = echoed(body)
    assert seen["target"] == "/a?b=1"
    names = {k.lower(): v for k, v in seen["headers"]}  # type: ignore[attr-defined]
    assert names["host"] == f"127.0.0.1:{echo.port}", "Host comes from the checked target"
    assert names["x-keep"] == "2"
    assert names["connection"] == "close"
    assert not {"proxy-connection", "proxy-authorization", "x-drop", "keep-alive"} & set(names)
    assert traps["v4"].count == 0, "the pipelined second request went nowhere"
    assert p.stats.forwarded == 1 and p.stats.upstream == 1


@pytest.mark.parametrize("chunked", [False, True])
async def test_request_bodies_are_forwarded(
    proxy: tuple[GuardedProxy, list[ProxyRefusal]], echo: EchoServer, chunked: bool
) -> None:
    p, _ = proxy
    port = p.port()
    assert port is not None
    body = "a=1&b=" + "x" * 70_000
    framing = (
        "Transfer-Encoding: chunked\r\n\r\n"
        + f"{len(body[:1000]):x}\r\n{body[:1000]}\r\n{len(body[1000:]):x}\r\n{body[1000:]}\r\n0\r\n\r\n"
        if chunked
        else f"Content-Length: {len(body)}\r\n\r\n{body}"
    )
    raw = f"POST http://127.0.0.1:{echo.port}/form HTTP/1.1\r\nHost: x\r\n{framing}"
    status, _headers, answer = split(await exchange(port, raw.encode()))
    assert status == 200
    seen = echoed(answer)
    assert seen["method"] == "POST" and seen["body"] == body


async def test_connect_tunnels_to_an_allowed_target(
    proxy: tuple[GuardedProxy, list[ProxyRefusal]], echo: EchoServer
) -> None:
    p, _ = proxy
    port = p.port()
    assert port is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"CONNECT 127.0.0.1:{echo.port} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 200")
        writer.write(b"GET /through-the-tunnel HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        status, _h, body = split(await asyncio.wait_for(reader.read(), 5))
    finally:
        writer.close()
    assert status == 200 and echoed(body)["target"] == "/through-the-tunnel"
    assert p.stats.tunnels == 1


def _forbidden(traps: dict[str, TCPTrap]) -> list[tuple[str, str, str]]:
    """(request line, expected code, trap key): every way to name a forbidden target."""
    v4, v6, dom = traps["v4"].port, traps["v6"].port, traps["domain"].port
    return [
        (f"CONNECT 127.0.0.2:{v4}", "blocked_address", "v4"),
        (f"GET http://127.0.0.2:{v4}/x", "blocked_address", "v4"),
        (f"CONNECT [::1]:{v6}", "blocked_address", "v6"),
        (f"GET http://[::1]:{v6}/x", "blocked_address", "v6"),
        (f"CONNECT internal.example:{v4}", "blocked_address", "v4"),
        (f"GET http://internal.example:{v4}/x", "blocked_address", "v4"),
        (f"CONNECT mixed.example:{v4}", "blocked_address", "v4"),
        (f"CONNECT v6.example:{v6}", "blocked_address", "v6"),
        (f"CONNECT 2130706434:{v4}", "blocked_address", "v4"),
        (f"CONNECT 127.2:{v4}", "blocked_address", "v4"),
        (f"CONNECT localhost:{v4}", "blocked_address", "v4"),
        (f"GET http://127.0.0.3:{dom}/x", "blocked_domain", "domain"),
        (f"CONNECT 127.0.0.3:{dom}", "blocked_domain", "domain"),
    ]


async def test_forbidden_targets_are_refused_without_any_connection(
    proxy: tuple[GuardedProxy, list[ProxyRefusal]], traps: dict[str, TCPTrap]
) -> None:
    p, refusals = proxy
    port = p.port()
    assert port is not None
    for trap in traps.values():
        trap.reset()
    cases = _forbidden(traps)
    for line, code, _key in cases:
        status, headers, body = split(
            await exchange(port, f"{line} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        )
        assert status == 403, line
        assert headers["x-webresearch-proxy"] == "refused"
        assert code.encode() in body
    assert [r.error.code for r in refusals] == [c for _l, c, _k in cases]
    assert all(r.owner is None for r in refusals)
    assert "redirect target" not in " ".join(r.error.message for r in refusals)
    assert {trap.host: trap.count for trap in traps.values()} == {
        "127.0.0.2": 0,
        "::1": 0,
        "127.0.0.3": 0,
    }
    assert p.stats.upstream == 0 and p.stats.refused == len(cases)


async def test_only_the_checked_address_is_dialled_and_every_connection_is_rechecked() -> None:
    # DNS rebinding: the first answer is public, the next private. The proxy resolves once
    # per connection and dials exactly the address it checked.
    resolver = ScriptedResolver({"site.example": [["93.184.216.34"], ["127.0.0.2"]]})
    connector = FakeConnector(
        lambda req: http_response(200, [("Content-Type", "text/plain")], b"ok")
    )
    p = GuardedProxy(make_policy(resolver), connector=connector)
    port_url = await p.listen()
    port = int(port_url.rsplit(":", 1)[1])
    try:
        status, _h, body = split(
            await exchange(port, b"GET http://site.example/ HTTP/1.1\r\nHost: site.example\r\n\r\n")
        )
        assert status == 200 and body.endswith(b"ok")
        assert connector.connects == [("93.184.216.34", 80)]
        assert connector.requests[0].headers["host"] == "site.example"
        status, _h, _b = split(
            await exchange(port, b"GET http://site.example/ HTTP/1.1\r\nHost: site.example\r\n\r\n")
        )
        assert status == 403, "the rebound answer is checked on the next connection"
        assert connector.connects == [("93.184.216.34", 80)]
        assert resolver.calls == ["site.example", "site.example"]
    finally:
        await p.aclose()


async def test_the_proxy_never_connects_to_its_own_or_excluded_ports(echo: EchoServer) -> None:
    # Loopback is exempted here (as an operator might): still, the proxy's listeners and
    # the browser's DevTools port are never reachable through it.
    p = GuardedProxy(make_policy())
    own = await p.listen()
    other = await p.listen("session-a")
    p.exclude_port(echo.port)
    try:
        for target in (own.removeprefix("http://"), other.removeprefix("http://")):
            raw = f"CONNECT {target} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            status, _h, _b = split(await exchange(int(own.rsplit(":", 1)[1]), raw))
            assert status == 403, target
        raw = f"GET http://127.0.0.1:{echo.port}/ HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        status, _h, _b = split(await exchange(int(own.rsplit(":", 1)[1]), raw))
        assert status == 403
        assert p.stats.upstream == 0
    finally:
        await p.aclose()


@pytest.mark.parametrize(
    "raw",
    [
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",  # origin form: we are not a web server
        b"GET https://example.org/ HTTP/1.1\r\nHost: x\r\n\r\n",  # https must use CONNECT
        b"GET ftp://example.org/ HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET http://user:pw@example.org/ HTTP/1.1\r\nHost: x\r\n\r\n",
        b"CONNECT example.org HTTP/1.1\r\nHost: x\r\n\r\n",  # no port
        b"CONNECT example.org:99999 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"CONNECT [::1:80 HTTP/1.1\r\nHost: x\r\n\r\n",
        b"\x16\x03\x01\x02\x00garbage\r\n\r\n",
        b"GET http://example.org/ HTTP/1.1\r\nBad Header\r\n\r\n",
    ],
)
async def test_requests_that_are_not_proxy_requests_get_400_and_no_connection(
    proxy: tuple[GuardedProxy, list[ProxyRefusal]], raw: bytes
) -> None:
    p, _ = proxy
    port = p.port()
    assert port is not None
    status, _h, _b = split(await exchange(port, raw))
    assert status == 400
    assert p.stats.upstream == 0


async def test_an_unresolvable_name_is_a_502_not_a_refusal(
    proxy: tuple[GuardedProxy, list[ProxyRefusal]],
) -> None:
    p, refusals = proxy
    port = p.port()
    assert port is not None
    status, _h, _b = split(
        await exchange(port, b"CONNECT nowhere.example:443 HTTP/1.1\r\nHost: x\r\n\r\n")
    )
    assert status == 502 and refusals == [] and p.stats.failed == 1


async def test_a_websocket_handshake_in_absolute_form_is_relayed() -> None:
    with WebSocketServer("127.0.0.1") as ws:
        p = GuardedProxy(make_policy())
        port = int((await p.listen()).rsplit(":", 1)[1])
        try:
            raw = (
                f"GET http://127.0.0.1:{ws.port}/chat HTTP/1.1\r\nHost: x\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(raw.encode())
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            frame = await asyncio.wait_for(reader.read(200), 5)
            writer.close()
        finally:
            await p.aclose()
    assert head.startswith(b"HTTP/1.1 101")
    assert b"upgrade" in head.lower()
    assert SECRET.encode() in frame


async def test_refusals_are_attributed_to_the_listener_owner_and_listeners_close(
    traps: dict[str, TCPTrap],
) -> None:
    refusals: list[ProxyRefusal] = []
    p = GuardedProxy(make_policy(), on_refused=refusals.append)
    url = await p.listen("session-a")
    port = int(url.rsplit(":", 1)[1])
    try:
        raw = f"CONNECT 127.0.0.2:{traps['v4'].port} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        status, _h, _b = split(await exchange(port, raw))
        assert status == 403
        assert [(r.owner, r.target, r.tunnel) for r in refusals] == [
            ("session-a", f"127.0.0.2:{traps['v4'].port}", True)
        ]
        p.forget("session-a")
        assert p.port("session-a") is None
        with pytest.raises(OSError):
            await asyncio.open_connection("127.0.0.1", port)
    finally:
        await p.aclose()


async def test_close_ends_open_tunnels(echo: EchoServer) -> None:
    p = GuardedProxy(make_policy())
    port = int((await p.listen()).rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"CONNECT 127.0.0.1:{echo.port} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)).startswith(b"HTTP/1.1 200")
    await asyncio.wait_for(p.aclose(), 5)
    assert await asyncio.wait_for(reader.read(), 5) == b""
    writer.close()


#: Every spelling of this host a URL can carry (issue 15: the IPv4-mapped form reached the
#: browser's DevTools port under allow_private).
LOCAL_SPELLINGS = [
    "127.0.0.1",
    "[::ffff:7f00:1]",
    "[::ffff:127.0.0.1]",
    "[::7f00:1]",
    "[64:ff9b::7f00:1]",
    "0.0.0.0",
    "[::]",
    "[::1]",
    "[::ffff:0:0]",
]


@pytest.mark.parametrize("host", LOCAL_SPELLINGS)
@pytest.mark.parametrize(
    "addresses",
    [
        AddressPolicy(allow_private=True),
        AddressPolicy.from_strings(allowed_networks=["0.0.0.0/0", "::/0"]),
    ],
    ids=["allow_private", "everything_exempted"],
)
async def test_excluded_ports_are_refused_for_every_spelling_of_this_host(
    host: str, addresses: AddressPolicy
) -> None:
    policy = RequestPolicy(
        SSRFGuard(addresses, resolver=ScriptedResolver({})), DomainPolicy.from_settings(None, [])
    )
    p = GuardedProxy(policy, connect_timeout_s=5)
    own = int((await p.listen()).rsplit(":", 1)[1])
    with TCPTrap("127.0.0.1") as devtools:  # stands for the browser's DevTools port
        p.exclude_port(devtools.port)
        try:
            for port in (devtools.port, own):
                for raw in (
                    f"GET http://{host}:{port}/json/version HTTP/1.1\r\nHost: x\r\n\r\n",
                    f"CONNECT {host}:{port} HTTP/1.1\r\nHost: x\r\n\r\n",
                ):
                    status, headers, _b = split(await exchange(own, raw.encode()))
                    assert status == 403, (host, port, raw)
                    assert headers.get("x-webresearch-proxy") == "refused"
            assert p.stats.upstream == 0 and devtools.count == 0
        finally:
            await p.aclose()


async def test_the_same_spelling_reaches_a_port_that_is_not_excluded(echo: EchoServer) -> None:
    """The control: the address policy lets the mapped form through (so the exclusion is
    what refuses it above) and the kernel delivers it to the 127.0.0.1 listener."""
    policy = RequestPolicy(
        SSRFGuard(AddressPolicy(allow_private=True), resolver=ScriptedResolver({})),
        DomainPolicy.from_settings(None, []),
    )
    p = GuardedProxy(policy, connect_timeout_s=5)
    own = int((await p.listen()).rsplit(":", 1)[1])
    try:
        raw = f"GET http://[::ffff:7f00:1]:{echo.port}/x HTTP/1.1\r\nHost: x\r\n\r\n"
        status, _h, body = split(await exchange(own, raw.encode()))
        assert status == 200 and json.loads(body)["target"] == "/x"
    finally:
        await p.aclose()



class _ClosedAsItAccepts(GuardedProxy):
    """Starts closing in the loop turn a connection is accepted, before its handler has run."""

    closing: asyncio.Future[None] | None = None

    def _accept(self, owner: str | None, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.closing = asyncio.ensure_future(self.aclose())
        super()._accept(owner, reader, writer)


async def test_a_connection_accepted_as_the_proxy_closes_is_closed_too() -> None:
    # The handler task of a connection accepted in the turn the proxy closes never ran:
    # cancelling it skipped the handler's own cleanup and the accepted socket stayed open
    # (a ResourceWarning at garbage collection, seen once in CI when a browser closed).
    p = _ClosedAsItAccepts(make_policy())
    port = int((await p.listen()).rsplit(":", 1)[1])
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        assert await asyncio.wait_for(reader.read(), 3) == b""
        assert p.closing is not None
        await p.closing
    finally:
        writer.close()
