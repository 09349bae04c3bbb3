"""Scripted model APIs on 127.0.0.1 in each provider's documented wire format (stdlib, threaded).

A stub only because the real APIs are paid and remote. One server answers the three APIs the
official SDKs speak:

* ``POST /v1/chat/completions`` — OpenAI chat completions (``choices[0].message``);
* ``POST /v1/responses`` — the OpenAI Responses API (``output`` items);
* ``POST /v1/messages`` — Anthropic Messages (``content`` blocks, ``stop_reason``).

Errors use each provider's documented error body: OpenAI ``{"error": {"message", "type",
"param", "code"}}``, Anthropic ``{"type": "error", "error": {"type", "message"}}``.
A test supplies ``model(path, body) -> Reply``; every request is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "FakeProvider",
    "Recorded",
    "Reply",
    "anthropic_error",
    "anthropic_text",
    "anthropic_tool_use",
    "chat_answer",
    "chat_tool_call",
    "openai_error",
    "responses_function_call",
    "responses_text",
]


@dataclass
class Reply:
    """An HTTP answer: status and JSON body."""

    status: int
    body: dict[str, Any]


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


Model = Callable[[str, dict[str, Any]], Reply]


# --- OpenAI chat completions --------------------------------------------------------------------
def _completion(message: dict[str, Any], model: str) -> Reply:
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return Reply(
        200,
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": model,
            "choices": [
                {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        },
    )


def chat_tool_call(call_id: str, name: str, arguments: dict[str, Any], model: str = "m") -> Reply:
    """A chat completion whose message calls one function tool."""
    call = {"id": call_id, "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)}}  # fmt: skip
    return _completion({"role": "assistant", "content": None, "tool_calls": [call]}, model)


def chat_answer(text: str, model: str = "m") -> Reply:
    """A chat completion with the final text answer."""
    return _completion({"role": "assistant", "content": text}, model)


def openai_error(status: int, message: str, code: str | None = None) -> Reply:
    """OpenAI's documented error body (chat completions and Responses alike)."""
    error = {"message": message, "type": "invalid_request_error", "param": None, "code": code}
    return Reply(status, {"error": error})


# --- OpenAI Responses ----------------------------------------------------------------------------
def _response(output: list[dict[str, Any]], model: str) -> Reply:
    return Reply(
        200,
        {
            "id": "resp_fake",
            "object": "response",
            "created_at": int(time.time()),
            "status": "completed",
            "model": model,
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
                      "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens_details": {"reasoning_tokens": 0}},
        },
    )  # fmt: skip


def responses_function_call(
    call_id: str, name: str, arguments: dict[str, Any], model: str = "m"
) -> Reply:
    """A response whose output is one ``function_call`` item."""
    item = {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id, "name": name,
            "arguments": json.dumps(arguments), "status": "completed"}  # fmt: skip
    return _response([item], model)


def responses_text(text: str, model: str = "m") -> Reply:
    """A response whose output is one assistant message with ``output_text``."""
    item = {"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}  # fmt: skip
    return _response([item], model)


# --- Anthropic Messages --------------------------------------------------------------------------
def _message(content: list[dict[str, Any]], stop: str, model: str) -> Reply:
    return Reply(
        200,
        {
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        },
    )


def anthropic_tool_use(
    tool_use_id: str, name: str, arguments: dict[str, Any], model: str = "m"
) -> Reply:
    """A message that calls one tool (``stop_reason: tool_use``)."""
    block = {"type": "tool_use", "id": tool_use_id, "name": name, "input": arguments}
    return _message([block], "tool_use", model)


def anthropic_text(text: str, model: str = "m") -> Reply:
    """A message with the final text answer (``stop_reason: end_turn``)."""
    return _message([{"type": "text", "text": text}], "end_turn", model)


def anthropic_error(status: int, message: str, kind: str = "invalid_request_error") -> Reply:
    """Anthropic's documented error body."""
    return Reply(status, {"type": "error", "error": {"type": kind, "message": message}})


class FakeProvider:
    """Serves the three APIs with replies from ``model``; ``base`` ends in ``/v1`` (OpenAI
    SDK ``base_url``), ``root`` does not (Anthropic SDK ``base_url``). A context manager."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.requests: list[Recorded] = []
        fake = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                headers = {k.lower(): v for k, v in self.headers.items()}
                path = self.path.split("?")[0]
                fake.requests.append(Recorded(path, headers, body))
                reply = fake.model(path, body)
                data = json.dumps(reply.body).encode()
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.send_header("request-id", f"req_{len(fake.requests)}")
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _H)
        self._httpd.daemon_threads = True
        self.root = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        self.base = f"{self.root}/v1"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> FakeProvider:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
