"""examples/agent_loop.py against a scripted OpenAI-compatible model on 127.0.0.1."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_providers import (
    FakeProvider,
    Reply,
    chat_answer,
    chat_tool_call,
    openai_error,
)
from tests.support.http_server import LocalServer

from .conftest import EXCHANGE_TIMEOUT_S, PAGE_SENTENCE

pytestmark = pytest.mark.network

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent_loop.py"
API_KEY = "sk-test-7f3a9c2e1b5d"


def scripted_model(page_url: str) -> Any:
    """Turn 1: read the page. Turn 2: quote the sentence found in the tool message."""

    def model(path: str, request: dict[str, Any]) -> Reply:
        tool_messages = [m for m in request["messages"] if m["role"] == "tool"]
        if not tool_messages:
            return chat_tool_call("call_1", "web_fetch", {"url": page_url})
        found = re.search(r"The quick brown fox[^.]*\.", tool_messages[-1]["content"])
        return chat_answer(f"The page says: {found.group(0) if found else 'nothing'}")

    return model


def test_agent_loop_sends_the_page_back_and_prints_the_answer(
    page_server: LocalServer, child_env: dict[str, str]
) -> None:
    page_url = f"{page_server.base}/page"
    with FakeProvider(scripted_model(page_url)) as fake:
        done = subprocess.run(
            [sys.executable, str(EXAMPLE), "--base-url", fake.base, "--model", "fake-1",
             "What does the fox page say?"],
            env={**child_env, "OPENAI_API_KEY": API_KEY},
            capture_output=True,
            text=True,
            timeout=EXCHANGE_TIMEOUT_S,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"The page says: {PAGE_SENTENCE}"

    first, second = fake.requests  # exactly two model turns
    for request in (first, second):
        assert request.path == "/v1/chat/completions"
        assert request.headers["authorization"] == f"Bearer {API_KEY}"
        assert request.body["model"] == "fake-1"
    tools = first.body["tools"]
    # Every tool registered for the run is offered (fetch_image, web_search once a provider
    # is, the browser tool where a backend is installed); web_fetch is the one this uses.
    assert "web_fetch" in [t["function"]["name"] for t in tools]
    assert first.body["messages"][-1] == {"role": "user", "content": "What does the fox page say?"}

    # The second turn carries the assistant's call and the page text as its tool message.
    assistant, tool = second.body["messages"][-2:]
    assert assistant["role"] == "assistant" and assistant["tool_calls"][0]["id"] == "call_1"
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_1"
    assert f"url: {page_url}" in tool["content"] and PAGE_SENTENCE in tool["content"]
    assert page_server.count("/page") == 1
    assert API_KEY not in done.stdout + done.stderr


def test_agent_loop_reports_an_endpoint_failure_without_the_key(child_env: dict[str, str]) -> None:
    def rejecting(path: str, request: dict[str, Any]) -> Reply:
        # Like some gateways, the error echoes the key it got.
        return openai_error(401, f"Incorrect API key provided: {API_KEY}")

    with FakeProvider(rejecting) as fake:
        done = subprocess.run(
            [sys.executable, str(EXAMPLE), "--base-url", fake.base, "--model", "m", "hi"],
            env={**child_env, "OPENAI_API_KEY": API_KEY},
            capture_output=True,
            text=True,
            timeout=EXCHANGE_TIMEOUT_S,
        )  # fmt: skip
    assert done.returncode == 1
    assert "the model endpoint answered HTTP 401" in done.stderr
    assert "Incorrect API key provided: [REDACTED]" in done.stderr
    assert API_KEY not in done.stdout + done.stderr
