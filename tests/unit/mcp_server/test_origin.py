"""DNS-rebinding protection of the HTTP transport: the Host/Origin rules (pure, no sockets)."""

from __future__ import annotations

from typing import Any

import pytest

from webresearch import ConfigurationError
from webresearch.mcp_server import check_bind
from webresearch.mcp_server.origin import HostOriginGate, HostRules, normalize_authority

PORT = 8765

#: What a rebinding or cross-site page can send: its own name, with or without our port,
#: look-alikes of ours, other loopback spellings, and malformed values.
FOREIGN_HOSTS = [
    f"evil.example:{PORT}",
    "evil.example",
    f"127.0.0.1.evil.example:{PORT}",
    f"localhost.evil.example:{PORT}",
    f"evil.example:{PORT}@127.0.0.2",
    f"127.0.0.2:{PORT + 1}",  # our address, another port
    "127.0.0.2",  # no port: port 80
    f"127.0.0.3:{PORT}",
    f"[::1]:{PORT}",
    f"0.0.0.0:{PORT}",
    f"127.0.0.2:{PORT}/x",
    f"127.0.0.2:+{PORT}",
    "",
]


def rules(bind: str = "127.0.0.2", *allowed: str) -> HostRules:
    return HostRules.for_bind(bind, PORT, allowed)


@pytest.mark.parametrize("host", FOREIGN_HOSTS)
def test_foreign_hosts_are_refused_on_a_loopback_bind(host: str) -> None:
    assert not rules().host_ok(host)


@pytest.mark.parametrize(
    "host", [f"127.0.0.2:{PORT}", f"127.0.0.2.:{PORT}", f"127.000.0.2:{PORT}".replace("000", "0")]
)
def test_the_bind_address_with_its_port_is_accepted(host: str) -> None:
    assert rules().host_ok(host)
    assert rules().origin_ok(f"http://{host}")


def test_ipv6_and_localhost_on_the_literal_loopback_binds() -> None:
    v6 = rules("::1")
    assert v6.host_ok(f"[::1]:{PORT}") and v6.host_ok(f"[0:0::1]:{PORT}")
    assert v6.host_ok(f"localhost:{PORT}")
    assert not v6.host_ok(f"127.0.0.1:{PORT}") and not v6.host_ok("::1")
    v4 = rules("127.0.0.1")
    assert v4.host_ok(f"LOCALHOST:{PORT}") and v4.origin_ok(f"http://localhost:{PORT}")
    assert not rules("127.0.0.2").host_ok(f"localhost:{PORT}")  # only for .1 and ::1


def test_allowed_hosts_add_names_with_the_server_port_or_their_own() -> None:
    r = rules("10.0.0.5", "mcp.example.org", "proxy.example.org:443", "[2001:db8::5]:9000")
    assert r.host_ok(f"mcp.example.org:{PORT}") and r.host_ok(f"MCP.Example.Org.:{PORT}")
    assert not r.host_ok("mcp.example.org") and not r.host_ok("mcp.example.org:443")
    assert r.host_ok("proxy.example.org:443") and r.origin_ok("https://proxy.example.org")
    assert not r.origin_ok("http://proxy.example.org")  # port 80
    assert r.host_ok("[2001:db8::5]:9000") and r.host_ok(f"10.0.0.5:{PORT}")
    assert not r.host_ok(f"evil.example:{PORT}")


def test_a_wildcard_bind_needs_allowed_hosts_and_accepts_only_them() -> None:
    for bind in ("0.0.0.0", "::"):
        with pytest.raises(ConfigurationError, match="--allowed-host"):
            rules(bind)
        r = rules(bind, "mcp.example.org")
        assert r.host_ok(f"mcp.example.org:{PORT}")
        assert not r.host_ok(f"0.0.0.0:{PORT}") and not r.host_ok(f"[::]:{PORT}")


@pytest.mark.parametrize("bad", ["", "a b", "http://x", "x:y", "x:0", "x:70000", "[::1", "u@x"])
def test_malformed_allowed_hosts_are_configuration_errors(bad: str) -> None:
    with pytest.raises(ConfigurationError, match="--allowed-host"):
        rules("127.0.0.1", bad)


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        f"http://evil.example:{PORT}",
        "null",
        "file://",
        f"ws://127.0.0.2:{PORT}",
        f"http://127.0.0.2:{PORT}/path",
        f"http://127.0.0.2:{PORT + 1}",
        "http://127.0.0.2",
        f"https://127.0.0.2:{PORT}.evil.example",
        f"http://user@127.0.0.2:{PORT}",
        "",
    ],
)
def test_foreign_origins_are_refused(origin: str) -> None:
    assert not rules().origin_ok(origin)


def test_no_origin_is_a_non_browser_client() -> None:
    assert rules().origin_ok(None)


def test_authorities_parse_with_default_ports() -> None:
    assert normalize_authority("Example.ORG.", 80) == ("example.org", 80)
    assert normalize_authority("[::1]:8080", 80) == ("::1", 8080)
    assert normalize_authority("[::1]x", 80) is None


async def _asgi(app: Any, headers: list[tuple[bytes, bytes]]) -> int:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app({"type": "http", "headers": headers, "path": "/mcp"}, receive, send)
    return int(sent[0]["status"])


async def test_the_gate_answers_421_then_403_then_passes() -> None:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    gate = HostOriginGate(app, rules())
    ours = (b"host", f"127.0.0.2:{PORT}".encode())
    assert await _asgi(gate, [(b"host", f"evil.example:{PORT}".encode())]) == 421
    assert await _asgi(gate, []) == 421  # no Host at all
    assert await _asgi(gate, [ours, ours]) == 421  # two Host headers
    assert await _asgi(gate, [ours, (b"origin", b"http://evil.example")]) == 403
    assert await _asgi(gate, [ours, (b"origin", b"null")]) == 403
    assert await _asgi(gate, [ours]) == 200
    assert await _asgi(gate, [ours, (b"origin", f"http://127.0.0.2:{PORT}".encode())]) == 200


@pytest.mark.parametrize("bind", ["127.0.0.2", "127.255.255.254", "localhost", "::ffff:127.0.0.1"])
def test_other_loopback_binds_need_a_token(bind: str) -> None:
    with pytest.raises(ConfigurationError, match=r"only 127\.0\.0\.1 and ::1"):
        check_bind(bind, None)
    check_bind(bind, "a-token-of-24-characters")


def test_any_port_entries_and_the_setting() -> None:
    r = rules("0.0.0.0", "127.0.0.1:*", "mcp.example.org")
    assert r.host_ok("127.0.0.1:8101") and r.host_ok("127.0.0.1") and r.host_ok("127.0.0.1:1")
    assert r.origin_ok("http://127.0.0.1:8102") and r.origin_ok("https://127.0.0.1")
    assert not r.host_ok("127.0.0.2:8101") and not r.host_ok("mcp.example.org:8101")
    from webresearch import Settings

    settings = Settings.load(
        environ={"WEBRESEARCH_MCP_ALLOWED_HOSTS": "127.0.0.1:*, localhost:*,mcp.example.org"}
    )
    assert settings.mcp_allowed_hosts == ("127.0.0.1:*", "localhost:*", "mcp.example.org")
    for bad in ("*", ":*", "a b:*", "a:b:c", "[a:b]:80", "x*y"):
        with pytest.raises(ConfigurationError):
            rules("127.0.0.1", bad)
