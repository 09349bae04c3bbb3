"""Anthropic Messages format (pure functions, no I/O).

Anthropic accepts images inside tool results (SPEC §1.3), so each call's answer is one
``tool_result`` block whose content is the result text followed by its images as base64
``image`` blocks; a failed call sets ``is_error``. Every ``tool_result`` of a turn goes into
ONE ``role: user`` message (the Messages API wants all answers to a turn's ``tool_use``
blocks in the next user message).

Replay rules match the OpenAI adapter: a ``tool_use_id`` already answered in the history is
skipped, a replayed result's images are not sent again, and a model that cannot see images
gets the image labels only.

    reply = anthropic_tool_results(results, history=messages)
    if reply is not None:
        messages.append(reply)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from webresearch import ImageBlock, ToolSpec

from ._common import (
    ATTACHED_HERE,
    ToolCallResult,
    field,
    image_note,
    new_calls,
    schema_copy,
    shows_images,
    why_not_shown,
)

if TYPE_CHECKING:  # the SDK's own request types; anthropic stays an optional dependency
    from anthropic.types import (
        ImageBlockParam,
        MessageParam,
        TextBlockParam,
        ToolParam,
        ToolResultBlockParam,
    )

MediaType = Literal["image/jpeg", "image/png", "image/gif", "image/webp"]
#: The image types the Messages API takes (what the image pipeline produces).
_MEDIA_TYPES: dict[str, MediaType] = {
    "image/jpeg": "image/jpeg",
    "image/png": "image/png",
    "image/gif": "image/gif",
    "image/webp": "image/webp",
}

__all__ = ["anthropic_tool_result", "anthropic_tool_results", "anthropic_tools"]


def anthropic_tools(specs: Iterable[ToolSpec]) -> list[ToolParam]:
    """Tool specs as Messages API ``tools``: ``{"name", "description", "input_schema"}``."""
    return [
        {
            "name": spec.name,
            "description": spec.description,
            "input_schema": schema_copy(spec),
        }
        for spec in specs
    ]


def anthropic_tool_result(
    call: ToolCallResult,
    *,
    can_see_images: bool = True,
    shown_operations: set[str] | None = None,
    first_image_number: int = 1,
) -> ToolResultBlockParam:
    """One ``tool_result`` block for ``call``.

    Args:
        call: the call and its result.
        can_see_images: False for a model without vision.
        shown_operations: operation ids whose images were already attached in this turn
            (updated; pass one set for all calls of a turn).
        first_image_number: number of this call's first image within the turn (1-based).

    Returns:
        ``{"type": "tool_result", "tool_use_id", "content": [text, image…], "is_error"}``.
    """
    result = call.result
    shown = set() if shown_operations is None else shown_operations
    show = shows_images(result, can_see_images, shown)
    lines = [result.text]
    images: list[ImageBlockParam] = []
    for number, image in enumerate(result.images, start=first_image_number):
        block = _image_block(image) if show else None
        if block is not None:
            lines.append(image_note(number, image, ATTACHED_HERE))
            images.append(block)
        elif show:
            lines.append(image_note(number, image, "not shown: the Messages API does not take it"))
        else:
            lines.append(image_note(number, image, why_not_shown(can_see_images)))
    text: TextBlockParam = {"type": "text", "text": "\n".join(lines)}
    return {
        "type": "tool_result",
        "tool_use_id": call.call_id,
        "content": [text, *images],
        "is_error": not result.ok,
    }


def _image_block(image: ImageBlock) -> ImageBlockParam | None:
    """A base64 ``image`` block, or ``None`` for a type the Messages API does not take."""
    media_type = _MEDIA_TYPES.get(image.mime)
    if media_type is None:
        return None
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": media_type, "data": image.base64()},
    }


def anthropic_tool_results(
    calls: Iterable[ToolCallResult],
    *,
    history: Sequence[object] = (),
    can_see_images: bool = True,
) -> MessageParam | None:
    """The ONE user message answering a turn's ``tool_use`` blocks.

    Args:
        calls: the turn's calls with their results, in the order the model made them.
        history: the conversation so far; ``tool_use_id``s answered there are skipped.
        can_see_images: False for a model without vision.

    Returns:
        ``{"role": "user", "content": [tool_result…]}``, or ``None`` when every call was
        already answered.
    """
    todo = new_calls(calls, _answered(history))
    shown: set[str] = set()
    blocks: list[ToolResultBlockParam] = []
    number = 1
    for call in todo:
        blocks.append(
            anthropic_tool_result(
                call,
                can_see_images=can_see_images,
                shown_operations=shown,
                first_image_number=number,
            )
        )
        number += len(call.result.images)
    return {"role": "user", "content": blocks} if blocks else None


def _answered(history: Sequence[object]) -> set[str]:
    """``tool_use_id``s of the ``tool_result`` blocks in the history's user messages."""
    out = set()
    for message in history:
        content = field(message, "content")
        if not isinstance(content, list):
            continue
        for block in content:
            if field(block, "type") == "tool_result":
                out.add(str(field(block, "tool_use_id")))
    return out
