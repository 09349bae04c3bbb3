"""Fresh-user review issue 6: a screenshot that cannot be drawn says so in its first line,
and the result carries a flag a face can test (``meta["screenshot"] == "text_instead"``,
``meta["screenshot_reason"]`` ``backend`` or ``model``)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import Kit, Sites
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_lightpanda_screenshot_says_first_that_it_is_text(
    kits: dict[str, Kit], sites: Sites
) -> None:
    kit = kits["lightpanda"]
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/plain")).ok
    shot = await kit.call(run, action="screenshot")
    await kit.call(run, action="close")
    assert shot.ok, shot.text
    assert shot.images == ()
    first = shot.text.splitlines()[0]
    assert first.startswith("note: no screenshot: the lightpanda browser backend cannot draw")
    assert "page text instead" in first
    assert "plain page" in shot.text
    assert shot.meta["screenshot"] == "text_instead"
    assert shot.meta["screenshot_reason"] == "backend"


async def test_a_blind_model_gets_text_with_the_reason(chromium: Kit, sites: Sites) -> None:
    run = RunContext(can_see_images=False)
    assert (await chromium.call(run, action="open", url=f"{sites.site.base}/plain")).ok
    shot = await chromium.call(run, action="screenshot")
    await chromium.call(run, action="close")
    assert shot.ok and shot.images == ()
    assert shot.text.splitlines()[0].startswith("note: no screenshot: this model cannot see")
    assert shot.meta["screenshot"] == "text_instead"
    assert shot.meta["screenshot_reason"] == "model"
