"""Every adapter output validates against the real SDK request types (openai, anthropic), field
for field: pydantic validates the SDKs' TypedDicts and a key the type does not know is dropped,
so ``validated == output`` also catches a misspelt key."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest
from anthropic.types import MessageParam, ToolParam, ToolResultBlockParam
from openai.types.chat import ChatCompletionFunctionToolParam, ChatCompletionMessageParam
from openai.types.responses import FunctionToolParam, ResponseInputItemParam
from pydantic import TypeAdapter

from webresearch import Settings, Toolkit
from webresearch.adapters import (
    anthropic_tool_result,
    anthropic_tool_results,
    anthropic_tools,
    chat_tool_messages,
    chat_tools,
    responses_tool_outputs,
    responses_tools,
    without_images,
)

from .results import make_failed, make_turn, plain


def materialised(value: object) -> object:
    """``value`` with pydantic's lazy iterables (``Iterable[...]`` fields) read into lists."""
    if isinstance(value, Mapping):
        return {k: materialised(v) for k, v in value.items()}
    if isinstance(value, str | bytes):
        return value
    if isinstance(value, Iterable):
        return [materialised(v) for v in value]
    return value


def valid(kind: Any, value: object) -> None:
    adapter: TypeAdapter[object] = TypeAdapter(kind)  # alive while its lazy iterables are read
    validated = adapter.validate_python(value)
    assert materialised(validated) == plain(value)


async def test_tool_specs_are_the_sdks_tool_params(settings: Settings) -> None:
    async with Toolkit(settings) as toolkit:
        specs = toolkit.tools()
    for tool in chat_tools(specs):
        valid(ChatCompletionFunctionToolParam, tool)
    for response_tool in responses_tools(specs):
        valid(FunctionToolParam, response_tool)
    for anthropic_tool in anthropic_tools(specs):
        valid(ToolParam, anthropic_tool)


@pytest.mark.parametrize("vision", [True, False])
def test_results_are_the_sdks_message_params(vision: bool) -> None:
    turn = [*make_turn(), make_failed()]
    chat = chat_tool_messages(turn, can_see_images=vision)
    for message in [*chat, *without_images(chat)]:
        valid(ChatCompletionMessageParam, message)
    responses = responses_tool_outputs(turn, can_see_images=vision)
    for item in [*responses, *without_images(responses)]:
        valid(ResponseInputItemParam, item)
    reply = anthropic_tool_results(turn, can_see_images=vision)
    assert reply is not None
    for message_param in [reply, *without_images([reply])]:
        valid(MessageParam, message_param)
    valid(ToolResultBlockParam, anthropic_tool_result(turn[0], can_see_images=vision))
