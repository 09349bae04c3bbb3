"""The third backend: any browser reached as a CDP endpoint by URL (SPEC §1.4).

A real Chromium started here (its own profile, CDP on a free 127.0.0.1 port) stands in for
a remote browser service: webresearch discovers it through ``/json/version``, connects, and
applies its request policy by interception (a remote browser cannot be proxied by us).

Discovery against a browser reached by a service name (``http://browser:9222`` in
``deploy/compose.yaml``): Chrome answers 500 "Host header is specified and is not an IP
address or localhost" — before the fix discovery failed there; now it asks again with
``Host: localhost:<port>`` and opens the WebSocket with that header too.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import AsyncIterator
from http.server import BaseHTTPRequestHandler

import pytest
import pytest_asyncio

from tests.browser.conftest import Sites, browser_settings
from tests.support.http_server import LocalServer
from webresearch import RunContext, Toolkit
from webresearch.browser import discovery
from webresearch.browser import launch as launching
from webresearch.browser.discovery import HOST_REFUSED, discover
from webresearch.browser.launch_args import chromium_args, find_chromium

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _strict_devtools(h: BaseHTTPRequestHandler) -> None:
    """``/json/version`` with Chrome's Host rule, narrowed to ``localhost`` only (so that a
    test server on 127.0.0.1 can refuse the first request as Chrome refuses a name)."""
    host = h.headers.get("Host", "")
    if not host.startswith("localhost:"):
        body = HOST_REFUSED.encode()
        h.send_response(500)
    else:
        body = json.dumps(
            {"Browser": "Chrome/140", "webSocketDebuggerUrl": "ws://localhost/devtools/browser/abc"}
        ).encode()
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(body)))
    h.end_headers()
    h.wfile.write(body)


async def test_a_browser_refusing_the_host_is_asked_again_as_localhost() -> None:
    with LocalServer({"/json/version": _strict_devtools}) as devtools:
        port = devtools.base.rsplit(":", 1)[1]
        endpoint = await discover(devtools.base)
        hosts = [entry.headers.get("host") for entry in devtools.log]
    assert hosts == [f"127.0.0.1:{port}", f"localhost:{port}"]
    assert endpoint.headers == {"Host": f"localhost:{port}"}
    # the configured host and port are dialled, the advertised path kept
    assert endpoint.ws_url == f"ws://127.0.0.1:{port}/devtools/browser/abc"
    assert endpoint.version["Browser"] == "Chrome/140"


async def test_a_full_websocket_url_by_name_gets_the_host_fix_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A configured ws://name:port/devtools/browser/<id> skips discovery; before the fix it
    # never got the Host header, and Chrome answered the handshake with 500. (127.0.0.1
    # stands in for a service name: the name test is switched off for it here.)
    monkeypatch.setattr(discovery, "_is_ip_or_localhost", lambda host: False)
    with LocalServer({"/json/version": _strict_devtools}) as devtools:
        port = devtools.base.rsplit(":", 1)[1]
        ws = f"ws://127.0.0.1:{port}/devtools/browser/abc?token=t"
        endpoint = await discover(ws)
    assert endpoint.ws_url == ws  # dialled as configured
    assert endpoint.headers == {"Host": f"localhost:{port}"}


async def test_a_browser_accepting_the_host_keeps_it() -> None:
    def lenient(h: BaseHTTPRequestHandler) -> None:
        body = json.dumps({"webSocketDebuggerUrl": "ws://0.0.0.0:9222/devtools/browser/x"})
        h.send_response(200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body.encode())

    with LocalServer({"/json/version": lenient}) as devtools:
        endpoint = await discover(devtools.base)
        assert len(devtools.log) == 1
    assert endpoint.headers == {}
    assert endpoint.ws_url == devtools.base.replace("http", "ws") + "/devtools/browser/x"


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def remote_chromium() -> AsyncIterator[str]:
    """A Chromium serving CDP on 127.0.0.1 (not launched by webresearch's backend)."""
    binary = find_chromium()
    assert binary is not None, "the test setup (scripts/test) installs Debian's chromium"
    profile = tempfile.mkdtemp(prefix="cdp-endpoint-test-")
    argv = chromium_args(binary, user_data_dir=profile, viewport=(1280, 800), no_sandbox=True)
    process = await launching.launch(argv, marker=profile)
    try:
        port, _path = await launching.wait_for_devtools_port(profile, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        await process.aclose()
        shutil.rmtree(profile, ignore_errors=True)


async def test_a_cdp_endpoint_reads_pages_and_refuses_forbidden_redirects(
    remote_chromium: str, sites: Sites
) -> None:
    settings = browser_settings("cdp", browser_cdp_url=remote_chromium)
    async with Toolkit(settings) as toolkit:
        run = RunContext()
        opened = await toolkit.call(
            "browser", {"action": "open", "url": f"{sites.site.base}/plain"}, run=run
        )
        assert opened.ok, opened.text
        content = await toolkit.call("browser", {"action": "content"}, run=run)
        assert "plain page" in content.text
        sites.private.reset_log()
        refused = await toolkit.call(
            "browser", {"action": "open", "url": f"{sites.site.base}/to-private"}, run=run
        )
        assert refused.error is not None and refused.error.code == "blocked_address"
        assert sites.private.count() == 0
        await toolkit.call("browser", {"action": "close"}, run=run)


@pytest.mark.parametrize("form", ["/json/version/", "/"])
async def test_a_cdp_url_pasted_with_its_devtools_path_connects(
    remote_chromium: str, sites: Sites, form: str
) -> None:
    """Issue 21 item 2: the address as Chrome's docs show it (``…/json/version``) works."""
    settings = browser_settings("cdp", browser_cdp_url=remote_chromium + form)
    async with Toolkit(settings) as toolkit:
        run = RunContext()
        opened = await toolkit.call(
            "browser", {"action": "open", "url": f"{sites.site.base}/plain"}, run=run
        )
        assert opened.ok, opened.text
        await toolkit.call("browser", {"action": "close"}, run=run)
