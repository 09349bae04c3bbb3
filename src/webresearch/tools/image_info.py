"""image_info(path): the facts of a workspace image without sending its pixels.

Format (from the magic bytes), width and height in px (as stored and as displayed after the
EXIF orientation), bytes, animation and frame count, bit depth — all read from the header
(:mod:`webresearch.images.info`), nothing decoded, no image block in the result. The path is
confined to the run's workspace exactly like view_image's
(:func:`webresearch.images.workspace.read_workspace_head`). Gate: the run has a workspace;
vision is not needed (nothing is shown) and neither is Pillow.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import MappingProxyType

from ..errors import WebResearchError
from ..images.info import facts_text, image_facts
from ..images.workspace import read_workspace_head
from ..types import ToolResult
from .arguments import PathArgs
from .base import CallContext, ToolEntry
from .gates import workspace_gate
from .services import Services
from .specs import ToolSpec, object_schema

__all__ = ["HEAD_BYTES", "IMAGE_INFO", "ImageInfo", "build"]

IMAGE_INFO = ToolSpec(
    name="image_info",
    title="Image facts",
    description="Workspace image facts, no pixels: format, px size, bytes, frames, EXIF rotation.",
    input_schema=object_schema({"path": {"type": "string"}}, ["path"]),
    read_only=True,
    destructive=False,
    idempotent=True,
    open_world=False,
    titles=MappingProxyType({"ru": "Сведения об изображении", "zh": "图片信息"}),
)

#: Bytes read from the start of the file: every header fact of PNG, JPEG (EXIF in APP1 is
#: ≤ 64 KiB) and WebP sits near the start; a GIF's frames are counted in what was read
#: (a longer GIF reports "at least N frames").
HEAD_BYTES = 16 * 1024 * 1024


class ImageInfo:
    """image_info over the run's workspace."""

    async def __call__(self, args: PathArgs, ctx: CallContext) -> ToolResult:
        """Run image_info (raises ``invalid_arguments`` for paths outside the workspace,
        ``unsupported_content`` for files that are not images)."""
        path = args.path
        workspace = ctx.run.workspace
        assert workspace is not None  # the gate guarantees it
        try:
            size, head = await asyncio.to_thread(
                read_workspace_head, Path(workspace), path, max_bytes=HEAD_BYTES
            )
        except WebResearchError as exc:
            if exc.details.get("refusal") == "workspace":
                await ctx.event("workspace.refused", path=path[:200], reason=exc.message)
            raise
        facts = image_facts(head, size)
        return ToolResult(text=facts_text(path, facts), meta={"path": path, **facts})


def build(services: Services) -> ToolEntry[PathArgs]:
    """The image_info tool (always available; gated by the run's workspace)."""
    return ToolEntry(
        spec=IMAGE_INFO, arguments=PathArgs.from_json, run=ImageInfo(), gate=workspace_gate
    )
