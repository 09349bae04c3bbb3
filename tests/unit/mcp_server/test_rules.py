"""Pure rules of the MCP face: where it may listen, the token gate, what counts as approval."""

from __future__ import annotations

from typing import Any

import mcp_types as types
import pytest

from webresearch import ConfigurationError, ImageBlock, ToolResult
from webresearch.mcp_server import check_bind, is_loopback, parse_bind
from webresearch.mcp_server.approval import granted, supports_form_elicitation
from webresearch.mcp_server.convert import call_result
from webresearch.mcp_server.http import BearerTokenGate


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("localhost:0", ("localhost", 0)),
        ("[::1]:8080", ("::1", 8080)),
        (" 0.0.0.0:65535 ", ("0.0.0.0", 65535)),
        ("8765", ("127.0.0.1", 8765)),  # no host: loopback
        (":8765", ("127.0.0.1", 8765)),
    ],
)
def test_bind_addresses_parse(text: str, expected: tuple[str, int]) -> None:
    assert parse_bind(text) == expected


@pytest.mark.parametrize("text", ["127.0.0.1", "127.0.0.1:", "host:http", "h:65536", "h:-1", ""])
def test_malformed_binds_are_configuration_errors(text: str) -> None:
    with pytest.raises(ConfigurationError, match=r"\[HOST:\]PORT"):
        parse_bind(text)


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.8.9.10", True),
        ("::1", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("0.0.0.0", False),  # every interface
        ("::", False),
        ("10.0.0.5", False),
        ("192.168.1.2", False),
        ("example.org", False),
        ("127.0.0.1.nip.io", False),  # a name that merely looks local
        ("::ffff:127.0.0.1", True),  # IPv4-mapped loopback
        ("::ffff:10.0.0.1", False),
    ],
)
def test_only_127_0_0_1_and_ipv6_loopback_need_no_token(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
    if host in ("127.0.0.1", "::1"):
        check_bind(host, None)
    else:  # 127.0.0.2, localhost, a mapped loopback: reachable by rebinding tricks too
        with pytest.raises(ConfigurationError, match="without a token"):
            check_bind(host, None)
        with pytest.raises(ConfigurationError):
            check_bind(host, "")
        check_bind(host, "a-token-of-24-characters")


@pytest.mark.parametrize("token", [" ", "a", "short-token", "               x"])
def test_weak_tokens_are_refused_everywhere(token: str) -> None:
    for host in ("127.0.0.1", "0.0.0.0"):
        with pytest.raises(ConfigurationError, match="too weak"):
            check_bind(host, token)


async def asgi(app: Any, scope: dict[str, Any]) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


async def test_the_gate_passes_only_the_exact_bearer_token() -> None:
    reached: list[str] = []

    async def inner(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["type"])

    gate = BearerTokenGate(inner, "s3cret-token")

    def http(auth: bytes | None) -> dict[str, Any]:
        headers = [(b"authorization", auth)] if auth is not None else []
        return {"type": "http", "method": "POST", "path": "/mcp", "headers": headers}

    for auth in (None, b"Bearer s3cret-tokenX", b"Bearer s3cret-toke", b"Basic s3cret-token",
                 b"s3cret-token", b"Bearer", b"Bearer S3CRET-TOKEN"):  # fmt: skip
        sent = await asgi(gate, http(auth))
        assert sent[0]["status"] == 401, auth
        assert dict(sent[0]["headers"])[b"www-authenticate"].startswith(b"Bearer")
        assert b"s3cret" not in sent[1]["body"]
    assert reached == []
    await asgi(gate, http(b"Bearer s3cret-token"))
    await asgi(gate, http(b"bearer   s3cret-token"))  # scheme is case-insensitive (RFC 7235)
    await asgi(gate, {"type": "lifespan"})  # startup/shutdown pass untouched
    assert reached == ["http", "http", "lifespan"]


@pytest.mark.parametrize(
    ("action", "content", "expected"),
    [
        ("accept", {"approve": True}, True),
        ("accept", {"approve": False}, False),
        ("accept", {"approve": "true"}, False),  # a string is not a yes
        ("accept", {"approve": 1}, False),
        ("accept", {}, False),
        ("accept", None, False),
        ("decline", {"approve": True}, False),
        ("cancel", None, False),
    ],
)
def test_only_an_accepted_true_approves(action: Any, content: Any, expected: bool) -> None:
    assert granted(types.ElicitResult(action=action, content=content)) is expected
    assert granted(None) is False


def test_form_elicitation_support_follows_the_declared_capability() -> None:
    caps = types.ClientCapabilities
    elicitation = types.ElicitationCapability
    assert supports_form_elicitation(caps(elicitation=elicitation())) is True  # bare: form
    assert supports_form_elicitation(
        caps(elicitation=elicitation(form=types.FormElicitationCapability()))
    )
    assert not supports_form_elicitation(
        caps(elicitation=elicitation(url=types.UrlElicitationCapability()))
    )
    assert not supports_form_elicitation(caps())
    assert not supports_form_elicitation(None)


def test_results_become_text_then_images_and_failures_is_error() -> None:
    image = ImageBlock(b"\x89PNG\r\n\x1a\n", "image/png", {"width": 1, "height": 1})
    ok = call_result(ToolResult("meta text", images=(image, image)))
    assert [c.type for c in ok.content] == ["text", "image", "image"] and not ok.is_error
    only_image = call_result(ToolResult("", images=(image,)))
    assert [c.type for c in only_image.content] == ["image"]
    empty = call_result(ToolResult(""))
    assert [c.type for c in empty.content] == ["text"]
    failed = call_result(ToolResult.failure(ConfigurationError("bad")))
    assert failed.is_error and failed.content[0].model_dump()["text"] == "error[configuration]: bad"
