"""Adapters: tool specs and results in OpenAI and Anthropic message formats (pure functions).

    from webresearch.adapters import ToolCallResult, chat_tool_messages, chat_tools

Image placement follows SPEC §1.3: chat completions get one user message with every image
of a turn after all its tool messages; the Responses API and Anthropic get images inside the
tool results; a model that cannot see images gets text only. :class:`ImageFallback` wraps the app's send
function: a provider that refuses a picture gets the same request as text (seed behaviour).
"""

from ._common import IMAGES_INTRO, ToolCallResult
from .anthropic import anthropic_tool_result, anthropic_tool_results, anthropic_tools
from .fallback import (
    IMAGE_REFUSED_NOTE,
    ImageFallback,
    RefusalKind,
    RefusalMemory,
    contains_images,
    error_status_and_text,
    refusal_kind,
    without_images,
)
from .openai import chat_tool_messages, chat_tools, responses_tool_outputs, responses_tools

__all__ = [
    "IMAGES_INTRO",
    "IMAGE_REFUSED_NOTE",
    "ImageFallback",
    "RefusalKind",
    "RefusalMemory",
    "ToolCallResult",
    "anthropic_tool_result",
    "anthropic_tool_results",
    "anthropic_tools",
    "chat_tool_messages",
    "chat_tools",
    "contains_images",
    "error_status_and_text",
    "refusal_kind",
    "responses_tool_outputs",
    "responses_tools",
    "without_images",
]
