"""A screenshot of a browser tab (SPEC §1.4): viewport or full page in viewport tiles
(at most :data:`MAX_SCREENSHOT_TILES`), through the image pipeline.

Never a fake picture: a model that cannot see images gets the page text; a backend without
real pixels (Lightpanda) uses the screenshot fallback browser (same URL and cookies), else
the screenshot service (its own load of the URL), else the page text — each said in a note.
Shared by the browser tool and page_screenshot's browser.
"""

from __future__ import annotations

from ..browser.page import PlaywrightSession
from ..redact import redact_url
from ..types import ImageBlock, ToolResult
from .base import CallContext
from .browser_reading import page_header, read_content
from .service_shots import ServiceShooter
from .services import Services

__all__ = ["MAX_SCREENSHOT_TILES", "TabScreenshots"]

#: Most viewport tiles of a full-page screenshot (SPEC §1.4: "a few").
MAX_SCREENSHOT_TILES = 4


class TabScreenshots:
    """Screenshots of the process's browser tabs.

    Args:
        services: the process-wide services (the browser, the settings).
        shooter: the screenshot service that draws pages a pixel-less backend cannot.
    """

    def __init__(self, services: Services, shooter: ServiceShooter | None = None) -> None:
        self.services = services
        self.settings = services.settings
        self.shooter = shooter

    async def take(
        self,
        session: PlaywrightSession,
        full_page: bool,
        ctx: CallContext,
        meta: dict[str, object],
    ) -> ToolResult:
        """The screenshot of ``session`` (or its text; see the module docstring).

        Args:
            session: the tab.
            full_page: the whole page in tiles, else the viewport.
            ctx: the call's context (the run's vision; the service's budget).
            meta: the result's metadata so far (action, backend …).
        """
        url, title = await session.location()
        max_bytes = self.settings.fetch_max_bytes
        cpu = self.services.cpu
        if not ctx.run.can_see_images:
            text, doc_meta = await read_content(session, max_bytes, cpu)
            meta.update(doc_meta, screenshot="text_instead", screenshot_reason="model")
            note = (
                "note: no screenshot: this model cannot see images; here is the page text instead"
            )
            return ToolResult(text="\n".join([note, text]), meta=meta)
        source = session
        fallback_session: PlaywrightSession | None = None
        if not session.capabilities.real_screenshots:
            fallback = await self.services.browser.fallback_backend()
            if fallback is None and self.shooter is not None:
                return await self._by_service(url, full_page, ctx, meta)
            if fallback is None:
                text, doc_meta = await read_content(session, max_bytes, cpu)
                meta.update(doc_meta, screenshot="text_instead", screenshot_reason="backend")
                why = (
                    f"note: no screenshot: the {session.capabilities.backend} browser backend "
                    "cannot draw real screenshots (no pixel rendering); here is the page text "
                    "instead"
                )
                return ToolResult(text="\n".join([why, text]), meta=meta)
            fallback_session = await fallback.new_session("screenshot")
            await fallback_session.add_cookies(await session.cookies())
            await fallback_session.open(url)
            source = fallback_session
            meta["rendered_by"] = "fallback"
        try:
            tiles, page_height = await source.screenshot(full_page, MAX_SCREENSHOT_TILES)
        finally:
            if fallback_session is not None:
                await fallback_session.aclose()
        from ..images.prepare import prepare_image, to_block

        blocks: list[ImageBlock] = []
        for png in tiles:  # in the worker pool; the action's budget stops it
            prepared = await cpu.run(prepare_image, png, what="preparing the screenshot")
            blocks.append(to_block(prepared))
        width, height = session.config.viewport
        lines = page_header(url, title)
        covered = min(page_height, len(tiles) * height)
        if full_page:
            lines.append(
                f"screenshot: {len(tiles)} tile(s) of {width}×{height} px, top to bottom, "
                f"covering {covered} of {page_height} px"
            )
            if covered < page_height:
                lines.append(
                    "note: the page is longer; scroll down and take another screenshot to see more"
                )
        else:
            lines.append(
                f"screenshot: the {width}×{height} px viewport (page height {page_height} px)"
            )
        if fallback_session is not None:
            lines.append(
                "note: drawn by the screenshot browser from the same URL and cookies "
                "(typed text and script state are not carried over)"
            )
        meta.update(url=redact_url(url), tiles=len(blocks), page_height=page_height)
        return ToolResult(text="\n".join(lines), images=tuple(blocks), meta=meta)

    async def _by_service(
        self, url: str, full_page: bool, ctx: CallContext, meta: dict[str, object]
    ) -> ToolResult:
        """The screenshot service draws the tab's URL (one paid request; its own load of the
        page: cookies, typed text and script state are not carried over)."""
        assert self.shooter is not None
        shot = await self.shooter.shoot(url, ctx, full_page=full_page)
        note = (
            "note: drawn by the screenshot service from the same URL (cookies, typed text "
            "and script state are not carried over)"
        )
        return ToolResult(
            text=f"{shot.text}\n{note}",
            images=shot.images,
            meta={**meta, **shot.meta, "rendered_by": "service"},
        )
