"""fetch_image and view_image (SPEC §1.3): an image for a vision model, with its metadata.

Both end in :func:`webresearch.images.prepare.prepare_image` (run in the CPU worker pool: it
is CPU-bound, and a decoder crash on a hostile file stays in the worker), and return
``ToolResult(text=<short metadata text>, images=(block,), meta=…)``.
The image bytes go only into the block; the journal sees ``block.describe()`` (metadata).

* fetch_image(url): fetch scope check → cache (prepared images, keyed by URL) → guarded GET
  (SSRF guard, ≤ 5 redirects, timeouts, ``image_max_source_bytes`` cap) → challenge check →
  status check (shared with web_fetch) → the pipeline, which decides by the bytes, never by
  Content-Type. Registered when the run has network access and a model that can see images.
* view_image(path, clip): the path confined to the run's workspace
  (:mod:`webresearch.images.workspace`) → the pipeline; with ``clip`` (``x,y,w,h`` in px of
  the image as displayed; image_info gives its size) only that region, enlarged up to 4×
  so small print can be read (:func:`~webresearch.images.prepare.prepare_region`).
  Registered when the run has a workspace and a model that can see images.

Zooming is an argument of view_image, not a tool of its own: it is view_image's job (show a
workspace image to a model that can see) on part of the image, under the same confinement,
gate and limits — and one property costs the model far fewer schema characters than a tool.
"""

from __future__ import annotations

import asyncio
import base64
import functools
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypedDict

from ..errors import BLOCKED_HINT, AntiBotChallenge, TooLarge, WebResearchError
from ..extract.challenge import is_challenge_page
from ..images.prepare import PreparedImage, describe, prepare_image, prepare_region, to_block
from ..images.region import Region, parse_region
from ..images.sniff import sniff
from ..images.workspace import read_workspace_file
from ..net.client import FetchResponse
from ..net.http_status import status_error
from ..redact import redact_url
from ..types import ImageBlock, JSONObject, ToolResult
from .arguments import UrlArgs, optional_text, text
from .base import CallContext, ToolEntry, Unavailable
from .gates import image_gate, pillow_missing
from .limits import fetch_limit
from .page_text import UNTRUSTED_IMAGE_NOTICE
from .services import Services
from .specs import URL_PROPERTY, ToolSpec, object_schema

__all__ = [
    "FETCH_IMAGE",
    "IMAGE_ACCEPT",
    "VIEW_IMAGE",
    "FetchImage",
    "ViewImage",
    "ViewImageArgs",
    "build_fetch_image",
    "build_view_image",
]

FETCH_IMAGE = ToolSpec(
    name="fetch_image",
    title="Look at an image on the web",
    description=(
        "Show an image (PNG, JPEG, WebP, GIF) from an http(s) URL, resized for vision. "
        "For pages use web_fetch."
    ),
    input_schema=object_schema({"url": URL_PROPERTY}, ["url"]),
    read_only=True,
    destructive=False,
    idempotent=True,
    open_world=True,
    titles=MappingProxyType({"ru": "Изображение из интернета", "zh": "查看网络图片"}),
)

VIEW_IMAGE = ToolSpec(
    name="view_image",
    title="Look at a workspace image",
    description="Show a workspace image file (a screenshot, a download).",
    input_schema=object_schema(
        {
            "path": {"type": "string", "description": "Path relative to the workspace."},
            "clip": {"type": "string", "description": "x,y,w,h"},
        },
        ["path"],
    ),
    read_only=True,
    destructive=False,
    idempotent=True,
    open_world=False,
    titles=MappingProxyType({"ru": "Изображение из рабочей папки", "zh": "查看工作区图片"}),
)

#: Accept header of fetch_image: only what the pipeline decodes, so content negotiation
#: (CDNs) does not pick AVIF or HEIC, which would then be refused.
IMAGE_ACCEPT = "image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1"


