"""The outbound proxy connector without sockets: what it asks the proxy (issue 20)."""

from __future__ import annotations

import pytest

from tests.support.fake_net import FakeConnector, FakeRequest, ScriptedResolver, http_response
from webresearch.addresses import AddressPolicy
from webresearch.errors import ConfigurationError, NetworkError
from webresearch.net.client import GuardedClient
from webresearch.net.guard import SSRFGuard
from webresearch.net.proxy import ProxyConfig, ProxyConnector, outbound_connector, parse_proxy_url


def _proxy_app(request: FakeRequest) -> bytes:
    if request.method == "CONNECT":
        return b"HTTP/1.1 200 Connection established\r\n\r\n"
    body = f"host={request.headers['host']}".encode()
    return http_response(200, [("Content-Type", "text/plain")], body)


@pytest.mark.parametrize(
    ("ip", "authority"),
    [("93.184.216.34", "93.184.216.34:443"), ("2606:4700::1111", "[2606:4700::1111]:443")],
)
async def test_connect_names_the_checked_address_in_either_family(ip: str, authority: str) -> None:
    backend = FakeConnector(_proxy_app)
    connector = ProxyConnector(ProxyConfig("http", "proxy.example", 3128), backend)
    guard = SSRFGuard(AddressPolicy(), resolver=ScriptedResolver({"example.org": [ip]}))
    async with GuardedClient(guard, connector=connector) as client:
        response = await client.get("https://example.org/x")
    assert response.body == b"host=example.org"  # Host inside the tunnel: the original name
    assert backend.connects == [("proxy.example", 3128)]  # only the proxy is dialled
    connect, inner = backend.requests
    assert (connect.method, connect.target, connect.headers["host"]) == (
        "CONNECT",
        authority,
        authority,
    )
    assert "proxy-authorization" not in connect.headers
    assert inner.server_hostname == "example.org"  # SNI and certificate: the original name
    assert inner.target == "/x"  # origin form: nothing the proxy could forward elsewhere


async def test_the_connector_refuses_a_name() -> None:
    connector = ProxyConnector(
        ProxyConfig("http", "proxy.example", 3128), FakeConnector(_proxy_app)
    )
    with pytest.raises(ValueError):
        await connector.connect_tcp("example.org", 443)


async def test_credentials_travel_as_basic_auth_to_the_proxy_only() -> None:
    backend = FakeConnector(_proxy_app)
    proxy = parse_proxy_url("http://us%40er:p%3Ass@proxy.example:3128")
    async with GuardedClient(
        SSRFGuard(AddressPolicy(), resolver=ScriptedResolver({"example.org": ["93.184.216.34"]})),
        connector=ProxyConnector(proxy, backend),
    ) as client:
        await client.get("http://example.org/")
    connect, inner = backend.requests
    assert connect.headers["proxy-authorization"] == "Basic dXNAZXI6cDpzcw=="  # us@er:p:ss
    assert "proxy-authorization" not in inner.headers


async def test_a_407_is_a_non_retryable_network_error() -> None:
    def app(request: FakeRequest) -> bytes:
        return http_response(407, [("Proxy-Authenticate", "Basic")])

    connector = ProxyConnector(ProxyConfig("http", "proxy.example", 3128), FakeConnector(app))
    with pytest.raises(NetworkError, match="407") as caught:
        await connector.connect_tcp("93.184.216.34", 443)
    assert caught.value.retryable is False


def test_proxy_urls_parse_with_default_ports_and_hidden_credentials() -> None:
    assert parse_proxy_url("http://p.example") == ProxyConfig("http", "p.example", 80)
    assert parse_proxy_url("https://p.example").port == 443
    assert parse_proxy_url("socks5h://p.example") == ProxyConfig("socks5", "p.example", 1080)
    secret = parse_proxy_url("socks5://u:hunter2@[2001:db8::1]:9050")
    assert (secret.host, secret.port, secret.username, secret.password) == (
        "2001:db8::1",
        9050,
        "u",
        "hunter2",
    )
    assert "hunter2" not in repr(secret)
    for bad in ("p.example:3128", "ftp://p.example", "http://p.example:x", "socks4://p:1"):
        with pytest.raises(ConfigurationError):
            parse_proxy_url(bad)
    assert outbound_connector(None) is None
    assert isinstance(outbound_connector("http://p.example:3128"), ProxyConnector)
