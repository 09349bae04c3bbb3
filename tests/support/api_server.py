"""A local JSON API stub on 127.0.0.1 (stdlib, threaded) for search-provider tests.

Unlike :mod:`tests.support.http_server` (static routes for web pages), each route here is a
function of the request — method, path, query, headers, body — so one stub speaks a search
API's documented format (GET for SearXNG and Brave, POST with a JSON body for Tavily and
Exa), checks the key header, and answers errors. Every request is logged. A route that must
outlast the client's timeout waits on :attr:`ApiServer.release` (set when the server stops),
so no thread lingers after a test.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


@dataclass
class ApiRequest:
    """One logged request."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes

    def param(self, name: str) -> str | None:
        """The first value of query parameter ``name``."""
        values = self.query.get(name)
        return values[0] if values else None

    def json(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)


@dataclass
class ApiResponse:
    """An answer: status, header pairs (kept in order), body bytes."""

    status: int = 200
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""


def json_response(
    data: Any, status: int = 200, headers: list[tuple[str, str]] | None = None
) -> ApiResponse:
    """A JSON answer (``application/json``)."""
    return ApiResponse(
        status,
        [("Content-Type", "application/json"), *(headers or [])],
        json.dumps(data, ensure_ascii=False).encode("utf-8"),
    )


def raw_response(
    body: bytes | str, status: int = 200, content_type: str | None = "text/html; charset=utf-8"
) -> ApiResponse:
    """An answer with the given body and Content-Type (``None``: no Content-Type header)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    headers = [("Content-Type", content_type)] if content_type else []
    return ApiResponse(status, headers, data)


Route = Callable[[ApiRequest], ApiResponse] | ApiResponse


class ApiServer:
    """Threaded HTTP/1.1 server on 127.0.0.1 (random port).

    Routes are keyed by ``(method, path)``; a missing route answers 404. Use as a context
    manager; ``base`` is ``http://127.0.0.1:<port>``.
    """

    def __init__(self, routes: dict[tuple[str, str], Route] | None = None) -> None:
        self.routes: dict[tuple[str, str], Route] = dict(routes or {})
        self.log: list[ApiRequest] = []
        self.release = threading.Event()
        self._lock = threading.Lock()
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                server._handle(self)

            def do_POST(self) -> None:
                server._handle(self)

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self.port = self._httpd.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> ApiServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def count(self, path: str = "") -> int:
        """Requests seen whose path starts with ``path``."""
        with self._lock:
            return sum(1 for r in self.log if r.path.startswith(path))

    def requests(self) -> list[ApiRequest]:
        """A copy of the request log."""
        with self._lock:
            return list(self.log)

    def stalled(self, seconds: float = 30.0) -> Callable[[ApiRequest], ApiResponse]:
        """A route that answers only after ``seconds`` or when the server stops."""

        def route(request: ApiRequest) -> ApiResponse:
            self.release.wait(seconds)
            return json_response({"results": []})

        return route

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        parts = urlsplit(h.path)
        length = int(h.headers.get("Content-Length") or 0)
        body = h.rfile.read(length) if length else b""
        request = ApiRequest(
            method=h.command,
            path=parts.path,
            query=parse_qs(parts.query, keep_blank_values=True),
            headers={k.lower(): v for k, v in h.headers.items()},
            body=body,
        )
        with self._lock:
            self.log.append(request)
        route = self.routes.get((h.command, parts.path))
        if route is None:
            answer = ApiResponse(404, [("Content-Type", "text/plain")], b"not found")
        elif callable(route):
            answer = route(request)
        else:
            answer = route
        try:
            h.send_response_only(answer.status)
            for name, value in answer.headers:
                h.send_header(name, value)
            h.send_header("Content-Length", str(len(answer.body)))
            h.end_headers()
            h.wfile.write(answer.body)
        except (BrokenPipeError, ConnectionResetError):
            pass
