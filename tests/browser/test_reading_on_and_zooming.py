"""Issue 15 phase B on real browsers: ``content`` reads on past its budget with ``offset``
(fault 7), ``screenshot`` zooms into a region or an element (fault 8), a call's
``timeout_ms`` bounds it, ``fill`` takes ``value``, and a call reports its long steps."""

from __future__ import annotations

import io
import re
import time
from typing import cast

import pytest
from PIL import Image

from tests.browser.conftest import Kit, Sites
from tests.browser.pages import slow_page
from tests.support.http_server import Route
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

HTML = [("Content-Type", "text/html; charset=utf-8")]
#: About 150 KB of text: three windows of web_fetch's 48 KiB.
BOOK = (
    b"<!doctype html><html><head><title>Book</title></head><body>"
    + b"".join(
        b"<p>Paragraph %05d of the long book, with words to read.</p>" % i for i in range(2500)
    )
    + b"</body></html>"
)
#: Small print at a known place: a yellow box 200×20 CSS px at (100, 1000), below the fold.
FINE_PRINT = b"""<!doctype html><html><head><title>Fine print</title></head>
<body style="margin:0"><div style="height:3000px"></div>
<button id="fine" style="margin:0;padding:0;border:0;position:absolute;left:100px;top:1000px;
width:200px;height:20px;background:#ff0;color:#000;font-size:6px">fine print: 42 units</button>
</body></html>"""


_slow = slow_page(3, b"finally")


@pytest.fixture(autouse=True)
def _routes(sites: Sites) -> None:
    sites.site.routes.update(
        {
            "/book": Route(headers=HTML, body=BOOK),
            "/fine": Route(headers=HTML, body=FINE_PRINT),
            "/slow": _slow,
        }
    )


async def test_content_reads_on_with_offset_like_web_fetch(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/book")).ok
    seen: list[str] = []
    offset: int | None = 0
    while offset is not None:
        part = await kit.call(run, action="content", offset=offset)
        assert part.ok, part.text
        if part.meta["truncated"]:
            nxt = part.meta["next_offset"]
            assert part.text.endswith(f"[truncated at {nxt} of {part.meta['total_bytes']} bytes]")
            assert f"note: the text goes on: content with offset={nxt} reads" in part.text
        seen.append(part.text)
        offset = part.meta["next_offset"]
    assert len(seen) >= 3
    whole = "\n".join(seen)
    for i in (0, 1234, 2499):
        assert f"Paragraph {i:05d} of the long book" in whole, i
    past = await kit.call(run, action="content", offset=10**9)
    assert past.error is not None and past.error.code == "invalid_arguments"
    assert "past the end of the text" in past.text
    await kit.call(run, action="close")


async def test_browser_open_says_how_to_read_on(kit: Kit, sites: Sites) -> None:
    result = await kit.toolkit.call(
        "browser_open", {"url": f"{sites.site.base}/book"}, run=RunContext()
    )
    assert result.ok and result.meta["truncated"]
    assert f"then content with offset={result.meta['next_offset']}" in result.text


async def test_a_region_is_drawn_larger_so_small_print_can_be_read(
    chromium: Kit, sites: Sites
) -> None:
    run = RunContext()
    assert (await chromium.call(run, action="open", url=f"{sites.site.base}/fine")).ok
    shot = await chromium.call(run, action="screenshot", clip="100,1000,200,20")
    assert shot.ok, shot.text
    assert "the region 100,1000,200,20 of the page, drawn at 4×" in shot.text
    im = Image.open(io.BytesIO(shot.images[0].data)).convert("RGB")
    assert im.size == (800, 80)  # below the fold, four times the CSS size
    colours = cast("list[tuple[int, tuple[int, int, int]]]", im.getcolors(maxcolors=1 << 16))
    yellow = sum(n for n, (r, g, b) in colours if r > 240 and g > 240 and b < 30)
    dark = sum(n for n, (r, g, b) in colours if r < 60 and g < 60 and b < 60)
    assert yellow > 0.7 * 800 * 80  # the box fills the picture
    assert dark > 200  # the text is drawn at 4×, not 6 px smudges enlarged
    snap = await chromium.call(run, action="snapshot")
    found = re.search(r'button "fine print: 42 units" \[ref=(d\d+e\d+)\]', snap.text)
    assert found is not None, snap.text
    for target in ({"ref": found.group(1)}, {"selector": "#fine"}):
        element = await chromium.call(run, action="screenshot", **target)
        assert element.ok, element.text
        name = target.get("ref") or target["selector"]
        assert f"the element {name} (100,1000,200,20 of the page), drawn at 4×" in element.text
        assert element.images[0].meta["width"] == 800
    outside = await chromium.call(run, action="screenshot", clip="5000,0,10,10")
    assert outside.error is not None and "outside the page" in outside.text
    await chromium.call(run, action="close")


async def test_without_pixels_a_region_gives_the_text(kits: dict[str, Kit], sites: Sites) -> None:
    lightpanda = kits["lightpanda"]
    run = RunContext()
    assert (await lightpanda.call(run, action="open", url=f"{sites.site.base}/fine")).ok
    shot = await lightpanda.call(run, action="screenshot", clip="100,1000,200,20")
    assert shot.ok and not shot.images
    assert shot.meta["screenshot"] == "text_instead" and "fine print: 42 units" in shot.text
    await lightpanda.call(run, action="close")


async def test_a_calls_timeout_bounds_it(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    started = time.monotonic()
    result = await kit.call(run, action="open", url=f"{sites.site.base}/slow", timeout_ms=1000)
    assert result.error is not None and result.error.code == "timeout", result.text
    assert "1 s" in result.text
    assert time.monotonic() - started < 2.9  # not the 45 s action timeout, not the page's 3 s
    await kit.call(run, action="close")


async def test_fill_takes_value_and_the_alias_eval_runs(kit: Kit, sites: Sites) -> None:
    run = RunContext()
    assert (await kit.call(run, action="navigate", url=f"{sites.site.base}/app/")).ok
    filled = await kit.call(run, action="fill", selector="#user", value="alice")
    assert filled.ok, filled.text
    value = await kit.call(run, action="eval", expression="document.querySelector('#user').value")
    assert value.ok and 'value: "alice"' in value.text
    assert value.meta["action"] == "evaluate"
    await kit.call(run, action="close")


async def test_long_steps_are_reported_to_the_caller(kit: Kit, sites: Sites) -> None:
    heard: list[str] = []

    def progress(message: str) -> None:
        heard.append(message)

    run = RunContext()
    await kit.toolkit.call(
        "browser", {"action": "open", "url": f"{sites.site.base}/plain"}, run=run, progress=progress
    )
    # the browser already runs: no start to report
    assert heard == ["loading the page", "waiting for the page to settle"]
    heard.clear()
    await kit.toolkit.call("browser", {"action": "snapshot"}, run=run, progress=progress)
    assert heard == []  # a quick action says nothing
    await kit.call(run, action="close")
    rendered = await kit.toolkit.call(
        "web_fetch",
        {"url": f"{sites.site.base}/shell?progress={kit.backend}"},
        run=RunContext(),
        progress=progress,
    )
    assert rendered.ok and rendered.meta["render"] == "browser"
    assert heard[:3] == [
        "downloading the page",
        "converting the page",
        "rendering the page in a browser",
    ]
    assert "converting the rendered page" in heard[3:]
    assert not any(step.startswith("starting") for step in heard)
