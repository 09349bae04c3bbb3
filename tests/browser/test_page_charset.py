"""A page served without a charset is read in the right encoding by the browser.

Before: Chromium fell back to the locale's legacy encoding (windows-1252) for a UTF-8 page
that declares no charset, so the browser tool, browser_open and web_fetch's render path read
mojibake ("Loadingâ€¦", "cafÃ©"); the profile now defaults to UTF-8
(``launch_args.chromium_preferences``), and Chromium's detector still recognises a legacy
page. Lightpanda decodes every such page as UTF-8 (so only the UTF-8 page is read on it).
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites
from tests.support.http_server import Route
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

NO_CHARSET = [("Content-Type", "text/html")]

UTF8 = (
    "<html><head><title>Café menu</title></head><body><h1>Café menu</h1>"
    "<p>Loading… the naïve crème brûlée costs €5 and comes with “quoted” words.</p>"
    "</body></html>"
).encode()

LEGACY = (
    "<html><head><title>Déjà vu</title></head><body><h1>Déjà vu</h1>"
    "<p>Naïve café: crème brûlée for €5, with “quoted” words in a legacy page.</p>"
    "</body></html>"
).encode("cp1252")


@pytest.fixture
def pages(sites: Sites) -> Sites:
    sites.site.routes.update(
        {
            "/charset-utf8": Route(headers=NO_CHARSET, body=UTF8),
            "/charset-legacy": Route(headers=NO_CHARSET, body=LEGACY),
            "/charset-legacy-meta": Route(
                headers=NO_CHARSET,
                body=LEGACY.replace(b"<head>", b'<head><meta charset="windows-1252">'),
            ),
        }
    )
    return sites


async def test_a_utf8_page_without_a_charset_reads_as_utf8(kit: Kit, pages: Sites) -> None:
    run = RunContext()
    opened = await kit.call(run, action="open", url=f"{pages.site.base}/charset-utf8")
    content = await kit.call(run, action="content")
    snapshot = await kit.call(run, action="snapshot")
    await kit.call(run, action="close")
    assert opened.ok and content.ok and snapshot.ok, (opened.text, content.text)
    assert "title: Café menu" in content.text
    assert "Loading… the naïve crème brûlée costs €5" in content.text
    assert "crème brûlée costs €5" in snapshot.text
    assert "Ã" not in content.text + snapshot.text


async def test_a_legacy_page_without_a_charset_is_still_detected_by_chromium(
    kits: dict[str, Kit], pages: Sites
) -> None:
    kit = kits["chromium"]
    run = RunContext()
    await kit.call(run, action="open", url=f"{pages.site.base}/charset-legacy")
    content = await kit.call(run, action="content")
    await kit.call(run, action="close")
    assert content.ok, content.text
    assert "Naïve café: crème brûlée for €5, with “quoted” words" in content.text


async def test_a_labelled_legacy_page_reads_right_on_lightpanda(
    kits: dict[str, Kit], pages: Sites
) -> None:
    kit = kits["lightpanda"]
    run = RunContext()
    await kit.call(run, action="open", url=f"{pages.site.base}/charset-legacy-meta")
    content = await kit.call(run, action="content")
    await kit.call(run, action="close")
    assert content.ok, content.text
    assert "Naïve café: crème brûlée for €5, with “quoted” words" in content.text


@pytest.mark.xfail(
    strict=True, reason="Lightpanda decodes an unlabelled page as UTF-8 (a backend limit)"
)
async def test_an_unlabelled_legacy_page_reads_right_on_lightpanda(
    kits: dict[str, Kit], pages: Sites
) -> None:
    kit = kits["lightpanda"]
    run = RunContext()
    await kit.call(run, action="open", url=f"{pages.site.base}/charset-legacy")
    content = await kit.call(run, action="content")
    await kit.call(run, action="close")
    assert content.ok, content.text
    assert "\ufffd" not in content.text
    assert "Naïve café: crème brûlée for €5" in content.text
