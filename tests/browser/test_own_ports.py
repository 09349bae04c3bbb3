"""A page never reaches the browser's DevTools endpoint nor the guarded proxy's own ports,
however the local host is spelled, with and without allow_private (issue 15; the shared
reproduction ``security/devtools-port``: ``http://[::ffff:7f00:1]:<DevTools port>/json/list``
listed every tab of every session under --allow-private).

Both backends; one test per spelling. Without allow_private the SSRF rules refuse the
spelling already; with it, the proxy's port exclusion must.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.browser.conftest import BACKENDS, Kit, Sites, browser_settings
from webresearch import RunContext, Toolkit

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: The spellings of issue 15 (the proxy's own test covers more), 127.0.0.1 as the control.
SPELLINGS = ["127.0.0.1", "[::ffff:7f00:1]", "[::7f00:1]", "[64:ff9b::7f00:1]", "0.0.0.0", "[::]"]
#: What the DevTools endpoint answers with (none of it may reach the page or the model).
DEVTOOLS_WORDS = ("webSocketDebuggerUrl", "devtoolsFrontendUrl", "Protocol-Version", '"Browser"')


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def private_kits() -> AsyncIterator[dict[str, Kit]]:
    """A Toolkit per backend with allow_private (every private address allowed)."""
    out: dict[str, Kit] = {}
    try:
        for backend in BACKENDS:
            settings = browser_settings(backend, allow_private=True, allowed_networks=[])
            out[backend] = Kit(backend, Toolkit(settings))
        yield out
    finally:
        for kit in out.values():
            await kit.toolkit.aclose()


@pytest.fixture(params=["allow_private", "loopback_exempted"])
def any_kit(request: pytest.FixtureRequest, kit: Kit, private_kits: dict[str, Kit]) -> Kit:
    """The backend's Toolkit with allow_private, or the suite's (127.0.0.1 exempted)."""
    return private_kits[kit.backend] if request.param == "allow_private" else kit


def _own_ports(kit: Kit) -> tuple[int, ...]:
    """The browser's DevTools port and the proxy's listeners (a session is open)."""
    backend = kit.toolkit.services.browser._backend
    assert backend is not None and backend.proxy is not None
    ports: tuple[int, ...] = backend.proxy.excluded_ports
    assert len(ports) >= 2, "the DevTools port and at least the browser-wide listener"
    return ports


@pytest.mark.parametrize("host", SPELLINGS)
async def test_the_browsers_own_ports_are_refused_for_every_spelling(
    any_kit: Kit, sites: Sites, host: str
) -> None:
    run = RunContext()
    assert (await any_kit.call(run, action="open", url=f"{sites.site.base}/plain")).ok
    for port in _own_ports(any_kit):
        url = f"http://{host}:{port}/json/list"
        opened = await any_kit.call(run, action="open", url=url)
        assert opened.error is not None, (url, opened.text)
        assert opened.error.code == "blocked_address", (url, opened.text)
        assert not any(words in opened.text for words in DEVTOOLS_WORDS), url
    content = await any_kit.call(run, action="content")
    assert not any(words in content.text for words in DEVTOOLS_WORDS)
    await any_kit.call(run, action="close")
