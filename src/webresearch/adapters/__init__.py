"""Adapters: tool specs and results in OpenAI and Anthropic message formats (pure functions).

    from webresearch.adapters import ToolCallResult, chat_tool_messages, chat_tools

Image placement follows SPEC §1.3: chat completions get one user message with every image
of a turn after all its tool messages; the Responses API and Anthropic get images inside the
tool results; a model that cannot see images gets text only.
"""

from ._common import IMAGES_INTRO, ToolCallResult
from .anthropic import anthropic_tool_result, anthropic_tool_results, anthropic_tools
from .openai import chat_tool_messages, chat_tools, responses_tool_outputs, responses_tools

__all__ = [
    "IMAGES_INTRO",
    "ToolCallResult",
    "anthropic_tool_result",
    "anthropic_tool_results",
    "anthropic_tools",
    "chat_tool_messages",
    "chat_tools",
    "responses_tool_outputs",
    "responses_tools",
]
