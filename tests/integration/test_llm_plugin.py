"""The ``llm`` plugin: ``llm -T web_fetch …`` end to end, through llm's own CLI and its OpenAI
model class, against a chat-completions stub on 127.0.0.1 (documented wire format)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.support.fake_providers import FakeProvider, Reply, chat_answer, chat_tool_call
from tests.support.http_server import LocalServer, Route
from tests.support.tiny_png import png_bytes

pytestmark = pytest.mark.network

import llm  # noqa: E402  (a test extra: CI installs it; missing, this fails, never skips)
from llm.cli import cli  # noqa: E402

SENTENCE = "Llamas read pages through the plugin."
PAGE = f"<html><head><title>Llamas</title></head><body><article><h1>Llamas</h1><p>{SENTENCE}</p>"
PAGE += "<p>Llamas are camelids of the Andes.</p>" * 20 + "</article></body></html>"


@pytest.fixture
def llm_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for variable in [v for v in os.environ if v.startswith(("WEBRESEARCH_", "OPENAI_", "LLM_"))]:
        monkeypatch.delenv(variable)
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-llm")
    monkeypatch.setenv("WEBRESEARCH_ALLOWED_NETWORKS", "127.0.0.0/8")
    monkeypatch.setenv("WEBRESEARCH_JOURNAL_URL", "memory://")
    monkeypatch.setenv("WEBRESEARCH_SEARCH_PROVIDER", "none")
    (tmp_path / "llm").mkdir()
    return tmp_path / "llm"


def configure_model(user_dir: Path, base: str) -> None:
    (user_dir / "extra-openai-models.yaml").write_text(
        f"- model_id: fake\n  model_name: fake-1\n  api_base: {base}\n"
        "  supports_tools: true\n  vision: true\n  can_stream: false\n"
    )


def test_the_plugin_registers_every_tool_with_its_schema(llm_env: Path) -> None:
    from webresearch import Settings, Toolkit, ToolSpec
    from webresearch.integrations.llm_plugin import llm_tools

    tools = llm.get_tools()
    mine = {
        name: tool for name, tool in tools.items() if getattr(tool, "plugin", "") == "webresearch"
    }

    async def offered() -> list[ToolSpec]:
        async with Toolkit(Settings.load()) as toolkit:
            return toolkit.tools()

    specs = {s.name: s for s in asyncio.run(offered())}
    assert set(mine) == set(specs) and "web_fetch" in mine
    fetch_tool = mine["web_fetch"]
    assert isinstance(fetch_tool, llm.Tool)  # a function tool, not a toolbox class
    assert fetch_tool.input_schema == specs["web_fetch"].input_schema
    assert [t.name for t in llm_tools()] == list(specs)


def test_llm_T_web_fetch_reads_the_page(llm_env: Path) -> None:
    with LocalServer() as pages:
        pages.routes["/page"] = Route(headers=[("Content-Type", "text/html")], body=PAGE.encode())
        page_url = f"{pages.base}/page"

        def model(path: str, body: dict[str, Any]) -> Reply:
            tool = [m for m in body["messages"] if m["role"] == "tool"]
            if not tool:
                return chat_tool_call("call_1", "web_fetch", {"url": page_url})
            return chat_answer("ANSWER: " + ("found" if SENTENCE in tool[-1]["content"] else "no"))

        with FakeProvider(model) as fake:
            configure_model(llm_env, fake.base)
            done = CliRunner().invoke(
                cli, ["-m", "fake", "-T", "web_fetch", "What do llamas do?"], catch_exceptions=False
            )
    assert done.exit_code == 0, done.output
    assert "ANSWER: found" in done.output
    first, second = fake.requests
    assert [t["function"]["name"] for t in first.body["tools"]] == ["web_fetch"]
    assert second.body["messages"][-1]["role"] == "tool"
    assert pages.count("/page") == 1


def test_a_picture_goes_back_as_an_attachment(llm_env: Path) -> None:
    with LocalServer() as pages:
        pages.routes["/p.png"] = Route(
            headers=[("Content-Type", "image/png")], body=png_bytes(5, 4)
        )

        def model(path: str, body: dict[str, Any]) -> Reply:
            if not any(m["role"] == "tool" for m in body["messages"]):
                return chat_tool_call("call_1", "fetch_image", {"url": f"{pages.base}/p.png"})
            return chat_answer("seen")

        with FakeProvider(model) as fake:
            configure_model(llm_env, fake.base)
            done = CliRunner().invoke(
                cli, ["-m", "fake", "-T", "fetch_image", "look"], catch_exceptions=False
            )
    assert done.exit_code == 0, done.output
    # llm sends a tool's attachments to a vision model as image parts of the next request.
    assert "data:image/png;base64," in repr(fake.requests[1].body["messages"])
