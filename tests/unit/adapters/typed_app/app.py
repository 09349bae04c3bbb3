"""A small app under ``mypy --strict`` using every adapter with the SDKs' own types, no casts.

Not collected by pytest (no ``test_`` prefix); ``test_typed_app.py`` type-checks it.
"""

from __future__ import annotations

from anthropic import AsyncAnthropic
from anthropic.types import Message, MessageParam, ToolParam, ToolResultBlockParam
from openai import AsyncOpenAI, OpenAI
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionMessageParam,
    ChatCompletionToolUnionParam,
)
from openai.types.responses import FunctionToolParam, Response, ResponseInputItemParam

from webresearch import RunContext, Toolkit
from webresearch.adapters import (
    ImageFallback,
    ToolCallResult,
    anthropic_tool_result,
    anthropic_tool_results,
    anthropic_tools,
    chat_tool_messages,
    chat_tools,
    contains_images,
    responses_tool_outputs,
    responses_tools,
    without_images,
)


async def chat_turn(client: AsyncOpenAI, toolkit: Toolkit, results: list[ToolCallResult]) -> str:
    tools: list[ChatCompletionToolUnionParam] = list(chat_tools(toolkit.tools()))
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hi"}]
    messages.extend(chat_tool_messages(results, history=messages))
    fallback = ImageFallback(toolkit)

    async def send(images: bool) -> ChatCompletion:
        sent = messages if images else without_images(messages)
        return await client.chat.completions.create(model="m", messages=sent, tools=tools)

    done = await fallback.send(
        send, model="m", provider="openai", has_images=contains_images(messages)
    )
    return done.choices[0].message.content or ""


def chat_sync(client: OpenAI, toolkit: Toolkit, results: list[ToolCallResult]) -> ChatCompletion:
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": "hi"}]
    messages.extend(chat_tool_messages(results, can_see_images=False))
    return client.chat.completions.create(
        model="m", messages=messages, tools=chat_tools(toolkit.tools(RunContext()))
    )


async def responses_turn(
    client: AsyncOpenAI, toolkit: Toolkit, results: list[ToolCallResult]
) -> Response:
    tools: list[FunctionToolParam] = responses_tools(toolkit.tools())
    items: list[ResponseInputItemParam] = [{"role": "user", "content": "hi"}]
    items.extend(responses_tool_outputs(results, history=items))

    def send(images: bool) -> list[ResponseInputItemParam]:
        return items if images else without_images(items)

    sent = await ImageFallback(toolkit).send_sync(send, model="m", provider="openai")
    return await client.responses.create(model="m", input=sent, tools=tools)


async def anthropic_turn(
    client: AsyncAnthropic, toolkit: Toolkit, results: list[ToolCallResult]
) -> Message:
    tools: list[ToolParam] = anthropic_tools(toolkit.tools())
    messages: list[MessageParam] = [{"role": "user", "content": "hi"}]
    reply = anthropic_tool_results(results, history=messages)
    if reply is not None:
        messages.append(reply)
    one: ToolResultBlockParam = anthropic_tool_result(results[0])
    messages.append({"role": "user", "content": [one]})
    return await client.messages.create(model="m", max_tokens=10, messages=messages, tools=tools)
