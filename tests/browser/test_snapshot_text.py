"""Snapshots keep the page's text and content keeps its frames (issue 15, cases 34 and 40),
on both backends.

Before: a paragraph around a link became only the link, a list item holding a sub-list lost
its own text, and ``content`` skipped ``srcdoc`` frames and frames a script wrote into.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.conftest import Kit, Sites
from tests.support.http_server import LocalServer, Route, load_case
from webresearch import RunContext

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIXTURES = Path(__file__).parents[1] / "fixtures"
HTML = [("Content-Type", "text/html; charset=utf-8")]

#: tests/fixtures/browser/snapshot-text.html, line by line (refs without their document
#: stamp): every visible text in page order, controls inline in the text around them.
SNAPSHOT_LINES = [
    "- banner",
    "  - navigation",
    '    - link "Home" [ref=e1] -> /',
    '    - link "Docs" [ref=e2] -> /docs',
    "- main",
    '  - heading "Account settings" [level=1]',
    '  - text: Before the link, link "help page" [ref=e3], and after it.',
    '  - text: Press button "Save" [ref=e4] when done.',
    "  - listitem: Fruit",
    "    - listitem: Apple",
    '    - listitem: Pear with link "details" [ref=e5]',
    "  - listitem: Vegetables in a paragraph",
    "  - listitem: First step",
    "  - listitem: Second step",
    "  - form",
    '    - textbox "E-mail address" [ref=e6] value="a@b.example"',
    '    - checkbox "Remember me" [ref=e7] [checked]',
    '    - combobox "Plan" [ref=e8] value="Pro"',
    "  - table",
    "    - text: Prices",
    "    - row: Plan | Price",
    "    - row: Free | 0 €",
    '    - row: Pro | link "12 €" [ref=e9]',
    "  - text: Line one",
    "  - text: Line two",
    '  - iframe "Inline frame"',
    '    - text: Inline frame says link "hello" [ref=e10].',
    '  - iframe "Written frame"',
    '    - heading "Written heading" [level=2]',
    "    - text: Written paragraph.",
    "  - text: Last words.",
    "- contentinfo",
    "  - text: Footer note",
]


def _body(snapshot_text: str) -> list[str]:
    """The snapshot's lines after its header, refs without their document stamp."""
    body = snapshot_text.split("\n\n", 1)[1]
    return [re.sub(r"\[ref=d\d+e(\d+)\]", r"[ref=e\1]", line) for line in body.splitlines()]


async def test_a_snapshot_has_every_visible_text_in_order(kit: Kit, sites: Sites) -> None:
    page = (FIXTURES / "browser" / "snapshot-text.html").read_bytes()
    sites.site.routes["/snapshot-text"] = Route(headers=HTML, body=page)
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/snapshot-text")).ok
    snap = await kit.call(run, action="snapshot")
    assert snap.ok, snap.text
    assert _body(snap.text) == SNAPSHOT_LINES
    assert "Hidden paragraph" not in snap.text and "Undisplayed" not in snap.text
    # An inline ref is a ref like any other: it clicks its element.
    ref = snap.text.split('button "Save" [ref=')[1].split("]")[0]
    assert (await kit.call(run, action="click", ref=ref)).ok
    # Inside a frame too: that very link gets the click.
    ref = snap.text.split('link "hello" [ref=')[1].split("]")[0]
    assert (await kit.call(run, action="click", ref=ref)).ok
    clicked = "document.querySelector('iframe').contentDocument.body.dataset.clicked"
    answer = await kit.call(run, action="evaluate", expression=clicked)
    assert 'value: "yes"' in answer.text, answer.text
    await kit.call(run, action="close")


