"""A real HTTP server on 127.0.0.1 for tests (stdlib, threaded).

Routes map a path to either a :class:`Route` (static answer, sent byte for byte) or a
callable ``handler(request_handler) -> None`` that writes the answer itself (slow drips,
never-ending bodies, bombs). Every request is logged (path, cookie, headers) so tests can
count requests. :func:`load_case` reads a case folder's ``headers.json`` (format in
``tests/fixtures/cases/README.md``), including the cookie-gate logic of case 18.
"""

from __future__ import annotations

import json
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

Handler = Callable[[BaseHTTPRequestHandler], None]


@dataclass
class Route:
    """A static answer.

    Attributes:
        status: HTTP status.
        headers: header pairs in order (duplicates allowed); ``{BASE}`` is replaced.
        body: body bytes, sent as stored.
        chunked: send with ``Transfer-Encoding: chunked``.
        with_cookie: an alternative answer when the request carries ``cookie`` (case 18).
        cookie: the cookie string that selects ``with_cookie``.
    """

    status: int = 200
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""
    chunked: bool = False
    with_cookie: Route | None = None
    cookie: str = "gate=ok"


@dataclass
class LoggedRequest:
    path: str
    cookie: str
    headers: dict[str, str]


class LocalServer:
    """Threaded HTTP/1.1 server on 127.0.0.1 (random port) serving ``routes``.

    Use as a context manager; ``base`` is ``http://127.0.0.1:<port>`` (``https://`` with
    ``tls``, a server-side context).
    """

    def __init__(
        self,
        routes: dict[str, Route | Handler] | None = None,
        host: str = "127.0.0.1",
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.routes: dict[str, Route | Handler] = dict(routes or {})
        self.log: list[LoggedRequest] = []
        self._lock = threading.Lock()
        server = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                server._handle(self)

            def do_HEAD(self) -> None:
                server._handle(self)

        class _Server(ThreadingHTTPServer):
            def handle_error(self, request: Any, client_address: Any) -> None:
                # Clients that hang up early (download caps, timeouts) are expected here.
                import sys

                if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
                    return
                super().handle_error(request, client_address)

        self._httpd = _Server((host, 0), _H)
        self._httpd.daemon_threads = True
        if tls is not None:
            self._httpd.socket = tls.wrap_socket(
                self._httpd.socket, server_side=True, do_handshake_on_connect=False
            )
        self.port = self._httpd.server_address[1]
        self.base = f"{'https' if tls else 'http'}://{host}:{self.port}"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def __enter__(self) -> LocalServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def count(self, path_prefix: str = "") -> int:
        """Requests seen whose path starts with ``path_prefix``."""
        with self._lock:
            return sum(1 for r in self.log if r.path.startswith(path_prefix))

    def reset_log(self) -> None:
        with self._lock:
            self.log.clear()

    def _match(self, raw_path: str) -> Route | Handler | None:
        parts = urlsplit(raw_path)
        got = parse_qs(parts.query)
        for key, route in self.routes.items():
            if "?" in key:
                kpath, kq = key.split("?", 1)
                want = parse_qs(kq)
                if kpath == parts.path and all(got.get(k) == v for k, v in want.items()):
                    return route
        return self.routes.get(parts.path)

    def _handle(self, h: BaseHTTPRequestHandler) -> None:
        cookie = h.headers.get("Cookie", "")
        with self._lock:
            self.log.append(
                LoggedRequest(h.path, cookie, {k.lower(): v for k, v in h.headers.items()})
            )
        route = self._match(h.path)
        if route is None:
            h.send_response(404)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        if callable(route):
            route(h)
            return
        if route.with_cookie is not None and route.cookie in cookie:
            route = route.with_cookie
        send_route(h, route, self.base)


def send_route(h: BaseHTTPRequestHandler, route: Route, base: str) -> None:
    """Write a static route's answer (the case stub rules)."""
    h.send_response_only(route.status)
    names = {k.lower() for k, _ in route.headers}
    for k, v in route.headers:
        h.send_header(k, v.replace("{BASE}", base))
    if route.chunked:
        h.send_header("Transfer-Encoding", "chunked")
    elif "content-length" not in names:
        h.send_header("Content-Length", str(len(route.body)))
    h.end_headers()
    if h.command == "HEAD":
        return
    try:
        if route.chunked:
            for i in range(0, len(route.body), 8192):
                part = route.body[i : i + 8192]
                h.wfile.write(b"%x\r\n" % len(part) + part + b"\r\n")
            h.wfile.write(b"0\r\n\r\n")
        else:
            h.wfile.write(route.body)
    except (BrokenPipeError, ConnectionResetError):
        pass


def _route_from_json(case_dir: Path, spec: dict[str, Any]) -> Route:
    body = (case_dir / spec["body_file"]).read_bytes() if spec.get("body_file") else b""
    route = Route(
        status=spec["status"],
        headers=[(k, v) for k, v in spec.get("headers", [])],
        body=body,
        chunked=bool(spec.get("chunked", False)),
    )
    if "with_cookie" in spec:
        route.with_cookie = _route_from_json(case_dir, spec["with_cookie"])
    return route


def load_case(case_dir: Path) -> dict[str, Route | Handler]:
    """Routes of a case folder's ``headers.json``."""
    data = json.loads((case_dir / "headers.json").read_text(encoding="utf-8"))
    return {path: _route_from_json(case_dir, spec) for path, spec in data["routes"].items()}
