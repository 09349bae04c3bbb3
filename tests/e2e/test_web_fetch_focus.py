"""Focused reading end to end (issue 18 §1): a manual with known sections on a real local
server, web_fetch through the Toolkit and the CLI — the outline of a cut page, jumping to an
outline offset, ``query`` ranking, and a second question answered without a download."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator

import pytest
from click.testing import CliRunner

from tests.support.http_server import LocalServer, Route
from webresearch import Settings, Toolkit
from webresearch.cli.main import cli
from webresearch.runtime.journal import MemoryJournal

OUTLINE = "[outline: each heading with the offset where its section starts]"
MARKER = re.compile(r"\n\[truncated at (\d+) of (\d+) bytes\]$")
ENTRY = re.compile(r"^\s*- (.+) \(offset=(\d+)\)$", re.M)
SECTION = re.compile(r"^\[section at offset=(\d+): (.*)\]$", re.M)

CHAPTER = (
    "<p>Chapter {n} covers the garden: soil, seeds, watering and the weather.</p>"
    "<p>Gardeners in chapter {n} talk about compost, mulch, pruning and harvests.</p>"
) * 6


def manual_html() -> bytes:
    """A manual whose answers sit deep in the page, each under a known heading."""
    chapters = "".join(f"<h2>Chapter {n}</h2>{CHAPTER.format(n=n)}" for n in range(1, 15))
    tail = "".join(f"<h2>Appendix {n}</h2>{CHAPTER.format(n=n)}" for n in range(15, 20))
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Tool manual</title></head>"
        "<body><main><article><h1>Tool manual</h1><p>Welcome to the manual.</p>"
        f"{chapters}"
        "<h2>Configuration</h2><p>General configuration lives in a TOML file.</p>"
        "<h3>Proxy settings</h3><p>Set the HTTPS_PROXY variable to send every request "
        "through your proxy server.</p>"
        "<pre><code># the proxy, for every shell\nexport HTTPS_PROXY=http://proxy:3128\n"
        "</code></pre>"
        "<h2>Troubleshooting</h2><h3>Timeouts</h3><p>A request slower than thirty seconds "
        "ends with a timeout error.</p>"
        f"{tail}"
        "</article></main></body></html>"
    ).encode()


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        srv.routes["/manual"] = Route(
            headers=[("Content-Type", "text/html; charset=utf-8")], body=manual_html()
        )
        yield srv


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(settings, journal=MemoryJournal()) as tk:
        yield tk


def body_of(text: str) -> str:
    """The output after the header lines (untrusted notice, url, content-type, title)."""
    return text.split("\n\n", 1)[1]


async def test_a_cut_page_ends_with_an_outline_whose_offsets_jump_to_sections(
    toolkit: Toolkit, site: LocalServer
) -> None:
    url = f"{site.base}/manual"
    first = await toolkit.call("web_fetch", {"url": url, "max_bytes": 8192})
    assert first.ok, first.text
    m = MARKER.search(first.text)
    assert m is not None  # the marker stays the last line (case 16)
    body = body_of(first.text)[: -len(m.group(0))]
    assert len(body.encode()) <= 8192 and OUTLINE in body
    assert "Chapter 18 covers" not in body  # the page is cut long before its end
    assert first.meta["outline"] is True and first.meta["next_offset"] == int(m.group(1))
    entries = dict(ENTRY.findall(body.split(OUTLINE)[1]))
    assert "Proxy settings" in entries and "Troubleshooting" in entries
    jump = await toolkit.call(
        "web_fetch", {"url": url, "offset": int(entries["Proxy settings"]), "max_bytes": 300}
    )
    assert jump.ok and body_of(jump.text).startswith("### Proxy settings\n")
    assert jump.meta["cached"] is True


async def test_query_returns_the_relevant_section_and_a_second_query_downloads_nothing(
    toolkit: Toolkit, site: LocalServer
) -> None:
    url = f"{site.base}/manual"
    site.reset_log()
    first = await toolkit.call(
        "web_fetch", {"url": url, "max_bytes": 2048, "query": "How do I use a proxy server?"}
    )
    assert first.ok, first.text
    body = body_of(first.text)
    assert body.startswith("[query: the ") and "left out]" in body.split("\n")[0]
    headers = SECTION.findall(body)
    assert "Configuration > Proxy settings" in [p for _, p in headers], body
    assert "Set the HTTPS_PROXY variable" in body and "export HTTPS_PROXY" in body
    assert "Chapter 3 covers the garden" not in body
    assert OUTLINE in body and "[truncated at" not in first.text
    assert len(body.encode()) <= 2048
    assert first.meta["cached"] is False and first.meta["sections_left_out"] > 0
    second = await toolkit.call(
        "web_fetch", {"url": url, "max_bytes": 2048, "query": "request timeout error"}
    )
    assert second.ok and "thirty seconds" in body_of(second.text)
    assert "Troubleshooting > Timeouts" in [p for _, p in SECTION.findall(second.text)]
    assert "Chapter 3 covers the garden" not in second.text
    assert second.meta["cached"] is True
    # one page download for both questions (robots.txt is checked once per host, RFC 9309)
    assert [r.path for r in site.log if r.path != "/robots.txt"] == ["/manual"]


async def test_a_blank_query_is_a_clear_error(toolkit: Toolkit, site: LocalServer) -> None:
    result = await toolkit.call("web_fetch", {"url": f"{site.base}/manual", "query": "   "})
    assert result.error is not None and result.error.code == "invalid_arguments"
    assert "query" in result.error.message
    assert site.log == []  # refused before any download


def test_the_cli_takes_a_query(site: LocalServer) -> None:
    result = CliRunner().invoke(
        cli,
        ["fetch", f"{site.base}/manual", "--allow-network", "127.0.0.0/8", "--max-bytes", "2048",
         "--query", "proxy settings"],
        env={"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_SEARCH_PROVIDER": "none"},
        catch_exceptions=False,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "[section at offset=" in result.stdout and "HTTPS_PROXY" in result.stdout