class _Limits(TypedDict):
    """The process's image limits, as :func:`prepare_image` and :func:`prepare_region` take
    them (settings ``image_max_*``)."""

    max_source_bytes: int
    max_pixels: int
    max_side_px: int
    max_output_bytes: int


class _Preparer:
    """The pipeline with the process's limits, in the CPU worker pool."""

    def __init__(self, services: Services) -> None:
        s = services.settings
        self.cpu = services.cpu
        self.max_source_bytes = s.image_max_source_bytes
        self.timeout_s = s.request_timeout_s
        limits = _Limits(
            max_source_bytes=s.image_max_source_bytes,
            max_pixels=s.image_max_pixels,
            max_side_px=s.image_max_side_px,
            max_output_bytes=s.image_max_output_bytes,
        )
        self._prepare = functools.partial(prepare_image, **limits)
        self._prepare_region = functools.partial(prepare_region, **limits)

    async def prepare(self, data: bytes, timeout_s: float | None = None) -> PreparedImage:
        """The pipeline in the CPU pool, within ``timeout_s`` (default ``request_timeout_s``)."""
        return await self.cpu.run(
            self._prepare,
            data,
            timeout_s=self.timeout_s if timeout_s is None else timeout_s,
            what="preparing the image",
        )

    async def prepare_region(self, data: bytes, region: Region) -> PreparedImage:
        """One region of the image, enlarged (see :func:`prepare_region`), in the CPU pool."""
        return await self.cpu.run(
            self._prepare_region,
            data,
            region,
            timeout_s=self.timeout_s,
            what="preparing the image region",
        )


class FetchImage(_Preparer):
    """fetch_image over the shared services (guarded client, a small prepared-image cache)."""

    def __init__(self, services: Services) -> None:
        super().__init__(services)
        self.services = services
        settings = services.settings
        self.cache = services.cache(
            "fetch_image", maxsize=settings.image_cache_size, ttl_s=settings.fetch_cache_ttl_s
        )

    async def __call__(self, args: UrlArgs, ctx: CallContext) -> ToolResult:
        """Run fetch_image. Raises the tool's errors (the Toolkit turns them into results)."""
        url = args.url
        await ctx.check_scope(url)
        access = self.services.access  # domain policy, robots.txt: the URL and every hop
        await access.check(url)
        key = f"fetch_image:{url}"
        hit = await self.cache.get(key)
        if hit is not None:
            await access.check_provenance(hit["meta"])
            # Cached values are JSON (shared cache backends): the bytes travel as base64.
            block = ImageBlock(
                base64.b64decode(hit["data"]), hit["mime"], dict(hit["meta"]["image"])
            )
            meta = {**hit["meta"], "cached": True}
            return ToolResult(text=_fetch_text(meta), images=(block,), meta=meta)
        await ctx.rate_limit()
        shown = redact_url(url)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s  # one budget: the download and the pipeline
        self.cpu.warm()  # the workers start during the download
        try:
            response = await self.services.client.get(
                url, headers={"Accept": IMAGE_ACCEPT}, cap=self.max_source_bytes, gate=access.hop_gate
            )
        except TooLarge:
            raise TooLarge(
                f"the image at {shown} is over the {self.max_source_bytes // (1024 * 1024)} MiB "
                "image size cap",
                hint="use a smaller version of the image (a thumbnail or preview URL)",
                cap_bytes=self.max_source_bytes,
            ) from None
        final = redact_url(response.url)
        self._check_response(response, final)
        try:
            prepared = await self.prepare(response.body, deadline - loop.time())
        except WebResearchError as exc:
            exc.message = f"{final}: {exc.message}"
            raise
        meta = {
            "url": final,
            "requested_url": redact_url(response.requested_url),
            "final_url": final,
            "redirects": [[status, redact_url(u)] for status, u in response.redirects],
            "status": response.status,
            "declared_content_type": response.content_type,
            "fetched_at": self.services.now().isoformat(timespec="seconds"),
            "source_sha256": await self.cpu.sha256_hex(response.body),
            "bytes_downloaded": response.raw_bytes,
            "trust": "untrusted",
            "image": prepared.meta,
        }
        block = to_block(prepared)
        await self.cache.set(key, {"data": block.base64(), "mime": block.mime, "meta": meta})
        return ToolResult(text=_fetch_text(meta), images=(block,), meta={**meta, "cached": False})

    def _check_response(self, response: FetchResponse, shown: str) -> None:
        """Challenge pages and error statuses fail like web_fetch's (bytes decide the rest)."""
        kind = sniff(response.body)
        if kind in ("html", "text") or response.status >= 400:
            head = response.body[:65536].decode("utf-8", "replace")
            challenge = is_challenge_page(response.status, dict(response.headers), head)
            if challenge:
                raise AntiBotChallenge(
                    f"{shown} answered with an anti-bot challenge ({challenge}), not the image",
                    hint=BLOCKED_HINT,
                    status=response.status,
                )
        if response.status >= 400:
            raise status_error(response, shown, now=self.services.now())


