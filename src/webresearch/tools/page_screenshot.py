"""page_screenshot(url): a screenshot of a web page for hosts without a local browser.

A constant tool (spec :data:`~webresearch.tools.specs.PAGE_SCREENSHOT`), registered only when
a screenshot service is configured (``screenshot_service``; Firecrawl today). Per call:

fetch scope → cache (keyed by service and URL) → the run's budget and the ``web_fetch`` rate
limit → ONE paid service request returning the screenshot AND the page text → for a model
that sees images: the image (inline bytes, or downloaded through the guarded client with
≤ 3 redirects, 20 s, ``image/*`` only, ≤ 5 MiB) through the image pipeline → the result.

* A model that cannot see images (``run.can_see_images`` false) gets the page text from that
  same request, in web_fetch's format: no second paid request, no download.
* Any failure to get or prepare the picture becomes the text "screenshot no longer
  available" plus the page text — never an exception to the model (the seed notes).
* The picture is untrusted like page text: the text says so.
"""

from __future__ import annotations

import base64
from typing import Any

from ..errors import WebResearchError
from ..images.prepare import describe, to_block
from ..readers.base import Capture, ScreenshotService
from ..readers.registry import create_screenshot_service
from ..readers.shots import load_screenshot
from ..types import ImageBlock, ToolResult
from .base import CallContext, ToolEntry, Unavailable
from .image_tools import UNTRUSTED_IMAGE_NOTICE, _Preparer, pillow_missing
from .paid import paid_call, redact_document
from .services import Services
from .specs import PAGE_SCREENSHOT
from .web_fetch import format_document

__all__ = ["BLIND_NOTE", "UNAVAILABLE_NOTE", "PageScreenshot", "build"]

#: First line for a model that cannot see images (it gets the page text instead).
BLIND_NOTE = "note: this model cannot see images; here is the page text instead"
#: First line when the picture could not be fetched or prepared (seed notes' wording).
UNAVAILABLE_NOTE = "note: screenshot no longer available; here is the page text instead"


class PageScreenshot(_Preparer):
    """page_screenshot over a screenshot service.

    Args:
        services: the process-wide services.
        service: the screenshot service.
    """

    def __init__(self, services: Services, service: ScreenshotService) -> None:
        super().__init__(services)
        self.services = services
        self.service = service
        settings = services.settings
        self.cache = services.cache(
            "page_screenshot", maxsize=settings.image_cache_size, ttl_s=settings.fetch_cache_ttl_s
        )

    async def __call__(self, arguments: dict[str, Any], ctx: CallContext) -> ToolResult:
        """Run page_screenshot (raises only the call's errors: scope, budget, the service)."""
        url: str = arguments["url"]
        await ctx.check_scope(url)
        sees = ctx.run.can_see_images
        service = self.service
        key = f"page_screenshot:{service.id}:{url}"
        hit = await self.cache.get(key)
        # An entry made for a blind model has no picture; a model that sees needs one.
        if hit is not None and (hit.get("image") is not None or not sees):
            return self._result(hit["document"], hit.get("image"), sees, None, cached=True)
        capture = await paid_call(
            ctx,
            service=service.id,
            price=service.price,
            call=lambda on_sent: service.capture(url, on_sent=on_sent),
        )
        document = redact_document(capture.document, self.services.redact)
        image: dict[str, Any] | None = None
        failure: str | None = None
        if sees:
            try:
                image = await self._picture(capture)
            except WebResearchError as exc:
                failure = exc.code
                await ctx.event("screenshot.unavailable", service=service.id, reason=exc.code)
        if failure is None:  # a failed picture is not kept: the next call may get it
            await self.cache.set(key, {"document": document, "image": image})
        return self._result(document, image, sees, failure, cached=False)

    async def _picture(self, capture: Capture) -> dict[str, Any]:
        settings = self.services.settings
        data = await load_screenshot(
            capture,
            self.services.client,
            max_bytes=self.max_source_bytes,
            max_redirects=settings.screenshot_max_redirects,
            timeout_s=settings.screenshot_download_timeout_s,
        )
        prepared = await self.prepare(data)
        block = to_block(prepared)
        return {"data": block.base64(), "mime": block.mime, "meta": prepared.meta}

    def _result(
        self,
        doc: dict[str, Any],
        image: dict[str, Any] | None,
        sees: bool,
        failure: str | None,
        *,
        cached: bool,
    ) -> ToolResult:
        meta: dict[str, Any] = {k: v for k, v in doc.items() if k not in ("text", "markdown")}
        meta.update(service=self.service.id, cached=cached, trust="untrusted")
        if sees and image is not None:
            block = ImageBlock(base64.b64decode(image["data"]), image["mime"], dict(image["meta"]))
            meta.update(screenshot="image", image=image["meta"])
            lines = [
                UNTRUSTED_IMAGE_NOTICE,
                f"url: {doc['url']}",
                f"title: {doc['title']}",
                f"screenshot: {describe(image['meta'])}",
            ]
            return ToolResult(text="\n".join(lines), images=(block,), meta=meta)
        text, window = format_document(doc, 0, self.services.settings.fetch_max_bytes)
        meta.update(window)
        if sees:
            meta.update(screenshot="unavailable", screenshot_error=failure)
            return ToolResult(text=f"{UNAVAILABLE_NOTE}\n{text}", meta=meta)
        meta["screenshot"] = "text_instead"
        return ToolResult(text=f"{BLIND_NOTE}\n{text}", meta=meta)


def build(services: Services) -> ToolEntry | Unavailable:
    """The page_screenshot entry, or why it is not offered (no screenshot service, no Pillow).

    Raises:
        ConfigurationError: the chosen service's configuration is missing (the Toolkit logs
            it and leaves the tool out).
    """
    service = create_screenshot_service(services.settings, services.guard, now=services.now)
    if service is None:
        return Unavailable(
            "page_screenshot",
            "no screenshot service (set WEBRESEARCH_SCREENSHOT_SERVICE=firecrawl)",
            quiet=True,
        )
    missing = pillow_missing()
    if missing:
        return Unavailable("page_screenshot", missing)
    return ToolEntry(
        spec=PAGE_SCREENSHOT, run=PageScreenshot(services, service), aclose=service.aclose
    )
