"""Screenshots through a screenshot service (Firecrawl), shared by page_screenshot and the
browser tool's screenshot when its backend draws no pixels.

Per shot: cache (keyed by service, full-page flag and URL) → the run's budget and the
``web_fetch`` rate limit → ONE paid service request returning the screenshot AND the page
text → for a model that sees images: the picture (inline bytes, or downloaded through the
guarded client with ≤ 3 redirects, 20 s, ``image/*`` only, ≤ 5 MiB) through the image
pipeline (a full-page shot as a few viewport-shaped tiles) → the result.

* A model that cannot see images (``run.can_see_images`` false) gets the page text from that
  same request, in web_fetch's format: no second paid request, no download.
* Any failure to get or prepare the picture becomes the text "screenshot no longer
  available" plus the page text — never an exception to the model (the seed notes).
* The picture is untrusted like page text: the text says so.
"""

from __future__ import annotations

import base64
import functools
from typing import Any

from ..errors import ConfigurationError, WebResearchError
from ..images.prepare import describe, prepare_tiles, to_block
from ..readers.base import Capture, ScreenshotService
from ..readers.shots import load_screenshot
from ..types import Document, ImageBlock, ToolResult
from .base import CallContext
from .limits import fetch_limit
from .page_text import UNTRUSTED_IMAGE_NOTICE, format_document
from .paid import paid_call, redact_document
from .services import Services

__all__ = [
    "BLIND_NOTE",
    "MAX_TILES",
    "UNAVAILABLE_NOTE",
    "ServiceShooter",
    "configured_shooter",
    "shooter_for",
]

#: First line for a model that cannot see images (it gets the page text instead).
BLIND_NOTE = "note: this model cannot see images; here is the page text instead"
#: First line when the picture could not be fetched or prepared (seed notes' wording).
UNAVAILABLE_NOTE = "note: screenshot no longer available; here is the page text instead"
#: Most tiles of a full-page shot (the browser tool's number, SPEC §1.4 "a few").
MAX_TILES = 4


def shooter_for(services: Services) -> ServiceShooter | None:
    """A shooter over the process's screenshot service, or ``None`` when none is chosen.

    The service itself is one per process (:meth:`Services.screenshot_service`), and so is
    the ``page_screenshot`` cache; the shooter only binds them.

    Raises:
        ConfigurationError: the chosen service is unknown or its configuration is missing.
    """
    service = services.screenshot_service()
    return ServiceShooter(services, service) if service is not None else None


