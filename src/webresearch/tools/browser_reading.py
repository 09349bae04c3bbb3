"""Reading a browser tab for a model: the rendered page through web_fetch's extraction and
format, page header lines, and the readiness note. Shared by the browser tool, browser_open
and page_screenshot's browser."""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING, NotRequired

from .. import progress
from ..browser.page import PlaywrightSession
from ..extract.dispatch import EXTRACTION_MODULE, extract_rendered, load_extraction
from ..net.http_status import error_for_status
from ..redact import redact_text, redact_url
from ..runtime.cpu_pool import CPUPool
from ..types import PageText
from .page_text import (
    EMPTY_HTML_NOTE,
    UNTRUSTED_NOTICE,
    Window,
    format_document,
    formats_inline,
)

if TYPE_CHECKING:  # extract.html is imported on first use (_extract), off the event loop
    from ..extract.html import HtmlExtraction

__all__ = [
    "BROWSER_EMPTY_NOTE",
    "INLINE_EXTRACT_CHARS",
    "OPEN_READ_ON_NOTE",
    "READ_ON_NOTE",
    "SAME_DOCUMENT_NOTE",
    "STALE_REFS_NOTE",
    "ReadFacts",
    "navigation_note",
    "page_header",
    "read_content",
    "read_rendered",
    "readiness_note",
]

#: Rendered HTML shorter than this (characters) is converted on the caller's thread: a
#: small page (6 KB: about 6 ms on a quiet core) costs less there than the hop to a worker
#: process and back; a longer one goes to the pool (50 ms median at 128–256 KiB, some pages
#: far more: too long to hold the event loop). Measured with ``bench/browser.py``.
INLINE_EXTRACT_CHARS = 16 * 1024

#: Header note of a cut ``content``: how to read on.
READ_ON_NOTE = "the text goes on: content with offset={next} reads the next part"
#: Header note of a cut browser_open page (the tool takes no offset: the browser tool does).
OPEN_READ_ON_NOTE = (
    "the text goes on: to read on, open this URL with the browser tool, then content with "
    "offset={next}"
)

#: Body of ``content`` when the rendered page has no readable text (web_fetch's note points
#: to the browser tool; this IS the browser tool).
BROWSER_EMPTY_NOTE = (
    "[the page shows no readable text yet: it may still be drawing itself, or show its content "
    "as images or a canvas. Use wait (a selector, or ms), then content again; or snapshot or "
    "screenshot to see what it shows]"
)


class ReadFacts(Window):
    """What reading a tab found, for the result's metadata (plus the output window).

    Attributes:
        extractor: what made the text (``main-content``, ``whole-page`` …).
        fallback: why an extraction fallback was taken, else ``None``.
        sha256: hex sha256 of the rendered HTML.
        hidden_chars_kept: letters and digits of text the page hides (a closed panel) that
            are in the text (web_fetch's ``hidden_chars_kept``; the text says so in a note).
        hidden_chars_invisible: how many of those the page draws so that no visitor sees
            them (web_fetch's ``hidden_chars_invisible``); present only when not 0.
    """

    extractor: str
    fallback: str | None
    sha256: str
    hidden_chars_kept: int
    hidden_chars_invisible: NotRequired[int]


def page_header(url: str, title: str) -> list[str]:
    """The first lines of a text about a tab: the untrusted-data notice, url, title."""
    return [UNTRUSTED_NOTICE, f"url: {redact_url(url)}", f"title: {redact_text(title)}"]


def readiness_note(ready: bool, settled: bool, budget_s: float) -> str | None:
    """The note for a page that was not ready (no load event) or not settled (still busy)
    when the readiness budget ran out, else ``None``."""
    shown = _seconds(budget_s)
    if not ready:
        return f"note: the page had not finished loading after {shown} s"
    if not settled:
        return (
            f"note: the page was still changing after {shown} s; its content may be "
            "incomplete (wait for a selector, then read it again)"
        )
    return None


