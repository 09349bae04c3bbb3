"""examples/ for the three APIs, each through its official SDK, against a scripted model on
127.0.0.1 that speaks the API's documented wire format (the real APIs are paid and remote)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest

from tests.support.examples import EXAMPLES, load_example
from tests.support.fake_providers import (
    FakeProvider,
    Reply,
    anthropic_error,
    anthropic_text,
    anthropic_tool_use,
    chat_answer,
    chat_tool_call,
    openai_error,
    responses_function_call,
    responses_text,
)
from tests.support.http_server import LocalServer

from .conftest import EXCHANGE_TIMEOUT_S, PAGE_SENTENCE

pytestmark = pytest.mark.network

OPENAI_KEY = "sk-test-4d1e9a7c0b2f"
ANTHROPIC_KEY = "sk-ant-test-8c3b5e1f7a"
SENTENCE = re.compile(r"The quick brown fox[^.]*\.")


def _said(text: str) -> str:
    found = SENTENCE.search(text)
    return f"The page says: {found.group(0) if found else 'nothing'}"


def chat(page_url: str) -> Callable[[str, dict[str, Any]], Reply]:
    def model(path: str, body: dict[str, Any]) -> Reply:
        assert path == "/v1/chat/completions"
        tool = [m for m in body["messages"] if m["role"] == "tool"]
        if not tool:
            return chat_tool_call("call_1", "web_fetch", {"url": page_url})
        return chat_answer(_said(tool[-1]["content"]))

    return model


def responses(page_url: str) -> Callable[[str, dict[str, Any]], Reply]:
    def model(path: str, body: dict[str, Any]) -> Reply:
        assert path == "/v1/responses"
        outputs = [i for i in body["input"] if i.get("type") == "function_call_output"]
        if not outputs:
            return responses_function_call("call_1", "web_fetch", {"url": page_url})
        return responses_text(_said(outputs[-1]["output"]))

    return model


def messages(page_url: str) -> Callable[[str, dict[str, Any]], Reply]:
    def model(path: str, body: dict[str, Any]) -> Reply:
        assert path == "/v1/messages"
        if len(body["messages"]) == 1:
            return anthropic_tool_use("toolu_1", "web_fetch", {"url": page_url})
        [block] = body["messages"][-1]["content"]
        return anthropic_text(_said(block["content"][0]["text"]))

    return model


CASES = {
    "openai_chat": (chat, "OPENAI_API_KEY", OPENAI_KEY, "/v1"),
    "openai_responses": (responses, "OPENAI_API_KEY", OPENAI_KEY, "/v1"),
    "anthropic_messages": (messages, "ANTHROPIC_API_KEY", ANTHROPIC_KEY, ""),
}


def run(
    name: str, base: str, env: dict[str, str], *, as_script: bool = False
) -> subprocess.CompletedProcess[str]:
    """The example's ``main`` with ``env`` (in this process; ``as_script``: a child process)."""
    argv = ["--base-url", base, "--model", "fake-1", "What does the fox page say?"]
    if as_script:
        return subprocess.run(
            [sys.executable, str(EXAMPLES / f"{name}.py"), *argv],
            env=env, capture_output=True, text=True, timeout=EXCHANGE_TIMEOUT_S,
        )  # fmt: skip
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, redirect_stdout(out), redirect_stderr(err):
        for variable in [v for v in os.environ if v.startswith(("WEBRESEARCH_", "OPENAI_"))]:
            patch.delenv(variable)
        for variable, value in env.items():
            patch.setenv(variable, value)
        code = load_example(name).main(argv)
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


@pytest.mark.parametrize("name", list(CASES))
def test_the_example_reads_the_page_and_prints_the_answer(
    name: str, page_server: LocalServer, child_env: dict[str, str]
) -> None:
    script, key_name, key, suffix = CASES[name]
    with FakeProvider(script(f"{page_server.base}/page")) as fake:
        # One runs as a script (its __main__ path); the others in this process (fast).
        as_script = name == "openai_chat"
        done = run(name, fake.root + suffix, {**child_env, key_name: key}, as_script=as_script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"The page says: {PAGE_SENTENCE}"
    first, second = fake.requests  # exactly two model turns
    for request in (first, second):
        assert request.body["model"] == "fake-1"
        if key_name == "OPENAI_API_KEY":
            assert request.headers["authorization"] == f"Bearer {key}"
        else:
            # anthropic 2.x sends the key as a bearer token; older ones as x-api-key
            auth = request.headers.get("x-api-key") or request.headers["authorization"]
            assert auth in (key, f"Bearer {key}")
            assert "anthropic-version" in request.headers
    names = [t.get("name") or t.get("function", {}).get("name") for t in first.body["tools"]]
    assert "web_fetch" in names
    assert page_server.count("/page") == 1
    assert key not in done.stdout + done.stderr


@pytest.mark.parametrize("name", list(CASES))
def test_an_endpoint_failure_is_reported_without_the_key(
    name: str, child_env: dict[str, str]
) -> None:
    _, key_name, key, suffix = CASES[name]
    refusal = (
        anthropic_error(401, f"invalid x-api-key {key}", "authentication_error")
        if key_name == "ANTHROPIC_API_KEY"
        else openai_error(401, f"Incorrect API key provided: {key}")
    )
    with FakeProvider(lambda path, body: refusal) as fake:
        done = run(name, fake.root + suffix, {**child_env, key_name: key})
    assert done.returncode == 1
    assert "401" in done.stderr and "[REDACTED]" in done.stderr
    assert key not in done.stdout + done.stderr