class ServiceShooter:
    """Screenshots of URLs through one screenshot service.

    Args:
        services: the process-wide services.
        service: the screenshot service.
    """

    def __init__(self, services: Services, service: ScreenshotService) -> None:
        self.services = services
        self.service = service
        settings = services.settings
        self.cache = services.cache(
            "page_screenshot", maxsize=settings.image_cache_size, ttl_s=settings.fetch_cache_ttl_s
        )

    async def shoot(self, url: str, ctx: CallContext, *, full_page: bool = False) -> ToolResult:
        """A screenshot of ``url`` (or its text for a blind model); see the module docstring.

        Raises:
            BlockedAddress, InvalidArguments, NetworkError: the URL fails the SSRF checks.
            BlockedDomain, RobotsDisallowed: the domain policy or robots.txt refuses it.
            BudgetExceeded, RateLimited: admission refused (nothing sent).
            HTTPStatusError, Timeout, FetchError: the service (or the site) failed.
        """
        sees = ctx.run.can_see_images
        service = self.service
        access = self.services.access  # domain policy, robots.txt: before handing it over
        await access.check(url, service=True)
        key = f"page_screenshot:{service.id}:{'full' if full_page else 'view'}:{url}"
        hit = await self.cache.get(key)
        # An entry made for a blind model has no picture; a model that sees needs one.
        if hit is not None and (hit.get("images") is not None or not sees):
            await access.check_provenance(hit["document"], service=True)
            return self._result(hit["document"], hit.get("images"), sees, None, cached=True)
        capture = await paid_call(
            ctx,
            service=service.id,
            price=service.price,
            call=lambda on_sent: service.capture(url, full_page=full_page, on_sent=on_sent),
            limit=fetch_limit(self.services.settings),
        )
        document = redact_document(capture.document, self.services.redact)
        await access.check_provenance(document, service=True)  # where its redirects led
        images: list[dict[str, Any]] | None = None
        failure: str | None = None
        if sees:
            try:
                images = await self._pictures(capture, full_page)
            except WebResearchError as exc:
                failure = exc.code
                await ctx.event("screenshot.unavailable", service=service.id, reason=exc.code)
        if failure is None:  # a failed picture is not kept: the next call may get it
            await self.cache.set(key, {"document": document, "images": images})
        return self._result(document, images, sees, failure, cached=False)

    async def _pictures(self, capture: Capture, full_page: bool) -> list[dict[str, Any]]:
        settings = self.services.settings
        data = await load_screenshot(
            capture,
            self.services.client,
            max_bytes=settings.image_max_source_bytes,
            max_redirects=settings.screenshot_max_redirects,
            timeout_s=settings.screenshot_download_timeout_s,
            now=self.services.now,
        )
        width, _, height_px = settings.browser_viewport.lower().partition("x")
        viewport = (int(width), int(height_px))  # the setting's pattern guarantees digits
        tiles, height, covered = await self.services.cpu.run(
            functools.partial(
                prepare_tiles,
                viewport_px=viewport,
                max_tiles=MAX_TILES if full_page else 1,
                max_source_bytes=settings.image_max_source_bytes,
                max_pixels=settings.image_max_pixels,
                max_side_px=settings.image_max_side_px,
                max_output_bytes=settings.image_max_output_bytes,
            ),
            data,
            timeout_s=settings.request_timeout_s,
            what="preparing the screenshot",
        )
        out: list[dict[str, Any]] = []
        for prepared in tiles if full_page else tiles[:1]:
            block = to_block(prepared)
            out.append({"data": block.base64(), "mime": block.mime, "meta": prepared.meta})
        if full_page and out:
            out[0]["meta"] = {**out[0]["meta"], "page_height": height, "covered": covered}
        return out

    def _result(
        self,
        doc: Document,
        images: list[dict[str, Any]] | None,
        sees: bool,
        failure: str | None,
        *,
        cached: bool,
    ) -> ToolResult:
        meta: dict[str, Any] = {k: v for k, v in doc.items() if k not in ("text", "markdown")}
        meta.update(service=self.service.id, cached=cached, trust="untrusted")
        if sees and images:
            blocks = tuple(
                ImageBlock(base64.b64decode(i["data"]), i["mime"], dict(i["meta"])) for i in images
            )
            meta.update(screenshot="image", image=images[0]["meta"], tiles=len(blocks))
            lines = [UNTRUSTED_IMAGE_NOTICE, f"url: {doc['url']}", f"title: {doc['title']}"]
            if len(blocks) == 1:
                lines.append(f"screenshot: {describe(images[0]['meta'])}")
            else:
                first = images[0]["meta"]
                lines.append(
                    f"screenshot: {len(blocks)} tiles, top to bottom, covering "
                    f"{first.get('covered')} of {first.get('page_height')} px of the page"
                )
            return ToolResult(text="\n".join(lines), images=blocks, meta=meta)
        text, window = format_document(doc, 0, self.services.settings.fetch_max_bytes)
        meta.update(window)
        if sees:
            meta.update(screenshot="unavailable", screenshot_error=failure)
            return ToolResult(text=f"{UNAVAILABLE_NOTE}\n{text}", meta=meta)
        meta["screenshot"] = "text_instead"
        return ToolResult(text=f"{BLIND_NOTE}\n{text}", meta=meta)


def configured_shooter(services: Services) -> ServiceShooter | None:
    """:func:`shooter_for`, with a misconfigured service treated as none (its own builder,
    page_screenshot, reports the configuration error once)."""
    try:
        return shooter_for(services)
    except ConfigurationError:
        return None
