"""A screenshot of a browser tab (SPEC §1.4): viewport or full page in viewport tiles
(at most :data:`MAX_SCREENSHOT_TILES`), or one region of the page — a ``clip`` or an
element's box — drawn larger so small print can be read (the browser renders it at up to
:data:`~webresearch.images.region.MAX_ZOOM` times the scale), through the image pipeline.

Never a fake picture: a model that cannot see images gets the page text; a backend without
real pixels (Lightpanda) uses the screenshot fallback browser (same URL and cookies), else
the screenshot service (its own load of the URL), else the page text — each said in a note.
Shared by the browser tool and page_screenshot's browser.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..browser.page import PlaywrightSession
from ..errors import InvalidArguments
from ..images.region import Region, zoom_for
from ..redact import redact_url
from ..types import ImageBlock, ToolResult
from ..wording import count
from .base import CallContext
from .browser_reading import page_header, read_content
from .service_shots import ServiceShooter
from .services import Services

__all__ = ["MAX_REGION_VIEWPORTS", "MAX_SCREENSHOT_TILES", "Shot", "TabScreenshots"]

#: Most viewport tiles of a full-page screenshot (SPEC §1.4: "a few").
MAX_SCREENSHOT_TILES = 4
#: Largest region, in viewports of area (a larger one is a full-page screenshot).
MAX_REGION_VIEWPORTS = 4


@dataclass(frozen=True, slots=True)
class Shot:
    """What a screenshot shows.

    Attributes:
        full_page: the whole page in tiles (else the viewport).
        clip: a region of the page (CSS px of the page); wins over ``full_page``.
        selector: an element whose box is the region (or ``ref``).
        ref: an element ref from a snapshot.
    """

    full_page: bool = False
    clip: Region | None = None
    selector: str | None = None
    ref: str | None = None

    @property
    def region(self) -> bool:
        """It shows one region (a clip or an element), not the viewport or the page."""
        return self.clip is not None or bool(self.selector or self.ref)


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
        shot: Shot,
        ctx: CallContext,
        meta: dict[str, object],
    ) -> ToolResult:
        """The screenshot of ``session`` (or its text; see the module docstring).

        Args:
            session: the tab.
            shot: what to show.
            ctx: the call's context (the run's vision; the service's budget).
            meta: the result's metadata so far (action, backend …).

        Raises:
            InvalidArguments: the region lies outside the page, is too large, or names an
                element by ref on a backend whose pictures another browser draws.
        """
        full_page = shot.full_page
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
                return await self._by_service(url, shot, ctx, meta)
            if fallback is None:
                text, doc_meta = await read_content(session, max_bytes, cpu)
                meta.update(doc_meta, screenshot="text_instead", screenshot_reason="backend")
                why = (
                    f"note: no screenshot: the {session.capabilities.backend} browser backend "
                    "cannot draw real screenshots (no pixel rendering); here is the page text "
                    "instead"
                )
                return ToolResult(text="\n".join([why, text]), meta=meta)
            if shot.ref:
                raise InvalidArguments(
                    f"a ref cannot be pictured here: the {session.capabilities.backend} "
                    "backend draws no pictures and the screenshot browser loads the page "
                    "anew, without this snapshot's refs",
                    hint="give a selector or a clip region instead",
                )
            fallback_session = await fallback.new_session("screenshot")
            await fallback_session.add_cookies(await session.cookies())
            await fallback_session.open(url)
            source = fallback_session
            meta["rendered_by"] = "fallback"
        try:
            if shot.region:
                return await self._region(source, shot, url, title, meta, fallback_session)
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
                f"screenshot: {count(len(tiles), 'tile')} of {width}×{height} px, top to bottom, "
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
            lines.append(_FALLBACK_NOTE)
        meta.update(url=redact_url(url), tiles=len(blocks), page_height=page_height)
        return ToolResult(text="\n".join(lines), images=tuple(blocks), meta=meta)

    async def _region(
        self,
        source: PlaywrightSession,
        shot: Shot,
        url: str,
        title: str,
        meta: dict[str, object],
        fallback: PlaywrightSession | None,
    ) -> ToolResult:
        """One region of the page (a clip, or an element's box), enlarged to fill about a
        viewport (at most :data:`~webresearch.images.region.MAX_ZOOM` times)."""
        from ..images.prepare import prepare_image, to_block

        width, height = source.config.viewport
        page_w, page_h = await source.page_size()
        if shot.clip is not None:
            wanted, what = shot.clip, f"the region {shot.clip} of the page"
        else:
            x, y, w, h = await source.element_box(shot.selector, shot.ref)
            wanted = Region(round(x), round(y), max(1, round(w)), max(1, round(h)))
            what = f"the element {shot.ref or shot.selector} ({wanted} of the page)"
        region = wanted.within(max(page_w, width), page_h)
        if region is None:
            raise InvalidArguments(
                f"the region {wanted} lies outside the page ({page_w}×{page_h} px)",
                hint="give x,y,w,h inside the page, in CSS px from its top left corner",
            )
        if region.width * region.height > MAX_REGION_VIEWPORTS * width * height:
            raise InvalidArguments(
                f"the region {region} is larger than {MAX_REGION_VIEWPORTS} screens",
                hint="take a smaller region, or full_page for the whole page",
            )
        zoom = round(zoom_for(region, (width, height)), 2)
        box = (float(region.x), float(region.y), float(region.width), float(region.height))
        png = await source.screenshot_region(box, zoom)
        prepared = await self.services.cpu.run(prepare_image, png, what="preparing the screenshot")
        lines = page_header(url, title)
        lines.append(
            f"screenshot: {what}, drawn at {zoom:g}× ({region.width}×{region.height} CSS px)"
        )
        if region != wanted:
            lines.append(f"note: the region was cut to the page: {region}")
        if fallback is not None:
            lines.append(_FALLBACK_NOTE)
        meta.update(url=redact_url(url), tiles=1, clip=str(region), zoom=zoom)
        return ToolResult(text="\n".join(lines), images=(to_block(prepared),), meta=meta)

    async def _by_service(
        self, url: str, shot: Shot, ctx: CallContext, meta: dict[str, object]
    ) -> ToolResult:
        """The screenshot service draws the tab's URL (one paid request; its own load of the
        page: cookies, typed text and script state are not carried over)."""
        assert self.shooter is not None
        drawn = await self.shooter.shoot(url, ctx, full_page=shot.full_page and not shot.region)
        note = (
            "note: drawn by the screenshot service from the same URL (cookies, typed text "
            "and script state are not carried over)"
        )
        if shot.region:
            note += "\nnote: the screenshot service draws whole pages: the region was not applied"
        return ToolResult(
            text=f"{drawn.text}\n{note}",
            images=drawn.images,
            meta={**meta, **drawn.meta, "rendered_by": "service"},
        )


#: Said when the screenshot fallback browser drew the picture.
_FALLBACK_NOTE = (
    "note: drawn by the screenshot browser from the same URL and cookies "
    "(typed text and script state are not carried over)"
)
