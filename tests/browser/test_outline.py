"""The browser's page text shares web_fetch's format: a cut page ends with its outline
(issue 18 §1), on both backends (``content`` and ``browser_open``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.browser.conftest import Kit
from tests.support.http_server import LocalServer, Route
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

OUTLINE = "[outline: each heading with the offset where its section starts]"
MARKER = re.compile(r"\n\[truncated at (\d+) of (\d+) bytes\]$")

LONG = (
    "<!doctype html><html><head><title>Long manual</title></head><body><article>"
    "<h1>Long manual</h1>"
    + "".join(
        f"<h2>Part {n}</h2>" + f"<p>Part {n} explains one more thing in plain words.</p>" * 60
        for n in range(1, 30)
    )
    + "</article></body></html>"
).encode()


@pytest.fixture(scope="module")
def long_page() -> Iterator[LocalServer]:
    with LocalServer() as srv:
        srv.routes["/long"] = Route(headers=[("Content-Type", "text/html")], body=LONG)
        yield srv


async def test_content_and_browser_open_of_a_cut_page_end_with_its_outline(
    kit: Kit, long_page: LocalServer
) -> None:
    url = f"{long_page.base}/long"
    run = RunContext()
    opened = await kit.call(run, action="open", url=url)
    assert opened.ok, opened.text
    content = await kit.call(run, action="content")
    await kit.call(run, action="close")
    one_shot = await kit.toolkit.call("browser_open", {"url": url}, run=RunContext())
    for result in (content, one_shot):
        assert result.ok, result.text
        assert MARKER.search(result.text), result.text[-300:]
        outline = result.text.split(OUTLINE + "\n")[1]
        assert "- Part 29 (offset=" in outline  # a heading far past the cut
        assert result.meta["outline"] is True
