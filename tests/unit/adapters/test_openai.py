"""OpenAI placement rules (SPEC §1.3): chat completions and the Responses API."""

from __future__ import annotations

import base64
import copy
from typing import Any

import pytest

from webresearch import Settings, Toolkit
from webresearch.adapters import (
    IMAGES_INTRO,
    ToolCallResult,
    chat_tool_messages,
    chat_tools,
    responses_tool_outputs,
    responses_tools,
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


def data_url_bytes(url: str) -> bytes:
    head, _, payload = url.partition(",")
    assert head == "data:image/png;base64"
    return base64.b64decode(payload)


# --- tool specs -----------------------------------------------------------------------------


async def test_tool_specs_in_both_openai_forms(settings: Settings) -> None:
    async with Toolkit(settings) as toolkit:
        specs = toolkit.tools()
    raw_chat = chat_tools(specs)
    chat = plain(raw_chat)
    assert [t["type"] for t in chat] == ["function"] * len(specs)
    assert [t["function"]["name"] for t in chat] == [s.name for s in specs]
    for tool, spec in zip(chat, specs, strict=True):
        assert tool["function"] == {
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.input_schema,
        }
    raw_responses = responses_tools(specs)
    responses = plain(raw_responses)
    for tool, spec in zip(responses, specs, strict=True):
        assert tool == {
            "type": "function",
            "name": spec.name,
            "description": spec.description,
            "parameters": spec.input_schema,
            "strict": False,
        }
    # The constant schemas are copied, never shared with the caller.
    parameters = raw_chat[0]["function"].get("parameters") or {}
    properties = parameters["properties"]
    assert isinstance(properties, dict)
    properties.clear()
    required_copy = (raw_responses[0]["parameters"] or {})["required"]
    assert isinstance(required_copy, list)
    required_copy.append("x")
    required = specs[0].input_schema["required"]
    assert specs[0].input_schema["properties"] and isinstance(required, list)
    assert "x" not in required


# --- chat completions -------------------------------------------------------------------------


def test_one_user_message_holds_every_image_after_all_tool_messages() -> None:
    turn = make_turn()
    history: list[dict[str, Any]] = [{"role": "user", "content": "look"}]
    before = copy.deepcopy(history)
    out = plain(chat_tool_messages(turn, history=history))

    assert [m["role"] for m in out] == ["tool", "tool", "tool", "user"]
    assert [m["tool_call_id"] for m in out[:3]] == ["call_img1", "call_page", "call_img2"]
    assert history == before  # append-only: nothing earlier is touched

    # Tool messages carry text; images are only referenced there.
    for message in out[:3]:
        assert isinstance(message["content"], str)
        assert "image_url" not in dumped(message)
    assert out[0]["content"].startswith("image/png 3x2")
    assert "[image 1 (image/png, 3×2 px" in out[0]["content"]
    assert "attached in the next user message" in out[0]["content"]
    assert out[1]["content"] == "page text here"
    assert "[image 2 (image/png, 4×4 px" in out[2]["content"]

    user = out[3]["content"]
    assert user[0]["type"] == "text" and user[0]["text"].startswith(IMAGES_INTRO)
    assert "call_img1 (fetch_image)" in user[0]["text"]
    assert "call_img2 (view_image)" in user[0]["text"]
    images = parts_of_type(user, "image_url")
    assert [data_url_bytes(p["image_url"]["url"]) for p in images] == [RED.data, BLUE.data]
    assert [p["text"] for p in user if p["type"] == "text"][1:] == ["image 1:", "image 2:"]


def test_text_only_turn_adds_no_user_message() -> None:
    turn = [make_turn()[1], make_failed()]
    out = plain(chat_tool_messages(turn))
    assert [m["role"] for m in out] == ["tool", "tool"]
    assert out[1]["content"].startswith("error[http_status]: ")


def test_replaying_a_turn_injects_nothing() -> None:
    history: list[dict[str, Any]] = [{"role": "user", "content": "look"}]
    history += plain(chat_tool_messages(make_turn(), history=history))
    # The same tool calls arrive again (a retried loop step): every id is answered already.
    assert plain(chat_tool_messages(make_turn(), history=history)) == []


def test_replayed_operation_gets_its_tool_message_but_no_second_image() -> None:
    # A new call id whose operation id was already executed: the Toolkit replays the
    # recorded result and marks it; the image reached the model with the first call.
    replayed = ToolCallResult("call_again", "fetch_image", image_result(RED, "op-1", replayed=True))
    out = plain(chat_tool_messages([replayed], history=[{"role": "user", "content": "x"}]))
    assert [m["role"] for m in out] == ["tool"]
    assert "already shown to you" in out[0]["content"]
    assert parts_of_type(out, "image_url") == []


def test_one_operation_twice_in_a_turn_is_shown_once() -> None:
    first = ToolCallResult("call_a", "fetch_image", image_result(RED, "op-same"))
    second = ToolCallResult("call_b", "fetch_image", image_result(RED, "op-same"))
    duplicate_id = ToolCallResult("call_a", "fetch_image", image_result(BLUE, "op-other"))
    out = plain(chat_tool_messages([first, second, duplicate_id]))
    assert [m["role"] for m in out] == ["tool", "tool", "user"]
    assert [m.get("tool_call_id") for m in out[:2]] == ["call_a", "call_b"]
    assert len(parts_of_type(out, "image_url")) == 1


# --- Responses API ----------------------------------------------------------------------------


def test_responses_outputs_keep_images_with_their_call() -> None:
    out = plain(responses_tool_outputs([*make_turn(), make_failed()]))
    assert [item["type"] for item in out] == ["function_call_output"] * 4
    assert [item["call_id"] for item in out] == ["call_img1", "call_page", "call_img2", "call_404"]
    first = out[0]["output"]
    assert [part["type"] for part in first] == ["input_text", "input_image"]
    assert "[image 1 (image/png, 3×2 px" in first[0]["text"]
    assert data_url_bytes(first[1]["image_url"]) == RED.data
    assert out[1]["output"] == "page text here"
    assert data_url_bytes(out[2]["output"][1]["image_url"]) == BLUE.data
    assert out[3]["output"].startswith("error[http_status]: ")
    # Already answered call ids in the input history are skipped.
    assert plain(responses_tool_outputs(make_turn(), history=out)) == []


# --- the whole kind: blind models and secrets, for every OpenAI form ---------------------------

FORMS = [chat_tool_messages, responses_tool_outputs]


@pytest.mark.parametrize("form", FORMS)
def test_a_blind_model_gets_no_image_parts(form: Any) -> None:
    out = plain(form(make_turn(), can_see_images=False))
    assert parts_of_type(out, "image_url", "input_image", "image") == []
    text = dumped(out)
    assert "base64" not in text
    assert text.count("this model cannot see images") == 2


@pytest.mark.parametrize("form", FORMS)
def test_no_metadata_secret_reaches_a_message(form: Any) -> None:
    assert PLANTED not in dumped(plain(form([*make_turn(), make_failed()])))
