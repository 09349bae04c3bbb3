"""Reading a tab: its rendered HTML and frames (``content``), the snapshot, screenshots.

HTML is read in each document's own world (:data:`~.page_scripts.READ_HTML_JS`): one
evaluation per document, no helper script injected (the top document's through a plain CDP
``Runtime.evaluate``, :mod:`.page_eval`). Child frames follow the page, up to
:data:`MAX_FRAMES` with text: frames with a URL of their own (same-origin, and cross-origin
ones where the backend gives access to them), and inline frames — ``srcdoc`` documents and
empty frames a script wrote into — whose text the page's own HTML does not hold.
"""

from __future__ import annotations

import base64
import contextlib
import math
from typing import TYPE_CHECKING, Any

from ..errors import BrowserError
from ..runtime.waiting import wait_within
from .base import FrameDocument, SessionConfig, SnapshotData
from .page_elements import RefState
from .page_errors import best_effort, library_errors
from .page_eval import CDPSender, evaluate_function
from .page_scripts import READ_HTML_JS
from .snapshot import COLLECT_JS, MAX_NODES

if TYPE_CHECKING:
    from playwright.async_api import CDPSession, Frame, Page

__all__ = ["INLINE_FRAME_SCHEMES", "MAX_FRAMES", "Box", "Reader"]

#: A rectangle of the page: (x, y, width, height) in CSS px from the page's top left corner.
Box = tuple[float, float, float, float]

#: Most child frames whose documents ``content`` includes (frames without text not counted).
MAX_FRAMES = 5
#: Most child frames looked at.
MAX_FRAMES_SEEN = 40
#: Seconds one frame may take to be read (a frame whose load was refused may never answer
#: on some backends: it is skipped, the page is still read).
FRAME_READ_S = 2.0
#: URL prefixes of frames without a network URL of their own (their document came from the
#: page: ``srcdoc``, a script's ``document.write``, a ``data:``/``blob:`` URL it made).
INLINE_FRAME_SCHEMES = ("about:", "data:", "blob:")

#: The document's address, its title and whether it is still loading, read together.
_HERE_JS = (
    "() => [String(location.href), String(document.title || ''), document.readyState === 'loading']"
)
#: The page height in CSS px.
_PAGE_HEIGHT_JS = (
    "() => Math.max(document.documentElement.scrollHeight, "
    "document.body ? document.body.scrollHeight : 0)"
)
#: The page width and height in CSS px.
_PAGE_SIZE_JS = (
    "() => { const d = document.documentElement, b = document.body; return ["
    "Math.max(d.scrollWidth, b ? b.scrollWidth : 0, window.innerWidth), "
    "Math.max(d.scrollHeight, b ? b.scrollHeight : 0)]; }"
)
#: The frame's body has text (skips empty ad and tracking frames).
_HAS_TEXT_JS = "() => !!(document.body && /\\S/.test(document.body.textContent || ''))"


