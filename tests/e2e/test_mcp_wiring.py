"""The documented MCP wiring (examples/mcp/) for pydantic-ai, the OpenAI Agents SDK and
LlamaIndex: each framework starts ``webresearch mcp`` over stdio and reads a page on
127.0.0.1; the model is a chat-completions stub in the documented wire format."""

from __future__ import annotations

import os
import shlex
import sys
from typing import Any

import pytest

from tests.support.examples import load_example
from tests.support.fake_providers import FakeProvider, Reply, chat_answer, chat_tool_call
from tests.support.http_server import LocalServer

from .conftest import PAGE_SENTENCE

pytestmark = [pytest.mark.network, pytest.mark.slow]

SERVER = shlex.join([sys.executable, "-m", "webresearch", "mcp"])


@pytest.fixture
def server_env(child_env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The MCP server child inherits this environment (loopback allowed, temp journal)."""
    for variable in [v for v in os.environ if v.startswith(("WEBRESEARCH_", "OPENAI_"))]:
        monkeypatch.delenv(variable)
    for variable, value in child_env.items():
        monkeypatch.setenv(variable, value)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-mcp")


def reading_model(page_url: str) -> Any:
    def model(path: str, body: dict[str, Any]) -> Reply:
        assert path == "/v1/chat/completions"
        tool = [m for m in body["messages"] if m["role"] == "tool"]
        if not tool:
            return chat_tool_call("call_1", "web_fetch", {"url": page_url})
        found = PAGE_SENTENCE in repr(tool[-1]["content"])
        return chat_answer("FOUND" if found else "MISSING")

    return model


@pytest.mark.parametrize("name", ["pydantic_ai_agent", "openai_agents"])
async def test_an_agent_framework_reads_a_page_through_webresearch_mcp(
    name: str, page_server: LocalServer, server_env: None
) -> None:
    example = load_example(f"mcp/{name}")
    with FakeProvider(reading_model(f"{page_server.base}/page")) as fake:
        answer = await example.ask("read it", model="fake-1", base_url=fake.base, server=SERVER)
    assert answer == "FOUND"
    offered = [t["function"]["name"] for t in fake.requests[0].body["tools"]]
    assert "web_fetch" in offered
    assert page_server.count("/page") == 1


async def test_llamaindex_tools_from_webresearch_mcp(
    page_server: LocalServer, server_env: None
) -> None:
    example = load_example("mcp/llamaindex_agent")
    # fetch() lists the tools (one server session), then calls web_fetch (another)
    text = await example.fetch(f"{page_server.base}/page", server=SERVER)
    assert PAGE_SENTENCE in text
