"""In-memory network seams: a scripted resolver and a TCP connector that never opens sockets.

:class:`FakeConnector` implements httpcore2's ``AsyncNetworkBackend``; each connection is
answered by ``app(ip, port, request) -> bytes`` (a whole raw HTTP/1.1 response), and every
``connect_tcp`` call is recorded, so tests can assert which address a connection went to,
and that a blocked request sent nothing at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpcore2


@dataclass
class FakeRequest:
    method: str
    target: str
    headers: dict[str, str]
    ip: str
    port: int
    server_hostname: str | None


App = Callable[[FakeRequest], bytes]


def http_response(
    status: int, headers: list[tuple[str, str]] | None = None, body: bytes = b""
) -> bytes:
    """Raw HTTP/1.1 response bytes with Content-Length."""
    lines = [f"HTTP/1.1 {status} X"]
    for k, v in headers or []:
        lines.append(f"{k}: {v}")
    lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class FakeStream(httpcore2.AsyncNetworkStream):
    def __init__(self, connector: FakeConnector, ip: str, port: int) -> None:
        self.connector = connector
        self.ip = ip
        self.port = port
        self.server_hostname: str | None = None
        self._in = b""
        self._out = b""

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._in += buffer
        if b"\r\n\r\n" in self._in:
            head, _, self._in = self._in.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
            req = FakeRequest(method, target, headers, self.ip, self.port, self.server_hostname)
            self.connector.requests.append(req)
            self._out += self.connector.app(req)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        chunk, self._out = self._out[:max_bytes], self._out[max_bytes:]
        return chunk

    async def aclose(self) -> None:
        pass

    async def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore2.AsyncNetworkStream:
        self.server_hostname = server_hostname
        self.connector.tls_hostnames.append(server_hostname)
        return self

    def get_extra_info(self, info: str) -> Any:
        return None


@dataclass
class FakeConnector(httpcore2.AsyncNetworkBackend):
    """Records every connect_tcp(ip, port) and answers with ``app``."""

    app: App
    connects: list[tuple[str, int]] = field(default_factory=list)
    requests: list[FakeRequest] = field(default_factory=list)
    tls_hostnames: list[str | None] = field(default_factory=list)

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Any = None,
    ) -> httpcore2.AsyncNetworkStream:
        self.connects.append((host, port))
        return FakeStream(self, host, port)

    async def sleep(self, seconds: float) -> None:
        pass


class ScriptedResolver:
    """``await resolver(host)`` answers from a table; a list of lists answers in turn (rebinding)."""

    def __init__(self, answers: dict[str, list[str] | list[list[str]]]) -> None:
        self.answers = answers
        self.calls: list[str] = []

    async def __call__(self, host: str) -> list[str]:
        self.calls.append(host)
        if host not in self.answers:
            raise OSError(f"no such host {host}")
        answer = self.answers[host]
        if answer and isinstance(answer[0], list):
            turn = sum(1 for h in self.calls if h == host) - 1
            seq: list[list[str]] = answer  # type: ignore[assignment,unused-ignore]
            return list(seq[min(turn, len(seq) - 1)])
        return list(answer)  # type: ignore[arg-type,unused-ignore]
