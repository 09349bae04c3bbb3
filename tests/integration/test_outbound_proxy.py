"""The outbound proxy (issue 20): web_fetch and fetch_image through a real local proxy.

The guard still decides every target (name rules, our resolution, every address) before
the proxy sees anything; the proxy is asked for a tunnel to the CHECKED IP, never the name;
TLS inside the tunnel verifies the original host name; each redirect hop is checked again;
credentials never show; proxy environment variables are ignored.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import trustme

from tests.support.fake_net import ScriptedResolver
from tests.support.http_server import LocalServer, Route
from tests.support.proxies import ConnectProxy, Socks5Proxy
from tests.support.tiny_png import png_bytes
from webresearch import ConfigurationError, RunContext, Settings, Toolkit, ToolResult
from webresearch.browser.policy import DomainPolicy, RequestPolicy
from webresearch.browser.proxy import GuardedProxy
from webresearch.net.proxy import ProxyConnector
from webresearch.runtime.journal import MemoryJournal

pytestmark = pytest.mark.network

PAGE = (
    b"<html><head><title>Through the proxy</title></head><body><article><h1>Proxy</h1>"
    + b"<p>The page came through the outbound proxy, tunnelled to the checked address.</p>" * 5
    + b"</article></body></html>"
)
USER, PASSWORD = "agent", "pr0xy-s3cret-w0rd"


def _routes(base: str = "") -> dict[str, Any]:
    html = [("Content-Type", "text/html; charset=utf-8")]
    return {
        "/page": Route(headers=html, body=PAGE),
        "/to-internal": Route(status=302, headers=[("Location", "http://evil.test/x")]),
        "/to-other": Route(status=302, headers=[("Location", f"{base}/page")]),
        "/img.png": Route(headers=[("Content-Type", "image/png")], body=png_bytes()),
    }


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def client_tls(ca: trustme.CA) -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ca.configure_trust(ctx)
    return ctx


def _server_tls(ca: trustme.CA, *names: str) -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(*names).configure_cert(ctx)
    return ctx


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer(_routes()) as server:
        server.routes.update(_routes(f"http://other.test:{server.port}"))
        yield server


RESOLVER_TABLE: dict[str, list[str] | list[list[str]]] = {
    "site.test": ["127.0.0.1"],
    "other.test": ["127.0.0.1"],
    "evil.test": ["169.254.169.254"],
    "mixed.test": ["127.0.0.1", "10.0.0.7"],
}


async def _toolkit(
    proxy_url: str | None, resolver: ScriptedResolver, tls: ssl.SSLContext | None = None
) -> Toolkit:
    settings = Settings.load(
        environ={},
        allowed_networks=["127.0.0.0/8"],
        journal_url="memory://",
        **({"outbound_proxy": proxy_url} if proxy_url else {}),
    )
    return Toolkit(settings, resolver=resolver, ssl_context=tls, journal=MemoryJournal())


async def _fetch(tk: Toolkit, url: str) -> ToolResult:
    return await tk.call("web_fetch", {"url": url})


@pytest.fixture
async def connect_proxy() -> AsyncIterator[ConnectProxy]:
    async with ConnectProxy() as proxy:
        yield proxy


async def test_a_name_is_checked_by_us_and_tunnelled_to_its_checked_address(
    site: LocalServer, connect_proxy: ConnectProxy
) -> None:
    resolver = ScriptedResolver(RESOLVER_TABLE)
    async with await _toolkit(connect_proxy.url(), resolver) as tk:
        result = await _fetch(tk, f"http://site.test:{site.port}/page")
    assert result.ok, result.text
    assert "tunnelled to the checked address" in result.text
    assert resolver.calls == ["site.test"]  # our resolver, once
    assert connect_proxy.tunnels == [f"127.0.0.1:{site.port}"]  # the IP, never the name
    assert connect_proxy.other == []  # no absolute-form request the proxy could re-resolve
    assert site.log[-1].headers["host"] == f"site.test:{site.port}"


async def test_https_inside_the_tunnel_verifies_the_original_name(
    ca: trustme.CA, client_tls: ssl.SSLContext, connect_proxy: ConnectProxy
) -> None:
    with LocalServer(_routes(), tls=_server_tls(ca, "site.test")) as tls_site:
        resolver = ScriptedResolver(RESOLVER_TABLE)
        async with await _toolkit(connect_proxy.url(), resolver, client_tls) as tk:
            ok = await _fetch(tk, f"https://site.test:{tls_site.port}/page")
            # The certificate is for site.test only: a name it does not cover fails TLS.
            wrong = await _fetch(tk, f"https://other.test:{tls_site.port}/page")
    assert ok.ok, ok.text
    assert wrong.error is not None and wrong.error.code == "tls"
    assert connect_proxy.tunnels == [f"127.0.0.1:{tls_site.port}"] * 2


@pytest.mark.parametrize("host", ["evil.test", "mixed.test", "localhost", "10.0.0.1", "2130706433"])
async def test_a_refused_target_never_reaches_the_proxy(
    site: LocalServer, connect_proxy: ConnectProxy, host: str
) -> None:
    async with await _toolkit(connect_proxy.url(), ScriptedResolver(RESOLVER_TABLE)) as tk:
        result = await _fetch(tk, f"http://{host}:{site.port}/page")
    assert result.error is not None and result.error.code == "blocked_address"
    assert connect_proxy.connections == 0


async def test_every_redirect_hop_is_checked_and_tunnelled_on_its_own(
    site: LocalServer, connect_proxy: ConnectProxy
) -> None:
    async with await _toolkit(connect_proxy.url(), ScriptedResolver(RESOLVER_TABLE)) as tk:
        refused = await _fetch(tk, f"http://site.test:{site.port}/to-internal")
        followed = await _fetch(tk, f"http://site.test:{site.port}/to-other")
    assert refused.error is not None and refused.error.code == "blocked_address"
    assert followed.ok, followed.text
    # Two tunnels to the checked address, one per allowed hop; none for evil.test.
    assert connect_proxy.tunnels.count(f"127.0.0.1:{site.port}") >= 2
    assert all(t == f"127.0.0.1:{site.port}" for t in connect_proxy.tunnels)


async def test_credentials_are_sent_to_the_proxy_and_shown_nowhere(site: LocalServer) -> None:
    async with ConnectProxy(credentials=(USER, PASSWORD)) as proxy:
        resolver = ScriptedResolver(RESOLVER_TABLE)
        async with await _toolkit(proxy.url(f"{USER}:{PASSWORD}"), resolver) as tk:
            ok = await _fetch(tk, f"http://site.test:{site.port}/page")
            events = await tk.journal.query()
            shown = str(tk.services.settings.public_dict())
        async with await _toolkit(proxy.url(f"{USER}:wrong"), resolver) as tk:
            refused = await _fetch(tk, f"http://site.test:{site.port}/page")
            events += await tk.journal.query()
    assert ok.ok, ok.text
    assert proxy.auth[0] is not None and proxy.auth[0].startswith("Basic ")
    assert refused.error is not None and refused.error.code == "network"
    assert "407" in refused.text and "outbound proxy" in refused.text
    for text in (ok.text, refused.text, str(refused.meta), shown, str(events)):
        assert PASSWORD not in text
        assert str(proxy.port) not in text  # the proxy's address is not the model's business


@pytest.mark.parametrize("status", [403, 502])
async def test_a_proxy_refusal_is_a_network_error_naming_no_address(
    site: LocalServer, status: int
) -> None:
    resolver = ScriptedResolver(RESOLVER_TABLE)
    async with (
        ConnectProxy(refuse=status) as proxy,
        await _toolkit(proxy.url(), resolver) as tk,
    ):
        result = await _fetch(tk, f"http://site.test:{site.port}/page")
    assert result.error is not None and result.error.code == "network"
    assert "outbound proxy" in result.text and str(status) in result.text
    assert "127.0.0.1" not in result.text and str(proxy.port) not in result.text


async def test_an_unreachable_proxy_is_a_network_error(site: LocalServer) -> None:
    async with ConnectProxy() as proxy:
        dead = proxy.url()  # closed when the block ends
    async with await _toolkit(dead, ScriptedResolver(RESOLVER_TABLE)) as tk:
        result = await _fetch(tk, f"http://site.test:{site.port}/page")
    assert result.error is not None and result.error.code == "network"


@pytest.mark.parametrize("credentials", [None, (USER, PASSWORD)])
async def test_socks5_tunnels_to_the_checked_ip_never_a_name(
    site: LocalServer, credentials: tuple[str, str] | None
) -> None:
    async with Socks5Proxy(credentials=credentials) as proxy:
        userinfo = ":".join(credentials) if credentials else ""
        async with await _toolkit(proxy.url(userinfo), ScriptedResolver(RESOLVER_TABLE)) as tk:
            result = await _fetch(tk, f"http://site.test:{site.port}/page")
            blocked = await _fetch(tk, f"http://evil.test:{site.port}/page")
    assert result.ok, result.text
    assert proxy.tunnels == [f"1 127.0.0.1:{site.port}"]  # address type 1: IPv4
    assert blocked.error is not None and blocked.error.code == "blocked_address"
    assert proxy.connections == 1
    if credentials:
        assert proxy.auth == [f"{USER}:{PASSWORD}"]


async def test_socks5_wrong_credentials(site: LocalServer) -> None:
    async with (
        Socks5Proxy(credentials=(USER, PASSWORD)) as proxy,
        await _toolkit(proxy.url(f"{USER}:nope"), ScriptedResolver(RESOLVER_TABLE)) as tk,
    ):
        result = await _fetch(tk, f"http://site.test:{site.port}/page")
    assert result.error is not None and result.error.code == "network"
    assert "credentials" in result.text and "nope" not in result.text


async def test_an_https_proxy_is_reached_over_tls(
    ca: trustme.CA, client_tls: ssl.SSLContext, site: LocalServer
) -> None:
    resolver = ScriptedResolver(RESOLVER_TABLE)
    with LocalServer(_routes(), tls=_server_tls(ca, "site.test")) as tls_site:
        async with (
            ConnectProxy(tls=_server_tls(ca, "127.0.0.1")) as proxy,
            await _toolkit(proxy.url(), resolver, client_tls) as tk,
        ):
            plain = await _fetch(tk, f"http://site.test:{site.port}/page")
            nested = await _fetch(tk, f"https://site.test:{tls_site.port}/page")  # TLS in TLS
    assert plain.ok, plain.text
    assert nested.ok, nested.text
    assert proxy.tunnels == [f"127.0.0.1:{site.port}", f"127.0.0.1:{tls_site.port}"]


async def test_fetch_image_goes_through_the_proxy_too(
    site: LocalServer, connect_proxy: ConnectProxy
) -> None:
    settings = Settings.load(
        environ={},
        allowed_networks=["127.0.0.0/8"],
        journal_url="memory://",
        outbound_proxy=connect_proxy.url(),
    )
    async with Toolkit(settings, resolver=ScriptedResolver(RESOLVER_TABLE)) as tk:
        result = await tk.call(
            "fetch_image",
            {"url": f"http://site.test:{site.port}/img.png"},
            run=RunContext(can_see_images=True),
        )
    assert result.ok, result.text
    assert connect_proxy.tunnels == [f"127.0.0.1:{site.port}"]


async def test_proxy_environment_variables_are_ignored(
    site: LocalServer, connect_proxy: ConnectProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "all_proxy"):
        monkeypatch.setenv(name, connect_proxy.url())
    async with await _toolkit(None, ScriptedResolver(RESOLVER_TABLE)) as tk:
        result = await _fetch(tk, f"http://site.test:{site.port}/page")
    assert result.ok, result.text
    assert connect_proxy.connections == 0  # direct: the variables were not read


@pytest.mark.parametrize(
    "value",
    [
        "ftp://proxy.example:21",
        "http://",
        "http://user:p4ss@proxy.example:0",
        "http://user:p4ss@proxy.example:99999",
        "http://proxy.example:3128/path",
        "socks4://proxy.example:1080",
    ],
)
def test_a_malformed_proxy_is_a_configuration_error_that_hides_it(value: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        Settings.load(environ={"WEBRESEARCH_OUTBOUND_PROXY": value})
    assert "p4ss" not in str(caught.value) and "proxy.example" not in str(caught.value)


def test_the_proxy_url_is_a_secret() -> None:
    settings = Settings.load(
        environ={"WEBRESEARCH_OUTBOUND_PROXY": f"http://{USER}:{PASSWORD}@px.example:3128"}
    )
    assert settings.public_dict()["outbound_proxy"] == "***"
    assert PASSWORD in settings.secret_values()
    assert PASSWORD not in repr(settings)


async def test_the_browsers_guarded_proxy_dials_through_the_outbound_proxy(
    site: LocalServer, connect_proxy: ConnectProxy
) -> None:
    # Services hands its connector to the browser's guarded proxy (launched backends): with
    # outbound_proxy set, every browser connection is a tunnel to a checked address too.
    async with await _toolkit(connect_proxy.url(), ScriptedResolver(RESOLVER_TABLE)) as tk:
        services = tk.services
        assert isinstance(services.connector, ProxyConnector)
        policy = RequestPolicy(services.guard, DomainPolicy.from_settings(None, []))
        browser_proxy = GuardedProxy(policy, connector=services.connector, connect_timeout_s=5)
        listen = await browser_proxy.listen()
        try:
            port = int(listen.rsplit(":", 1)[1])
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(
                f"GET http://site.test:{site.port}/page HTTP/1.1\r\n"
                f"Host: site.test:{site.port}\r\n\r\n".encode()
            )
            await writer.drain()
            answer = await asyncio.wait_for(reader.read(), 10)
            writer.close()
        finally:
            await browser_proxy.aclose()
    assert answer.startswith(b"HTTP/1.1 200")
    assert b"tunnelled to the checked address" in answer
    assert connect_proxy.tunnels == [f"127.0.0.1:{site.port}"]
