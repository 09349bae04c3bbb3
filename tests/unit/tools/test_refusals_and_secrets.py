"""Every refusal kind is journaled with a stable code; no secret reaches any event or error."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.support.http_server import LocalServer, Route
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.runtime.journal import MemoryJournal
from webresearch.search.brave import BraveOptions
from webresearch.tools import web_fetch
from webresearch.tools.base import CallContext, ToolEntry
from webresearch.tools.limits import search_limit
from webresearch.tools.services import Services
from webresearch.tools.web_search import WEB_SEARCH
from webresearch.types import JSONObject

KEYS = {
    "brave_api_key": "BRAVE-KEY-PLANTED-0001",
    "tavily_api_key": "TAVILY-KEY-PLANTED-0002",
    "exa_api_key": "EXA-KEY-PLANTED-0003",
    "mcp_token": "MCP-TOKEN-PLANTED-0004",
}
URL_SECRET = "URL-TOKEN-PLANTED-0005"
PAGE_SECRET = "PAGE-SIG-PLANTED-0006"


def leaky_search(services: Services) -> ToolEntry[JSONObject]:
    """A paid tool that tries hard to leak the keys it can see."""

    async def run(arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        key = services.settings.options("brave", BraveOptions).api_key
        assert key is not None
        await ctx.rate_limit()
        await ctx.reserve(1.0, "brave")
        ctx.spent(1.0, "brave")
        await ctx.event("search.request", header=f"X-Subscription-Token: {key.get_secret_value()}")
        return ToolResult(text=f"results (debug key={key.get_secret_value()})")

    return ToolEntry(spec=WEB_SEARCH, run=run, rate_limit=search_limit(services.settings))


async def test_refusals_are_journaled_and_nothing_leaks(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    settings = Settings.load(
        environ={},
        allowed_networks=["127.0.0.0/8"],
        journal_url="memory://",
        search_provider="none",
        search_rate_limit=1,
        **KEYS,
    )
    journal = MemoryJournal()
    with LocalServer() as srv:
        srv.routes["/page"] = Route(
            headers=[("Content-Type", "text/html")],
            body=f'<p>download <a href="https://cdn.example/f?sig={PAGE_SECRET}">here</a></p>'.encode(),
        )
        async with Toolkit(
            settings, journal=journal, builders=[web_fetch.build, leaky_search]
        ) as tk:
            results: dict[str, ToolResult] = {}
            results["ok"] = await tk.call(
                "web_fetch", {"url": f"{srv.base}/page?token={URL_SECRET}"}
            )
            results["search_ok"] = await tk.call(
                "web_search", {"query": "x"}, run=RunContext(budget=5)
            )
            results["gate"] = await tk.call(
                "web_fetch", {"url": "https://example.org/"}, run=RunContext(network_access=False)
            )
            results["invalid"] = await tk.call("web_fetch", {"url": 1, "token": URL_SECRET})
            results["approval"] = await tk.call(
                "web_fetch",
                {"url": f"{srv.base}/page?token={URL_SECRET}"},
                run=RunContext(approval={"web_fetch": "supervised"}),
            )
            results["scope"] = await tk.call(
                "web_fetch",
                {"url": f"{srv.base}/page?token={URL_SECRET}"},
                run=RunContext(fetch_scope="search_results"),
            )
            results["ssrf"] = await tk.call(
                "web_fetch", {"url": f"http://169.254.169.254/?token={URL_SECRET}"}
            )
            results["rate"] = await tk.call("web_search", {"query": "y"})
            results["budget"] = await tk.call(
                "web_search", {"query": "z"}, run=RunContext(budget=0.5)
            )

    expected = {
        "gate": ("tool_unavailable", "gate"),
        "approval": ("approval_denied", "approval"),
        "scope": ("scope_denied", "scope"),
        "ssrf": ("blocked_address", "ssrf"),
        "rate": ("rate_limited", "rate_limit"),
    }
    failed = [e for e in journal.events if e.kind == "tool.failed"]
    for name, (code, refusal) in expected.items():
        result = results[name]
        assert result.error is not None and result.error.code == code, (name, result.text)
        assert result.text.startswith(f"error[{code}]")
        assert any(
            e.error_code == code and e.outcome == "refused" and e.details.get("refusal") == refusal
            for e in failed
        ), name
    budget = results["budget"]
    # The limiter (1 per window) or the budget refuses: both are journaled refusals.
    assert budget.error is not None and budget.error.code in ("budget_exceeded", "rate_limited")
    assert (
        results["invalid"].error is not None
        and results["invalid"].error.code == "invalid_arguments"
    )
    assert results["ok"].ok and results["search_ok"].ok

    everything = " ".join(
        [
            r.text + repr(r.to_dict()) + (str(r.error) + repr(r.error) if r.error else "")
            for r in results.values()
        ]
        + [repr(e.to_dict()) for e in journal.events]
        + [record.getMessage() for record in caplog.records]
    )
    for secret in [*KEYS.values(), URL_SECRET, PAGE_SECRET]:
        assert secret not in everything, secret


async def test_a_non_http_url_is_journaled_as_a_bad_argument_after_the_same_gates() -> None:
    """ftp:, file:… given to web_fetch: ``invalid_arguments`` (SPEC §1.1), journaled as a
    failed call with no refusal kind; the gate and the fetch scope still answer first."""
    journal = MemoryJournal()
    settings = Settings.load(environ={}, journal_url="memory://", search_provider="none")
    async with Toolkit(settings, journal=journal, builders=[web_fetch.build]) as tk:
        bad = await tk.call("web_fetch", {"url": "ftp://127.0.0.1/f"})
        gate = await tk.call(
            "web_fetch", {"url": "ftp://127.0.0.1/f"}, run=RunContext(network_access=False)
        )
        scope = await tk.call(
            "web_fetch", {"url": "file:///etc/passwd"}, run=RunContext(fetch_scope="search_results")
        )
    assert bad.error is not None and bad.error.code == "invalid_arguments", bad.text
    assert bad.text.startswith("error[invalid_arguments]: only http and https URLs are fetched")
    assert gate.error is not None and gate.error.code == "tool_unavailable"
    assert scope.error is not None and scope.error.code == "scope_denied"
    events = [e for e in journal.events if e.operation_id == bad.meta.get("operation_id")]
    kinds = [e.kind for e in events]
    assert kinds[0] == "tool.started" and kinds[-1] == "tool.failed", kinds
    failed = events[-1]
    assert failed.error_code == "invalid_arguments" and "refusal" not in failed.details
    assert failed.outcome != "refused"


OAUTH_CODE = "OAUTH-CODE-PLANTED-0007"
OAUTH_STATE = "OAUTH-STATE-PLANTED-0008"
CAS_TICKET = "ST-CAS-TICKET-PLANTED-0009"
LINK_HASH = "LINK-HASH-PLANTED-0010"


async def test_oauth_and_cas_callback_parameters_never_reach_the_journal() -> None:
    # RFC 6749 §4.1.2 (code, with state beside it), CAS 3.0 §2.2.4 (ticket), a signed link
    settings = Settings.load(environ={}, allowed_networks=["127.0.0.1/32"], journal_url="memory://")
    journal = MemoryJournal()
    callback = f"/callback?code={OAUTH_CODE}&state={OAUTH_STATE}"
    with LocalServer() as srv:
        srv.routes["/login"] = Route(status=302, headers=[("Location", "{BASE}" + callback)])
        srv.routes["/callback"] = Route(
            headers=[("Content-Type", "text/html")],
            body=(
                f'<p>signed in; <a href="/confirm?id=7&hash={LINK_HASH}">confirm</a></p>'
                f'<p><a href="/list?state=CA">California</a></p>'
            ).encode(),
        )
        async with Toolkit(settings, journal=journal, builders=[web_fetch.build]) as tk:
            fetched = await tk.call("web_fetch", {"url": f"{srv.base}/login"})
            cas = await tk.call("web_fetch", {"url": f"{srv.base}/callback?ticket={CAS_TICKET}"})
    assert fetched.ok and cas.ok
    everything = " ".join(
        [fetched.text, cas.text, repr(fetched.to_dict()), repr(cas.to_dict())]
        + [repr(e.to_dict()) for e in journal.events]
    )
    for secret in (OAUTH_CODE, OAUTH_STATE, CAS_TICKET, LINK_HASH):
        assert secret not in everything, secret
    completed = [e for e in journal.events if e.kind == "tool.completed"]
    assert completed and all(OAUTH_CODE not in repr(e.to_dict()) for e in completed)
    assert "state=CA" in fetched.text  # a plain filter, not an OAuth response: kept
