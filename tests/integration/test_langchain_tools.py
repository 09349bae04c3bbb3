"""The LangChain tools in a LangChain tool loop: ChatOpenAI (langchain-openai) against a
chat-completions stub on 127.0.0.1 (documented wire format), tools run through the Toolkit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import SecretStr

from tests.support.fake_providers import FakeProvider, Reply, chat_answer, chat_tool_call
from tests.support.http_server import LocalServer, Route
from tests.support.tiny_png import png_bytes
from webresearch import RunContext, Settings, Toolkit, ToolResult
from webresearch.integrations.langchain import langchain_tools

pytestmark = pytest.mark.network

import langchain_openai  # noqa: E402  (a test extra: CI installs it; missing, this fails)
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage  # noqa: E402

SENTENCE = "Chains of tools read the page."
PAGE = (
    f"<html><head><title>Chains</title></head><body><article><h1>Chains</h1><p>{SENTENCE}</p>"
    + "<p>Tools are called by models in a loop.</p>" * 20
    + "</article></body></html>"
).encode()


@pytest.fixture
async def toolkit(settings: Settings) -> AsyncIterator[Toolkit]:
    async with Toolkit(settings) as kit:
        yield kit


@pytest.fixture
def pages() -> Any:
    with LocalServer() as srv:
        srv.routes["/page"] = Route(headers=[("Content-Type", "text/html")], body=PAGE)
        srv.routes["/p.png"] = Route(headers=[("Content-Type", "image/png")], body=png_bytes(6, 3))
        yield srv


async def loop(
    toolkit: Toolkit, base: str, prompt: str, run: RunContext | None = None
) -> list[BaseMessage]:
    """LangChain's plain tool loop: model → tool calls → ToolMessages → model."""
    tools = {t.name: t for t in langchain_tools(toolkit, run=run)}
    model = langchain_openai.ChatOpenAI(
        model="fake-1", base_url=base, api_key=SecretStr("sk-test"), max_retries=0
    ).bind_tools(list(tools.values()))
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    for _ in range(4):
        reply = await model.ainvoke(messages)
        assert isinstance(reply, AIMessage)
        messages.append(reply)
        if not reply.tool_calls:
            return messages
        for call in reply.tool_calls:
            messages.append(await tools[call["name"]].ainvoke({**call, "type": "tool_call"}))
    raise AssertionError("no final answer")


def scripted(first_call: tuple[str, dict[str, Any]]) -> Any:
    def model(path: str, body: dict[str, Any]) -> Reply:
        assert path == "/v1/chat/completions"
        if not any(m["role"] == "tool" for m in body["messages"]):
            return chat_tool_call("call_1", *first_call)
        return chat_answer("done")

    return model


async def test_web_fetch_through_a_langchain_loop(toolkit: Toolkit, pages: LocalServer) -> None:
    url = f"{pages.base}/page"
    with FakeProvider(scripted(("web_fetch", {"url": url}))) as fake:
        messages = await loop(toolkit, fake.base, "read it")
    tool = messages[2]
    assert isinstance(tool, ToolMessage) and tool.tool_call_id == "call_1"
    assert isinstance(tool.artifact, ToolResult) and tool.artifact.ok
    assert SENTENCE in tool.artifact.text
    # The schema the model got is the tool's constant schema.
    offered = {t["function"]["name"]: t["function"] for t in fake.requests[0].body["tools"]}
    async with Toolkit(Settings.load(environ={}, search_provider="none")) as other:
        spec = {s.name: s for s in other.tools()}["web_fetch"]
    assert offered["web_fetch"]["parameters"] == spec.input_schema
    sent = fake.requests[1].body["messages"][-1]
    assert sent["role"] == "tool" and SENTENCE in repr(sent["content"])


async def test_a_picture_reaches_the_model_as_langchain_multimodal_content(
    toolkit: Toolkit, pages: LocalServer
) -> None:
    with FakeProvider(scripted(("fetch_image", {"url": f"{pages.base}/p.png"}))) as fake:
        messages = await loop(toolkit, fake.base, "look")
    tool = messages[2]
    assert isinstance(tool, ToolMessage)
    assert isinstance(tool.content, list)
    kinds = [b["type"] for b in tool.content if isinstance(b, dict)]
    assert kinds == ["text", "image"]
    image = tool.content[1]
    assert isinstance(image, dict) and image["mime_type"] == "image/png" and image["base64"]
    # langchain-openai turns the standard image block into an image part on the wire.
    assert "data:image/png;base64," in repr(fake.requests[1].body["messages"])


async def test_a_blind_run_gets_text_only(toolkit: Toolkit, pages: LocalServer) -> None:
    blind = RunContext(can_see_images=False)
    names = [t.name for t in langchain_tools(toolkit, run=blind)]
    assert names == [s.name for s in toolkit.tools(blind)]
    with FakeProvider(scripted(("web_fetch", {"url": f"{pages.base}/page"}))) as fake:
        await loop(toolkit, fake.base, "read", run=blind)
    assert "base64" not in repr(fake.requests[1].body)


async def test_a_refused_call_is_a_result_for_the_model(toolkit: Toolkit) -> None:
    [fetch] = [t for t in langchain_tools(toolkit) if t.name == "web_fetch"]
    message = await fetch.ainvoke(
        {"name": "web_fetch", "args": {"url": "http://169.254.169.254/latest"}, "id": "c1",
         "type": "tool_call"}
    )  # fmt: skip
    assert isinstance(message, ToolMessage)
    assert isinstance(message.artifact, ToolResult) and not message.artifact.ok
    assert "error[" in repr(message.content)
