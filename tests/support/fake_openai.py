"""A scripted OpenAI-compatible chat-completions endpoint on 127.0.0.1 (stdlib, threaded).

It speaks the documented format of ``POST /v1/chat/completions`` (request: ``model``,
``messages``, ``tools``; response: ``choices[0].message`` with ``content`` or
``tool_calls``), so an agent loop can be tested without a paid remote API. A test supplies
``model(request_body) -> message``; every request (body and headers) is recorded.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["FakeChatModel", "RecordedRequest", "final_answer", "http_error", "tool_call"]

_STATUS = "__http_status__"

Model = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def tool_call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """An assistant message that calls one function tool."""
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments)},
            }
        ],
    }


def final_answer(text: str) -> dict[str, Any]:
    """An assistant message with the final text answer."""
    return {"role": "assistant", "content": text}


def http_error(status: int, message: str) -> dict[str, Any]:
    """Makes the endpoint answer ``status`` with an OpenAI-style error body."""
    return {_STATUS: status, "error": {"message": message, "type": "invalid_request_error"}}


class FakeChatModel:
    """Serves ``/v1/chat/completions`` with messages from ``model``; ``base`` ends in ``/v1``.

    Use as a context manager.
    """

    def __init__(self, model: Model) -> None:
        self.model = model
        self.requests: list[RecordedRequest] = []
        fake = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.requests.append(
                    RecordedRequest(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body
                    )
                )
                if self.path != "/v1/chat/completions":
                    self._send(
                        404, {"error": {"message": "not found", "type": "invalid_request_error"}}
                    )
                    return
                message = fake.model(body)
                if _STATUS in message:
                    self._send(message[_STATUS], {"error": message["error"]})
                    return
                finish = "tool_calls" if message.get("tool_calls") else "stop"
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(fake.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "fake"),
                        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _H)
        self._httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> FakeChatModel:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
