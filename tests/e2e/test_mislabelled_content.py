"""Case 38 through both tools: text served as ``image/png`` (issue 21 item 4).

web_fetch returns the text (and says the label was wrong); fetch_image says it is not an
image and points to web_fetch — which now works — so an agent never loops between them.
The whole kind, tool by tool, is ``tests/unit/extract/test_shared_sniffing.py``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.conftest import CASES
from tests.support.http_server import LocalServer, Route, load_case
from tests.support.image_factory import encode, photo_like
from webresearch import Settings, Toolkit
from webresearch.runtime.journal import MemoryJournal

CASE = CASES / "38-text-labelled-as-png"


@pytest.fixture(scope="module")
def site() -> Iterator[LocalServer]:
    with LocalServer(load_case(CASE)) as srv:
        for label in ("image/jpeg", "image/webp", "image/gif"):
            srv.routes[f"/page.{label.split('/')[1]}"] = Route(
                headers=[("Content-Type", label)],
                body=b"<!doctype html><title>Status</title><h1>Status</h1><p>All systems normal.</p>",
            )
            srv.routes[f"/data-{label.split('/')[1]}"] = Route(
                headers=[("Content-Type", label)], body=b'{"status": "normal", "load": 0.4}'
            )
        srv.routes["/photo.html"] = Route(
            headers=[("Content-Type", "text/html; charset=utf-8")],
            body=encode(photo_like(64, 48), "PNG"),
        )
        yield srv


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(settings, journal=MemoryJournal()) as tk:
        yield tk


async def test_case_38_web_fetch_reads_the_text(toolkit: Toolkit, site: LocalServer) -> None:
    result = await toolkit.call("web_fetch", {"url": f"{site.base}/notes.png"})
    assert result.ok, result.text
    assert "The nightly export moves from 02:00 to 03:30 UTC" in result.text
    assert "Open question: keep the CSV export or replace it with Parquet?" in result.text
    assert "fetch_image" not in result.text and "Traceback" not in result.text
    assert "content-type: text/plain" in result.text
    assert "note: the server labelled this image/png, but the bytes are text/plain" in result.text
    assert result.meta["declared_content_type"] == "image/png"


async def test_case_38_fetch_image_says_it_is_text(toolkit: Toolkit, site: LocalServer) -> None:
    result = await toolkit.call("fetch_image", {"url": f"{site.base}/notes.png"})
    assert result.error is not None and result.error.code == "unsupported_content"
    assert not result.error.retryable and not result.images
    assert "not an image (the content is text)" in result.text and "web_fetch" in result.text
    assert "Traceback" not in result.text


@pytest.mark.parametrize(
    "path", ["/page.jpeg", "/page.webp", "/page.gif", "/data-jpeg", "/data-webp"]
)
async def test_html_and_json_with_image_labels_are_read_not_sent_around(
    toolkit: Toolkit, site: LocalServer, path: str
) -> None:
    fetched = await toolkit.call("web_fetch", {"url": site.base + path})
    assert fetched.ok, fetched.text
    assert "normal" in fetched.text and "fetch_image" not in fetched.text
    image = await toolkit.call("fetch_image", {"url": site.base + path})
    assert image.error is not None and "web_fetch" in image.text


async def test_an_image_labelled_html_is_an_image(toolkit: Toolkit, site: LocalServer) -> None:
    fetched = await toolkit.call("web_fetch", {"url": f"{site.base}/photo.html"})
    assert fetched.error is not None and "fetch_image" in fetched.text
    image = await toolkit.call("fetch_image", {"url": f"{site.base}/photo.html"})
    assert image.ok and image.images, image.text
