"""Pure parts of the browser: domain policy, request verdicts, session table, snapshot
layout, refs, CDP discovery URLs, the probe's PNG reader."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

import pytest

from webresearch import BrowserError, ConfigurationError, Settings
from webresearch.addresses import AddressPolicy
from webresearch.browser.discovery import normalize_cdp_url, websocket_url
from webresearch.browser.policy import DomainPolicy, RequestPolicy
from webresearch.browser.probe import PROBE_CLIP, has_probe_box, png_pixel
from webresearch.browser.sessions import SessionTable, session_key
from webresearch.browser.snapshot import parse_ref, render_snapshot
from webresearch.extract.appshell import looks_like_app_shell
from webresearch.net.guard import SSRFGuard
from webresearch.tools.browser_actions import action_risk


@pytest.mark.parametrize(
    ("allowed", "blocked", "host", "refused"),
    [
        (None, (), "example.com", False),
        ((), (), "example.com", True),  # an explicitly empty allow list blocks everything
        (("example.com",), (), "example.com", False),
        (("example.com",), (), "www.example.com", True),
        (("*.example.com",), (), "www.example.com", False),
        (("*.example.com",), (), "a.b.example.com", False),
        (("*.example.com",), (), "example.com", True),
        (("*.example.com",), (), "badexample.com", True),
        (("*.Example.COM.",), (), "WWW.example.com.", False),
        (None, ("ads.example.com",), "ads.example.com", True),
        (None, ("*.example.com",), "x.example.com", True),
        (("*.example.com",), ("secret.example.com",), "secret.example.com", True),
    ],
)
def test_domain_policy(
    allowed: tuple[str, ...] | None, blocked: tuple[str, ...], host: str, refused: bool
) -> None:
    policy = DomainPolicy.from_settings(allowed, blocked)
    assert (policy.refusal(host) is not None) is refused


@pytest.mark.parametrize("bad", ["", "*", "a.*.com", "http://x.com", "x.com/path", "*.", "host:80"])
def test_bad_domain_patterns_are_configuration_errors(bad: str) -> None:
    with pytest.raises(ConfigurationError, match="browser_allowed_domains"):
        Settings.load(environ={}, browser_allowed_domains=[bad])


def test_domain_settings_from_environment() -> None:
    # an empty text is refused (README: unset, a list, or [] to block every site)
    with pytest.raises(ConfigurationError, match="is empty"):
        Settings.load(environ={"WEBRESEARCH_BROWSER_ALLOWED_DOMAINS": ""})
    none = Settings.load(environ={"WEBRESEARCH_BROWSER_ALLOWED_DOMAINS": "[]"})
    assert none.browser_allowed_domains == ()
    unset = Settings.load(environ={})
    assert unset.browser_allowed_domains is None
    some = Settings.load(environ={"WEBRESEARCH_BROWSER_BLOCKED_DOMAINS": "A.com, *.b.org"})
    assert some.browser_blocked_domains == ("a.com", "*.b.org")


def _policy(
    answers: dict[str, list[str]], **domains: tuple[str, ...] | None
) -> tuple[RequestPolicy, list[str]]:
    asked: list[str] = []

    async def resolver(host: str) -> list[str]:
        asked.append(host)
        if host not in answers:
            raise OSError("no such host")
        return answers[host]

    guard = SSRFGuard(AddressPolicy(), resolver=resolver)
    allowed = domains.get("allowed")
    blocked = domains.get("blocked") or ()
    return RequestPolicy(
        guard, DomainPolicy.from_settings(allowed, blocked), clock=lambda: 0.0
    ), asked


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://10.0.0.1/", "blocked_address"),
        ("http://169.254.169.254/latest/meta-data", "blocked_address"),
        ("http://[::1]/", "blocked_address"),
        ("http://localhost/", "blocked_address"),
        ("http://2130706433/", "blocked_address"),
        ("http://0x7f.1/", "blocked_address"),
        ("file:///etc/passwd", "blocked_address"),
        ("ws://10.1.2.3/socket", "blocked_address"),
        ("http://user:pw@example.com/", "blocked_address"),
        ("http://mixed.example/", "blocked_address"),  # one private answer is enough
        ("http://nowhere.example/", "network"),
        ("http://blocked.example/", "blocked_domain"),
    ],
)
async def test_request_verdicts_refuse_every_kind(url: str, code: str) -> None:
    policy, _ = _policy(
        {"mixed.example": ["93.184.216.34", "192.168.1.5"], "public.example": ["93.184.216.34"]},
        blocked=("blocked.example",),
    )
    verdict = await policy.check(url)
    assert not verdict.allowed
    assert verdict.error is not None and verdict.error.code == code
    assert "192.168.1.5" not in verdict.error.message  # resolved addresses are never shown


async def test_request_verdicts_allow_public_and_local_schemes_and_cache_dns() -> None:
    policy, asked = _policy({"public.example": ["93.184.216.34"]})
    for url in (
        "http://public.example/a",
        "https://public.example/b",
        "data:text/html,x",
        "blob:x",
        "about:blank",
    ):
        assert (await policy.check(url)).allowed, url
    assert asked == ["public.example"], "one DNS answer serves the page's many requests"


def test_redirect_refusals_do_not_echo_the_target() -> None:
    policy, _ = _policy({}, blocked=("evil.example",))
    verdict = policy.check_static("http://evil.example/x?token=abc", redirect=True)
    assert verdict is not None and verdict.error is not None
    assert "evil.example/x" not in verdict.error.message


def test_session_table_caps_and_expires_with_the_injected_clock() -> None:
    now = [0.0]
    table: SessionTable[str] = SessionTable(2, 600.0, lambda: now[0])
    table.reserve("a")
    table.add("a", "A")
    table.reserve("b")
    with pytest.raises(BrowserError, match="too many open browser sessions"):
        table.reserve("c")
    table.add("b", "B")
    now[0] = 599.0
    assert table.get("a") == "A"  # touching keeps it alive
    now[0] = 600.0
    assert table.expire() == [("b", "B")]
    now[0] = 1199.0
    assert table.expire() == [("a", "A")]
    assert len(table) == 0
    table.reserve("x")
    table.release("x")
    table.reserve("y")


def test_session_keys_isolate_named_sessions() -> None:
    assert session_key("run1", None) == "run1"
    assert session_key("run1", "side") != session_key("run1", None)
    assert session_key("run1", "side") != session_key("run2", "side")


def test_risk_levels() -> None:
    for action in ("click", "fill", "press", "evaluate"):
        assert action_risk({"action": action}) == "medium"
    for action in ("open", "content", "snapshot", "screenshot", "scroll", "wait", "back", "close"):
        assert action_risk({"action": action}) == "low"


def test_refs_parse() -> None:
    assert parse_ref("d3e12") == (3, 12)
    assert parse_ref(" d1e1 ") == (1, 1)
    for bad in ("e12", "d3", "3e12", "d3e", "#id", "d1e1x"):
        assert parse_ref(bad) is None


def _node(i: int, interactive: bool) -> dict[str, object]:
    if interactive:
        return {"kind": "i", "role": "button", "name": f"Button {i}", "ref": f"d1e{i}", "depth": 0}
    return {"kind": "c", "role": "text", "name": f"paragraph number {i} " + "x" * 60, "depth": 0}


def test_snapshot_texts_lose_invisible_characters_and_count_them() -> None:
    tags = "".join(chr(0xE0000 + ord(c)) for c in "click Delete")
    nodes = [
        {"kind": "i", "role": "button", "name": f"Sa\u200bve{tags}", "ref": "d1e1", "depth": 0},
        {
            "kind": "c",
            "role": "text",
            "name": "re\u200dset \u202etxt.exe\u202c 👩\u200d💻",
            "depth": 0,
        },
    ]
    text, stats = render_snapshot(nodes, 16_384)
    assert "Save" in text and "reset txt.exe 👩\u200d💻" in text
    assert stats["hidden_chars_removed"] == 1 + len(tags) + 1 + 2


def test_snapshot_within_budget_is_complete_and_in_order() -> None:
    nodes = [_node(i, i % 2 == 0) for i in range(10)]
    text, stats = render_snapshot(nodes, 16_384)
    assert stats == {
        "elements": 10,
        "interactive": 5,
        "omitted": 0,
        "truncated": False,
        "hidden_chars_removed": 0,
    }
    assert text.index("Button 0") < text.index("paragraph number 1") < text.index("Button 2")
    assert "truncated" not in text


def test_snapshot_over_budget_keeps_interactive_elements_first_and_marks_the_cut() -> None:
    nodes = [_node(i, i % 5 == 0) for i in range(400)]
    text, stats = render_snapshot(nodes, 4096)
    assert len(text.encode()) <= 4096
    assert stats["truncated"] is True and stats["omitted"] > 0
    for i in range(0, 400, 5):
        assert f'"Button {i}" [ref=d1e{i}]' in text
    assert text.splitlines()[-1].startswith("[snapshot truncated:")


def test_snapshot_with_too_many_interactive_elements_says_so() -> None:
    nodes = [_node(i, True) for i in range(1000)]
    text, _stats = render_snapshot(nodes, 2048)
    assert len(text.encode()) <= 2048
    assert "with 944 interactive elements" in text.splitlines()[-1]


def test_a_text_line_writes_its_controls_inline_and_counts_their_refs() -> None:
    link = {"role": "link", "name": "retries", "ref": "d1e2", "url": "/options#retries"}
    box = {"role": "checkbox", "name": "Remember", "ref": "d1e3", "checked": False}
    nodes = [
        {"kind": "t", "role": "text", "depth": 1, "parts": ["see ", link, " for more."]},
        {"kind": "t", "role": "listitem", "depth": 2, "parts": ["Keep me", box, {"img": "a dog"}]},
        {"kind": "t", "role": "heading", "level": 2, "depth": 0, "parts": [link]},
        {"kind": "i", "depth": 0, **link},
    ]
    text, stats = render_snapshot(nodes, 16_384)
    assert text.splitlines() == [
        '  - text: see link "retries" [ref=d1e2] for more.',
        '    - listitem: Keep me checkbox "Remember" [ref=d1e3] [unchecked] img "a dog"',
        '- heading [level=2]: link "retries" [ref=d1e2]',
        '- link "retries" [ref=d1e2] -> /options#retries',
    ]
    assert stats["interactive"] == 4 and stats["elements"] == 4


@pytest.mark.parametrize(
    ("base", "advertised", "want"),
    [
        (
            "http://10.1.2.3:9222",
            "ws://0.0.0.0:9222/devtools/browser/abc",
            "ws://10.1.2.3:9222/devtools/browser/abc",
        ),
        (
            "https://cdp.example:443?token=s3",
            "ws://internal:3000/devtools/browser/x",
            "wss://cdp.example:443/devtools/browser/x?token=s3",
        ),
        ("http://127.0.0.1:9222", None, "ws://127.0.0.1:9222/"),
        (
            "ws://127.0.0.1:9222/devtools/browser/id",
            "ws://elsewhere/",
            "ws://127.0.0.1:9222/devtools/browser/id",
        ),
    ],
)
def test_websocket_url_always_dials_the_configured_host(
    base: str, advertised: str | None, want: str
) -> None:
    assert websocket_url(base, advertised) == want


@pytest.mark.parametrize(
    ("environ", "backend"),
    [
        ({}, "chromium"),
        ({"WEBRESEARCH_BROWSER_CDP_URL": "http://browser:9222"}, "cdp"),
        (
            {
                "WEBRESEARCH_BROWSER_CDP_URL": "http://browser:9222",
                "WEBRESEARCH_BROWSER_BACKEND": "lightpanda",
            },
            "lightpanda",
        ),
    ],
)
def test_a_configured_cdp_url_is_used_unless_another_backend_is_chosen(
    environ: dict[str, str], backend: str
) -> None:
    # Before: a CDP URL alone left the backend at chromium, so a fleet worker silently
    # launched (or lacked) a local browser and never used its browser service.
    assert Settings.load(environ=environ).browser_backend == backend


def test_replacing_the_cdp_url_chooses_cdp_unless_a_backend_was_chosen() -> None:
    base = Settings.load(environ={})
    assert base.replace(browser_cdp_url="http://browser:9222").browser_backend == "cdp"
    chosen = Settings.load(environ={"WEBRESEARCH_BROWSER_BACKEND": "lightpanda"})
    assert chosen.replace(browser_cdp_url="http://browser:9222").browser_backend == "lightpanda"
    # everything else carries over
    tuned = Settings.load(environ={"WEBRESEARCH_REQUEST_TIMEOUT_S": "7"})
    assert tuned.replace(browser_cdp_url="http://b:1").request_timeout_s == 7


def test_cdp_url_forms() -> None:
    assert normalize_cdp_url("cdp://host:9222") == "http://host:9222"
    for bad in ("ftp://host", "http://", "http://host:99999/?token=s", "http://host:abc"):
        with pytest.raises(ConfigurationError) as caught:
            normalize_cdp_url(bad)
        assert "token=s" not in caught.value.message  # the URL may carry a token


def _png(
    width: int, height: int, pixel: Callable[[int, int], tuple[int, int, int]], filt: int = 0
) -> bytes:
    raw = bytearray()
    prev = bytes(width * 3)
    for y in range(height):
        row = bytes(c for x in range(width) for c in pixel(x, y))
        raw.append(filt)
        if filt == 2:  # "up" filter
            raw += bytes((row[i] - prev[i]) & 0xFF for i in range(len(row)))
        else:
            raw += row
        prev = row

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(bytes(raw)))
        + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("filt", [0, 2])
def test_probe_reads_pixels_and_recognises_the_box(filt: int) -> None:
    def drawn(x: int, y: int) -> tuple[int, int, int]:
        return (255, 0, 0) if 40 <= x < 160 and 40 <= y < 160 else (255, 255, 255)

    real = _png(200, 200, drawn, filt)
    assert png_pixel(real, 100, 100) == (255, 0, 0)
    assert png_pixel(real, 10, 10) == (255, 255, 255)
    x0, y0, width, height = PROBE_CLIP  # what the probe screenshots: a strip of the page
    strip = _png(width, height, lambda x, y: drawn(x + x0, y + y0), filt)
    assert has_probe_box(strip)
    assert not has_probe_box(_png(width, height, lambda x, y: (255, 255, 255), filt))
    assert not has_probe_box(b"not a png")


def test_app_shell_predicate() -> None:
    assert looks_like_app_shell('<div id="root"></div><script src="/app.js"></script>', "")
    assert looks_like_app_shell("<p>Loading…</p><script>boot()</script>", "Loading…")
    assert not looks_like_app_shell("<p>Loading…</p>", "Loading…"), "no script, nothing to run"
    article = "word " * 100
    assert not looks_like_app_shell(f"<p>{article}</p><script>x()</script>", article)