#: Said when an action led the tab to another document: its snapshot refs are stale.
STALE_REFS_NOTE = "note: the page navigated; earlier refs are stale"
#: Said when an action changed the address but not the document (``history.pushState``, a
#: fragment): the snapshot's refs stay valid (SPEC §1.4: refs are stamped with the document).
SAME_DOCUMENT_NOTE = (
    "note: the address changed but the page did not load a new document (a script's "
    "history change); earlier refs stay valid for the elements still on it"
)


def navigation_note(url_before: str, url_after: str, doc_before: str, doc_after: str) -> str | None:
    """The note on an action's result about the page it left: :data:`STALE_REFS_NOTE` when
    the tab shows another document (``doc_*``: the top frame's document ids,
    :func:`~webresearch.browser.page_events.document_id`) — even at the same URL (a form
    posted to itself, a reload) —, :data:`SAME_DOCUMENT_NOTE` when only the URL changed,
    else ``None``. Without document ids (a backend that gives none) a changed URL counts as
    another document."""
    if doc_before and doc_after:
        if doc_before != doc_after:
            return STALE_REFS_NOTE
        return SAME_DOCUMENT_NOTE if url_before != url_after else None
    return STALE_REFS_NOTE if url_before != url_after else None


#: Said when an action leaves the tab on the browser's error page (a failed navigation).
LOAD_FAILED_NOTE = "note: the page failed to load: this tab shows only the browser's error page"


def status_note(status: int | None, unreached: bool) -> str | None:
    """The note for an opened page whose status is an HTTP error (≥ 400), else ``None``:
    the tab shows the site's error page (or, ``unreached``, the guarded proxy's own 502:
    the site could not be reached), not the page asked for; with the next step
    (:func:`~webresearch.net.http_status.error_for_status`'s for that status)."""
    if status is None or status < 400:
        return None
    if unreached:
        return (
            "note: the page did not load: the site could not be reached (the 502 is the "
            "browser's guarded proxy's answer, not the site's); next step: check the URL, "
            "or try again later"
        )
    hint = error_for_status(status, "").hint or "check the URL, or try another source"
    return (
        f"note: the server answered HTTP {status}, an error status: the tab shows its error "
        f"page, not the page asked for; next step: {hint}"
    )


def _seconds(value: float) -> str:
    """Seconds as a person reads them: 0.1 s steps from 1 s on (a budget left over after
    the navigation, 4.95043 → ``5``, 12.5 → ``12.5``), two significant digits below."""
    return f"{round(value, 1):g}" if value >= 1 else f"{value:.2g}"