async def test_case_40_text_around_links_and_sub_lists_is_kept(kit: Kit) -> None:
    with LocalServer(load_case(FIXTURES / "cases" / "40-snapshot-keeps-text")) as server:
        run = RunContext()
        assert (await kit.call(run, action="open", url=f"{server.base}/")).ok
        snap = await kit.call(run, action="snapshot")
        assert snap.ok, snap.text
        text = snap.text
        for words in (
            "Paragraph with a",
            "inside it",
            "Parent item",
            "child",
            "Second item",
            "option sets how long a request may take",
            "set it to zero",
        ):
            assert words in text, words
        lines = text.splitlines()
        link = next(line for line in lines if 'link "link"' in line)
        assert "[ref=" in link
        assert any('link "retries"' in line and "[ref=" in line for line in lines)
        order = [
            "Configuration reference",
            "Paragraph with a",
            "Parent item",
            "child",
            "Second item",
            "option sets",
        ]
        assert [text.index(words) for words in order] == sorted(text.index(w) for w in order)
        parent = next(line for line in lines if "Parent item" in line)
        child = next(line for line in lines if line.strip().endswith("child"))
        assert len(child) - len(child.lstrip()) > len(parent) - len(parent.lstrip()), "nested"
        ref = link.split("[ref=")[1].split("]")[0]
        assert (await kit.call(run, action="click", ref=ref)).ok
        await kit.call(run, action="close")


async def test_a_snapshot_over_its_budget_keeps_controls_and_marks_the_cut(
    kit: Kit, sites: Sites
) -> None:
    paragraphs = "".join(
        f"<p>Paragraph {i} says something long enough to fill the budget quickly, "
        f"with <a href='/p{i}'>link {i}</a> in the middle of it.</p>"
        for i in range(400)
    )
    sites.site.routes["/long-text"] = Route(
        headers=HTML, body=f"<title>Long</title><main>{paragraphs}</main>".encode()
    )
    run = RunContext()
    assert (await kit.call(run, action="open", url=f"{sites.site.base}/long-text")).ok
    snap = await kit.call(run, action="snapshot")
    await kit.call(run, action="close")
    assert snap.ok, snap.text
    body = snap.text.split("\n\n", 1)[1]
    assert len(body.encode()) <= 16 * 1024, "the default snapshot budget"
    assert body.splitlines()[-1].startswith("[snapshot truncated:")
    assert snap.meta["truncated"] is True
    assert "Paragraph 0 says something" in body and 'link "link 0" [ref=' in body


async def test_case_34_content_has_inline_frames_marked(kit: Kit) -> None:
    with LocalServer(load_case(FIXTURES / "cases" / "34-iframe-srcdoc-content")) as server:
        run = RunContext()
        assert (await kit.call(run, action="open", url=f"{server.base}/")).ok
        content = await kit.call(run, action="content")
        await kit.call(run, action="close")
    assert content.ok, content.text
    text = content.text
    host = text.index("Intro paragraph on the host page.")
    srcdoc = text.index("SRCDOC-ONLY-TEXT: the quarterly figures are in this embedded frame")
    written = text.index("SCRIPT-WRITTEN-FRAME-TEXT from document.write")
    assert host < srcdoc and host < written
    assert text.count("SRCDOC-ONLY-TEXT") == 1 and text.count("SCRIPT-WRITTEN-FRAME-TEXT") == 1
    assert text.count("## Frame (inline)") == 2
    assert text.index("## Frame (inline)") < srcdoc
    assert "| Q1 | 120 |" in text
    for raw in ("<p>", "<table>", "&lt;", "&gt;"):
        assert raw not in text, raw


async def test_content_includes_a_cross_origin_frame_marked_with_its_url(
    kit: Kit, sites: Sites
) -> None:
    """Another origin (another port): both backends give access to its document."""
    other_page = b"<title>Other</title><p>Text served by another origin: harbour pilot.</p>"
    with LocalServer({"/": Route(headers=HTML, body=other_page)}) as other:
        sites.site.routes["/cross-frame"] = Route(
            headers=HTML,
            body=f"<title>Host</title><p>Host text.</p><iframe src='{other.base}/'></iframe>".encode(),
        )
        run = RunContext()
        assert (await kit.call(run, action="open", url=f"{sites.site.base}/cross-frame")).ok
        content = await kit.call(run, action="content")
        snap = await kit.call(run, action="snapshot")
        await kit.call(run, action="close")
    assert content.ok, content.text
    assert f"## Frame: {other.base}/" in content.text
    assert "harbour pilot" in content.text
    assert "(cross-origin, not included)" in snap.text
