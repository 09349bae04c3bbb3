"""What every adapter shares: one call's outcome, image labels, and the replay rules.

Pure functions over plain values (no I/O). Only the model-facing text of a result, its image
bytes and a fixed set of image facts (mime, pixel size, byte size) ever leave this package:
result metadata may carry provenance a program wants but a model does not need, so it is
never copied into a message.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from webresearch import ImageBlock, ToolResult, ToolSpec
from webresearch.wording import count

__all__ = [
    "ALREADY_SHOWN",
    "ATTACHED_HERE",
    "BLIND",
    "IMAGES_INTRO",
    "ToolCallResult",
    "answered_ids",
    "data_url",
    "field",
    "image_facts",
    "image_note",
    "new_calls",
    "schema_copy",
    "shows_images",
    "why_not_shown",
]

#: First words of the one user message that carries a turn's images (SPEC §1.3).
IMAGES_INTRO = "Image(s) produced by this turn's tool calls:"
#: Where an image is when it travels inside the tool result itself.
ATTACHED_HERE = "attached below"
#: Why an image is not attached: a replay (shown with the first call) or a blind model.
ALREADY_SHOWN = "already shown to you (same operation)"
BLIND = "not shown: this model cannot see images"


@dataclass(frozen=True, slots=True)
class ToolCallResult:
    """One tool call of a model turn and its outcome.

    Attributes:
        call_id: the provider's id of the call (OpenAI ``tool_call_id`` / ``call_id``,
            Anthropic ``tool_use_id``).
        tool: the tool name the model called.
        result: what :meth:`webresearch.Toolkit.call` returned.
    """

    call_id: str
    tool: str
    result: ToolResult


def data_url(image: ImageBlock) -> str:
    """``data:<mime>;base64,<bytes>``: the image inline, as OpenAI image parts take it."""
    return f"data:{image.mime};base64,{image.base64()}"


def image_facts(image: ImageBlock) -> str:
    """Short facts for a model, e.g. ``image/png, 640×480 px, 12 KiB``.

    Only the mime type, the displayed width/height (px) and the byte size are used: other
    metadata keys are never shown (they may hold provenance, never meant for the model).
    """
    parts = [image.mime]
    width, height = image.meta.get("width"), image.meta.get("height")
    if isinstance(width, int) and isinstance(height, int):
        parts.append(f"{width}×{height} px")
    size = len(image.data)
    parts.append(count(size, "byte") if size < 1024 else f"{size / 1024:.0f} KiB")
    return ", ".join(parts)


def image_note(number: int, image: ImageBlock, where: str) -> str:
    """One line naming image ``number`` and where the model finds it (or why it does not).

    Args:
        number: the image's number within the turn (1-based).
        image: the image.
        where: e.g. ``"attached in the next user message"``.
    """
    return f"[image {number} ({image_facts(image)}): {where}]"


def shows_images(result: ToolResult, can_see_images: bool, shown_operations: set[str]) -> bool:
    """Whether ``result``'s images go to the model now (and remember that they did).

    Images are shown once: not for a replayed result (the Toolkit marks a repeated operation
    id with ``meta.replayed``; its images reached the model with the first call), not twice
    for one operation id within a turn, and never to a model that cannot see images.

    Args:
        result: the tool result.
        can_see_images: False for a model without vision.
        shown_operations: operation ids whose images were shown in this turn (updated).
    """
    if not result.images or not can_see_images or result.meta.get("replayed"):
        return False
    operation = result.meta.get("operation_id")
    if isinstance(operation, str):
        if operation in shown_operations:
            return False
        shown_operations.add(operation)
    return True


def why_not_shown(can_see_images: bool) -> str:
    """The note for an image that is not attached (see :func:`shows_images`)."""
    return ALREADY_SHOWN if can_see_images else BLIND


def new_calls(calls: Iterable[ToolCallResult], answered: Iterable[str]) -> list[ToolCallResult]:
    """The calls not answered yet: drops ids already in the history and repeats in ``calls``.

    A provider rejects a second answer to one call id, so a duplicate is skipped whole (its
    tool message and its images).
    """
    seen = set(answered)
    out = []
    for call in calls:
        if call.call_id in seen:
            continue
        seen.add(call.call_id)
        out.append(call)
    return out


def field(item: object, key: str) -> object:
    """``item[key]`` for a mapping, else the attribute ``key`` (the SDKs' response objects
    go back into a history as they are), else ``None``."""
    if isinstance(item, Mapping):
        return item.get(key)
    return getattr(item, key, None)


def answered_ids(history: Iterable[object], kind_key: str, value: str, id_key: str) -> set[str]:
    """Call ids already answered in ``history`` (items whose ``kind_key`` equals ``value``;
    dicts or the SDKs' objects)."""
    return {
        str(field(item, id_key))
        for item in history
        if field(item, kind_key) == value and field(item, id_key) is not None
    }


def schema_copy(spec: ToolSpec) -> dict[str, object]:
    """A deep copy of ``spec``'s input schema: changing it never changes the constant spec."""
    schema: dict[str, object] = dict(copy.deepcopy(spec.input_schema))
    return schema
