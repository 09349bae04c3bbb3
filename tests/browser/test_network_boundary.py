"""Acceptance (issue 6 follow-up review): the guarded proxy is the hard network boundary.

No page context — window, pristine iframe, dedicated worker, shared worker — reaches a
blocked address or a blocked domain by any kind of request, and no TCP connection (not even
an empty one: a port probe) and no UDP datagram reaches the traps behind them. Evidence:
raw accept/datagram counters (:mod:`tests.browser.traps`), and the same probes succeeding
against an allowed server (so a zero means something). On both backends; Lightpanda runs
no workers, so its worker probes simply time out.
"""

from __future__ import annotations

import json

import pytest

from tests.browser.boundary_pages import navigation_page, probes_page, worker_shell
from tests.browser.conftest import Boundary, Kit, Sites
from tests.browser.traps import SECRET
from tests.support.http_server import Route
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = [("Content-Type", "text/html; charset=utf-8")]

#: Outcomes that would mean a probe reached its target.
REACHED = ("message", "loaded", "open")


def _targets(b: Boundary, site_port: int) -> dict[str, str]:
    return {
        "v4": f"127.0.0.2:{b.v4.port}",
        "v6": f"[::1]:{b.v6.port}",
        "domain": f"127.0.0.3:{b.domain.port}",
        "ws-v4": f"127.0.0.2:{b.ws_v4.port}",
        "ws-domain": f"127.0.0.3:{b.ws_domain.port}",
        "ok": f"127.0.0.1:{b.ws_ok.port}",  # control: an allowed WebSocket server
        "site": f"127.0.0.1:{site_port}",  # control: an allowed HTTP server
    }


async def test_no_page_context_reaches_a_forbidden_address(
    kit: Kit, sites: Sites, boundary: Boundary
) -> None:
    page = probes_page(_targets(boundary, sites.site.port), f"127.0.0.2:{boundary.udp.port}")
    sites.site.routes["/boundary"] = Route(headers=HTML, body=page)
    boundary.reset()
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{sites.site.base}/boundary")
    assert opened.ok, opened.text
    waited = await kit.call(run, action="wait", selector="body[data-done]", ms=20_000)
    assert waited.ok, waited.text
    log = await kit.call(
        run, action="evaluate", expression="document.getElementById('log').textContent"
    )
    results: dict[str, str] = json.loads(json.loads(log.text.split("value: ", 1)[1]))
    await kit.call(run, action="close")

    assert boundary.forbidden() == dict.fromkeys(boundary.forbidden(), 0)
    controls = ("ok:", "site:")
    leaked = {
        k: v for k, v in results.items() if not k.startswith(controls) and v.startswith(REACHED)
    }
    assert leaked == {}
    # The controls: the same probes do reach the allowed servers.
    assert results["site:fetch"] == "loaded" and results["site:xhr"] == "loaded", results
    if kit.backend == "chromium":  # (Lightpanda 1.0's WebSocket fails on this server anyway)
        for probe in ("ok:window-ws", "ok:worker-ws", "ok:shared-ws"):
            assert results[probe].startswith(f"message {SECRET}"), (probe, results)
        for probe in ("v4:worker-ws", "v6:shared-ws", "domain:worker-ws", "ws-v4:worker-ws"):
            assert results[probe] == "error", (probe, results)


async def test_the_proxy_refusal_of_a_worker_reaches_the_session_journal(
    chromium: Kit, sites: Sites, boundary: Boundary
) -> None:
    target = f"127.0.0.2:{boundary.ws_v4.port}"
    sites.site.routes["/one-worker"] = Route(headers=HTML, body=worker_shell([f"ws://{target}/x"]))
    run = RunContext()
    assert (await chromium.call(run, action="open", url=f"{sites.site.base}/one-worker")).ok
    waited = await chromium.call(run, action="wait", selector="text=ERR")
    assert waited.ok, waited.text
    await chromium.call(run, action="close")
    blocked = await chromium.journal.query(run_id=run.run_id, kind="browser.blocked")
    refusals = [
        (e.details["url"], e.details["code"])
        for e in blocked
        if e.details.get("resource_type") == "Connection"
    ]
    assert (target, "blocked_address") in refusals
    assert boundary.ws_v4.count == 0


NAVIGATIONS = ["link", "form", "location", "meta-refresh", "window-open", "iframe"]


async def test_no_navigation_reaches_a_forbidden_address(
    kit: Kit, sites: Sites, boundary: Boundary
) -> None:
    targets = [
        f"127.0.0.2:{boundary.v4.port}",
        f"[::1]:{boundary.v6.port}",
        f"127.0.0.3:{boundary.domain.port}",
    ]
    run = RunContext()
    for i, kind in enumerate(NAVIGATIONS):
        target = targets[i % len(targets)]
        sites.site.routes[f"/nav/{kind}"] = Route(headers=HTML, body=navigation_page(kind, target))
        boundary.reset()
        opened = await kit.call(run, action="open", url=f"{sites.site.base}/nav/{kind}")
        assert opened.ok or opened.error is not None
        if kind in ("link", "form"):
            assert (await kit.call(run, action="click", selector="#go")).ok
        await kit.call(run, action="wait", ms=300)
        assert boundary.forbidden() == dict.fromkeys(boundary.forbidden(), 0), (kind, target)
    await kit.call(run, action="close")


async def test_web_fetch_render_of_a_worker_websocket_app_shell_leaks_nothing(
    kit: Kit, sites: Sites, boundary: Boundary
) -> None:
    """The reviewer's shell2.html: web_fetch (render: auto) of an app shell whose worker
    reads an internal WebSocket printed the internal data."""
    forbidden = [
        f"ws://127.0.0.2:{boundary.ws_v4.port}/x",
        f"ws://127.0.0.3:{boundary.ws_domain.port}/x",
    ]
    sites.site.routes["/shell-ws"] = Route(headers=HTML, body=worker_shell(forbidden))
    sites.site.routes["/shell-ws-ok"] = Route(
        headers=HTML, body=worker_shell([f"ws://127.0.0.1:{boundary.ws_ok.port}/x"])
    )
    boundary.reset()
    result = await kit.toolkit.call(
        "web_fetch", {"url": f"{sites.site.base}/shell-ws"}, run=RunContext()
    )
    assert result.ok, result.text
    assert result.meta["render"] == "browser"
    assert SECRET not in result.text
    assert boundary.forbidden() == dict.fromkeys(boundary.forbidden(), 0)
    if kit.backend == "chromium":  # the control: a worker's WebSocket does run in renders
        assert "ERR" in result.text
        ok = await kit.toolkit.call(
            "web_fetch", {"url": f"{sites.site.base}/shell-ws-ok"}, run=RunContext()
        )
        assert ok.ok and ok.meta["render"] == "browser"
        assert f"GOT: {SECRET} from 127.0.0.1" in ok.text
