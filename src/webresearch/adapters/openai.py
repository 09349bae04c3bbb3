"""OpenAI formats: chat completions and the Responses API (pure functions, no I/O).

Chat completions accept images only in user messages (SPEC §1.3), so a turn's results are
appended as:

1. one ``role: tool`` message per call, in call order: the result text, plus one line per
   image saying where it is (``[image 1 (image/png, 640×480 px, 12 KiB): attached in the
   next user message]``);
2. after ALL tool messages of the turn, ONE ``role: user`` message starting with
   ``Image(s) produced by this turn's tool calls:`` that holds every image of the turn as an
   ``image_url`` data-URL part, each preceded by its label.

Nothing earlier in the conversation is ever rewritten (append-only keeps the provider's
prompt cache warm). A call id that already has a tool message in the history is skipped
whole; a replayed result (``meta.replayed``, a repeated operation id) gets its tool message
but its images are not sent again. A model that cannot see images gets the labels only.

The Responses API takes images inside a ``function_call_output`` (its ``output`` may be a
list of ``input_text`` / ``input_image`` parts), so there each image stays with its call.

    messages.extend(chat_tool_messages(results, history=messages))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from webresearch import ToolSpec

from ._common import (
    ATTACHED_HERE,
    IMAGES_INTRO,
    ToolCallResult,
    answered_ids,
    data_url,
    image_note,
    new_calls,
    schema_copy,
    shows_images,
    why_not_shown,
)

if TYPE_CHECKING:  # the SDK's own request types; openai stays an optional dependency
    from openai.types.chat import (
        ChatCompletionContentPartParam,
        ChatCompletionFunctionToolParam,
        ChatCompletionToolMessageParam,
        ChatCompletionUserMessageParam,
    )
    from openai.types.responses import (
        FunctionToolParam,
        ResponseFunctionCallOutputItemParam,
        ResponseInputItemParam,
    )
    from openai.types.responses.response_input_item_param import FunctionCallOutput

__all__ = [
    "chat_tool_messages",
    "chat_tools",
    "responses_tool_outputs",
    "responses_tools",
]

_ATTACHED = "attached in the next user message"


def chat_tools(specs: Iterable[ToolSpec]) -> list[ChatCompletionFunctionToolParam]:
    """Tool specs as chat-completions ``tools``: ``{"type": "function", "function": {...}}``.

    The schemas are copies: changing them never changes the constant specs.
    """
    return [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": schema_copy(spec),
            },
        }
        for spec in specs
    ]


def responses_tools(specs: Iterable[ToolSpec]) -> list[FunctionToolParam]:
    """Tool specs as Responses API function tools (``strict`` off: optional arguments exist)."""
    return [
        {
            "type": "function",
            "name": spec.name,
            "description": spec.description,
            "parameters": schema_copy(spec),
            "strict": False,
        }
        for spec in specs
    ]


def chat_tool_messages(
    calls: Iterable[ToolCallResult],
    *,
    history: Sequence[object] = (),
    can_see_images: bool = True,
) -> list[ChatCompletionToolMessageParam | ChatCompletionUserMessageParam]:
    """The messages to append after one assistant turn's tool calls (chat completions).

    Args:
        calls: the turn's calls with their results, in the order the model made them.
        history: the conversation so far; calls already answered there are skipped.
        can_see_images: False for a model without vision (no image parts at all).

    Returns:
        the ``role: tool`` messages in call order, then at most one ``role: user`` message
        holding every image of the turn. Empty when every call was already answered.
    """
    todo = new_calls(calls, answered_ids(history, "role", "tool", "tool_call_id"))
    messages: list[ChatCompletionToolMessageParam | ChatCompletionUserMessageParam] = []
    labels: list[str] = []
    parts: list[ChatCompletionContentPartParam] = []
    shown: set[str] = set()
    number = 0
    for call in todo:
        result = call.result
        show = shows_images(result, can_see_images, shown)
        lines = [result.text]
        for image in result.images:
            number += 1
            if show:
                lines.append(image_note(number, image, _ATTACHED))
                labels.append(f"image {number} from {call.call_id} ({call.tool})")
                parts.append({"type": "text", "text": f"image {number}:"})
                parts.append({"type": "image_url", "image_url": {"url": data_url(image)}})
            else:
                lines.append(image_note(number, image, why_not_shown(can_see_images)))
        messages.append({"role": "tool", "tool_call_id": call.call_id, "content": "\n".join(lines)})
    if parts:
        intro: ChatCompletionContentPartParam = {
            "type": "text",
            "text": f"{IMAGES_INTRO} {', '.join(labels)}.",
        }
        messages.append({"role": "user", "content": [intro, *parts]})
    return messages


def responses_tool_outputs(
    calls: Iterable[ToolCallResult],
    *,
    history: Sequence[ResponseInputItemParam | object] = (),
    can_see_images: bool = True,
) -> list[FunctionCallOutput]:
    """``function_call_output`` input items for one turn's calls (Responses API).

    A result with images to show gets ``output`` as a list: an ``input_text`` part with the
    result text and image labels, then one ``input_image`` (data URL) per image; any other
    result gets ``output`` as a plain string.

    Args:
        calls: the turn's calls with their results.
        history: the input items so far; call ids already answered there are skipped.
        can_see_images: False for a model without vision.
    """
    todo = new_calls(calls, answered_ids(history, "type", "function_call_output", "call_id"))
    items: list[FunctionCallOutput] = []
    shown: set[str] = set()
    number = 0
    for call in todo:
        result = call.result
        show = shows_images(result, can_see_images, shown)
        lines = [result.text]
        images: list[ResponseFunctionCallOutputItemParam] = []
        for image in result.images:
            number += 1
            if show:
                lines.append(image_note(number, image, ATTACHED_HERE))
                images.append({"type": "input_image", "image_url": data_url(image)})
            else:
                lines.append(image_note(number, image, why_not_shown(can_see_images)))
        text = "\n".join(lines)
        output: str | list[ResponseFunctionCallOutputItemParam] = (
            [{"type": "input_text", "text": text}, *images] if images else text
        )
        items.append({"type": "function_call_output", "call_id": call.call_id, "output": output})
    return items