def _fetch_text(meta: dict[str, Any]) -> str:
    return "\n".join(
        [UNTRUSTED_IMAGE_NOTICE, f"url: {meta['url']}", f"image: {describe(meta['image'])}"]
    )


@dataclass(frozen=True, slots=True)
class ViewImageArgs:
    """view_image's arguments: a workspace path and, to zoom in, a region of the image."""

    path: str
    clip: Region | None = None

    @classmethod
    def from_json(cls, arguments: JSONObject) -> ViewImageArgs:
        """From schema-valid arguments.

        Raises:
            InvalidArguments: a ``clip`` that is no region.
        """
        clip = optional_text(arguments, "clip")
        return cls(text(arguments, "path"), None if clip is None else parse_region(clip))


class ViewImage(_Preparer):
    """view_image: a workspace file (or a region of it) through the pipeline."""

    async def __call__(self, args: ViewImageArgs, ctx: CallContext) -> ToolResult:
        """Run view_image. Raises the tool's errors (the Toolkit turns them into results)."""
        path = args.path
        workspace = ctx.run.workspace
        assert workspace is not None  # the gate guarantees it
        try:
            data = await asyncio.to_thread(
                read_workspace_file, Path(workspace), path, max_bytes=self.max_source_bytes
            )
        except WebResearchError as exc:
            if exc.details.get("refusal") == "workspace":
                await ctx.event("workspace.refused", path=path[:200], reason=exc.message)
            raise
        if args.clip is None:
            prepared = await self.prepare(data)
        else:
            prepared = await self.prepare_region(data, args.clip)
        meta = {"path": path, "image": prepared.meta}
        text = f"path: {path}\nimage: {describe(prepared.meta)}"
        return ToolResult(text=text, images=(to_block(prepared),), meta=meta)


def build_fetch_image(services: Services) -> ToolEntry[UrlArgs] | Unavailable:
    """The fetch_image tool; unavailable without Pillow."""
    missing = pillow_missing()
    if missing:
        return Unavailable("fetch_image", missing)
    return ToolEntry(
        spec=FETCH_IMAGE,
        arguments=UrlArgs.from_json,
        run=FetchImage(services),
        gate=image_gate(needs_network=True, needs_workspace=False),
        rate_limit=fetch_limit(services.settings),
    )


def build_view_image(services: Services) -> ToolEntry[ViewImageArgs] | Unavailable:
    """The view_image tool; unavailable without Pillow."""
    missing = pillow_missing()
    if missing:
        return Unavailable("view_image", missing)
    return ToolEntry(
        spec=VIEW_IMAGE,
        arguments=ViewImageArgs.from_json,
        run=ViewImage(services),
        gate=image_gate(needs_network=False, needs_workspace=True),
    )
