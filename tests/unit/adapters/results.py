"""Results as the Toolkit hands them to adapters: text, images, failures, replays."""

from __future__ import annotations

import json
from typing import Any

from tests.support.tiny_png import png_bytes
from webresearch import HTTPStatusError, ImageBlock, ToolResult
from webresearch.adapters import ToolCallResult

#: A secret that must never reach a message: planted in result and image metadata.
PLANTED = "sk-PLANTED-SECRET-0042"

RED = ImageBlock(png_bytes(3, 2, (255, 0, 0)), "image/png", {"width": 3, "height": 2})
BLUE = ImageBlock(
    png_bytes(4, 4, (0, 0, 255)),
    "image/png",
    {"width": 4, "height": 4, "source_url": f"https://cdn.example.org/b.png?api_key={PLANTED}"},
)


def image_result(image: ImageBlock, operation_id: str, **meta: Any) -> ToolResult:
    return ToolResult(
        text=f"{image.mime} {image.meta['width']}x{image.meta['height']}",
        images=(image,),
        meta={"operation_id": operation_id, "api_key": PLANTED, **meta},
    )


def text_result(text: str, operation_id: str) -> ToolResult:
    return ToolResult(text=text, meta={"operation_id": operation_id, "token": PLANTED})


def make_turn() -> list[ToolCallResult]:
    """One model turn: an image, a page, another image (the SPEC §1.3 acceptance case)."""
    return [
        ToolCallResult("call_img1", "fetch_image", image_result(RED, "op-1")),
        ToolCallResult("call_page", "web_fetch", text_result("page text here", "op-2")),
        ToolCallResult("call_img2", "view_image", image_result(BLUE, "op-3")),
    ]


def make_failed() -> ToolCallResult:
    error = HTTPStatusError("https://example.org/x answered HTTP 404", status=404)
    return ToolCallResult("call_404", "web_fetch", ToolResult.failure(error))


def plain(value: object) -> Any:
    """An adapter's typed output as the JSON the SDK sends (for assertions on any field)."""
    return json.loads(json.dumps(value))


def dumped(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def parts_of_type(value: Any, *types: str) -> list[dict[str, Any]]:
    """Every dict anywhere in ``value`` whose ``type`` is one of ``types``."""
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        if value.get("type") in types:
            found.append(value)
        for item in value.values():
            found.extend(parts_of_type(item, *types))
    elif isinstance(value, list):
        for item in value:
            found.extend(parts_of_type(item, *types))
    return found