async def read_rendered(
    session: PlaywrightSession,
    max_bytes: int,
    cpu: CPUPool,
    *,
    offset: int = 0,
    empty_note: str | None = None,
    read_on: str = READ_ON_NOTE,
) -> tuple[str, PageText, ReadFacts]:
    """The rendered page (and its frames) through web_fetch's extraction and output format.

    The extraction of the page and of each frame runs in the CPU worker pool, concurrently
    (a small document's right here: :data:`INLINE_EXTRACT_CHARS`); the caller's own budget
    (the browser action's) stops it: a cancelled job stops its worker.

    Args:
        session: the tab to read.
        max_bytes: the output window (web_fetch's ``fetch_max_bytes``).
        cpu: the worker pool the extraction runs in (off the event loop).
        offset: bytes of the text to skip (web_fetch's ``offset``).
        empty_note: replaces web_fetch's empty-page note (whose advice is to use the
            browser) when the caller is already in a browser session.
        read_on: the header note of a cut text, saying how to read on (``{next}`` is the
            offset to continue at).

    Returns:
        (text in SPEC §1.1 format, the page's text: url/title/text, facts for the metadata:
        extractor, fallback, sha256 of the HTML and the output window).

    Raises:
        InvalidArguments: ``offset`` is past the end of the text.
    """
    url, title, html, frames, mime = await session.html()
    page, *framed = await asyncio.gather(
        _extract(cpu, html, url), *(_extract(cpu, frame.html, frame.url) for frame in frames)
    )
    parts = [page.markdown]
    for frame, extracted in zip(frames, framed, strict=True):
        if extracted.markdown.strip():
            parts.append(f"## {frame.heading}\n\n{extracted.markdown}")
    doc: PageText = {
        "url": redact_url(url),
        "content_type": "text/html",
        "title": redact_text(page.title or title),  # web_fetch's rule (extract.title)
        "text": redact_text("\n\n".join(p for p in parts if p)),
        "markdown": True,
    }
    kept = page.hidden_chars_kept + sum(f.hidden_chars_kept for f in framed)
    if kept:  # closed panels the page hides: said to the model, as web_fetch says it
        doc["hidden_chars_kept"] = kept
    invisible = page.invisible_chars_kept + sum(f.invisible_chars_kept for f in framed)
    if invisible:  # white on white, off the screen: the note says which kind
        doc["hidden_chars_invisible"] = invisible
    note = empty_note or EMPTY_HTML_NOTE
    # A JSON or text file the browser wraps in <pre> is no page: untitled, it is not named
    # by its address (web_fetch gives it an empty title: extract.dispatch.Converted.title).
    named = not mime or "html" in mime  # no type from the backend: a page, as before
    if formats_inline(doc):
        text, window = format_document(doc, offset, max_bytes, None, note, named)
    else:  # a long page's outline scans the whole text: off the event loop
        text, window = await cpu.run(
            format_document, doc, offset, max_bytes, None, note, named, what="formatting the page"
        )
    if window["next_offset"] is not None:
        # The marker ends the text (SPEC §1.1); how to read on goes with the header lines.
        head, sep, body = text.partition("\n\n")
        text = f"{head}\nnote: {read_on.format(next=window['next_offset'])}{sep}{body}"
    facts: ReadFacts = {
        "extractor": page.extractor,
        "fallback": page.fallback,
        "hidden_chars_kept": kept,
        "hidden_chars_invisible": invisible,
        "sha256": await cpu.sha256_hex(html.encode("utf-8", "replace")),
        **window,
    }
    if not invisible:  # as in web_fetch's metadata: only when some text is drawn invisibly
        del facts["hidden_chars_invisible"]
    return text, doc, facts


async def _extract(cpu: CPUPool, html: str, url: str) -> HtmlExtraction:
    """web_fetch's extraction of rendered HTML: in the worker pool, or right here for a
    small page (:data:`INLINE_EXTRACT_CHARS`). The first one here imports the extraction
    in a thread: on the event loop that import (0.3–0.7 s of CPU) held every other request
    of the MCP server (review); the pool's job names a function that imports it in the
    worker (``extract.dispatch.extract_rendered``), so this process loads it only for a
    small page."""
    if len(html) < INLINE_EXTRACT_CHARS:
        if EXTRACTION_MODULE not in sys.modules:
            await asyncio.to_thread(load_extraction)
        return extract_rendered(html, url)
    progress.report("converting the rendered page")  # a new stage, not the page's load
    return await cpu.run(extract_rendered, html, url, what="converting the rendered page")


async def read_content(
    session: PlaywrightSession, max_bytes: int, cpu: CPUPool, *, offset: int = 0
) -> tuple[str, dict[str, object]]:
    """The browser tool's ``content``: the rendered page in web_fetch's format (with the
    browser's own empty-page note), from ``offset``, and its metadata (url, extractor,
    window …).

    Raises:
        InvalidArguments: ``offset`` is past the end of the text.
    """
    text, doc, facts = await read_rendered(
        session, max_bytes, cpu, offset=offset, empty_note=BROWSER_EMPTY_NOTE
    )
    return text, {"url": doc["url"], **facts}