class Reader:
    """Reads one tab.

    Args:
        page: the tab.
        cdp: a CDP session on the tab (the top document is read through it).
        config: the session settings.
        refs: the session's snapshot stamps (a snapshot issues the next document stamp).
    """

    def __init__(self, page: Page, cdp: CDPSender, config: SessionConfig, refs: RefState) -> None:
        self.page = page
        self.cdp = cdp
        self.config = config
        self.refs = refs

    async def here(self) -> tuple[str, str, bool] | None:
        """``(URL, title, still loading)`` of the top document, read in one evaluation so
        the two name the same document (read one after the other, a navigation that
        committed in between paired the new URL with the old page's title, or with the
        empty one of a document still loading: new-user test, session 18); ``None`` when
        it cannot be read."""
        raw: object = None
        with best_effort(), contextlib.suppress(BrowserError):
            raw = await evaluate_function(self.cdp, _HERE_JS)
        if not isinstance(raw, list) or len(raw) != 3:
            return None
        return str(raw[0]), str(raw[1]), bool(raw[2])

    async def html(self) -> tuple[str, str, list[FrameDocument], str]:
        """(title, rendered HTML, child frames with text, the document's content type:
        ``document.contentType``, "" when the backend gives none).

        Raises:
            BrowserError, Timeout: the page could not be read.
        """
        with library_errors("reading the page", self.config):
            raw = await evaluate_function(self.cdp, READ_HTML_JS)
        if not isinstance(raw, list) or len(raw) < 2:
            raise BrowserError("reading the page failed: the page gave no document")
        page_url = str(self.page.url)
        frames: list[FrameDocument] = []
        for frame in self.page.frames[1:MAX_FRAMES_SEEN]:
            if len(frames) >= MAX_FRAMES:
                break
            document = await self._frame(frame, page_url)
            if document is not None:
                frames.append(document)
        mime = str(raw[2]) if len(raw) > 2 else ""
        return str(raw[0]), str(raw[1]), frames, mime.lower()

    @staticmethod
    async def _frame(frame: Frame, page_url: str) -> FrameDocument | None:
        """The frame's document, or ``None`` (no text, not a page, gone while read)."""
        url = str(frame.url)
        inline = url.startswith(INLINE_FRAME_SCHEMES)
        if not inline and not url.startswith(("http://", "https://")):
            # The browser's error page of a refused frame; no URL at all: a frame whose load
            # was refused or never committed (Lightpanda then never answers in it).
            return None
        with best_effort():
            if await wait_within(frame.evaluate(_HAS_TEXT_JS), FRAME_READ_S):
                raw: list[Any] = await wait_within(frame.evaluate(READ_HTML_JS), FRAME_READ_S)
                return FrameDocument(page_url if inline else url, str(raw[1]), inline)
        return None

    async def snapshot(self) -> SnapshotData:
        """Collect the snapshot; a new document gets the next document stamp."""
        candidate = self.refs.issued + 1
        with library_errors("snapshot", self.config):
            raw = await evaluate_function(
                self.cdp,
                COLLECT_JS,
                {"token": self.refs.token, "doc": candidate, "max": MAX_NODES},
                what="snapshot",
            )
        data: dict[str, Any] = raw if isinstance(raw, dict) else {}
        doc = int(data.get("doc", candidate))
        if doc == candidate:
            self.refs.issued = candidate
        return SnapshotData(
            doc=str(doc),
            url=str(data.get("url", "")),
            title=str(data.get("title", "")),
            nodes=list(data.get("nodes") or []),
        )

    async def screenshot(self, full_page: bool, max_tiles: int) -> tuple[list[bytes], int]:
        """PNG tiles of the viewport's size, top to bottom (one tile unless ``full_page``),
        and the page height in CSS px."""
        width, height = self.config.viewport
        with library_errors("screenshot", self.config):
            measured = await evaluate_function(self.cdp, _PAGE_HEIGHT_JS, what="screenshot")
            page_height = int(measured) if isinstance(measured, (int, float)) else height
            if not full_page:
                return [await self.page.screenshot(type="png")], page_height
            tiles = []
            count = max(1, min(max_tiles, math.ceil(page_height / height)))
            for i in range(count):
                top = i * height
                tile_height = max(1, min(height, page_height - top))
                tiles.append(
                    await self.page.screenshot(
                        type="png",
                        full_page=True,
                        clip={"x": 0, "y": top, "width": width, "height": tile_height},
                    )
                )
            return tiles, page_height

    async def page_size(self) -> tuple[int, int]:
        """The page's width and height (CSS px)."""
        with library_errors("screenshot", self.config):
            size = await evaluate_function(self.cdp, _PAGE_SIZE_JS, what="screenshot")
        if not isinstance(size, list) or len(size) != 2:
            raise BrowserError("screenshot failed: the page gave no size")
        return int(size[0]), int(size[1])

    async def screenshot_region(self, cdp: CDPSession, box: Box, zoom: float) -> bytes:
        """A PNG of ``box`` (CSS px of the page, not of the viewport: the browser draws
        beyond the viewport), rendered ``zoom`` times larger by the browser itself."""
        x, y, width, height = box
        clip = {"x": x, "y": y, "width": width, "height": height, "scale": zoom}
        with library_errors("screenshot", self.config):
            shot: dict[str, Any] = await wait_within(
                cdp.send(
                    "Page.captureScreenshot",
                    {"format": "png", "clip": clip, "captureBeyondViewport": True},
                ),
                self.config.action_timeout_s,
            )
        return base64.b64decode(str(shot["data"]))
