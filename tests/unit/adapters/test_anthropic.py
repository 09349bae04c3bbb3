"""Anthropic Messages placement rules (SPEC §1.3): images inside tool_result blocks."""

from __future__ import annotations

import base64
from typing import Any

from webresearch import Settings, Toolkit
from webresearch.adapters import (
    ToolCallResult,
    anthropic_tool_result,
    anthropic_tool_results,
    anthropic_tools,
)

from .results import (
    BLUE,
    PLANTED,
    RED,
    dumped,
    image_result,
    make_failed,
    make_turn,
    parts_of_type,
    plain,
)


async def test_tools_in_messages_api_form(settings: Settings) -> None:
    async with Toolkit(settings) as toolkit:
        specs = toolkit.tools()
    raw = anthropic_tools(specs)
    tools = plain(raw)
    assert tools == [
        {"name": s.name, "description": s.description, "input_schema": s.input_schema}
        for s in specs
    ]
    properties = raw[0]["input_schema"]["properties"]
    assert isinstance(properties, dict)
    properties.clear()
    assert specs[0].input_schema["properties"]


def test_one_user_message_with_a_tool_result_block_per_call() -> None:
    message = plain(anthropic_tool_results([*make_turn(), make_failed()]))
    assert message is not None and message["role"] == "user"
    blocks = message["content"]
    assert [b["type"] for b in blocks] == ["tool_result"] * 4
    assert [b["tool_use_id"] for b in blocks] == ["call_img1", "call_page", "call_img2", "call_404"]
    assert [b["is_error"] for b in blocks] == [False, False, False, True]

    first = blocks[0]["content"]
    assert [c["type"] for c in first] == ["text", "image"]
    assert first[1]["source"]["type"] == "base64"
    assert first[1]["source"]["media_type"] == "image/png"
    assert base64.b64decode(first[1]["source"]["data"]) == RED.data
    assert "[image 1 (image/png, 3×2 px" in first[0]["text"]
    assert blocks[1]["content"] == [{"type": "text", "text": "page text here"}]
    third = blocks[2]["content"]
    assert "[image 2 (image/png, 4×4 px" in third[0]["text"]
    assert base64.b64decode(third[1]["source"]["data"]) == BLUE.data
    assert blocks[3]["content"][0]["text"].startswith("error[http_status]: ")


def test_answered_calls_and_replays_are_not_sent_again() -> None:
    history: list[dict[str, Any]] = []
    first = plain(anthropic_tool_results(make_turn(), history=history))
    assert first is not None
    history.append(first)
    assert plain(anthropic_tool_results(make_turn(), history=history)) is None

    replayed = ToolCallResult("toolu_new", "fetch_image", image_result(RED, "op-1", replayed=True))
    block = plain(anthropic_tool_result(replayed))
    assert parts_of_type(block, "image") == []
    assert "already shown to you" in block["content"][0]["text"]


def test_a_blind_model_gets_text_only() -> None:
    message = plain(anthropic_tool_results(make_turn(), can_see_images=False))
    assert parts_of_type(message, "image") == []
    assert dumped(message).count("this model cannot see images") == 2


def test_no_metadata_secret_reaches_a_block() -> None:
    assert PLANTED not in dumped(plain(anthropic_tool_results([*make_turn(), make_failed()])))
