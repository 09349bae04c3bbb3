"""Pure rules of the browser hardening (issue 6 follow-up): the proxy's request-line and
header rules, the launch flags that route every connection through it, the readiness
note, evaluate values, file types, and the CLI's output-file checks."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from webresearch.addresses import AddressPolicy
from webresearch.browser.base import SessionConfig
from webresearch.browser.launch import launch
from webresearch.browser.launch_args import PROXY_ENV, chromium_args, lightpanda_args
from webresearch.browser.page_errors import map_error
from webresearch.browser.page_values import json_safe
from webresearch.browser.policy import DomainPolicy, RequestPolicy
from webresearch.browser.proxy_http import (
    TargetError,
    downstream_headers,
    parse_target,
    upstream_headers,
    wants_upgrade,
)
from webresearch.browser.responses import is_page_type
from webresearch.cli.files import free_name, output_problem, write_file
from webresearch.errors import (
    BlockedAddress,
    BrowserError,
    InvalidArguments,
    NetworkError,
    UnsupportedContent,
)
from webresearch.net.guard import SSRFGuard
from webresearch.tools.browser_reading import readiness_note


@pytest.mark.parametrize(
    ("method", "target", "kind", "host", "port", "policy_url", "origin"),
    [
        (
            "CONNECT",
            "example.org:443",
            "tunnel",
            "example.org",
            443,
            "https://example.org:443/",
            "",
        ),
        ("CONNECT", "[::1]:8080", "tunnel", "::1", 8080, "https://[::1]:8080/", ""),
        ("connect", "127.0.0.2:80", "tunnel", "127.0.0.2", 80, "https://127.0.0.2:80/", ""),
        (
            "GET",
            "http://example.org/a?b=1",
            "forward",
            "example.org",
            80,
            "http://example.org/a?b=1",
            "/a?b=1",
        ),
        (
            "POST",
            "http://example.org:8080",
            "forward",
            "example.org",
            8080,
            "http://example.org:8080",
            "/",
        ),
        ("GET", "HTTP://[::1]:81/x", "forward", "::1", 81, "HTTP://[::1]:81/x", "/x"),
    ],
)
def test_proxy_targets(
    method: str, target: str, kind: str, host: str, port: int, policy_url: str, origin: str
) -> None:
    parsed = parse_target(method, target)
    assert (parsed.kind, parsed.host, parsed.port, parsed.policy_url) == (
        kind,
        host,
        port,
        policy_url,
    )
    assert parsed.origin_form == origin


def test_forward_authority_and_shown_target() -> None:
    assert parse_target("GET", "http://example.org:80/").authority == "example.org"
    assert parse_target("GET", "http://example.org:8080/").authority == "example.org:8080"
    assert parse_target("CONNECT", "[::1]:443").shown == "[::1]:443"
    # Never a path or query in what is recorded: it may hold secrets.
    assert parse_target("GET", "http://a.example/p?token=s3cret").shown == "a.example:80"


@pytest.mark.parametrize(
    ("method", "target"),
    [
        ("GET", "/index.html"),  # origin form: not a proxy request
        ("GET", "https://example.org/"),  # https must be tunnelled
        ("GET", "ws://example.org/"),
        ("GET", "ftp://example.org/"),
        ("GET", "http://user:pw@example.org/"),
        ("GET", "http:///nohost"),
        ("CONNECT", "example.org"),  # no port
        ("CONNECT", "example.org:0"),
        ("CONNECT", "example.org:65536"),
        ("CONNECT", "example.org:https"),
        ("CONNECT", "::1:443"),  # IPv6 without brackets
        ("CONNECT", "[::1]x:443"),
        ("CONNECT", "[::1:443"),
        ("CONNECT", "user@example.org:443"),
        ("CONNECT", "example.org:443/path"),
        ("CONNECT", ":443"),
    ],
)
def test_bad_proxy_targets(method: str, target: str) -> None:
    with pytest.raises(TargetError):
        parse_target(method, target)


def test_upstream_headers_drop_hop_by_hop_and_set_host() -> None:
    target = parse_target("GET", "http://example.org:8080/x")
    headers = [
        (b"Host", b"evil.example"),
        (b"Proxy-Connection", b"keep-alive"),
        (b"Proxy-Authorization", b"Basic eDp5"),
        (b"Connection", b"keep-alive, X-Hop"),
        (b"X-Hop", b"1"),
        (b"Keep-Alive", b"timeout=5"),
        (b"TE", b"trailers"),
        (b"Accept", b"*/*"),
        (b"Content-Length", b"3"),
    ]
    assert upstream_headers(headers, target) == [
        (b"Host", b"example.org:8080"),
        (b"Accept", b"*/*"),
        (b"Content-Length", b"3"),
        (b"Connection", b"close"),
    ]


def test_an_upgrade_handshake_keeps_its_headers() -> None:
    target = parse_target("GET", "http://example.org/chat")
    headers = [
        (b"Connection", b"Upgrade"),
        (b"Upgrade", b"websocket"),
        (b"Sec-WebSocket-Key", b"k"),
    ]
    assert wants_upgrade(headers)
    assert upstream_headers(headers, target) == [
        (b"Host", b"example.org"),
        (b"Upgrade", b"websocket"),
        (b"Sec-WebSocket-Key", b"k"),
        (b"Connection", b"upgrade"),
    ]
    assert not wants_upgrade([(b"Upgrade", b"websocket")])  # not named in Connection


def test_downstream_headers_always_close() -> None:
    got = downstream_headers(
        [(b"Content-Length", b"2"), (b"Connection", b"keep-alive"), (b"Keep-Alive", b"t=5")], 200
    )
    assert got == [(b"Content-Length", b"2"), (b"Connection", b"close")]
    switched = downstream_headers([(b"Upgrade", b"websocket"), (b"Connection", b"Upgrade")], 101)
    assert switched == [(b"Upgrade", b"websocket"), (b"Connection", b"upgrade")]


def test_chromium_goes_through_the_proxy_and_sends_no_udp() -> None:
    args = chromium_args(
        "/bin/chromium",
        user_data_dir="/tmp/p",
        viewport=(1280, 800),
        no_sandbox=False,
        proxy_url="http://127.0.0.1:4321",
    )
    assert "--proxy-server=http://127.0.0.1:4321" in args
    assert "--proxy-bypass-list=<-loopback>" in args  # loopback is proxied (and checked) too
    assert any(a.startswith("--host-resolver-rules=MAP * ~NOTFOUND") for a in args)
    assert "--webrtc-ip-handling-policy=disable_non_proxied_udp" in args
    assert "--disable-quic" in args
    assert not any(a.startswith("--force-webrtc") for a in args), "a switch Chromium ignores"
    # No startup tab and one --disable-features switch (Chromium reads only the last one).
    assert "--no-startup-window" in args and "about:blank" not in args
    disabled = [a for a in args if a.startswith("--disable-features=")]
    assert len(disabled) == 1 and "SpareRendererForSitePerProcess" in disabled[0]
    assert not any(
        a.startswith("--proxy")
        for a in chromium_args(
            "/bin/chromium", user_data_dir="/tmp/p", viewport=(1, 1), no_sandbox=False
        )
    )


def test_lightpanda_goes_through_the_proxy() -> None:
    args = lightpanda_args("/bin/lp", port=9, max_connections=4, proxy_url="http://127.0.0.1:1")
    assert args[args.index("--http-proxy") + 1] == "http://127.0.0.1:1"


async def test_a_launched_browser_never_inherits_proxy_variables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # NO_PROXY=127.0.0.2 made Lightpanda bypass its proxy for that address (measured).
    for name in PROXY_ENV:
        monkeypatch.setenv(name, "127.0.0.2")
    out = tmp_path / "env.txt"
    process = await launch(
        [sys.executable, "-c", f"import os; open({str(out)!r}, 'w').write(repr(dict(os.environ)))"],
        env={"EXTRA": "1"},
    )
    await asyncio.wait_for(process.process.wait(), 20)
    await process.aclose()
    seen = eval(out.read_text())
    assert not set(PROXY_ENV) & set(seen)
    assert seen["EXTRA"] == "1" and seen["PATH"] == os.environ["PATH"]


async def test_navigations_must_be_http() -> None:
    policy = RequestPolicy(SSRFGuard(AddressPolicy()), DomainPolicy())
    for url in ("data:text/html,x", "about:blank", "javascript:1", "ws://example.org/", "x"):
        with pytest.raises(InvalidArguments, match="only opens http and https pages"):
            await policy.check_navigation(url)
    with pytest.raises(BlockedAddress):
        await policy.check_navigation("http://127.0.0.1/")


def test_json_safe_values() -> None:
    cyclic: dict[str, object] = {"x": 1}
    cyclic["self"] = cyclic
    window: dict[str, object] = {"document": {"title": "t"}}
    window["window"] = window
    window["self"] = window
    shared = {"k": 1}
    assert json_safe(cyclic) == {"x": 1, "self": "[circular]"}
    assert json_safe([window]) == ["[unserializable: Window]"]
    assert json_safe([shared, shared]) == [{"k": 1}, {"k": 1}]
    assert json_safe([float("nan"), float("inf"), -float("inf"), 1.5]) == [
        "NaN",
        "Infinity",
        "-Infinity",
        1.5,
    ]
    assert json_safe(list(range(100)), max_values=10)[-1] == "[…]"
    deep: list[object] = []
    node = deep
    for _ in range(200):
        node.append([])
        node = node[0]  # type: ignore[assignment]
    assert "[…]" in repr(json_safe(deep))


@pytest.mark.parametrize(
    ("content_type", "page"),
    [
        ("text/html; charset=utf-8", True),
        ("application/xhtml+xml", True),
        ("application/json", True),
        ("application/ld+json", True),
        ("image/png", True),
        ("text/plain", True),
        ("", True),
        ("application/pdf", False),
        ("application/octet-stream", False),
        ("application/zip", False),
        ("video/mp4", False),
    ],
)
def test_page_types(content_type: str, page: bool) -> None:
    assert is_page_type(content_type) is page


def test_browser_errors_are_mapped_to_clear_ones() -> None:
    config = SessionConfig()
    download = map_error(Exception("Page.goto: Download is starting"), "opening the page", config)
    assert isinstance(download, UnsupportedContent) and "file download" in download.message
    tunnel = map_error(
        Exception("net::ERR_TUNNEL_CONNECTION_FAILED at http://x/"), "opening the page", config
    )
    assert isinstance(tunnel, NetworkError) and "guarded proxy" in tunnel.message


def test_readiness_notes() -> None:
    assert readiness_note(True, True, 15) is None
    assert "had not finished loading after 15 s" in (readiness_note(False, False, 15) or "")
    assert "still changing after 15 s" in (readiness_note(True, False, 15) or "")


def test_readiness_notes_round_the_budget_left() -> None:
    """Before: ``had not finished loading after 4.95043 s`` (the budget left after the
    navigation, unrounded)."""
    assert (readiness_note(False, False, 4.95043) or "").endswith("loading after 5 s")
    assert "still changing after 12.5 s;" in (readiness_note(True, False, 12.5) or "")
    assert "loading after 0.43 s" in (readiness_note(False, False, 0.4321) or "")


def test_output_files(tmp_path: Path) -> None:
    assert output_problem(str(tmp_path / "a.png")) is None
    assert "does not exist" in (output_problem(str(tmp_path / "no" / "a.png")) or "")
    assert "is a directory" in (output_problem(str(tmp_path)) or "")
    (tmp_path / "f").write_text("x")
    assert "not a directory" in (output_problem(str(tmp_path / "f" / "a.png")) or "")
    assert write_file(tmp_path / "a.png", b"x") is None
    assert (write_file(tmp_path / "no" / "a.png", b"x") or "").startswith("could not write")
    assert free_name(tmp_path, "screenshot", ".png").name == "screenshot-1.png"
    (tmp_path / "screenshot-1.png").write_bytes(b"x")
    (tmp_path / "screenshot-2-2.png").write_bytes(b"x")  # a tile of shot 2
    assert free_name(tmp_path, "screenshot", ".png").name == "screenshot-3.png"


@pytest.mark.parametrize(
    ("library_text", "expected"),
    [
        (
            'Page.goto: Navigation to "http://127.0.0.1:8765/fetchleak.html" is interrupted by '
            'another navigation to "chrome-error://chromewebdata/"',
            "opening the page failed: another navigation of the tab interrupted it",
        ),
        (
            "Locator.click: Element is not attached to the DOM\nCall log:\n  - waiting for x",
            "opening the page failed: Element is not attached to the DOM",
        ),
        (
            "Error: Page.goto: Protocol error (Page.navigate): Cannot navigate to "
            '"http://10.0.0.1/a?token=s3cret"',
            "opening the page failed: Cannot navigate to a URL",
        ),
    ],
)
def test_library_error_text_is_reworded(library_text: str, expected: str) -> None:
    """Fresh review (session 9): "opening the page failed: Page.goto: Navigation to … is
    interrupted by another navigation to "chrome-error://chromewebdata/"" reached the model.
    The library's API names and the URLs of its text are never shown."""
    error = map_error(Exception(library_text), "opening the page", SessionConfig())
    assert type(error) is BrowserError
    assert error.message == expected
    leaks = (
        "Page.",
        "Locator.",
        "Protocol error",
        "chrome-error",
        "127.0.0.1",
        "s3cret",
        "Call log",
    )
    for leaked in leaks:
        assert leaked not in error.message
