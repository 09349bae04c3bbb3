"""robots.txt (RFC 9309) against real local servers: model-initiated calls respect it, the
file is fetched once per origin through the guarded client, what each answer means (4xx,
5xx, redirects, oversized files), its cache (a day at most, shared through the state
backend, across processes with SQLite), the product token, and a person's own CLI command.

Time is injected (``FakeTime``): no sleeps.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import mcp_types as types
import pytest
from click.testing import CliRunner
from mcp import Client

from tests.support.api_server import ApiServer
from tests.support.cli_runs import cli_env
from tests.support.hosted_stubs import FIRECRAWL_KEY, FirecrawlStub, StubPage
from tests.support.http_server import LocalServer, Route
from tests.support.tiny_png import png_bytes
from webresearch import Settings, Toolkit, ToolResult
from webresearch.access.robots_rules import ROBOTS_MAX_BYTES, UNREACHABLE_RETRY_S
from webresearch.cli.main import cli
from webresearch.mcp_server import WebResearchServer
from webresearch.runtime.journal import MemoryJournal
from webresearch.tools.services import Services

pytestmark = pytest.mark.network

ROBOTS = b"""\
User-agent: *
Disallow: /private/
Allow: /private/open
Disallow: /*.pdf$

User-agent: acmebot
Disallow: /
"""
HTML = [("Content-Type", "text/html; charset=utf-8")]
PAGE = b"<html><head><title>P</title></head><body><main><p>Page text here.</p></main></body></html>"
PNG = png_bytes(8, 8, (10, 200, 30))


class FakeTime:
    """One clock for the in-process caches (monotonic) and robots.txt entries (wall)."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def clock(self) -> float:
        return self.t

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.t, UTC)


def page_routes() -> dict[str, Route]:
    png = [("Content-Type", "image/png")]
    return {
        "/page": Route(headers=HTML, body=PAGE),
        "/other": Route(headers=HTML, body=PAGE),
        "/private/x": Route(headers=HTML, body=PAGE),
        "/private/open": Route(headers=HTML, body=PAGE),
        "/doc.pdf": Route(headers=[("Content-Type", "application/pdf")], body=b"%PDF-1.4"),
        "/private/img.png": Route(headers=png, body=PNG),
        "/img.png": Route(headers=png, body=PNG),
        "/go-private": Route(status=302, headers=[("Location", "/private/x")]),
    }


@pytest.fixture
def site() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        srv.routes.update(page_routes())
        srv.routes["/robots.txt"] = Route(headers=[("Content-Type", "text/plain")], body=ROBOTS)
        yield srv


@pytest.fixture
def time_() -> FakeTime:
    return FakeTime()


def toolkit_for(settings: Settings, time_: FakeTime) -> Toolkit:
    services = Services(settings, journal=MemoryJournal(), clock=time_.clock, now=time_.now)
    return Toolkit(services=services)


@pytest.fixture
async def toolkit(settings: Settings, time_: FakeTime) -> AsyncIterator[Toolkit]:
    async with toolkit_for(settings, time_) as tk:
        yield tk


async def fetch(toolkit: Toolkit, url: str) -> ToolResult:
    return await toolkit.call("web_fetch", {"url": url})


def code(result: ToolResult) -> str | None:
    return None if result.error is None else result.error.code


# --- model-initiated calls ------------------------------------------------------------------


async def test_a_disallowed_page_is_refused_naming_the_rule_and_robots_is_read_once(
    toolkit: Toolkit, site: LocalServer
) -> None:
    refused = await fetch(toolkit, f"{site.base}/private/x")
    assert refused.error is not None and refused.error.code == "robots_disallowed"
    assert refused.error.retryable is False
    assert "Disallow: /private/" in refused.error.message
    assert refused.error.details["rule"] == "/private/"
    assert refused.error.details["robots_url"] == f"{site.base}/robots.txt"
    assert refused.error.hint is not None and "their own command" in refused.error.hint
    assert site.count("/private/x") == 0  # nothing was fetched
    pdf = await fetch(toolkit, f"{site.base}/doc.pdf")
    assert code(pdf) == "robots_disallowed" and pdf.error is not None
    assert pdf.error.details["rule"] == "/*.pdf$"
    for allowed in ("/page", "/other", "/private/open"):
        result = await fetch(toolkit, f"{site.base}{allowed}")
        assert result.ok, result.text
    assert site.count("/robots.txt") == 1  # one fetch for the origin
    robots_request = next(r for r in site.log if r.path == "/robots.txt")
    assert "webresearch" in robots_request.headers["user-agent"]  # the product token
    assert robots_request.headers["accept"].startswith("text/plain")
    journal = toolkit.journal
    assert isinstance(journal, MemoryJournal)
    failed = [e for e in journal.events if e.kind == "tool.failed"]
    assert failed and failed[0].details["refusal"] == "robots"


async def test_concurrent_first_calls_share_one_robots_fetch(
    toolkit: Toolkit, site: LocalServer
) -> None:
    results = await asyncio.gather(*(fetch(toolkit, f"{site.base}/page?n={i}") for i in range(6)))
    assert all(r.ok for r in results)
    assert site.count("/robots.txt") == 1


async def test_fetch_image_is_checked_too(toolkit: Toolkit, site: LocalServer) -> None:
    refused = await toolkit.call("fetch_image", {"url": f"{site.base}/private/img.png"})
    assert code(refused) == "robots_disallowed", refused.text
    assert site.count("/private/img.png") == 0
    ok = await toolkit.call("fetch_image", {"url": f"{site.base}/img.png"})
    assert ok.ok, ok.text


async def test_a_redirect_into_a_disallowed_path_is_refused_at_that_hop(
    toolkit: Toolkit, site: LocalServer
) -> None:
    result = await fetch(toolkit, f"{site.base}/go-private")
    assert code(result) == "robots_disallowed", result.text
    assert result.error is not None
    assert "the redirect target" in result.error.message
    assert "/private/x" not in result.error.message.replace("Disallow: /private/", "")
    assert site.count("/go-private") == 1 and site.count("/private/x") == 0


async def test_ignore_reads_no_robots_txt(settings: Settings, time_: FakeTime, site: LocalServer) -> None:
    async with toolkit_for(settings.replace(robots="ignore"), time_) as toolkit:
        assert (await fetch(toolkit, f"{site.base}/private/x")).ok
    assert site.count("/robots.txt") == 0


async def test_the_product_token_is_configurable_and_sent(
    settings: Settings, time_: FakeTime, site: LocalServer
) -> None:
    ua = "Mozilla/5.0 (compatible; AcmeAgent/2.0)"
    acme = settings.replace(robots_product_token="acmebot", user_agent=ua)
    async with toolkit_for(acme, time_) as toolkit:
        refused = await fetch(toolkit, f"{site.base}/page")  # acmebot's group: Disallow: /
    assert refused.error is not None and refused.error.details["rule"] == "/"
    assert "for acmebot" in refused.error.message
    robots_request = next(r for r in site.log if r.path == "/robots.txt")
    assert robots_request.headers["user-agent"] == f"{ua} acmebot"


# --- what an answer means -------------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403, 404, 410])
async def test_a_4xx_robots_txt_allows_everything(
    status: int, toolkit: Toolkit, site: LocalServer
) -> None:
    site.routes["/robots.txt"] = Route(status=status, body=b"User-agent: *\nDisallow: /\n")
    assert (await fetch(toolkit, f"{site.base}/private/x")).ok


@pytest.mark.parametrize("status", [500, 503])
async def test_a_5xx_robots_txt_disallows_everything_until_a_later_success(
    status: int, toolkit: Toolkit, site: LocalServer, time_: FakeTime
) -> None:
    site.routes["/robots.txt"] = Route(status=status)
    refused = await fetch(toolkit, f"{site.base}/page")
    assert refused.error is not None and refused.error.code == "robots_disallowed"
    assert refused.error.retryable is True and refused.error.details["reason"] == "unreachable"
    assert f"HTTP {status}" in refused.error.message
    assert site.count("/page") == 0
    time_.t += UNREACHABLE_RETRY_S - 1  # still within the retry interval: no new fetch
    assert code(await fetch(toolkit, f"{site.base}/page")) == "robots_disallowed"
    assert site.count("/robots.txt") == 1
    site.routes["/robots.txt"] = Route(body=ROBOTS)  # the site is back
    time_.t += 2
    assert (await fetch(toolkit, f"{site.base}/page")).ok
    assert code(await fetch(toolkit, f"{site.base}/private/x")) == "robots_disallowed"
    assert site.count("/robots.txt") == 2


@pytest.mark.parametrize(("hops", "refused"), [(1, True), (5, True), (6, False)])
async def test_robots_redirects_are_followed_up_to_five(
    hops: int, refused: bool, toolkit: Toolkit, site: LocalServer
) -> None:
    site.routes["/robots.txt"] = Route(status=301, headers=[("Location", "/r/1")])
    for i in range(1, hops):
        site.routes[f"/r/{i}"] = Route(status=302, headers=[("Location", f"/r/{i + 1}")])
    site.routes[f"/r/{hops}"] = Route(body=ROBOTS)
    result = await fetch(toolkit, f"{site.base}/private/x")
    # more than five redirects: the file is "unavailable" (RFC 9309 §2.3.1.2), all allowed
    assert (code(result) == "robots_disallowed") is refused, result.text
    assert site.count("/r/") == min(hops, 5)


async def test_a_robots_redirect_to_an_internal_address_is_not_followed(
    toolkit: Toolkit, site: LocalServer
) -> None:
    site.routes["/robots.txt"] = Route(
        status=302, headers=[("Location", "http://169.254.169.254/robots.txt")]
    )
    assert (await fetch(toolkit, f"{site.base}/private/x")).ok  # no file to obey


async def test_an_oversized_robots_txt_is_parsed_up_to_500_kib(
    toolkit: Toolkit, site: LocalServer
) -> None:
    head = b"User-agent: *\nDisallow: /private/\n"
    padding = b"# " + b"x" * 98 + b"\n"
    body = head + padding * (ROBOTS_MAX_BYTES // len(padding)) + b"Disallow: /page\n"
    assert len(body) > ROBOTS_MAX_BYTES
    site.routes["/robots.txt"] = Route(body=body)
    assert code(await fetch(toolkit, f"{site.base}/private/x")) == "robots_disallowed"
    assert (await fetch(toolkit, f"{site.base}/page")).ok  # the rule past 500 KiB is not read


async def test_a_site_that_cannot_be_reached_is_its_own_error(toolkit: Toolkit) -> None:
    with LocalServer() as gone:
        base = gone.base
    result = await fetch(toolkit, f"{base}/page")  # nothing listens there any more
    assert code(result) == "network", result.text


# --- the cache --------------------------------------------------------------------------------


async def test_robots_txt_is_kept_for_a_day_at_most(
    toolkit: Toolkit, site: LocalServer, time_: FakeTime
) -> None:
    assert code(await fetch(toolkit, f"{site.base}/private/x")) == "robots_disallowed"
    site.routes["/robots.txt"] = Route(body=b"User-agent: *\nDisallow:\n")
    time_.t += 23 * 3600
    assert code(await fetch(toolkit, f"{site.base}/private/x")) == "robots_disallowed"
    assert site.count("/robots.txt") == 1
    time_.t += 3601  # past 24 h: fetched again, the new file applies
    assert (await fetch(toolkit, f"{site.base}/private/x")).ok
    assert site.count("/robots.txt") == 2


async def test_two_toolkits_on_one_state_backend_share_the_file(
    settings: Settings, time_: FakeTime, site: LocalServer
) -> None:
    first = toolkit_for(settings, time_)
    shared = Services(
        settings, journal=MemoryJournal(), state=first.services.state, clock=time_.clock, now=time_.now
    )
    async with first, Toolkit(services=shared) as second:
        assert code(await fetch(first, f"{site.base}/private/x")) == "robots_disallowed"
        assert code(await fetch(second, f"{site.base}/private/x")) == "robots_disallowed"
    assert site.count("/robots.txt") == 1


WORKER = textwrap.dedent(
    """
    import asyncio, sys
    from webresearch import Settings, Toolkit

    async def main() -> None:
        settings = Settings.load(
            environ={}, allowed_networks=["127.0.0.0/8"], journal_url="memory://",
            search_provider="none", state_url=sys.argv[1],
        )
        async with Toolkit(settings) as toolkit:
            for url in sys.argv[2:]:
                result = await toolkit.call("web_fetch", {"url": url})
                print(result.error.code if result.error else "ok")

    asyncio.run(main())
    """
)


def test_processes_share_robots_txt_through_sqlite_state(site: LocalServer, tmp_path: Path) -> None:
    state = f"sqlite:///{tmp_path / 'state.sqlite3'}"
    outputs = []
    for page in ("/private/x", "/page"):
        done = subprocess.run(
            [sys.executable, "-c", WORKER, state, f"{site.base}{page}"],
            capture_output=True,
            text=True,
            timeout=120,
            env=cli_env(tmp_path),
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout.strip())
    assert outputs == ["robots_disallowed", "ok"]
    assert site.count("/robots.txt") == 1  # the second process read the first one's entry


# --- the faces ------------------------------------------------------------------------------


def run_cli(*args: str) -> tuple[int, str]:
    env = {"WEBRESEARCH_JOURNAL_URL": "memory://", "WEBRESEARCH_SEARCH_PROVIDER": "none"}
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    return result.exit_code, result.stdout + result.stderr


def test_a_persons_cli_command_ignores_robots_unless_asked(site: LocalServer) -> None:
    url = f"{site.base}/private/x"
    exit_code, out = run_cli("fetch", url, "--allow-network", "127.0.0.0/8")
    assert exit_code == 0, out
    assert "Page text here." in out and site.count("/robots.txt") == 0
    exit_code, out = run_cli("fetch", url, "--allow-network", "127.0.0.0/8", "--respect-robots")
    assert exit_code == 3, out  # refused by policy, like the SSRF guard and the domain policy
    assert "robots_disallowed" in out and "Disallow: /private/" in out
    exit_code, out = run_cli(
        "image", f"{site.base}/private/img.png", "--allow-network", "127.0.0.0/8", "--respect-robots"
    )
    assert exit_code == 3 and "robots_disallowed" in out
    assert site.count("/private/x") == 1 and site.count("/private/img.png") == 0


def test_the_cli_help_teaches_the_flag() -> None:
    for command in ("fetch", "image", "browse"):
        exit_code, out = run_cli(command, "--help")
        assert exit_code == 0 and "--respect-robots" in out
    exit_code, out = run_cli("mcp", "--help")
    assert "--respect-robots" not in out  # an MCP server's calls are the model's


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_mcp_calls_respect_robots_by_default(
    mode: str, settings: Settings, site: LocalServer
) -> None:
    toolkit = Toolkit(settings, journal=MemoryJournal())
    web = WebResearchServer(toolkit)
    async with toolkit, Client(web.server, mode=mode) as client:
        result = await client.call_tool("web_fetch", {"url": f"{site.base}/private/x"})
    await web.aclose()
    assert result.is_error is True
    first = result.content[0]
    assert isinstance(first, types.TextContent)
    assert first.text.startswith("error[robots_disallowed]")
    assert site.count("/private/x") == 0


# --- hosted readers -------------------------------------------------------------------------


@pytest.fixture
def firecrawl(site: LocalServer) -> Iterator[FirecrawlStub]:
    with ApiServer() as api:
        pages = {f"{site.base}{p}": StubPage("# Text\n\nFrom the service.") for p in ("/page", "/private/x")}
        pages["http://127.0.0.1:9/page"] = StubPage("# Text\n\nFrom the service.")
        yield FirecrawlStub(api, pages=pages)


async def test_a_hosted_reader_gets_no_disallowed_url(
    settings: Settings, time_: FakeTime, site: LocalServer, firecrawl: FirecrawlStub
) -> None:
    hosted = settings.replace(
        reader="firecrawl", firecrawl_base_url=firecrawl.base, firecrawl_api_key=FIRECRAWL_KEY
    )
    async with toolkit_for(hosted, time_) as toolkit:
        refused = await fetch(toolkit, f"{site.base}/private/x")
        assert code(refused) == "robots_disallowed"
        assert firecrawl.requests() == []  # never handed over
        assert (await fetch(toolkit, f"{site.base}/page")).ok
        assert len(firecrawl.requests()) == 1
        # this host cannot reach the site to read its robots.txt: the service fetches it
        assert (await fetch(toolkit, "http://127.0.0.1:9/page")).ok
